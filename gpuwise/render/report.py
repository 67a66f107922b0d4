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

Public API: :func:`render`, :func:`write_report`, :func:`format_for`, :func:`render_audit_summary`,
:class:`AuditSummary`.
"""

from __future__ import annotations

import itertools
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from ..errors import N_, UserError
from ..results import EstimateResult, RecommendResult
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
    table,
    text_lines,
    times,
    translations,
)
from .formats import FORMATS, SUFFIXES, format_for, json_text, normalise_detail, normalise_format  # noqa: F401
from .output import atomic_write_text
from .textfit import fit_tables, fit_text, terminal_width
from .views import LEADING, build  # noqa: F401

if TYPE_CHECKING:
    from ..results_audit import AuditResult

KINDS = ("recommend", "audit", "estimate")
BRIEF_LINES = 80
"""The most lines of a brief text answer: two 80 × 40 screens."""


# ------------------------------------------------------------------------------ public API
def _result_class(kind: str) -> Any:
    """The result model of a report kind; the audit's is imported only when asked for (a
    recommendation's process never builds the audit's classes, :mod:`gpuwise.results_audit`)."""
    if kind == "audit":
        from ..results_audit import AuditResult

        return AuditResult
    return RecommendResult if kind == "recommend" else EstimateResult


def _kind_of(result: Any, kind: str | None) -> tuple[Any, str]:
    if kind is not None and kind not in KINDS:
        raise UserError(N_("unknown report kind '%(kind)s'"), hint=N_("use recommend, audit or estimate"),
                        values={"kind": kind})
    if isinstance(result, dict):
        if kind is None:
            kind = ("audit" if "verdict" in result else "recommend" if "recommendation" in result
                    else "estimate" if "memory" in result else None)
        if kind is None:
            raise UserError(N_("cannot tell what kind of result this is"),
                            hint=N_("pass kind=recommend|audit|estimate"))
        return _result_class(kind).model_validate(result), kind
    for name in KINDS:
        if name == "audit" and "gpuwise.results_audit" not in sys.modules:
            continue  # no audit result exists before its module is imported
        if isinstance(result, _result_class(name)):
            if kind is not None and kind != name:
                raise UserError(N_("a %(name)s result cannot be rendered as a %(kind)s report"),
                                values={"name": name, "kind": kind})
            return result, name
    raise UserError(N_("cannot render a %(name)s as a report"), values={"name": type(result).__name__})


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
    return build(result, kind, f, normalise_detail(detail), normalise_format(fmt))


def render(result: Any, fmt: str, *, lang: str = "en", currency: str = "USD", fx_rate: float | None = None,
           kind: str | None = None, knowledge: str | os.PathLike[str] | None = None, detail: str = "brief",
           width: int | None = None) -> str:
    """The report as a string. ``fmt``: text | md | html | json (an estimate: text or json).

    ``detail``: ``brief`` (default) or ``full``.  ``currency="CNY"`` converts money at ``fx_rate``
    or, without one, at the rate the result carries (else the knowledge base's ``usd_cny``;
    ``knowledge``: an overlay directory); the report states the rate, its date and its source.
    JSON ignores ``lang``, ``currency`` and ``detail``: it is the contract's data, in USD.
    Text fits ``width`` columns (default: ``COLUMNS``, the terminal's width, else 80).
    """
    fmt = normalise_format(fmt)
    result, kind = _kind_of(result, kind)
    lang = _lang(lang)
    detail = normalise_detail(detail)
    if fmt == "json":
        return json_text(result.model_dump(mode="json"))
    if kind == "estimate" and fmt != "text":
        raise UserError(N_("an estimate is reported as text or json, not %(fmt)s"), values={"fmt": fmt})
    vm = view_model(result, lang=lang, currency=currency, fx_rate=fx_rate, kind=kind, knowledge=knowledge,
                    detail=detail, fmt=fmt)
    return _place(vm, kind, fmt, lang, width)


def _place(vm: dict[str, Any], name: str, fmt: str, lang: str, width: int | None) -> str:
    """The view model put into its template; text laid out for the terminal's width."""
    suffix = {"text": "txt", "md": "md", "html": "html"}[fmt]
    cols = terminal_width(width) if fmt == "text" else 0
    if fmt == "text":
        vm = {**fit_tables(vm, cols), "width": cols}
    template = environment(lang).get_template(f"{name}.{suffix}")

    def place(vm: dict[str, Any], last: bool = True) -> str:
        out = template.render(vm=vm)
        if fmt != "html":  # the templates' section blocks leave runs of blank lines behind
            out = re.sub(r"\n{3,}", "\n\n", out).lstrip("\n")
        if fmt == "text":  # plain text: no Markdown code marks; every line within the width
            out = times(re.sub(r"`([^`\n]+)`", r"\1", out))
            if not last and out.count("\n") > BRIEF_LINES:
                return out  # too long before fitting, which only wraps lines: placed again, saying less
            out = fit_text(out, cols)
        elif fmt == "md":
            out = times(out)
        return out

    if fmt != "text" or vm.get("full"):
        return place({**vm, "compact": 0})
    # the brief answer fits two 80 × 40 screens: when it does not, it says less, step by step -- the
    # answer's lines without what its sentence says and the steps without its name, then the
    # assumptions without their reasons, then the warnings past what fits named only, then the exchange
    # rate without its source
    out = place({**vm, "compact": 0}, last=False)
    issues = vm.get("issues")
    caps = range(issues["cap"] - 1, issues["floor"] - 1, -1) if isinstance(issues, dict) and "cap" in issues else ()
    levels = [(1, None), (2, None), *((2, c) for c in caps)]
    levels.append((3, levels[-1][1]))  # the exchange rate's source left to the full report
    levels.append((4, levels[-1][1]))  # last: a recommendation's answer without another layout's highest peak
    for n, (level, cap) in enumerate(levels, 1):
        if out.count("\n") <= BRIEF_LINES:
            break
        shown = {**vm, "compact": level}
        if cap is not None:
            shown["issues"] = {**issues, "cap": cap}
        out = place(shown, last=n == len(levels))
    return out


def render_audit_summary(results: list[tuple[str, AuditResult | None, str]], fmt: str, **kw: Any) -> str:
    """A batch audit as text, Markdown or HTML: the summary table, then a section per proposal
    (JSON lines are written by the CLI): :class:`AuditSummary` given the results in order, kept in
    memory -- the one way a batch's report is made."""
    summary = AuditSummary(fmt, None, **kw)
    for path, result, error in results:
        summary.add(path, result, error)
    return summary.text()


_SECTIONS = "\x00gpuwise: the sections\x00"
"""Where the sections go in the summary's page (``vm.slot``): no text read from a file is after it."""


class AuditSummary:
    """A batch audit's text, Markdown or HTML built as each proposal's audit finishes (:meth:`add`):
    each result becomes its row and its section's text straight away and is dropped, and the sections'
    texts wait in ``spool`` (a binary file; ``None``: in memory), so the batch's memory grows with
    neither its results nor its report.  ``kw``: as :func:`render_audit_summary`'s (``lang``,
    ``currency``, ``fx_rate``, ``knowledge``, ``detail``, ``width``)."""

    def __init__(self, fmt: str, spool: BinaryIO | None = None, **kw: Any):
        self.fmt = normalise_format(fmt)
        if self.fmt == "json":
            raise UserError(N_("a batch audit's JSON is one document per line; use --format json"))
        self.lang = _lang(kw.get("lang"))
        width = kw.pop("width", None)
        self.cols = terminal_width(width) if self.fmt == "text" else 0
        from .views.batch import BatchSummary

        self.env = environment(self.lang)
        self.suffix = {"text": "txt", "md": "md", "html": "html"}[self.fmt]
        self.section = self.env.get_template(f"audit-summary-section.{self.suffix}")
        self.spool = spool
        self.summary = BatchSummary(self._section, fmt=self.fmt, **kw)

    def add(self, path: str, result: AuditResult | None, error: str = "") -> None:
        """One proposal file's audit (``None``: the one-line ``error`` it met)."""
        self.summary.add(path, result, error)

    def _section(self, s: dict[str, Any], common: dict[str, Any]) -> Any:
        if self.fmt == "text":
            s = fit_tables(s, self.cols)
        text = self.section.render(vm=common, s=s)
        if self.spool is None:
            return text
        data = text.encode("utf-8", "surrogatepass")
        self.spool.seek(0, os.SEEK_END)
        at = self.spool.tell()
        self.spool.write(data)
        return at, len(data)

    def _text_of(self, part: Any) -> str:
        if self.spool is None:
            return str(part)
        at, size = part
        self.spool.seek(at)
        return self.spool.read(size).decode("utf-8", "surrogatepass")

    def chunks(self) -> Iterator[str]:
        """The whole report, a piece at a time: the summary placed around the sections, tidied as
        :func:`_place` tidies a report."""
        vm, parts = self.summary.finish()
        if self.fmt == "text":
            vm = {**fit_tables(vm, self.cols), "width": self.cols}
        page = self.env.get_template(f"audit-summary.{self.suffix}").render(vm={**vm, "compact": 0, "slot": _SECTIONS})
        head, mark, tail = page.rpartition(_SECTIONS)
        assert mark, "the summary template places no sections"
        del page, vm
        tidy = None if self.fmt == "html" else _Tidy(self.fmt, self.cols)
        out = ""
        for raw in itertools.chain((head,), map(self._text_of, parts), (tail,)):  # one section read at a time
            out = raw if tidy is None else tidy.feed(raw)
            if out:
                yield out
        if tidy is not None and (out := tidy.end()):
            yield out

    def text(self) -> str:
        """The whole report in one string."""
        return "".join(self.chunks())


class _Tidy:
    """A text or Markdown report's last steps (:func:`_place`'s) over its text given in pieces:
    runs of blank lines made one and none at the start, and in text no code marks and every line
    within ``cols``, one multiplication sign.  The same text as those steps over the whole: a run
    of line breaks across pieces is held back until its end, and a line is tidied only once its
    line break is in."""

    def __init__(self, fmt: str, cols: int):
        self.fmt, self.cols = fmt, cols
        self.breaks = 0  # line breaks at the end of the text so far, not yet given
        self.started = False  # any text other than line breaks given yet
        self.line = ""  # the last line given, from its line break on: not tidied yet

    def feed(self, raw: str) -> str:
        body = raw.rstrip("\n")
        trail = len(raw) - len(body)
        if not body:
            self.breaks += trail
            return ""
        lead = len(body) - len(body.lstrip("\n"))
        run = self.breaks + lead if self.started else 0
        self.started, self.breaks = True, trail
        text = self.line + "\n" * min(run, 2) + re.sub(r"\n{3,}", "\n\n", body[lead:])
        cut = text.rfind("\n")
        if cut <= 0:
            self.line = text
            return ""
        self.line = text[cut:]
        return self._tidied(text[:cut])

    def end(self) -> str:
        text = self.line + ("\n" * min(self.breaks, 2) if self.started else "")
        self.line, self.breaks = "", 0
        return self._tidied(text)

    def _tidied(self, text: str) -> str:
        if self.fmt == "text":
            return fit_text(times(re.sub(r"`([^`\n]+)`", r"\1", text)), self.cols)
        return times(text)


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
        raise UserError(N_("the report's directory does not exist"), where=str(target))
    try:
        return atomic_write_text(target, text)
    except OSError as exc:
        raise UserError(N_("cannot write the report: %(strerror)s"), where=str(target),
                        values={"strerror": exc.strerror or exc}) from None
