"""Cost estimator: renting, discounts, spot, buying, break-even and cloud fees, by hand."""

from __future__ import annotations

import datetime as dt

import pytest

from engine.estimators.cost import (
    Offer,
    break_even_month,
    buy_cost,
    cloud_fees,
    discount,
    rent_cost,
    rent_offers,
    resale_fraction,
)


def test_article_discount_schedule(kb):
    """The seed article's calculator: 10% per full 30 days, at most 30% (selectable, not the default)."""
    c = kb.clouds
    assert discount(c, 29 * 24, "article-a1")[0] == 0
    assert discount(c, 30 * 24, "article-a1")[0] == pytest.approx(0.10)
    assert discount(c, 65 * 24, "article-a1")[0] == pytest.approx(0.20)
    assert discount(c, 400 * 24, "article-a1")[0] == pytest.approx(0.30)
    assert discount(c, 400 * 24)[0] == 0  # default: no such discount (no provider offers it)


def test_rent_cost_by_hand(kb):
    offer = Offer("x", None, 8, 8 * 2.69, None, "2026-09-25", "s", "S")
    assert rent_cost(offer, 100, kb.clouds).value == pytest.approx(8 * 2.69 * 100)
    spot = rent_cost(Offer("aws", "p5", 8, 55.04, 30.24, "2026-03-01", "s", "S"), 100, kb.clouds, spot=True)
    assert spot.value == pytest.approx(30.24 * 100 * (1 + kb.clouds.spot.restart_overhead))


def test_cheapest_offer_pays_whole_instances(kb):
    """A 1-GPU job on an 8-GPU-only shape pays for 8 GPUs."""
    offers = rent_offers(kb.clouds, "h100-80gb-sxm", 1)
    assert offers == sorted(offers, key=lambda o: (o.usd_per_hour, o.gpus))
    for o in offers:
        assert o.gpus >= 1 and o.usd_per_hour > 0
    node_only = [o for o in offers if o.instance == "p5.48xlarge"]
    assert node_only and node_only[0].gpus == 8


def test_buy_cost_lines_by_hand(kb):
    """Four RTX 4090s in one workstation, hosted in a colocation rack (retail rate, a few kW)."""
    gpu = kb.gpus["rtx-4090"]
    v = kb.tco.values
    colo = kb.tco.hosting["colocation"]
    b = buy_cost(gpu, 4, months=12, busy_hours=1000, electricity=0.15, tco=kb.tco, prices=kb.prices,
                 networks=kb.runtime.networks, hosting="colocation")
    price = 3159.99  # prices.yaml: UCT Amazon listing, 2025-07-22
    assert b.plan.sold_as == "workstation" and b.plan.nodes == 1
    assert b.cards.value == pytest.approx(4 * price)
    assert b.server.value == 4 * v["server_share_usd_per_gpu_consumer"].value
    kw = (4 * gpu.power.tdp_w + v["workstation_host_w"].value) / 1000
    assert b.it_kw == pytest.approx(kw)
    assert b.power.value == pytest.approx(kw * colo.pue * 1000 * 0.15)
    # 2.05 kW is far below the 250 kW wholesale threshold: the retail rate, at least the minimum billed kW
    assert b.hosting.value == pytest.approx(max(kw, colo.min_billed_kw) * colo.rent_usd_per_kw_month * 12)
    assert b.resale.value == pytest.approx(-4 * price * resale_fraction(kb.tco, 12))
    assert b.lines["network"] == 0
    assert b.total.value == pytest.approx(sum(b.lines.values()))


def test_resale_never_below_floor(kb):
    floor = kb.tco.values["resale_floor_fraction"].value
    assert resale_fraction(kb.tco, 600) == pytest.approx(floor)
    assert resale_fraction(kb.tco, 12) == pytest.approx(max(floor, kb.tco.values["resale_fraction_per_year"].value))


def test_break_even_month(kb):
    gpu = kb.gpus["h100-80gb-sxm"]
    b = buy_cost(gpu, 8, months=36, busy_hours=36 * 730, electricity=0.15, tco=kb.tco, prices=kb.prices)
    assert b.plan.sold_as == "server" and b.plan.units == 1
    month = break_even_month(8 * 2.69 * 730, b, b.cards.value, kb.tco)
    assert month is not None
    own = b.capex + b.monthly_opex * month - b.cards.value * resale_fraction(kb.tco, month)
    assert 8 * 2.69 * 730 * month >= own
    prev = month - 1
    own_prev = b.capex + b.monthly_opex * prev - b.cards.value * resale_fraction(kb.tco, prev)
    assert prev == 0 or 8 * 2.69 * 730 * prev < own_prev
    assert break_even_month(1.0, b, b.cards.value, kb.tco) is None  # renting at $1/month never loses


def test_aws_egress_tiers(kb):
    """AWS: first 100 GB/month free, then $0.09/GB (reference cloud.md section 5)."""
    fee = cloud_fees(kb.clouds, "aws", egress_tb=1.0, cross_region_tb=0, storage_kind="object", storage_tb=0,
                     months=1)
    assert fee.inputs["egress_usd_per_month"] == pytest.approx(900 * 0.09)
    cross = cloud_fees(kb.clouds, "aws", egress_tb=0, cross_region_tb=2, storage_kind="object", storage_tb=0,
                       months=3)
    aws = next(p for p in kb.clouds.providers if p.id == "aws")
    assert cross.value == pytest.approx(2000 * aws.cross_region_usd_per_gb * 3)


def test_prices_are_dated(kb):
    for inst in kb.clouds.instances:
        assert isinstance(inst.as_of, dt.date) and inst.source
    for g in kb.prices.gpus:
        for p in g.prices:
            assert isinstance(p.as_of, dt.date) and p.source


def test_cny_offers_are_converted_and_need_a_rate(kb):
    """AutoDL prices in CNY: converted at tco.yaml usd_cny, left out without a rate."""
    rate = kb.tco.values["usd_cny"].value
    with_rate = [o for o in rent_offers(kb.clouds, "rtx-4090", 1, rate) if o.provider == "autodl"]
    assert with_rate and with_rate[0].currency == "CNY"
    assert with_rate[0].usd_per_hour == pytest.approx(1.98 / rate)
    assert not [o for o in rent_offers(kb.clouds, "rtx-4090", 1) if o.provider == "autodl"]
