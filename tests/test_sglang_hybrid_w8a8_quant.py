"""A Nemotron-H block holds one mixer or one MLP, so a W8A8 FP8 forward quantizes activations before two GEMMs a
block, not the four of a layer that holds both (branch sglangmoe54, issue 22 item 1).

SGLang's FP8 linear (sglang 0.5.6.post2 wheel from PyPI, python/sglang/srt/layers/quantization/fp8_utils.py
apply_fp8_linear, called by modelopt_quant.py ModelOptFp8LinearMethod.apply) quantizes its input in a kernel of its own
(static_quant_fp8 with the checkpoint's per-tensor input scale) and then runs the scaled GEMM: one quantization a
quantized linear. Nemotron 3 Nano (models.yaml: 52 blocks, 23 Mamba-2 mixers with in_proj / out_proj, 6 attention
mixers with qkv / o_proj, 23 MoE blocks whose shared expert has up_proj / down_proj; sglang models/nemotron_h.py
NemotronHMLP) therefore has 52 x 2 = 104 dense quantizations, where step.QUANT_KERNELS_DENSE x 52 = 208 counted
four a block; the routed experts keep step.QUANT_KERNELS_MOE (2) a MoE block.
"""

from __future__ import annotations

import importlib

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

ST = importlib.import_module("gpuwise.estimators.serving.step")


def _engine(kb, model, precision, gpu="b200"):
    w = {"task": "inference", "model": model, "precision": precision, "framework": "sglang",
         "prompt_tokens": 508, "output_tokens": 517, "concurrent_requests": 256, "parallelism": {"tp": 1},
         "framework_version": "0.5.6.post2"}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    return SV.choose(job, kb.gpus[gpu], 1).engine


def test_nemotron_3_nano_fp8_quantizes_twice_a_block(kb):
    """FP8 - BF16 kernels a forward: 52 blocks x 2 + 23 MoE blocks x 2 = 150 (was 52 x 4 + 46 = 254)."""
    nano = "nvidia-nemotron-3-nano-30b-a3b"
    fp8, bf16 = _engine(kb, nano, "fp8"), _engine(kb, nano, "bf16")
    assert ST.w8a8_quant_kernels(fp8.sc) == 104
    (k8, g8), (k16, g16) = ST._extra_kernels(fp8), ST._extra_kernels(bf16)
    assert (k8 - k16, g8 - g16) == (52 * 2 + 23 * 2, 0)
    # every block's extra kernels reach the eager prefill's launch count too
    assert ST.kernels_per_forward(fp8) - ST.kernels_per_forward(bf16) == 150


def test_a_model_whose_layers_hold_both_keeps_four(kb):
    """Qwen3-30B-A3B (48 layers, each attention and MoE): 48 x 4 = 192, as before."""
    eng = _engine(kb, "qwen3-30b-a3b", "fp8", "h100-80gb-sxm")
    assert ST.w8a8_quant_kernels(eng.sc) == 48 * 4


def test_nemotron_3_fp8_checkpoints_scale_per_tensor(kb):
    """NVIDIA/Model-Optimizer published_checkpoints.json @ d69ab24e: the Nano and Super FP8 releases are quant_algo FP8
    (per tensor, serving.yaml fp8_checkpoints). vLLM's compiled graph (act_quant_fused_from 0.10.0) then folds all but
    one quantization a block: 52 x 1 for the Nano; SGLang compiles nothing, so it keeps 52 x 2 = 104."""
    nano = "nvidia-nemotron-3-nano-30b-a3b"
    assert kb.serving.fp8_checkpoints[nano].scaling == "tensor"
    assert kb.serving.fp8_checkpoints["nvidia-nemotron-3-super-120b-a12b"].scaling == "tensor"
    def vllm(precision):
        w = {"task": "inference", "model": nano, "precision": precision, "framework": "vllm",
             "prompt_tokens": 1024, "output_tokens": 1024, "parallelism": {"tp": 1}}
        job = resolve(Requirements.model_validate({"workload": w}), kb)
        return SV.choose(job, kb.gpus["h200-141gb-sxm"], 1).engine

    fp8, bf16 = vllm("fp8"), vllm("bf16")
    assert fp8.act_quant_fused is True
    # 52 x 1 folded dense quantizations + the routed experts' 23 x 2, which stay kernels of their own
    assert ST._extra_kernels(fp8)[0] - ST._extra_kernels(bf16)[0] == 52 + 46
    assert _engine(kb, nano, "fp8").act_quant_fused is False
