"""plan64: plan63's three leftovers.

1. Only pairs of wide runs were checked: three (or more) runs at once on a larger pool were bounded by GPU-hours alone,
   so three 2-GPU runs of 395 hours ran 'at once' on 4 cards. Now any set of runs sharing a month and a pool holds
   no more GPUs at once than it has free beside the copies (gpuwise/plan/together.py turns: lanes by width, and the
   GPUs the runs hold at evenly spaced instants of the month).
2. The plan's Answer line did not carry the host RAM its price leaves out, which recommend says beside a purchase's
   price (review60b's buy.ram_not_priced; MEM-HOST-RAM-BUY).
3. The plan bought two 1-GPU workstations where recommend prices one 2-card desktop: a card bought alone was priced
   as a desktop of its own (its host's 250 W, tco.yaml workstation_host_w, on one card); cards bought together are
   now one desktop, as recommend and audit price them (cost.machine_host_w: one host over its cards).

Figures worked by hand from the knowledge files the plan reads (RTX 4090: prices.yaml $3,159.99, UCT 2025-07-22, the
desktop host's $800 share and 250 W, tco.yaml; RunPod $0.34 a GPU-hour, clouds.yaml; RTX 5090: prices.yaml $3,059,
themoneyunlock.com 2026-01-05, TDP 575 W, gpus.yaml). Each test but the guards fails on the base (e9d34e74).
"""

from __future__ import annotations

import re

import pytest
import yaml

from gpuwise import recommend
from gpuwise.knowledge import load
from gpuwise.plan.build import plan
from gpuwise.render import plan_view
from tests.clirun import ROOT, json_of, text_of
from tests.test_plan63 import DESKTOP_W, RATE, RUNPOD, SCHEDULABLE, TDP_4090, doc, placed, report_adds_up, tune

KB = load()
OWNED_RATE = (TDP_4090 + DESKTOP_W / 2) / 1000 * RATE  # 4 owned in 2 desktops: 450 + 250 / 2 W at $0.20 = $0.115
RTX5090_USD = 3059.0  # prices.yaml rtx-5090 (themoneyunlock.com, 2026-01-05)
HOST_USD = 800.0  # tco.yaml server_share_usd_per_gpu_consumer
TDP_5090 = 575.0  # gpus.yaml power.tdp_w

OFFLOAD = {"horizon_months": 3, "workloads": [{
    "name": "tune14b", "workload": {"task": "finetune", "method": "full", "model": "qwen2.5-14b", "seq_len": 2048,
                                    "train_tokens": 1.0e8},
    "cadence": {"at_month": 2}, "deadline_days": 60}],
    "constraints": {"gpus": ["rtx-5090"], "acquisition": "buy", "max_gpus": 2}}
"""review60b's 14B full fine-tune (tests/data/review60b/recommend-2x5090-14b-offload.yaml) as a plan: on 2 RTX 5090
only with CPU offload, 14.77e9 x 16 B / 0.8 = 295.4 GB of host RAM a node, the desktop priced holding 48 x 2 = 96."""


def test_three_runs_on_four_owned_cards_never_run_at_once():
    """Three 2-GPU runs of 394.8 hours in month 2 on 4 owned RTX 4090 in 2 desktops (a run spans one): two at once fill
    the 4 cards, and each is longer than half the month's 657 schedulable hours, so all three would hold their GPUs at
    mid-month, 6 > 4. The base ran all three there (pairs fit: 2 x 2 <= 4; the hours row 3 x 789.6 = 2,369 of 4 x 657
    = 2,628 GPU-hours): 6 x 394.8 x $0.115 = $272.41. Now two there and one rented: 4 x 394.8 x $0.115 + 2 x 394.8 x
    $0.34 = $450.07."""
    r = plan(doc([tune("a"), tune("b"), tune("c")], owned=4, servers=2))
    o = next(o for o in r.options if o.workload == "a")
    assert o.count == 2 and SCHEDULABLE / 2 < o.wall_hours < SCHEDULABLE
    assert sorted(a for _, a, _ in placed(r)) == ["owned", "owned", "rent"]
    assert r.total == pytest.approx(4 * o.wall_hours * OWNED_RATE + 2 * o.wall_hours * RUNPOD, abs=0.02)


def test_five_runs_of_250_hours_fit_two_lanes_of_two():
    """Five 2-GPU runs of 250.1 hours (3.04e9 tokens) on the same 4 cards: 2 at once, and 2 x 250.1 = 500 <= 657 but
    3 x 250.1 = 750 > 657 one after the other, so a lane holds two: four runs. The hours row let all five (5 x 500 =
    2,501 of 2,628 GPU-hours), and so do two lanes of 657 hours (1,250 <= 1,314) by stopping one midway; each run is
    whole. At the instants 219 and 438 hours every run of more than 219 holds its GPUs at one: 5 x 2 > 2 x 4."""
    r = plan(doc([tune(c, 3.04e9) for c in "abcde"], owned=4, servers=2))
    o = next(o for o in r.options if o.workload == "a")
    assert o.count == 2 and SCHEDULABLE / 3 < o.wall_hours <= SCHEDULABLE / 2
    assert sorted(a for _, a, _ in placed(r)) == ["owned"] * 4 + ["rent"]
    assert r.total == pytest.approx(8 * o.wall_hours * OWNED_RATE + 2 * o.wall_hours * RUNPOD, abs=0.02)


