"""plan63: wide runs take turns on GPUs bought too, beside the copies; a run is placed whole, never part on the GPUs
the plan holds and the rest rented; the plan report's totals are the sums of their parts.

1. plansolve62 made runs wider than half the owned GPUs take turns (their wall hours within the month's schedulable
   hours) only on a type the plan cannot buy and counting the owned GPUs alone: where the type could be bought, or
   copies served on it, two wide runs were booked at once on GPUs that cannot hold both. Now two runs of ``t`` GPUs
   or more share the month only where owned + bought - the copies' GPUs >= 2t (gpuwise/plan/together.py turns).
2. A month's run was placed in shares: 0.664 of a run on 3 owned RTX 4090 and 0.336 rented. A run split at once
   between the team's GPUs and a cloud would exchange gradients every step between the sites (DiLoCo,
   arXiv:2311.08105: standard LLM training needs 'tightly interconnected accelerators, with devices exchanging
   gradients and other intermediate states at each optimization step'); split in turn it moves its checkpoint and
   restarts, which the plan does not price. Each run is now whole (together.whole) and PLAN-RUN-WHOLE says where
   that left room unused.

Figures worked by hand from the knowledge files the plan reads (RTX 4090: prices.yaml $3,159.99 on 2025-07-22, the
desktop host's $800 share and 250 W, tco.yaml; RunPod $0.34 a GPU-hour, clouds.yaml). Each test but the adding-up
ones fails on the base (7d24b25f).
"""

from __future__ import annotations

import re

import pytest
import yaml

from gpuwise.estimators import cost as K
from gpuwise.knowledge import load
from gpuwise.plan.build import plan
from gpuwise.render import plan_view
from tests.clirun import json_of, text_of

KB = load()
HOURS = 730.0  # a month's hours as the plan bills them
SCHEDULABLE = KB.policy_value("plan_owned_availability") * HOURS  # 0.9 x 730 = 657 hours a month
RATE = 0.20  # $/kWh, as the plans below state; the office's PUE is 1.0
TDP_4090 = 450.0  # knowledge/gpus.yaml power.tdp_w
DESKTOP_W = 250.0  # tco.yaml workstation_host_w: one desktop's host
CARD_USD = 3159.99  # prices.yaml rtx-4090 (UCT, 2025-07-22)
HOST_USD = 800.0  # tco.yaml server_share_usd_per_gpu_consumer
RUNPOD = 0.34  # clouds.yaml runpod rtx-4090 a GPU-hour


def tune(name: str, tokens: float = 4.8e9) -> dict:
    """A LoRA of Llama 3.1 8B in month 2 within 20 days: 2 RTX 4090 for 394.8 hours (4.8e9 tokens)."""
    return {"name": name, "workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b",
                                       "seq_len": 2048, "train_tokens": tokens},
            "cadence": {"at_month": 2}, "deadline_days": 20}


def chat() -> dict:
    """Llama 3.1 8B served one sequence at a time all day: one copy on one GPU, held all month."""
    return {"name": "chat-8b", "workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 500,
                                            "output_tokens": 200},
            "cadence": {"continuous": True, "hours_per_day": 24}, "targets": {"concurrency": 1}}


def doc(workloads: list[dict], owned: int = 0, acquisition: str = "rent", servers: int = 1) -> dict:
    d = {"horizon_months": 3, "workloads": workloads,
         "constraints": {"acquisition": acquisition, "electricity_usd_per_kwh": RATE, "gpus": ["rtx-4090"]}}
    if owned:
        d["owned"] = [{"gpu": "RTX 4090", "count": owned, "hosting": "office", "servers": servers}]
    return d


def placed(r) -> list[tuple[str, str, float]]:
    return sorted((p.workload, p.acquisition, p.runs) for m in r.months for p in m.placements)


def test_bought_gpus_hold_two_wide_runs_at_once_only_where_both_fit():
    """Buying only, two 2-GPU runs of 394.8 hours in month 2: one after the other they take 790 of the month's 657
    schedulable hours, so both run at once on 4 cards. The base bought 3 (the hours row alone: 2 x 2 x 394.8 = 1,579
    of 3 x 657 = 1,971 GPU-hours), a schedule of 790 hours. Cost: 4 x ($3,159.99 + $800) = $15,839.96, less the 4
    cards' resale after 3 months at the resale curve's fraction, plus 1,579.2 GPU-hours x (450 + 250 / 4) W x $0.20:
    the 4 cards in one desktop, its host's 250 W over them, as recommend prices 4 cards (plan64; it was 450 + 250 W,
    4 one-card desktops, $4,499.39)."""
    r = plan(doc([tune("a"), tune("b")], acquisition="buy"))
    o = next(o for o in r.options if o.workload == "a")
    assert o.count == 2 and 2 * o.wall_hours > SCHEDULABLE > o.wall_hours
    assert [(b.month, b.count) for b in r.purchases] == [(1, 4)]
    assert placed(r) == [("a", "buy", 1.0), ("b", "buy", 1.0)]
    (resale,) = [ln for ln in r.lines if ln.kind == "resale"]
    fraction = K.resale_fraction(KB.tco, 3, "new", family=KB.gpus["rtx-4090"].architecture)  # tco.yaml's curve
    assert resale.inputs["months_owned"] == 3 and resale.amount == pytest.approx(-4 * CARD_USD * fraction, abs=0.01)
    power = 2 * 2 * o.wall_hours * (TDP_4090 + DESKTOP_W / 4) / 1000 * RATE
    assert r.total == pytest.approx(4 * (CARD_USD + HOST_USD) - 4 * CARD_USD * fraction + power, abs=0.02)


