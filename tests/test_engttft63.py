"""The request-rate model's step that carries a prompt also carries the prompts taken in with it (rate.taken_with,
branch engttft63): by hand, and on an MLPerf v5.1 Server row of NVIDIA's harness on TensorRT-LLM's engine path
(tests/data/validation/serving_rate.csv RT98; source URL in the row)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from gpuwise.estimators.serving import rate as R
from gpuwise.estimators.serving.load import Point


def _job(prompt: int, output: int) -> SimpleNamespace:
    return SimpleNamespace(w=SimpleNamespace(prompt_tokens=prompt, output_tokens=output, prefix_cache=False,
                                             context_len=0))


def _eng(chunk: int) -> SimpleNamespace:
    return SimpleNamespace(spec=None, chunk=chunk, fw=None)


P = Point(504.0, 0.0, 0.0664, 0.0757, 0.0318)  # 504 in service, a 66.4 ms step of which 31.8 ms decode


def test_taken_with_by_hand():
    """427-token prompts, 147-token answers, 51.2 requests/s reaching a copy with 504 in service and an 8,192-token
    budget. Over a 66.4 ms step 51.2 x 0.0664 = 3.3997 prompts arrive (Poisson). At the point 504 / 147 = 3.4286
    prompts reach a step and take 66.4 - 31.8 = 34.6 ms of it, so one prompt takes 34.6 / 3.4286 = 10.092 ms. The
    budget holds (8,192 - 504 - 427) / 427 = 17.0 others, more than arrive: mean 3.3997 x 10.092 = 34.31 ms. The
    Poisson count's 95th percentile, its CDF linear between whole counts: F(6) = 0.9422, P(7) = 0.0348, so
    6 + (0.95 - 0.9422) / 0.0348 = 6.2252 prompts, 6.2252 x 10.092 = 62.82 ms."""
    mean, p95 = R.taken_with(_job(427, 147), _eng(8192), P, 51.2, 504.0)
    assert mean == pytest.approx(0.03431, rel=1e-3)
    assert R.poisson_p95(51.2 * 0.0664) == pytest.approx(6.2252, rel=1e-3)
    assert p95 == pytest.approx(0.06282, rel=1e-3)


def test_taken_with_only_what_the_budget_holds():
    """A 1,785-token budget holds the 504 decodes, the arrival's 427-token prompt and (1,785 - 504 - 427) / 427 = 2
    other prompts: mean and p95 alike 2 x 10.092 = 20.18 ms. An 8,000-token prompt leaves no room beside the decodes
    in an 8,192-token budget (8,192 - 504 < 8,000): it is chunked over full steps and nothing joins it."""
    mean, p95 = R.taken_with(_job(427, 147), _eng(1785), P, 51.2, 504.0)
    assert mean == pytest.approx(0.02018, rel=1e-3) and p95 == pytest.approx(0.02018, rel=1e-3)
    assert R.taken_with(_job(8000, 147), _eng(8192), P, 51.2, 504.0) == (0.0, 0.0)


def test_taken_with_nothing_at_a_pure_decode_point():
    """A point whose TPOT is its decode step carries no prompts in its steps: nothing is taken in with the arrival."""
    flat = Point(504.0, 0.0, 0.0318, 0.0757, 0.0318)
    assert R.taken_with(_job(427, 147), _eng(8192), flat, 51.2, 504.0) == (0.0, 0.0)


def test_rt98_ttft_adds_the_prompts_taken_in(kb, accuracy):
    """RT98 (MLPerf v5.1 Server, Mixtral 8x7B FP8 on 8 x H200 at 409.87 requests/s, NVIDIA's harness; its config
    closed/ASUSTeK/configs/ESC_N8_H200-SXM-141GBx8/Server/mixtral-8x7b.py carries no trtllm-serve flag, so the
    executor core ran the engine) stated on the engine path: the mean TTFT is the slot and budget waits, the rest of
    the step in flight, the prompt's own step, and the others' prompts in that step (:func:`rate.taken_with`), the
    last the point's prompt time a step per prompt times the prompts arriving over a step."""
    row = next(r for r in accuracy._rows(accuracy.RATE.parent, accuracy.RATE.name) if r["id"] == "RT98")
    opts = ";".join(filter(None, (row["workload_options"], "runtime_backend=tensorrt",
                                  f"requests_per_s={row['request_rate']}")))
    job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                               int(row["output_tokens"]), None, int(row["tp"]), int(row["pp"]), None,
                               row["kv_precision"] or None, row["framework_version"] or None, opts)
    from gpuwise.estimators import serving as SV
    s = SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))
    at = s.rate.at_rate
    p = R.at_batch(job, s.engine, s.replica, at.batch)
    output = int(row["output_tokens"])
    lam = at.batch / (p.ttft + output * p.tpot)
    a = lam * p.tpot
    each = (p.tpot - p.decode_step) * output / at.batch
    mean, _ = R.taken_with(job, s.engine, p, lam, at.batch)
    assert mean == pytest.approx(a * each, rel=1e-9)
    busy = 1 - math.exp(-at.batch)
    # no slot or budget wait at this load (the row's 51 requests/s a copy against 19 prompts a budget): the TTFT is the
    # point's own (half a step in flight, then its step) plus the prompts taken in with it
    assert at.ttft_mean == pytest.approx(p.ttft - p.queued - p.in_flight + busy * p.tpot / 2 + mean, rel=2e-3)
    assert mean > 0.3 * p.tpot  # about three prompts of ~10 ms join a ~66 ms step
