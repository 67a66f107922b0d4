"""The plan report's Data freshness block: the same view-model parts recommend's and audit's reports give their
``knowledge`` partial (reports/templates/_macros.*), from the plan result's ``prices_used``, ``stale_prices`` and
``knowledge_dates`` -- the prices it rests on with their dates and ages, the stale ones marked, the currency and its
dated rate, the units."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from .. import messages
from .fmt import Currency, Fmt
from .views.base import BaseView


def freshness(r: Any, lang: str, fmt: str, detail: str) -> dict[str, Any]:
    """``knowledge``, ``currency``, ``units_note`` and ``glossary`` for the plan's view model, worded by the base
    view as recommend's are. Money in a price line is in the plan's currency at the plan's rate; the house rules
    the plan says in its Answer are not said again."""
    info = r.currency_info
    given = info is not None and info.source == messages.template("source.fx_given")
    cur = Currency(r.currency, r.usd_cny if r.currency == "CNY" else 1.0, info.as_of if info and not given else "",
                   info.source if info else "", given)
    # what the base view reads of a result: the plan's dated prices, its rate as a currency block (a plan's
    # `currency` is its code), and no rule trace (the plan's own sources are in its trace)
    brief = detail != "full"
    seen = SimpleNamespace(knowledge_dates=r.knowledge_dates, stale_prices=r.stale_prices,
                           prices_used=_grouped(r.prices_used, lang) if brief else r.prices_used, house_rules=None,
                           currency=info, trace=[], findings=[])
    f = Fmt(lang, cur)
    base = BaseView(seen, "plan", f, detail, fmt)
    part, knowledge = base.base(), base.knowledge()
    if brief:  # the brief plan says its money as before: a yuan plan its rate, a dollar plan nothing more
        money = part["currency"]
        money["note"] = (money["short"] or money["note"]) if cur.code == "CNY" else ""
        part["units_note"] = ""
        knowledge["prices_short"] = _short(base, r, f)
    return {"knowledge": knowledge, "currency": part["currency"], "units_note": part["units_note"],
            "glossary": {"title": "", "entries": []}}


def _short(base: BaseView, r: Any, f: Fmt) -> str:
    """The brief's shortest Data freshness (a plan folded to two screens): the prices out of date named as the brief
    names them, the others counted with their dates."""
    _ = f._
    stale = {(str(s.what_phrases[0][1]).rsplit(".", 1)[-1], s.as_of) for s in r.stale_prices if s.what_phrases}
    said = [e for e in base.r.prices_used if e.as_of and not e.alternative]  # the brief's, as BaseView words them
    old = [x for x, e in zip(base.prices_used(brief=True), said, strict=True) if (e.kind, e.as_of) in stale]
    rest_of = [e for e in r.prices_used if e.as_of and not e.alternative and (e.kind, e.as_of) not in stale]
    dates, n = sorted({e.as_of for e in rest_of}), len(rest_of)
    rest = ("" if not n or not dates else
            f.ngettext("%(n)s current price used, dated %(date)s: the full report lists it.",
                       "%(n)s current prices used, dated %(date)s: the full report lists each.", n, date=dates[0])
            if len(dates) == 1 else
            f.ngettext("%(n)s current price used, dated %(first)s to %(last)s: the full report lists it.",
                       "%(n)s current prices used, dated %(first)s to %(last)s: the full report lists each.", n,
                       first=dates[0], last=dates[-1]))
    return f.join([_("Out of date: %(list)s.", list=f.clause.join(old)) if old else "", rest])


def _grouped(prices: list[Any], lang: str) -> list[Any]:
    """The brief's prices, those of one kind, seller, term and date said once with their GPUs joined ('rent NVIDIA
    L40S 48GB, NVIDIA B200 ... on runpod, on demand (2026-09-25, 73 days old)'): a plan renting five types from one
    provider listed five lines of the same date where the brief has two screens; the full report lists each."""
    groups: dict[tuple[Any, ...], list[Any]] = {}
    for e in prices:
        key = (e.kind, e.provider, e.instance, e.term, e.condition, e.as_of, e.alternative)
        groups.setdefault(key, []).append(e)
    sep = "，" if lang.startswith("zh") else ", "
    return [g[0] if len(g) == 1 or not g[0].gpu else
            g[0].model_copy(update={"gpu": sep.join(dict.fromkeys(e.gpu for e in g))}) for g in groups.values()]
