"""A burst's requests decode together once in: its decode step is the step of the whole batch at the GPUs' pace,
even where the front end feeds the requests slower than the GPUs would finish them (that bound is the burst's start,
front.burst_seconds). Row VP05: vllm-project/vllm pull request #23696 (Aug 2025), gpt-oss-120b MXFP4 on 8 x B200 at
TP 8, 1000 ShareGPT prompts sent at once (215 in / 197 out on average), 7,404.72 output tok/s."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from gpuwise.estimators import serving as SV

ROWS = Path(__file__).parent / "data" / "validation" / "serving_independent.csv"


def _job(kb, accuracy, rid: str):
    with open(ROWS, newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == rid)
    job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                               int(row["output_tokens"]), int(row["concurrency"]), int(row["tp"]), int(row["pp"]),
                               framework_version=row["framework_version"] or None)
    return row, job, SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))


def test_the_front_end_bounds_the_steady_loop_not_the_bursts_batch(kb, accuracy):
    """vLLM's front end takes 12.8 ms a request plus 215 prompt tokens at 850,000 tokens/s (serving.yaml front_end):
    1 / (12.8e-3 + 215 / 850e3) = 76.61 requests/s, 197 x 76.61 = 15,092 output tok/s, the most the steady loop
    at 1000 requests serves; its step is that of the smaller batch that keeps that pace. The burst's 1000 requests
    decode together once fed: their step is the GPU step of 1000 sequences, longer."""
    _row, job, s = _job(kb, accuracy, "VP05")
    assert s.layout.replicas == 1 and s.replica.max_seqs >= 1000
    steady = SV.point(job, s.engine, s.replica, 1000.0)
    assert steady.front_end and steady.throughput == pytest.approx(197 / (12.8e-3 + 215 / 850e3), rel=1e-6)
    burst = SV.burst_decode_step(job, s.engine, s.replica, 1000)
    assert burst == SV._point(job, s.engine, s.replica, 1000.0).decode_step
    assert burst > 1.5 * steady.decode_step


def test_the_burst_row_is_scored_with_its_batchs_step(kb, accuracy):
    """At the mean lengths the burst would be 1000 x 197 tokens over the front end's 1000 x 13.053 ms (the last
    prompt in) plus 197 steps of the 1000-sequence batch. The row states its ShareGPT lengths (length_distribution),
    so the harness steps its requests through one by one (serving/burst.py): the longer answers run on after the
    mean one, and the estimate falls below the mean-length figure while the published 7,404.72 tok/s stays within
    1.6x of it."""
    _row, job, s = _job(kb, accuracy, "VP05")
    last = max(SV.burst_last_ttft(job, s.engine, s.replica, 1000), SV.burst_seconds(job, s.engine, 1000))
    assert last == pytest.approx(1000 * (12.8e-3 + 215 / 850e3), rel=1e-6)
    want = 1000 * 197 / (last + 197 * SV.burst_decode_step(job, s.engine, s.replica, 1000))
    got = next(est for label, est, _ in accuracy.serving_cases(kb, ROWS) if label.startswith("VP05 "))
    assert got < 0.95 * want
    assert 1.0 < got / 7404.72 < 1.6
