"""SGLang 0.5.7's ROCm build walks the reduction depth of its block-FP8 dense GEMMs at a decode batch (knowledge/
serving.yaml sglang ``rocm_block_fp8_walk``; engine.block_fp8_k_block; step.kserial_seconds), and so, on aiter's CK
kernel, do 0.4.9-0.5.5 (the list's first entry; test_ck_walk_reproduces_the_tuned_table).

- Which kernel: the sglang 0.5.7 wheel, python/sglang/srt/layers/quantization/fp8_utils.py - with AITER on (the ROCm
  image's default) every block-FP8 linear layer calls aiter's Triton gemm_a8w8_blockscale.
- Its config: ROCm/aiter aiter/ops/triton/configs/gemm/gfx942-GEMM-A8W8_BLOCKSCALE.json, one entry for every shape
  (BLOCK_SIZE_N 128, BLOCK_SIZE_K 128, NUM_KSPLIT 1), no per-shape gfx942 file before aiter commit 56055011a6
  (2026-02-12): one work-group of 128 columns walks the whole K, 128 deep at a time.
- Its cost: ROCm/aiter pull request #1930 (2026-01-29) tuned the one shape N=2112 K=7168 (DeepSeek's fused query /
  latent down-projection, once a layer, 61 layers) and SGLang's DeepSeek-R1 on MI300X went from 28.76 to 22.05 ms
  median TPOT at concurrency 4: 110 us a call, ~2.0 us for each of its 56 blocks once the tuned call's own ~4 us of
  weights are added back."""

from __future__ import annotations

import importlib
import math

import pytest

from gpuwise.estimators import serving as SV

ST = importlib.import_module("gpuwise.estimators.serving.step")


def _engine(kb, accuracy, model: str, precision: str, gpu: str, count: int, version: str | None,
            framework: str = "sglang"):
    job = accuracy.serving_job(kb, model, precision, framework, 610, 422, tp=count, framework_version=version)
    s = SV.choose(job, kb.gpus[gpu], count)
    return job, s


@pytest.mark.parametrize(("model", "precision", "gpu", "version", "framework", "k_block_us"), [
    ("deepseek-v3.1", "fp8", "mi300x", "0.5.7", "sglang", 2.0),    # the release read, CDNA3
    ("deepseek-v3.1", "fp8", "mi325x", "0.5.7", "sglang", 2.0),    # gfx942 too
    ("minimax-m2", "fp8", "mi300x", "0.5.7", "sglang", 2.0),       # a block-FP8 checkpoint (weight_block_size 128)
    ("deepseek-v3.1", "fp8", "mi300x", "0.5.8", "sglang", 2.0),    # its image's aiter between 0.5.7's and 0.5.9's
    ("deepseek-v3.1", "fp8", "mi300x", "0.5.9", "sglang", 2.0),    # aiter v0.1.10.post3: no per-shape gfx942 file
    ("deepseek-v3.1", "fp8", "mi325x", "0.5.9", "sglang", 2.0),    # gfx942 too
    ("deepseek-v3.1", "fp8", "mi300x", "0.5.10", "sglang", 0.0),   # aiter #2024's DeepSeek shapes in its image
    ("deepseek-v3", "fp8", "mi300x", "0.4.10.post1", "sglang", 0.34),  # aiter's CK kernel (the earlier window)
    ("deepseek-v3.1", "fp8", "mi300x", "0.4.9", "sglang", 0.34),   # the first release read calling it
    ("deepseek-v3.1", "fp8", "mi300x", "0.5.5", "sglang", 0.34),   # the last
    ("deepseek-v3.1", "fp8", "mi300x", "0.5.6", "sglang", 0.0),    # the Triton kernel, its image's aiter not read
    ("deepseek-v3.1", "fp8", "mi300x", "0.4.6", "sglang", 0.0),    # the CK kernel only under CK_MOE
    ("deepseek-v3.1", "fp8", "mi300x", None, "sglang", 0.0),       # no release stated: the current constants
    ("deepseek-v3.1", "fp8", "mi355x", "0.5.7", "sglang", 0.0),    # CDNA4 (gfx950): not read
    ("deepseek-v3.1", "fp8", "mi300x", None, "vllm", 0.0),         # vLLM's ROCm build: not this entry
    ("deepseek-v3.1", "fp8", "h200-141gb-sxm", "0.5.7", "sglang", 0.0),  # Hopper: included from 0.5.7
])
def test_which_jobs_walk(kb, accuracy, model, precision, gpu, version, framework, k_block_us):
    _, s = _engine(kb, accuracy, model, precision, gpu, 8, version, framework)
    assert s.engine.k_block == pytest.approx(k_block_us * 1e-6)


