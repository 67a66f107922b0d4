"""Rows CK01 / CK02's time to first token term by term, on the unchanged model (branch sglrocm56; the validation
README, 'SGLang on MI300X: MiniMax-M2's time to first token'). The rows (serving_independent.csv): MiniMaxAI/MiniMax-M2
(block FP8) on 4 x AMD MI300X, SGLang 0.5.7, --tp-size 4, sglang.bench_serving random 1000 / 1000 at the default range
ratio (lengths drawn up to the stated ones), 80 prompts at --max-concurrency 16 and 500 at 100. The page's whole
result blocks (sgl-project/sgl-cookbook docs/autoregressive/MiniMax/MiniMax-M2.md at ffd029d, section 5.1) print more
than the rows keep: for CK01 mean / median / P99 TTFT 532.32 / 147.69 / 1,978.48 ms, P99 ITL 125.10 ms, max ITL
1,192.51 ms, mean E2E 13,925.95 ms, 'Concurrency:' 13.74; for CK02 387.41 / 183.90 / 1,192.44 ms, P95 / P99 ITL 143.10 /
150.46 ms, mean E2E 28,017.24 ms, 'Concurrency:' 91.14; and the concurrency-1 run before them, 10 prompts, mean /
median / P99 TTFT 4,528.94 / 385.23 / 38,338.51 ms.

What they say, by hand:
- the throughput is the run's own Little's law: 'Concurrency:' x mean output / mean E2E, 13.74 x 40,805 / 80 /
  13.926 s = 503.3 tok/s (published 503.32); the run held 13.74 requests in flight on average, not 16 (its last
  requests end one by one), where gpuwise's closed loop holds 16 throughout;
- the mean TTFT is a tail: 80 x (532.32 - 147.69) ms = 30.8 s above the median, 1.92 s for each of the first wave's 16
  requests, against gpuwise's 201 ms for that wave (burst_ttft); the P99 (1,978 ms) and the max ITL (1,193 ms) put it
  in a few seconds at the run's start, as the concurrency-1 run's one ~41 s first request does (10 x (4,528.94 -
  385.23) ms): a server warming up, not a prefill priced short;
- a prefill forward beside the decodes: SGLang 0.5.7 runs a prefill batch alone (enable_mixed_chunk False) and outside
  CUDA graphs, so gpuwise prices a 496-token prompt at the host's launch time, 1,488 kernels x 85 us + 300 us =
  126.8 ms (its GPU work is 42 ms); a decoding request that meets one waits it beside its own step, 25.0 + 126.8 =
  151.8 ms, at or above the ITLs that hold such pauses (CK01's P99 ITL 125.10 ms; CK02's P95 / P99 143.10 / 150.46):
  the prompt side is not short;
- so the TTFT's miss weighs (532.32 - 183.0) / 13,925.95 = 2.5% of a request's life: it cannot carry the row's +11%
  throughput error, which the run's 13.74 in flight against 16 does (16 / 13.74 = 1.164)."""

from __future__ import annotations

import importlib

import pytest

from benchmarks import accuracy as A
from gpuwise import knowledge
from gpuwise.estimators import serving as SV

ST = importlib.import_module("gpuwise.estimators.serving.step")
LD = importlib.import_module("gpuwise.estimators.serving.load")
LAYERS = 62


@pytest.fixture(scope="module")
def ck01():
    kb = knowledge.load()
    job = A.serving_job(kb, "minimax-m2", "fp8", "sglang", 496, 510, 16, tp=4, framework_version="0.5.7",
                        options="memory_fraction=0.85")
    return job, SV.choose(job, kb.gpus["mi300x"], 4)


def test_the_page_throughput_is_its_own_littles_law():
    ck01 = 13.74 * 40805 / 80 / 13.92595  # in flight x mean output / mean E2E (s)
    ck02 = 91.14 * 252662 / 500 / 28.01724
    assert ck01 == pytest.approx(503.32, rel=0.001) and ck02 == pytest.approx(1643.75, rel=0.001)


def test_the_prefill_forward_by_hand(ck01):
    job, s = ck01
    eng = s.engine
    kernels = 12 * LAYERS + LAYERS * (4 + 4 + 2) + 2 * LAYERS  # dense layer's 12, routing + W8A8, grouped GEMMs
    assert ST.kernels_per_forward(eng) == kernels == 1488
    assert eng.eager_kernel == pytest.approx(85e-6) and not eng.fw.mixed_prefill
    pre = LD.prefill_seconds(job, eng, s.replica, 496, 248)
    assert pre == pytest.approx(kernels * 85e-6 + 300e-6, rel=1e-9)  # 126.8 ms: the launches bind
    gpu = ST.seconds_of(ST.consts(job, eng, s.replica), 0.0, 496, 0.0, 248)
    assert gpu < 0.34 * pre  # its GPU work, 42.4 ms (39 before the CDNA 3 fused-MoE rate, branch mi300prefill65)
    paused_itl = s.load.decode_step + pre  # a decoding request that meets a prefill forward
    assert paused_itl >= 125.10e-3  # the page's P99 ITL (CK01): gpuwise's pause is not short
    assert paused_itl == pytest.approx(151.8e-3, abs=0.5e-3)


def test_the_mean_ttft_is_the_first_wave_tail(ck01):
    job, s = ck01
    excess = 80 * (532.32 - 147.69) / 16  # ms above the median, over the first wave's 16 requests
    assert excess == pytest.approx(1923.2, abs=0.1)
    wave = SV.burst_ttft(job, s.engine, s.replica, 16)
    # gpuwise's first wave: one prefill of ~7.9k tokens, 201 ms (147 before the CDNA 3 fused-MoE rate, branch
    # mi300prefill65): still under a ninth of the excess a request of that wave carries
    assert wave * 1e3 < excess / 9
    cold = 10 * (4528.94 - 385.23) / 1e3  # s above the median in the concurrency-1 run: its one cold request
    assert cold == pytest.approx(41.4, abs=0.1)


def test_the_ttft_cannot_carry_the_throughput_error(ck01):
    _, s = ck01
    got = s.load
    assert got.throughput == pytest.approx(16 * 510 / (got.ttft + 510 * got.tpot), rel=1e-9)  # 16 in flight
    assert (532.32e-3 - got.ttft) / 13.92595 < 0.03  # the TTFT's miss: 2.5% of a request's life
    assert got.throughput / 503.32 == pytest.approx(1.111, abs=0.002)  # the row's +11.1%
    assert got.throughput * 13.74 / 16 / 503.32 == pytest.approx(0.954, abs=0.002)  # at the run's own 13.74: -4.6%
