"""A plan's hosting money by site (plan32): each GPU's power at its own site's PUE, one colocation contract over all
the plan hosts there (its total kW, or its minimum), and a purchase split over two sites said once.

Figures by hand from knowledge/tco.yaml (hosting.office: PUE 1.0, no rent; hosting.colocation: PUE 1.58, $250 a
kW-month, billed from min_billed_kw 2.0; electricity_usd_per_kwh_default $0.15) and knowledge/gpus.yaml (a DGX
Spark: GB10 140 W + 100 W for the rest of the system, Hot Chips 2025 / ChargerLab teardown; an RTX 4090: 450 W, with
tco.yaml's 410 W host share a GPU). The Spark's price is the NVIDIA marketplace's $3,999 (GB10_PRICE)."""

from __future__ import annotations

from collections import defaultdict

import pytest

from gpuwise.plan.build import plan

from .test_hostile_twenty_seventh import GB10_PRICE
from .test_plan_copies import SPARKS

SPARK_KW = (140 + 100) / 1000
COLO_PUE, RATE, MIN_KW, KWH = 1.58, 250.0, 2.0, 0.15


def _sparks(tmp_path, doc):
    (tmp_path / "k").mkdir(exist_ok=True)
    (tmp_path / "k" / "prices.yaml").write_text(GB10_PRICE, encoding="utf-8")
    return plan(doc, knowledge=str(tmp_path / "k"))


def _arrived(r, month: int) -> int:
    return sum(p.count for p in r.purchases if p.arrives <= month)


def test_sparks_in_colocation_draw_power_at_colocation_pue(tmp_path) -> None:
    # plan31 charged every bought Spark the first unit's power rate, the office's (PUE 1.0): the Sparks past the
    # office's 12 (3.0 kW / 0.24 kW) ran in colocation at PUE 1.0, about $15 a Spark-month too low
    # (0.24 kW x 730 h x 0.58 x $0.15 = $15.24). Now a GPU-hour there costs 0.24 x 1.58 x $0.15 = $0.056880, and the
    # office's Sparks carry the work first (0.24 x 1.0 x $0.15 = $0.036).
    r = _sparks(tmp_path, SPARKS)
    month = r.months[-1].month
    n = _arrived(r, month)
    assert n > 12
    power = [ln for ln in r.lines if ln.kind == "power" and ln.month == month]
    by_pue = defaultdict(float)
    for ln in power:
        by_pue[ln.inputs["pue"]] += ln.inputs["gpu_hours"]
        assert ln.amount == pytest.approx(ln.inputs["gpu_hours"] * SPARK_KW * ln.inputs["pue"] * KWH, rel=1e-3)
    assert set(by_pue) == {1.0, COLO_PUE}
    hours = sum(by_pue.values())
    office = min(hours, 12 * 730)  # the 12 office Sparks' hours first (tco.yaml hosting.office max_kw)
    assert by_pue[1.0] == pytest.approx(office, rel=1e-6)
    expected = SPARK_KW * KWH * (office + (hours - office) * COLO_PUE)
    assert sum(ln.amount for ln in power) == pytest.approx(expected, rel=1e-3)
    sites = {ln.item_phrases[0][2].get("site") for ln in power}
    assert sites == {"office", "colocation"}  # the lines say where their GPUs run
    assert r.months[-1].power == pytest.approx(expected, rel=1e-3)


def test_sparks_in_colocation_are_billed_one_minimum_contract(tmp_path) -> None:
    # plan31 billed each Spark in colocation its own 2 kW minimum: 6 Sparks (1.44 kW) cost 6 x 2 x $250 = $3,000 a
    # month. Colocation bills the site's kW once, max(2, kW) x $250, as recommend and audit bill one purchase's
    # machines: 6 Sparks $500, 18 Sparks (4.32 kW) $1,080.
    doc = {**SPARKS, "constraints": {**SPARKS["constraints"], "hosting": "colocation"}}
    r = _sparks(tmp_path, doc)
    held = 0
    for m in r.months:
        n = _arrived(r, m.month)
        hosting = sum(ln.amount for ln in r.lines if ln.kind == "hosting" and ln.month == m.month)
        assert hosting == pytest.approx(max(MIN_KW, n * SPARK_KW) * RATE if n else 0.0, abs=0.01), (m.month, n)
        assert m.hosting == pytest.approx(hosting, abs=0.01)
        held = max(held, n)
    assert held * SPARK_KW > MIN_KW  # the plan reaches past the minimum: billed its kW then
    one = next(m.month for m in r.months if _arrived(r, m.month) == 1)
    topup = [ln for ln in r.lines if ln.month == one and ln.item_phrases[0][1] == "item.plan.site_minimum"]
    assert [round(ln.amount, 2) for ln in topup] == [round((MIN_KW - SPARK_KW) * RATE, 2)]  # $440
    assert topup[0].item == "up to the 2 kW minimum contract (colocation)"


