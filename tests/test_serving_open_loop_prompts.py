"""The open-loop point's prompts by Little's law (branch ratemodel58, issue 22 item 4): a copy with ``b`` in service
of a stream of independent arrivals takes ``λ = b / R`` requests a second, ``R = TTFT + output x TPOT``, so it
prefills ``λ x prompt`` tokens a second and a request's decode meets ``b x output x TPOT / R`` prompts; it counted
``b`` (the closed loop's count of its others), ``R / (output x TPOT)`` times too many."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.step import consts, per_token
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def test_prefill_tokens_a_second_are_the_rate_times_the_prompt(kb):
    """Llama 3.1 8B bf16, vLLM, 1,000 / 200 tokens on one H100 SXM, 8 in service: the decode step 7.0898 ms, a step
    that carries one 1,000-token prompt 37.5368 ms (step.per_token at a context of 1,100, the prompt's at 500). A
    prompt rides on one step (1,000 tokens within the 8,192 budget), so the TPOT is 7.0898 + a x 30.4470 ms with a the
    prompts a step, a = 8 x d / 200, d = 200 x TPOT / R the share of a request's time it decodes: settled, TPOT
    8.2778 ms, TTFT 41.685 ms, R = 1,697.24 ms, d = 0.97544, a = 0.039018 (8.2778 = 7.0898 + 0.039018 x 30.4470), so the
    copy prefills 0.039018 x 1,000 / 8.2778 ms = 4,713.5 tokens a second = 8 / 1.69724 s x 1,000. Before, a = 8 / 200 =
    0.04: 4,814.8 tokens a second against the 4,697.0 its own rate brought (TPOT 8.3077 ms)."""
    job = resolve(Requirements.model_validate({"workload": {
        "task": "inference", "model": "llama-3.1-8b", "framework": "vllm", "prompt_tokens": 1000,
        "output_tokens": 200}}), kb)
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 1)
    c = consts(job, s.engine, s.replica)
    pure, joined = per_token(c, 8.0, 1100.0), per_token(c, 8.0, 1100.0, 1000.0, 500.0)
    assert (pure * 1e3, joined * 1e3) == (pytest.approx(7.0898, abs=1e-4), pytest.approx(37.5368, abs=1e-4))
    p = SV.point(job, s.engine, s.replica, 8.0, open_loop=True)
    r = p.ttft + 200 * p.tpot
    assert (p.tpot * 1e3, p.ttft * 1e3) == (pytest.approx(8.2778, abs=1e-4), pytest.approx(41.685, abs=1e-3))
    a = 8.0 * (200 * p.tpot / r) / 200
    assert a == pytest.approx(0.039018, abs=1e-6)
    assert p.tpot == pytest.approx(pure + a * (joined - pure), rel=1e-6)
    assert a * 1000 / p.tpot == pytest.approx(8.0 / r * 1000, rel=1e-6) == pytest.approx(4713.5, abs=0.1)
    # the closed loop of 8 is unchanged: its decode meets the prompts of the 7 others
    assert SV.point(job, s.engine, s.replica, 8.0).tpot > pure
