"""Buying as hardware is sold: units, dated prices, hosting by deployment, networks as stated,
spot wall time, currencies and the China market (knowledge/prices.yaml, tco.yaml, clouds.yaml)."""

from __future__ import annotations

import datetime as dt

import pytest

from gpuwise.decide.recommend import recommend
from gpuwise.decide.subjects import candidate_fact
from gpuwise.errors import UserError
from gpuwise.estimators import cost as K
from gpuwise.estimators.candidate import evaluate
from gpuwise.inputs.job import resolve
from gpuwise.inputs.money import to_usd
from gpuwise.inputs.schema import Requirements, coerce, parse_money
from gpuwise.messages import phrase_text

# The catalog GPUs left without a purchase price, each with its reason in prices.yaml.
LEFT_OUT = {
    "a10g", "gb200", "p100-16gb-sxm2", "v100-16gb-sxm2", "v100-32gb-sxm2", "v100-16gb-pcie", "v100-32gb-pcie",
    "a10", "a30", "l40s", "l20", "a800-80gb-sxm", "a800-80gb-pcie", "h800-80gb-sxm", "h100-nvl-94gb",
    "h200-nvl-141gb", "mi250x", "mi250", "mi325x", "l40", "gaudi3-128gb-pcie", "gb300", "gh200-96gb", "gh200-144gb",
    "mi350x", "mi355x", "ascend-910b", "ascend-910c", "rtx-pro-6000-blackwell-max-q",
    # catalog61's cards no dated price was read for (prices61 priced the A5000, A4000, RTX 4000 / 5000 Ada,
    # 3090 Ti, 4080 SUPER, 5080, 5070 Ti and RX 7900 XTX)
    "a2", "rtx-3060-12gb", "rtx-3080", "rtx-3080-ti", "rtx-4080", "rtx-4070-ti-super", "v100s-pcie-32gb",
    "mi210", "mi100", "radeon-pro-w7900",
    # catalog64's HPC parts, neither sold nor rented as such (Leonardo's custom A100 64GB, MareNostrum 5's H100 64GB)
    "a100-64gb-sxm", "h100-64gb-sxm",
}


def _job(kb, constraints: dict, task: str = "inference", model: str = "llama-3.1-8b"):
    req = Requirements.model_validate({"workload": {"task": task, "model": model}, "constraints": constraints})
    return resolve(req, kb)


def test_two_mi300x_are_not_offered(kb):
    """MI300X OAM modules come on the 8-GPU AMD Instinct platform only (AMD product brief)."""
    gpu = kb.gpus["mi300x"]
    for n in (1, 2, 4):
        plan, why = K.buy_plan(kb.prices, gpu, n, kb.tco)
        assert plan is None and "8-GPU" in phrase_text(why) and "buy 8" in phrase_text(why)
        assert K.buy_cost(gpu, n, months=12, busy_hours=100, electricity=0.15, tco=kb.tco, prices=kb.prices) is None
    plan, why = K.buy_plan(kb.prices, gpu, 16, kb.tco)
    assert why is None and plan.units == 2 and plan.nodes == 2
    r = recommend({"workload": {"task": "inference", "model": "llama-3.1-70b"},
                   "constraints": {"acquisition": "buy", "gpus": ["mi300x"], "max_gpus": 8}})
    two = next(c for c in r.candidates if c.count == 2)
    assert not two.feasible and "MARKET-UNIT-NOT-SOLD" in two.rules
    assert two.buy_cost_usd is None
    eight = next(c for c in r.candidates if c.count == 8)
    assert eight.buy_cost_usd is not None and "MARKET-UNIT-NOT-SOLD" not in eight.rules