def test_owned_gpus_alone_in_colocation_still_pay_its_minimum() -> None:
    # one owned RTX 4090 in colocation draws 0.86 kW: billed the 2 kW minimum, $500 a month, whether the plan may buy
    # beside it (its kW, $215, and the minimum's rest, $285) or only rents (one line of $500)
    for acquisition in ("either", "rent"):
        r = plan({"horizon_months": 3, "owned": [{"gpu": "RTX 4090", "count": 1, "hosting": "colocation"}],
                  "workloads": [{"name": "chat", "workload": {"task": "inference", "model": "llama-3.1-8b",
                                                              "prompt_tokens": 1000, "output_tokens": 200},
                                 "cadence": {"continuous": True}, "targets": {"requests_per_s": 0.5}}],
                  "constraints": {"acquisition": acquisition, "gpus": ["rtx-4090"]}})
        assert not r.purchases
        for m in r.months:
            lines = [ln for ln in r.lines if ln.kind == "hosting" and ln.month == m.month]
            assert sum(ln.amount for ln in lines) == pytest.approx(MIN_KW * RATE), (acquisition, lines)
        assert r.owned[0].hosting_per_month == pytest.approx(MIN_KW * RATE)


CARDS = {"horizon_months": 6, "workloads": [
    {"name": "chat", "workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000,
                                  "output_tokens": 200}, "cadence": {"continuous": True},
     "targets": {"requests_per_s": 12}}],
    "constraints": {"acquisition": "buy", "gpus": ["rtx-4090"]}}


def test_a_months_purchase_over_two_sites_says_where_each_part_runs() -> None:
    # 5 one-card copies of Llama 3.1 8B: an office holds one desktop's 4 cards (prices.yaml max_per_node), the 5th
    # goes to colocation. plan31 printed two capex lines 'N x 1 RTX 4090 (workstation)' and two 'Buy ... in month
    # 1' sentences for the same GPU and month, neither saying where. Each says its site now; by hand: a card
    # $3,159.99 (prices.yaml, UCT 2025-07-22) + the consumer host share $800 (tco.yaml); the colocated one draws
    # 450 W + 250 W = 0.7 kW, billed $175 with the rest of the 2 kW minimum, $325.
    from gpuwise.render import plan_view

    r = plan(CARDS)
    assert sorted((p.month, p.site, p.count) for p in r.purchases) == [(1, "colocation", 1), (1, "office", 4)]
    capex = sorted((ln.item, round(ln.amount, 2)) for ln in r.lines if ln.kind == "capex")
    # the office's 4 cards one desktop of 4, as recommend prices 4 cards (plan64: they were '4 x 1', four 1-card
    # workstations each drawing its own host's 250 W; now 250 W over 4)
    assert capex == [("1 x 1 NVIDIA GeForce RTX 4090 24GB (workstation, colocation)", 3959.99),
                     ("1 x 4 NVIDIA GeForce RTX 4090 24GB (workstation, office)", round(4 * 3959.99, 2))]
    office = next(ln for ln in r.lines if ln.kind == "power" and ln.inputs["pue"] == 1.0)
    assert office.inputs["host_w"] == 250 / 4
    hosting = sorted(round(ln.amount, 2) for ln in r.lines if ln.kind == "hosting" and ln.month == 3)
    assert hosting == [0.0, 175.0, 325.0]
    text = " ".join(plan_view.render(r, "text", width=200).split())
    assert "for $15,840, hosted in an office; they run work from month 2." in text
    assert "for $3,960, hosted in colocation; they run work from month 2." in text
    zh = " ".join(plan_view.render(r, "text", width=200, lang="zh").split())
    assert "花费 $3,960，放在托管机房；从第 2 个月起投入使用。" in zh


def test_the_owned_fleets_hosting_figure_is_what_the_lines_bill() -> None:
    # one owned RTX 4090 in colocation (0.70 kW: 450 W + its desktop's 250 W, tco.yaml workstation_host_w, as one
    # bought; 0.86 kW with the server's 410 W before planleft58) beside 4 bought in month 1 that arrive in month 2.
    # Month 1 the site holds the owned card alone: its kW $175 + the 2 kW minimum's rest $325 = $500; months 2-3 the
    # site holds 0.70 + 4 x 0.7 kW, past the minimum: the owned card is billed its $175. plan32's figure billed it
    # alone every month ($500); the plan bills (500 + 175 + 175) / 3 = $283.33 a month on average.
    r = plan({"horizon_months": 3, "owned": [{"gpu": "RTX 4090", "count": 1, "hosting": "colocation"}],
              "workloads": [{"name": "chat", "workload": {"task": "inference", "model": "llama-3.1-8b",
                                                          "prompt_tokens": 1000, "output_tokens": 200},
                             "cadence": {"continuous": True}, "targets": {"requests_per_s": 12}}],
              "constraints": {"acquisition": "buy", "gpus": ["rtx-4090"], "hosting": "colocation"}})
    assert [(p.month, p.site, p.count) for p in r.purchases] == [(1, "colocation", 4)]
    assert r.owned[0].hosting_per_month == pytest.approx((0.70 * RATE + (MIN_KW - 0.70) * RATE + 2 * 0.70 * RATE) / 3)
    assert r.owned[0].hosting_per_month == pytest.approx(850 / 3)
