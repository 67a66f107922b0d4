"""Cost: renting (per GPU-hour, spot, discounts, fees) against buying (cards, server share,
power with PUE, hosting, licences, resale), and the month where buying starts to win.

Renting is billed for the hours the job runs (training) or for the whole project
(a service). Buying pays the hardware up front, power for the busy hours, hosting for the
project, and gets part of the price back by reselling at the end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..knowledge.schema import CloudFile, Gpu, TcoFile
from . import Term

HOURS_PER_MONTH = 730.0


@dataclass(frozen=True)
class Offer:
    provider: str
    instance: str | None
    gpus: int  # GPUs paid for (whole instances)
    usd_per_hour: float  # for all paid GPUs
    spot_usd_per_hour: float | None
    as_of: str
    source: str
    check: str

    @property
    def per_gpu_hour(self) -> float:
        return self.usd_per_hour / self.gpus


def _offers_by_gpu(clouds: CloudFile) -> dict[str, tuple[list, list]]:
    def make() -> dict[str, tuple[list, list]]:
        by: dict[str, tuple[list, list]] = {}
        for p in clouds.gpu_hour_prices:
            by.setdefault(p.gpu, ([], []))[0].append(p)
        for inst in clouds.instances:
            by.setdefault(inst.gpu, ([], []))[1].append(inst)
        return by

    return _derived(clouds, "offers", make)


def rent_offers(clouds: CloudFile, gpu_id: str, count: int) -> list[Offer]:
    """Every way to rent ``count`` GPUs of a type, cheapest first."""
    offers: list[Offer] = []
    per_gpu, instances = _offers_by_gpu(clouds).get(gpu_id, ([], []))
    for p in per_gpu:
        n = max(count, p.min_gpus)
        offers.append(Offer(p.provider, None, n, p.usd_per_gpu_hour * n, None, p.as_of.isoformat(),
                            p.source, p.check))
    for inst in instances:
        k = math.ceil(count / inst.gpus)
        spot = inst.spot_usd_per_hour * k if inst.spot_usd_per_hour else None
        offers.append(Offer(inst.provider, inst.id, k * inst.gpus, inst.usd_per_hour * k, spot,
                            inst.as_of.isoformat(), inst.source, inst.check))
    offers.sort(key=lambda o: (o.usd_per_hour, o.gpus))
    return offers


def discount(clouds: CloudFile, hours: float, schedule: str | None = None) -> tuple[float, str]:
    """Long-rental discount fraction under a named schedule (default: the knowledge base's)."""
    name = schedule or clouds.default_discount_schedule
    for s in clouds.discount_schedules:
        if s.id == name:
            full_periods = int(hours // (30 * 24))
            return min(s.max_discount, s.per_full_30_days * full_periods), s.id
    return 0.0, "none"


def rent_cost(offer: Offer, hours: float, clouds: CloudFile, *, spot: bool = False,
              schedule: str | None = None) -> Term:
    """Rental bill for ``hours`` of ``offer`` (spot: its price, longer by preemptions)."""
    sm = clouds.spot
    if spot:
        rate = offer.spot_usd_per_hour or offer.usd_per_hour * (1 - sm.fallback_discount)
        billed = hours * (1 + sm.restart_overhead)
        value = rate * billed
        return Term("rent_usd", value, "USD",
                    "spot $/h x hours x (1 + restart overhead)",
                    {"usd_per_hour": rate, "hours": hours, "restart_overhead": sm.restart_overhead,
                     "provider": offer.provider, "instance": offer.instance, "gpus_paid": offer.gpus,
                     "as_of": offer.as_of, "spot_price_known": offer.spot_usd_per_hour is not None})
    d, name = discount(clouds, hours, schedule)
    value = offer.usd_per_hour * hours * (1 - d)
    return Term("rent_usd", value, "USD", "$/h x hours x (1 - long-rental discount)",
                {"usd_per_hour": offer.usd_per_hour, "hours": hours, "discount": d, "schedule": name,
                 "provider": offer.provider, "instance": offer.instance, "gpus_paid": offer.gpus,
                 "as_of": offer.as_of})


@dataclass(frozen=True)
class BuyCost:
    cards: Term
    server: Term
    power: Term
    hosting: Term
    licences: Term
    resale: Term
    total: Term
    monthly_opex: float
    capex: float
    lines: dict[str, float] = field(default_factory=dict)


def server_share_key(gpu: Gpu) -> str:
    if gpu.segment == "consumer":
        return "server_share_usd_per_gpu_consumer"
    if gpu.form_factor in ("sxm", "oam", "mezzanine"):
        return "server_share_usd_per_gpu_sxm"
    return "server_share_usd_per_gpu_pcie"


_DERIVED: dict[tuple[int, str], tuple[Any, Any]] = {}


def _derived(source: Any, what: str, make: Any) -> Any:
    """Memoise a value derived from a knowledge object (they are immutable and live for the process)."""
    key = (id(source), what)
    hit = _DERIVED.get(key)
    if hit is None or hit[0] is not source:
        hit = _DERIVED[key] = (source, make())
    return hit[1]


def _resale_series(tco: TcoFile, max_months: int) -> tuple[float, ...]:
    return _derived(tco, f"resale{max_months}",
                    lambda: tuple(resale_fraction(tco, m) for m in range(max_months + 1)))


def resale_fraction(tco: TcoFile, months: float, condition: str = "new") -> float:
    per_year = tco.values["resale_fraction_per_year"].value
    floor = tco.values["resale_floor_fraction"].value
    frac = per_year ** (months / 12.0)
    if condition != "new":  # a used card has already lost its first-owner premium
        frac *= per_year
    return max(floor, frac)


def buy_cost(gpu: Gpu, count: int, *, months: float, busy_hours: float, electricity: float,
             tco: TcoFile, unit_price: float | None = None, condition: str = "new",
             licence_per_gpu_year: float = 0.0) -> BuyCost | None:
    """Owning ``count`` cards for ``months``; None when no dated price is known."""
    price = unit_price if unit_price is not None else (gpu.price.usd if gpu.price else None)
    if price is None:
        return None
    v = tco.values
    cards = Term("cards_usd", price * count, "USD", "unit price x cards",
                 {"unit_price": price, "cards": count,
                  "price_as_of": gpu.price.as_of.isoformat() if gpu.price and unit_price is None else "proposal"})
    share_key = server_share_key(gpu)
    share = v[share_key].value
    server = Term("server_usd", share * count, "USD", "server share per GPU x cards",
                  {"share_per_gpu": share, "kind": share_key})
    host_w = v["host_power_w_per_gpu"].value
    pue = v["pue"].value
    kw = (gpu.power.tdp_w + host_w) * count / 1000
    energy_kwh = kw * pue * busy_hours
    power = Term("power_usd", energy_kwh * electricity, "USD",
                 "(GPU TDP + host share) x cards x PUE x busy hours x $/kWh",
                 {"tdp_w": gpu.power.tdp_w, "host_w_per_gpu": host_w, "cards": count, "pue": pue,
                  "busy_hours": busy_hours, "usd_per_kwh": electricity, "kwh": energy_kwh})
    hosting_rate = v["hosting_usd_per_kw_month"].value
    hosting = Term("hosting_usd", kw * hosting_rate * months, "USD", "IT kW x colocation $/kW-month x months",
                   {"kw": kw, "usd_per_kw_month": hosting_rate, "months": months})
    licences = Term("licences_usd", licence_per_gpu_year * count * months / 12, "USD",
                    "licence $/GPU-year x cards x years",
                    {"usd_per_gpu_year": licence_per_gpu_year})
    frac = resale_fraction(tco, months, condition)
    resale = Term("resale_usd", -(price * count) * frac, "USD", "-(cards) x resale fraction after the project",
                  {"fraction": frac, "months": months})
    capex = cards.value + server.value
    total_value = capex + power.value + hosting.value + licences.value + resale.value
    total = Term("buy_usd", total_value, "USD", "cards + server + power + hosting + licences - resale",
                 {"capex": capex})
    monthly_opex = kw * pue * HOURS_PER_MONTH * electricity + kw * hosting_rate + licence_per_gpu_year * count / 12
    lines = {"cards": cards.value, "server": server.value, "power": power.value, "hosting": hosting.value,
             "licences": licences.value, "resale": resale.value}
    return BuyCost(cards, server, power, hosting, licences, resale, total, monthly_opex, capex, lines)


def break_even_month(rent_per_month: float, buy: BuyCost, card_price_total: float, tco: TcoFile,
                     max_months: int = 120) -> int | None:
    """First month at which renting around the clock has cost more than owning (net of resale)."""
    resale = _resale_series(tco, max_months)
    for m in range(1, max_months + 1):
        own = buy.capex + buy.monthly_opex * m - card_price_total * resale[m]
        if rent_per_month * m >= own:
            return m
    return None


def cumulative_curves(rent_per_month: float, buy: BuyCost, card_price_total: float, tco: TcoFile,
                      months: int) -> dict[str, list[float]]:
    """Cumulative cost by month (0..months) for the rent-vs-buy chart: renting around the clock,
    and owning if the cards were resold at that month (the same definition as the break-even)."""
    rent = [rent_per_month * m for m in range(months + 1)]
    own = [buy.capex + buy.monthly_opex * m - card_price_total * resale_fraction(tco, m) for m in range(months + 1)]
    return {"rent": rent, "buy": own}


def cloud_fees(clouds: CloudFile, provider_id: str | None, *, egress_tb: float, cross_region_tb: float,
               storage_kind: str, storage_tb: float, months: float) -> Term:
    """Monthly transfer and storage fees over the project (the bill's hidden part)."""
    prov = next((p for p in clouds.providers if p.id == provider_id), None)
    if prov is None:
        prov = next(p for p in clouds.providers if p.id == "aws")
    gb = egress_tb * 1000
    free = prov.egress_free_gb_per_month
    billable = max(0.0, gb - free)
    egress = 0.0
    done = 0.0
    for tier in prov.egress_tiers:
        cap = tier.up_to_tb * 1000 if tier.up_to_tb is not None else math.inf
        take = min(billable - done, cap - done) if cap > done else 0.0
        if take <= 0:
            continue
        egress += take * tier.usd_per_gb
        done += take
    cross = cross_region_tb * 1000 * prov.cross_region_usd_per_gb
    storage_rate = prov.storage_usd_per_gb_month.get(storage_kind, 0.0)
    storage = storage_tb * 1000 * storage_rate
    monthly = egress + cross + storage
    return Term("cloud_fees_usd", monthly * months, "USD",
                "months x (internet egress by tier + cross-region GB x rate + storage GB x rate)",
                {"provider": prov.id, "egress_usd_per_month": egress, "cross_region_usd_per_month": cross,
                 "storage_usd_per_month": storage, "months": months, "egress_free_gb": free,
                 "as_of": prov.as_of.isoformat()})
