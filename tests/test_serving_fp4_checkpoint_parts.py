"""What NVIDIA's published NVFP4 checkpoints leave in 16 bit (knowledge/serving.yaml ``fp4_checkpoints``), priced by
hand. Source of every module split: NVIDIA/Model-Optimizer tools/recipe_backfill/published_checkpoints.json @
d69ab24e (each release's module formats, read from its hf_quant_config.json and safetensors headers) and
modelopt_recipes/published_checkpoints.md @ 28675dcd (the recipe that reproduces each release). NVFP4 is 4.5 bits a
weight with its E4M3 scale per 16 (serving.yaml formats.nvfp4); a 16-bit part is 2 bytes a weight. Parameter counts
from the catalog's shapes (knowledge/models.yaml), each restated below."""

from __future__ import annotations

import importlib

import pytest

from gpuwise.estimators import memory as M
from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.engine import checkpoint_keeps, model_bytes, quant_formats
from gpuwise.inputs.schema import Workload
from gpuwise.inputs.shape import from_workload

ST = importlib.import_module("gpuwise.estimators.serving.step")
FP4 = 4.5 / 8


def _shape(kb, model: str):
    return from_workload(Workload(model=model, task="inference"), kb.models[kb.model(model).id])


def _bytes(kb, model: str):
    job_keeps = tuple(kb.serving.fp4_checkpoints[kb.model(model).id].keeps_16bit)
    return model_bytes(_shape(kb, model), "nvfp4", quant_formats(kb), job_keeps)


def test_minimax_m2_5_experts_only_by_hand(kb):
    """nvidia/MiniMax-M2.5-NVFP4 (experts-only recipe): 62 layers x 256 experts x 3 x 3,072 x 1,536 =
    224,680,476,672 routed weights at 4.5 bits = 126.38 GB; the 4,009,288,192 others (q/k/v/o, gate, embedding and
    head: MiniMax-M2 has no shared expert or dense layer) at 2 bytes = 8.02 GB; 134.40 GB = 125.2 GiB, against the
    126 GB an independent experts-only export states (mconcat/MiniMax-M2.5-NVFP4); every linear at 4.5 bits gave
    130.48 GB."""
    routed = 62 * 256 * 3 * 3072 * 1536
    sh = _shape(kb, "minimax-m2")
    assert M.routed_expert_params(sh) == pytest.approx(routed, rel=1e-9)
    mb = _bytes(kb, "minimax-m2")
    assert mb.total == pytest.approx(routed * FP4 + (sh.params - routed) * 2, rel=1e-9)
    assert mb.total / 1e9 == pytest.approx(134.40, abs=0.01)
    assert mb.total / 2**30 == pytest.approx(126, rel=0.01)
    assert mb.low_dense == 0.0  # no dense linear in FP4: every dense GEMM at the 16-bit rate


def test_glm_4_7_attention_in_bf16_by_hand(kb):
    """nvidia/GLM-4.7-NVFP4 (MLP-only recipe) on GLM-4.5's shapes: 92 layers x (5,120 x (12,288 + 2 x 1,024) +
    12,288 x 5,120) = 12,540,968,960 attention weights at 2 bytes beside the gate and the embedding and head; the
    routed, shared and dense MLP weights at 4.5 bits: 218.81 GB, where attention at 4.5 bits gave 200.78 GB."""
    attn = 92 * (5120 * (12288 + 2 * 1024) + 12288 * 5120)
    sh = _shape(kb, "glm-4.5")
    assert sh.layers * sh.attn_params_per_layer() == attn
    mb = _bytes(kb, "glm-4.5")
    base = model_bytes(sh, "nvfp4", quant_formats(kb))
    assert mb.total - base.total == pytest.approx(attn * (2 - FP4), rel=1e-9)
    assert mb.total / 1e9 == pytest.approx(218.81, abs=0.01)


def test_deepseek_v3_1_keeps_the_attention_inputs(kb):
    """nvidia/DeepSeek-V3.1-NVFP4 (the R1 -v2 recipe): q_a/q_b/kv_a/kv_b in BF16, o_proj (61 x 128 x 128 x 7,168 =
    7,163,871,232 weights) NVFP4: 386.38 GB, 10.30 GB less than DeepSeek-V3-0324's release with o_proj in BF16 too."""
    o_proj = 61 * 128 * 128 * 7168
    v31, v3 = _bytes(kb, "deepseek-v3.1"), _bytes(kb, "deepseek-v3")
    assert v3.total - v31.total == pytest.approx(o_proj * (2 - FP4), rel=1e-9)
    assert v31.total / 1e9 == pytest.approx(386.38, abs=0.01)


