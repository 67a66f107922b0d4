"""A copy's request rate between whole batches (branch ratemodel58, issue 22 item 4): the open-loop point of a mean
batch ``b`` is the mean of the step model's points at the two whole batches around it, weighted to ``b``
(rate.at_batch).
Read at the nearest whole batch instead, a copy's rate ``b / R(round(b))`` was a saw in ``b`` (rising in proportion to
``b`` within a whole batch, falling by ``R(n + 1) / R(n)`` at the next: ~1.7% a batch for Llama 3.1 8B on an H100 near
45 in service), so the highest rate within a p95 target could fall as the target loosened (0.032 -> 0.0325 s: 8.571 ->
8.529 requests/s)."""

from __future__ import annotations

import itertools

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving import rate as R
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def job_of(kb, **w):
    w.setdefault("task", "inference")
    return resolve(Requirements.model_validate({"workload": {"model": "llama-3.1-8b", **w}}), kb)


def test_a_rate_between_whole_batches_by_hand(kb):
    """Llama 3.1 8B bf16, vLLM, 2,000 / 200 tokens on one H100 SXM (test_serving_rate's edge job). The open-loop points
    at 44 and 45 in service: TTFT 87.7531 / 88.1387 ms, TPOT 25.9477 / 26.3951 ms, so a request's time in service is
    R(44) = 87.7531 + 200 x 25.9477 = 5,277.30 ms and R(45) = 5,367.15 ms (rates 44 / 5.27730 = 8.3376 and
    45 / 5.36715 = 8.3843 requests/s). At b = 44.25: R = 5,277.30 + 0.25 x 89.85 = 5,299.77 ms, 44.25 / 5.29977 =
    8.3494 requests/s (the nearest whole batch would give 44.25 / 5.27730 = 8.3850; before ratemodel58 at 44.6 the
    point at 45 gave 8.277, below 44.5's 8.399). Branch pcieep59: each point's decode step carries a request and the
    98.34% of the others past their first token (test_serving_open_loop_decoding); ratemodel58's figures, every
    request decoding, were TTFT 87.906 / 88.293 ms, TPOT 26.0515 / 26.4999 ms, 8.3166 requests/s at 44.25."""
    job = job_of(kb, framework="vllm", prompt_tokens=2000, output_tokens=200, p95_ttft_s=0.5, p95_tpot_s=0.03)
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 1)
    lo, hi = (SV.point(job, s.engine, s.replica, n, open_loop=True) for n in (44.0, 45.0))
    assert (lo.ttft * 1e3, hi.ttft * 1e3) == (pytest.approx(87.7531, abs=1e-3), pytest.approx(88.1387, abs=1e-3))
    assert (lo.tpot * 1e3, hi.tpot * 1e3) == (pytest.approx(25.9477, abs=1e-4), pytest.approx(26.3951, abs=1e-4))
    p = R.at_batch(job, s.engine, s.replica, 44.25)
    assert p.ttft + 200 * p.tpot == pytest.approx(0.75 * (lo.ttft + 200 * lo.tpot) + 0.25 * (hi.ttft + 200 * hi.tpot))
    assert R.colocated(job, s.engine, s.replica, 44.25).requests_per_s == pytest.approx(8.3494, abs=1e-4)
    # at a whole batch the step model's own point
    assert R.colocated(job, s.engine, s.replica, 44.0).requests_per_s == pytest.approx(8.3376, abs=1e-4)
    assert R.colocated(job, s.engine, s.replica, 45.0).requests_per_s == pytest.approx(8.3843, abs=1e-4)
    # below one in service the point at one (its prompts' share in proportion: rate.prompt_share)
    assert R.at_batch(job, s.engine, s.replica, 0.4) is SV.point(job, s.engine, s.replica, 1.0, open_loop=True)


@pytest.mark.parametrize(("framework", "gpu", "prompt", "output"), [
    ("vllm", "h100-80gb-sxm", 2000, 200), ("tensorrt-llm", "h100-80gb-sxm", 1000, 200),
    ("sglang", "h100-80gb-sxm", 1000, 200), ("vllm", "rtx-4090", 1000, 200), ("vllm", "l40s", 4000, 300)])
def test_the_rate_and_latencies_do_not_fall_as_the_batch_grows(kb, framework, gpu, prompt, output):
    """Over mean batches 1% apart from 0.001 to the slots: the rate rises and the mean and p95 latencies do not fall
    (to rounding, 1e-12; at the nearest whole batch the rate fell 32-109 times on each of these, and the L40S copy's
    p95 TTFT 34 times).
    SGLang's copy is read below 256 in service, the largest batch its release captures in CUDA graphs: beyond it the
    decode step runs eagerly (load._timed) and the rate drops there once, a step of the step model, not of the queue."""
    job = job_of(kb, framework=framework, prompt_tokens=prompt, output_tokens=output, requests_per_s=1)
    s = SV.choose(job, kb.gpus[gpu], 1)
    top = R.slots(job, s.engine, s.replica) * 0.999
    if framework == "sglang":
        top = min(top, 255.0)
    got = [R.colocated(job, s.engine, s.replica, 1e-3 * 1.01 ** i) for i in range(2000) if 1e-3 * 1.01 ** i < top]
    assert len(got) > 900
    assert all(b.requests_per_s > a.requests_per_s for a, b in itertools.pairwise(got))
    for field in ("ttft_mean", "ttft_p95", "tpot_mean", "tpot_p95"):
        assert all(getattr(b, field) >= getattr(a, field) * (1 - 1e-12) for a, b in itertools.pairwise(got)), field


def test_a_looser_target_never_serves_less(kb):
    """The highest rate within a p95 TPOT target, for targets 0.5 ms apart from 20 to 40 ms, and within a p95 TTFT
    target from 90 to 300 ms: it never falls as the target loosens (at the nearest whole batch it fell from 8.571 to
    8.529 requests/s between 32 and 32.5 ms, and from 8.758 to 8.745 between 34.5 and 35 ms)."""
    def best(**t: float) -> float:
        job = job_of(kb, framework="vllm", prompt_tokens=2000, output_tokens=200, **t)
        return SV.choose(job, kb.gpus["h100-80gb-sxm"], 1).rate.max_requests_per_s

    by_tpot = [best(p95_tpot_s=0.020 + 0.0005 * k) for k in range(41)]
    assert all(b >= a for a, b in itertools.pairwise(by_tpot))
    assert by_tpot[0] > 0 and by_tpot[-1] > by_tpot[0]
    by_ttft = [best(p95_ttft_s=0.090 + 0.005 * k) for k in range(43)]
    assert all(b >= a for a, b in itertools.pairwise(by_ttft))
