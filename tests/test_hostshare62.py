"""hostshare62: a workstation card (RTX A5000) bought for a desktop is charged a desktop's host, not a server's.

An RTX A5000 is a workstation-segment PCIe card (knowledge/gpus.yaml segment workstation) sold as workstation cards
(knowledge/prices.yaml units.sold_as workstation, up to max_per_node 4 in one desktop). Bought for one office
workstation it was charged tco.yaml server_share_usd_per_gpu_pcie ($4,000 a card: a 4U dual-socket PCIe server),
where a GeForce card in the same desktop is charged server_share_usd_per_gpu_consumer ($800 a card: the desktop
build). One decider (gpuwise.estimators.cost.server_share_key) now charges the desktop build in recommend, audit and
the plan, unless the user states a rack site (constraints.hosting colocation or datacenter): then the PCIe server's.

Figures: the A5000's price is prices.yaml's $1,815.99 (United-Compute gpu-price-tracker data/NVIDIA_RTX_A5000.json,
Amazon US, 2025-08-24); tco.yaml gives the shares ($800, $4,000), resale_fraction_per_year 0.70, workstation_host_w
250 W; the card's TDP is 230 W (NVIDIA RTX A5000 datasheet). Power is small beside the shares: each test takes the
GPU-hours from the answer and works the dollars by hand.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from gpuwise import recommend
from gpuwise.decide.audit import audit
from gpuwise.plan.build import plan
from gpuwise.plan.solve import fleet_for

A5000_USD = 1815.99  # prices.yaml, UCT data/NVIDIA_RTX_A5000.json, 2025-08-24
DESKTOP, SERVER = 800.0, 4000.0  # tco.yaml server_share_usd_per_gpu_consumer / _pcie
KW = (230 + 250) / 1000  # one A5000 (230 W TDP) in a desktop (tco.yaml workstation_host_w 250 W)
LORA = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "train_tokens": 2.0e7, "seq_len": 2048,
        "batch_size": 1, "gradient_checkpointing": True}
ONE_YEAR = {"workload": LORA, "constraints": {"acquisition": "buy", "gpus": ["RTX A5000"], "max_gpus": 1,
                                              "project_months": 12, "electricity_usd_per_kwh": 0.12}}


def test_the_figures_this_file_works_from(kb) -> None:
    v = kb.tco.values
    assert (v["server_share_usd_per_gpu_consumer"].value, v["server_share_usd_per_gpu_pcie"].value) == (DESKTOP, SERVER)
    assert v["resale_fraction_per_year"].value == 0.70 and v["workstation_host_w"].value == 250
    gpu = kb.gpus["rtx-a5000"]
    assert gpu.segment == "workstation" and gpu.power.tdp_w == 230
    units = next(g for g in kb.prices.gpus if g.id == "rtx-a5000").units
    assert units.sold_as == "workstation" and units.max_per_node == 4


def _one(hosting: str | None) -> object:
    q = copy.deepcopy(ONE_YEAR)
    if hosting:
        q["constraints"]["hosting"] = hosting
    return next(c for c in recommend(q).candidates if c.gpu == "rtx-a5000" and c.count == 1)


def _line(c: object, kind: str) -> float:
    return next(ln.amount for ln in c.ledger.lines if ln.kind == kind)


def test_recommend_charges_one_a5000_in_an_office_the_desktop_host() -> None:
    # card + desktop host + 0.48 kW x GPU-hours x $0.12 (office: PUE 1.0, no rent) - 0.70 x card back after a year:
    # $1,815.99 + $800 - $1,271.19 = $1,344.80 and the power. It was $4,544.80 and the power: the server's $4,000.
    c = _one(None)
    assert c.feasible
    assert _line(c, "server") == pytest.approx(DESKTOP)
    assert c.buy_cost_usd == pytest.approx(A5000_USD + DESKTOP + KW * c.gpu_hours * 0.12 - 0.70 * A5000_USD, rel=1e-6)
    assert c.buy_cost_usd == pytest.approx(1345.1, abs=0.5)
    assert _one("office").buy_cost_usd == pytest.approx(c.buy_cost_usd)


@pytest.mark.parametrize("site", ["colocation", "datacenter"])
def test_recommend_keeps_the_server_host_where_a_rack_site_is_stated(site: str) -> None:
    # stated in a rack: the card goes in a PCIe server, $4,000 of host; the card and its resale as in the office
    rack = _one(site)
    assert _line(rack, "server") == pytest.approx(SERVER)
    assert _line(rack, "capex") == pytest.approx(A5000_USD)
    assert _line(rack, "resale") == pytest.approx(-0.70 * A5000_USD)


PROPOSAL = """title: two RTX A5000 in one office workstation
workload: {task: finetune, method: lora, model: llama-3.1-8b, train_tokens: 2.0e7, seq_len: 2048, batch_size: 1,
           gradient_checkpointing: true}
