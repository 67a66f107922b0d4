"""``gpuwise prices`` as a terminal table, in the language asked for: date, age, what, amount,
check; the sources follow in a numbered list so the table stays narrow.

Amounts stay in the currency their source writes them in (a price list is the sources' own
figures; ``--currency`` there filters, it does not convert). A Chinese table words each row's item
and unit from the row's ``said`` (kind and values) through the translation catalog; names, ids,
figures and the sources' own words (quoted) stay as written.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from .fmt import N_, Fmt
from .textfit import fit_table, fit_text, terminal_width

HEAD = (N_("as_of"), N_("age (d)"), N_("kind"), N_("gpu"), N_("provider / item"), N_("amount"), N_("chk"),
        N_("src"))
PRICE_KINDS = {"rent": N_("rent"), "spot": N_("spot"), "reserved": N_("reserved"), "buy": N_("buy"),
               "server": N_("server"), "network": N_("network"), "host": N_("host share"),
               "fx": N_("exchange rate")}
CONDITIONS = {"new": N_("new"), "used": N_("used"), "refurbished": N_("refurbished")}
UNITS = {"card": N_("card"), "server": N_("server"), "baseboard": N_("baseboard"), "system": N_("system")}
PRICE_SOURCES = {"street": N_("street price"), "reseller": N_("reseller"), "market-report": N_("market report"),
                 "vendor-list": N_("vendor list price"), "estimate": N_("estimate"), "quote": N_("quote")}
PARTS = {"nic": N_("NIC port"), "switch": N_("switch port"), "link": N_("link")}
TERMS = {"1-month": N_("1-month"), "1-year": N_("1-year"), "3-year": N_("3-year")}


def _pick(labels: dict[str, str], value: Any, f: Fmt) -> str:
    return f._(labels[value]) if value in labels else str(value)


def _item(r: Any, f: Fmt) -> str:
    """The row's item in ``f``'s language (English: as the row writes it)."""
    kind, v = r.said.get("item", ("", {}))
    if f.lang == "en" or not kind:
        return r.item
    if kind == "instance":
        return f.tr.ngettext("%(instance)s (%(n)s GPU, %(rate)s/h)", "%(instance)s (%(n)s GPUs, %(rate)s/h)",
                             v["n"]) % v
    if kind == "instance_spot":
        return f._("%(instance)s spot", instance=v["instance"])
    if kind in ("per_gpu", "per_gpu_spot"):
        lo, hi = v.get("min_gpus"), v["max_gpus"]
        size = (f.tr.ngettext("%(n)s GPU", "%(n)s GPUs", lo) % {"n": lo} if lo and lo == hi else
                f._("%(lo)s to %(hi)s GPUs", lo=lo, hi=hi) if lo and hi else
                f.tr.ngettext("from %(n)s GPU", "from %(n)s GPUs", lo) % {"n": lo} if lo else
                f.tr.ngettext("up to %(n)s GPU", "up to %(n)s GPUs", hi) % {"n": hi} if hi else f._("any count"))
        if v.get("step_gpus", 1) > 1:
            size = f._("%(size)s, in steps of %(step)s", size=size, step=v["step_gpus"])
        if v["note"]:
            size = f._("%(size)s, %(note)s", size=size, note=f.cite(v["note"]))
        return f._("per GPU (%(size)s)", size=size) if kind == "per_gpu" else f._("per GPU spot (%(size)s)",
                                                                                   size=size)
    if kind == "reserved":
        term = _pick(TERMS, v["term"], f)
        if v["instance"]:
            return f._("%(instance)s %(term)s reservation", instance=v["instance"], term=term)
        return f._("per GPU %(term)s reservation", term=term)
    if kind == "cluster":
        return f.tr.ngettext("reserved cluster from %(n)s GPU", "reserved cluster from %(n)s GPUs", v["n"]) % v
    if kind == "purchase":
        text = f._("%(condition)s %(unit)s, %(source)s", condition=_pick(CONDITIONS, v["condition"], f),
                   unit=_pick(UNITS, v["unit"], f), source=_pick(PRICE_SOURCES, v["kind"], f))
        return f._("%(item)s, China market", item=text) if v["china"] else text
    if kind == "network":
        return f._("%(fabric)s %(part)s", fabric=v["fabric"], part=_pick(PARTS, v["part"], f))
    if kind == "fx":
        return f._("USD -> CNY exchange rate")
    return r.item  # a host share: the knowledge base's key


def _unit(r: Any, f: Fmt) -> str:
    kind, v = r.said.get("unit", ("", {}))
    if f.lang == "en" or not kind:
        return r.unit
    if kind == "gpu_hour":
        return f._("per GPU-hour")
    if kind == "card":
        return f._("per card")
    if kind == "system":
        return f._("per system")
    if kind == "unit":
        return f._("per %(n)s-GPU %(unit)s", n=v["n"], unit=_pick(UNITS, v["unit"], f))
    if kind == "part":
        return f._("per %(part)s", part=_pick(PARTS, v["part"], f))
    if kind == "per_usd":
        return f._("per USD")
    return f.cite(r.unit)  # the knowledge base's own words


#: What the prices the other filters pass hold, by the filter left out (prices/table.py other_matches).
_WITHOUT = {"gpu": N_("without --gpu: for %(values)s"), "provider": N_("without --provider: listed by %(values)s"),
            "currency": N_("without --currency: in %(values)s")}
_SHOWN = 8
"""The most values said for a filter left out; the rest counted."""


def _no_match(f: Fmt, filters: dict[str, str], others: dict[str, list[str]]) -> str:
    """'No prices match --gpu B200 --provider autodl.' and, by filter, what the others match (hostile round 48)."""
    typed = " ".join(f"--{k} {v}" for k, v in filters.items())
    lines = [f._("No prices match %(filters)s.", filters=typed)]
    for name, values in others.items():
        if not values:
            lines.append("  " + f._("without --%(option)s: none either", option=name))
            continue
        shown = ", ".join(values[:_SHOWN])
        if len(values) > _SHOWN:
            shown = f._("%(names)s and %(more)s more", names=shown, more=len(values) - _SHOWN)
        lines.append("  " + f._(_WITHOUT[name], values=shown))
    return "\n".join(lines) + "\n"


def _unrented(f: Fmt, entries: list[Any]) -> str:
    """Why a GPU asked for has no rental: its clouds.yaml ``not_rented`` reason, the date its sources were read and
    the sources, as the knowledge base writes them (market62)."""
    return "".join(f._("Not rented by any cloud listed: %(gpu)s: %(reason)s (sources read %(as_of)s: %(source)s)",
                       gpu=e.id, reason=f.cite(e.reason), as_of=e.as_of.isoformat(),
                       source=f.cite(e.source)) + "\n" for e in entries)


def render_text(rows: list[Any], max_age: float | None = None, lang: str = "en",
                stale: dict[int, list[str]] | None = None, filters: dict[str, str] | None = None,
                others: dict[str, list[str]] | None = None, unrented: list[Any] | None = None,
                matched: list[str] | None = None, reading: tuple[Any, list[str]] | None = None,
                unbought: list[Any] | None = None) -> str:
    """The listing as a table; ``stale``: by row, the data-freshness rules that call its price stale
    (:func:`gpuwise.decide.verdicts.stale`), marked "!" -- the view compares no age itself; with no row,
    ``filters`` (the options as typed) and ``others`` (what the other filters match) say what to ask instead;
    ``matched``: the GPUs ``--gpu`` stands for, said first where it names several (``A100``, which the other
    commands refuse as ambiguous)."""
    stale = stale or {}
    f = Fmt(lang)
    said = fit_text(_unrented(f, unrented or []), terminal_width()) if unrented else ""
    if unbought:  # why a GPU asked for has no purchase price: prices.yaml's excluded reason (review61)
        said += fit_text("".join(f._("No purchase price: %(gpu)s: %(reason)s", gpu=e.id, reason=f.cite(
            " ".join(e.reason.split()))) + "\n" for e in unbought), terminal_width())
    several = fit_text(f._("--gpu %(gpu)s names %(n)s GPU types (%(gpus)s): the prices of each are listed; give "
                           "the variant to list one", gpu=(filters or {}).get("gpu", ""), n=len(matched),
                           gpus=", ".join(matched)) + "\n\n", terminal_width()) if matched and len(matched) > 1 else ""
    if reading is not None:  # '--gpu H100' read as the SXM module, said with the variants left out (review61)
        read_as = reading[0].said(f.lang) or ""
        if reading[1]:
            read_as += f._("; the prices of %(gpus)s are not listed (give one of them as --gpu)",
                           gpus=f.sep.join(reading[1]))
        several += fit_text(read_as + "\n\n", terminal_width())
    if not rows:
        if filters and others:
            return several + _no_match(f, filters, others) + said
        return several + f._("No prices match.") + "\n" + said
    head = tuple(f._(h) for h in HEAD)
    colon = "：" if f.lang == "zh" else ": "
    sources: dict[str, int] = {}
    body = []
    for i, r in enumerate(rows):
        n = sources.setdefault(r.source, len(sources) + 1)
        old = "!" if i in stale else ""
        item = _item(r, f)
        what = f"{r.provider}{colon}{item}" if r.provider else item
        amount = f"{r.amount:,.0f}" if r.amount >= 1000 else f"{r.amount:.4g}"
        body.append((r.as_of or f._("undated"), f"{r.age_days}{old}" if r.age_days is not None else "-",
                     _pick(PRICE_KINDS, r.kind, f) if f.lang != "en" else r.kind, r.gpu or "-", what,
                     f"{amount} {r.currency} {_unit(r, f)}", r.check, f"[{n}]"))
    width = terminal_width()
    out = "\n".join(fit_table(list(head), [list(r) for r in body], (1,), width, whole=(3,))) + "\n"
    # review65: the table's order and its chk letters were said nowhere (the schema's Check, knowledge/schema/base.py)
    out += "\n" + f._("Oldest first (undated last); age (d), days from as_of to today; chk, how the price was "
                      "checked: V, read in the vendor's or provider's own document; S, a secondary source; U, "
                      "unverified.") + "\n"
    fired = sorted({rid for rids in stale.values() for rid in rids})
    if fired == ["DATA-STALE-PRICE"] and max_age is not None:
        out += "\n" + f._("! older than the policy's price_max_age_days (%(days)s days): check it before "
                          "committing money", days=f"{max_age:g}") + "\n"
    elif fired:
        out += "\n" + f._("! stale by the rules %(rules)s: check it before committing money",
                          rules=", ".join(fired)) + "\n"
    out += "\n" + said if said else ""
    if f.lang != "en":
        out += "\n" + f._("Amounts are as their sources write them, in the currency shown.") + "\n"
    quoted = {s: s if f.lang == "en" else f.cite(s) for s in sources}
    out += "\n" + f._("Sources:") + "\n" + "".join(f"[{n}] {quoted[s]}\n" for s, n in sources.items())
    return several + fit_text(out, width)


_TERM_ORDER = {"on-demand": 0, "spot": 1, "1-month": 2, "1-year": 3, "3-year": 4}


def import_summary(report: Any, target: str | None, lang: str = "en") -> str:
    """What ``gpuwise prices import`` says it read, kept and left out, in ``lang``: a row's reason and
    an offer's notes are catalog messages (``Said``), worded in ``lang``."""
    f = Fmt(lang)
    zh = f.lang != "en"
    out = [f.ngettext("%(path)s: %(format)s layout, provider %(provider)s, %(n)s row",
                      "%(path)s: %(format)s layout, provider %(provider)s, %(n)s rows", report.rows,
                      path=report.path, format=report.format, provider=report.provider)]
    given = report.as_of_from == "--as-of"
    source = report.as_of_from if given else f._(report.as_of_from)
    own = sorted(o.as_of for o in report.offers if o.own_date)
    if own and len(own) == len(report.offers):  # every offer dated by its row: the file's date dated none of them
        out.append(f._("as_of: each row's own (%(first)s to %(last)s)", first=own[0].isoformat(),
                       last=own[-1].isoformat()) if own[0] != own[-1] else
                   f._("as_of: each row's own (%(date)s)", date=own[0].isoformat()))
    elif given:
        out.append(f._("as_of %(date)s (%(from)s)", date=report.as_of.isoformat(), **{"from": source}))
    else:
        out.append(f._("as_of %(date)s (%(from)s; give --as-of DATE when the prices are from another day)",
                       date=report.as_of.isoformat(), **{"from": source}))
    out.append(f.ngettext("imported %(n)s offer (instance price / GPU count = per GPU-hour; the cheapest location "
                          "of each instance type):",
                          "imported %(n)s offers (instance price / GPU count = per GPU-hour; the cheapest location "
                          "of each instance type):", len(report.offers)))
    for o in report.offers:
        spot = f._(", spot %(price)s/h", price=f"{o.spot_price:g}") if o.spot_price is not None else ""
        lb, sep, rb, x = ("［", "；", "］", "×") if zh else ("[", "; ", "]", "x")
        note = f"  {lb}{sep.join(n.words(f.lang) for n in o.notes)}{rb}" if o.notes else ""
        rate = f._("%(price)s %(currency)s/h = %(per_gpu)s per GPU-hour", price=f"{o.price:g}", currency=o.currency,
                   per_gpu=f"{o.per_gpu_hour:.4g}")
        terms = "".join(f._(", %(term)s %(price)s/h", term=t, price=f"{v:g}") for t, v in sorted(o.reserved.items()))
        out.append(f"  {o.instance:<28} {o.gpus} {x} {o.gpu:<22} {rate}{spot}{terms}{note}")
        age = (dt.date.today() - o.as_of).days
        if report.max_age_days is not None and age > report.max_age_days:  # imported, and said so where it is used
            out.append("    " + f._("! dated %(date)s, %(days)s days old: older than the policy's price_max_age_days "
                                    "(%(max)s); an answer that uses it warns (DATA-STALE-PRICE)",
                                    date=o.as_of.isoformat(), days=age, max=f"{report.max_age_days:g}"))
    if report.read_as:  # the term each row was read on (review63's Left: a spot or reserved price never on demand)
        words = {"on-demand": f._("on demand"), "spot": f._("spot")}
        terms = sorted(report.read_as.items(), key=lambda x: _TERM_ORDER.get(x[0], 9))
        out.append(f._("rows read as: %(list)s", list=(", " if not zh else "，").join(
            f"{words.get(t, t)} {n}" for t, n in terms)))
        out.extend("  " + n.words(f.lang) for n in report.read_as_notes)
    if report.no_gpu:
        out.append(f.ngettext("left out %(n)s row without a GPU", "left out %(n)s rows without a GPU", report.no_gpu))
    if report.totals:  # a sheet's totals rows, by line: left out, not listed as rows that could not be used
        lines = ", ".join(str(n) for n, _ in report.totals)
        out.append(f.ngettext("left out %(n)s totals row (line %(lines)s): a sheet's sum, not an offer",
                              "left out %(n)s totals rows (lines %(lines)s): a sheet's sums, not offers",
                              len(report.totals), lines=lines))
    if report.spot_only:
        out.append(f.ngettext("left out %(n)s instance type listed only as spot (no on-demand price to attach it to)",
                              "left out %(n)s instance types listed only as spot (no on-demand price to attach "
                              "them to)", report.spot_only))
    if report.skipped:
        out.append(f.ngettext("could not use %(n)s row:", "could not use %(n)s rows:", len(report.skipped)))
        for s in report.skipped:
            out.append("  " + (f._("line %(line)s: %(name)s: %(reason)s", line=s.line, name=s.name,
                                   reason=s.why.words(f.lang)) if s.name else  # no name: not 'line 3: : ...'
                               f._("line %(line)s: %(reason)s", line=s.line, reason=s.why.words(f.lang))))
    if target:
        from pathlib import Path

        out.append(f._("wrote %(target)s; use it with --knowledge %(dir)s", target=target, dir=Path(target).parent))
    return "".join(line + "\n" for line in out)
