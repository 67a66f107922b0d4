"""The prices an answer rests on, with their dates and ages: the rental offer or the purchase
price of the configuration, the host-server share added to a baseboard or card price, and the
exchange rate when a yuan figure is involved. A result's ``prices_used`` (the brief shows it).

Each is a typed record (:class:`gpuwise.results.PriceUsed`); what it prices and its unit are said
as message ids with values (reports/messages.yaml ``price.*``), their English filled from them.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ..checked import made
from ..messages import Phrase, phrase_json, phrase_text
from ..results import PriceUsed


def _entry(item: tuple[Phrase, ...], amount: float | None, currency: str, unit: tuple[Phrase, ...],
           as_of: str | dt.date | None, source: str, check: str, today: dt.date, **what: Any) -> PriceUsed:
    d = as_of.isoformat() if isinstance(as_of, dt.date) else (as_of or None)
    try:
        age = (today - dt.date.fromisoformat(d)).days if d else None
    except ValueError:  # "proposal": the proposal's own figure, not dated
        d, age = None, None
    return made(PriceUsed, dict(item=phrase_text(item), amount=amount, currency=currency, unit=phrase_text(unit),
                                as_of=d,
                     age_days=age, source=" ".join(source.split()), check=check, item_phrases=phrase_json(item),
                     unit_phrases=phrase_json(unit), **what))


def _said(message_id: str, **values: Any) -> tuple[Phrase, ...]:
    return (("", message_id, values),)


TERMS_BY_MONTHS = {1: "1-month", 12: "1-year", 36: "3-year"}
"""The rental terms a proposal's ``acquisition.months`` names; any other committed length is a ``commitment``."""


def prices_used(job: Any, ev: Any, mode: str | None, today: dt.date | None = None,
                committed_months: float | None = None) -> list[PriceUsed]:
    """What the configuration's cost was computed from (``mode``: rent or buy). ``committed_months``: the
    term an audited rental commits to; the proposal's own hourly price is the price of that term, not an
    on-demand one."""
    today = today or dt.date.today()
    kb = job.kb
    out: list[PriceUsed] = []
    yuan = job.c.currency == "CNY"
    if mode == "rent" and ev.offer is not None:
        o = ev.offer
        native = o.native_per_hour if o.native_per_hour is not None else o.usd_per_hour
        cur = o.currency if o.native_per_hour is not None else "USD"
        term = (ev.cost.rent_term if ev.cost else None) or "on-demand"
        if committed_months and o.as_of == "proposal" and term == "on-demand":
            term = TERMS_BY_MONTHS.get(int(committed_months) if float(committed_months).is_integer() else 0,
                                       "commitment")
        if term == "spot":  # the spot price billed, in USD as the offer gives it (review58: a spot rental was
            # listed at its 1-month reservation's $5.19 a GPU-hour, the term as_sold chose for its hours)
            from ..estimators.cost import spot_rate

            native, cur = spot_rate(o, kb.clouds), "USD"
            if o.spot_usd_per_hour is None:  # no published spot price: the on-demand price of this date less
                term = "spot-assumed"        # clouds.yaml spot.fallback_discount (review60: listed as 'spot')
        out.append(rent_entry(o, ev.gpu.name, term, native / o.gpus, cur, today))
        yuan = yuan or o.currency == "CNY"
    elif mode == "buy" and ev.buy is not None and ev.buy.plan is not None:
        p = ev.buy.plan
        unit = (_said("price.unit.system") if p.whole_system  # the unit the price is for (a DGX Spark: all of it)
                else _said("price.unit.card") if p.point_gpus == 1
                else _said("price.unit.gpus", n=p.point_gpus))
        out.append(_entry(_said("price.buy", gpu=ev.gpu.name, condition=p.condition, price_kind=p.price_kind),
                          p.native_amount, p.currency, unit, p.as_of, p.source, p.check, today, kind="buy",
                          gpu=ev.gpu.name, condition=p.condition, unit_gpus=p.point_gpus))
        yuan = yuan or p.currency == "CNY"
        if p.host_usd > 0:
            key = p.host_key
            v = kb.tco.values.get(key) if key else None
            if v is not None:
                out.append(host_entry(key, v, today))
    fx = kb.tco.values.get("usd_cny")
    if yuan and out and fx is not None:
        out.append(fx_entry(fx, today))
    return out


def rent_entry(o: Any, gpu_name: str, term: str, per_gpu_hour: float, currency: str, today: dt.date) -> PriceUsed:
    """A rental offer's price as the answer rests on it (``term``: on-demand, a reserved term, spot), a GPU-hour in
    ``currency``; a reserved term is dated and sourced as the offer's terms are (terms_as_of, sold_as_source)."""
    shown = o.instance.removeprefix(f"{o.provider}:") if o.instance else ""  # imported: provider:instance
    where = (_said("price.where_instance", provider=o.provider, instance=shown) if o.instance
             else _said("price.where_per_gpu", provider=o.provider))
    published = term in ("1-month", "1-year", "3-year") and o.terms_as_of  # a reserved rate, dated apart
    return _entry(_said("price.rent", gpu=gpu_name, where=where, term=term), per_gpu_hour, currency,
                  _said("price.unit.gpu_hour"), o.terms_as_of if published else o.as_of,
                  o.sold_as_source if published else o.source, o.check, today, kind="rent",
                  gpu=gpu_name, provider=o.provider, instance=o.instance or "", term=term)


def buy_entry(gpu_name: str, condition: str, price_kind: str, amount: float, currency: str, unit_gpus: int,
              as_of: str, source: str, check: str, today: dt.date) -> PriceUsed:
    """A purchase price the answer rests on: ``amount`` in ``currency`` for ``unit_gpus`` GPUs (1: a card)."""
    unit = _said("price.unit.card") if unit_gpus == 1 else _said("price.unit.gpus", n=unit_gpus)
    return _entry(_said("price.buy", gpu=gpu_name, condition=condition, price_kind=price_kind), amount, currency,
                  unit, as_of, source, check, today, kind="buy", gpu=gpu_name, condition=condition,
                  unit_gpus=unit_gpus)


def host_entry(key: str, v: Any, today: dt.date) -> PriceUsed:
    """The tco.yaml host-server share (``v``, its dated value) added to a card or baseboard price."""
    return _entry(_said("price.host", key=key), v.value, "USD", _said("price.unit.gpu"), v.as_of, v.source, v.check,
                  today, kind="host")


def fx_entry(fx: Any, today: dt.date) -> PriceUsed:
    """The dated USD-to-CNY rate a yuan figure was converted at."""
    return _entry(_said("price.fx"), fx.value, "CNY", _said("price.unit.usd"), fx.as_of, fx.source, fx.check, today,
                  kind="fx")


def alternative(e: PriceUsed) -> PriceUsed:
    """A price the audit's alternative rests on, marked so (its item reads "alternative: ...")."""
    item = _said("price.alternative", what=tuple((s, m, v) for s, m, v in e.item_phrases))
    return e.model_copy(update={"item": phrase_text(item), "item_phrases": phrase_json(item), "alternative": True})
