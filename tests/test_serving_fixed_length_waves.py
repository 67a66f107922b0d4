"""A closed loop of fixed-length requests stays in waves: every wave is a burst (benchmarks/accuracy.py run_ttft).

The c requests of a wave start together, decode the same number of tokens and end within a few steps of each other, so
the client's next c are sent together again. Sources of the rows: dstackai/benchmarks Deepseek-R1 raw_data/
online_results.csv (S01-S03, S10: SGLang's bench_serving random 3200/800 at --random-range-ratio 1, 500 prompts, vLLM
nightly of Mar 2025 on 8 x H200: mean TTFT 975.65 / 7,650.78 / 14,164.37 ms at concurrency 4 / 32 / 64, growing with
the concurrency as a burst of c prompts does); vllm-project/vllm pull request #23151 (N01: Qwen3-30B-A3B on one H100,
100 prompts of 2,048 tokens at concurrency 10, 101,576 of 102,400 output tokens generated)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from gpuwise.estimators import serving as SV

ROWS = Path(__file__).parent / "data" / "validation" / "serving_independent.csv"


def _case(kb, accuracy, rid: str):
    with open(ROWS, newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == rid)
    job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                               int(row["output_tokens"]), int(row["concurrency"]), int(row["tp"]), int(row["pp"]),
                               int(row["ep"]) if row.get("ep") else None, row.get("kv_precision") or None,
                               row.get("framework_version") or None, row.get("workload_options") or "")
    s = SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))
    return row, job, s


def test_wave_sizes_by_hand(accuracy):
    """500 prompts at concurrency 32: 15 waves of 32 and one of 20 (15 x 32 = 480) when the lengths are fixed;
    otherwise only the first 32 are sent at once. A run of 16 prompts at 16 is its first wave alone."""
    assert accuracy.wave_sizes(500, 32, True) == [32] * 15 + [20]
    assert accuracy.wave_sizes(500, 32, False) == [32]
    assert accuracy.wave_sizes(16, 16, False) == [16]
    assert accuracy.wave_sizes(100, 10, True) == [10] * 10


def test_every_wave_of_a_fixed_length_loop_is_a_burst(kb, accuracy):
    """S02: 500 prompts in waves of 32 (the copy holds 84): the mean TTFT is (15 x 32 x B(32) + 20 x B(20)) / 500,
    B(n) the mean first-token time of n prompts sent at once (``burst_ttft``)."""
    row, job, s = _case(kb, accuracy, "S02")
    assert row["fixed_lengths"] == "1" and s.replica.max_seqs >= 32 and s.layout.replicas == 1
    b32 = SV.burst_ttft(job, s.engine, s.replica, 32)
    b20 = SV.burst_ttft(job, s.engine, s.replica, 20)
    want = (15 * 32 * b32 + 20 * b20) / 500
    assert accuracy.run_ttft(job, s, s.load, row) == pytest.approx(want, rel=1e-12)


def test_the_published_ttft_grows_with_the_wave(kb, accuracy):
    """The dstack sweep's TTFT at concurrency 64 is 1.85x its TTFT at 32 (14,164.37 / 7,650.78 ms): each wave's
    prompts queue behind each other. Scored as waves the model's ratio is within 10% of it; scored as one first
    wave and a steady state it was 2.65 (1,001 / 378 ms)."""
    got = {}
    for rid in ("S02", "S03"):
        row, job, s = _case(kb, accuracy, rid)
        got[rid] = accuracy.run_ttft(job, s, s.load, row)
    assert got["S03"] / got["S02"] == pytest.approx(14164.37 / 7650.78, rel=0.10)


def test_a_loop_of_ten_waves_of_ten(kb, accuracy):
    """N01: 100 prompts at concurrency 10 with fixed lengths are ten waves of ten, so the mean TTFT is a burst of
    ten's, B(10), within 20% of the published 267.22 ms (the steady state's 72.6 ms read -64%; the first wave alone
    96.8 ms)."""
    row, job, s = _case(kb, accuracy, "N01")
    b10 = SV.burst_ttft(job, s.engine, s.replica, 10)
    assert accuracy.run_ttft(job, s, s.load, row) == pytest.approx(b10, rel=1e-12)
    assert b10 * 1e3 == pytest.approx(267.22, rel=0.20)


def test_a_wave_the_copy_cannot_hold_runs_as_the_steady_state(kb, accuracy):
    """S10 (3200/3200 at 128 on a copy whose stated KV pool holds 63): the wave is not admitted together, so only the
    first wave is a burst, as for a loop of varied lengths: (63 x B(63) + 65 x T + 372 x T) / 500, T the steady
    state's TTFT with its wait for a slot."""
    row, job, s = _case(kb, accuracy, "S10")
    assert row["fixed_lengths"] == "1" and s.replica.max_seqs == 63
    t = s.load.ttft
    want = (63 * SV.burst_ttft(job, s.engine, s.replica, 63) + 65 * t + 372 * t) / 500
    assert accuracy.run_ttft(job, s, s.load, row) == pytest.approx(want, rel=1e-12)


def test_a_run_through_the_http_server_is_not_offline(accuracy):
    """A row's metric that names vLLM's benchmark_serving.py ran over HTTP, through the API server, even where it
    also says 'benchmark_latency-like' for how it is scored (tests/data/validation/serving_independent.csv N07: '16
    prompts started together (benchmark_serving.py over HTTP'; decode_independent.csv L06); vLLM's
    benchmark_latency.py and trtllm-bench run the engine in-process (D22, E01)."""
    assert not accuracy.offline_metric("output tok/s of one batch of 16 prompts started together (benchmark_serving.py "
                                       "over HTTP, --max-concurrency 16 --num-prompts 16 --ignore-eos: scored as "
                                       "benchmark_latency); mean TPOT and TTFT")
    assert not accuracy.offline_metric("output token throughput at max concurrency 1 (benchmark_serving, prefill "
                                       "included; benchmark_latency-like: scored as output / (TTFT + output x step))")
    assert accuracy.offline_metric("output tok/s of benchmark_latency.py at batch 1")
    assert accuracy.offline_metric("Per User Output Throughput at concurrency 1 (trtllm-bench min-latency)")
