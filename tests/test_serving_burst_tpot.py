"""The mean TPOT of a burst sent at once and run whole (burst.burst_tpot), and the mixed step it replaces.

Source of the rows: Scicom's llm-benchmaxxing repository (Scicom-AI-Enterprise-Organization/llm-benchmaxxing at
36be1ae1), benchmarks/runpod_h200sxm/Qwen3-32B/benchmark_qwen3_32b_h200sxm_run_1_TP8_DP1_CTX15000_C100_P100_O128.json:
Qwen3-32B BF16 on 8 x H200 at TP 8, vllm bench serve, 100 prompts of 15,000 random tokens (range ratio 0) sent at
once, 128 output tokens each (--ignore-eos): mean TTFT 9,024.22 ms, mean TPOT 81.55 ms, mean E2EL 19,380.88 ms with
a standard deviation of 327.29 ms over a 19.87 s run (row GS06 of tests/data/validation/serving_independent.csv).
vllm bench serve times a request's TPOT as (e2el - ttft) / (output - 1) and reports the mean: (19,380.88 - 9,024.22)
/ 127 = 81.55 ms, the published mean. The requests end within a second of each other (the E2EL's spread is 1.6% of
the run, while the TTFTs span 0 to 17.8 s): an early first token is followed by one token a chunk step while the
other prompts are prefilled, not by an early end.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.burst import chunked_tpot
from gpuwise.estimators.serving.step import step

ROWS = Path(__file__).parent / "data" / "validation" / "serving_independent.csv"


def _job(kb, accuracy, rid: str, options: bool = True):
    with open(ROWS, newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == rid)
    job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                               int(row["output_tokens"]), int(row["concurrency"]), int(row["tp"]), int(row["pp"]),
                               options=row["workload_options"] if options else "")
    return row, job, SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))


def test_one_mixed_step_by_hand(kb, accuracy):
    """One vLLM step of the GS06 copy (8 x H200, TP 8) carrying 100 decodes at 15,000 tokens of context and 8,092
    prompt tokens (the 8,192-token step budget: vLLM's default max_num_batched_tokens for the OpenAI server on a GPU
    of 70 GiB or more, vllm/engine/arg_utils.py get_batch_defaults): its linear layers run 2 x 31.98 B active
    parameters a token over the 8 GPUs at the BF16 peak's serving share (989.5 x 0.5 = 494.75 TFLOP/s), so beyond a
    one-token step's they take 2 x 31.984e9 x 8,191 / 8 / 494.75e12 = 132.4 ms; the step is the sum of its parts.
    A steady closed loop of such prompts prices every output token at this step (~226 ms: the old TPOT, 209 ms)."""
    _, job, s = _job(kb, accuracy, "GS06", options=False)
    eng, rep = s.engine, s.replica
    assert eng.chunk == 8192 and eng.peak_dense == pytest.approx(989.5e12 * 0.5)
    one = step(job, eng, rep, 1, 0, 15000, 0)
    mixed = step(job, eng, rep, 100, 8092, 15000, 7500)
    assert mixed.gemm - one.gemm == pytest.approx(2 * 31.984e9 * 8191 / 8 / 494.75e12, rel=1e-3)
    assert mixed.gemm - one.gemm == pytest.approx(0.1324, abs=5e-4)
    assert mixed.seconds == pytest.approx(mixed.gemm + mixed.attention + mixed.comm + mixed.overhead, rel=1e-12)


def test_the_runs_tpot_is_mixed_steps_then_the_tail():
    """The mechanism against the three TP-8 runs' own figures (their JSONs): 100 x 6,825 new tokens (8,176 of each
    15,000 were prefix-cache hits, the rows' prefix_cache_hit_rate 0.545) are 84 chunks of vLLM's 8,192-token budget,
    spread over the run's prefill, which ends with the last first token (p99 TTFT: 10,359.87 ms on B200, 17,766.30 on
    H200, 17,863.83 on H100), so a chunk step lasts S = p99 TTFT / 84; after it the last request decodes its 127
    tokens alone in the tail, d = (p99 E2EL - p99 TTFT) / 127 a step (11,899.67, 19,820.87, 20,460.23 ms). V1's
    scheduler runs the decodes first in every step, so request i gets one token in each of the 84 - k_i chunk steps
    after its first and the rest at d. That gives the published mean TPOT (48.84, 81.55, 84.33 ms) within 2% and
    request 0's, the slowest, the published p99 (83.66, 143.69, 145.96 ms) within 1.5%; with the decodes waiting for
    the prefill instead (SGLang's default) the H200 mean would read 85.3 ms."""
    runs = ((10359.87, 11899.67, 48.84, 83.66), (17766.30, 19820.87, 81.55, 143.69),
            (17863.83, 20460.23, 84.33, 145.96))
    for ttft99, e2el99, mean, p99 in runs:
        s, d = ttft99 / 84, (e2el99 - ttft99) / 127
        assert chunked_tpot(100, 6825, 8192, 128, s, d, True) == pytest.approx(mean, rel=0.02)
        assert (83 * s + 44 * d) / 127 == pytest.approx(p99, rel=0.015)  # request 0: first token with chunk 1
    assert chunked_tpot(100, 6825, 8192, 128, 17766.30 / 84, (19820.87 - 17766.30) / 127, False) == pytest.approx(
        85.3, abs=0.05)


def test_the_burst_tpot_by_hand(kb, accuracy):
    """GS06 priced: 100 x 6,825 new tokens in ceil(83.3) = 84 chunks of 242.5 ms each (gpuwise's chunk at the new
    tokens' mean position, 11,587.5); request i's first token comes with chunk ceil((i + 1) x 6,825 / 8,192), so
    84 - k_i chunk steps follow it, 4,150 / 100 = 41.50 on average, all fewer than its 127 later tokens: TPOT =
    (41.5 x 242.5 + 85.5 x 20.50) / 127 = 93.0 ms (the run: 81.5 ms; the steady state's 164.8). Without the hits:
    184 chunks of 224.8 ms; the 30 earliest requests meet more chunk steps than they have tokens and end during the
    prefill, 8,259 chunk steps in all: (82.59 x 224.8 + 44.41 x 15.64) / 127 = 151.6 ms."""
    _, job, s = _job(kb, accuracy, "GS06")
    eng, rep = s.engine, s.replica
    new = 15000 * (1 - 0.545)
    left = [84 - math.ceil((i + 1) * new / 8192) for i in range(100)]
    assert math.ceil(100 * new / 8192) == 84 and sum(left) == 4150 and max(left) < 127
    chunk = SV.prefill_seconds(job, eng, rep, 8192, 15000 - new / 2)
    dec = SV.burst_decode_step(job, eng, rep, 100)
    got = SV.burst_tpot(job, eng, rep, 100)
    assert got == pytest.approx((41.5 * chunk + 85.5 * dec) / 127, rel=1e-9)
    assert got == pytest.approx(0.0930, abs=5e-4)
    assert got < s.load.tpot  # the burst's chunk steps end; a steady loop's go on for every answer
    lat: list = []
    accuracy.serving_cases(kb, ROWS, latency=lat)
    scored = next(est for label, est, _ in lat if label.startswith("GS06 ") and label.endswith(" TPOT"))
    assert scored == pytest.approx(got * 1e3, rel=1e-9)
    _, job0, s0 = _job(kb, accuracy, "GS06", options=False)
    m = [min(184 - math.ceil((i + 1) * 15000 / 8192), 127) for i in range(100)]
    assert sum(m) == 8259
    chunk0 = SV.prefill_seconds(job0, s0.engine, s0.replica, 8192, 15000 - 7500)
    dec0 = SV.burst_decode_step(job0, s0.engine, s0.replica, 100)
    assert SV.burst_tpot(job0, s0.engine, s0.replica, 100) == pytest.approx(
        (82.59 * chunk0 + 44.41 * dec0) / 127, rel=1e-9)
    assert SV.burst_tpot(job0, s0.engine, s0.replica, 100) == pytest.approx(0.1516, abs=5e-4)


def test_a_burst_the_scheduler_takes_in_parts_keeps_the_steady_tpot(kb, accuracy):
    """TA12 (Qwen3-14B BF16 on one A100 80 GB, 1,000 prompts of 128 tokens, 4 out, vLLM): vLLM runs at most 256
    sequences on an A100 (max_num_seqs, get_batch_defaults), so the burst is not run whole: a request ends and the
    next one's prompt is prefilled beside the running decodes, as in the steady state, and no burst TPOT is given."""
    _, job, s = _job(kb, accuracy, "TA12")
    assert SV.burst_tpot(job, s.engine, s.replica, 1000) is None


def test_a_speculative_burst_keeps_the_steady_tpot(kb, accuracy):
    """With speculative decoding a step yields more than one token a sequence, which the chunk-step count of
    burst_tpot does not hold: no burst TPOT is given (GS06's job with n-gram lookup, 3 drafted tokens at 0.5)."""
    job = accuracy.serving_job(kb, "qwen3-32b", "bf16", "vllm", 15000, 128, 100, 8, 1, speculative="ngram:0.5:3")
    s = SV.choose(job, kb.gpus["h200-141gb-sxm"], 8)
    assert s.engine.spec is not None
    assert SV.burst_tpot(job, s.engine, s.replica, 100) is None
