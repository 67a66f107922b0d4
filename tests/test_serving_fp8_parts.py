"""NVIDIA's NVFP4 releases that store some parts in FP8 (knowledge/serving.yaml ``fp4_checkpoints`` ``fp8``), priced
by hand. Source of every module split: NVIDIA/Model-Optimizer tools/recipe_backfill/published_checkpoints.json @
d69ab24e (each release's module formats, read from its hf_quant_config.json and safetensors headers). NVFP4 is 4.5
bits a weight (serving.yaml formats.nvfp4), FP8 with per-tensor scales 8 bits (runtime.yaml quantization.fp8), a
16-bit part 2 bytes. Parameter counts from the catalog's shapes (knowledge/models.yaml), each restated below."""

from __future__ import annotations

import importlib

import pytest
from pydantic import ValidationError

from gpuwise.estimators import memory as M
from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.engine import checkpoint_fp8, model_bytes, quant_formats
from gpuwise.estimators.serving.support import peak_tflops
from gpuwise.estimators.serving.weights import mixer_params, shared_params
from gpuwise.inputs.schema import Workload
from gpuwise.inputs.shape import from_workload
from gpuwise.knowledge.schema.checkpoints import Fp4Checkpoint

ST = importlib.import_module("gpuwise.estimators.serving.step")
FP4 = 4.5 / 8
SUPER = "nvidia-nemotron-3-super-120b-a12b"
# Nemotron 3 Super's FP8 mixer weights (published_checkpoints.json): Mamba in_proj (4096 -> 2 x 8192 + 2 x 8 x 128
# + 128 = 18,560) in 28 of 40 blocks, out_proj (8192 -> 4096) in 29, attention o_proj (4096 -> 4096) in 2 of 8
SUPER_FP8_MIXERS = 28 * 4096 * 18560 + 29 * 8192 * 4096 + 2 * 4096 * 4096


def _shape(kb, model: str):
    return from_workload(Workload(model=model, task="inference"), kb.models[kb.model(model).id])


def _bytes(kb, model: str):
    ck = kb.serving.fp4_checkpoints[kb.model(model).id]
    return model_bytes(_shape(kb, model), "nvfp4", quant_formats(kb), tuple(ck.keeps_16bit), None,
                       tuple(sorted(ck.fp8.items())))


def test_nemotron_3_super_shares_are_the_checkpoints_by_weight(kb):
    """The entry's shares, from the module list: mixers 3,135,242,240 FP8 of the 4,671,036,416 mixer weights (40
    Mamba blocks of 4096 x 18,560 + 8192 x 4096 + conv, 8 attention blocks of 2 x 4096 x 4096 + 2 x 4096 x 256,
    norms) = 0.671; shared experts (up FP8 in 39 of 40 blocks, down in 37) 76 of 80 equal projections = 0.95."""
    sh = _shape(kb, SUPER)
    assert SUPER_FP8_MIXERS == 3_135_242_240
    assert mixer_params(sh) == pytest.approx(4_671_036_416, rel=1e-9)
    assert shared_params(sh) == 40 * 2 * 2 * 4096 * 2688  # two routed widths of 2688 at hidden 4096, up and down
    fp8 = dict(kb.serving.fp4_checkpoints[SUPER].fp8)
    assert fp8["mixers"] == pytest.approx(SUPER_FP8_MIXERS / mixer_params(sh), abs=5e-4)
    assert fp8["shared_experts"] == (39 + 37) / 80


def test_nemotron_3_super_bytes_close_on_its_published_size(kb):
    """112,742,891,520 routed weights (40 x 512 x 2 x 1024 x 2688) at 4.5 bits = 63.42 GB; 4.81 B FP8 weights at 1
    byte; the other 3.12 B (embedding, head, 16-bit mixer and shared-expert remainder, latent projections, gate) at 2
    bytes: 74.46 GB = 69.35 GiB, against the 69.5 GiB kubis.ai gives the checkpoint (DL01's source); every dense
    linear at 4.5 bits gave 69.54 GB, everything but the routed experts at 2 bytes 79.27 GB."""
    sh = _shape(kb, SUPER)
    routed = 40 * 512 * 2 * 1024 * 2688
    assert M.routed_expert_params(sh) == pytest.approx(routed, rel=1e-9)
    fp8 = 0.671 * mixer_params(sh) + 0.95 * shared_params(sh)
    mb = _bytes(kb, SUPER)
    assert mb.fp8_params == pytest.approx(fp8, rel=1e-12)
    assert mb.total == pytest.approx(routed * FP4 + fp8 * 1.0 + (sh.params - routed - fp8) * 2.0, rel=1e-12)
    assert mb.total / 1e9 == pytest.approx(74.46, abs=0.01)
    assert mb.total / 2**30 == pytest.approx(69.5, rel=0.005)
    assert mb.low_dense == 0.0  # no dense NVFP4 linear: the rest of the dense GEMMs at the 16-bit rate


