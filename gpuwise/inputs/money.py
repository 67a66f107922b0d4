"""Amounts written in another currency: a file with ``constraints.currency: CNY`` has every
amount in CNY (budget, electricity price, a proposal's unit and hourly prices). They are
converted once, at load, with the knowledge base's dated rate (tco.yaml ``usd_cny``), and the
conversion is stated as an assumption. Everything downstream is USD.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .. import messages
from ..checked import made
from ..errors import N_, UserError
from ..knowledge import Knowledge
from ..results import Assumption
from .schema import Constraints


def usd_cny(kb: Knowledge) -> tuple[float, str]:
    """CNY per USD, and a short label with its date and source for messages."""
    v = kb.tco_value("usd_cny")
    when = v.as_of.isoformat() if v.as_of else "undated"
    return v.value, f"{v.value:g} CNY per USD ({when}, tco.yaml usd_cny)"


GIVEN_RATE = messages.template("source.fx_given")
"""The source of the rate ``--fx-rate`` puts in the knowledge base's place."""

MAX_FX_RATE = 1e6
"""The most CNY per USD a rate given may be, and 1 / it the least (``--fx-rate``, ``fx_rate=``)."""


def checked_rate(fx_rate: Any) -> float:
    """``fx_rate`` as the Python API takes it: a finite number from 1e-06 to 1e+06, else the package's one-line
    error naming it. ``gpuwise.plan(fx_rate=0)`` stopped with a ZeroDivisionError from inside the plan, 'abc' with
    a ValueError, and NaN or -1 priced every amount with it."""
    if isinstance(fx_rate, bool) or not isinstance(fx_rate, (int, float)):
        raise UserError(N_("%(given)s is not a number"), values={"given": repr(fx_rate)[:40]}, where="fx_rate")
    if not 1 / MAX_FX_RATE <= fx_rate <= MAX_FX_RATE:  # NaN fails both comparisons
        raise UserError(N_("%(given)s is not a rate of CNY per USD from %(min)s to %(max)s"), where="fx_rate",
                        values={"given": repr(fx_rate)[:40], "min": f"{1 / MAX_FX_RATE:g}", "max": f"{MAX_FX_RATE:g}"})
    return float(fx_rate)


def with_rate(kb: Knowledge, fx_rate: float | None) -> Knowledge:
    """The knowledge base with the rate given on the command line (``--fx-rate``, CNY per USD) as tco.yaml's
    ``usd_cny``, dated today: a yuan file's amounts are converted at it, the result carries it, and the
    data-freshness rules judge it, as they judge the dated rate it replaces (without it a report in yuan
    converted the file's budget at one rate and printed it at another, and told the user who gave today's
    rate to give it)."""
    if fx_rate is None:
        return kb
    v = kb.tco.values.get("usd_cny")
    given = {"value": checked_rate(fx_rate), "as_of": None, "source": GIVEN_RATE,
             "check": "U"}
    if v is None:  # tco.yaml always dates one; its schema module is not imported on every start (~35 ms)
        from ..knowledge.schema.tco import SourcedValue
        v = SourcedValue(unit="CNY per USD", **given)
    mine = v.model_copy(update=given)
    return dataclasses.replace(kb, tco=kb.tco.model_copy(update={"values": {**kb.tco.values, "usd_cny": mine}}))


def market_of(c: Constraints) -> tuple[str, Assumption | None]:
    """``constraints.market``, or its default (china with CNY, else global) as an assumption."""
    if c.market is not None:
        return c.market, None
    market = "china" if c.currency == "CNY" else "global"
    message_id = f"assume.market.{market}"
    return market, made(Assumption, dict(field="constraints.market", value=market, reason=messages.text(message_id, {}),
                              message_id=message_id, template=messages.template(message_id)))


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
    rate = usd_cny(kb)[0]
    when = kb.tco_value("usd_cny").as_of
    changed: list[messages.Phrase] = []  # each converted amount, a phrase part (worded in the report's language)

    def convert(message_id: str, cny: float, usd: float) -> None:
        changed.append(("; " if changed else "", message_id, {"cny": cny, "usd": usd}))

    cons: dict[str, Any] = {}
    if c.budget_usd is not None:
        cons["budget_usd"] = c.budget_usd / rate
        convert("convert.budget", c.budget_usd, cons["budget_usd"])
    if c.value_of_a_day_usd is not None:
        cons["value_of_a_day_usd"] = c.value_of_a_day_usd / rate
        convert("convert.day", c.value_of_a_day_usd, cons["value_of_a_day_usd"])
    if "electricity_usd_per_kwh" in c.model_fields_set:
        cons["electricity_usd_per_kwh"] = c.electricity_usd_per_kwh / rate
        convert("convert.electricity", c.electricity_usd_per_kwh, cons["electricity_usd_per_kwh"])
    update: dict[str, Any] = {"constraints": c.model_copy(update=cons)}
    acq = getattr(model, "acquisition", None)
    if acq is not None:
        a: dict[str, Any] = {}
        if acq.unit_price_usd is not None:
            a["unit_price_usd"] = acq.unit_price_usd / rate
            convert("convert.unit_price", acq.unit_price_usd, a["unit_price_usd"])
        if acq.hourly_usd is not None:
            a["hourly_usd"] = acq.hourly_usd / rate
            convert("convert.hourly", acq.hourly_usd, a["hourly_usd"])
        if a:
            update["acquisition"] = acq.model_copy(update=a)
    given = kb.tco_value("usd_cny").source == GIVEN_RATE  # --fx-rate's, not tco.yaml's
    message_id = ("assume.currency.converted" if changed else "assume.currency") + (".given" if given else "")
    values: dict[str, Any] = {"rate": rate, "as_of": when.isoformat() if when else "undated"}
    if changed:
        values |= {"converted": messages.phrase_text(changed), "converted_phrases": messages.phrase_json(changed)}
    notes.append(made(Assumption, dict(field="constraints.currency", value="CNY",
                                       reason=messages.text(message_id, values),
                            message_id=message_id, template=messages.template(message_id), values=values)))
    return model.model_copy(update=update), notes
