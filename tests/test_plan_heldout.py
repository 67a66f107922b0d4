"""The held-out questions of issue 24, on plan files in tests/data/plans/: a China-market team in
CNY, a lab whose workloads fit on what it owns ("buy nothing"), a team whose serving load grows
past its fleet (capacity before demand), and malformed plans (exit 2, one line naming the field).
Each plan also keeps the invariants of tests/test_plan.py."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gpuwise.render import plan_view
from tests.clirun import gpuwise
from tests.conftest import answer_of
from tests.test_plan import _options, check_invariants

ROOT = Path(__file__).parent.parent
PLANS = ROOT / "tests" / "data" / "plans"


@pytest.fixture(scope="module")
def china():
    return answer_of("plan", PLANS / "china-team-cny.yaml")  # shared with test_screens_all (conftest)


@pytest.fixture(scope="module")
def lab():
    return answer_of("plan", PLANS / "lab-owns-enough.yaml")  # shared with test_screens_all (conftest)


@pytest.fixture(scope="module")
def growing():
    return answer_of("plan", PLANS / "growing-service.yaml")  # shared with test_screens_all (conftest)


def test_china_team_plans_in_yuan_against_a_chinese_api(china, kb):
    check_invariants(china)
    assert china.currency == "CNY" and china.total == pytest.approx(china.total_usd * china.usd_cny)
    assert china.unplaced == []
    for name, total in china.baselines.items():  # no dearer than a baseline that keeps to the constraints
        detail = next(b for b in china.baseline_details if b.name == name)
        if detail.allowed:
            assert china.total <= total * (1 + 1e-6)
    # the service is compared with the API that sells Qwen3 235B in China, at its yuan price
    api = [a for a in china.api if a.workload == "qwen3-235b-chat"]
    assert api and all(a.price_currency == "CNY" for a in api)
    assert {a.provider for a in api} == {"SiliconFlow (硅基流动)"}
    a = api[0]  # SiliconFlow: ¥2.5 in / ¥10 out per million (knowledge/apis.yaml, siliconflow.cn/pricing)
    requests = 1 * 730 * 3600 * sum(1.05 ** k for k in range(12)) / 12  # 1 req/s growing 5%, mean per month
    assert a.api_per_month == pytest.approx(requests * (1000 * 2.5 + 300 * 10.0) / 1e6, rel=1e-6)
    for p in china.purchases:  # anything bought is sold in mainland China
        entry = next(m for m in kb.prices.markets if m.gpu == p.gpu) if kb.prices.markets else None
        assert entry is None or entry.sold_in_china
    # the default electricity price is 0.15 USD/kWh in a CNY plan too, not 0.15 yuan
    power = [ln for ln in china.lines if ln.kind == "power"]
    # the 4 owned cards in one desktop (tco.yaml workstation_host_w 250 W a box): (450 + 62.5) W x $0.15 = $0.077/h;
    # at 0.15 yuan a kWh it would be $0.011/h
    assert power and all(ln.inputs["usd_per_gpu_hour"] > 0.05 for ln in power)
    text = plan_view.render(china, "text", lang="zh")
    assert "¥" in text and "SiliconFlow" in text


def test_lab_that_owns_enough_buys_nothing_and_rents_nothing(lab):
    check_invariants(lab)
    assert lab.purchases == [] and lab.answer.buy_nothing and lab.unplaced == []
    assert all(p.acquisition == "owned" for m in lab.months for p in m.placements)
    assert lab.answer.rent == [] and lab.answer.commitments == []
    # it costs what the owned fleet's hosting and power cost, nothing else
    assert {ln.kind for ln in lab.lines} <= {"hosting", "power"}
    assert lab.total <= lab.baselines["rent_all"]
    text = plan_view.render(lab, "text")
    assert "Buy nothing and rent nothing" in text and "by $0." not in text


def test_growing_service_gets_capacity_before_demand_exceeds_it(growing, kb):
    check_invariants(growing)  # among them: every month's load is carried
    assert growing.unplaced == []
    chat = next(w for w in growing.workloads if w.name == "chat-8b")
    assert chat.demand[11] == pytest.approx(2 * 300 * 1.25 ** 11, rel=1e-3)  # output tokens/s in month 12
    opts = _options(growing, "chat-8b")
    owned = {o.gpu: o.count for o in growing.owned}
    for month, demand in zip(growing.months, chat.demand, strict=True):
        # what carries the load this month: the owned fleet where it can, bought or rented beyond it
        copies = [p for p in month.placements if p.workload == "chat-8b"]
        assert sum(p.copies * opts[p.gpu].capacity for p in copies) >= demand * (1 - 1e-6)
        on_fleet = sum(p.count for p in copies if p.acquisition != "rent")
        assert on_fleet <= sum(owned.values()) + sum(pu.count for pu in growing.purchases
                                                     if pu.arrives <= month.month)
    for pu in growing.purchases:  # hardware bought arrives before the month that needs it
        first_use = min(m.month for m in growing.months for p in m.placements
                        if p.gpu == pu.gpu and p.acquisition == "buy")
        assert pu.arrives <= first_use
    outgrows = [f for f in growing.findings if f.rule == "PLAN-SERVING-OUTGROWS"]
    # the finding names the first month the 8 owned GPUs no longer carry the load (late in the year: the
    # load grows 25% a month from 600 output tokens/s), the month the placements first reach beyond them
    beyond = min(m.month for m in growing.months for p in m.placements
                 if p.workload == "chat-8b" and p.acquisition != "owned")
    assert beyond >= 10
    assert outgrows and f"month {beyond}" in outgrows[0].message
    # and names the GPU type and the counts: the fewest owned-type GPUs that month's copies need, against
    # the owned count (the owned type's copies that month x the GPUs a copy, from the plan's own options)
    (g, n_owned), = owned.items()
    copies = max(p.copies for m in growing.months if m.month == beyond for p in m.placements
                 if p.workload == "chat-8b" and p.gpu == g)
    need = outgrows[0].evidence["outgrows_gpus"]
    assert need > n_owned and need % opts[g].count == 0 and need >= copies * opts[g].count
    assert (f"the load needs {need} {kb.gpus[g].name}, more than the {n_owned} owned;"
            in outgrows[0].message)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return gpuwise(*args, cwd=ROOT)  # in this process (tests/clirun.py): the exit status and both streams


@pytest.mark.parametrize(("text", "names"), [
    ("horizon_months: twelve\nworkloads: []\n", ["horizon_months"]),
    ("horizon_months: 12\nworkloads:\n  - name: a\n    workload: {task: finetune, params_b: 1}\n"
     "    cadence: {per_month: 2, at_month: 3}\n", ["workloads[0].cadence", "exactly one"]),
    ("horizon_months: 12\nowned:\n  - {gpu: RTX 4090, count: 8, hosting: garage}\nworkloads:\n  - name: a\n"
     "    workload: {task: finetune, params_b: 1}\n    cadence: {per_month: 1}\n", ["owned[0].hosting", "garage"]),
    ("horizon_months: 12\nworkloads:\n  - name: a\n    workload: {task: inference, params_b: 1}\n"
     "    cadence: {per_month: 1}\n", ["workloads[0]", "continuous"]),
    ("horizon_months: 12\nworkloads:\n  - name: a\n    workload: {task: finetune, params_b: 1}\n"
     "    cadence: {per_month: 1}\nconstraints: {budget_per_quarter_usd: '$5000', currency: CNY}\n",
     ["USD", "CNY"]),
    ("horizon_months: 3\nowned:\n  - {gpu: RTX 4909, count: 8}\nworkloads:\n  - name: a\n"
     "    workload: {task: finetune, params_b: 1}\n    cadence: {per_month: 1}\n", ["owned[0].gpu", "4090"]),
])
def test_malformed_plan_is_exit_2_with_one_line_naming_the_field(tmp_path, text, names):
    f = tmp_path / "bad.yaml"
    f.write_text(text, encoding="utf-8")
    out = _cli("plan", str(f))
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr
    for name in names:
        assert name in lines[0], lines[0]
    assert out.stdout == ""
