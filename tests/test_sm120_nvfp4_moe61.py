"""Qwen3.5-122B-A10B NVFP4 on one RTX PRO 6000 under vLLM at one sequence (branch nvfp4moe61; validation README,
"vLLM's NVFP4 MoE backend on SM120 by release").

vLLM 0.16.0-0.19.1 run an NVFP4 checkpoint's routed experts on SM120 on FlashInfer's CUTLASS fused MoE by default
(fused_moe/oracle/nvfp4.py select_nvfp4_moe_backend, read in the PyPI sdists); the releases differ in the FlashInfer
they pin. flashinfer-ai/flashinfer issue #2992 (2026-04-06) timed that backend on this model and card under vLLM
0.17.1 at batch 1: 86 tok/s with FlashInfer 0.6.6 and 73 tok/s with 0.6.7. gpuwise prices the working kernel, so its
figure lies between the two; DA06's 31 tok/s (the stock 0.17.0 wheel, FlashInfer 0.6.4) stays a row gpuwise misses,
since a release window that matched it would break DM05 / DM06 (0.17.0rc1, read right) -- what-if in the README."""

from __future__ import annotations

ISSUE_2992 = "https://github.com/flashinfer-ai/flashinfer/issues/2992"
FI_066_TOK_S, FI_067_TOK_S = 86.0, 73.0  # the issue's table: FlashInfer 0.6.6 / 0.6.7, vLLM 0.17.1, batch 1


def _one_sequence(kb, accuracy, release: str) -> float:
    job = accuracy.serving_job(kb, "qwen3.5-122b-a10b", "fp4", "vllm", 100, 512, tp=1, framework_version=release)
    return accuracy.single_stream(kb, job, "rtx-pro-6000-blackwell", 1, "nvfp4")


def test_the_estimate_lies_between_the_issues_two_flashinfer_timings(kb, accuracy):
    """The issue states no prompt or output length: a short prompt (100) and 512 out, as DA06 assumes."""
    est = _one_sequence(kb, accuracy, "0.17.1")
    assert FI_067_TOK_S <= est <= FI_066_TOK_S, (est, ISSUE_2992)


def test_the_window_a_release_would_need_is_209_us_a_grouped_gemm(kb, accuracy):
    """By hand: DA06 measured 31 tok/s (32.26 ms a token) where gpuwise gives 1 / step at vLLM 0.17.0; the gap over the
    model's MoE layers x 2 grouped expert GEMMs (48 x 2 = 96) is what a fixed time per grouped GEMM would have to be
    (the what-if the README scores and does not keep): (32.26 - 12.17) ms / 96 = 209 us."""
    model = kb.models["qwen3.5-122b-a10b"]
    assert model.layers == 48 and model.moe.experts == 256  # every layer's MLP a MoE block (no dense layers listed)
    est = _one_sequence(kb, accuracy, "0.17.0")
    gap_us = (1 / 31.0 - 1 / est) * 1e6 / (2 * 48)
    assert abs(est - 82.2) < 0.05 and abs(gap_us - 209.3) < 0.5, (est, gap_us)