def test_kimi_k2_thinking_nvfp4_is_the_int4_release_at_the_same_bits(kb):
    """nvidia/Kimi-K2-Thinking-NVFP4 (experts-only) stores the routed experts at 4.5 bits and the rest in BF16, as the
    INT4 release does at its own 4.5 bits (group 32): 594.21 GB both (int4_checkpoints kimi-k2, ~594 GB on the hub)."""
    fp4 = _bytes(kb, "kimi-k2")
    int4 = model_bytes(_shape(kb, "kimi-k2"), "int4", quant_formats(kb), ("non_experts",), 4.5)
    assert fp4.total == pytest.approx(int4.total, rel=1e-12)
    assert fp4.total / 1e9 == pytest.approx(594.21, abs=0.01)


def test_an_experts_only_checkpoint_quantizes_no_dense_input_and_walks_no_k(kb, accuracy):
    """SK14's job (nvidia/Qwen3.5-397B-A17B-NVFP4 on SGLang): no dense NVFP4 linear, so no activation-quantization
    kernel apart (the routed experts quantize in the fused-MoE kernel) and no NVFP4 K-walk; the same job with a file
    named (a third party's NVFP4 export) keeps the all-NVFP4 pricing."""
    job = accuracy.serving_job(kb, "qwen3.5-397b-a17b", "fp4", "sglang", 8192, 1024, 1024, 4, 1)
    assert checkpoint_keeps(job, "nvfp4", None) == ("non_experts",)
    assert checkpoint_keeps(job, "nvfp4", "nvfp4") == ()
    eng = SV.choose(job, kb.gpus["b200"], 4).engine
    assert eng.fp4_quant_attn == -1 and ST.fp4_quant_kernels(eng) == 0.0


def test_rtx_pro_walks_no_k_for_an_experts_only_release(kb, accuracy):
    """On an SM120 part (nvfp4_k_walk) a dense NVFP4 GEMM walks its K blocks; MiniMax-M2.5's experts-only release
    has none, unless a file is named (DY06's lukealonso export, priced as before)."""
    job = accuracy.serving_job(kb, "minimax-m2", "fp4", "vllm", 2048, 1024, 1, 4, 1)
    gpu = kb.gpus["rtx-pro-6000-blackwell-max-q"]
    assert SV.engine(job, gpu).k_block == 0.0
    assert SV.engine(job, gpu, weight_format="nvfp4").k_block > 0.0


@pytest.mark.parametrize("model, routed, gb", [
    # nvidia/Qwen3.5-397B-A17B-NVFP4 (experts-only): 60 layers x 512 experts x 3 x 4,096 x 1,024 routed weights
    ("qwen3.5-397b-a17b", 60 * 512 * 3 * 4096 * 1024, 237.03),
    # nvidia/Gemma-4-26B-A4B-NVFP4 (experts-only; the dense MLP beside them BF16): 30 x 128 x 3 x 2,816 x 704
    ("gemma-4-26b-a4b", 30 * 128 * 3 * 2816 * 704, 17.64),
])
def test_experts_only_releases_by_hand(kb, model, routed, gb):
    """The routed experts at 4.5 bits, every other weight of the catalog's count at 2 bytes."""
    sh = _shape(kb, model)
    assert M.routed_expert_params(sh) == pytest.approx(routed, rel=1e-9)
    mb = _bytes(kb, model)
    assert mb.total == pytest.approx(routed * FP4 + (sh.params - routed) * 2, rel=1e-9)
    assert mb.total / 1e9 == pytest.approx(gb, abs=0.01)


@pytest.mark.parametrize("model, kept, gb", [
    # nvidia/GLM-5-NVFP4 (MLP-only): the catalog's attention weights of 78 layers (MLA projections) in BF16
    ("glm-5", 12_871_532_544, 439.86),
    # nvidia/Gemma-4-31B-IT-NVFP4 (MLP-only): q/k/v/o of 60 layers in BF16
    ("gemma-4-31b", 8_477_736_960, 31.48),
    # nvidia/DeepSeek-V3.2-NVFP4 (o_proj and MLP NVFP4): the attention inputs, 11,413,422,080 - 61 x 16,384 x 7,168
    ("deepseek-v3.2-exp", 11_413_422_080 - 61 * 16384 * 7168, 386.86),
])
def test_attention_in_bf16_by_hand(kb, model, kept, gb):
    """The kept attention weights cost 2 - 4.5 / 8 bytes more each than the all-NVFP4 pricing."""
    sh = _shape(kb, model)
    base = model_bytes(sh, "nvfp4", quant_formats(kb))
    mb = _bytes(kb, model)
    assert mb.total - base.total == pytest.approx(kept * (2 - FP4), rel=1e-9)
    assert mb.total / 1e9 == pytest.approx(gb, abs=0.01)
