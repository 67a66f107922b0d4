"""A commitment price in a catalog CSV: gpuwise's own layout's ``term`` column.

A row whose ``term`` is ``1-month``, ``1-year`` or ``3-year`` is the reserved rate of an instance whose on-demand
price the file also gives (the row with the same instance and GPU and no term). It becomes that overlay offer's
``reserved_per_hour``, dated and sourced by its own row (``terms_as_of``, ``sold_as_source``), so the cost step
bills it only to a job that fills the term (docs/knowledge.md, Rentals as they are sold). It is never an offer of
its own: read as one, a 1-year rate of $1.80 a GPU-hour priced a 3-hour job at $46 where the term costs $126,144
(review63).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ..errors import N_, Said
from ..frozen import record

TERMS = ("1-month", "1-year", "3-year")
"""The terms clouds.yaml ``reserved_per_hour`` holds."""

_ON_DEMAND = {"", "on-demand", "ondemand"}


def row_term(cell: str | None) -> str:
    """The row's term as the overlay names it (``on-demand`` for an empty cell); another word is refused, the
    terms offered."""
    text = (cell or "").strip()
    word = "-".join(text.lower().split())  # 'On demand', '1 year' as the overlay writes them
    if word in _ON_DEMAND:
        return "on-demand"
    if word in TERMS:
        return word
    raise Said(N_("term %(term)r is not on-demand, 1-month, 1-year or 3-year"), term=text[:40])


@record
class TermPrice:
    """A reserved rate read from a row: the whole instance's price an hour over the term."""

    price: float
    currency: str
    as_of: dt.date
    source: str
    line: int


def keep(terms: dict[tuple[Any, str], TermPrice], key: Any, term: str, tp: TermPrice) -> None:
    """The cheapest row of an instance's term (several locations), as the on-demand rows keep theirs."""
    old = terms.get((key, term))
    if old is None or tp.price < old.price:
        terms[(key, term)] = tp


def attach(best: dict[Any, Any], terms: dict[tuple[Any, str], TermPrice]) -> list[tuple[int, str, Said]]:
    """Each term's rate put on its instance's on-demand offer (``reserved``, ``terms_as_of`` the oldest of its
    terms' dates, ``terms_source``); the rows that cannot be (line, instance, why): no on-demand row, another
    currency, or an hourly rate above the on-demand one (a term's total written as its price)."""
    left: list[tuple[int, str, Said]] = []
    for (key, term), tp in sorted(terms.items(), key=lambda kv: kv[1].line):
        o = best.get(key)
        if o is None:
            left.append((tp.line, key[0], Said(N_("a %(term)s price with no on-demand price of the instance in the "
                                                  "file: give its on-demand row too"), term=term)))
        elif tp.currency != o.currency:
            left.append((tp.line, key[0], Said(N_("a %(term)s price in %(currency)s, the instance's on-demand price "
                                                  "in %(its)s"), term=term, currency=tp.currency, its=o.currency)))
        elif tp.price > o.price:
            left.append((tp.line, key[0], Said(N_("the %(term)s price %(price)s is above the on-demand price "
                                                  "%(on_demand)s: a term's price is its rate an hour"), term=term,
                                               price=f"{tp.price:,.6g}", on_demand=f"{o.price:,.6g}")))
        else:
            o.reserved[term] = tp.price
            o.terms_as_of = tp.as_of if o.terms_as_of is None else min(o.terms_as_of, tp.as_of)
            cited = f"{tp.source}, line {tp.line}"
            o.terms_source = f"{o.terms_source}; {term}: {cited}" if o.terms_source else f"{term}: {cited}"
    return left