def test_runs_beside_a_copy_take_turns_where_its_gpu_leaves_too_few_for_two():
    """4 owned RTX 4090 in 2 desktops of 2 (a run spans one: no run on all 4), one serving all month: 3 left, and
    two 2-GPU runs of 341 and 354 hours need 4 at once or 695 of the month's 657 hours in turn, so one runs there and
    the other (the shorter: its rent, 2 x $0.34 x 341 h = $232, is less than the copy's for the month, $0.34 x 730 h
    = $248) is rented whole at RunPod.
    The base wrote no turns row (2 x 2 <= 4 owned) and ran both on the owned GPUs: their 1,390 GPU-hours and the
    copy's 657 within 4 x 657."""
    r = plan(doc([chat(), tune("a", 4.15e9), tune("b", 4.3e9)], owned=4, servers=2))
    a, b = (next(o for o in r.options if o.workload == w) for w in ("a", "b"))
    runs = [x for x in placed(r) if x[0] != "chat-8b"]
    assert runs == [("a", "rent", 1.0), ("b", "owned", 1.0)]  # the longer run on the owned GPUs saves more rent
    per_gpu_hour = (TDP_4090 + 2 * DESKTOP_W / 4) / 1000 * RATE  # two desktops' hosts over the 4 cards: $0.115
    copy = 3 * HOURS * per_gpu_hour  # 1 GPU, 3 months, every hour
    run_b = 2 * b.wall_hours * per_gpu_hour
    assert r.total == pytest.approx(copy + run_b + 2 * RUNPOD * a.wall_hours, rel=1e-6)


def test_a_run_is_placed_whole_and_the_finding_says_what_was_left():
    """3 owned RTX 4090 and two 2-GPU runs of 394.8 hours (plansolve62's case): one runs on the owned GPUs, the other
    is rented whole. The base placed 657 / 394.8 = 1.664 runs on the owned GPUs and rented 0.336 of the second.
    Power (2 x 394.8 h x (450 + 250 / 3) W x $0.20) + rent (2 x $0.34 x 394.8 h); PLAN-RUN-WHOLE: 657 - 394.8 =
    262.2 hours were free on the owned GPUs."""
    r = plan(doc([tune("a"), tune("b")], owned=3))
    o = next(o for o in r.options if o.workload == "a")
    runs = placed(r)
    assert sorted(x[1] for x in runs) == ["owned", "rent"] and {x[2] for x in runs} == {1.0}
    power = 2 * o.wall_hours * (TDP_4090 + DESKTOP_W / 3) / 1000 * RATE
    assert r.total == pytest.approx(power + 2 * RUNPOD * o.wall_hours, rel=1e-6)
    rented = next(x[0] for x in runs if x[1] == "rent")
    (f,) = [f for f in r.findings if f.rule == "PLAN-RUN-WHOLE"]
    assert f.subject == rented
    assert f"had {SCHEDULABLE - o.wall_hours:.0f} of the {o.wall_hours:.0f} wall hours" in f.message  # 262 of 395


def test_a_fraction_of_a_run_a_month_is_placed_in_one_place():
    """A run every other month (per_month 0.5) of 394.8 hours on 3 owned RTX 4090 beside a second such workload:
    each month's half run is whole in one place (0.5 on the owned GPUs or 0.5 rented, never 0.25 and 0.25)."""
    def half(name: str) -> dict:
        return {**tune(name), "cadence": {"per_month": 0.5}}
    r = plan(doc([half("a"), half("b"), tune("c")], owned=3))
    shares = [p.runs for m in r.months for p in m.placements]
    assert shares and all(s in (0.5, 1.0) for s in shares), shares


def test_no_finding_where_the_owned_gpus_had_no_room():
    """One 2-GPU run on 3 owned RTX 4090: it runs there whole and nothing is rented, so PLAN-RUN-WHOLE is silent."""
    r = plan(doc([tune("a")], owned=3))
    assert placed(r) == [("a", "owned", 1.0)]
    assert not [f for f in r.findings if f.rule == "PLAN-RUN-WHOLE"]


