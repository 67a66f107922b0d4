"""A batch started together that the KV pool holds in waves: the last wave is what is left, not a full one.

vLLM's V1 scheduler (vllm/v1/core/sched/scheduler.py, schedule(): the running requests first, then the waiting queue
in order while the KV cache manager finds blocks for them) admits a burst's requests while the pool has room; requests
of one length admitted together end together and free the pool for the next ones, so 500 requests at a copy that
holds 226 run as 226 + 226 + 48. The harness priced every wave as a full one (3 x the 226-request wave), which made a
smaller pool read faster: at 182 a copy runs 182 + 182 + 136, priced as 3 x a 182-request wave, cheaper than 3 x 226
though the real run has the same prefill tokens and decode steps either way. Row Z14 (GPUStack performance lab,
GLM-4.5-Air BF16 on 4 x H100 SXM, vLLM 0.11.0 TP 4, 500 prompts of 1,999 / 100 tokens sent at once).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from gpuwise.estimators import serving as SV

ROWS = Path(__file__).parent / "data" / "validation" / "serving_independent.csv"


def _z14(kb, accuracy, options: str = ""):
    with open(ROWS, newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == "Z14")
    job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                               int(row["output_tokens"]), int(row["concurrency"]), int(row["tp"]), int(row["pp"]),
                               options=options)
    return job, SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))


def test_the_last_wave_is_what_is_left(kb, accuracy):
    """vLLM's pool at its default utilization 0.9 holds 226 Z14 sequences a copy (20.5 GiB of KV at 47,104 B a token
    a GPU: 46 layers x 2 x 2 KV heads a rank x 128 x 2 B): 500 = 226 + 226 + 48, and the run is two full waves and
    one of 48, each its prefill (the last of its prompts) and 100 decode steps at its own batch; the front end's
    7.6 s for all 500 requests is shorter."""
    job, s = _z14(kb, accuracy)
    assert s.layout.replicas == 1 and s.replica.max_seqs == 226
    assert accuracy.wave_sizes(500, 226, True) == [226, 226, 48]

    def wave(k: int) -> float:
        return SV.burst_last_ttft(job, s.engine, s.replica, k) + 100 * SV.burst_decode_step(job, s.engine, s.replica, k)

    run = 2 * wave(226) + wave(48)
    assert accuracy.burst_waves(job, s, 500, 226, 100) == pytest.approx([wave(226), wave(226), wave(48)])
    assert accuracy.batch_throughput(job, s, 500, 100) == pytest.approx(500 * 100 / run, rel=1e-12)
    assert wave(48) < 0.5 * wave(226)  # the partial wave is priced well below a full one (it was priced as one)


def test_a_smaller_pool_does_not_read_faster(kb, accuracy):
    """At a stated memory_fraction of 0.85 the pool holds 182 (500 = 182 + 182 + 136): the same three waves, the same
    500 x 1,999 prompt tokens and 300 decode steps, only split into batches closer in size, so the run is within 1%
    of the default pool's and not shorter (a decode step's cost rises less than in proportion to its batch). Before
    the last wave was priced as what it holds, this read 1,312 tok/s against the default pool's 1,099."""
    job, s = _z14(kb, accuracy)
    small_job, small = _z14(kb, accuracy, "memory_fraction=0.85")
    assert small.replica.max_seqs == 182
    assert accuracy.wave_sizes(500, 182, True) == [182, 182, 136]
    default = accuracy.batch_throughput(job, s, 500, 100)
    smaller = accuracy.batch_throughput(small_job, small, 500, 100)
    assert smaller <= default
    assert smaller == pytest.approx(default, rel=0.01)
