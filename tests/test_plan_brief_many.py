"""A plan of many workloads still fits the brief's two 80 x 40 screens (leftovers55: a 21-workload plan printed 87
lines): the workloads left unplaced for one reason share a sentence, a rule-out of the same GPU types is said once
for the workloads it rules out, and past that what decided the plan, where each workload runs and the hosted APIs
keep their first rows and name the rest by count -- never a blocker, never an unplaced workload's name.

The plans here are the bundled example's answer with workloads added to it (each a copy of one of its own rows under
another name), so the counts and GPU-hours each folded line gives are checked against the result by hand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuwise.plan.result import Unplaced
from gpuwise.render import money_view, plan_view
from tests.conftest import TWO_A_COPY, answer_of
from tests.test_plan_brief_fold import _sections

ROOT = Path(__file__).resolve().parent.parent


def _many(n: int, unplaced: int, blocker: bool = True):
    """The example's plan with ``n`` workloads in all: the example's three, ``n - 3 - unplaced`` services placed each
    month as chat-70b's first placement is (GPU-hours 100 + i), ``unplaced`` left unplaced (all but one for one
    reason), each service priced against Groq and ruled out of the same GPU types by its latency target. The example
    held to copies of 2 RTX 4090s (TWO_A_COPY), whose answer buys and binds: the example itself, on copies of 4 since
    plancopy57, buys nothing and no constraint binds it."""
    r = answer_of("plan", TWO_A_COPY)
    first = r.months[0].placements[0]
    placed = [f"svc-{i:02d}" for i in range(n - 3 - unplaced)]
    months = [x.model_copy(update={"placements": [*x.placements, *(first.model_copy(
        update={"workload": w, "gpu_hours": 100.0 + i}) for i, w in enumerate(placed))]}) for x in r.months]
    api = [*r.api, *(r.api[0].model_copy(update={"workload": w, "api_per_month": 1000.0 + i})
                     for i, w in enumerate(placed))]
    rule_out = next(b for b in r.binding if b.binding).model_copy(update={"kind": "latency", "gpus": ["t4", "p40"]})
    binding = [*r.binding, *(rule_out.model_copy(update={"subject": w}) for w in placed)]
    gone = [Unplaced(workload=f"gone-{i:02d}", reason="no GPU type can run it" if i else
                     "no GPU type fits it in memory at any count up to max_gpus") for i in range(unplaced)]
    findings = list(r.findings)
    if blocker:  # a blocker is said in full, however long the plan (first, as judge sorts the findings)
        findings.insert(0, r.findings[0].model_copy(update={
            "severity": "blocker", "rule": "PLAN-BUDGET-OVER", "template": "", "fix": "", "fix_template": "",
            "message": "Q2: the plan spends $1 against a budget of $0"}))
    return r.model_copy(update={"months": months, "api": api, "binding": binding, "unplaced": gone,
                                "findings": findings})


@pytest.mark.parametrize("n, unplaced", [(21, 1), (21, 4), (40, 6)])
def test_many_workloads_fit_two_screens_and_hide_no_unplaced_workload(n: int, unplaced: int) -> None:
    r = _many(n, unplaced)
    full = plan_view.render(r, "text", width=80, detail="full")
    assert len(full.rstrip("\n").split("\n")) > 80  # the full report is not folded
    text = plan_view.render(r, "text", width=80)
    assert len(text.rstrip("\n").split("\n")) <= 80, text
    s = _sections(text)
    answer = " ".join(x.strip() for x in s["Answer"])
    for u in r.unplaced:  # every unplaced workload is named in the answer
        assert u.workload in answer
    assert "Q2: the plan spends $1 against a budget of $0 (PLAN-BUDGET-OVER)" in " ".join(
        x.strip() for x in s["Findings"])
    # where each workload runs: the workloads shown, and the rest by count with their GPU-hours
    rows = [line.split()[0] for line in s["Where each workload runs"][2:] if not line.strip()[0].isdigit()]
    rest = re.search(r"(\d+) more workloads? in the full report \(([\d,]+) GPU-hours\)\.",
                     " ".join(x.strip() for x in s["Where each workload runs"]))
    hours: dict[str, float] = {}
    for x in r.months:
        for p in x.placements:
            hours[p.workload] = hours.get(p.workload, 0.0) + p.gpu_hours
    assert rest and len(set(rows)) + int(rest.group(1)) == len(hours)
    # the rest's GPU-hours: every workload's less those shown, the shown ones the most GPU-hours of all
    assert rest.group(2) == f"{sum(h for w, h in hours.items() if w not in rows):,.0f}"
    assert min(hours[w] for w in rows) >= max(h for w, h in hours.items() if w not in rows)
    api = [line for line in s["Hosted APIs for the services"][2:] if "more service" not in line]
    more = re.search(r"(\d+) more services? in the full report\.|The hosted APIs? for (\d+) services? (?:is|are) in "
                     r"the full report\.", " ".join(x.strip() for x in s["Hosted APIs for the services"]))
    left = int(more.group(1) or more.group(2)) if more else -1
    assert len(api) + left == len({a.workload for a in r.api}) and (more.group(2) is None) == bool(api)


def test_unplaced_for_one_reason_share_a_sentence() -> None:
    text = plan_view.render(_many(21, 4), "text", width=80)
    answer = " ".join(x.strip() for x in _sections(text)["Answer"])
    # gone-01..03 share one reason, gone-00 has its own: two sentences, the three names in one
    assert answer.count("Not placed:") == 2
    assert "Not placed: gone-01, gone-02, gone-03: no GPU type can run it" in answer


def test_a_rule_out_of_the_same_gpus_is_said_once_for_its_workloads() -> None:
    r = _many(21, 1)
    view = plan_view.view(r)
    grouped = [b["short"] for b in view["binding_grouped"] if "svc-00" in b["short"]]
    assert grouped == ["latency: the latency targets rule out t4, p40 for "
                       + ", ".join(f"svc-{i:02d}" for i in range(17))]


def test_the_example_is_not_folded_further() -> None:
    """The bundled example fits at the steps it took before: none of the new ones is reached."""
    r = answer_of("plan", ROOT / "examples" / "plan-team-4090.yaml")
    text = plan_view.render(r, "text", width=80)
    assert "more workload" not in text and "more service" not in text
    # since plancopy57 the service runs on copies of 4: both copies on the 8 owned 4090s every month, 8 x 730 h x 12
    # = 70,080 GPU-hours, its row said in full (no GPU named by its id: the example needs no folding)
    # (the GPUs of a copy beside them since planleft58: 4); since reviewleft60 the findings say the owned cards'
    # warranty ends in month 4 and the cash flow says its rounding, so the brief names the GPUs by their ids (the
    # third step, which the example had not reached): the row keeps its figures
    # (product66: the Data freshness block's four lines take it to one row a workload, type and way, its counts as a
    # range: the GPUs column widens for '2-4 × l40s')
    assert "  chat-70b     8 × rtx-4090               4  owned   1-12           70,080" in text


def _two_years():
    """The example's plan held to copies of 2 (TWO_A_COPY: it buys) over 24 months: its 12 months again as months
    13-24 and its purchase again in month 13."""
    r = answer_of("plan", TWO_A_COPY)
    again = [x.model_copy(update={"month": x.month + 12}) for x in r.months]
    buy = r.answer.buy_now[0]
    later = buy.model_copy(update={"month": 13, "arrives": 14})
    return r.model_copy(update={"months": [*r.months, *again], "horizon_months": 24, "purchases": [*r.purchases, later],
                                "answer": r.answer.model_copy(update={"buy_later": [later]})})


def test_a_long_horizon_s_cash_flow_by_quarter_and_a_type_s_orders_in_one_sentence() -> None:
    """Past a year the brief's cash flow is by quarter (each row the sum of its months, the fleet's use over its
    GPU-hours), and a type's orders of one unit in several months are one sentence (their GPUs, units and amounts
    summed): a plan of 24 months whose months all differ printed a table of 24 rows."""
    r = _two_years()
    text = plan_view.render(r, "text", width=80)
    assert len(text.rstrip("\n").split("\n")) <= 80, text
    s = _sections(text)
    rows = [line.split() for line in s["Cash flow by month"][2:] if line.split()[0][0].isdigit()]
    assert [row[0] for row in rows] == [f"{q}-{q + 2}" for q in range(1, 25, 3)]
    # each quarter the sum of its months as the table by month shows them (cents59: rounded so that they add up)
    shown, _sums, _whole = money_view.cash_flow(r.months, r.total, plan_view._adds_up(r))
    for row, q in zip(rows, range(0, 24, 3), strict=True):
        xs, vs = r.months[q:q + 3], shown[q:q + 3]
        assert row[6] == f"${sum(v[5] for v in vs):,.0f}".replace("$-", "-$")
        assert row[1] == f"${sum(v[0] for v in vs):,.0f}"
        assert abs(sum(v[5] for v in vs) - sum(x.total for x in xs)) < 3  # each month within a unit of its own
    # months 1-3: 100 % of 8 GPUs' hours (chat-70b's 4 copies of 2 on the owned 4090s, 5,840 h), then 61.0 % twice of
    # 10 (2 RTX PRO 6000 arrived): (1.0 x 8 + 0.610 x 10 x 2) / 28 = 72 %
    first = r.months[:3]
    use = sum(x.utilisation * sum(x.fleet.values()) for x in first) / sum(sum(x.fleet.values()) for x in first)
    assert rows[0][7] == f"{use:.0%}" == "72%"
    assert "Each row of a quarter is the sum of its months" in " ".join(s["Cash flow by month"])
    answer = " ".join(x.strip() for x in s["Answer"])
    p = r.answer.buy_now[0]
    # each order's two cards one 2-card desktop, as recommend prices two (plan64: '2 x 1-GPU workstation' each)
    assert (p.count, p.units, p.unit_gpus) == (2, 1, 2)
    assert (f"Buy {2 * p.count} × NVIDIA RTX PRO 6000 Blackwell Workstation Edition 96GB in months 1, 13 "
            f"({2 * p.units} × 2-GPU workstation in all) for ${2 * p.amount:,.0f}; they run work from months 2, 14."
            ) in answer
