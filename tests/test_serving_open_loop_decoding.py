"""The request-rate model's open-loop point decodes only the requests past their first token (branch pcieep59, issue
22 item 4). A request in service spends its TTFT waiting for or running its prompt and output x TPOT decoding; by
Little's law on each phase, of ``b`` in service the share output x TPOT / (TTFT + output x TPOT) decodes, and a step
that decodes a request decodes it and that share of the b - 1 others, with the prompt chunks beside them (vLLM's
scheduler puts the running requests' decodes in a step first and fills the rest of its token budget with waiting
prompts: vllm/v1/core/sched/scheduler.py; docs.vllm.ai, 'Optimization and Tuning', chunked prefill). The point had
decoded all ``b`` (ratemodel58 left it open: validation README, branch ratemodel58)."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving import load
from gpuwise.estimators.serving import rate as R
from gpuwise.estimators.serving.step import consts, per_token
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def _h100(kb, **w):
    """Llama 3.1 8B bf16, vLLM, 2,000 / 200 tokens on one H100 SXM (test_serving_rate_between's job)."""
    job = resolve(Requirements.model_validate({"workload": {
        "task": "inference", "model": "llama-3.1-8b", "framework": "vllm", "prompt_tokens": 2000,
        "output_tokens": 200, **w}}), kb)
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 1)
    return job, s.engine, s.replica


def test_the_decoding_share_at_44_in_service_by_hand(kb):
    """At 44 in service every request decoding (the point before): TTFT 87.906 ms, TPOT 26.0515 ms, so a request
    decodes 200 x 26.0515 = 5,210.30 of its 5,298.21 ms in service, a share 0.983408: 1 + 43 x 0.983408 = 43.2865
    sequences a step. Priced so, the TPOT falls to 25.9477 ms and the TTFT to 87.753 ms, a share 200 x 25.9477 /
    (87.753 + 200 x 25.9477) = 0.983372, which the next rounds keep (0.9833707 from the third round: OPEN_ROUNDS). The
    step decodes 1 + 43 x 0.983372 = 43.285 sequences: 12.5989 ms against 12.7026 ms at 44, and the request's time in
    service 5,277.30 ms, so the copy carries 44 / 5.27730 = 8.3376 requests/s (8.3047 before)."""
    job, eng, rep = _h100(kb)
    c = consts(job, eng, rep)
    every = load._timed(job, eng, rep, 44.0, c, True)
    assert (every.ttft * 1e3, every.tpot * 1e3) == (pytest.approx(87.906, abs=1e-3), pytest.approx(26.0515, abs=1e-4))
    first = 200 * every.tpot / (every.ttft + 200 * every.tpot)
    assert first == pytest.approx(0.983408, abs=1e-6)
    p = SV.point(job, eng, rep, 44.0, open_loop=True)
    share = 200 * p.tpot / (p.ttft + 200 * p.tpot)
    assert share == pytest.approx(0.983372, abs=1e-6)
    assert (p.ttft * 1e3, p.tpot * 1e3) == (pytest.approx(87.753, abs=1e-3), pytest.approx(25.9477, abs=1e-4))
    # the point is its own share's: a step of a request and that share of the 43 others
    assert p.decode_step == pytest.approx(per_token(c, 1 + 43 * share, 2000 + 200 / 2), rel=1e-7)
    assert (p.decode_step * 1e3, every.decode_step * 1e3) == (pytest.approx(12.5989, abs=1e-4),
                                                              pytest.approx(12.7026, abs=1e-4))
    assert every.decode_step == per_token(c, 44.0, 2000 + 200 / 2)
    assert R.colocated(job, eng, rep, 44.0).requests_per_s == pytest.approx(44 / 5.27730, abs=1e-4)


def test_the_closed_loop_and_one_in_service_decode_as_before(kb):
    """A closed loop's request is sent as another ends, so its b all decode; the open point at one in service (the
    trickle's) decodes the request alone, as before."""
    job, eng, rep = _h100(kb)
    c = consts(job, eng, rep)
    closed = SV.point(job, eng, rep, 44.0)
    assert closed.decode_step == per_token(c, 44.0, 2100.0)
    one = SV.point(job, eng, rep, 1.0, open_loop=True)
    assert one.decode_step == per_token(c, 1.0, 2100.0)
    assert one == load._timed(job, eng, rep, 1.0, c, True)


def test_the_share_falls_as_the_prompt_grows(kb):
    """The longer the prompt against the output, the more of the batch is in its TTFT: at 44 in service the 2,000 /
    200 request decodes 98.3% of its stay, a 16,000 / 200 one less, and its step decodes fewer than the 44."""
    shares = []
    for prompt in (2000, 16000):
        job, eng, rep = _h100(kb, prompt_tokens=prompt)
        p = SV.point(job, eng, rep, 44.0, open_loop=True)
        shares.append(200 * p.tpot / (p.ttft + 200 * p.tpot))
        assert p.decode_step < per_token(consts(job, eng, rep), 44.0, prompt + 100.0)
    assert 0.0 < shares[1] < shares[0] < 1.0
