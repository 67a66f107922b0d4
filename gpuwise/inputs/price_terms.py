"""A rental's pricing plan written beside its price, as a cloud's quote or price page prints a rate: ``$2.49/GPU-hr
(1-yr reserved)``, ``2.10 (3-year commitment)``, ``$1.20/hr (spot)``. The number alone is the price; the plan is a
field of its own (a proposal's ``acquisition.months`` commits to its term, ``spot: true``; a price CSV's ``term``
and ``spot_price`` columns). Read as a plain price a commitment's rate would be billed as on-demand, so it is
refused, the price and the field the plan goes in said (hostile round 56: it was 'must be a number', nothing
offered)."""

from __future__ import annotations

import re

from ..errors import N_, Said

_N = r"(?P<n{i}>\d{{1,2}}|one|two|three)"
_UNIT = r"(?P<unit{i}>years?|yrs?|y|months?|mos?|mths?)"
_KIND = r"(?:reserved|reservation|ri|commit(?:ment|ted)?|term|contract|plan|pricing|savings\s+plan)"
_PLAN = re.compile(
    rf"(?:{_N.format(i=1)}\s*[- ]?\s*{_UNIT.format(i=1)}\.?(?:\s*[- ]?\s*(?P<k1>{_KIND}))*"
    rf"|(?P<k2>{_KIND})(?:\s*[:,-]?\s*{_N.format(i=2)}\s*[- ]?\s*{_UNIT.format(i=2)}\.?)?(?:\s*{_KIND})*"
    r"|(?P<spot>spot|preemptible|interruptible)(?:\s+(?:price|instance|pricing))?"
    r"|(?P<od>on[- ]?demand|pay[- ]as[- ]you[- ]go|payg)(?:\s+(?:price|pricing|rate))?)", re.I)
"""A pricing plan: a term with its length ('1-yr reserved', 'reserved 3 years', '12-month commitment'), a word of a
commitment alone ('reserved'), spot, on-demand."""
_WRITTEN = re.compile(r"(?P<price>.*?\d.*?)\s*(?:\(\s*(?P<a>[^()]*?)\s*\)|[,;]?\s+(?P<b>[A-Za-z0-9][^()]*?))\s*")
"""A price with words after it, bracketed ('(1-yr reserved)') or not ('1-year reserved')."""
_WORD_N = {"one": 1, "two": 2, "three": 3}
TERM_MONTHS = {"1-month": 1, "1-year": 12, "3-year": 36}
"""The terms a price CSV's ``term`` column takes (prices/terms.py TERMS), by their months."""


class Plan:
    """The plan read beside a price: ``kind`` is ``term`` (``months`` the term's, None where it is not said:
    'reserved' alone), ``spot`` or ``on-demand``; ``price`` the price's own text."""

    def __init__(self, price: str, kind: str, months: int | None) -> None:
        self.price, self.kind, self.months = price, kind, months

    @property
    def term(self) -> str | None:
        """The term as a price CSV's ``term`` column names it; None for one it does not take (6 months, 2 years)."""
        return next((t for t, m in TERM_MONTHS.items() if m == self.months), None) if self.kind == "term" else None

    @property
    def said(self) -> str:
        """The plan in the words the refusal quotes: '1-year', '6-month', 'reserved'."""
        if self.kind != "term":
            return self.kind
        if self.months is None:
            return "reserved"
        return f"{self.months // 12}-year" if self.months % 12 == 0 else f"{self.months}-month"


def plan_of(text: str) -> Plan | None:
    """The price and its plan where ``text`` is a price with its pricing plan beside it (see the module); None
    otherwise (no plan, or no figure before it)."""
    if not isinstance(text, str) or len(text) > 80:
        return None
    m = _WRITTEN.fullmatch(text.strip())
    if m is None:
        return None
    plan = _PLAN.fullmatch(m.group("a") or m.group("b"))
    if plan is None:
        return None
    if plan.group("spot"):
        return Plan(m.group("price"), "spot", None)
    if plan.group("od"):
        return Plan(m.group("price"), "on-demand", None)
    n_text, unit = plan.group("n1") or plan.group("n2"), plan.group("unit1") or plan.group("unit2")
    if n_text is None:
        return Plan(m.group("price"), "term", None)
    if not (plan.group("k1") or plan.group("k2") or m.group("a")):
        return None  # '2.49 1 year' with no word of a commitment and no brackets: not read as one
    n = _WORD_N.get(n_text.lower()) or int(n_text)
    months = n * 12 if unit.lower().startswith("y") else n
    return Plan(m.group("price"), "term", months) if months > 0 else None


def proposal_said(given: str, plan: Plan, meant: str, field: str) -> Said:
    """The refusal of a proposal's price written with its plan: the price to write and the field the plan goes in
    (a term: ``acquisition.months``, which a rental commits to and is billed for in full; spot: ``spot: true``)."""
    if plan.kind == "spot":
        return Said(N_("%(given)s is a spot price: write %(meant)s in %(field)s and spot: true"), given=given,
                    meant=meant, field=field)
    if plan.kind == "on-demand":
        return Said(N_("%(given)s: %(field)s is a number, an on-demand price unless spot or months say otherwise: "
                       "write %(meant)s"), given=given, meant=meant, field=field)
    if plan.months is None:
        return Said(N_("%(given)s is a reserved (committed) price: write %(meant)s in %(field)s and the term it "
                       "commits to in months (months: 12 for a year); without months it is billed by the hour, as "
                       "an on-demand price"),
                    given=given, meant=meant, field=field)
    return Said(N_("%(given)s is a price on a %(term)s commitment: write %(meant)s in %(field)s and months: "
                   "%(months)s, the term, which the rental is billed for in full (without months it is billed by the "
                   "hour, as an on-demand price)"),
                given=given, meant=meant, field=field, term=plan.said, months=plan.months)


def csv_said(given: str, plan: Plan, meant: str, term_cell: str | None, has_term: bool) -> Said:
    """The refusal of a price CSV's price cell written with its plan: the price to write and the column the plan
    goes in (gpuwise's layout's ``term``, ``spot_price``), or that the layout has no such column."""
    if plan.kind == "on-demand":
        return Said(N_("price %(given)s is not a number: write %(meant)s (a row without a term is an on-demand "
                       "price)"), given=given, meant=meant)
    if not has_term:
        return Said(N_("price %(given)s is a %(plan)s price, and this layout's prices are on-demand: give it in "
                       "gpuwise's layout (gpu, gpus, price, term, spot_price) with price %(meant)s"), given=given,
                    plan=plan.said, meant=meant)
    if plan.kind == "spot":
        return Said(N_("price %(given)s is a spot price: write %(meant)s in spot_price, beside the row's on-demand "
                       "price"), given=given, meant=meant)
    if plan.term is None:
        return Said(N_("price %(given)s is a %(plan)s price, and the term column takes 1-month, 1-year or 3-year: "
                       "give the term as one of them with price %(meant)s, or leave the row out"), given=given,
                    plan=plan.said, meant=meant)
    if (term_cell or "").strip():
        return Said(N_("price %(given)s is a %(term)s price: write %(meant)s (the term column says %(cell)s)"),
                    given=given, term=plan.term, meant=meant, cell=repr(term_cell.strip()))
    return Said(N_("price %(given)s is a %(term)s commitment's price: write %(meant)s in price and %(term)s in the "
                   "term column, or it is imported as an on-demand price"), given=given, term=plan.term, meant=meant)
