"""vLLM's compiled decode graph folds per-tensor FP8 activation quantization into the kernels before it (branch
kernfloor40, issue 22 items 1, 6).

serving.yaml vLLM ``vendor_overrides.nvidia.act_quant_fused_from`` 0.10.0: from vLLM pull request #19830 (QuantFP8, a
CustomOp whose torch form Inductor fuses; named as merged by issue #20711, 2025-07-09) a W8A8 FP8 dense layer whose
activations are quantized per tensor or per token launches one quantization kernel of its own (the attention output's,
the first op of its compiled graph piece) instead of step.py's QUANT_KERNELS_DENSE four; the others run inside the
residual-add + RMSNorm and SiLU-and-mul kernels (docs/design/optimization_levels.md: the fusion passes only for custom
kernels, 'otherwise Inductor fusion is better'). Block-scaled checkpoints keep their per-group quantization kernels
(pull request #37960, closed). Qwen3-8B (config.json: 36 layers, dense) and Llama 3.1 405B (126 layers; Meta's FP8
checkpoint scales per channel, serving.yaml fp8_checkpoints) are the shapes counted by hand below.
"""

from __future__ import annotations

import importlib

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

ST = importlib.import_module("gpuwise.estimators.serving.step")


def _pair(kb, model, gpu, count, tp, version=None, quantization=None):
    w = {"task": "inference", "model": model, "precision": "fp8", "framework": "vllm",
         "prompt_tokens": 12, "output_tokens": 256, "parallelism": {"tp": tp}}
    if version:
        w["framework_version"] = version
    if quantization:
        w["quantization"] = quantization
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(job, kb.gpus[gpu], count)
    return job, s


@pytest.mark.parametrize("version, quantization, fused", [
    ("0.18.0", "fp8", True),    # SU11's run: online FP8 (per-tensor weights, dynamic activations) on 0.18.0
    (None, "fp8", True),        # a job that states no release gets the current build
    ("0.9.2", "fp8", False),    # before the first release taken with #19830
    ("0.18.0", None, False),    # Qwen's own Qwen3-8B-FP8 is block-scaled (fp8_checkpoints): group quantization stays
])
def test_qwen3_8b_counts_one_quantization_a_layer_where_compile_folds_the_rest(kb, version, quantization, fused):
    """36 layers: 36 x 1 = 36 counted quantization kernels where the graph folds them, 36 x 4 = 144 where not."""
    _, s = _pair(kb, "qwen3-8b", "h100-80gb-sxm", 2, 2, version, quantization)
    assert s.engine.act_quant_fused is fused
    small, grouped = ST._extra_kernels(s.engine)
    assert (small, grouped) == ((36 * 1 if fused else 36 * 4), 0)


def test_su11_step_loses_three_quantizations_a_layer_at_the_vllm_floor(kb):
    """SU11 (waynehacking8/trtllm-triton-serving results/vllm_fp8-c1.json: Qwen3-8B online FP8 on two H100 at TP 2,
    itl_mean 3.45 ms, 289.86 tok/s): the step drops 3 x 36 = 108 kernels at the 10 us floor, 1.08 ms, from the 4.33 ms
    the blind round scored (-20.3%) to 3.25 ms, ~308 tok/s (+6%)."""
    job, s = _pair(kb, "qwen3-8b", "h100-80gb-sxm", 2, 2, "0.18.0", "fp8")
    c = ST.consts(job, s.engine, s.replica)
    fused = ST._parts(c, 1.0, 0.0, 12 + 128, 0.0)[0]
    assert s.engine.kernel_floor == pytest.approx(10e-6)
    assert ST.floor_per_step(s.engine) == pytest.approx(36 * 10e-6)
    assert 1 / fused == pytest.approx(289.86, rel=0.10)


def test_a_channel_scaled_checkpoint_is_folded_and_amd_keeps_its_kernels(kb):
    """Meta's Llama 3.1 405B FP8 (per-channel weights, per-token dynamic activations: fp8_checkpoints channel) on
    8 x H100: 126 x 1 = 126 counted kernels; the same job on 8 x MI300X keeps 126 x 4 = 504 (the figure was read on the
    CUDA build only)."""
    _, s = _pair(kb, "llama-3.1-405b", "h100-80gb-sxm", 8, 8)
    assert s.engine.act_quant_fused is True
    assert ST._extra_kernels(s.engine) == (126, 0)
    _, amd = _pair(kb, "llama-3.1-405b", "mi300x", 8, 8)
    assert amd.engine.act_quant_fused is False
    assert ST._extra_kernels(amd.engine) == (504, 0)
