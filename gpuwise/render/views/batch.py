"""The view model of a batch audit: a summary row per proposal file, each linked to its proposal's
section, then the sections: each one proposal's audit (verdict, the proposal against the best
alternative, blockers and warnings, used cards, charts) with its ids made unique in the page."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import money_view as MV
from ..fmt import HTML_LANG, VERDICT_LABELS, Fmt, _lang, currency_for, table
from ..formats import normalise_detail, normalise_format
from .audit import AuditView

if TYPE_CHECKING:
    from ...results_audit import AuditResult


def entry(i: int, path: str, res: AuditResult | None, err: str, fr: Fmt, f: Fmt, detail: str,
          fmt: str) -> tuple[list[str], dict[str, Any]]:
    """A proposal's summary row and section (``fr``: its amounts' formatting; ``f``: the summary's)."""
    _ = f._
    anchor = f"proposal-{i}"
    if res is None:
        return ([path, _("input error"), "-", "-", err, "-"],
                {"id": anchor, "file": path, "title": path, "error": err, "verdict": None})
    blockers = sum(x.severity == "blocker" for x in res.findings)
    warnings = sum(x.severity == "warning" for x in res.findings)
    alt = res.alternative
    better = (f"{alt.count} × {alt.gpu_name or alt.gpu}" if alt else f.na())
    if alt and res.savings_usd is not None and res.savings_usd > 0:
        # a saving that is not like for like is said so, as the proposal's own section says it (review53: 'saves
        # $364,066' in the summary above 'costs $364,066 less but does not do the same work: 48.7 ms per output
        # token instead of 26.7')
        saved = (MV.gap(fr, res.proposed.total_cost_usd, alt.total_cost_usd) if res.proposed is not None and
                 res.proposed.total_cost_usd is not None and alt.total_cost_usd is not None
                 else fr.money(res.savings_usd))  # as the proposal's section says it, from the totals shown
        slower = {g.what for g in res.alternative_gives_up} == {"wall_days"}  # the same run, later (review60)
        role = (_("costs %(amount)s less, takes longer", amount=saved) if slower
                else _("costs %(amount)s less, not the same work", amount=saved)
                if res.alternative_gives_up else _("saves %(amount)s", amount=saved))
        better = _("%(name)s (%(role)s)", name=better, role=role)
    elif alt and getattr(res, "alternative_is_proposal", False):
        better = _("%(name)s (%(role)s)", name=better, role=_("the proposal's own setup"))
    elif (alt and res.savings_usd is not None and res.savings_usd < 0 and res.proposed is not None
          and res.proposed.feasible and res.proposed.total_cost_usd is not None and alt.total_cost_usd is not None
          and alt.wall_days is not None and res.proposed.wall_days is not None
          and alt.wall_days < res.proposed.wall_days):
        # dearer but sooner, as the proposal's section says it (review62: the summary read 'Best alternative: 64 x
        # NVIDIA H100 SXM5 80GB' alone beside 'costs $44 more and finishes sooner' in the section)
        dearer = MV.gap(fr, alt.total_cost_usd, res.proposed.total_cost_usd)
        better = _("%(name)s (%(role)s)", name=better,
                   role=_("costs %(amount)s more, finishes sooner", amount=dearer))
    row = [path, _(VERDICT_LABELS[res.verdict]), str(blockers), str(warnings), res.title, better]
    vm = AuditView(res, "audit", fr, normalise_detail(detail), normalise_format(fmt)).audit()
    return row, {"id": anchor, "file": path, "title": res.title or path, "error": "",
                 "verdict": vm["verdict"], "proposal": vm["proposal"], "alternative": vm["alternative"],
                 "savings": vm["savings"], "issues": vm["issues"], "findings": vm["findings"],
                 "reasons": vm["comparison"]["reasons"] if vm["comparison"] else [],
                 "reasons_title": vm["comparison"]["reasons_title"] if vm["comparison"] else "",
                 "audit": {**vm, "charts": _charts_of(vm["charts"], anchor)}}


def head_view(rows: list[list[str]], counts: dict[str, int], sections: list[dict[str, Any]], f: Fmt, lang: str,
              detail: str, own: bool, note: str) -> dict[str, Any]:
    """The summary's view: the table of ``rows`` (each linked to its section), the verdict
    ``counts``, the title and the currency ``note``; ``sections``: those placed in the page."""
    _ = f._
    detail = normalise_detail(detail)
    headers = [_("File"), _("Verdict"), _("Blockers"), _("Warnings"), _("Title"), _("Best alternative")]
    summary = table(headers, rows, right=(2, 3))
    for i, row in enumerate(summary["rows"], 1):
        row["href"] = f"#proposal-{i}"
    totals = f.ngettext("%(n)s proposal: %(approve)s approve, %(revise)s revise, %(reject)s reject, "
                        "%(error)s input errors",
                        "%(n)s proposals: %(approve)s approve, %(revise)s revise, %(reject)s reject, "
                        "%(error)s input errors", len(rows), **counts)
    title = f.ngettext("Audit of %(n)s proposal", "Audit of %(n)s proposals", len(rows))
    return {"title": title, "html_lang": HTML_LANG[_lang(lang)], "totals": totals, "table": summary,
            "sections": sections, "back": _("Back to the summary"),
            "full": detail == "full", "lang": f.lang,
            "currency": {"note": note}}