def test_eight_h100_sxm_are_priced_as_one_whole_hgx_server(kb):
    """Thinkmate HGX H100 8-GPU quotation of 2024-08-22: $317k with the 8x 400G NICs."""
    gpu = kb.gpus["h100-80gb-sxm"]
    plan, why = K.buy_plan(kb.prices, gpu, 8, kb.tco)
    assert why is None
    assert (plan.sold_as, plan.units, plan.unit_gpus, plan.nodes) == ("server", 1, 8, 1)
    assert plan.hardware_usd == 317_000 and plan.host_usd == 0
    assert plan.as_of == "2024-08-22" and plan.price_kind == "quote" and "Thinkmate" in plan.source
    two, _ = K.buy_plan(kb.prices, gpu, 16, kb.tco)
    assert two.units == 2 and two.hardware_usd == 2 * 317_000
    half, _ = K.buy_plan(kb.prices, gpu, 4, kb.tco)  # HGX H100 4-GPU: no own price, pro rata, said so
    assert half.hardware_usd == pytest.approx(317_000 / 2) and "pro rata" in phrase_text(half.note_phrases)
    assert K.buy_plan(kb.prices, gpu, 2, kb.tco)[0] is None
    # two servers need a network: 16 ports of NDR InfiniBand on one 64-port switch, NICs in the server price
    b = K.buy_cost(gpu, 16, months=12, busy_hours=100, electricity=0.15, tco=kb.tco, prices=kb.prices,
                   networks=kb.runtime.networks)
    fab = next(f for f in kb.prices.fabrics if f.id == "infiniband-400")
    assert b.fabric == "infiniband-400"
    assert b.network.value == pytest.approx(16 * (fab.switch_usd_per_port + fab.link_usd))


def test_a_year_of_one_rtx_4090_in_an_office_against_renting_it_around_the_clock(kb):
    """By hand. Renting: RunPod Community Cloud $0.34 per GPU-hour (runpod.io/pricing, 2026-09-25)
    x 8,760 h. Buying: $3,159.99 (Amazon listing, 2025-07-22) + $800 workstation share, 450 W card
    + 250 W host at PUE 1.0 in an office for 8,760 h at $0.15/kWh, no rent, resold at 70 % after a
    year (tco.yaml). No wholesale colocation for one home card."""
    job = _job(kb, {"project_months": 12, "electricity_usd_per_kwh": 0.15})
    ev = evaluate(job, kb.gpus["rtx-4090"], 1)
    n = ev.cost
    rent = 0.34 * 8760
    card, share = 3159.99, 800.0
    power = (450 + 250) / 1000 * 1.0 * 8760 * 0.15
    buy = card + share + power + 0.0 - card * 0.70
    assert n.rent_usd == pytest.approx(rent) and n.rent_provider == "runpod"
    assert ev.market.hosting == "office" and ev.market.hosting_assumed is True
    assert ev.buy.hosting.value == 0 and ev.buy.power.value == pytest.approx(power)
    assert n.buy_usd == pytest.approx(buy)
    assert buy < rent  # owning the card beats renting it every hour of the year
    assert n.acquisition == "buy" and n.provider is None  # a bought card has no rental place


def test_a_cny_budget_string_is_parsed_and_converted_at_the_dated_rate(kb):
    assert parse_money("¥1,500,000") == (1_500_000, "CNY")
    assert parse_money("1500000 CNY") == (1_500_000, "CNY")
    assert parse_money("$200,000") == (200_000, "USD")
    assert parse_money("150万元") == (1_500_000, "CNY")
    req = coerce(Requirements, {"workload": {"task": "inference", "model": "llama-3.1-8b"},
                                "constraints": {"budget_usd": "¥1500000"}})
    assert req.constraints.currency == "CNY" and req.constraints.budget_usd == 1_500_000
    # ECB reference rates of 2026-07-21: CNY 7.7255 and USD 1.1418 per euro, 7.7255 / 1.1418 = 6.7661
    rate = kb.tco.values["usd_cny"]
    assert rate.value == pytest.approx(7.7255 / 1.1418, abs=5e-5) and rate.as_of == dt.date(2026, 7, 21)
    usd, notes = to_usd(req, kb)
    assert usd.constraints.budget_usd == pytest.approx(1_500_000 / 6.7661)
    assert any(a.field == "constraints.currency" and "6.7661" in a.reason for a in notes)
    assert any(a.field == "constraints.market" and a.value == "china" for a in notes)
    with pytest.raises(UserError) as err:
        coerce(Requirements, {"workload": {"task": "inference", "model": "llama-3.1-8b"},
                              "constraints": {"budget_usd": "$200,000", "currency": "CNY"}})
    assert "budget_usd" in str(err.value) and "USD" in str(err.value)