def test_qwen3_6_35b_a3b_mixers_in_fp8_by_hand(kb):
    """nvidia/Qwen3.6-35B-A3B-NVFP4 (the catalog's qwen3.5-35b-a3b): 30 DeltaNet layers' qkv (2048 -> 8192), z (2048
    -> 4096) and out (4096 -> 2048) and 10 attention layers' gated q (2048 -> 8192), k and v (2048 -> 512), o (4096
    -> 2048) in FP8: 1,279,262,720 of the 1,284,436,608 mixer weights = 0.996; routed and shared experts at 4.5
    bits, gate, embedding and head at 2 bytes: 21.55 GB, 0.56 GB over every linear at 4.5 bits (20.99 GB)."""
    sh = _shape(kb, "qwen3.5-35b-a3b")
    fp8_mixers = 30 * (2048 * 8192 + 2048 * 4096 + 4096 * 2048) + 10 * (2048 * 8192 + 2 * 2048 * 512 + 4096 * 2048)
    assert fp8_mixers == 1_279_262_720
    assert mixer_params(sh) == pytest.approx(1_284_436_608, rel=1e-9)
    assert kb.serving.fp4_checkpoints["qwen3.5-35b-a3b"].fp8 == {"mixers": 0.996}
    mb = _bytes(kb, "qwen3.5-35b-a3b")
    base = model_bytes(sh, "nvfp4", quant_formats(kb), ("router",))
    fp8 = 0.996 * mixer_params(sh)
    assert mb.total - base.total == pytest.approx(fp8 * (1.0 - FP4), rel=1e-9)
    assert mb.low_dense == pytest.approx(base.low_dense - fp8 * FP4, rel=1e-9)
    assert mb.total / 1e9 == pytest.approx(21.55, abs=0.01)


def test_the_fp8_parts_run_at_the_fp8_rate_and_quantize_their_input(kb, accuracy):
    """LM02's job (the Super release on one B200, vLLM): the dense GEMMs' math a token is the FP4 share at the FP4
    rate, 2 x 4.81 B FP8 FLOPs at the B200's FP8 peak at the framework's efficiency, the rest at the 16-bit rate;
    the FP8 layers quantize their input apart as the W8A8 layers do, one kernel a GEMM: 2 x 48 mixers x 0.671 + 2 x
    40 shared experts x 0.95 = 140.4 kernels a forward (no NVFP4 dense input: the release has no dense NVFP4
    linear); a file named (a third party's all-NVFP4 export) keeps no FP8 part."""
    job = accuracy.serving_job(kb, SUPER, "fp4", "vllm", 8192, 1024, 32, 1)
    assert checkpoint_fp8(job, "nvfp4", None) == (("mixers", 0.671), ("shared_experts", 0.95))
    assert checkpoint_fp8(job, "nvfp4", "nvfp4") == ()
    b200 = kb.gpus["b200"]
    eng = SV.engine(job, b200)
    assert eng.peak_fp8 == pytest.approx(peak_tflops(b200, "fp8") * 1e12 * eng.compute_eff, rel=1e-12)
    assert eng.peak_fp8 == pytest.approx(eng.peak_attn * 2, rel=1e-9)  # B200: 4.5 PFLOPS FP8, 2.25 BF16 dense
    sc, mb = eng.sc, eng.mbytes
    dense = 2.0 * (sc.n_active - sc.n_experts_active)
    f8 = 2.0 * mb.fp8_params
    want = f8 / eng.peak_fp8 + (dense - f8) / eng.peak_attn
    assert ST.dense_math_seconds(eng, eng.peak_gemm) == pytest.approx(want, rel=1e-12)
    assert eng.fp4_quant_attn == -1 and not eng.fuses_shared
    assert ST.fp4_quant_kernels(eng) == pytest.approx(2 * 48 * 0.671 + 2 * 40 * 0.95, rel=1e-12)
    assert SV.engine(job, b200, weight_format="nvfp4").mbytes.fp8_parts == ()


def test_qwen3_6_w4a16_experts_run_at_the_16_bit_rate(kb, accuracy):
    """SJ09's job (nvidia/Qwen3.6-35B-A3B-NVFP4 on SGLang 0.5.15, one B200): the release stores its routed experts
    W4A16_NVFP4, so their GEMMs run at no more than the B200's 16-bit dense peak (2.25 PFLOPS) at the framework's
    efficiency, where a file named (a W4A4 export) keeps the fused-MoE kernel's own rate."""
    job = accuracy.serving_job(kb, "qwen3.5-35b-a3b", "fp4", "sglang", 8192, 1024, 1024, 1, framework_version="0.5.15")
    b200 = kb.gpus["b200"]
    eng, w4a4 = SV.engine(job, b200), SV.engine(job, b200, weight_format="nvfp4")
    assert kb.serving.fp4_checkpoints["qwen3.5-35b-a3b"].weight_only == ["routed_experts"]
    bf16 = peak_tflops(b200, "bf16") * 1e12 * eng.compute_eff
    assert bf16 == pytest.approx(2.25e15 * eng.compute_eff, rel=1e-9)
    assert eng.moe_rate == pytest.approx(min(w4a4.moe_rate, bf16), rel=1e-12) and eng.moe_rate < w4a4.moe_rate


def test_a_share_outside_the_part_is_refused():
    """A share is a fraction of the part's weights: above 0, at most 1."""
    for share in (0.0, 1.2):
        with pytest.raises(ValidationError):
            Fp4Checkpoint(repository="a/b", format="nvfp4", keeps_16bit=["router"], fp8={"mixers": share},
                          source="test")
