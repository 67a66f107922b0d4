"""Row CK01's decode step by hand from its terms, on the unchanged model (branch minimax56; the validation README,
'MiniMax-M2's decode step at a batch'). The row (serving_independent.csv): MiniMaxAI/MiniMax-M2 (block FP8) on 4 x
AMD MI300X, SGLang 0.5.7, --tp-size 4 (no EP), bench_serving random 1000 / 1000 over 80 prompts at
--max-concurrency 16: 503.3 output tok/s, mean TPOT 27.49 ms, mean TTFT 532 ms (sgl-project/sgl-cookbook
docs/autoregressive/MiniMax/MiniMax-M2.md at ffd029d).

MiniMax-M2's shape (models.yaml): 62 layers, hidden 3072, every layer attention (48 / 8 heads of 128) and MoE (256
experts of 1536, top 8, no shared expert), q/k RMSNorm over all heads (``qk_norm_all_heads``). SGLang's constants
(serving.yaml): a counted small kernel 6 us (kernel_floor_us), a grouped expert GEMM 17 us, 11 us a layer on ROCm,
300 us a step and 8 us a sequence of host time; the MI300X's all-reduce latency 25 us; aiter's default-config block-FP8
GEMM walks its reduction depth at 2 us a 128-deep block in 0.5.7-0.5.9 (block_fp8_small_batch, cdna3). SGLang 0.5.7
normalizes q and k apart, each all-reducing its FP32 variance (qk_norm_allreduce ``separate``).

What the step charges at 16 sequences (751 tokens of context each, the run's mean mid-output):
- linear layers 11.52 ms: the dense weights a GPU reads (0.29 ms), aiter's block walk over the dense GEMMs (4.28 ms),
  the routed experts a GPU reads: 224.68 GB of FP8 experts / 4 GPUs x the share of the 256 experts 16 tokens touch
  under uniform routing, 1 - (1 - 8/256)^16 = 0.3986, 22.39 GB at 0.7 x 5.3 TB/s = 6.03 ms; the math beside them;
- all-reduces 6.33 ms: 62 x (2 activation all-reduces at 25 us + their 96 KiB ring share, and 2 q/k exchanges at 25 us);
- fixed 6.51 ms: 62 x 11 us + 620 counted kernels x 6 us (62 x (4 router + 4 W8A8 dense quantizations + 2 expert
  quantizations)) + 124 grouped GEMMs x 17 us;
- attention 0.21 ms; host 0.43 ms (300 + 16 x 8 us).
The load model's TPOT (prompt chunks interleaved) is 28.26 ms against the published 27.49 (+2.8%); the count fix of
a05fe926 (a MoE layer without a shared expert quantizes before two dense GEMMs, not four) takes 124 x 6 us = 0.74 ms
off, to -0.8%. The row's throughput error (+11.1%) is its TTFT: 183 ms against the published 532."""

from __future__ import annotations

import importlib

import pytest

from benchmarks import accuracy as A
from gpuwise import knowledge
from gpuwise.estimators import serving as SV

ST = importlib.import_module("gpuwise.estimators.serving.step")
LAYERS, HIDDEN, CONC, CTX = 62, 3072, 16, 496 + 510 / 2


@pytest.fixture(scope="module")
def ck01():
    kb = knowledge.load()
    job = A.serving_job(kb, "minimax-m2", "fp8", "sglang", 496, 510, CONC, tp=4, framework_version="0.5.7",
                        options="memory_fraction=0.85")
    s = SV.choose(job, kb.gpus["mi300x"], 4)
    return job, s, ST.consts(job, s.engine, s.replica)


def test_counts_and_fixed_cost_by_hand(ck01):
    _, s, c = ck01
    eng = s.engine
    assert ST._extra_kernels(eng) == (LAYERS * (4 + 4 + 2), 2 * LAYERS)  # 620 small kernels, 124 grouped GEMMs
    assert (eng.kernel_floor, eng.grouped_floor, eng.layer_overhead) == pytest.approx((6e-6, 17e-6, 11e-6))
    over = ST._parts(c, CONC, 0.0, CTX, 0.0)[4]
    assert over == pytest.approx(LAYERS * 11e-6 + 620 * 6e-6 + 124 * 17e-6)  # 0.682 + 3.72 + 2.108 = 6.51 ms


def test_all_reduces_by_hand(ck01):
    _, _, c = ck01
    assert c.tp == 4 and c.allreduce_latency == pytest.approx(25e-6) and c.qk_count == 2 and c.qk_bytes == 4.0
    ring = c.tp_share * CONC * HIDDEN * 2 / c.link_bw  # 2 (tp - 1) / tp of 16 tokens x 3072 x 2 B over the link
    qk = c.tp_share * CONC * 4 / c.link_bw
    by_hand = LAYERS * (2 * (25e-6 + ring) + 2 * (25e-6 + qk))
    assert ST.tp_allreduce_seconds(c, float(CONC)) == pytest.approx(by_hand, rel=1e-12)
    assert 6.3e-3 < by_hand < 6.35e-3


def test_the_experts_read_at_sixteen_tokens(ck01):
    _, s, c = ck01
    touched = 1 - (1 - 8 / 256) ** CONC  # 0.3986 of the 256 experts
    per_gpu = s.engine.mbytes.experts / 4 * touched
    assert per_gpu == pytest.approx(22.39e9, rel=1e-3)
    w_gpu = ST._parts(c, CONC, 0.0, CTX, 0.0)[8]
    assert w_gpu == pytest.approx(c.w_dense + per_gpu, rel=1e-9)
    e_mem = per_gpu / s.engine.bw_experts
    assert e_mem == pytest.approx(6.03e-3, abs=0.01e-3)


def test_step_sum_and_the_published_tpot(ck01):
    _, s, c = ck01
    seconds, gemm, attention, comm, over, host = ST._parts(c, CONC, 0.0, CTX, 0.0)[:6]
    assert seconds == pytest.approx(gemm + attention + comm + over + host)
    assert host == pytest.approx(300e-6 + CONC * 8e-6)
    assert c.kserial == pytest.approx(4.28e-3, abs=0.01e-3)
    assert 24.9e-3 < seconds < 25.1e-3
    got = s.load
    assert got.tpot == pytest.approx(27.49e-3 * 1.028, rel=0.005)  # +2.8% against the published mean TPOT
    assert got.tpot - 124 * 6e-6 == pytest.approx(27.49e-3 * 0.992, rel=0.01)  # less the fix's 124 kernels: -0.8%
    assert got.ttft < 0.4 * 532.32e-3  # the throughput's miss: TTFT 183 ms against 532