def _currency_note(f: Fmt, lang: str, detail: str, own: bool, infos: list[Any],
                   knowledge: str | os.PathLike[str] | None) -> str:
    """The summary's currency: one currency for all; or, when the files write their amounts in
    different currencies and no report currency was asked for, that each section keeps its file's,
    with each currency's note (its rate, date and source)."""
    if not own:
        return AuditView(None, "audit", f, detail).currency_note()
    notes: dict[str, str] = {}
    for info in infos:  # each result's currency block (None: none)
        if info is not None and info.asked not in notes:
            cur = Fmt(lang, currency_for(info.asked, None, knowledge, info))
            notes[info.asked] = AuditView(None, "audit", cur, detail).currency_note()
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


class BatchSummary:
    """A batch audit's summary built as its proposals finish, so a batch's memory does not grow
    with its members' whole results: :meth:`add` turns a result at once into its summary row and
    its section's text (``place``: a section's view and the summary's common fields to the section
    template's text, or to where that text is kept) and keeps nothing else of it.  The row and
    section are made in the summary's currency and, when no report currency was asked for and the
    file writes its amounts in another currency (or at another rate), in its own as well: which
    one the page shows is known only when every file is in.  A result without a currency block
    before the first with one is kept until that one sets the summary's currency (a batch's
    results share the knowledge, so all have one, or none has: after :attr:`PENDING` results without
    one, none is taken to have one, and the summary is in the currency asked for, else USD)."""

    PENDING = 8
    """The most results kept whole while none has said what currency its file writes in."""

    def __init__(self, place: Callable[[dict[str, Any], dict[str, Any]], Any], *, lang: str = "en",
                 currency: str | None = None, fx_rate: float | None = None,
                 knowledge: str | os.PathLike[str] | None = None, detail: str = "brief", fmt: str = "text"):
        self.place, self.lang, self.currency, self.fx_rate = place, lang, currency, fx_rate
        self.knowledge, self.detail, self.fmt = knowledge, normalise_detail(detail), normalise_format(fmt)
        self.f: Fmt | None = None
        _ = Fmt(lang)._
        self.common = {"full": self.detail == "full", "back": _("Back to the summary")}
        self.counts = {"approve": 0, "revise": 0, "reject": 0, "error": 0}
        self.rows: dict[int, list[str]] = {}
        self.parts: dict[int, Any] = {}
        self.own: dict[int, tuple[list[str], Any]] = {}  # in the file's own currency, where it differs
        self.infos: dict[str, Any] = {}  # the first currency block of each currency, in arrival order
        self.pending: list[tuple[int, str, AuditResult, str]] = []
        self.n = 0

    def add(self, path: str, res: AuditResult | None, err: str) -> None:
        """One proposal's result (``None``: its error ``err``)."""
        self.n += 1
        self.counts[res.verdict if res is not None else "error"] += 1
        info = res.currency if res is not None else None
        if info is not None:
            self.infos.setdefault(info.asked, info)
        if self.f is None:
            if res is not None and info is None:
                self.pending.append((self.n, path, res, err))
                if len(self.pending) < self.PENDING:
                    return
                self._settle(None)  # the knowledge has no exchange rate: no result will have one
                return
            if info is not None:
                self._settle(info)
        self._enter(self.n, path, res, err)

    def _settle(self, info: Any) -> None:
        """The summary's currency, set by the first file's currency block (``None``: there is none)."""
        self.f = Fmt(self.lang, currency_for(self.currency or (info.asked if info else None), self.fx_rate,
                                             self.knowledge, info))
        for entry_ in self.pending:
            self._enter(*entry_)
        self.pending = []

    def _enter(self, i: int, path: str, res: AuditResult | None, err: str) -> None:
        f = self.f if self.f is not None else Fmt(self.lang)  # an input error's row and section: words only
        row, section = entry(i, path, res, err, f, f, self.detail, self.fmt)
        self.rows[i], self.parts[i] = row, self.place(section, self.common)
        if self.currency is None and self.fx_rate is None and res is not None and res.currency is not None:
            cur = currency_for(res.currency.asked, None, self.knowledge, res.currency)
            if self.f is not None and cur != self.f.cur:
                row, section = entry(i, path, res, err, Fmt(self.lang, cur), f, self.detail, self.fmt)
                self.own[i] = (row, self.place(section, self.common))

    def finish(self) -> tuple[dict[str, Any], list[Any]]:
        """The summary's view (without its sections) and what ``place`` gave for each section, in order."""
        if self.f is None:
            self._settle(None)
        assert self.f is not None
        own = self.currency is None and self.fx_rate is None and len(self.infos) > 1
        order = range(1, self.n + 1)
        rows = [self.own[i][0] if own and i in self.own else self.rows[i] for i in order]
        parts = [self.own[i][1] if own and i in self.own else self.parts[i] for i in order]
        note = _currency_note(self.f, self.lang, self.detail, own, list(self.infos.values()), self.knowledge)
        return head_view(rows, self.counts, [], self.f, self.lang, self.detail, own, note), parts
