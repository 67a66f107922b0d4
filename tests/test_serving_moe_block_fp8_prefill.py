"""The dense block-scaled FP8 GEMMs of SGLang's early-2025 DeepSeek builds (knowledge/serving.yaml sglang releases
0.4.0 `block_fp8_gemm_tflops`): before DeepGEMM they ran on sgl-kernel's CUTLASS blockwise kernel or the Triton
w8a8 block kernel, timed alone on an H100 for DeepSeek-V3's N=2,112 K=7,168 GEMM at 4,096 rows at 456.9 and 403.0
TFLOP/s (vllm-project/vllm pull request #23280), where the framework's compute efficiency puts FP8 at
0.5 x 1,979 = 989.5 TFLOP/s. The cap (457, the faster kernel) applies to the dense GEMMs of a model's own block-scaled
checkpoint on Hopper. The routed experts run the Triton fused-MoE kernel, timed on DeepSeek-V3's TP 8 shape in the same
period at 64.0 TFLOP/s of routed rows (`block_fp8_moe_tflops`: vllm-project/vllm pull request #13932, H100, 2,818.65 us
at 2,048 tokens), where the later builds' Hopper share is 0.32 x 989.5 = 316.6. Figures by hand."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.step import _parts, consts
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

H200_FP8_DENSE = 1979e12  # gpus.yaml h200-141gb-sxm peaks.fp8 (dense), as the H100's


def _consts(kb, version: str, gpu: str = "h200-141gb-sxm", model: str = "deepseek-v3"):
    w = {"task": "inference", "model": model, "precision": "fp8", "framework": "sglang", "framework_version": version,
         "prompt_tokens": 512, "output_tokens": 1, "concurrent_requests": 1, "parallelism": {"tp": 8, "pp": 1}}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(job, kb.gpus[gpu], 8)
    assert s.replica.layout.tp == 8
    return consts(job, s.engine, s.replica)


def test_the_early_builds_cap_the_dense_fp8_rate_on_hopper(kb):
    early, mid = _consts(kb, "0.4.3.post2"), _consts(kb, "0.4.6")
    assert early.peak_dense == pytest.approx(457e12)
    assert mid.peak_dense == pytest.approx(0.5 * H200_FP8_DENSE)  # 989.5 TFLOP/s: the framework's efficiency
    assert early.peak_gemm == pytest.approx(0.5 * H200_FP8_DENSE)  # the experts' tiles keep the FP8 rate


def test_a_gpu_below_the_cap_or_off_hopper_keeps_its_own_rate(kb):
    """The H20's FP8 dense peak is 296 TFLOP/s (gpus.yaml): 0.5 x 296 = 148, below 457, so it stands. The MI300X is
    CDNA 3, where the timing was not read: its rate is the ROCm build's own."""
    h20 = _consts(kb, "0.4.3.post2", "h20-96gb-sxm")
    assert h20.peak_dense == pytest.approx(0.5 * 296e12)
    mi = _consts(kb, "0.4.3.post2", "mi300x")
    assert mi.peak_dense == pytest.approx(mi.peak_gemm)


def test_an_8192_token_chunk_pays_its_dense_and_expert_math_at_the_slower_rates(kb):
    """Prefill forwards of 2,048 and 8,192 prompt tokens (SGLang's chunk) at TP 8: between the two, a GPU does
    2 x the non-expert active parameters x 6,144 / 8 more dense FLOPs, which take 1/457 - 1/989.5 TFLOP/s longer
    in the early builds, and 2 x the routed experts' active parameters x 6,144 / 8 more expert FLOPs, which take
    1/64 - 1/316.6 TFLOP/s longer (at 64 and more rows an expert the routed rows' rate binds, not the tiles'); the
    weights, attention and fixed costs grow alike in both releases, so the difference of the two releases' growth
    is those two alone (at both sizes the math outlasts the block-FP8 walk)."""
    early, mid = _consts(kb, "0.4.3.post2"), _consts(kb, "0.4.6")

    def growth(c):
        return _parts(c, 0.0, 8192.0, 0.0, 4096.0)[1] - _parts(c, 0.0, 2048.0, 0.0, 1024.0)[1]

    dense = early.f_dense * 6144 / 8 * (1 / 457e12 - 1 / 989.5e12)
    experts = early.f_experts * 6144 / 8 * (1 / 64e12 - 1 / (0.32 * 989.5e12))
    assert early.f_dense == mid.f_dense and early.f_experts == mid.f_experts
    assert growth(early) - growth(mid) == pytest.approx(dense + experts, rel=1e-9)
    assert 0.027 < dense < 0.031  # ~29 ms: DeepSeek-V3's non-expert active parameters, 2 x 16.2 B FLOPs a token
    assert 0.38 < experts < 0.40  # ~391 ms: 2 x 20.43 B routed-expert FLOPs a token (58 layers x 8 x 44.04 M)


def test_the_early_builds_cap_the_block_fp8_experts_at_the_kernels_reading(kb):
    """The published timing gives the figure: DeepSeek-V3 at TP 8 routes 2,048 tokens to 8 experts each, and an
    expert's share on a GPU is 7,168 x 512 (gate and up, 256 columns each) plus 256 x 7,168 (down) weights:
    2 x 2,048 x 8 x 5,505,024 = 180.4 GFLOP in 2,818.65 us = 64.0 TFLOP/s (vllm-project/vllm pull request #13932's
    Triton TP=8 column, H100). It caps the early builds' expert rate on Hopper (H200, H100), not the mid-2025 builds'
    (0.32 of the 989.5 TFLOP/s BF16 peak); an H20's own share (0.32 x 148) is already below it, and CDNA 3 keeps
    its own."""
    published = 2 * 2048 * 8 * (7168 * 512 + 256 * 7168) / 2818.65e-6  # FLOP/s of routed rows
    sglang = next(fw for fw in kb.serving.frameworks if fw.id == "sglang")
    early_entry = next(r for r in sglang.releases if r.version == "0.4.0")
    assert early_entry.block_fp8_moe_tflops * 1e12 == pytest.approx(published, rel=2e-3)
    for gpu in ("h200-141gb-sxm", "h100-80gb-sxm"):
        assert _consts(kb, "0.4.3.post2", gpu).moe_rate == pytest.approx(64e12)
        assert _consts(kb, "0.4.6", gpu).moe_rate == pytest.approx(0.32 * 989.5e12)
    assert _consts(kb, "0.4.3.post2", "h20-96gb-sxm").moe_rate == pytest.approx(0.32 * 148e12)
    assert _consts(kb, "0.4.3.post2", "mi300x").moe_rate == _consts(kb, "0.4.6", "mi300x").moe_rate
    # the 8,192-token chunk's routed rows on one GPU, by hand: 2 x 20,434,649,088 x 8,192 / 8 = 41.85 TFLOP,
    # 654 ms at 64 TFLOP/s where the mid-2025 share takes 132 ms
    c = _consts(kb, "0.4.3.post2")
    assert c.f_experts == pytest.approx(2 * 58 * 8 * 3 * 7168 * 2048)
    assert c.f_experts * 8192 / 8 / c.moe_rate == pytest.approx(0.6539, rel=1e-3)
