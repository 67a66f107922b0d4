"""p95 TPOT at a request rate (branch ratelat56): the batch's spread as a processor-sharing queue's and the prompts a
request's decode meets (gpuwise/estimators/serving/rate.py, tpot_p95 and batch_p95)."""

from __future__ import annotations

import math

import pytest

from benchmarks.accuracy_rows import _rows
from benchmarks.accuracy_serving import RATE, serving_job
from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving import rate as RT
from gpuwise.estimators.serving.load import point


def test_the_batch_is_poisson_where_requests_end_at_n_over_a_fixed_time():
    """phi(n) = n / R (R = 1 s): the chain's law is Poisson(lam) (an M/G/inf batch; Kleinrock 1975, Queueing Systems
    vol. 1, ch. 3: pi(n) = pi(0) prod lam / phi(i) = pi(0) lam^n / n!), and the batch a request meets, pi weighted by n,
    is 1 + Poisson(lam). Poisson(2.1) by hand: P(<= 4) = 0.9379, P(<= 5) = 0.9796, so its 95th percentile is 5 and the
    batch's 6; Poisson(10): P(<= 14) = 0.9165, P(<= 15) = 0.9513: 15, so 16."""
    rates = [(n, float(n)) for n in (1, 10, 100, 1000)]
    assert RT.batch_p95(2.1, rates) == 6
    assert RT.batch_p95(10.0, rates) == 16


def test_the_batch_is_geometric_where_requests_end_no_faster_with_more_in_service():
    """phi(n) = 1 a second for every n (M/M/1 under processor sharing) at lam = 0.5: pi(n) = 0.5^(n+1), so the
    n-weighted law is n 0.5^n / 2 (its sum, 0.5 / 0.25 = 2, halved: 1). Its running sum by hand: 0.25, 0.5, 0.6875,
    0.8125, 0.8906, 0.9375 (n = 6), 0.9648 (n = 7): the 95th percentile is 7."""
    assert RT.batch_p95(0.5, [(1, 1.0), (100, 1.0)]) == 7


def test_no_percentile_where_the_chain_has_no_stationary_law_or_it_lies_past_the_slots():
    assert RT.batch_p95(1.0, [(1, 1.0), (100, 1.0)]) == math.inf  # lam at the full rate: the queue grows
    assert RT.batch_p95(0.5, [(1, 1.0), (2, 1.0)]) == math.inf  # the 95th percentile lies beyond 2, the slots
    assert RT.batch_p95(0.0, [(1, 1.0), (2, 1.0)]) == 0.0


def test_p95_tpot_at_one_row_by_hand(kb):
    """ML19 (tests/data/validation/serving_rate.csv): MLPerf Inference Server, Llama 2 70B FP8 on 8 x H100 SXM,
    TensorRT-LLM, loadgen's Poisson arrivals at 75.1 requests/s, 290 output tokens (NVIDIA's mlperf_log_summary.txt;
    published TPOT mean 155.0 ms, p95 169.8 ms). gpuwise: four copies of TP 2, so lam = 18.775/s a copy, a mean batch of
    ~596.5 (Little's law) and the open-loop point there (between the whole batches 596 and 597, rate.at_batch): TPOT
    109.0 ms of which the decode step is 65.63 ms (FP8 GEMMs priced by reduction depth, serving.yaml fp8_large_batch),
    at a request and the 99.49% of the others past their first token, 290 x 109.0 / (163.6 + 290 x 109.0), 593.5
    sequences (load._open, branch pcieep59; 65.89 ms with all 596.5 decoding), so the prompts add 43.37 ms a token
    (TensorRT-LLM's mixed steps held at their launch floor). While a request decodes, 18.775 x 290 x 0.109 = 593.5
    prompts arrive (a Poisson count); the point at the mean batch priced the prompts of that rate, so one prompt adds
    43.37 / 593.5 = 0.07307 ms a token (0.07264 before pcieep59; at the nearest whole batch, 597, before ratemodel58:
    43.08 x 596.5 / (597 x 593.5) = 0.07253).
    The count's 95th percentile (continuous, rate.poisson_p95; by the normal form with its continuity and skew terms,
    593.5 - 0.5 + 1.645 sqrt(593.5) + (1.645^2 - 1) / 6 = 633.3) is 39.86 above its mean: 2.91 ms above the mean TPOT
    (2.90 before pcieep59). The batch's 95th percentile (the chain) is above Poisson's 596.5 + 1.645 sqrt(596.5) = 637
    and below the 1,024 slots; at it the TPOT is the lesser of the open-loop point's and its decode step + 43.37 ms,
    which the launch floor keeps at 109.0 ms: no rise. p95 TPOT = 109.0 + hypot(0, 2.91) = 111.91 ms (111.90 before
    pcieep59, 111.89 before ratemodel58; the Poisson batch's TPOT before ratelat56: 109.0 ms)."""
    row = next(r for r in _rows(RATE.parent, RATE.name) if r["id"] == "ML19")
    rate = float(row["request_rate"])
    job = serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                      int(row["output_tokens"]), None, int(row["tp"]), int(row["pp"]), None,
                      row.get("kv_precision") or None, row.get("framework_version") or None,
                      ";".join(filter(None, (row.get("workload_options") or "", f"requests_per_s={rate}"))))
    s = SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))
    at = s.rate.at_rate
    output, copies, c, _m, _ahead = RT._copy(job, s.engine, s.replica)
    assert (rate, output, copies, c) == (75.1, 290, 4, 1024)
    lam = at.requests_per_s / copies
    assert lam == pytest.approx(18.775, rel=1e-6)
    p = RT.at_batch(job, s.engine, s.replica, at.batch)
    assert at.batch == pytest.approx(596.5, abs=0.1)
    assert (p.tpot * 1e3, p.decode_step * 1e3) == (pytest.approx(109.0, abs=0.05), pytest.approx(65.63, abs=0.01))
    share = p.tpot - p.decode_step
    met = lam * output * p.tpot
    per = share * at.batch / (p.concurrency * met)
    assert (met, per * 1e3) == (pytest.approx(593.5, abs=0.1), pytest.approx(0.07307, abs=1e-5))
    count95 = met - 0.5 + 1.645 * math.sqrt(met) + (1.645**2 - 1) / 6
    assert RT.poisson_p95(met) == pytest.approx(count95, abs=0.05)
    spread = (RT.poisson_p95(met) - met) * per
    assert spread * 1e3 == pytest.approx(2.91, abs=0.01)
    b95 = [v[2] for k, v in job.memo.items() if isinstance(k, tuple) and k[0] == "serving-rate-b95"
           and k[3] == p.concurrency][-1]
    assert 637 < b95 < c
    q = point(job, s.engine, s.replica, float(round(b95)), open_loop=True)
    rise = max(min(q.tpot, q.decode_step + share) - p.tpot, 0.0)
    assert rise == 0.0
    assert at.tpot_p95 == pytest.approx(p.tpot + math.hypot(rise, spread), rel=1e-12)
    assert at.tpot_p95 * 1e3 == pytest.approx(111.91, abs=0.01)
