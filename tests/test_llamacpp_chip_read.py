"""llama.cpp's batch-1 weight read on Hopper follows the chip, not its HBM (issue 22 items 1, 6; branch llamacpp52).

The CUDA build's matrix-vector kernels launch one 128-thread block a matrix row at a batch of one
(ggml/src/ggml-cuda/mmvq.cu: calc_rows_per_block(1) = 1, calc_nwarps(1) = 4), so what a part reads a second is
set by its SMs and their clock. serving.yaml llama.cpp architecture_overrides.hopper caps the read at 0.0314 B
per FP32 FLOP/s of the datasheet peak, read on the H100 (discussion #15013, build 5143fa8: 267.81 t/s for Llama 2
7B Q4_0 = 3.734 ms, less 32 x 60 us = 1.814 ms for 3.82e9 B = 2.106 TB/s over 67 TFLOPS FP32)."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

# Llama-2-7B (as tests/test_llamacpp_memory_kind.py): Q4_0 at 0.5675 B a weight, the input-embedding table not read.
WEIGHTS = 6_738_415_616 * 0.5675 - 32_000 * 4_096 * 0.5675
FLOPS = 2 * (6_738_415_616 - 32_000 * 4_096)
KV = 65 * 2 * 32 * 4_096 * 2  # 1-token prompt, 128 outputs: mean context 65 tokens
LAYERS = 32 * 60e-6  # the HBM per-layer figure (memory_overrides.hbm), every build


def _engine(kb, gpu: str, precision: str = "int4", fmt: str | None = "gguf-q4_0", version: str = "1700",
            prompt: int = 1, output: int = 128, model: str = "llama-2-7b"):
    w = {"task": "inference", "model": model, "precision": precision, "framework": "llama.cpp",
         "prompt_tokens": prompt, "output_tokens": output, "framework_version": version}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(job, kb.gpus[gpu], 1, weight_format=fmt)
    return job, s


def _tok_s(kb, gpu: str, **kw) -> float:
    job, s = _engine(kb, gpu, **kw)
    return 1 / SV.point(job, s.engine, s.replica, 1.0).decode_step


def test_the_h100_rate_over_its_fp32_peak():
    """The cap's figure from discussion #15013's H100 row, by hand: 2.106 TB/s over 67 TFLOPS = 0.0314 B/FLOP."""
    step = 1 / 267.81 - 32 * 60e-6
    rate = 3.82e9 / step
    assert rate == pytest.approx(2.106e12, rel=1e-3)
    assert rate / 67e12 == pytest.approx(0.0314, abs=5e-5)


def test_h200_reads_at_the_chip_rate_not_its_hbm_share(kb):
    """H200 SXM (HBM3e 4,800 GB/s, FP32 67, INT8 1,979): 0.0314 x 67e12 = 2.1038 TB/s, not 0.60 x 4.8 = 2.88:
    1.7824 ms of weights + 0.0167 ms of math + 0.0162 ms of KV + 1.92 ms of layers = 3.7353 ms, 267.7 tok/s
    (the H100's own row in #15013: 267.81)."""
    bw = 0.0314 * 67e12
    hand = 1 / (WEIGHTS / bw + FLOPS / (1979e12 * 0.40) + KV / bw + LAYERS)
    assert hand == pytest.approx(267.7, abs=0.1)
    _, s = _engine(kb, "h200-141gb-sxm")
    assert s.engine.bw_fraction == pytest.approx(0.0314 * 67e12 / 4800e9)
    assert s.engine.bw_weights == pytest.approx(bw)
    assert _tok_s(kb, "h200-141gb-sxm") == pytest.approx(hand, rel=1e-3)


@pytest.mark.parametrize("gpu", ["h100-80gb-sxm", "h100-80gb-pcie", "a100-80gb-sxm", "v100-32gb-pcie"])
def test_parts_below_the_chip_rate_keep_their_bandwidth_share(kb, gpu):
    """H100 SXM: 0.60 x 3,350 = 2.01 TB/s under its 2.10 cap; H100 PCIe (FP32 51): 1.20 under 1.60; the A100 and
    V100 have no cap (GA100 / GV100 SMs have half the FP32 lanes, so the FP32 peak does not count their
    SM-cycles the same way; at the H100's bytes an SM-cycle the A100 SXM would read 1.23 TB/s, over its 1.22)."""
    _, s = _engine(kb, gpu)
    assert s.engine.bw_fraction == pytest.approx(0.60)


@pytest.mark.parametrize(("model", "published"), [("llama-2-7b", 2.1685 / 2.0611),
                                                   ("llama-3-8b", 2.5205 / 2.4257)])
def test_gh200_over_h100_follows_the_chip_as_published(kb, model, published):
    """argonne-lcf/LLM-Inference-Bench at 4211f5d4, Plots/All_results.csv: llama.cpp of Sep 2024, llama-bench -b 1
    (every token a single-token forward), F16 weights, input/output 128/128: H100 80GB HBM3 2.1685 s and GH200
    2.0611 s for Llama-2-7B (1.052x), 2.5205 / 2.4257 s for Meta-Llama-3-8B (1.039x), where the GH200's HBM3
    (4,000 GB/s) is 1.19x the H100's. gpuwise's ratio for the same build (3700: the CUDA-graph build's 47 us a
    layer) is within 0.02 of the published one; at the bandwidth share alone it would be 1.10 or more."""
    run = {"precision": "fp16", "fmt": None, "version": "3700", "prompt": 128, "output": 128, "model": model}
    ratio = _tok_s(kb, "gh200-96gb", **run) / _tok_s(kb, "h100-80gb-sxm", **run)
    assert ratio == pytest.approx(published, abs=0.02)
    _, s = _engine(kb, "gh200-96gb", precision="fp16", fmt=None, version="3700")
    assert s.engine.bw_fraction * 4000 / (0.60 * 3350) < 1.05  # the cap, not the 1.19x of the HBM, sets the read
    assert pytest.approx(1.194, abs=1e-3) == 0.60 * 4000 / (0.60 * 3350)
