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
from dataclasses import replace

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


def _rq03(kb, model="llama-3.1-70b"):
    """RQ03's server (serving_rate.csv: vLLM 0.14.1, Llama 3.1 70B Instruct FP8 from NVIDIA's ModelOpt release, one
    H200, TP 1, FP8 KV cache, 207-token prompts, ~198 out)."""
    w = {"task": "inference", "model": model, "precision": "fp8", "framework": "vllm", "framework_version": "0.14.1",
         "prompt_tokens": 207, "output_tokens": 198, "kv_precision": "fp8", "parallelism": {"tp": 1}}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    return job, SV.choose(job, kb.gpus["h200-141gb-sxm"], 1)


def test_llama_3_1_fp8_checkpoints_are_modelopts_per_tensor_release(kb):
    """Branch fp8fuse55: NVIDIA/Model-Optimizer tools/recipe_backfill/published_checkpoints.json @ d69ab24e gives
    nvidia/Llama-3.1-70B-Instruct-FP8, nvidia/Llama-3.3-70B-Instruct-FP8 and nvidia/Llama-3.1-8B-Instruct-FP8 as
    quant_algo FP8 (one weight scale and one static input scale a linear); Meta publishes an FP8 checkpoint for the
    405B only (fbgemm, per channel)."""
    cks = kb.serving.fp8_checkpoints
    assert cks["llama-3.1-70b"].scaling == "tensor" and cks["llama-3.1-8b"].scaling == "tensor"
    assert cks["llama-3.1-405b"].scaling == "channel"
    assert "nvidia/llama-3.3-70b-instruct-fp8" in kb.models["llama-3.1-70b"].aliases


def test_rq03_decode_step_by_hand_with_and_without_the_quantization_kernels(kb):
    """RQ03's decode step at 5 running sequences of mean context 207 + 198 / 2 = 306, counted by hand:
    weights: 80 layers x (q 8192^2 + k, v 2 x 8192 x 1024 + o 8192^2 + gate, up, down 3 x 8192 x 28672) = 68.451 G FP8
    bytes + the BF16 lm_head 2 x 128256 x 8192 = 2.101 GB (+ the norms) = 70.55 GB at 0.80 x 4.8 TB/s: 18.37 ms;
    math: 5 tokens x 2 x 69.50 G at 0.50 x 1,979 TFLOP/s: 0.70 ms; KV: 5 x 306 x 80 x 2 x 8 x 128 B (FP8) = 250.7 MB at
    3.84 TB/s: 0.07 ms; 80 layers x 10 us; host 0.4 ms + 5 x 12 us. The activation quantization: ModelOpt's static
    per-tensor scheme builds a QuantFP8 in vLLM 0.14.1 (Fp8LinearOp), whose torch form Inductor folds into the norm
    and SiLU-and-mul kernels: 80 x 1 at the 10 us floor (0.8 ms; 21.20 ms a step) where 80 x 4 (3.2 ms; 23.60 ms)
    were charged while the model had no fp8_checkpoints entry. The runs' TPOT p50 is 20.4 ms at 1 request/s, prefill
    steps included (serving_rate.csv RQ03): +4% against +16%."""
    job, s = _rq03(kb)
    assert s.engine.act_quant_fused is True
    layers, head = 80 * (2 * 8192 * 8192 + 2 * 8192 * 1024 + 3 * 8192 * 28672), 128256 * 8192
    weights = layers + 2 * head  # bytes: FP8 projections, BF16 lm_head
    assert s.engine.kernel_floor == pytest.approx(10e-6) and s.engine.layer_overhead == pytest.approx(10e-6)
    host = s.engine.step_overhead + 5 * s.engine.seq_overhead
    assert host == pytest.approx(0.46e-3)
    by_hand = (weights / (0.80 * 4.8e12) + 5 * 2 * (layers + head) / (0.50 * 1979e12)
               + 5 * 306 * 80 * 2 * 8 * 128 / (0.80 * 4.8e12) + 80 * 10e-6 + host)
    fused = by_hand + 80 * 1 * 10e-6
    unfused = by_hand + 80 * 4 * 10e-6
    got = ST.seconds_of(ST.consts(job, s.engine, s.replica), 5, 0.0, 306, 0.0)
    assert got == pytest.approx(fused, rel=2e-3) and got == pytest.approx(21.20e-3, rel=2e-3)
    four = replace(s.engine, act_quant_fused=False)
    assert ST._extra_kernels(four) == (320, 0)
    assert ST.seconds_of(ST.consts(job, four, s.replica), 5, 0.0, 306, 0.0) == pytest.approx(unfused, rel=2e-3)
    assert unfused - fused == pytest.approx(2.4e-3)
    assert fused / 20.4e-3 - 1 == pytest.approx(0.04, abs=0.01)
