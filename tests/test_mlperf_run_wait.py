"""The wait for a slot in a 600-second MLPerf run at a full copy (branch ratelat66): benchmarks/accuracy_serving.py
``span_wait`` and ``mlperf_ttft``. The run's duration is MLPerf's own (mlcommons/inference_policies
inference_rules.adoc at ac93e89c, the scenario table: Server / Interactive runs 600 seconds of Poisson arrivals)."""

from __future__ import annotations

import csv
import math

import pytest

from benchmarks.accuracy_serving import MLPERF_RUN_S, RATE, mlperf_ttft, rate_row_served, span_wait
from gpuwise.estimators.serving import rate as RT


def _row(rid: str) -> dict:
    with open(RATE, newline="") as fh:
        return next(r for r in csv.DictReader(fh) if r["id"] == rid)


def test_the_runs_mean_wait_by_hand():
    """RX12's copy (8 copies at 394.43 requests/s: 49.30 a copy) over 600 s: the driftless reflected Brownian queue
    from empty waits sqrt(2 t / (pi x 49.30)) at t, so over the run (2/3) x sqrt(1200 / (pi x 49.30)) =
    (2/3) x sqrt(1200 / 154.88) = (2/3) x sqrt(7.748) = (2/3) x 2.7835 = 1.8557 s."""
    assert MLPERF_RUN_S == 600.0
    mean, _ = span_wait(49.30, 600.0)
    assert mean == pytest.approx(1.8557, abs=1e-4)
    assert span_wait(4 * 49.30, 600.0)[0] == pytest.approx(mean / 2, rel=1e-12)  # 1 / sqrt(rate)
    assert span_wait(49.30, 4 * 600.0)[0] == pytest.approx(2 * mean, rel=1e-12)  # sqrt(span)


def test_the_runs_p95_is_where_five_percent_of_its_arrivals_wait_longer():
    """The closed form in span_wait against the law itself, integrated here on a fine grid: an arrival at t waits
    |N(0, t / rate)|, so P(wait > w) = erfc(w sqrt(rate / t) / sqrt 2); averaged over t uniform in the 600 s it is
    5% at the p95 (5.110 s for 49.30 a copy), and the p95 is above the mean and below the 97.5% point at the run's
    end (1.96 x sqrt(600 / 49.30) = 6.838 s)."""
    rate, span = 49.30, 600.0
    mean, p95 = span_wait(rate, span)
    n = 20000
    share = sum(math.erfc(p95 * math.sqrt(rate / ((i + 0.5) / n * span)) / math.sqrt(2.0)) for i in range(n)) / n
    assert share == pytest.approx(0.05, abs=1e-5)
    assert p95 == pytest.approx(5.110, abs=1e-3)
    assert mean < p95 < 1.96 * math.sqrt(span / rate)


def test_rx12s_full_copy_waits_the_runs_time_not_the_steady_states(kb):
    """RX12 (AMD's MLPerf v5.1 Server run, Mixtral 8x7B FP8 on 8 MI325X at 394.43 requests/s): gpuwise's copies
    serve 0.1% less than that at full slots, within the rate answer's tolerance, so its steady-state wait for a
    slot (Erlang C at a batch of the slots less 1e-6) is hours; the run's 600 s cannot build it. The TTFT keeps the
    answer's other terms and takes the run's wait, 1.8557 s mean and 5.110 s p95, in place of the slot's."""
    row = _row("RX12")
    job, s = rate_row_served(kb, row)
    at = s.rate.at_rate
    assert at.stable and s.replica.layout.replicas == 8
    c = RT.slots(job, s.engine, s.replica)
    p = RT.at_batch(job, s.engine, s.replica, at.batch)
    slot_mean, slot95 = RT.wait(c, at.batch, p.ttft + int(row["output_tokens"]) * p.tpot)
    assert slot_mean > 3600 and at.ttft_mean > 3600
    mean, p95 = mlperf_ttft(job, s, row, at)
    run_mean, run95 = span_wait(394.43 / 8, 600.0)
    assert mean == pytest.approx(at.ttft_mean - slot_mean + run_mean, rel=1e-9)
    assert p95 == pytest.approx(at.ttft_p95 - slot95 + run95, rel=1e-9)
    assert run_mean < mean < run_mean + 1.0 and run95 < p95 < run95 + 1.0  # the rest of the TTFT: under a second


def test_a_copy_below_its_slots_and_a_counted_run_keep_the_answers_ttft(kb):
    """RT30 (one B200 at 98.7% of its full rate, MLPerf v5.0 Server): the steady wait for a slot is below the run's
    bound, so the answer's TTFT stands; RQ12 (vllm bench serve, not MLPerf) is never bounded here."""
    for rid in ("RT30", "RQ12"):
        row = _row(rid)
        job, s = rate_row_served(kb, row)
        at = s.rate.at_rate
        assert mlperf_ttft(job, s, row, at) == (at.ttft_mean, at.ttft_p95)
