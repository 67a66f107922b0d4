"""A fixed-length closed loop beyond the sequence cap runs in waves (benchmarks/accuracy.py ``wave_tpot``,
``wave_throughput``).

SGLang runs a prefill batch first whenever requests wait and a slot is free (python/sglang/srt/managers/scheduler.py
``get_next_batch_to_run``: 'Run prefill first if possible', sglang 0.5.16 wheel from PyPI), and without
--enable-mixed-chunk a prefill batch runs alone (PrefillAdder gets ``running_bs if self.is_mixed_chunk else 0`` mixed
decode tokens: the whole chunked-prefill budget). With every request 8,192 in / 1,024 out and ignore_eos, the C
requests admitted together decode in lockstep and end in the same step; their C slots free at once and the next C
prompts are prefilled back to back before any of them decodes. Request i of a wave gets its first token from its own
prefill, then waits for the prefills after it: TPOT_i = d + (K - k_i) S / 1,023.
"""

from __future__ import annotations

import csv

import pytest

from gpuwise.estimators import serving as SV


@pytest.fixture(scope="module")
def sk14(kb, accuracy):
    """SK14: Qwen3.5-397B-A17B NVFP4 on 4 x B200 with --max-running-requests 128 (sgl-project/sglang pull request
    #32323, docs_new/src/snippets/configs/qwen/qwen3.5-benchmarks.jsx: 4,150.7 output tok/s, TPOT 23.23 ms)."""
    with open(accuracy.INDEPENDENT, newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == "SK14")
    job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                               int(row["output_tokens"]), int(row["concurrency"]), int(row["tp"]), int(row["pp"]),
                               int(row["ep"]) if row.get("ep") else None, row.get("kv_precision") or None,
                               row.get("framework_version") or None, row.get("workload_options") or "")
    s = SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))
    return job, s, row


def test_sk14_wave_tpot_by_hand(accuracy, sk14):
    job, s, row = sk14
    assert s.replica.max_seqs == 128 and not s.engine.fw.mixed_prefill
    budget = s.engine.chunk
    assert budget == 8192  # one 8,192-token prompt a prefill forward: K = 128 forwards, request i's in forward i + 1
    S = SV.prefill_seconds(job, s.engine, s.replica, float(budget), 8192 - 8192 / 2)
    d = SV.burst_decode_step(job, s.engine, s.replica, 128)
    # the forwards after request i's own: 127 - i, their mean over the wave 63.5
    by_hand = d + 63.5 * S / 1023
    got = accuracy.wave_tpot(job, s, s.load, 1024)
    assert got == pytest.approx(by_hand, rel=1e-9)
    # the staggered steady state charges each token (C - 1) / output of a prompt's prefill, twice the wave's share
    assert s.load.tpot > got
    # and the wave's figure lands near the published 23.23 ms (the steady state's read +81.5%)
    assert got * 1e3 == pytest.approx(float(row["tpot_ms"]), rel=0.15)


def test_waves_are_the_caps_beyond_it_only(accuracy, sk14):
    job, s, _ = sk14
    # 4,096 clients make the same waves of 128 as 1,024 do; at 128 clients or fewer the steady state stands
    assert accuracy.wave_tpot(job, s, s.load, 4096) == accuracy.wave_tpot(job, s, s.load, 1024)
    assert accuracy.wave_tpot(job, s, s.load, 128) == s.load.tpot


def test_sk14_wave_throughput_by_hand(accuracy, sk14):
    """Beyond the cap a wave of 128 is prefilled one 8,192-token prompt a forward (K = 128 forwards of S, the decodes
    waiting), then decodes 1,023 steps together at d: 128 x 1,024 / (128 S + 1,023 d) output tok/s."""
    job, s, row = sk14
    S = SV.prefill_seconds(job, s.engine, s.replica, 8192.0, 8192 - 8192 / 2)
    d = SV.burst_decode_step(job, s.engine, s.replica, 128)
    by_hand = 128 * 1024 / (128 * S + 1023 * d)
    got = accuracy.wave_throughput(job, s, 1024, s.load.throughput)
    assert got == pytest.approx(by_hand, rel=0.01)
    # published 4,150.7 output tok/s (the steady state of staggered arrivals read -27.3%)
    assert got == pytest.approx(float(row["output_tokens_per_s"]), rel=0.10)
    # within the cap the client's waves keep the steady state
    assert accuracy.wave_throughput(job, s, 64, 123.0) == 123.0