def test_three_shorter_runs_still_share_the_four_cards():
    """Guard: three 2-GPU runs of 296.2 hours (3.6e9 tokens): two one after the other in one pair of cards (592 <= 657)
    and the third beside them; all three on the owned cards, as on the base: 6 x 296.2 x $0.115."""
    r = plan(doc([tune(c, 3.6e9) for c in "abc"], owned=4, servers=2))
    o = next(o for o in r.options if o.workload == "a")
    assert 2 * o.wall_hours <= SCHEDULABLE < 3 * o.wall_hours
    assert sorted(a for _, a, _ in placed(r)) == ["owned"] * 3
    assert r.total == pytest.approx(6 * o.wall_hours * OWNED_RATE, abs=0.02)


def test_buying_only_three_long_runs_buys_six_cards():
    """Buying only, the three 394.8-hour runs: all three hold their GPUs at mid-month, so 6 cards; the base bought 4
    (the hours row: 2,369 of 4 x 657 GPU-hours)."""
    r = plan(doc([tune("a"), tune("b"), tune("c")], acquisition="buy"))
    assert sum(b.count for b in r.purchases) == 6
    assert placed(r) == [("a", "buy", 1.0), ("b", "buy", 1.0), ("c", "buy", 1.0)]


def test_the_answer_says_the_host_ram_its_price_leaves_out(tmp_path):
    """The purchase's sentence says what recommend says beside its price: the desktop priced holds about 48 x 2 = 96
    GB (tco.yaml desktop_host_ram_gb_per_gpu), 295.4 - 96 = 199 GB more a node is not priced; the JSON's purchase
    carries it as phrases, and Chinese says it too. The base said it only among the Findings."""
    path = tmp_path / "offload.yaml"
    path.write_text(yaml.safe_dump(OFFLOAD))
    d = json_of(tmp_path, "plan", str(path))
    (p,) = d["purchases"]
    said = ("(the host priced holds about 96 GB of RAM; the 199 GB more a node its CPU offload needs is not in this "
            "price)")
    assert p["buy_ram_said"] == " " + said
    assert p["buy_ram_said_phrases"][0][1] == "buy.ram_not_priced"
    assert p["buy_ram_said_phrases"][0][2]["typical_gb"] == pytest.approx(
        2 * KB.tco.values["desktop_host_ram_gb_per_gpu"].value)
    answer = " ".join(text_of(tmp_path, "plan", str(path)).split("=== Against")[0].split())
    assert re.search(r"for \$7,718 " + re.escape(said) + "; they run work from month 2", answer), answer
    zh = plan_view.render(plan(OFFLOAD), "text", width=400, lang="zh")
    assert "花费 $7,718（所计价的主机约有 96 GB 内存；CPU 卸载每节点还需的 199 GB 不在此价格内）；从第 2 个月起" in zh


def test_no_ram_words_where_nothing_is_offloaded():
    """Guard: the LoRA runs keep their state on the GPUs: no purchase says anything of host RAM."""
    r = plan(doc([tune("a"), tune("b")], acquisition="buy"))
    assert r.purchases and all(p.buy_ram_said == "" and p.buy_ram_said_phrases == [] for p in r.purchases)


def test_the_plan_buys_the_desktop_recommend_prices():
    """The same two RTX 5090 for the same run: recommend prices one 2-card desktop, 2 x $3,059 + 2 x $800 = $7,718,
    its host's 250 W over 2 cards; the plan bought 2 x 1-GPU workstations, each its own host's 250 W (39 GPU-hours x
    (575 + 250) W x $0.15 = $4.83). Now one 2-GPU workstation, 39 x (575 + 125) W x $0.15 = $4.09: recommend's power
    line for the same busy hours."""
    r = plan(OFFLOAD)
    (p,) = r.purchases
    assert (p.count, p.units, p.unit_gpus, p.sold_as, p.site) == (2, 1, 2, "workstation", "office")
    assert p.amount == pytest.approx(2 * (RTX5090_USD + HOST_USD))
    (power,) = [ln for ln in r.lines if ln.kind == "power"]
    rate = power.inputs["usd_per_kwh"]  # the default $0.15 a kWh, as recommend's
    assert power.inputs["host_w"] == DESKTOP_W / 2
    assert power.amount == pytest.approx(power.inputs["gpu_hours"] * (TDP_5090 + DESKTOP_W / 2) / 1000 * rate, abs=1e-3)
    rec = recommend(yaml.safe_load((ROOT / "tests/data/review60b/recommend-2x5090-14b-offload.yaml").read_text()))
    lines = {ln.kind: ln for ln in rec.recommendation.ledger.lines}
    assert lines["capex"].amount + lines["server"].amount == pytest.approx(p.amount)
    busy = 2 * lines["power"].inputs["busy_hours"]  # its two cards' GPU-hours
    assert power.inputs["gpu_hours"] == pytest.approx(busy, abs=0.01)
    assert power.amount == pytest.approx(lines["power"].amount, abs=0.01)
    assert lines["power"].inputs["usd_per_kwh"] == rate and lines["power"].inputs["host_w"] == DESKTOP_W
    text = " ".join(plan_view.render(r, "text", width=200).split())
    assert "in month 1 (1 × 2-GPU workstation) for $7,718" in text


@pytest.mark.parametrize("case", ["owned3x", "buy3x", "offload"])
def test_the_plan_report_adds_up(tmp_path, case):
    """JSON totals, the full and brief text's cash flow, on this branch's cases (test_plan63's checks)."""
    d = {"owned3x": doc([tune("a"), tune("b"), tune("c")], owned=4, servers=2),
         "buy3x": doc([tune("a"), tune("b"), tune("c")], acquisition="buy"), "offload": OFFLOAD}[case]
    report_adds_up(tmp_path, case, d)
