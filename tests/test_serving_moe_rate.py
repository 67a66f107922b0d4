"""The fused-MoE kernel's own rate on prompt-sized batches (serving.yaml ``moe_gemm_fraction``): vLLM's and SGLang's
Triton fused-MoE kernel reaches a share of the GPU's BF16 dense peak measured on its own benchmark
(benchmarks/kernels/benchmark_moe.py), not the dense GEMMs' half of the precision's peak. Figures by hand from the
pull requests' kernel times and the catalog's shapes and peaks."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.step import consts, linear_time, step
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def _job(kb, framework: str, precision: str = "bf16", model: str = "qwen3-30b-a3b"):
    w = {"task": "inference", "model": model, "precision": precision, "framework": framework,
         "prompt_tokens": 4096, "output_tokens": 256, "parallelism": {"tp": 1, "pp": 1}}
    return resolve(Requirements.model_validate({"workload": w}), kb)


def test_the_fraction_is_the_median_of_the_three_hopper_kernel_readings():
    """Qwen3-30B-A3B's expert GEMMs are 2,048 x 1,536 (gate/up) and 768 x 2,048 (down): 4.719M multiply-adds an
    expert, 8 experts a token, so 4,096 tokens are 3.093e11 FLOPs; in 1,647.57 us (vllm-project/vllm #24700, H100)
    that is 187.7 TFLOP/s, 0.190 of 989.5. Gemma4 (K 2,816, N 704): 5.947M multiply-adds, 3.899e11 FLOPs in
    1,249.5 us (#44818, H200): 312.1 TFLOP/s, 0.315. Qwen3-Next TP2 (K 2,048, N 256, top 10): 1.573M multiply-adds,
    3.221e10 FLOPs at 1,024 tokens in 640.08 us (#45142, H20-3e): 50.3 TFLOP/s, 0.340 of 148. Median 0.315."""
    qwen = 4096 * 8 * 2 * (2048 * 1536 + 768 * 2048) / 1647.57e-6 / 989.5e12
    gemma = 4096 * 8 * 2 * (2816 * 1408 + 704 * 2816) / 1249.5e-6 / 989.5e12
    nxt = 1024 * 10 * 2 * (2048 * 512 + 256 * 2048) / 640.08e-6 / 148e12
    assert (qwen, gemma, nxt) == pytest.approx((0.190, 0.315, 0.340), abs=1e-3)
    assert sorted((qwen, gemma, nxt))[1] == pytest.approx(0.32, abs=0.005)


def test_hopper_engine_rate_is_the_share_of_the_bf16_peak(kb):
    """vLLM and SGLang on an H100: 0.32 x 989.5 TFLOP/s = 316.6 TFLOP/s, whatever the weights' precision (FP8 gains
    only 10-17% over BF16 in this kernel, #35457); TensorRT-LLM (CUTLASS grouped GEMMs) and Blackwell parts keep
    the dense rate (no override: infinite)."""
    h100, b200 = kb.gpus["h100-80gb-sxm"], kb.gpus["b200"]
    for fw in ("vllm", "sglang"):
        for precision in ("bf16", "fp8"):
            eng = SV.engine(_job(kb, fw, precision), h100, fw)
            assert eng.moe_rate == pytest.approx(0.32 * 989.5e12)
        assert SV.engine(_job(kb, fw), b200, fw).moe_rate == float("inf")
    assert SV.engine(_job(kb, "tensorrt-llm"), h100, "tensorrt-llm").moe_rate == float("inf")


def test_ada_fp8_experts_run_at_the_kernels_bf16_like_rate(kb):
    """L40S: 8,192 tokens of Qwen3-VL MoE FP8 (E=128, N=768) in 3,195.68 us (#53710) = 193.6 TFLOP/s, 0.53 of 362."""
    rate = 8192 * 8 * 2 * (2048 * 1536 + 768 * 2048) / 3195.68e-6
    assert rate / 362e12 == pytest.approx(0.535, abs=1e-3)
    assert SV.engine(_job(kb, "vllm", "fp8"), kb.gpus["l40s"], "vllm").moe_rate == pytest.approx(0.53 * 362e12)


def test_a_prompt_chunk_pays_the_routed_rows_at_the_kernel_rate(kb):
    """Qwen3-30B-A3B BF16 on one H100 with vLLM, a 4,096-token prefill: every expert is read, 4,096 x 8 / 128 = 256
    rows an expert (whole 16-row tiles, no padding), and the expert math is 2 x 1.812e9 active expert parameters
    (48 layers x 8 x 4.719M) x 4,096 tokens at 3.166e14 FLOP/s, where the dense rate (0.5 x 989.5 TFLOP/s) would
    have taken 0.64 of that time."""
    job = _job(kb, "vllm")
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 1)
    eng, rep = s.engine, s.replica
    c = consts(job, eng, rep)
    tokens = 4096.0
    st = step(job, eng, rep, 0.0, tokens, 0.0, 2048.0)
    dense = linear_time(c.t_mem, c.f_dense * tokens / c.peak_gemm)
    cov = 1.0 - c.base ** tokens
    expert_math = c.f_experts * tokens / (0.32 * 989.5e12)
    assert c.f_experts == pytest.approx(2 * 48 * 8 * (2048 * 1536 + 768 * 2048), rel=1e-6)
    assert st.gemm == pytest.approx(dense + c.w_experts * cov / eng.bw_weights + expert_math, rel=1e-9)
    assert expert_math * (0.32 * 989.5e12) / eng.peak_gemm == pytest.approx(0.64 * expert_math, rel=1e-3)


def test_a_decode_step_keeps_the_padded_tiles_at_the_dense_rate(kb):
    """Eight decoding sequences: 8 x 8 / 128 = 0.5 rows for each expert a token touches becomes one 16-row tile, so
    the padded math at the dense rate (16 rows) outweighs the routed rows at the kernel's rate (about one row):
    the step is what it was without the kernel's rate."""
    job = _job(kb, "vllm")
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 1)
    c = consts(job, s.engine, s.replica)
    tokens = 8.0
    cov = 1.0 - c.base ** tokens
    per_expert = tokens * c.k_over_e / cov
    padded_math = c.f_experts * tokens * (16 / per_expert) / c.peak_gemm
    rows_math = c.f_experts * tokens / c.moe_rate
    assert padded_math > rows_math
    st = step(job, s.engine, s.replica, tokens, 0.0, 4096.0, 0.0)
    dense = linear_time(c.t_mem, c.f_dense * tokens / c.peak_gemm)
    assert st.gemm == pytest.approx(dense + c.w_experts * cov / s.engine.bw_weights + padded_math, rel=1e-9)