# ---------------------------------------------------------------------------------------------- the report adds up
def _adds_up(d: dict) -> None:
    """Every total of a plan's JSON (CONTRACT.md version 3) is the sum of its parts."""
    months = d["months"]
    assert d["total"] == pytest.approx(sum(m["total"] for m in months), abs=0.01)
    for m in months:
        assert m["total"] == pytest.approx(m["capex"] + m["rent"] + m["opex"] + m["fees"] + m["resale"], abs=0.01)
        assert m["opex"] == pytest.approx(m["hosting"] + m["power"], abs=0.01)
        lines = [ln for ln in d["lines"] if ln["month"] == m["month"]]
        assert m["total"] == pytest.approx(sum(ln["amount"] for ln in lines), abs=0.01)
    a = d["answer"]
    assert sum(x["amount"] for x in a["rent"]) == pytest.approx(sum(m["rent"] for m in months), abs=0.01)
    assert sum(x["gpu_hours"] for x in a["rent"]) == pytest.approx(
        sum(p["gpu_hours"] for m in months for p in m["placements"] if p["acquisition"] == "rent"), abs=0.1)
    assert sum(p["amount"] for p in d["purchases"]) == pytest.approx(sum(m["capex"] for m in months), abs=0.01)
    assert a["monthly_average"] * d["horizon_months"] == pytest.approx(d["total"], abs=0.01)


def _cash_table(text: str) -> None:
    """The text report's cash flow by month: each row's parts are its total and each column's months its Total."""
    table = text.split("=== Cash flow by month ===")[1].split("===")[0]
    rows = []
    for line in table.splitlines():
        cells = re.findall(r"-?\$[\d,]+(?:\.\d+)?|—", line)
        if len(cells) >= 6:
            rows.append([0.0 if c == "—" else float(c.replace("$", "").replace(",", "")) for c in cells[:6]])
    assert len(rows) >= 2
    *body, total = rows
    for r in rows:
        assert sum(r[:5]) == pytest.approx(r[5], abs=0.01), r
    for i in range(6):
        assert sum(r[i] for r in body) == pytest.approx(total[i], abs=0.01), i


@pytest.mark.parametrize("case", ["buy", "owned3", "copy4"])
def test_the_plan_report_adds_up(tmp_path, case):
    """JSON totals, the full and brief text's cash flow, on this branch's three cases."""
    d = {"buy": doc([tune("a"), tune("b")], acquisition="buy"), "owned3": doc([tune("a"), tune("b")], owned=3),
         "copy4": doc([chat(), tune("a", 4.15e9), tune("b", 4.3e9)], owned=4, servers=2)}[case]
    report_adds_up(tmp_path, case, d)


def report_adds_up(tmp_path, case: str, d: dict) -> None:
    """A plan's JSON totals, its full and brief text's cash flow, and the brief's cost line against the JSON total
    (test_plan64 reads its own cases through this)."""
    path = tmp_path / f"{case}.yaml"
    path.write_text(yaml.safe_dump(d))
    _adds_up(json_of(tmp_path, "plan", str(path)))
    r = plan(d)
    for detail in ("full", "brief"):
        text = plan_view.render(r, "text", detail=detail, width=200)
        if "=== Cash flow by month ===" in text:
            _cash_table(text)
        else:
            assert detail == "brief"
    brief = " ".join(text_of(tmp_path, "plan", str(path), "--detail", "brief").split())
    said = re.search(r"Cost over \d+ months: \$([\d,]+)", brief)
    assert said and float(said.group(1).replace(",", "")) == round(d_total := json_of(tmp_path, "plan", str(path))[
        "total"]), (brief, d_total)


@pytest.mark.parametrize("path", ["examples/plan-team-4090.yaml",
                                  "tests/data/review57/plan-owned-a100-pretrain-qwen35.yaml"])
def test_the_bundled_plans_add_up(tmp_path, path):
    """The team example (owned 4090s, copies of four, LoRA runs twice a month) and review57's 16 A100 plan, after the
    runs became whole: the JSON's totals, the full text's cash flow, and the saving the answer states (the
    baseline's total less the plan's, as the reports round them). These held on the base too: kept as guards."""
    from tests.clirun import ROOT
    full = str(ROOT / path)
    d = json_of(tmp_path, "plan", full)
    _adds_up(d)
    a = d["answer"]
    assert a["beats"]  # both beat a baseline

    def shown(v: float) -> float:  # whole units from 100, cents below (docs/formats.md, answer.saving)
        return round(v) if abs(v) >= 100 else round(v, 2)
    assert a["saving"] == pytest.approx(shown(d["baselines"][a["beats"]]) - shown(d["total"]), abs=0.011)
    _cash_table(plan_view.render(plan(yaml.safe_load((ROOT / path).read_text())), "text", detail="full", width=200))
