"""The prices a plan rests on, as recommend and audit list them (``prices_used``): each rental offer its runs and
copies are rented on (on demand, whole, or on a committed term), each GPU type it buys with the host-server share
around its cards, and the dated exchange rate where a yuan figure is involved. The plan's Data freshness block says
them with their dates and ages (the same template partial as recommend's); DATA-STALE-PRICE judges the same ones
(:func:`gpuwise.plan.judge.prices`)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from ..estimators.cost import buy_plan
from ..estimators.offers import rent_offers
from ..prices.used import buy_entry, fx_entry, host_entry, rent_entry
from ..results import PriceUsed

_TERMS = ("1-month", "1-year", "3-year")


def prices_used(pl: Any, ex: Any, today: dt.date | None = None) -> list[PriceUsed]:
    """Every dated price the plan's money lines rest on, once each, rentals first in the order the lines name them,
    then purchases; the exchange rate last where an offer or a purchase is priced in yuan or the plan is."""
    today = today or dt.date.today()
    kb, out, seen = pl.kb, [], set()
    yuan = pl.pf.constraints.currency == "CNY"
    for ln in ex.lines:
        if ln.kind != "rent" or ln.gpu not in kb.gpus:
            continue
        term = str(ln.inputs.get("term") or "on-demand")
        key = ("rent", ln.gpu, ln.provider, ln.as_of, term)
        o = None if key in seen else _offer(pl, ln.gpu, ln.provider, ln.as_of, _instance(pl, ex, ln, term))
        seen.add(key)
        if o is None:
            continue
        per_gpu = dict(o.reserved_per_hour).get(term) if term in _TERMS else None
        if per_gpu is not None:  # a reserved term's rate, in USD for all the offer's GPUs
            out.append(rent_entry(o, kb.gpus[ln.gpu].name, term, per_gpu / o.gpus, "USD", today))
        else:
            native = o.native_per_hour if o.native_per_hour is not None else o.usd_per_hour
            out.append(rent_entry(o, kb.gpus[ln.gpu].name, term, native / o.gpus,
                                  o.currency if o.native_per_hour is not None else "USD", today))
        yuan = yuan or o.currency == "CNY"
    for p in ex.purchases:
        gpu, f = kb.gpus[p.gpu], pl.fleets[p.gpu]
        if ("buy", p.gpu) in seen:
            continue
        seen.add(("buy", p.gpu))
        bp, _ = buy_plan(kb.prices, gpu, p.count, kb.tco, condition=f.condition, market=pl.market, usd_cny=pl.rate)
        if bp is not None and bp.as_of == p.as_of:  # the price point the purchase was priced at
            out.append(buy_entry(gpu.name, bp.condition, bp.price_kind, bp.native_amount, bp.currency,
                                 bp.point_gpus, bp.as_of, bp.source, bp.check, today))
            yuan = yuan or bp.currency == "CNY"
        v = kb.tco.values.get(p.host_key) if p.host_key else None
        if v is not None and ("host", p.host_key) not in seen:
            seen.add(("host", p.host_key))
            out.append(host_entry(p.host_key, v, today))
    fx = kb.tco.values.get("usd_cny")
    if yuan and out and fx is not None:
        out.append(fx_entry(fx, today))
    return out


def _instance(pl: Any, ex: Any, ln: Any, term: str) -> str | None:
    """The instance a rent line's offer names (None: a per-GPU price): the committed term's, the option's whole
    rental's, or the option's on-demand offer's, where the line's provider and date are theirs."""
    workload = next((v.get("workload") for _s, _m, v in ln.item if isinstance(v, dict) and "workload" in v), None)
    sz = next((s for s in pl.sized if s.name == workload), None)
    opt = sz.options.get(ln.gpu) if sz is not None else None
    if opt is None:
        return None
    if term in _TERMS:
        c = next((c for c in ex.commitments if c.workload == workload and c.gpu == ln.gpu and c.term == term), None)
        return c.instance if c is not None else None
    pk = getattr(opt, "rent_pack", None)
    if "rentals" in ln.inputs and pk is not None and pk.provider == ln.provider and pk.as_of == ln.as_of:
        return pk.instance
    return opt.rent_instance if opt.rent_provider == ln.provider else None


def _offer(pl: Any, g: str, provider: str, as_of: str, instance: str | None) -> Any:
    """The clouds.yaml offer of ``g`` at ``provider`` of that date (one GPU asked: a per-GPU price is the same a GPU
    at any count, an instance is its own GPUs), the named instance first."""
    found = [o for o in rent_offers(pl.kb.clouds, g, 1, pl.rate, named=provider)
             if o.provider == provider and o.as_of == as_of]
    return next((o for o in found if (o.instance or None) == (instance or None)), found[0] if found else None)


def rented_as(pl: Any, ex: Any, g: str) -> tuple[Any, ...]:
    """How the on-demand rentals of type ``g`` are sold where an offer is sold whole (an instance of several GPUs, a
    rack or node rented only whole): the type, the rentals at once (a range over its lines), the offer and its GPUs
    each, as message ids with values (reports/messages.yaml plan.rented_as*); () where every offer is by the GPU.
    recommend says the instance it rents beside the GPUs ('from aws / g6.48xlarge'); the plan's Answer said GPU-hours
    of the type alone."""
    sold: dict[tuple[str, str, int], list[float]] = {}
    for ln in ex.lines:
        if ln.kind != "rent" or ln.gpu != g or "term" in ln.inputs:
            continue
        o = _offer(pl, g, ln.provider, ln.as_of, _instance(pl, ex, ln, "on-demand"))
        count = next((v.get("count") for _s, _m, v in ln.item if isinstance(v, dict) and "count" in v), None)
        if o is None or not isinstance(count, int | float) or o.gpus <= 1:
            continue  # by the GPU (one GPU an offer): nothing sold whole to say
        shown = o.instance.removeprefix(f"{o.provider}:") if o.instance else ""
        sold.setdefault((o.provider, shown, o.gpus), []).append(count / o.gpus)
    name = pl.kb.gpus[g].name
    parts = []
    for (provider, instance, per), ns in sold.items():
        lo, hi = round(min(ns), 2), round(max(ns), 2)
        n = f"{lo:g}" if lo == hi else f"{lo:g}-{hi:g}"
        parts.append(("; " if parts else "", "plan.rented_as" if instance else "plan.rented_as_whole",
                      {"gpu": name, "n": n, "instance": instance, "provider": provider, "per": per}
                      if instance else {"gpu": name, "n": n, "provider": provider, "per": per}))
    return tuple(parts)