hardware: {gpu: RTX A5000, count: 2}
acquisition: {mode: buy, months: 12}
constraints: {electricity_usd_per_kwh: 0.12%s}
"""


def _audited(tmp_path: Path, hosting: str = "") -> dict[str, object]:
    p = tmp_path / "p.yaml"
    p.write_text(PROPOSAL % (f", hosting: {hosting}" if hosting else ""), encoding="utf-8")
    return {ln.kind: ln for ln in audit(str(p)).proposed.ledger.lines}


def test_audit_charges_two_a5000_in_one_workstation_the_desktop_host(tmp_path: Path) -> None:
    # two cards, within a desktop's four: one workstation, 2 x $800 = $1,600 of host (was 2 x $4,000 = $8,000)
    lines = _audited(tmp_path)
    assert lines["capex"].amount == pytest.approx(2 * A5000_USD)
    assert lines["server"].amount == pytest.approx(2 * DESKTOP)
    assert "server_share_usd_per_gpu_consumer" in lines["server"].formula
    # resale: 0.70 of the two cards after 12 months
    assert lines["resale"].amount == pytest.approx(-0.70 * 2 * A5000_USD)


def test_audit_keeps_the_server_host_for_a_stated_colocation(tmp_path: Path) -> None:
    lines = _audited(tmp_path, "colocation")
    assert lines["server"].amount == pytest.approx(2 * SERVER)
    assert "server_share_usd_per_gpu_pcie" in lines["server"].formula


def _bought(hosting: str | None) -> tuple[float, dict[str, float]]:
    c = {"acquisition": "buy", "gpus": ["rtx-a5000"], "electricity_usd_per_kwh": 0.12}
    if hosting:
        c["hosting"] = hosting
    r = plan({"horizon_months": 3, "workloads": [{"name": "ft", "workload": LORA, "cadence": {"per_month": 1},
                                                  "deadline_days": 3}], "constraints": c})
    (p,) = r.purchases
    assert (p.count, p.sold_as) == (1, "workstation")
    return p.amount, next(ln for ln in r.lines if ln.kind == "capex").inputs


def test_plan_buys_an_a5000_with_the_desktop_host() -> None:
    # one card bought: $1,815.99 + $800 = $2,615.99 (was $1,815.99 + $4,000 = $5,815.99)
    amount, capex = _bought(None)
    assert amount == pytest.approx(A5000_USD + DESKTOP, abs=0.01)
    assert capex["host_usd"] == pytest.approx(DESKTOP)


def test_plan_keeps_the_server_host_for_a_stated_colocation() -> None:
    amount, capex = _bought("colocation")
    assert amount == pytest.approx(A5000_USD + SERVER, abs=0.01)
    assert capex["host_usd"] == pytest.approx(SERVER)


def test_plan_units_past_the_office_are_the_same_desktops(kb) -> None:
    # with no site stated, a plan keeps bought cards in an office while one desktop holds them and puts the rest
    # in colocation by the default rule: the same desktop, so the same $800 host (not a server because of the rule)
    gpu = kb.gpus["rtx-a5000"]
    f = fleet_for(kb, gpu, 0, "office", electricity=0.12, hosting=None, market="global", usd_cny=7.0)
    assert [u.site for u in f.units[:2]] == ["office", "colocation"]
    assert [u.parts["host_usd"] for u in f.units[:2]] == [pytest.approx(DESKTOP)] * 2
    # plan64: and one desktop of 2 to 4 cards at each (prices.yaml max_per_node 4), the same $800 a card of host
    assert [(u.gpus, u.site) for u in f.units[2:]] == [(n, s) for n in (2, 3, 4) for s in ("office", "colocation")]
    assert all(u.parts["host_usd"] == pytest.approx(DESKTOP * u.gpus) for u in f.units[2:])
    stated = fleet_for(kb, gpu, 0, "office", electricity=0.12, hosting="datacenter", market="global", usd_cny=7.0)
    assert [u.parts["host_usd"] / u.gpus for u in stated.units] == [pytest.approx(SERVER)] * len(stated.units)


def test_a_geforce_card_keeps_its_desktop_host_in_colocation(tmp_path: Path) -> None:
    # unchanged: a GeForce card's host is the desktop build's wherever it is said to run
    p = tmp_path / "p.yaml"
    p.write_text((PROPOSAL % ", hosting: colocation").replace("RTX A5000", "RTX 4090"), encoding="utf-8")
    lines = {ln.kind: ln for ln in audit(str(p)).proposed.ledger.lines}
    assert lines["server"].amount == pytest.approx(2 * DESKTOP)
