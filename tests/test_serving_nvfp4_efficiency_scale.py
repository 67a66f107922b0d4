"""Dense NVFP4 GEMMs on the RTX PRO 6000 Server Edition (knowledge/serving.yaml ``nvfp4_efficiency_scale``;
gpuwise/estimators/serving/support.py ``nvfp4_gemm_rate``): TensorRT-LLM's compute efficiency (0.55) was read on an
H100 FP8 run, whose FP8 GEMMs reach 0.686 of their peak at a large size; the Server Edition's block-scaled NVFP4 GEMM
reaches 0.808 of its dense FP4 peak at 8192 cubed, the share its MXFP8 GEMM reaches of a peak half as high. Its dense
NVFP4 GEMMs run at 0.55 x 0.808 / 0.686 of the FP4 peak."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def job_of(kb, **w):
    w.setdefault("task", "inference")
    return resolve(Requirements.model_validate({"workload": w}), kb)


def test_the_shares_are_the_sources_figures(kb):
    """NVIDIA/cutlass pull request #3272 on an RTX PRO 6000 Blackwell Server Edition at M=N=K=8192: NVFP4 ~1,629
    TFLOPS, MXFP8 ~802; gpus.yaml's dense peaks 2,015.2 (FP4) and 1,007.6 (FP8). deepseek-ai/DeepGEMM's README at
    55ab91f: an H800 (1,979 TFLOP/s dense FP8) at 4,096 x 7,168 x 16,384 in 1,358 TFLOP/s."""
    gpu = kb.gpus["rtx-pro-6000-blackwell-server"]
    assert (gpu.peaks.fp4, gpu.peaks.fp8, gpu.compute_capability) == (2015.2, 1007.6, "12.0")
    scale = kb.serving.nvfp4_efficiency_scale
    assert scale.square_share == pytest.approx(1629 / 2015.2, abs=0.001)
    assert abs(802 / 1007.6 - scale.square_share) < 0.015  # FP4 keeps the FP8 share here
    assert scale.reference_share == pytest.approx(1358 / 1979, abs=0.001)
    assert scale.gpus == ["rtx-pro-6000-blackwell-server"] and scale.frameworks == ["tensorrt-llm"]


def test_the_server_editions_dense_fp4_gemms_are_scaled(kb):
    job = job_of(kb, model="llama-3.1-70b", precision="fp4", framework="tensorrt-llm")
    eng = SV.choose(job, kb.gpus["rtx-pro-6000-blackwell-server"], 1).engine
    assert eng.weight_format == "nvfp4" and eng.compute == "fp4"
    assert eng.compute_eff == pytest.approx(0.55)
    # 0.55 x 0.808 / 0.686 = 0.648 of 2,015.2 TFLOP/s: 1,305.4 TFLOP/s; the routed experts (none here) keep peak_gemm
    assert eng.peak_dense == pytest.approx(0.55 * 0.808 / 0.686 * 2015.2e12)
    assert eng.peak_dense / 1e12 == pytest.approx(1305.4, abs=0.5)
    assert eng.peak_gemm == pytest.approx(0.55 * 2015.2e12)


@pytest.mark.parametrize(("gpu", "framework", "precision"), [
    ("rtx-pro-6000-blackwell", "tensorrt-llm", "fp4"), ("rtx-pro-6000-blackwell-max-q", "tensorrt-llm", "fp4"),
    ("rtx-pro-6000-blackwell-server", "vllm", "fp4"), ("rtx-pro-6000-blackwell-server", "tensorrt-llm", "fp8")])
def test_not_scaled_where_not_read(kb, gpu, framework, precision):
    """The Workstation and Max-Q cards (other power limits, not timed), another framework's efficiency (read on
    other runs) and FP8 keep the framework's efficiency."""
    job = job_of(kb, model="llama-3.1-70b", precision=precision, framework=framework)
    eng = SV.choose(job, kb.gpus[gpu], 1).engine
    assert eng.peak_dense == eng.peak_gemm
