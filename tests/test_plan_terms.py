"""Committed rental terms in a plan, and the plan report's brief and full detail.

A service may be rented on a committed term (1 month, 1 year, 3 years) where an offer publishes
one (``reserved_per_hour`` in knowledge/clouds.yaml, read through the offers API): the program
chooses it only when it costs less over the months the service runs, the term paid in full. The
rates below come from a knowledge overlay, so the hand calculation does not drift with prices."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from gpuwise.plan.build import plan
from gpuwise.render import plan_view
from tests.conftest import answer_of
from tests.test_plan import check_invariants

ON_DEMAND = 1.99  # Lambda's A100 SXM4 40GB per GPU-hour (knowledge/clouds.yaml): the cheapest on demand
HOURS = 730.0  # hours in a month (gpuwise.ledger.HOURS_PER_MONTH)


@pytest.fixture(scope="module")
def overlay(tmp_path_factory) -> str:
    """GCP's a2-highgpu-1g (one A100 40GB) with committed rates below Lambda's on-demand price."""
    d = tmp_path_factory.mktemp("terms")
    (d / "clouds.yaml").write_text("instances:\n  - id: a2-highgpu-1g\n"
                                   "    reserved_per_hour: {1-month: 1.5, 1-year: 1.0}\n", encoding="utf-8")
    return str(d)


def service(start: int = 1, growth: float = 0.0) -> dict:
    return {"horizon_months": 12,
            "workloads": [{"name": "chat", "workload": {"task": "inference", "model": "llama-3.1-8b",
                                                        "prompt_tokens": 500, "output_tokens": 200},
                           "cadence": {"continuous": True, "start_month": start, "growth_per_month": growth},
                           "targets": {"requests_per_s": 2}}],
            "constraints": {"gpus": ["a100-40gb-sxm"], "acquisition": "rent"}}


def test_without_cheaper_terms_the_service_is_rented_on_demand():
    """The built-in 1-year rate for one A100 40GB (GCP, $2.31/h) is above Lambda's $1.99 on demand."""
    r = plan(service())
    assert r.answer.commitments == []
    assert r.total == pytest.approx(ON_DEMAND * HOURS * 12, rel=1e-9)
    assert {p.term for m in r.months for p in m.placements} == {"on-demand"}


def test_a_year_of_service_takes_the_one_year_commitment(overlay):
    """12 months: on demand 12 x 730 x $1.99 = $17,432; twelve 1-month terms 12 x 730 x $1.50 = $13,140;
    one 1-year term 8,760 h x $1.00 = $8,760: the year."""
    r = plan(service(), knowledge=overlay)
    check_invariants(r)
    assert r.total == pytest.approx(1.0 * 8760, rel=1e-9)
    (c,) = r.answer.commitments
    assert (c.term, c.start, c.copies, c.provider, c.amount) == ("1-year", 1, 1, "gcp", pytest.approx(8760))
    assert all(p.term == "1-year" and p.acquisition == "rent" for m in r.months for p in m.placements)
    assert r.baselines["rent_all"] == pytest.approx(r.total)  # renting everything may commit too


def test_half_a_year_takes_monthly_terms_not_the_year(overlay):
    """Months 7-12 only: on demand 6 x 730 x $1.99 = $8,716; a 1-year term $8,760 (paid in full,
    6 months after the plan included); six 1-month terms 6 x 730 x $1.50 = $6,570: the months."""
    r = plan(service(start=7), knowledge=overlay)
    check_invariants(r)
    assert r.total == pytest.approx(6 * HOURS * 1.5, rel=1e-9)
    assert sorted(c.start for c in r.answer.commitments) == [7, 8, 9, 10, 11, 12]
    assert {c.term for c in r.answer.commitments} == {"1-month"}
    brief = plan_view.view(r)["brief"]
    assert any("1-month commitments starting in months 7-12" in line for line in brief)


