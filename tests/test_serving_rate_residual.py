"""The request-rate model's wait for the step in flight (rate.residual), by hand and against runs at a stated
rate (tests/data/validation/serving_rate.csv, rows RQ..; sources beside each)."""

from __future__ import annotations

import math

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving import rate as R


def test_residual_by_hand():
    """A step of 20 ms that is always running: the rest of it is uniform on [0, 20] ms, mean 10 ms, 95th percentile
    19 ms. Running half the time: mean 0.5 x 10 = 5 ms; the wait exceeds x with chance 0.5 (20 - x) / 20, which is
    0.05 at x = 20 (1 - 0.05 / 0.5) = 18 ms. Running 4% of the time: 96% of arrivals wait for nothing, so the 95th
    percentile is no wait."""
    assert R.residual(1.0, 0.020) == (pytest.approx(0.010), pytest.approx(0.019))
    assert R.residual(0.5, 0.020) == (pytest.approx(0.005), pytest.approx(0.018))
    assert R.residual(0.04, 0.020) == (pytest.approx(0.0004), 0.0)


def _rq(kb, accuracy, rid):
    row = next(r for r in accuracy._rows(accuracy.RATE.parent, accuracy.RATE.name) if r["id"] == rid)
    opts = ";".join(filter(None, (row["workload_options"], f"requests_per_s={row['request_rate']}")))
    job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                               int(row["output_tokens"]), None, int(row["tp"]), int(row["pp"]), None,
                               row["kv_precision"] or None, row["framework_version"] or None, opts)
    return row, job, SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))


def test_ttft_adds_the_step_in_flight(kb, accuracy):
    """RQ03 (vLLM 0.14.1, Llama 3.1 70B FP8 on one H200, ShareGPT at 1 request/s): ~4.9 sequences in service, so
    a step runs with chance 1 - e^-4.9 = 0.993 and nobody waits for a slot or the prompt budget; the mean TTFT is
    the prompt's service plus half the step, the p95 the service plus (1 - 0.05 / 0.993) of the step."""
    _, job, s = _rq(kb, accuracy, "RQ03")
    at = s.rate.at_rate
    p = SV.point(job, s.engine, s.replica, float(max(1, round(at.batch))), open_loop=True)
    service = p.ttft - p.queued
    busy = 1 - math.exp(-at.batch)
    assert busy == pytest.approx(0.992, abs=2e-3)
    assert at.ttft_mean == pytest.approx(service + busy * p.tpot / 2, rel=1e-3)
    assert at.ttft_p95 == pytest.approx(service + p.tpot * (1 - 0.05 / busy), rel=1e-3)


def test_h200_ttft_tail_at_a_rate(kb, accuracy):
    """DO-Solutions/gtc-2026-doks dev/vllm/benchmarks/phase0/20260224-185458/report.md (commit 541db4ef): vLLM 0.14.1,
    Llama 3.1 70B FP8 on one H200, ShareGPT, Poisson 0.75-3 requests/s: p95 TTFT 68.7-79.4 ms, 12-15 ms above each
    run's median. The prompt's own service alone (before the step in flight was counted) read 23-31% short; with it
    every rate is within 12% (+2.2 .. +10.0%). RQ01 (0.5 /s, p95 151.5 ms) ran first after the warm-up and is the
    report's own cold-cache artifact: not held."""
    for rid in ("RQ02", "RQ03", "RQ04", "RQ05", "RQ06", "RQ07", "RQ08"):
        row, _, s = _rq(kb, accuracy, rid)
        assert s.rate.at_rate.stable
        assert s.rate.at_rate.ttft_p95 * 1e3 == pytest.approx(float(row["ttft_p95_ms"]), rel=0.12), rid
