"""A paced closed loop's first requests queue for each other's prefill (benchmarks/accuracy_serving.py paced_ttft).

vllm bench serve with ``--request-rate R --max-concurrency C`` sends its requests at Poisson times of rate R and holds
at most C in flight; where R exceeds what the cap serves, the first C reach an idle server one by one and every later
one is sent as another ends. Where a prompt's prefill takes longer than 1 / R, the first C queue for the prefills of
those before them. Rows: djangodevreng/dgx-spark-benchmarks at 56365367, test 10-monday-peak (300 random prompts of
~4,000 / 500 tokens at 1.5/s, capped at 25, one DGX Spark, vLLM 0.26.0): SH67 Qwen3.6-27B BF16, mean TTFT 8,342.2 ms
(results/qwen-3.6/qwen-3.6-27b/bf16/10-monday-peak.md), SH64 Qwen3.5-2B BF16, 438.1 ms
(results/qwen-3.5/qwen-3.5-2b/bf16/10-monday-peak.md)."""

from __future__ import annotations

import csv
from pathlib import Path
from types import SimpleNamespace

import pytest

from benchmarks import accuracy_serving as AS
from gpuwise.estimators import serving as SV

ROWS = Path(__file__).parent / "data" / "validation" / "serving_independent.csv"


def _fake(monkeypatch, service: float, steady: float):
    """A copy whose burst of i prompts ends its prefill at i x ``service`` s, and whose steady-state TTFT is
    ``steady``."""
    monkeypatch.setattr(SV, "burst_last_ttft", lambda job, eng, rep, n: n * service)
    s = SimpleNamespace(layout=SimpleNamespace(replicas=1), replica=SimpleNamespace(max_seqs=256), engine=None)
    return s, SimpleNamespace(ttft=steady)


def test_ramp_by_hand(monkeypatch):
    """Four prompts 1 s apart, 2 s of prefill each: they end at 2, 4, 6, 8 s, so their TTFTs are 2, 3, 4, 5 s (mean
    3.5); the other four of eight prompts take the steady state's 1 s: (4 x 3.5 + 4 x 1) / 8 = 2.25 s."""
    s, got = _fake(monkeypatch, 2.0, 1.0)
    assert abs(AS.paced_ttft(None, s, got, 8, 4, 1.0, draws=0) - 2.25) < 1e-9


def test_ramp_that_keeps_up_is_the_steady_state(monkeypatch):
    """Prefills of 0.5 s against arrivals 1 s apart never queue: each ramp prompt's TTFT is its own 0.5 s, below the
    steady state's 1 s, which it is never less than."""
    s, got = _fake(monkeypatch, 0.5, 1.0)
    assert AS.paced_ttft(None, s, got, 300, 25, 1.5, draws=0) == 1.0


def _row(kb, rid: str):
    with open(ROWS, newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == rid)
    job = AS.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                         int(row["output_tokens"]), int(row["concurrency"]), int(row["tp"]), int(row["pp"]),
                         None, row.get("kv_precision") or None, row.get("framework_version") or None,
                         row.get("workload_options") or "")
    s = SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))
    return row, job, s


def test_sh67_ramp_against_the_run(kb):
    """SH67: a 4,000-token prefill of a dense 27B on the GB10 takes seconds, longer than the 0.67 s between
    arrivals, so the first 25 queue; the run's mean TTFT (8,342.2 ms) is within 20% of the steady state plus the
    ramp, where the steady state alone reads it more than 35% short. SH64 (a 2B, prefill well under 0.67 s) keeps
    up: at the expected send times its ramp adds nothing, with Poisson's bunching about 1%."""
    row, job, s = _row(kb, "SH67")
    steady = s.load.ttft
    paced = AS.run_ttft(job, s, s.load, row)
    published = float(row["ttft_ms"]) / 1e3
    assert steady < 0.65 * published
    assert abs(paced / published - 1) < 0.2
    row, job, s = _row(kb, "SH64")
    assert AS.paced_ttft(job, s, s.load, 300, 25, 1.5, draws=0) == s.load.ttft
    assert AS.run_ttft(job, s, s.load, row) == pytest.approx(s.load.ttft, rel=0.02)  # Poisson bunching only


def test_poisson_sends_queue_at_least_as_long(kb):
    """The client's gaps are exponential (vllm/benchmarks/serve.py get_request: gamma of shape burstiness 1): a
    queue's wait is convex in its gaps, so the ramp averaged over Poisson schedules is no shorter than the one with
    every send at its expected time. SH66 (Qwen3.5-9B, a 1.1 s prefill against 0.67 s gaps)."""
    _, job, s = _row(kb, "SH66")
    expected = AS.paced_ttft(job, s, s.load, 300, 25, 1.5, draws=0)
    assert AS.paced_ttft(job, s, s.load, 300, 25, 1.5) >= expected > s.load.ttft
