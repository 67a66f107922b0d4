"""Dense NVFP4 GEMMs at prompt- and batch-sized row counts (knowledge/serving.yaml ``nvfp4_large_batch``;
gpuwise/estimators/serving/engine.py ``nvfp4_gemm_rate``): the CUTLASS NVFP4 GEMM's time on an SM100 GPU grows with
its FLOPs at ~4.0 PFLOP/s, 0.444 of a B200's 9,000 TFLOP/s dense FP4 peak, below the 0.55 x 9,000 = 4,950 that
TensorRT-LLM's compute efficiency (read on H100 FP8) would give."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def job_of(kb, **w):
    w.setdefault("task", "inference")
    return resolve(Requirements.model_validate({"workload": w}), kb)


def test_share_is_the_sources_slope(kb):
    """vllm-project/vllm pull request #20646, 'nvfp4-noquant' at N=6144 K=4096: 3,645.594842 TFLOP/s at M=4,096 and
    3,904.329097 at M=16,384. Time = 2 M N K / rate; the slope between them is the rate once the kernel's fixed time
    no longer counts, 4.00 PFLOP/s; the intercept, ~5 us, reproduces M=1,024 (2,894.987191 TFLOP/s, 17.8 us)."""
    flops = [2 * m * 6144 * 4096 for m in (4096, 16384, 1024)]
    t = [f / r for f, r in zip(flops, (3645.594842e12, 3904.329097e12, 2894.987191e12), strict=True)]
    slope = (flops[1] - flops[0]) / (t[1] - t[0])
    fixed = t[0] - flops[0] / slope
    assert slope == pytest.approx(4.00e15, rel=0.002) and fixed == pytest.approx(5.0e-6, rel=0.02)
    assert flops[2] / slope + fixed == pytest.approx(t[2], rel=0.01)
    cap = kb.serving.nvfp4_large_batch
    assert cap.peak_share == pytest.approx(slope / 9000e12, abs=0.001)
    assert cap.compute_capabilities == ["10.0", "10.3"] and sorted(cap.frameworks) == ["sglang", "tensorrt-llm", "vllm"]


def test_sm103_reaches_the_sm100_share_at_large_squares(kb):
    """Why SM103 takes the same share. HazyResearch/ThunderKittens kernels/gemm/nvfp4_b300/HANDOFF.md (commit 18e205c8):
    CUTLASS's SM103 FP4 kernel on a B300 at M=N=8,192, K=33,024 in 0.531 ms = 8,342 TFLOP/s, 0.618 of 13,500;
    deepseek-ai/DeepGEMM pull request #348 on a B200 at 8192^3: cuBLASLt 5,239 and DeepGEMM 5,702 TFLOP/s, 0.582 and
    0.634 of 9,000. The B300 share lies inside the B200 range, so the 1.5x FP4 peak ratio is what the kernels deliver
    at large shapes, no more."""
    b300 = 2 * 8192 * 8192 * 33024 / 0.531e-3
    assert b300 / 1e12 == pytest.approx(8342, rel=0.001)
    share_b300, shares_b200 = b300 / 13500e12, (5239 / 9000, 5702 / 9000)
    assert share_b300 == pytest.approx(0.618, abs=0.001)
    assert min(shares_b200) < share_b300 < max(shares_b200)
    assert kb.gpus["b300"].peaks.fp4 == 13500 and kb.gpus["b300"].compute_capability == "10.3"
    assert kb.gpus["gb300"].compute_capability == "10.3"


@pytest.mark.parametrize(("gpu", "framework", "peak"), [
    ("b200", "tensorrt-llm", 9000e12), ("gb200", "tensorrt-llm", 10000e12), ("b200", "vllm", 9000e12),
    ("b300", "tensorrt-llm", 13500e12)])
def test_capped_where_read(kb, gpu, framework, peak):
    """B200 and GB200 (compute capability 10.0) and B300 (10.3) in NVFP4: the dense GEMMs at 0.444 of the GPU's own
    FP4 peak (B300: 0.444 x 13,500 = 5,994 TFLOP/s, where TensorRT-LLM's 0.55 gave 7,425), below the framework's
    efficiency of it (TensorRT-LLM 0.55, vLLM 0.50); the routed experts keep ``peak_gemm``."""
    job = job_of(kb, model="llama-3.1-70b", precision="fp4", framework=framework)
    eng = SV.choose(job, kb.gpus[gpu], 4).engine
    assert eng.weight_format == "nvfp4" and eng.compute == "fp4"
    assert eng.peak_dense == pytest.approx(0.444 * peak)
    assert eng.peak_gemm == pytest.approx(eng.compute_eff * peak)


@pytest.mark.parametrize(("gpu", "precision"), [("b300", "fp8"), ("b200", "fp8"), ("h100-80gb-sxm", "fp8"),
                                                  ("rtx-pro-6000-blackwell", "fp4")])
def test_not_capped_elsewhere(kb, gpu, precision):
    """FP8 keeps the framework's efficiency; SM120 is not capped (the Server Edition's NVFP4 GEMMs are scaled up
    instead: tests/test_serving_nvfp4_efficiency_scale.py; the Workstation card was not timed)."""
    job = job_of(kb, model="llama-3.1-70b", precision=precision, framework="tensorrt-llm")
    eng = SV.choose(job, kb.gpus[gpu], 4).engine
    assert eng.peak_dense == eng.peak_gemm
