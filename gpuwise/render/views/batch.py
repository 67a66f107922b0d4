"""The view model of a batch audit: a summary row per proposal file, each linked to its proposal's
section, then the sections: each one proposal's audit (verdict, the proposal against the best
alternative, blockers and warnings, used cards, charts) with its ids made unique in the page."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ..fmt import HTML_LANG, VERDICT_LABELS, Fmt, _lang, currency_for, table
from ..formats import normalise_detail, normalise_format
from .audit import AuditView

if TYPE_CHECKING:
    from ...results_audit import AuditResult


def audit_summary_view(results: list[tuple[str, AuditResult | None, str]], *, lang: str = "en",
                       currency: str = "USD", fx_rate: float | None = None,
                       knowledge: str | os.PathLike[str] | None = None, detail: str = "brief",
                       fmt: str = "text") -> dict[str, Any]:
    """The view model of a batch audit: one row per proposal file (``href``: the link to its
    section) and the verdict counts, then a section per proposal (its verdict, the proposal and the
    alternative in a line each, its blockers and warnings with their fixes; ``audit``: the proposal's
    whole audit view, for the comparison table, the used cards and the charts; in full, every
    finding)."""
    infos = [res.currency for _, res, _ in results if res is not None and res.currency is not None]
    f = Fmt(lang, currency_for(currency or (infos[0].asked if infos else None), fx_rate, knowledge,
                               infos[0] if infos else None))
    own = currency is None and fx_rate is None and len({i.asked for i in infos}) > 1
    # ``currency`` None: each file's section in the currency that file writes its amounts in
    _ = f._
    detail = normalise_detail(detail)
    rows, counts, sections = [], {"approve": 0, "revise": 0, "reject": 0, "error": 0}, []
    links: list[str] = []
    for i, (path, res, err) in enumerate(results, 1):
        anchor = f"proposal-{i}"
        links.append(f"#{anchor}")
        if res is None:
            counts["error"] += 1
            rows.append([path, _("input error"), "-", "-", err, "-"])
            sections.append({"id": anchor, "file": path, "title": path, "error": err, "verdict": None})
            continue
        counts[res.verdict] += 1
        fr = Fmt(lang, currency_for(res.currency.asked, None, knowledge, res.currency)) if own and res.currency else f
        blockers = sum(x.severity == "blocker" for x in res.findings)
        warnings = sum(x.severity == "warning" for x in res.findings)
        alt = res.alternative
        better = (f"{alt.count} × {alt.gpu_name or alt.gpu}" if alt else f.na())
        if alt and res.savings_usd is not None and res.savings_usd > 0:
            better = _("%(name)s (%(role)s)", name=better, role=_("saves %(amount)s", amount=fr.money(res.savings_usd)))
        rows.append([path, _(VERDICT_LABELS[res.verdict]), str(blockers), str(warnings), res.title, better])
        vm = AuditView(res, "audit", fr, detail, normalise_format(fmt)).audit()
        sections.append({"id": anchor, "file": path, "title": res.title or path, "error": "",
                         "verdict": vm["verdict"], "proposal": vm["proposal"], "alternative": vm["alternative"],
                         "savings": vm["savings"], "issues": vm["issues"], "findings": vm["findings"],
                         "reasons": vm["comparison"]["reasons"] if vm["comparison"] else [],
                         "reasons_title": vm["comparison"]["reasons_title"] if vm["comparison"] else "",
                         "audit": {**vm, "charts": _charts_of(vm["charts"], anchor)}})
    headers = [_("File"), _("Verdict"), _("Blockers"), _("Warnings"), _("Title"), _("Best alternative")]
    summary = table(headers, rows, right=(2, 3))
    for row, href in zip(summary["rows"], links, strict=True):
        row["href"] = href
    totals = f.ngettext("%(n)s proposal: %(approve)s approve, %(revise)s revise, %(reject)s reject, "
                        "%(error)s input errors",
                        "%(n)s proposals: %(approve)s approve, %(revise)s revise, %(reject)s reject, "
                        "%(error)s input errors", len(results), **counts)
    title = f.ngettext("Audit of %(n)s proposal", "Audit of %(n)s proposals", len(results))
    return {"title": title, "html_lang": HTML_LANG[_lang(lang)], "totals": totals, "table": summary,
            "sections": sections, "back": _("Back to the summary"),
            "full": detail == "full", "lang": f.lang,
            "currency": {"note": _currency_note(f, lang, detail, own, results, knowledge)}}


def _currency_note(f: Fmt, lang: str, detail: str, own: bool, results: list[tuple[str, AuditResult | None, str]],
                   knowledge: str | os.PathLike[str] | None) -> str:
    """The summary's currency: one currency for all; or, when the files write their amounts in
    different currencies and no report currency was asked for, that each section keeps its file's,
    with each currency's note (its rate, date and source)."""
    if not own:
        return AuditView(None, "audit", f, detail).currency_note()
    notes: dict[str, str] = {}
    for _path, res, _err in results:
        if res is not None and res.currency is not None and res.currency.asked not in notes:
            cur = Fmt(lang, currency_for(res.currency.asked, None, knowledge, res.currency))
            notes[res.currency.asked] = AuditView(None, "audit", cur, detail).currency_note()
    lead = f._("Each proposal's amounts are in the currency its file writes them in (--currency converts them "
               "all to one).")
    return f.join([lead, *(notes[k] for k in sorted(notes))])


def _charts_of(charts: dict[str, Any], anchor: str) -> dict[str, Any]:
    """A proposal's charts with ids of their own in the page (``proposal-2-chart-memory``): every
    section of a batch has a memory chart and cost charts, and an id names one element."""
    if not charts:
        return {}
    out = dict(charts)
    for key in ("memory", "scatter", "serving"):
        if out.get(key):
            out[key] = {**out[key], "id": f"{anchor}-{out[key]['id']}"}
    out["costs"] = [{**c, "id": f"{anchor}-{c['id']}"} for c in out.get("costs") or []]
    out["cost"] = out["costs"][0] if out["costs"] else None
    return out
