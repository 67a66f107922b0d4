"""Rental offers: the ways a provider sells a GPU for hire (per GPU-hour or whole instances),
priced for the count a job needs. Kept apart from the cost ledger (cost.py) so the choice of
offer and term can grow without touching how a bill is summed."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..knowledge.schema import CloudFile

_DERIVED: dict[tuple[int, str], tuple[Any, Any]] = {}


def _derived(source: Any, what: str, make: Any) -> Any:
    """Memoise a value derived from a knowledge object (they are immutable and live for the process)."""
    key = (id(source), what)
    hit = _DERIVED.get(key)
    if hit is None or hit[0] is not source:
        hit = _DERIVED[key] = (source, make())
    return hit[1]


@dataclass(frozen=True)
class Offer:
    provider: str
    instance: str | None
    gpus: int  # GPUs paid for (whole instances)
    usd_per_hour: float  # for all paid GPUs, converted to USD
    spot_usd_per_hour: float | None
    as_of: str
    source: str
    check: str
    currency: str = "USD"  # the currency the provider prices in
    native_per_hour: float | None = None  # for all paid GPUs, in `currency`
    network: str | None = None  # runtime.yaml network id the provider states between nodes
    network_stated: str = ""
    market: str = "global"

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


def rent_offers(clouds: CloudFile, gpu_id: str, count: int, usd_cny: float | None = None,
                named: str | None = None) -> list[Offer]:
    """Every way to rent ``count`` GPUs of a type, cheapest first (in USD). CNY offers are
    converted at ``usd_cny`` (CNY per USD) and left out when no rate is given; an offer that
    cannot give ``count`` GPUs in one rental (``max_gpus``: one machine per pod) is left out,
    unless its provider is ``named`` (a proposal's own choice: several rentals joined by the
    network the provider states)."""
    offers: list[Offer] = []
    per_gpu, instances = _offers_by_gpu(clouds).get(gpu_id, ([], []))
    markets = {p.id: p.market for p in clouds.providers}
    for p in per_gpu:
        native = p.usd_per_gpu_hour if p.currency == "USD" else p.cny_per_gpu_hour
        rate = 1.0 if p.currency == "USD" else usd_cny
        if native is None or rate is None or (p.max_gpus is not None and count > p.max_gpus
                                              and p.provider != named):
            continue
        n = max(count, p.min_gpus)
        offers.append(Offer(p.provider, None, n, native * n / rate, None, p.as_of.isoformat(), p.source, p.check,
                            p.currency, native * n, p.network, p.network_stated, markets.get(p.provider, "global")))
    for inst in instances:
        native = inst.usd_per_hour if inst.currency == "USD" else inst.cny_per_hour
        rate = 1.0 if inst.currency == "USD" else usd_cny
        if native is None or rate is None:
            continue
        k = math.ceil(count / inst.gpus)
        spot = inst.spot_usd_per_hour * k if inst.spot_usd_per_hour else None
        offers.append(Offer(inst.provider, inst.id, k * inst.gpus, native * k / rate, spot, inst.as_of.isoformat(),
                            inst.source, inst.check, inst.currency, native * k, inst.network, inst.network_stated,
                            markets.get(inst.provider, "global")))
    offers.sort(key=lambda o: (o.usd_per_hour, o.gpus))
    return offers