def test_a_china_market_plan_naming_h100_gets_the_export_finding(kb):
    r = recommend({"workload": {"task": "inference", "model": "llama-3.1-70b"},
                   "constraints": {"acquisition": "buy", "currency": "CNY", "gpus": ["h100-sxm", "h20"],
                                   "max_gpus": 8}})
    h100 = next(c for c in r.candidates if c.gpu == "h100-80gb-sxm" and c.count == 8)
    assert not h100.feasible and "MARKET-EXPORT-BUY" in h100.rules
    assert any("cannot be bought in mainland China" in reason for reason in h100.reasons)
    h20 = next(c for c in r.candidates if c.gpu == "h20-96gb-sxm" and c.count == 8)
    assert "MARKET-EXPORT-BUY" not in h20.rules and h20.buy_cost_usd is not None
    assert r.recommendation is not None and r.recommendation.gpu == "h20-96gb-sxm"
    assert any(f.rule == "MARKET-CHINA-PART" for f in r.findings)


def test_every_gpu_a_buyer_would_consider_has_a_dated_price(kb):
    priced = {g.id for g in kb.prices.gpus}
    excluded = {e.id: e.reason for e in kb.prices.excluded}
    left_out = LEFT_OUT & set(kb.gpus)  # the 2025-26 parts join as the catalog gains them
    assert set(kb.gpus) - priced == left_out == set(excluded)
    assert all(len(reason) > 10 for reason in excluded.values())
    for g in kb.prices.gpus:
        for p in g.prices:  # 2024-26 observations; an older list price only where stated as one (RTX 4090 D)
            assert p.source and (p.as_of >= dt.date(2024, 6, 1) or p.kind == "vendor-list"), g.id
    # no launch price posing as a purchase price: a new RTX 3090 is not offered, P40 is a used card
    assert {p.condition for p in next(g for g in kb.prices.gpus if g.id == "rtx-3090").prices} == {"used"}
    assert max(p.amount for p in next(g for g in kb.prices.gpus if g.id == "p40").prices) < 1000


def test_market_facts_cover_the_catalog_and_name_the_china_parts(kb):
    markets = {m.id: m for m in kb.prices.markets}
    assert set(markets) == set(kb.gpus)
    assert {i for i, m in markets.items() if m.china_part} == {
        "l20", "a800-80gb-sxm", "a800-80gb-pcie", "h800-80gb-sxm", "h20-96gb-sxm", "h20-141gb", "rtx-4090d",
    } & set(kb.gpus)
    assert not markets["h100-80gb-sxm"].sold_in_china and not markets["rtx-4090"].sold_in_china
    assert markets["h20-96gb-sxm"].sold_in_china and markets["rtx-3090"].sold_in_china


def test_spot_wall_time_by_hand(kb):
    """clouds.yaml spot: availability 0.8, restart overhead 0.08: 100 h of work take 135 h."""
    t = K.spot_wall_hours(kb.clouds, 100)
    assert t.value == pytest.approx(100 * 1.08 / 0.8)
    job = _job(kb, {"deadline_days": 30}, task="finetune")
    ev = evaluate(job, kb.gpus["h100-80gb-sxm"], 8, spot=True)
    assert ev.cost.spot_wall_hours == pytest.approx(ev.speed.wall_hours * 1.08 / 0.8)
    fact = candidate_fact(job, ev, "rent")
    assert fact["spot"] is True and fact["spot_wall_days"] > fact["wall_days"]


def test_rented_networks_are_the_providers(kb):
    """AWS p5.48xlarge: 3,200 Gb/s EFA; Azure ND H100 v5: 8 x 400 Gb/s InfiniBand; 16 H100s at
    Lambda are a 1-Click Cluster on 400 Gb/s InfiniBand (docs.lambda.ai/public-cloud/1-click-clusters),
    while several Lambda A100 instances state no network between them, so an Ethernet-class default
    is assumed. A RunPod pod is one machine (pods reach each other at 100 Mbps,
    docs.runpod.io/pods/networking): not offered for 16."""
    offers = K.rent_offers(kb.clouds, "h100-80gb-sxm", 16)
    by = {o.instance or o.provider: o for o in offers}
    assert by["p5.48xlarge"].network == "roce-400" and "3,200" in by["p5.48xlarge"].network_stated
    assert by["Standard_ND96isr_H100_v5"].network == "infiniband-400"
    assert by["lambda"].network == "infiniband-400" and "Quantum-2" in by["lambda"].network_stated
    lam_a100 = [o for o in K.rent_offers(kb.clouds, "a100-80gb-sxm", 16) if o.provider == "lambda"]
    assert lam_a100 and lam_a100[0].network is None
    assert "runpod" not in by and any(o.provider == "runpod" for o in K.rent_offers(kb.clouds, "h100-80gb-sxm", 8))
    job = _job(kb, {"acquisition": "rent"}, task="pretrain", model="llama-3.1-8b")
    ev = evaluate(job, kb.gpus["l40s"], 16)
    assert ev.cost.rent_network == kb.clouds.default_network == "ethernet-25"
    assert ev.cost.network_assumed is True and candidate_fact(job, ev, "rent")["network_assumed"] is True


