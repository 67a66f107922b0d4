"""A dataset's prompts sent at a request rate with no concurrency cap, stepped through (serving/burst.py ``rate``).

SGLang's and vLLM's bench_serving send request i after i exponential gaps of mean 1 / rate (``get_request``:
yield the request, then sleep np.random.exponential(1 / request_rate); python/sglang/bench_serving.py at commit
0033168f) and report the output over the run, the first send to the last token. The simulation sends request i at
i / rate, the gaps' mean. Rows DN01 / DN02 (tests/data/validation/serving_independent.csv): SGLang pull request
#4918's baseline, DeepSeek-V3 FP8 at --tp 8 on 8 x H200, 300 ShareGPT prompts offered at 4 and 8 requests/s,
2.10 and 2.29 served; bench_serving printed 422.36 / 461.23 output tok/s, mean TTFT 2,630 / 6,321 ms and a mean
concurrency (its requests' latencies over the duration) of 70.99 / 100.71 over 143.03 / 130.98 s. Scored before as
closed loops at that mean concurrency: +83.5% / +103.1%."""

from __future__ import annotations

import pytest

from gpuwise.estimators.serving import burst as BU
from gpuwise.estimators.serving.load import _prefill
from gpuwise.estimators.serving.step import consts, per_token
from tests.serving_rows import ROWS, row_job


def test_requests_that_find_the_copy_idle_run_one_after_the_other(kb, accuracy):
    """Two requests of 300 / 41 tokens at 0.05 requests/s, no front end (offline): the second is sent 20 s after the
    first, long after it ended, so each is its own prefill forward then 40 decode steps of one sequence, and each TTFT
    is its prefill, timed from its own send. The run lasts 20 s + prefill + 40 steps. While a send is still to come
    the steps are priced one at a time at their own context (301 to 340), not as one stretch at the middle context
    (300 + 1 + 39 / 2) a burst's last requests get, so the decode part matches the stretch to 1e-5 and to what the
    step memo's context rounded to tens (burst.py step_s) leaves: at most 5 tokens' attention a step (since branch
    buyer54 this row's release, SGLang 0.4.x, reads the latent cache at its Triton kernel's 42 GB/s, 1.7 us a token)."""
    _, job, s = row_job(kb, accuracy, "DN02", offline=True)
    c = consts(job, s.engine, s.replica)
    p, o = 300, 41
    run = BU.burst_run(job, s.engine, s.replica, [(p, o), (p, o)], rate=0.05)
    pre = _prefill(c, float(p), p / 2)
    dec = per_token(c, 1.0, p + 1 + (o - 2) / 2)
    assert pre + (o - 1) * dec < 20.0  # the first has ended when the second is sent
    assert run.ttft == pytest.approx(pre, rel=1e-12)
    memo = 5 * (per_token(c, 1.0, p + 1 + (o - 2) / 2 + 1) - dec)  # the memo's rounding of a step's context
    assert 0 < memo < 1e-3 * dec
    assert run.tpot == pytest.approx(dec, abs=memo + 1e-5 * dec)
    assert run.seconds == pytest.approx(20.0 + pre + (o - 1) * dec, abs=(o - 1) * memo + 1e-5 * run.seconds)
    assert run.e2e == pytest.approx(pre + (o - 1) * dec, abs=(o - 1) * memo + 1e-5 * run.e2e)
    assert run.most_running == 1


def test_a_rate_beyond_the_front_end_is_the_burst(kb, accuracy):
    """Offered faster than the front end hands requests over (13 ms a request for SGLang's server here), the paced
    run is the burst: request i still reaches the engine at (i + 1) x the front end's time."""
    row, job, s = row_job(kb, accuracy, "DN02")
    lengths = BU.dataset_lengths(kb.serving.length_distributions["sharegpt"], float(row["prompt_tokens"]),
                                 float(row["output_tokens"]), 300)
    burst = BU.burst_run(job, s.engine, s.replica, lengths)
    fast = BU.burst_run(job, s.engine, s.replica, lengths, rate=1e9)
    assert fast.seconds == pytest.approx(burst.seconds, rel=1e-9)
    assert fast.ttft == pytest.approx(burst.ttft, rel=1e-6)
    assert fast.most_running == burst.most_running


def test_the_dn_rows_are_scored_as_the_paced_run(kb, accuracy):
    """The harness scores DN01 / DN02 by the paced run (accuracy.dataset_paced). DN02's 300 prompts arrive over 37.4 s
    and the batch passes SGLang 0.4.x's CUDA-graph cap of 160 (serving.yaml sglang 0.4.0 ``cuda_graph_max_bs``), so
    its decodes run eagerly, which a closed loop of 101 never reaches; DN01's stays under it. Against the published
    figures: output tok/s within 30% (was 1.8x / 2.0x), and the run's mean concurrency, n x mean latency / duration,
    within 15% of bench_serving's (70.99 / 100.71)."""
    got = {label.split()[0]: (est, pub) for label, est, pub in accuracy.serving_cases(kb, ROWS)
           if label.startswith(("DN01 ", "DN02 "))}
    for rid, conc, most in (("DN01", 70.99, (100, 160)), ("DN02", 100.71, (161, 300))):
        row, job, s = row_job(kb, accuracy, rid)
        assert row["length_distribution"] == "sharegpt" and row["request_rate"] in ("4", "8")
        run = accuracy.dataset_paced(kb, job, s, row)
        est, pub = got[rid]
        assert est == pytest.approx(run.throughput * s.layout.replicas, rel=1e-12)
        assert pub == float(row["output_tokens_per_s"])
        assert 1.0 < est / pub < 1.3, (rid, est / pub)
        assert 300 * run.e2e / run.seconds == pytest.approx(conc, rel=0.15)
        assert most[0] <= run.most_running <= most[1]
