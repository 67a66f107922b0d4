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
    assert cap.compute_capabilities == ["10.0"] and sorted(cap.frameworks) == ["sglang", "tensorrt-llm", "vllm"]


@pytest.mark.parametrize(("gpu", "framework", "peak"), [
    ("b200", "tensorrt-llm", 9000e12), ("gb200", "tensorrt-llm", 10000e12), ("b200", "vllm", 9000e12)])
def test_capped_where_read(kb, gpu, framework, peak):
    """B200 and GB200 (compute capability 10.0) in NVFP4: the dense GEMMs at 0.444 of the GPU's own FP4 peak, below
    the framework's efficiency of it (TensorRT-LLM 0.55, vLLM 0.50); the routed experts keep ``peak_gemm``."""
    job = job_of(kb, model="llama-3.1-70b", precision="fp4", framework=framework)
    eng = SV.choose(job, kb.gpus[gpu], 4).engine
    assert eng.weight_format == "nvfp4" and eng.compute == "fp4"
    assert eng.peak_dense == pytest.approx(0.444 * peak)
    assert eng.peak_gemm == pytest.approx(eng.compute_eff * peak)


@pytest.mark.parametrize(("gpu", "precision"), [("b300", "fp4"), ("b200", "fp8"), ("h100-80gb-sxm", "fp8")])
def test_not_capped_elsewhere(kb, gpu, precision):
    """SM103 (B300) was not timed at these shapes; FP8 keeps the framework's efficiency."""
    job = job_of(kb, model="llama-3.1-70b", precision=precision, framework="tensorrt-llm")
    eng = SV.choose(job, kb.gpus[gpu], 4).engine
    assert eng.peak_dense == eng.peak_gemm
