"""The prices an answer rests on, with their dates and ages: the rental offer or the purchase
price of the configuration, the host-server share added to a baseboard or card price, and the
exchange rate when a yuan figure is involved. A result's ``prices_used`` (the brief shows it).
"""

from __future__ import annotations

import datetime as dt
from typing import Any


def _entry(item: str, amount: float | None, currency: str, unit: str, as_of: str | dt.date | None, source: str,
           check: str, today: dt.date, **what: Any) -> dict[str, Any]:
    d = as_of.isoformat() if isinstance(as_of, dt.date) else (as_of or None)
    try:
        age = (today - dt.date.fromisoformat(d)).days if d else None
    except ValueError:  # "proposal": the proposal's own figure, not dated
        d, age = None, None
    return {"item": item, "amount": amount, "currency": currency, "unit": unit, "as_of": d, "age_days": age,
            "source": " ".join(source.split()), "check": check, **what}


def prices_used(job: Any, ev: Any, mode: str | None, today: dt.date | None = None) -> list[dict[str, Any]]:
    """What the configuration's cost was computed from (``mode``: rent or buy)."""
    today = today or dt.date.today()
    kb = job.kb
    out: list[dict[str, Any]] = []
    yuan = job.c.currency == "CNY"
    if mode == "rent" and ev.offer is not None:
        o = ev.offer
        where = f"{o.provider} {o.instance}" if o.instance else f"{o.provider} per GPU-hour"
        native = o.native_per_hour if o.native_per_hour is not None else o.usd_per_hour
        cur = o.currency if o.native_per_hour is not None else "USD"
        term = (ev.cost.rent_term if ev.cost else None) or "on-demand"
        published = term in ("1-month", "1-year", "3-year") and o.terms_as_of  # a reserved rate, dated apart
        out.append(_entry(f"rent {ev.gpu.name} ({where}, {term})", native / o.gpus, cur, "per GPU-hour",
                          o.terms_as_of if published else o.as_of, o.sold_as_source if published else o.source,
                          o.check, today, kind="rent", gpu=ev.gpu.name, provider=o.provider,
                          instance=o.instance or "", term=term))
        yuan = yuan or o.currency == "CNY"
    elif mode == "buy" and ev.buy is not None and ev.buy.plan is not None:
        p = ev.buy.plan
        unit = "per card" if p.point_gpus == 1 else f"per {p.point_gpus}-GPU unit"  # the unit the price is for
        out.append(_entry(f"buy {ev.gpu.name} ({p.condition}, {p.price_kind})", p.native_amount, p.currency, unit,
                          p.as_of, p.source, p.check, today, kind="buy", gpu=ev.gpu.name, condition=p.condition,
                          unit_gpus=p.point_gpus))
        yuan = yuan or p.currency == "CNY"
        if p.host_usd > 0:
            key = p.host_key
            v = kb.tco.values.get(key) if key else None
            if v is not None:
                out.append(_entry(f"host server share ({key})", v.value, "USD", "per GPU", v.as_of, v.source,
                                  v.check, today, kind="host"))
    fx = kb.tco.values.get("usd_cny")
    if yuan and out and fx is not None:
        out.append(_entry("USD to CNY exchange rate", fx.value, "CNY", "per USD", fx.as_of, fx.source, fx.check,
                          today, kind="fx"))
    return out
