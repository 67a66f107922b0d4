"""llama.cpp multiplies GGUF MXFP4 weights in INT8 (knowledge/serving.yaml llama.cpp precisions ``fp4``, branch
decodeblind11): ggml-org/llama.cpp ggml/src/ggml-cuda/vecdotq.cuh (commit 027ef876) vec_dot_mxfp4_q8_1 reads each
4-bit value through the kvalues_mxfp4 table into int8 and takes the dot product with the q8_1-quantized activations by
ggml_cuda_dp4a, as the Q4_K and Q8_0 dot products do. gpuwise had priced the MXFP4 path at the FP16 rate, which on a
Tesla P40 (FP16 at 1:64 of FP32, 0.18 TFLOPS; INT8 through DP4A 47 TOPS) made gpt-oss-20b's decode compute-bound at
~9 t/s where llama.cpp pull request #16715 measures 72.42 t/s (row DT11)."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

# llama.cpp pull request #16715 (Oct 2025), the base column of its table: gpt-oss 20B MXFP4 MoE, tg128 on a P40.
P40_TG128 = 72.42
# the P40's datasheet peaks (knowledge/gpus.yaml p40): FP16 0.18 TFLOPS, INT8 (DP4A) 47 TOPS, 346 GB/s
P40_FP16, P40_INT8, P40_BW = 0.18e12, 47e12, 346e9


def _job(kb):
    w = {"task": "inference", "model": "gpt-oss-20b", "precision": "fp4", "framework": "llama.cpp",
         "prompt_tokens": 1, "output_tokens": 128, "framework_version": "6840"}
    return resolve(Requirements.model_validate({"workload": w}), kb)


def test_llamacpp_mxfp4_computes_in_int8(kb):
    fp = kb.framework("llama.cpp").precisions["fp4"]
    assert (fp.format, fp.compute, fp.fallback_compute) == ("gguf-mxfp4", "int8", "fp16")


@pytest.mark.parametrize("gpu", ["p40", "rtx-4090", "rtx-3090", "t4"])
def test_mxfp4_engine_runs_int8_where_the_gpu_has_int8(kb, gpu):
    job = _job(kb)
    eng = SV.engine(job, kb.gpus[gpu])
    assert eng.compute == "int8"
    assert eng.weight_format == "gguf-mxfp4"


def test_p40_gpt_oss_decode_is_memory_bound(kb):
    """One token of gpt-oss-20b on a P40: the weights it reads (2.56 GB: experts at 4.25 bits, the rest Q8_0) at 0.80
    of 346 GB/s take 9.26 ms; its ~7.2 GFLOP at the INT8 rate (47 TOPS x llama.cpp's 0.40) 0.38 ms, where at the FP16
    rate (0.18 TFLOPS x 0.40) they took ~100 ms. The step is the weights' time, and the speed is within 35% of the
    measured 72.42 t/s (the rest: no CUDA graphs below compute capability 8.0 in that build; see the README)."""
    job = _job(kb)
    s = SV.choose(job, kb.gpus["p40"], 1, weight_format="gguf-mxfp4")
    st = SV.step(job, s.engine, s.replica, 1.0, 0.0, 64.0, 0.0)
    weights_s = st.weight_bytes_gpu / (0.80 * P40_BW)
    assert st.bound == "memory"
    assert weights_s == pytest.approx(9.26e-3, rel=0.01)
    math_s = st.flops_gpu / (P40_INT8 * 0.40)
    assert st.gemm == pytest.approx(weights_s + math_s, rel=0.02)
    assert st.flops_gpu / (P40_FP16 * 0.40) > 0.09  # the FP16 pricing's ~100 ms a token
    tok_s = 1 / SV.point(job, s.engine, s.replica, 1.0).decode_step
    assert P40_TG128 < tok_s < 1.35 * P40_TG128