def test_street_price_per_gpu_for_proposal_comparisons(kb):
    """The HGX H100 quote ($317k for 8, 2024-08-22) is $39,625 per GPU; a 4090 card is its listing."""
    assert K.street_price(kb.prices, kb.gpus["h100-80gb-sxm"], kb.tco) == (317_000 / 8, "2024-08-22")
    assert K.street_price(kb.prices, kb.gpus["rtx-4090"], kb.tco) == (3159.99, "2025-07-22")
    assert K.street_price(kb.prices, kb.gpus["a10g"], kb.tco) is None


def test_prices_lists_reserved_and_per_gpu_spot_rates_with_their_own_dates(kb) -> None:
    """Google's 1-year commitment for a3-highgpu-8g ($61.383674 per instance-hour on Google's pricing page
    as read on 2026-09-27; 44,810.08 per 730 h in the Cloud Billing Catalog of 2025-03-06) per GPU;
    CoreWeave's HGX H100 spot node rate ($19.71/h, transcribed 2026-09-20) per GPU."""
    import datetime as dt

    from gpuwise.prices import price_rows

    rows = price_rows(kb, gpu="h100-80gb-sxm", today=dt.date(2026, 12, 1))
    res = next(r for r in rows if r.kind == "reserved" and r.item == "a3-highgpu-8g 1-year reservation")
    assert res.amount == pytest.approx(44810.08 / 730 / 8, rel=1e-4) == 61.383674 / 8
    assert res.as_of == "2026-09-27" and res.age_days == 65 and res.check == "S"
    spot = next(r for r in rows if r.kind == "spot" and r.provider == "coreweave")
    assert spot.amount == pytest.approx(19.71 / 8, rel=1e-4) and spot.as_of == "2026-09-20"


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_the_brief_names_the_prices_it_rests_on_with_their_age(fmt: str) -> None:
    """The brief's data-freshness block lists prices_used: a purchase of used RTX 3090s rests on the
    card's street price ($700, 2026-01-01: 334 days before 2026-12-01) and the consumer host share
    ($800 per GPU, dated 2019-01-01); in Chinese and yuan the same, converted at the answer's rate."""
    from gpuwise.render import report

    r = recommend({"workload": {"task": "finetune", "method": "qlora", "model": "llama-3.1-70b",
                                "train_tokens": 2.0e8},
                   "constraints": {"acquisition": "buy", "gpus": ["rtx-3090"], "max_gpus": 4}})
    used = {e.kind: e for e in r.prices_used}
    assert used["buy"].amount == 700 and used["buy"].as_of == "2026-01-01"
    assert used["host"].amount == 800 and used["host"].as_of == "2019-01-01"
    age = (dt.date.today() - dt.date(2026, 1, 1)).days
    brief = " ".join(report.render(r, fmt).split())  # the terminal's wrapping undone
    old = "!" if age > 365 else ""  # past policy price_max_age_days the brief marks it (review63)
    assert f"buy NVIDIA GeForce RTX 3090 24GB, used (2026-01-01, {age:,} days old{old})" in brief
    assert "host server (2019-01-01," in brief
    full = " ".join(report.render(r, fmt, detail="full").split())  # the amounts, in the full report
    assert f"buy NVIDIA GeForce RTX 3090 24GB, used: $700 per card (2026-01-01, {age:,} days old)" in full
    assert "host server: $800 per GPU" in full
    zh = "".join(report.render(r, fmt, lang="zh", currency="CNY", detail="full").split())
    rate = r.currency.usd_cny
    assert f"每卡¥{700 * rate:,.0f}" in zh and f"距今{age:,}天" in zh and "每卡$700" not in zh  # (its source: $700)


def test_the_docs_show_the_knowledge_bases_exchange_rate(kb) -> None:
    """docs/formats.md's example JSON carries the rate the knowledge base holds, not an older one."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "formats.md").read_text(encoding="utf-8")
    shown = [float(v) for v in re.findall(r'"usd_cny": ([0-9.]+)', text)]
    assert shown and all(v == kb.tco.values["usd_cny"].value for v in shown)