def test_deepseek_walk_by_hand(kb, accuracy):
    """DeepSeek-V3.1 at TP 8 on MI300X, SGLang 0.5.7: each block-FP8 GEMM lasts ceil(K/128) x 2.0 us instead of its
    weights at 0.70 x 5.3 TB/s = 3.71 TB/s (the ROCm bandwidth fraction). Per layer (61): the fused q/kv down-projection
    N=2112 K=7168 (replicated) 112 - 4.08 us, q_b N=24576/8 K=1536 24 - 1.27, o_proj N=7168 K=16384/8 32 - 3.96; the
    three dense layers' gate/up N=36864/8 K=7168 112 - 8.90 and down N=7168 K=18432/8 36 - 4.45."""
    _, s = _engine(kb, accuracy, "deepseek-v3.1", "fp8", "mi300x", 8, "0.5.7")
    bw = 0.70 * 5.3e12
    by_hand = 0.0
    for n, k, count in ((2112, 7168, 61), (3072, 1536, 61), (7168, 2048, 61), (4608, 7168, 3), (7168, 2304, 3)):
        by_hand += count * (math.ceil(k / 128) * 2.0e-6 - n * k / bw)
    assert by_hand == pytest.approx(10.08e-3, rel=2e-3)
    assert ST.kserial_seconds(s.engine, 8) == pytest.approx(by_hand, rel=2e-3)


def test_the_walk_reproduces_the_tuning_it_is_read_on():
    """ROCm/aiter #1930: (28.76 - 22.05) ms / 61 layers = 110 us saved a call on N=2112 K=7168; the walk less the
    weights' own time gives 112 - 15.1 MB / 3.71 TB/s = 108 us."""
    saved = (28.76e-3 - 22.05e-3) / 61
    walk = math.ceil(7168 / 128) * 2.0e-6 - 2112 * 7168 / (0.70 * 5.3e12)
    assert saved == pytest.approx(110e-6, rel=0.01)
    assert walk == pytest.approx(saved, rel=0.05)


@pytest.mark.parametrize(("model", "count", "published", "tolerance"), [
    # SGLang cookbook, DeepSeek-V3.1-Terminus on 8 x MI300X, SGLang 0.5.7, concurrency 1: 23.84 ms mean TPOT (row M01)
    ("deepseek-v3.1", 8, 1000 / 23.84, 0.10),
    # sgl-cookbook MiniMax-M2 page (ffd029d), 4 x MI300X, TP 4, SGLang 0.5.7, concurrency 1: 22.21 ms (row DQ04);
    # the q/k-norm all-reduces are priced at the copy's 25 us (no RCCL reading at a few bytes)
    ("minimax-m2", 4, 1000 / 22.21, 0.25),
])
def test_single_stream_rows(kb, accuracy, model, count, published, tolerance):
    job, s = _engine(kb, accuracy, model, "fp8", "mi300x", count, "0.5.7")
    got = 1 / SV.point(job, s.engine, s.replica, 1.0).decode_step
    assert got == pytest.approx(published, rel=tolerance)


def test_ck_walk_reproduces_the_tuned_table():
    """ROCm/aiter aiter/configs/a8w8_blockscale_tuned_gemm.csv (commits 1e8ac92007-1c06f87f87), cu_num 304 at M = 16,
    splitK 0: DeepSeek's K=7168 shapes 19.30 / 18.45 / 18.37 / 20.14 us (N = 1536 / 576 / 512 / 4608) over 56 blocks
    of 128 lie within 6% of the 0.34 us a block taken from the first; the first streams its weights at 570 GB/s,
    under a ninth of the part's 5.3 TB/s: the walk, not the weights, sets the call."""
    for us in (19.30, 18.45, 18.37, 20.14):
        assert us / 56 == pytest.approx(0.34, rel=0.06)
    streamed = 1536 * 7168 / 19.30e-6  # the weights over the call's time (the tuner's bw column: 579 GB/s)
    assert streamed == pytest.approx(570e9, rel=0.02)
    assert streamed < 5.3e12 / 9


