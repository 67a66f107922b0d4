"""Dense NVFP4 GEMMs at one token row on SM120 (knowledge/serving.yaml ``nvfp4_k_walk``; engine.py
``nvfp4_k_block``, step.py ``kserial_seconds``): the block-scaled FP4 kernels there have no split-K, so a GEMM lasts
at least K / 128 reduction blocks at ~0.43 us each, however few columns it has, as the block-FP8 kernels do on
Hopper. Source: flashinfer-ai/flashinfer pull request #3051's RTX 5090 table (mm_fp4, CUTLASS backend, M=1)."""

from __future__ import annotations

import dataclasses

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def job_of(kb, **w):
    w.setdefault("task", "inference")
    return resolve(Requirements.model_validate({"workload": w}), kb)


def test_figure_is_the_sources(kb):
    """#3051, CUTLASS at M=1 on an RTX 5090: N=512 K=7168 24.24 us and N=1024 K=7168 24.26 us (the time follows K,
    not N), N=1280 K=8192 27.87 us: 56 and 64 blocks of 128 deep at 0.433 and 0.435 us; the weights of those shapes
    (4.5 bits a weight) stream in 1.4-4.1 us at 0.80 of 1,792 GB/s, so the walk, not the bytes, is their time."""
    walk = kb.serving.nvfp4_k_walk
    per_block = [t / (k / 128) for t, k in ((24.24, 7168), (24.26, 7168), (27.87, 8192))]
    assert min(per_block) - 0.005 <= walk.k_block_us <= max(per_block) + 0.005
    stream_us = [n * k * 4.5 / 8 / (0.8 * 1792e9) * 1e6 for n, k in ((512, 7168), (1024, 7168), (1280, 8192))]
    assert max(stream_us) < 4.2 and all(s < t / 5 for s, t in zip(stream_us, (24.24, 24.26, 27.87), strict=True))
    assert walk.compute_capabilities == ["12.0"] and sorted(walk.frameworks) == ["sglang", "vllm"]


def test_qwen3_8b_step_by_hand(kb):
    """DY05's job (Qwen3-8B NVFP4, vLLM 0.21.0, one RTX 5090): a layer's qkv (N 6,144, K 4,096), o (4,096 x 4,096),
    gate/up (24,576 x 4,096) and down (4,096 x 12,288) walk 32, 32, 32 and 96 blocks at 0.43 us = 13.76, 13.76,
    13.76 and 41.28 us, where their weights at 4.5 bits stream in 9.9, 6.6, 39.5 and 19.8 us at 0.80 of 1,792
    GB/s: each GEMM lasts the longer, so the step gains (13.76 - 9.87) + (13.76 - 6.58) + 0 + (41.28 - 19.75) =
    32.6 us a layer, 36 layers: ~1.17 ms, of which the dense GEMMs' own math (~28 us, which the walk replaces)
    was already charged."""
    job = job_of(kb, model="qwen3-8b", precision="fp4", framework="vllm", framework_version="0.21.0",
                 prompt_tokens=1, output_tokens=128)
    s = SV.choose(job, kb.gpus["rtx-5090"], 1)
    eng = s.engine
    assert eng.weight_format == "nvfp4" and eng.k_block == pytest.approx(0.43e-6)
    assert eng.k_walk_bytes == pytest.approx(4.5 / 8) and eng.fp4_dense_bw == 0.0
    bw = eng.bw_weights
    assert bw == pytest.approx(0.80 * 1792e9, rel=0.01)
    gemms = ((6144, 4096), (4096, 4096), (24576, 4096), (4096, 12288))
    layer = sum(max((k / 128) * 0.43e-6 - n * k * 4.5 / 8 / bw, 0.0) for n, k in gemms)
    assert layer == pytest.approx(32.6e-6, rel=0.01)
    plain = dataclasses.replace(eng, k_block=0.0, k_walk_bytes=1.0)
    one, one0 = (SV.step(job, e, s.replica, 1.0, 0.0, 64.0, 0.0) for e in (eng, plain))
    assert one.k_walk == pytest.approx(36 * layer, rel=1e-6)  # the walk beyond the weights, 36 layers
    # the walk replaces the dense GEMMs' math (one token's 2 x ~6.95 B weights' FLOPs, ~28 us) rather than adding
    assert one.gemm - one0.gemm == pytest.approx(one.k_walk - one.gemm_math, rel=1e-6)
    assert 20e-6 < one.gemm_math < 40e-6 and 1.1e-3 < one.gemm - one0.gemm < 1.2e-3


def test_where_the_walk_is_charged(kb):
    """Charged: NVFP4 (W4A4) on vLLM or SGLang on compute capability 12.0 (RTX 5090, RTX PRO 6000). Not charged:
    the GB10 (12.1, timed apart), the B200 (10.0: nvfp4_small_batch's rate instead), TensorRT-LLM (its own FP4
    GEMMs, not read), FP8 and BF16 on the same card, gpt-oss's MXFP4 checkpoint."""
    def eng(gpu="rtx-5090", **w):
        w.setdefault("model", "qwen3-8b")
        w.setdefault("precision", "fp4")
        return SV.engine(job_of(kb, **w), kb.gpus[gpu])

    assert eng(framework="vllm").k_block > 0 and eng(framework="sglang", gpu="rtx-pro-6000-blackwell").k_block > 0
    for e in (eng(framework="vllm", gpu="gb10"), eng(framework="vllm", gpu="b200"),
              eng(framework="tensorrt-llm"), eng(framework="vllm", precision="fp8"),
              eng(framework="vllm", precision="bf16"), eng(framework="vllm", model="gpt-oss-20b")):
        assert e.k_block == 0.0 and e.k_walk_bytes == 1.0


def test_block_fp8_walk_still_counts_a_byte_a_weight(kb):
    """The block-FP8 walk (Hopper) is unchanged: its GEMMs' weights are one byte each."""
    eng = SV.engine(job_of(kb, model="deepseek-v3", precision="fp8", framework="vllm", framework_version="0.8.5"),
                    kb.gpus["h100-80gb-sxm"])
    assert eng.k_walk_bytes == 1.0


def test_the_walk_is_named_where_the_step_is_explained(kb):
    """DY05's job: the TPOT term says a dense NVFP4 GEMM walks its reduction depth at 0.43 us a block and names
    serving.yaml nvfp4_k_walk, not the block-FP8 entry."""
    from gpuwise import estimate

    w = {"task": "inference", "model": "qwen3-8b", "precision": "fp4", "framework": "vllm",
         "framework_version": "0.21.0", "prompt_tokens": 1, "output_tokens": 128, "concurrent_requests": 1}
    g = estimate({"workload": w}, gpu="rtx-5090", gpus=1).gpu
    t = {t.name: t for t in g.terms}["tpot_s"]
    assert "dense NVFP4 GEMM" in t.formula and "0.43 us per 128-deep block" in t.formula
    assert "nvfp4_k_walk" in t.formula and "block_fp8_small_batch" not in t.formula
