"""``gpuwise plan``: a small case against hand calculation, the invariants on generated plans
(every workload placed or its reason stated, the cash flow sums to the total, no GPU-month booked
beyond 100%, service load carried every month, the plan never dearer than a baseline that keeps to
the same constraints), a lab that owns enough ("buy nothing"), a plan in CNY, and bad input."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuwise.errors import UserError
from gpuwise.plan.build import plan
from gpuwise.render import plan_view

from .conftest import answer_of

ROOT = Path(__file__).parent.parent
EXAMPLE = ROOT / "examples" / "plan-team-4090.yaml"

RTX4090_TDP_W = 450.0  # NVIDIA GeForce RTX 4090 specifications: total graphics power 450 W
HOST_W_PER_GPU = 410.0  # knowledge/tco.yaml host_power_w_per_gpu (host CPUs, RAM, fans per GPU)
OFFICE_PUE = 1.0  # knowledge/tco.yaml hosting.office: the building's own cooling, nothing billed


def lora(tokens: float = 1.0e8) -> dict:
    return {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "train_tokens": tokens}


def pretrain(tokens: float = 2.0e9) -> dict:
    return {"task": "pretrain", "params_b": 1.0, "train_tokens": tokens}


def _options(r, workload: str) -> dict:
    return {o.gpu: o for o in r.options if o.workload == workload}


# ------------------------------------------------------------------------------ by hand
def test_two_workloads_on_the_owned_gpus_cost_their_power():
    """Two training workloads, one GPU type, 8 owned in an office: nothing is bought or rented,
    and the plan costs the power of the GPU-hours: hours x (450 W + 410 W) x PUE 1.0 x $0.15/kWh."""
    r = plan({"horizon_months": 3,
              "owned": [{"gpu": "RTX 4090", "count": 8, "hosting": "office"}],
              "workloads": [{"name": "ft", "workload": lora(), "cadence": {"per_month": 2}},
                            {"name": "pt", "workload": pretrain(), "cadence": {"at_month": 2}}],
              "constraints": {"gpus": ["rtx-4090"], "electricity_usd_per_kwh": 0.15}})
    ft, pt = _options(r, "ft")["rtx-4090"], _options(r, "pt")["rtx-4090"]
    # each run on its fewest GPUs or on more of the 8 owned (ownwide51: Option.own_count, its own_wall_hours):
    # runs x GPUs x the wall hours of a run on that many (a placement's runs are given to 4 decimals)
    placed = [p for m in r.months for p in m.placements]

    def wall(p) -> float:
        o = ft if p.workload == "ft" else pt
        assert p.count in (o.count, o.own_count)
        return o.wall_hours if p.count == o.count else o.own_wall_hours

    assert sum(p.runs for p in placed if p.workload == "ft") == pytest.approx(3 * 2)
    assert sum(p.runs for p in placed if p.workload == "pt") == pytest.approx(1)
    gpu_hours = sum(p.runs * p.count * wall(p) for p in placed)
    by_hand = gpu_hours * (RTX4090_TDP_W + HOST_W_PER_GPU) / 1000 * OFFICE_PUE * 0.15
    assert r.total == pytest.approx(by_hand, rel=1e-4)
    assert r.purchases == [] and r.answer.buy_nothing
    assert all(p.acquisition == "owned" for m in r.months for p in m.placements)
    # month 2 uses the fine-tune twice and the pre-train once, out of 8 GPUs x 730 h
    used = sum(p.runs * p.count * wall(p) for p in r.months[1].placements)
    assert r.months[1].utilisation == pytest.approx(used / (8 * 730), rel=1e-4)


def test_two_workloads_rented_cost_the_offer_times_the_hours():
    """Renting only, one GPU type: every run is billed at the cheapest offer's price for its GPUs
    times its wall hours (H100 SXM at $2.69 per GPU-hour, knowledge/clouds.yaml)."""
    r = plan({"horizon_months": 2,
              "workloads": [{"name": "ft", "workload": lora(), "cadence": {"per_month": 3}},
                            {"name": "pt", "workload": pretrain(), "cadence": {"at_month": 1}}],
              "constraints": {"gpus": ["h100-80gb-sxm"], "acquisition": "rent"}})
    ft, pt = _options(r, "ft")["h100-80gb-sxm"], _options(r, "pt")["h100-80gb-sxm"]
    assert ft.rent_per_hour == pytest.approx(2.69 * ft.count)
    by_hand = 2 * 3 * ft.rent_per_hour * ft.wall_hours + pt.rent_per_hour * pt.wall_hours
    assert r.total == pytest.approx(by_hand, rel=1e-6)
    assert r.baselines["rent_all"] == pytest.approx(r.total, rel=1e-6)
    assert r.purchases == []


# --------------------------------------------------------------------------- invariants
def check_invariants(r) -> None:
    names = {w.name for w in r.workloads}
    placed = {p.workload for m in r.months for p in m.placements}
    stated = {u.workload for u in r.unplaced}
    assert names <= placed | stated, "every workload is placed or its reason is stated"
    assert all(u.reason for u in r.unplaced)
    assert sum(m.total for m in r.months) == pytest.approx(r.total, rel=1e-9, abs=1e-6)
    assert sum(ln.amount for ln in r.lines) == pytest.approx(r.total, rel=1e-9, abs=1e-6)
    for m in r.months:
        assert m.total == pytest.approx(m.capex + m.rent + m.opex + m.fees + m.resale, abs=1e-6)
        assert m.utilisation <= 1 + 1e-9
        assert all(u <= 1 + 1e-9 for u in m.utilisation_by_gpu.values())
        for g, n in m.fleet.items():  # never more GPUs at once than the fleet has
            at_once = sum(p.count for p in m.placements if p.gpu == g and p.acquisition != "rent" and p.copies)
            assert at_once <= n
    for w in r.workloads:  # a service's load is carried every month (capacity before demand)
        if w.kind != "serving" or w.name in stated:
            continue
        opts = _options(r, w.name)
        for m, d in zip(r.months, w.demand, strict=True):
            carried = sum(p.copies * opts[p.gpu].capacity for p in m.placements if p.workload == w.name)
            assert carried >= d * (1 - 1e-6)
    for b in r.baseline_details:
        if b.allowed and not r.unplaced:
            assert r.total <= b.total * (1 + 1e-6) + 1e-6, b.name


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(horizon=st.integers(2, 5), owned=st.sampled_from([0, 4, 8]),
       runs=st.sampled_from([0.5, 1, 2]), at=st.integers(1, 2), serve=st.booleans(),
       rate=st.sampled_from([0.5, 2.0]), growth=st.sampled_from([0.0, 0.2]),
       acquisition=st.sampled_from(["either", "rent", "buy"]))
def test_invariants_on_generated_plans(horizon, owned, runs, at, serve, rate, growth, acquisition):
    workloads = [{"name": "ft", "workload": lora(5e7), "cadence": {"per_month": runs}},
                 {"name": "pt", "workload": pretrain(1e9), "cadence": {"at_month": at}}]
    if serve:
        workloads.append({"name": "chat", "workload": {"task": "inference", "model": "llama-3.1-8b",
                                                       "prompt_tokens": 500, "output_tokens": 200},
                          "cadence": {"continuous": True, "growth_per_month": growth},
                          "targets": {"requests_per_s": rate}})
    data = {"horizon_months": horizon, "workloads": workloads,
            "owned": [{"gpu": "rtx-4090", "count": owned}] if owned else [],
            "constraints": {"gpus": ["rtx-4090", "h100-80gb-sxm"], "acquisition": acquisition}}
    check_invariants(plan(data))


def test_the_example_keeps_the_invariants_and_beats_renting_everything():
    r = answer_of("plan", EXAMPLE)  # the example's plan, computed once per test process
    check_invariants(r)
    assert r.total < r.baselines["rent_all"]
    assert {a.provider for a in r.api} >= {"Groq", "Together AI"}  # Llama 70B is sold by the token
    for a in r.api:  # break-even: the request rate at which the API costs what self-hosting does
        per_request = (1000 * a.input_per_million + 300 * a.output_per_million) / 1e6
        assert a.break_even_requests_per_s == pytest.approx(a.self_host_per_month / per_request / (730 * 3600))


# ------------------------------------------------------------------------------ answers
def test_a_lab_that_owns_enough_buys_nothing():
    r = plan({"horizon_months": 6,
              "owned": [{"gpu": "H100-80G", "count": 8, "hosting": "colocation"}],
              "workloads": [{"name": "ft", "workload": lora(), "cadence": {"per_month": 4}},
                            {"name": "chat", "workload": {"task": "inference", "model": "llama-3.1-8b"},
                             "cadence": {"continuous": True}, "targets": {"requests_per_s": 1}}]})
    assert r.purchases == [] and r.answer.buy_nothing
    assert not any(p.acquisition == "rent" for m in r.months for p in m.placements)
    assert r.unplaced == []
    assert "Buy nothing" in plan_view.render(r, "text")


def test_a_plan_in_cny():
    r = plan({"horizon_months": 4,
              "workloads": [{"name": "ft", "workload": lora(), "cadence": {"per_month": 1}}],
              "constraints": {"currency": "CNY", "budget_per_quarter_usd": "¥200000"}})
    assert r.currency == "CNY"
    assert r.total == pytest.approx(r.total_usd * r.usd_cny)
    assert sum(m.total for m in r.months) == pytest.approx(r.total)
    text = plan_view.render(r, "text", lang="zh")
    assert "¥" in text
    budget = [b for b in r.binding if b.kind == "budget"]
    assert budget and not any(b.binding for b in budget)  # a fine-tune a month is far below ¥200,000


def test_an_amount_in_another_currency_is_refused():
    with pytest.raises(UserError, match=r"constraints\.currency is USD"):
        plan({"horizon_months": 2, "workloads": [{"name": "a", "workload": lora(), "cadence": {"per_month": 1}}],
              "constraints": {"budget_total_usd": "¥100000"}})


@pytest.mark.parametrize("fmt", ["text", "md", "html", "json"])
def test_every_format_renders(fmt):
    r = answer_of("plan", EXAMPLE)  # the example's plan, computed once per test process
    out = plan_view.render(r, fmt)
    if fmt == "json":
        d = json.loads(out)
        for key in ("total", "currency", "baselines", "purchases", "months", "unplaced", "api", "findings", "trace"):
            assert key in d
        assert set(d["baselines"]) == {"rent_all", "buy_for_peak"}
        for m in d["months"]:
            assert {"month", "capex", "rent", "opex", "fees", "total", "utilisation", "placements"} <= set(m)
    elif fmt == "html":
        assert out.count("<svg") >= 3 and "</html>" in out


# ------------------------------------------------------------------------------ the CLI
def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gpuwise", "plan", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def _cli_here(*args: str) -> subprocess.CompletedProcess:
    """``gpuwise plan ARGS`` in this process (tests/clirun.py): where no process-level effect is checked."""
    from tests.clirun import gpuwise

    return gpuwise("plan", *args, cwd=ROOT)


def test_cli_json_is_clean_on_stdout(tmp_path):  # a real process: a solver's banner would go to file descriptor 1
    """The example's first workload alone: the solver runs as for the whole example (9 of its 10 runs),
    at a tenth of the whole plan's CPU."""
    d = yaml.safe_load(EXAMPLE.read_text())
    d["workloads"] = d["workloads"][:1]
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(d, sort_keys=False))
    p = _cli(str(tmp_path / "plan.yaml"), "--format", "json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["currency"] == "USD"  # nothing (the solver's banner) before the JSON


def test_malformed_plan_is_exit_2_with_one_line(tmp_path):
    bad = tmp_path / "plan.yaml"
    bad.write_text(EXAMPLE.read_text().replace("horizon_months:", "horizon_month:"))
    p = _cli_here(str(bad), "-o", str(tmp_path / "out.html"))
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "horizon_month" in lines[0] and "did you mean 'horizon_months'" in lines[0]
    assert not (tmp_path / "out.html").exists()
    bad.write_text(EXAMPLE.read_text().replace("cadence: {per_month: 2}", "cadence: {per_month: 2, at_month: 3}"))
    p = _cli_here(str(bad))
    assert p.returncode == 2 and "workloads[0].cadence" in p.stderr and "exactly one of" in p.stderr


def test_an_inference_workload_must_be_continuous():
    with pytest.raises(UserError, match="continuous"):
        plan({"horizon_months": 2,
              "workloads": [{"name": "s", "workload": {"task": "inference", "model": "llama-3.1-8b"},
                             "cadence": {"per_month": 1}}]})


def test_quarter_over_budget_is_a_blocker():
    """A budget the work cannot keep to: the plan places the work and the rule says by how much."""
    r = plan({"horizon_months": 3,
              "workloads": [{"name": "pt", "workload": pretrain(2e10), "cadence": {"at_month": 1}}],
              "constraints": {"gpus": ["h100-80gb-sxm"], "acquisition": "rent", "budget_per_quarter_usd": 10}})
    assert any(f.rule == "PLAN-BUDGET-OVER" and f.severity == "blocker" for f in r.findings)
    assert any(b.kind == "budget" and b.binding for b in r.binding)
    assert math.isclose(sum(m.total for m in r.months), r.total)


def test_policy_overlay_and_house_rules_apply_to_plans(tmp_path):
    """A policy overlay changes a plan rule's threshold; a house rule judges the plan's facts."""
    kdir, rdir = tmp_path / "kb", tmp_path / "rules"
    kdir.mkdir()
    rdir.mkdir()
    (kdir / "policy.yaml").write_text("plan_idle_utilisation: 1.0\n")  # any use below 100% is idle
    (rdir / "ours.yaml").write_text(
        "schema_version: 1\nruleset: ours\nstep: pitfalls\nrules:\n"
        "  - id: OURS-NO-RENTED-TRAINING\n    title: We train on our own GPUs\n    fact: plan_workload\n"
        "    when:\n      - [kind, '==', training]\n      - [rented_share, '>', 0]\n"
        "    then: {action: finding, severity: warning, topic: cost, message: '{workload} rents GPUs'}\n"
        "    rationale: Our data may not leave the building.\n    source: house policy\n")
    data = {"horizon_months": 2, "owned": [{"gpu": "rtx-4090", "count": 1}],
            "workloads": [{"name": "pt", "workload": pretrain(2e10), "cadence": {"at_month": 1}, "deadline_days": 2}],
            "constraints": {"gpus": ["rtx-4090", "h100-80gb-sxm"], "acquisition": "rent"}}
    r = plan(data, knowledge=str(kdir), rules=str(rdir))
    rules = {f.rule for f in r.findings}
    assert "PLAN-FLEET-IDLE" in rules
    assert "OURS-NO-RENTED-TRAINING" in rules and r.house_rules is not None


def test_a_china_market_plan_buys_only_parts_sold_in_china(kb):
    """prices.yaml markets: an H100 cannot be sold into China (US export rules), so a China-market
    plan never buys one; renting one abroad is a warning (PLAN-RENT-ABROAD)."""
    from gpuwise.estimators import cost as K

    r = plan({"horizon_months": 6,
              "workloads": [{"name": "chat", "workload": {"task": "inference", "model": "qwen2.5-72b",
                                                          "precision": "int4"},
                             "cadence": {"continuous": True}, "targets": {"requests_per_s": 20}}],
              "constraints": {"currency": "CNY", "market": "china", "gpus": ["h100-80gb-sxm", "h20-96gb-sxm"]}})
    for p in r.purchases:
        mk = K.market_entry(kb.prices, p.gpu)
        assert mk is None or mk.sold_in_china, p.gpu
    rented = {p.gpu for m in r.months for p in m.placements if p.acquisition == "rent"}
    if "h100-80gb-sxm" in rented:
        assert any(f.rule == "PLAN-RENT-ABROAD" for f in r.findings)
