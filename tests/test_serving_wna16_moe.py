"""vLLM 0.7.3 runs a weight-only 4-bit (AWQ/GPTQ) model's experts, where a layer has more than 32 of them, on the
Triton moe_wna16 kernel (knowledge/serving.yaml vllm wna16_moe): awq_marlin.py's get_quant_method in the vllm-0.7.3
wheel hands such a FusedMoE layer to MoeWNA16Config, whose apply calls fused_experts(..., use_int4_w4a16=True); the
0.8.0 wheel adds the CUDA moe_wna16 kernel for small batches (should_moe_wna16_use_cuda). vllm-project/vllm pull request
#13321 (Feb 2025) measured cognitivecomputations/DeepSeek-V3-AWQ on 8 x A100 at batch 1: 34.1 tok/s with the Triton
kernel, 48.1 with the CUDA one. The kernel's fixed time per grouped expert GEMM (137 us, against Ampere's 24 us for
the BF16/FP8 fused-MoE kernel) is the figure that reproduces the Triton run; every other job keeps its floor."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV

GROUPED_PER_STEP = 2 * 58  # DeepSeek-V3: two grouped expert GEMMs in each of its 58 MoE layers


def _point(kb, accuracy, model: str, precision: str, version: str | None, gpu: str, count: int = 8,
           prompt: int = 16, output: int = 256):
    job = accuracy.serving_job(kb, model, precision, "vllm", prompt, output, tp=count, framework_version=version)
    s = SV.choose(job, kb.gpus[gpu], count)
    return s.engine, SV.point(job, s.engine, s.replica, 1.0)


def test_the_triton_run_of_pull_request_13321(kb, accuracy):
    """DeepSeek-V3-AWQ, TP 8 on 8 x A100 80GB, batch 1, a short prompt: 34.1 tok/s (29.33 ms a token). By hand: the
    step with Ampere's 24 us per grouped GEMM, plus 116 x (137 - 24) us = 13.11 ms."""
    eng_new, new = _point(kb, accuracy, "deepseek-v3", "int4", "0.8.0", "a100-80gb-sxm")
    eng_old, old = _point(kb, accuracy, "deepseek-v3", "int4", "0.7.3", "a100-80gb-sxm")
    assert eng_new.grouped_floor == pytest.approx(24e-6) and eng_old.grouped_floor == pytest.approx(137e-6)
    assert old.decode_step - new.decode_step == pytest.approx(GROUPED_PER_STEP * (137 - 24) * 1e-6, rel=1e-9)
    assert 1 / old.decode_step == pytest.approx(34.1, rel=0.01)


@pytest.mark.parametrize(("model", "precision", "version", "gpu", "floor_us"), [
    ("deepseek-v3", "int4", None, "h100-80gb-sxm", 13),       # no release stated: the current kernels
    ("deepseek-v3", "int4", "0.7.2", "h100-80gb-sxm", 13),    # before the span (the per-expert Marlin loop, unmodelled)
    ("deepseek-v3", "int4", "0.8.0", "h100-80gb-sxm", 13),    # the CUDA moe_wna16 kernel from 0.8.0
    ("deepseek-v3", "int4", "0.7.3", "h100-80gb-sxm", 137),   # the Triton path
    ("deepseek-r1", "fp8", "0.7.3", "h200-141gb-sxm", 13),    # FP8 experts: the fused-MoE kernel's own floor
    ("mixtral-8x7b", "int4", "0.7.3", "h100-80gb-sxm", 13),   # 8 experts: AWQMoEMethod, not moe_wna16
])
def test_the_floor_applies_to_the_triton_path_only(kb, accuracy, model, precision, version, gpu, floor_us):
    eng, _ = _point(kb, accuracy, model, precision, version, gpu)
    assert eng.grouped_floor == pytest.approx(floor_us * 1e-6)


def test_row_l06_within_the_decode_goal(kb, accuracy):
    """decode_independent.csv L06: DeepSeek-V3-AWQ, vLLM 0.7.3 Docker image, TP 8 on 8 x H100 SXM, 1,024 in / 256 out
    at concurrency 1, 'around 33 tokens per second' with the prefill counted (dzhsurf/deepseek-v3-r1-deploy-and-
    benchmarks). It read +117.5% before the Triton path's floor; the figure was set on pull request #13321's A100
    run, not on this row."""
    _, one = _point(kb, accuracy, "deepseek-v3", "int4", "0.7.3", "h100-80gb-sxm", prompt=1024, output=256)
    got = 256 / (one.ttft + 256 * one.decode_step)
    assert got == pytest.approx(33.0, rel=0.20)
