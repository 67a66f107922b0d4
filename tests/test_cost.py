"""Cost estimator: renting, discounts, spot, buying, break-even and cloud fees, by hand."""

from __future__ import annotations

import datetime as dt

import pytest

from gpuwise.estimators.cost import (
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
    """The figures, written out (knowledge files of 2026-11):
    cards    4 x $3,159.99 (prices.yaml: RTX 4090, Amazon listing 2025-07-22)          = $12,639.96
    server   4 x $800 (tco.yaml server_share_usd_per_gpu_consumer)                        =  $3,200.00
    IT load  4 x 450 W (RTX 4090 TDP, NVIDIA spec) + 250 W workstation host        = 2.05 kW
    power    2.05 kW x PUE 1.58 x 1,000 busy hours x $0.15/kWh                            =    $485.85
    hosting  max(2.05, 2.0 minimum billed) kW x $250/kW-month (colocation retail) x 12 =  $6,150.00
    resale   -$12,639.96 x 0.7 (one year at 0.70 kept per year)                           = -$8,847.97
    total                                                                                 = $13,627.84
    """
    b = buy_cost(kb.gpus["rtx-4090"], 4, months=12, busy_hours=1000, electricity=0.15, tco=kb.tco,
                 prices=kb.prices, networks=kb.runtime.networks, hosting="colocation")
    assert b.plan.sold_as == "workstation" and b.plan.nodes == 1
    assert b.it_kw == pytest.approx(2.05)
    items = ("cards", "server", "network", "power", "hosting", "licences", "resale")
    assert {k: getattr(b, k).value for k in items} == pytest.approx(
        {"cards": 12_639.96, "server": 3_200.00, "network": 0.0, "power": 485.85, "hosting": 6_150.00,
         "licences": 0.0, "resale": -8_847.972})
    assert b.total.value == pytest.approx(13_627.838)


def test_resale_never_below_floor(kb):
    floor = kb.tco.values["resale_floor_fraction"].value
    assert resale_fraction(kb.tco, 600) == pytest.approx(floor)
    assert resale_fraction(kb.tco, 12) == pytest.approx(max(floor, kb.tco.values["resale_fraction_per_year"].value))


def test_break_even_month(kb):
    """By hand: an 8 x H100 SXM server bought at $317,000 (prices.yaml), running costs of
    $3,756.33 a month (power and colocation over 36 months), resale at 0.7 a year, i.e.
    0.7 ** (1/12) = 0.970714 kept after one month. Owning for one month costs
    317,000 + 3,756.33 - 317,000 x 0.970714 = $13,039.84; renting 8 GPUs at $2.69/h for a
    month (730 h) costs $15,709.60, more: renting loses from month 1."""
    gpu = kb.gpus["h100-80gb-sxm"]
    b = buy_cost(gpu, 8, months=36, busy_hours=36 * 730, electricity=0.15, tco=kb.tco, prices=kb.prices)
    assert b.plan.sold_as == "server" and b.plan.units == 1
    assert b.capex == pytest.approx(317_000)
    assert b.monthly_opex == pytest.approx(3_756.33, abs=0.01)
    assert resale_fraction(kb.tco, 1) == pytest.approx(0.970714, abs=1e-6)
    assert break_even_month(8 * 2.69 * 730, b, b.cards.value, kb.tco) == 1
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



def test_storage_a_provider_does_not_list_is_not_free(kb):
    """An audit's alternative carries the proposal's storage to another provider. Nebius lists only
    object storage ($0.0147 per GiB-month), Lambda only filesystems ($0.20 per GiB-month, clouds.yaml; both per GiB,
    so / 1.073741824 per GB: review56): 10 TB
    of premium SSD at Nebius or of object storage at Lambda is charged at the kind they do list
    (it was charged nothing, which made them look cheaper)."""
    neb = cloud_fees(kb.clouds, "nebius", egress_tb=0, cross_region_tb=0, storage_kind="premium-ssd",
                     storage_tb=10, months=2)
    assert neb.inputs["storage_usd_per_month"] == pytest.approx(10_000 * 0.0147 / 1.073741824)  # $136.90
    assert neb.value == pytest.approx(2 * 10_000 * 0.0147 / 1.073741824) and neb.inputs["storage_priced_as"] == "object"
    lam = cloud_fees(kb.clouds, "lambda", egress_tb=0, cross_region_tb=0, storage_kind="object",
                     storage_tb=10, months=1)
    assert lam.inputs["storage_usd_per_month"] == pytest.approx(10_000 * 0.20 / 1.073741824)
    aws = cloud_fees(kb.clouds, "aws", egress_tb=0, cross_region_tb=0, storage_kind="object",
                     storage_tb=10, months=1)  # a kind the provider lists: its own rate, $0.023
    assert aws.inputs["storage_usd_per_month"] == pytest.approx(10_000 * 0.023)
    assert aws.inputs["storage_priced_as"] == "object"

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
