"""Reports: a result becomes text, Markdown, HTML or JSON.

The pipeline is ``result -> view model -> Jinja2 template``.  The view model (:mod:`view`) is a
tree of plain dicts and lists of *preformatted strings* ("80.0 GB", "$12,345", "3.2 days"), built
with the formatting helpers of :mod:`fmt`; the templates under ``reports/templates/`` only place
those strings (they never compute, and ``StrictUndefined`` makes a missing field an error instead
of a blank).  Chart geometry comes from :mod:`charts`.  JSON is the result's
``model_dump(mode="json")``, untouched: money stays in USD there whatever ``currency`` says.

A report is ``brief`` by default -- the answer, the four steps in one line each, the alternatives,
the blockers and warnings (each said once), the assumptions -- and ``detail="full"`` adds every
formula, every candidate, every finding and the rule trace (in HTML, in collapsible sections).

Languages: English, and Simplified Chinese with ``lang="zh"``, through gettext catalogs in
``gpuwise/render/locale`` (see its README).  Sentences that rules and the decision produce
(findings, step conclusions, the summary) arrive with their template and values: the template is
translated through the same catalog (its English text is the msgid) and filled in the report's
currency; a house rule's own sentence stays as written.

Public API: :func:`render`, :func:`write_report`, :func:`format_for`, :func:`render_audit_summary`.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..results import AuditResult, EstimateResult, RecommendResult
from .fmt import (  # noqa: F401  (re-exported: the report's vocabulary and formatting helpers)
    ACQUISITION_LABELS,
    DASH,
    DETAILS,
    HTML_LANG,
    KIND_LABELS,
    LOCALE_DIR,
    SEVERITY_LABELS,
    STEP_NAMES,
    STEP_TITLES,
    TERM_LABELS,
    TOPIC_LABELS,
    VERDICT_LABELS,
    Currency,
    Fmt,
    _lang,
    currency_for,
    display_width,
    eng,
    environment,
    input_text,
    md_code,
    md_escape,
    substitute,
    table,
    text_lines,
    translations,
)
from .output import atomic_write_text
from .view import LEADING, View  # noqa: F401

FORMATS = ("text", "md", "html", "json")
_FORMAT_ALIASES = {"text": "text", "txt": "text", "md": "md", "markdown": "md", "html": "html",
                   "htm": "html", "json": "json"}
_SUFFIXES = {".txt": "text", ".text": "text", ".md": "md", ".markdown": "md", ".html": "html",
             ".htm": "html", ".json": "json"}
KINDS = ("recommend", "audit", "estimate")


# ------------------------------------------------------------------------------ public API
def _kind_of(result: Any, kind: str | None) -> tuple[Any, str]:
    types = {"recommend": RecommendResult, "audit": AuditResult, "estimate": EstimateResult}
    if kind is not None and kind not in types:
        raise UserError(f"unknown report kind '{kind}'", hint="use recommend, audit or estimate")
    if isinstance(result, dict):
        if kind is None:
            kind = ("audit" if "verdict" in result else "recommend" if "recommendation" in result
                    else "estimate" if "memory" in result else None)
        if kind is None:
            raise UserError("cannot tell what kind of result this is",
                            hint="pass kind=recommend|audit|estimate")
        return types[kind].model_validate(result), kind
    for name, cls in types.items():
        if isinstance(result, cls):
            if kind is not None and kind != name:
                raise UserError(f"a {name} result cannot be rendered as a {kind} report")
            return result, name
    raise UserError(f"cannot render a {type(result).__name__} as a report")


def normalise_format(fmt: str) -> str:
    key = str(fmt).strip().lower().lstrip(".")
    if key not in _FORMAT_ALIASES:
        raise UserError(f"unknown report format '{fmt}'", hint="use text, md, html or json")
    return _FORMAT_ALIASES[key]


def _detail(detail: str | None) -> str:
    key = (detail or "brief").strip().lower()
    if key not in DETAILS:
        raise UserError(f"unknown report detail '{detail}'", hint="use brief or full")
    return key


def format_for(path: str | os.PathLike[str] | None, fmt: str | None = None) -> str:
    """The report format: ``fmt`` when given, else from the suffix of ``path`` (text when neither)."""
    if fmt:
        return normalise_format(fmt)
    if path is None or str(path) == "-":
        return "text"
    suffix = Path(path).suffix.lower()
    if suffix not in _SUFFIXES:
        raise UserError(f"cannot tell the report format from the suffix '{suffix or '(none)'}'",
                        where=str(path), hint="name the file .md, .html, .json or .txt, or give --format")
    return _SUFFIXES[suffix]


def report_currency(currency: str | None, fx_rate: float | None, results: list[Any]) -> str:
    """The report's currency: the one asked for; else CNY when a rate is given; else the currency
    the (first) input file wrote its amounts in, so a file priced in yuan gets a report in yuan."""
    if currency:
        return currency
    if fx_rate is not None:
        return "CNY"
    info = next((r.currency for r in results if r is not None and getattr(r, "currency", None) is not None), None)
    return str(getattr(info, "asked", "USD")) if info is not None else "USD"


def view_model(result: Any, *, lang: str = "en", currency: str = "USD", fx_rate: float | None = None,
               kind: str | None = None, knowledge: str | os.PathLike[str] | None = None,
               detail: str = "brief", fmt: str = "text") -> dict[str, Any]:
    """The dict the templates receive (exposed for tests and for other front ends)."""
    result, kind = _kind_of(result, kind)
    f = Fmt(lang, currency_for(currency, fx_rate, knowledge, getattr(result, "currency", None)))
    return getattr(View(result, kind, f, _detail(detail), normalise_format(fmt)), kind)()


def render(result: Any, fmt: str, *, lang: str = "en", currency: str = "USD", fx_rate: float | None = None,
           kind: str | None = None, knowledge: str | os.PathLike[str] | None = None, detail: str = "brief") -> str:
    """The report as a string. ``fmt``: text | md | html | json (an estimate: text or json).

    ``detail``: ``brief`` (default) or ``full``.  ``currency="CNY"`` converts money at ``fx_rate``
    or, without one, at the rate the result carries (else the knowledge base's ``usd_cny``;
    ``knowledge``: an overlay directory); the report states the rate, its date and its source.
    JSON ignores ``lang``, ``currency`` and ``detail``: it is the contract's data, in USD.
    """
    fmt = normalise_format(fmt)
    result, kind = _kind_of(result, kind)
    lang = _lang(lang)
    detail = _detail(detail)
    if fmt == "json":
        return json.dumps(result.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    if kind == "estimate" and fmt != "text":
        raise UserError(f"an estimate is reported as text or json, not {fmt}")
    vm = view_model(result, lang=lang, currency=currency, fx_rate=fx_rate, kind=kind, knowledge=knowledge,
                    detail=detail, fmt=fmt)
    suffix = {"text": "txt", "md": "md", "html": "html"}[fmt]
    out = environment(lang).get_template(f"{kind}.{suffix}").render(vm=vm)
    if fmt != "html":  # the templates' section blocks leave runs of blank lines behind
        out = re.sub(r"\n{3,}", "\n\n", out).lstrip("\n")
    return out


def audit_summary_view(results: list[tuple[str, AuditResult | None, str]], *, lang: str = "en",
                       currency: str = "USD", fx_rate: float | None = None,
                       knowledge: str | os.PathLike[str] | None = None, detail: str = "brief",
                       fmt: str = "text") -> dict[str, Any]:
    """The view model of a batch audit: one row per proposal file and the verdict counts, then a
    section per proposal (its verdict, the proposal and the alternative in a line each, its
    blockers and warnings with their fixes; in full, every finding)."""
    info = next((res.currency for _, res, _ in results if res is not None and res.currency is not None), None)
    f = Fmt(lang, currency_for(currency, fx_rate, knowledge, info))
    _ = f._
    detail = _detail(detail)
    rows, counts, sections = [], {"approve": 0, "revise": 0, "reject": 0, "error": 0}, []
    for i, (path, res, err) in enumerate(results, 1):
        anchor = f"proposal-{i}"
        if res is None:
            counts["error"] += 1
            rows.append([path, _("input error"), "-", "-", err, "-"])
            sections.append({"id": anchor, "file": path, "title": path, "error": err, "verdict": None})
            continue
        counts[res.verdict] += 1
        blockers = sum(x.severity == "blocker" for x in res.findings)
        warnings = sum(x.severity == "warning" for x in res.findings)
        alt = res.alternative
        better = (f"{alt.count} × {alt.gpu_name or alt.gpu}" if alt else f.na())
        if alt and res.savings_usd is not None and res.savings_usd > 0:
            better = _("%(name)s (%(role)s)", name=better, role=_("saves %(amount)s", amount=f.money(res.savings_usd)))
        rows.append([path, _(VERDICT_LABELS[res.verdict]), str(blockers), str(warnings), res.title, better])
        vm = View(res, "audit", f, detail, normalise_format(fmt)).audit()
        sections.append({"id": anchor, "file": path, "title": res.title or path, "error": "",
                         "verdict": vm["verdict"], "proposal": vm["proposal"], "alternative": vm["alternative"],
                         "savings": vm["savings"], "issues": vm["issues"], "findings": vm["findings"],
                         "reasons": vm["comparison"]["reasons"] if vm["comparison"] else [],
                         "reasons_title": vm["comparison"]["reasons_title"] if vm["comparison"] else ""})
    headers = [_("File"), _("Verdict"), _("Blockers"), _("Warnings"), _("Title"), _("Best alternative")]
    totals = _("%(n)s proposals: %(approve)s approve, %(revise)s revise, %(reject)s reject, %(error)s input errors",
               n=len(results), **counts)
    return {"title": _("Audit of %(n)s proposals", n=len(results)), "html_lang": HTML_LANG[_lang(lang)],
            "totals": totals, "table": table(headers, rows, right=(2, 3)), "sections": sections,
            "full": detail == "full", "lang": f.lang,
            "currency": {"note": View(None, "audit", f, detail).currency_note()}}


def render_audit_summary(results: list[tuple[str, AuditResult | None, str]], fmt: str, **kw: Any) -> str:
    """A batch audit as text, Markdown or HTML: the summary table, then a section per proposal
    (JSON lines are written by the CLI)."""
    fmt = normalise_format(fmt)
    if fmt == "json":
        raise UserError("a batch audit's JSON is one document per line; use --format json")
    lang = _lang(kw.get("lang"))
    vm = audit_summary_view(results, fmt=fmt, **kw)
    suffix = {"text": "txt", "md": "md", "html": "html"}[fmt]
    out = environment(lang).get_template(f"audit-summary.{suffix}").render(vm=vm)
    return re.sub(r"\n{3,}", "\n\n", out).lstrip("\n") if fmt != "html" else out


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write already-rendered text atomically (see write_report)."""
    return _atomic_write(Path(path), text)


def write_report(result: Any, path: str | os.PathLike[str], fmt: str | None = None, **kw: Any) -> Path:
    """Render and write atomically: a temporary file beside ``path``, then ``os.replace``.

    The report is rendered completely before anything is written, and the temporary file is
    removed on any failure, so no partial report is ever left at ``path``.  ``kw`` are
    :func:`render`'s options (``lang``, ``currency``, ``fx_rate``, ``detail``...).
    """
    target = Path(path)
    fmt = format_for(target, fmt)
    return _atomic_write(target, render(result, fmt, **kw))


def _atomic_write(target: Path, text: str) -> Path:
    if not target.parent.is_dir():
        raise UserError("the report's directory does not exist", where=str(target))
    try:
        return atomic_write_text(target, text)
    except OSError as exc:
        raise UserError(f"cannot write the report: {exc.strerror or exc}", where=str(target)) from None
