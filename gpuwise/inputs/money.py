"""Amounts written in another currency: a file with ``constraints.currency: CNY`` has every
amount in CNY (budget, electricity price, a proposal's unit and hourly prices). They are
converted once, at load, with the knowledge base's dated rate (tco.yaml ``usd_cny``), and the
conversion is stated as an assumption. Everything downstream is USD.
"""

from __future__ import annotations

from typing import Any

from .. import messages
from ..knowledge import Knowledge
from ..results import Assumption
from .schema import Constraints


def usd_cny(kb: Knowledge) -> tuple[float, str]:
    """CNY per USD, and a short label with its date and source for messages."""
    v = kb.tco_value("usd_cny")
    when = v.as_of.isoformat() if v.as_of else "undated"
    return v.value, f"{v.value:g} CNY per USD ({when}, tco.yaml usd_cny)"


def market_of(c: Constraints) -> tuple[str, Assumption | None]:
    """``constraints.market``, or its default (china with CNY, else global) as an assumption."""
    if c.market is not None:
        return c.market, None
    market = "china" if c.currency == "CNY" else "global"
    message_id = f"assume.market.{market}"
    return market, Assumption(field="constraints.market", value=market, reason=messages.text(message_id, {}),
                              message_id=message_id, template=messages.template(message_id))


def to_usd(model: Any, kb: Knowledge) -> tuple[Any, list[Assumption]]:
    """``model`` (Requirements or Proposal) with its amounts in USD, and what was assumed.

    USD files are returned unchanged. The ``currency`` field stays as written, so reports can
    show the user's currency back."""
    c: Constraints = model.constraints
    notes: list[Assumption] = []
    _, note = market_of(c)
    if note is not None:
        notes.append(note)
    if c.currency == "USD":
        return model, notes
    rate, label = usd_cny(kb)
    changed: list[str] = []
    cons: dict[str, Any] = {}
    if c.budget_usd is not None:
        cons["budget_usd"] = c.budget_usd / rate
        changed.append(f"budget {c.budget_usd:,.0f} CNY = ${cons['budget_usd']:,.0f}")
    if c.value_of_a_day_usd is not None:
        cons["value_of_a_day_usd"] = c.value_of_a_day_usd / rate
        changed.append(f"a day {c.value_of_a_day_usd:,.0f} CNY = ${cons['value_of_a_day_usd']:,.0f}")
    if "electricity_usd_per_kwh" in c.model_fields_set:
        cons["electricity_usd_per_kwh"] = c.electricity_usd_per_kwh / rate
        changed.append(f"electricity {c.electricity_usd_per_kwh:g} CNY/kWh = ${cons['electricity_usd_per_kwh']:.3f}")
    update: dict[str, Any] = {"constraints": c.model_copy(update=cons)}
    acq = getattr(model, "acquisition", None)
    if acq is not None:
        a: dict[str, Any] = {}
        if acq.unit_price_usd is not None:
            a["unit_price_usd"] = acq.unit_price_usd / rate
            changed.append(f"unit price {acq.unit_price_usd:,.0f} CNY = ${a['unit_price_usd']:,.0f}")
        if acq.hourly_usd is not None:
            a["hourly_usd"] = acq.hourly_usd / rate
            changed.append(f"hourly price {acq.hourly_usd:g} CNY = ${a['hourly_usd']:.2f}")
        if a:
            update["acquisition"] = acq.model_copy(update=a)
    notes.append(Assumption(field="constraints.currency", value="CNY",
                            reason=f"every amount in the file is in CNY, converted at {label}"
                                   + (f": {'; '.join(changed)}" if changed else "")))
    return model.model_copy(update=update), notes