def test_ck_walk_moves_the_0_4_10_row(kb, accuracy):
    """Row DZ03's release (0.4.10.post1) on 8 x MI300X: the walk less the weights' time, per layer (61) the fused
    N=2112 K=7168 56 x 0.34 - 4.08 us, q_b 12 x 0.34 - 1.27, o_proj 16 x 0.34 - 3.96; the dense layers' gate/up and
    down 56 x 0.34 - 8.90 and 18 x 0.34 - 4.45: ~1.2 ms a step (2.0 us a block at 0.5.7 gives 10.1). That release
    runs the shared expert apart on ROCm (serving.yaml sglang serial_shared_expert), so its gate/up N=4096/8 K=7168
    (56 x 0.34 - 0.99 us) and down N=7168 K=2048/8 (2 x 0.34 - 0.49) walk too in the 58 MoE layers: ~1.06 ms more."""
    _, s = _engine(kb, accuracy, "deepseek-v3", "fp8", "mi300x", 8, "0.4.10.post1")
    bw = 0.70 * 5.3e12
    by_hand = 0.0
    for n, k, count in ((2112, 7168, 61), (3072, 1536, 61), (7168, 2048, 61), (4608, 7168, 3), (7168, 2304, 3)):
        by_hand += count * max(math.ceil(k / 128) * 0.34e-6 - n * k / bw, 0.0)
    assert 1.0e-3 < by_hand < 1.4e-3
    shared = 58 * ((56 * 0.34e-6 - 512 * 7168 / bw) + (2 * 0.34e-6 - 7168 * 256 / bw))
    assert shared == pytest.approx(1.058e-3, rel=2e-3)
    assert ST.kserial_seconds(s.engine, 8) == pytest.approx(by_hand + shared, rel=2e-3)


@pytest.mark.parametrize(("gpu", "version", "entry"), [
    ("MI300X", "0.5.5", "knowledge/serving.yaml sglang rocm_block_fp8_walk"),
    ("MI300X", "0.5.7", "knowledge/serving.yaml sglang rocm_block_fp8_walk"),
    ("H200", "0.4.1", "knowledge/serving.yaml block_fp8_small_batch"),
])
def test_the_decode_formula_names_the_entry_its_walk_comes_from(gpu, version, entry):
    """The single-stream decode line's formula cites where its per-block figure was read: on CDNA3 the framework's
    ROCm list (0.34 us on 0.4.9-0.5.5, 2.0 on 0.5.7-0.5.9), on Hopper block_fp8_small_batch (it cited the latter for
    both)."""
    from gpuwise import estimate

    r = estimate({"workload": {"task": "inference", "model": "deepseek-v3", "precision": "fp8", "framework": "sglang",
                               "framework_version": version, "context_len": 2048, "concurrent_requests": 1}},
                 gpu=gpu, gpus=8)
    t = next(t for t in r.gpu.terms if "block_fp8_walk_s" in t.inputs)
    walk = next(p for p in t.formula_phrases if p[1] == "formula.serving.block_fp8_walk")
    assert walk[2]["source"] == entry
    assert entry in t.formula


@pytest.mark.parametrize(("concurrency", "before_ms", "after_ms"), [
    (4, 28.76, 22.05), (8, 37.19, 25.56), (16, 47.17, 30.83), (32, 46.60, 34.30)])
def test_the_0_5_8_walk_against_the_tuning_it_was_read_on(concurrency, before_ms, after_ms):
    """ROCm/aiter pull request #1930 (2026-01-29): SGLang's DeepSeek-R1 FP8 on 8 x MI300X, random 1k/1k, median
    TPOT before / after a tuned config for the one shape N=2112 K=7168. The build it ran is not stated; taken as
    0.5.8's era (0.5.7 to 0.5.9 carry an aiter from before the per-shape gfx942 files and walk alike), so every
    block-FP8 shape walked the default config. gpuwise at 0.5.8 gives 27.1 / 30.5 / 36.5 / 45.5 ms (before: -6 /
    -18 / -23 / -2%) and, less the tuned shape's walk, 61 x (56 x 2.0 - 4.08) us = 6.58 ms, 20.5 / 24.0 / 29.9 /
    38.9 ms (after: -7 / -6 / -3 / +13%). The 2.0 us a block was read off the c = 4 pair (its 110 us a call), so
    c = 4 is not a check; the saving measured grows with the batch (6.7 -> 16.3 ms from c = 4 to 16), which a block
    time fixed in the batch does not follow. The after-state is no release's (aiter #2024 tuned all three DeepSeek
    shapes for 0.5.10's image), so the buyer question on it (tests/test_buyer_questions.py) stays unpinned."""
    from gpuwise import estimate

    r = estimate({"workload": {"task": "inference", "model": "deepseek-r1", "precision": "fp8", "framework": "sglang",
                               "framework_version": "0.5.8", "prompt_tokens": 1024, "output_tokens": 1024,
                               "concurrent_requests": concurrency}}, gpu="MI300X", gpus=8)
    tpot = r.gpu.serving.tpot_s
    tuned = 61 * (56 * 2.0e-6 - 2112 * 7168 / (0.70 * 5.3e12))
    assert tuned == pytest.approx(6.58e-3, rel=2e-3)
    assert tpot == pytest.approx(before_ms * 1e-3, rel=0.25)
    assert tpot - tuned == pytest.approx(after_ms * 1e-3, rel=0.15)
