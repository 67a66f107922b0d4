"""The plan's hosted-API comparison prices self-hosting with money only: a service nothing in the
plan hosts (here: a 2 ms p95 time to first token no GPU type meets) has no self-hosting cost
(``self_host_per_month`` null, a note) and PLAN-API-CHEAPER does not fire on it. Before, the cost
was the program's objective with the service less without it, and the objective weighs work left
unserved at 1e7 per unit of load: the service was "self-hosted" for $6,000,000,000 a month."""

from __future__ import annotations

from gpuwise.plan.build import plan
from gpuwise.render import plan_view

SERVICE = {"name": "chat-70b",
           "workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "int4",
                        "prompt_tokens": 1000, "output_tokens": 300},
           "cadence": {"continuous": True, "hours_per_day": 24}}


def _plan(p95_ttft_ms: float):
    return plan({"horizon_months": 6, "owned": [],
                 "workloads": [{**SERVICE, "targets": {"requests_per_s": 2, "p95_ttft_ms": p95_ttft_ms}}],
                 "constraints": {"acquisition": "either"}})


def test_a_service_nothing_hosts_has_no_self_hosting_cost():
    r = _plan(2)
    assert [u.workload for u in r.unplaced] == ["chat-70b"]
    assert r.api and all(a.self_host_per_month is None and a.cheaper == "api" for a in r.api)
    assert all(a.note.startswith("nothing in the plan hosts this service") for a in r.api)
    assert "PLAN-API-CHEAPER" not in {f.rule for f in r.findings}
    groq = next(a for a in r.api if a.provider == "Groq")
    # by hand: 2 requests/s x 86,400 s x 365/12 days = 5,256,000 requests a month, each 1,000 tokens
    # in at $0.59 and 300 out at $0.79 per million (knowledge/apis.yaml, https://groq.com/pricing)
    assert round(groq.api_per_month, 2) == round(5_256_000 * (1000 * 0.59 + 300 * 0.79) / 1e6, 2) == 4346.71
    text = plan_view.render(r, "text", detail="full")
    assert "6,000,000,000" not in text and "PLAN-API-CHEAPER" not in text


def test_a_hosted_service_is_still_compared():
    """The same service with a target GPUs meet (500 ms) is hosted: its self-hosting cost is what
    hosting it adds to the plan, a positive amount of money well under the weights' scale."""
    r = _plan(500)
    assert not r.unplaced
    assert r.api and all(a.self_host_per_month is not None and 0 < a.self_host_per_month < 1e6 for a in r.api)