def test_a_term_past_the_horizon_is_paid_in_full(tmp_path):
    """Months 7-12 with a 1-year rate of $0.50: the year costs 8,760 h x $0.50 = $4,380 < six monthly
    terms; the 6 months after the plan are a line of their own in month 12, so the cash flow still
    sums to the total."""
    (tmp_path / "clouds.yaml").write_text("instances:\n  - id: a2-highgpu-1g\n"
                                          "    reserved_per_hour: {1-month: 1.5, 1-year: 0.5}\n", encoding="utf-8")
    r = plan(service(start=7), knowledge=str(tmp_path))
    check_invariants(r)
    assert r.total == pytest.approx(0.5 * 8760, rel=1e-9)
    after = [ln for ln in r.lines if ln.inputs.get("months_after")]
    assert len(after) == 1 and after[0].month == 12 and after[0].amount == pytest.approx(6 * HOURS * 0.5)


def test_growing_load_adds_committed_copies(overlay):
    """2 requests/s x 200 output tokens = 400 tokens/s growing 20% a month: 400 x 1.2^10 = 2,477 in
    month 11 is more than one copy carries (2,410 tokens/s), so months 11-12 need a second copy.
    Cheapest: the first copy on the 1-year term ($8,760) and the second on two 1-month terms
    (2 x 730 x $1.50 = $2,190) rather than on demand (2 x 730 x $1.99 = $2,905): $10,950."""
    r = plan(service(growth=0.2), knowledge=overlay)
    check_invariants(r)
    capacity = next(o.capacity for o in r.options if o.workload == "chat")
    need = [math.ceil(400 * 1.2 ** k / capacity - 1e-9) for k in range(12)]
    extra = sum(n - 1 for n in need)  # copy-months beyond the first copy
    assert need[0] == 1 and 1 <= extra <= 8 and max(need) == 2  # the case as described (2,410 tokens/s a copy)
    assert [sum(p.copies for p in m.placements) for m in r.months] == need
    assert r.total == pytest.approx(8760 + extra * HOURS * 1.5, rel=1e-9)
    assert sorted(c.term for c in r.answer.commitments) == ["1-month"] * extra + ["1-year"]


@pytest.fixture(scope="module")
def example():
    return answer_of("plan", Path(__file__).parent.parent / "examples" / "plan-team-4090.yaml")  # shared (conftest)


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_brief_and_full_detail_hold_the_same_sections_in_every_format(example, fmt):
    brief = plan_view.render(example, fmt)
    full = plan_view.render(example, fmt, detail="full")
    for title in ("Against the baselines", "Cash flow by month", "Where each workload runs"):
        assert title in brief and title in full
    for title in ("Month by month", "Money lines", "Options weighed", "Rule trace"):
        assert title not in brief and title in full
    assert len(full) > len(brief)
    assert json.loads(plan_view.render(example, "json", detail="full")) == json.loads(
        plan_view.render(example, "json"))  # JSON is the data, whatever the detail


def _expand(ranges: str) -> set[int]:
    out: set[int] = set()
    for part in ranges.split(", "):
        lo, _, hi = part.partition("-")
        out |= set(range(int(lo), int(hi or lo) + 1))
    return out


def test_brief_groups_the_months_a_workload_runs(example):
    """The brief's "where each workload runs": one row per workload, GPUs and way, its months in
    ranges; together the rows give every month each workload was placed in, and their GPU-hours."""
    where = plan_view.view(example)["where"]
    rows = where["rows"]
    at = {h: i for i, h in enumerate(where["headers"])}  # a service placed adds its GPUs a copy (planleft58)
    assert len(rows) < sum(len(m.placements) for m in example.months)
    for w in {p.workload for m in example.months for p in m.placements}:
        months = {m.month for m in example.months for p in m.placements if p.workload == w}
        mine = [r["cells"] for r in rows if r["cells"][0] == w]
        assert set().union(*(_expand(c[at["Months"]]) for c in mine)) == months
        hours = sum(p.gpu_hours for m in example.months for p in m.placements if p.workload == w)
        assert sum(float(c[at["GPU-hours"]].replace(",", "")) for c in mine) == pytest.approx(hours, abs=len(mine))
