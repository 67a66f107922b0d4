"""Reports: a result becomes text, Markdown, HTML or JSON.

The pipeline is ``result -> view model -> Jinja2 template``.  The view model is a tree of
plain dicts and lists of *preformatted strings* ("80.0 GB", "$12,345", "3.2 days"), built
here by small formatting helpers; the templates under ``reports/templates/`` only place
those strings (they never compute, and ``StrictUndefined`` makes a missing field an error
instead of a blank).  Chart geometry comes from :mod:`engine.charts`.  JSON is the result's
``model_dump(mode="json")``, untouched: money stays in USD there whatever ``currency`` says.

Languages: English, and Simplified Chinese with ``lang="zh"``, through gettext catalogs in
``engine/locale`` (see its README).  Strings written here are marked with ``N_`` so that
``pybabel extract`` finds them; they are translated when the view model is built.
Sentences that rules and the decision produce (findings, step conclusions, the summary) arrive
with their template and values: the template is translated through the same catalog (its English
text is the msgid) and filled in the report's currency; a house rule's own sentence stays as written.

Public API: :func:`render`, :func:`write_report`, :func:`format_for`.
"""

from __future__ import annotations

import functools
import gettext
import json
import math
import os
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..messages import fill
from ..paths import templates_dir
from ..results import (
    CORE_STEPS,
    SEVERITIES,
    STEPS,
    AuditResult,
    Candidate,
    EstimateResult,
    Finding,
    FormulaTerm,
    Recommendation,
    RecommendResult,
)
from . import charts as C
from .output import atomic_write_text

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "gpuwise"
FORMATS = ("text", "md", "html", "json")
_FORMAT_ALIASES = {"text": "text", "txt": "text", "md": "md", "markdown": "md", "html": "html",
                   "htm": "html", "json": "json"}
_SUFFIXES = {".txt": "text", ".text": "text", ".md": "md", ".markdown": "md", ".html": "html",
             ".htm": "html", ".json": "json"}
_LANGS = {"en": "en", "en_us": "en", "en_gb": "en", "zh": "zh", "zh_cn": "zh", "zh_hans": "zh",
          "zh_hans_cn": "zh"}
_LOCALES = {"en": None, "zh": "zh_CN"}
_HTML_LANG = {"en": "en", "zh": "zh-CN"}
KINDS = ("recommend", "audit", "estimate")
STEP_ORDER = STEPS
DASH = "—"
LEADING = 8
"""How many candidates the per-step tables show (the best-ranked feasible ones)."""


def N_(message: str) -> str:
    """Mark a string for translation (``pybabel extract -k N_``); it is translated later."""
    return message


# ------------------------------------------------------------------------------ labels
KIND_LABELS = {
    "weights": N_("Weights"), "gradients": N_("Gradients"), "optimizer": N_("Optimizer state"),
    "activations": N_("Activations"), "kv_cache": N_("KV cache"), "overhead": N_("Overhead"),
}
STEP_TITLES = {
    "memory": N_("Step 1: Memory"), "compute": N_("Step 2: Compute"),
    "interconnect": N_("Step 3: Interconnect"), "tco": N_("Step 4: Cost of ownership (rent or buy)"),
    "pitfalls": N_("Pitfall checks"),
}
STEP_NAMES = {"memory": N_("memory"), "compute": N_("compute"), "interconnect": N_("interconnect"),
              "tco": N_("cost"), "pitfalls": N_("pitfalls")}
SEVERITY_LABELS = {"blocker": N_("Blockers"), "warning": N_("Warnings"), "info": N_("Information")}
SEVERITY_ONE = {"blocker": N_("blocker"), "warning": N_("warning"), "info": N_("info")}
TOPIC_LABELS = {
    "memory": N_("memory"), "compute": N_("compute"), "interconnect": N_("interconnect"), "cost": N_("cost"),
    "compatibility": N_("compatibility"), "used-hardware": N_("used hardware"),
    "cloud-fees": N_("cloud fees"),
    "power-cooling": N_("power and cooling"), "licensing": N_("licensing"),
    "data-freshness": N_("data freshness"),
}
ACQUISITION_LABELS = {"rent": N_("rent"), "buy": N_("buy"), "either": N_("rent or buy")}
VERDICT_LABELS = {"approve": N_("APPROVE"), "revise": N_("REVISE"), "reject": N_("REJECT")}
VERDICT_TEXT = {
    "approve": N_("No blockers and no warnings: the proposal can go ahead as written."),
    "revise": N_("Warnings only: revise the proposal before committing money."),
    "reject": N_("At least one blocker: do not proceed with the proposal as written."),
}
TERM_LABELS = {
    **KIND_LABELS,
    "training_flops": N_("Training FLOPs"), "flops": N_("FLOPs"), "wall_hours": N_("Wall-clock time"),
    "gpu_hours": N_("GPU-hours"), "decode_tokens_per_s": N_("Decode speed, one sequence"),
    "decode_tokens_per_s_total": N_("Decode speed, all sequences"),
    "prefill_tokens_per_s": N_("Prefill speed"), "allreduce_seconds": N_("All-reduce time per step"),
    "scaling_efficiency": N_("Scaling efficiency"), "rent_usd": N_("Rent"), "buy_usd": N_("Buy, total"),
    "cards_usd": N_("Cards"), "server_usd": N_("Server share"), "power_usd": N_("Electricity"),
    "hosting_usd": N_("Hosting"), "licences_usd": N_("Licences"), "resale_usd": N_("Resale value"),
    "cloud_fees_usd": N_("Cloud fees"), "per_gpu": N_("Memory per GPU"),
}
DATE_LABELS = {"oldest": N_("Oldest dated figure"), "newest": N_("Newest dated figure")}
CARD_FIELDS: tuple[tuple[str, str, str], ...] = (
    # key in the audit's card dict, label, how to show it ("text", "count", "ratio", "bool", "match")
    ("serial", N_("Serial"), "text"),
    ("product_name", N_("Product reported by nvidia-smi"), "text"),
    ("product_matches", N_("Product matches the proposal"), "match"),
    ("manufactured", N_("Manufactured"), "text"),
    ("purchased", N_("Purchased"), "text"),
    ("months_to_sale", N_("Months from manufacture to sale"), "count"),
    ("age_months", N_("Months from manufacture to sale"), "count"),
    ("mining_era", N_("Made during the GPU-mining boom"), "bool"),
    ("fan_cv", N_("Fan speed variation under load (CV)"), "ratio"),
    ("fan_swing", N_("Fan speed swing under load, of the mean"), "pct"),
    ("power_cv", N_("Power draw variation under load (CV)"), "ratio"),
    ("power_swing", N_("Power draw swing under load, of the mean"), "pct"),
    ("has_smi", N_("nvidia-smi report given"), "bool"),
    ("smi_error", N_("nvidia-smi report problem"), "text"),
    ("retired_pages", N_("Retired memory pages"), "smi-count"),
    ("remapped_rows", N_("Remapped memory rows"), "smi-count"),
    ("pending", N_("Memory repair pending"), "smi-bool"),
    ("remap_failure", N_("Row remapping failed"), "smi-bool"),
    ("uncorrectable_ecc", N_("Uncorrectable ECC errors"), "smi-count"),
    ("correctable_ecc", N_("Correctable ECC errors"), "smi-count"),
    ("pcie", N_("PCIe link"), "pcie"),
    ("power_limit", N_("Power limit"), "power"),
    ("clocks_changed", N_("Clocks changed from their defaults"), "smi-bool"),
    ("throttle_reasons", N_("Active clock limiters"), "text"),
    ("vbios", N_("VBIOS"), "text"),
    ("vbios_version", N_("VBIOS"), "text"),
)
CARD_INTERNAL = {  # derived flags the rules use; the rows above already show what they come from
    "card", "gpu", "consumer", "has_dates", "throttling", "hw_slowdown", "at_idle", "width_below_max",
    "gen_below_max", "link_width", "link_width_max", "link_gen", "link_gen_max", "power_limit_w",
    "default_power_limit_w", "power_limit_changed", "fan_samples", "power_samples", "status", "verdict",
}
CARD_STATUS = {"ok": N_("passed"), "pass": N_("passed"), "passed": N_("passed"), "suspect": N_("suspect"),
               "warn": N_("suspect"), "warning": N_("suspect"), "fail": N_("failed"), "failed": N_("failed"),
               "unknown": N_("could not check")}


# --------------------------------------------------------------------------- languages
def _lang(lang: str | None) -> str:
    key = (lang or "en").strip().lower().replace("-", "_")
    if key not in _LANGS:
        raise UserError(f"unknown report language '{lang}'", hint="use en or zh")
    return _LANGS[key]


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The gettext catalog for ``lang`` (``en``: none, the messages are English)."""
    locale = _LOCALES[_lang(lang)]
    if locale is None:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[locale])


@functools.cache
def environment(lang: str = "en") -> Any:
    """The Jinja2 environment for ``lang``: strict undefined, HTML autoescaped, i18n installed."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    env = Environment(
        loader=FileSystemLoader(str(templates_dir())),
        undefined=StrictUndefined,
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    env.filters["md"] = md_escape
    env.filters["mdcode"] = md_code
    return env


def md_escape(value: Any) -> str:
    """Text made safe inside a Markdown paragraph or table cell (no tables broken, no HTML)."""
    text = " ".join(str(value).split())
    for a, b in (("\\", "\\\\"), ("|", "\\|"), ("*", "\\*"), ("<", "&lt;"), (">", "&gt;"), ("`", "\\`")):
        text = text.replace(a, b)
    return text


def md_code(value: Any) -> str:
    """An inline code span that survives any backticks and pipes in ``value``."""
    text = " ".join(str(value).split()).replace("|", "\\|")
    if not text:
        return ""
    fence = "``" if "`" in text else "`"
    return f"{fence} {text} {fence}" if fence == "``" else f"`{text}`"


# ---------------------------------------------------------------------------- currency
@dataclass(frozen=True)
class Currency:
    """Which currency the report shows money in, and the rate from USD."""

    code: str = "USD"
    rate: float = 1.0
    as_of: str = ""
    source: str = ""
    given: bool = False


def currency_for(currency: str | None = "USD", fx_rate: float | None = None,
                 knowledge: str | os.PathLike[str] | None = None, info: Any = None) -> Currency:
    """USD as is; CNY at ``fx_rate``, or at the rate the result carries (``info``: its
    ``currency`` block, with date and source), or else the knowledge base's ``usd_cny``."""
    code = (currency or "USD").strip().upper()
    if code not in ("USD", "CNY"):
        raise UserError(f"unknown report currency '{currency}'", hint="use USD or CNY")
    if code == "USD":
        if fx_rate is not None and fx_rate != 1:
            raise UserError("an exchange rate only applies to a non-USD currency", hint="add --currency CNY")
        return Currency()
    if fx_rate is not None:
        rate = float(fx_rate)
        if not math.isfinite(rate) or rate <= 0:
            raise UserError(f"exchange rate must be a positive number, got {fx_rate!r}")
        return Currency("CNY", rate, given=True)
    if info is not None:
        return Currency("CNY", float(info.usd_cny), info.as_of, " ".join(info.source.split()))
    from ..knowledge import load

    v = load(knowledge).tco_value("usd_cny")
    return Currency("CNY", float(v.value), v.as_of.isoformat() if v.as_of else "", " ".join(v.source.split()))


# ---------------------------------------------------------------------------- formatting
class Fmt:
    """Number formatting in one language and currency. Every string the reports show comes from here."""

    def __init__(self, lang: str = "en", currency: Currency | None = None):
        self.lang = _lang(lang)
        self.tr = translations(self.lang)
        self.cur = currency or Currency()

    def _(self, message: str, **kw: Any) -> str:
        text = self.tr.gettext(message)
        return text % kw if kw else text

    def sentence(self, template: str, values: dict[str, Any], english: str = "") -> str:
        """A rule's or the decision's sentence in this language and currency: the template
        translated (the English template is the msgid), filled with its values. Without a template
        (an old result) the English text is shown as it came."""
        if not template:
            return " ".join(english.split())
        return " ".join(fill(self.tr.gettext(template), values, self._money).split())

    def _money(self, usd: float, decimals: int = 0) -> str:
        local = self.to_local(usd)
        if decimals and local is not None and abs(local) < 100:
            sym = "$" if self.cur.code == "USD" else ("¥" if self.lang == "zh" else "CN¥")
            return f"{'-' if local < 0 else ''}{sym}{abs(local):,.2f}"
        return self.local(local)

    def ngettext(self, singular: str, plural: str, n: int, **kw: Any) -> str:
        return self.tr.ngettext(singular, plural, n) % {"n": n, **kw}

    # plain numbers -------------------------------------------------------------------
    @staticmethod
    def num(v: float | None, digits: int = 1) -> str:
        if v is None or not isinstance(v, (int, float)) or not math.isfinite(v):
            return DASH
        if abs(v) >= 1e6:
            return eng(v)
        if float(v).is_integer():
            return f"{int(v):,}"
        return f"{v:,.{digits}f}"

    def na(self) -> str:
        return self._("n/a")

    def bytes(self, b: float | None) -> str:
        """Decimal units (1 GB = 10^9 bytes), as the knowledge base and the formulas use."""
        if b is None:
            return self.na()
        a = abs(b)
        if a == 0:
            return "0 GB"
        if a < 1e9:
            return f"{b / 1e6:,.0f} MB"
        if a < 1e12:
            return f"{b / 1e9:,.1f} GB"
        return f"{b / 1e12:,.2f} TB"

    @staticmethod
    def bytes_tick(b: float) -> str:
        return f"{b / 1e9:g} GB" if b else "0"

    def local(self, amount: float | None, *, compact: bool = False) -> str:
        """An amount already in the report's currency."""
        if amount is None or not math.isfinite(amount):
            return self.na()
        sign = "-" if amount < 0 else ""
        a = abs(amount)
        sym = "$" if self.cur.code == "USD" else ("¥" if self.lang == "zh" else "CN¥")
        if compact:
            if self.lang == "zh":  # Chinese groups by 10^4 (万) and 10^8 (亿)
                text = f"{a / 1e8:g}亿" if a >= 1e8 else f"{a / 1e4:g}万" if a >= 1e4 else f"{a:,.0f}"
            elif a >= 1e6:
                text = f"{a / 1e6:g}M"
            elif a >= 1e3:
                text = f"{a / 1e3:g}k"
            else:
                text = f"{a:g}"
            return f"{sign}{sym}{text}"
        text = f"{a:,.0f}" if a >= 100 or a == 0 else f"{a:,.2f}"
        return f"{sign}{sym}{text}"

    def to_local(self, usd: float | None) -> float | None:
        return None if usd is None else usd * self.cur.rate

    def money(self, usd: float | None) -> str:
        return self.local(self.to_local(usd))

    def money_shown(self, usd: float | None) -> str:
        """Money in the report's currency, with the USD figure beside it when converted."""
        if usd is None or self.cur.code == "USD":
            return self.money(usd)
        return f"{self.money(usd)} (US${abs(usd):,.0f})" if abs(usd) >= 100 else \
            f"{self.money(usd)} (US${usd:,.2f})"

    def days(self, d: float | None) -> str:
        if d is None or not math.isfinite(d):
            return self.na()
        if d < 1:
            return self.hours(d * 24)
        return self._("%(n)s days", n=format(d, ",.1f"))

    def hours(self, h: float | None) -> str:
        if h is None or not math.isfinite(h):
            return self.na()
        if h >= 48:
            return self._("%(n)s hours", n=format(h, ",.0f"))
        return self._("%(n)s hours", n=format(h, ",.1f"))

    def month(self, m: float | None) -> str:
        if m is None:
            return self.na()
        return self._("month %(n)s", n=format(m, "g"))

    @staticmethod
    def pct(x: float | None, digits: int = 0) -> str:
        if x is None or not math.isfinite(x):
            return DASH
        return f"{x * 100:.{digits}f}%"

    def yes_no(self, v: bool | None) -> str:
        if v is None:
            return self.na()
        return self._("yes") if v else self._("no")

    def acquisition(self, mode: str | None) -> str:
        if not mode:
            return self.na()
        return self._(ACQUISITION_LABELS[mode]) if mode in ACQUISITION_LABELS else mode

    def kind(self, kind: str) -> str:
        return self._(KIND_LABELS[kind]) if kind in KIND_LABELS else kind

    def quantity(self, value: float, unit: str) -> str:
        """A formula term's value in its unit."""
        if unit == "B":
            return self.bytes(value)
        if unit == "USD":
            return self.money_shown(value)
        if unit == "h":
            return self.hours(value)
        if unit == "GPU-h":
            return self._("%(n)s GPU-hours", n=self.num(value, 0) if value >= 10 else format(value, ".2f"))
        if unit == "tok/s":
            return self._("%(n)s tokens/s", n=self.num(value))
        if unit == "s":
            return f"{value:,.3g} s" if value < 100 else f"{value:,.0f} s"
        if unit == "FLOP":
            return f"{eng(value)} FLOP"
        if unit in ("", "fraction"):
            return f"{value:.3g}"
        return f"{self.num(value)} {unit}"


def eng(v: float) -> str:
    """Engineering notation for large counts: 6.9e10 -> '69e9', 2.1e21 -> '2.1e21'."""
    if v == 0 or not math.isfinite(v):
        return str(v)
    exp = int(math.floor(math.log10(abs(v)) / 3) * 3)
    mant = v / 10**exp
    return f"{mant:.3g}e{exp}"


def input_text(v: Any) -> str:
    """A formula input as written in the report: counts, ratios, strings, nested dicts."""
    if v is None:
        return DASH
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return eng(v) if abs(v) >= 1e6 else f"{v:,}"
    if isinstance(v, float):
        if not math.isfinite(v):
            return str(v)
        if abs(v) >= 1e6:
            return eng(v)
        if v.is_integer():
            return f"{int(v):,}"
        return f"{v:.4g}"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}={input_text(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return ", ".join(input_text(x) for x in v) or DASH
    return " ".join(str(v).split())


def substitute(formula: str, inputs: dict[str, Any]) -> str:
    """The formula with every input whose name appears in it (as a whole word) replaced by its value."""
    out = formula
    for key in sorted(inputs, key=len, reverse=True):
        v = inputs[key]
        if isinstance(v, (dict, list, tuple)) or v is None:
            continue
        out = re.sub(rf"(?<![\w.-]){re.escape(key)}(?![\w-])", lambda _m, v=v: input_text(v), out)
    return out


def display_width(text: str) -> int:
    """Terminal columns: East Asian wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def text_lines(headers: list[str], rows: list[list[str]], right: Iterable[int] = ()) -> list[str]:
    """A plain-text table: header, a rule, rows; columns in ``right`` aligned right."""
    right = set(right)
    cols = len(headers)
    widths = [max([display_width(headers[i])] + [display_width(r[i]) for r in rows if i < len(r)])
              for i in range(cols)]

    def line(cells: list[str]) -> str:
        out = []
        for i in range(cols):
            cell = cells[i] if i < len(cells) else ""
            pad = " " * (widths[i] - display_width(cell))
            out.append(pad + cell if i in right else cell + pad)
        return "  ".join(out).rstrip()

    return [line(headers), "  ".join("-" * w for w in widths), *(line(r) for r in rows)]


def table(headers: list[str], rows: list[list[str]], *, right: Iterable[int] = (),
          classes: list[str] | None = None) -> dict[str, Any]:
    """A table for every format: headers and cells for Markdown and HTML, laid-out lines for text."""
    right = tuple(right)
    cls = classes or [""] * len(rows)
    return {"headers": headers, "rows": [{"cells": r, "cls": c} for r, c in zip(rows, cls, strict=True)],
            "right": list(right), "lines": text_lines(headers, rows, right)}


# ---------------------------------------------------------------------------- view model
class _View:
    """Builds the view model of one result in one language and currency."""

    def __init__(self, result: Any, kind: str, f: Fmt):
        self.r = result
        self.kind = kind
        self.f = f
        self._ = f._
        self.sources = self._rule_sources()

    # shared pieces --------------------------------------------------------------------
    def _rule_sources(self) -> dict[str, str]:
        """Rule id -> source, from the result itself (its trace and findings): a report needs no
        rule files."""
        out: dict[str, str] = {}
        for entry in [*getattr(self.r, "trace", []), *getattr(self.r, "findings", [])]:
            if entry.source and entry.rule not in out:
                out[entry.rule] = " ".join(entry.source.split())
        return out

    def base(self) -> dict[str, Any]:
        f = self.f
        cur = f.cur
        if cur.code == "USD":
            note = self._("Amounts are in US dollars.")
        elif cur.given:
            note = self._("Amounts are in Chinese yuan at %(rate)s CNY per USD, the rate given for this "
                          "report.", rate=format(cur.rate, "g"))
        else:
            note = self._("Amounts are in Chinese yuan at %(rate)s CNY per USD (as of %(date)s; source: "
                          "%(source)s).", rate=format(cur.rate, "g"), date=cur.as_of or f.na(),
                          source=cur.source)
        return {
            "kind": self.kind, "lang": f.lang, "html_lang": _HTML_LANG[f.lang],
            "currency": {"code": cur.code, "rate": f"{cur.rate:g}", "as_of": cur.as_of, "source": cur.source,
                         "note": note},
            "units_note": self._("GB = 10^9 bytes. Times are wall-clock unless marked GPU-hours."),
        }

    def question(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        """The question as understood: every given field, and each default marked with its reason."""
        assumed = {a.field: a for a in getattr(self.r, "assumptions", [])}
        rows, seen = [], set()
        for field, value in _flatten(data):
            a = assumed.get(field)
            if value is None and a is None:
                continue
            seen.add(field)
            shown = value if a is None or a.value is None else a.value
            rows.append({"field": field, "value": input_text(shown), "assumed": a is not None,
                         "reason": self.assumption(a) if a else ""})
        for field, a in assumed.items():
            if field not in seen:
                rows.append({"field": field, "value": input_text(a.value), "assumed": True,
                             "reason": self.assumption(a)})
        return rows

    def assumption(self, a: Any) -> str:
        """An assumption's reason in this language (its sentence template when it has one)."""
        return self.f.sentence(a.template, a.values, _reason(a.reason)) if a.template else _reason(a.reason)

    def rules_of(self, ids: Iterable[str]) -> list[dict[str, str]]:
        return [{"id": i, "source": self.sources.get(i, "")} for i in dict.fromkeys(ids)]

    def term(self, t: FormulaTerm) -> dict[str, str]:
        label = self._(TERM_LABELS[t.name]) if t.name in TERM_LABELS else t.name
        with_numbers = substitute(t.formula, t.inputs)
        return {
            "name": t.name, "label": label, "formula": " ".join(t.formula.split()),
            "with_numbers": with_numbers if with_numbers != t.formula else "",
            "inputs": ", ".join(f"{k} = {input_text(v)}" for k, v in t.inputs.items()),
            "value": self.f.quantity(t.value, t.unit), "note": t.note,
        }

    def findings(self, findings: list[Finding]) -> dict[str, Any]:
        groups = []
        for sev in SEVERITIES:
            items = [self.finding(x) for x in findings if x.severity == sev]
            if items:
                groups.append({"severity": sev, "label": self._(SEVERITY_LABELS[sev]), "entries": items})
        n = {s: sum(1 for x in findings if x.severity == s) for s in SEVERITIES}
        counts = [self.f.ngettext("%(n)s blocker", "%(n)s blockers", n["blocker"]),
                  self.f.ngettext("%(n)s warning", "%(n)s warnings", n["warning"]),
                  self.f.ngettext("%(n)s note", "%(n)s notes", n["info"])]
        return {"groups": groups, "count": len(findings), "summary": ", ".join(counts),
                "none": self._("No findings.")}

    def finding(self, x: Finding) -> dict[str, str]:
        return {
            "rule": x.rule, "severity": x.severity, "severity_label": self._(SEVERITY_ONE[x.severity]),
            "topic": self._(TOPIC_LABELS[x.topic]) if x.topic in TOPIC_LABELS else x.topic,
            "subject": x.subject, "message": self.f.sentence(x.template, x.values, x.message),
            "fix": self.f.sentence(x.fix_template, x.values, x.fix),
            "source": " ".join(x.source.split()),
            "evidence": ", ".join(f"{k} = {input_text(v)}" for k, v in x.evidence.items()),
        }

    def reasons(self, c: Candidate) -> list[str]:
        """Why a candidate is out, in this language and currency."""
        if c.reason_sentences:
            return [self.f.sentence(s.template, s.values, s.text) for s in c.reason_sentences]
        return [" ".join(r.split()) for r in c.reasons]

    def knowledge(self) -> dict[str, Any]:
        dates = [{"label": self._(DATE_LABELS[k]) if k in DATE_LABELS else k, "date": str(v)}
                 for k, v in self.r.knowledge_dates.items()]
        stale = []
        for s in getattr(self.r, "stale_prices", []) or []:
            age = s.get("age_days")
            stale.append(self._("%(what)s: price as of %(as_of)s, %(age)s days old; check it before "
                                "relying on it.", what=s.get("what", "?"), as_of=s.get("as_of", "?"),
                                age=format(age, ",.0f") if isinstance(age, (int, float)) else "?"))
        return {"dates": dates, "stale": stale,
                "stale_banner": self.f.ngettext(
                    "%(n)s price used here is more than a year old; see Data freshness.",
                    "%(n)s prices used here are more than a year old; see Data freshness.", len(stale))
                if stale else ""}

    def trace_table(self) -> dict[str, Any] | None:
        trace = getattr(self.r, "trace", [])
        if not trace:
            return None
        rows = [[e.rule, self._(STEP_NAMES[e.step]) if e.step in STEP_NAMES else e.step,
                 self.f.sentence(e.template, e.values, e.conclusion), " ".join(e.source.split())] for e in trace]
        return table([self._("Rule"), self._("Step"), self._("Conclusion"), self._("Source")], rows)

    def gpus_on_nodes(self, count: int, nodes: int) -> str:
        gpus = self.f.ngettext("%(n)s GPU", "%(n)s GPUs", count)
        return self.f.ngettext("%(gpus)s on %(n)s node", "%(gpus)s on %(n)s nodes", nodes, gpus=gpus)

    def candidate_name(self, c: Candidate | Recommendation) -> str:
        name = c.gpu_name or c.gpu
        return f"{c.count} × {name}"

    # steps ---------------------------------------------------------------------------
    def steps(self, focus: Candidate | None, candidates: list[Candidate], estimate: EstimateResult | None,
              always: Iterable[str] = CORE_STEPS) -> list[dict[str, Any]]:
        summaries = {s.step: s for s in self.r.steps}
        by_step: dict[str, list[Any]] = {}
        for e in self.r.trace:
            by_step.setdefault(e.step, []).append(e)
        order = [s for s in STEP_ORDER if s in summaries or s in by_step or s in always]
        order += [s for s in [*summaries, *by_step] if s not in order]
        out = []
        for sid in order:
            summary = summaries.get(sid)
            rules, seen = [], set()
            for e in by_step.get(sid, []):
                key = (e.rule, e.conclusion)
                if key not in seen:
                    seen.add(key)
                    rules.append({"id": e.rule, "conclusion": self.f.sentence(e.template, e.values, e.conclusion),
                                  "source": " ".join(e.source.split()) or self.sources.get(e.rule, "")})
            for rid in summary.rules if summary else []:
                if rid not in {r["id"] for r in rules}:
                    rules.append({"id": rid, "conclusion": "", "source": self.sources.get(rid, "")})
            terms = list(summary.terms) if summary and summary.terms else self._fallback_terms(sid, estimate)
            step = {
                "id": sid, "title": self._(STEP_TITLES[sid]) if sid in STEP_TITLES else sid,
                "conclusion": self.f.sentence(summary.template, summary.values, summary.conclusion) if summary else "",
                "rules": rules, "terms": [self.term(t) for t in terms], "tables": [], "notes": [],
            }
            self._step_details(step, focus, candidates, estimate)
            out.append(step)
        return out

    @staticmethod
    def _fallback_terms(sid: str, estimate: EstimateResult | None) -> list[FormulaTerm]:
        if estimate is None:
            return []
        if sid == "memory":
            return list(estimate.memory.terms)
        if sid == "compute":
            gpu_terms = [t for t in estimate.gpu.terms if t.unit != "USD"] if estimate.gpu else []
            return [*estimate.compute.terms, *gpu_terms]
        if sid == "tco" and estimate.gpu:
            return [t for t in estimate.gpu.terms if t.unit == "USD"]
        return []

    def _step_details(self, step: dict[str, Any], focus: Candidate | None, candidates: list[Candidate],
                      estimate: EstimateResult | None) -> None:
        f = self.f
        sid = step["id"]
        shown = _leading(candidates, focus, LEADING)
        feasible = sum(1 for c in candidates if c.feasible)
        if sid in CORE_STEPS and feasible > len([c for c in shown if c.feasible]):
            step["notes"].append(self._("The tables in this step show the %(n)s best-ranked of %(total)s feasible "
                                        "candidates; every candidate is in the table of all candidates.",
                                        n=len([c for c in shown if c.feasible]), total=feasible))
        if sid == "memory":
            if focus is not None and focus.memory_breakdown:
                total = sum(focus.memory_breakdown.values()) or 1
                rows = [[f.kind(k), f.bytes(v), f.pct(v / total)]
                        for k, v in _ordered(focus.memory_breakdown)]
                rows.append([self._("Total per GPU"), f.bytes(focus.memory_per_gpu_bytes), ""])
                if focus.usable_per_gpu_bytes:
                    rows.append([self._("Usable per GPU"), f.bytes(focus.usable_per_gpu_bytes), ""])
                if focus.capacity_per_gpu_bytes:
                    rows.append([self._("Capacity per GPU"), f.bytes(focus.capacity_per_gpu_bytes), ""])
                step["tables"].append({
                    "caption": self._("Memory per GPU for %(name)s", name=self.candidate_name(focus)),
                    **table([self._("Part"), self._("Per GPU"), self._("Share")], rows, right=(1, 2))})
            if estimate is not None:
                m = estimate.memory
                if m.layout:
                    step["notes"].append(self._("Memory layout modelled: %(layout)s.", layout=m.layout))
                if m.peak_phase:
                    step["notes"].append(self._("Peak memory is reached during: %(phase)s.",
                                                phase=m.peak_phase))
                if m.host_ram_bytes_per_node:
                    step["notes"].append(self._("Host RAM needed per node for offload: %(b)s.",
                                                b=f.bytes(m.host_ram_bytes_per_node)))
                step["notes"] += [" ".join(n.split()) for n in m.notes]
            rows, classes = [], []
            for c in shown:
                rows.append([self.candidate_name(c), c.strategy or DASH, f.bytes(c.memory_per_gpu_bytes),
                             f.bytes(c.usable_per_gpu_bytes or None),
                             f.bytes(c.capacity_per_gpu_bytes or None),
                             self._("fits") if _fits(c) else self._("does not fit")])
                classes.append("" if _fits(c) else "bad")
            if rows:
                step["tables"].append({
                    "caption": self._("Memory per GPU of the leading candidates"),
                    **table([self._("Candidate"), self._("Strategy"), self._("Needed"), self._("Usable"),
                             self._("Capacity"), self._("Fits")], rows, right=(2, 3, 4), classes=classes)})
        elif sid == "compute":
            cols: list[tuple[str, Callable[[Candidate], str], bool]] = [
                (self._("Candidate"), self.candidate_name, False),
                (self._("Strategy"), lambda c: c.strategy or DASH, False),
                (self._("GPU-hours"), lambda c: f.num(c.gpu_hours, 0), True),
                (self._("Wall-clock time"), lambda c: f.days(c.wall_days), True),
                (self._("Tokens/s, one sequence"), lambda c: f.num(c.decode_tokens_per_s), True),
                (self._("Tokens/s, all sequences"), lambda c: f.num(c.decode_tokens_per_s_total), True),
            ]
            keep = [0, 1] + [i for i, attr in ((2, "gpu_hours"), (3, "wall_days"), (4, "decode_tokens_per_s"),
                                               (5, "decode_tokens_per_s_total"))
                             if any(getattr(c, attr) is not None for c in shown)]
            if shown:
                step["tables"].append({
                    "caption": self._("Time on the leading candidates") if any(i in keep for i in (2, 3))
                    else self._("Decode speed on the leading candidates"),
                    **table([cols[i][0] for i in keep], [[cols[i][1](c) for i in keep] for c in shown],
                            right=[n for n, i in enumerate(keep) if cols[i][2]])})
        elif sid == "interconnect":
            rows = [[self.candidate_name(c), f.num(c.nodes), c.strategy or DASH, f.pct(c.scaling_efficiency),
                     "; ".join(c.strategy_changes) or DASH] for c in shown]
            if rows:
                step["tables"].append({
                    "caption": self._("Scaling across GPUs and nodes"),
                    **table([self._("Candidate"), self._("Nodes"), self._("Strategy"),
                             self._("Scaling efficiency"), self._("Changes from the question")],
                            rows, right=(1, 3))})
        elif sid == "tco":
            rows = [[self.candidate_name(c), f.money(c.rent_cost_usd), f.money(c.buy_cost_usd),
                     f.month(c.break_even_month) if c.break_even_month is not None else self._("never"),
                     f.acquisition(c.acquisition), f.money(c.total_cost_usd)] for c in shown]
            if rows:
                step["tables"].append({
                    "caption": self._("Rent or buy"),
                    **table([self._("Candidate"), self._("Rent"), self._("Buy"), self._("Break-even"),
                             self._("Acquisition"), self._("Total cost")], rows, right=(1, 2, 5))})

    def rejected(self, candidates: list[Candidate]) -> list[dict[str, Any]]:
        """Why not X: the rejected candidates grouped by GPU, reasons shared by every count said once."""
        groups: dict[str, list[Candidate]] = {}
        for c in candidates:
            if not c.feasible:
                groups.setdefault(c.gpu, []).append(c)
        out = []
        for gpu, cands in groups.items():
            reasons = [self.reasons(c) for c in cands]
            common = [r for r in reasons[0] if all(r in rs for rs in reasons[1:])]
            items = []
            for c, rs in zip(cands, reasons, strict=True):
                own = [_strip_subject(r, c) for r in rs if r not in common]
                if own or not common:
                    items.append({"title": self.candidate_name(c), "count": str(c.count),
                                  "reasons": own or [self._("No reason recorded.")]})
            out.append({"title": cands[0].gpu_name or gpu, "gpu": gpu,
                        "counts": self._("GPU counts tried: %(counts)s",
                                         counts=", ".join(str(c.count) for c in cands)),
                        "common": common, "entries": items,
                        "rules": self.rules_of(r for c in cands for r in c.rules)})
        return out

    def candidates_table(self, candidates: list[Candidate], chosen: Candidate | None
                         ) -> dict[str, Any] | None:
        f = self.f
        if not candidates:
            return None
        rows, classes = [], []
        for c in candidates:
            rows.append([self.candidate_name(c), str(c.rank) if c.rank is not None else DASH, f.num(c.nodes),
                         f.bytes(c.memory_per_gpu_bytes), f.days(c.wall_days), f.money(c.total_cost_usd),
                         f.acquisition(c.acquisition),
                         self._("feasible") if c.feasible else self._("rejected")])
            classes.append("chosen" if c is chosen else ("" if c.feasible else "bad"))
        return table([self._("Candidate"), self._("Rank"), self._("Nodes"), self._("Memory per GPU"),
                      self._("Wall-clock time"), self._("Cost"), self._("Acquisition"), self._("Status")],
                     rows, right=(1, 2, 3, 4, 5), classes=classes)

    def answer(self, rec: Recommendation, cand: Candidate | None) -> dict[str, Any]:
        """The answer up front. ``cand`` is the matching candidate, for an inference job's speed."""
        f = self.f
        name = rec.gpu_name or rec.gpu
        where = " / ".join(x for x in (rec.provider, rec.instance) if x)
        speed = cand.decode_tokens_per_s if cand is not None and rec.wall_days is None else None
        if speed is not None:
            label, time = self._("Decode speed, one sequence"), self._("%(n)s tokens/s", n=f.num(speed))
        else:
            label, time = self._("Wall-clock time"), f.days(rec.wall_days)
        rows = [
            [self._("GPU"), f"{name} ({rec.gpu})" if rec.gpu_name else rec.gpu],
            [self._("Count"), self.gpus_on_nodes(rec.count, rec.nodes)],
            [self._("Rent or buy"), f.acquisition(rec.acquisition)],
            [label, time],
            [self._("Total cost"), f.money(rec.total_cost_usd)],
        ]
        if speed is not None and cand is not None and cand.decode_tokens_per_s_total is not None:
            rows.insert(4, [self._("Decode speed, all sequences"),
                            self._("%(n)s tokens/s", n=f.num(cand.decode_tokens_per_s_total))])
        if rec.strategy:
            rows.append([self._("Strategy"), rec.strategy])
        if where:
            rows.append([self._("Where"), where])
        return {
            "headline": self._("%(count)s × %(gpu)s, %(mode)s: %(time)s, %(cost)s", count=rec.count, gpu=name,
                               mode=f.acquisition(rec.acquisition), time=time,
                               cost=f.money(rec.total_cost_usd)),
            "rows": rows, "gpu": rec.gpu,
            "summary": self.f.sentence(rec.summary_sentence.template, rec.summary_sentence.values, rec.summary)
            if rec.summary_sentence else " ".join(rec.summary.split()),
        }

    # charts --------------------------------------------------------------------------
    def charts(self, candidates: list[Candidate], chosen: Candidate | None) -> dict[str, Any]:
        f = self.f
        data = self.r.charts or {}
        return {"memory": self.memory_chart(data.get("memory"), candidates),
                "cost": self.cost_chart(data.get("cost_curve")),
                "scatter": self.scatter_chart(data.get("time_cost"), candidates, chosen),
                "log_scale": self._("log scale"),
                "kinds": [{"kind": k, "label": f.kind(k)} for k in C.MEMORY_KINDS]}

    def memory_chart(self, series: Any, candidates: list[Candidate]) -> dict[str, Any] | None:
        f = self.f
        if not series:
            series = [{"label": self.candidate_name(c), "capacity": c.capacity_per_gpu_bytes or None,
                       "usable": c.usable_per_gpu_bytes or None, "parts": c.memory_breakdown}
                      for c in candidates if c.memory_breakdown]
        geo = C.memory_bars(series, fmt=f.bytes_tick)
        if geo is None:
            return None
        for row in geo["rows"]:
            for s in row["segments"]:
                s["kind_label"] = f.kind(s["kind"])
                s["label"] = f.bytes(s["value"])
            row["total_label"] = f.bytes(row["total"])
            limit = row["usable"] if row["usable"] is not None else row["capacity"]
            limit = f.bytes(limit) if limit is not None else ""
            row["side"] = (f"{row['total_label']} / {limit}" if limit else row["total_label"])
            row["status"] = self._("exceeds") if row["over"] else self._("fits")
            row["capacity_label"] = f.bytes(row["capacity"]) if row["capacity"] is not None else ""
            row["usable_label"] = f.bytes(row["usable"]) if row["usable"] is not None else ""
        rows = []
        for r in geo["rows"]:
            parts = {s["kind"]: s["label"] for s in r["segments"]}
            rows.append([r["label"], *[parts.get(k, DASH) for k in geo["kinds"]], r["total_label"],
                         r["usable_label"] or DASH, r["capacity_label"] or DASH, r["status"]])
        over = [r["label"] for r in geo["rows"] if r["over"]]
        alt = self.f.ngettext("%(n)s candidate shown.", "%(n)s candidates shown.", len(geo["rows"])) + " " + \
            self.f.ngettext("%(n)s exceeds the usable memory of its GPU.",
                            "%(n)s exceed the usable memory of their GPU.", len(over))
        return {"geo": geo, "id": "chart-memory", "title": self._("Memory per GPU by part, against the card"),
                "desc": alt + (" " + ", ".join(over) if over else ""),
                "alt": alt, "over": over,
                "legend": [{**entry, "label": f.kind(entry["kind"])} for entry in geo["legend"]],
                "capacity_label": self._("capacity"), "usable_label": self._("usable"),
                "omitted": self.f.ngettext("%(n)s more candidate not drawn.",
                                           "%(n)s more candidates not drawn.", geo["omitted"])
                if geo["omitted"] else "",
                "table": table([self._("Candidate"), *[f.kind(k) for k in geo["kinds"]], self._("Total"),
                                self._("Usable"), self._("Capacity"), self._("Fits")], rows,
                               right=tuple(range(1, len(geo["kinds"]) + 4)))}

    def cost_chart(self, curve: Any) -> dict[str, Any] | None:
        f = self.f
        if not isinstance(curve, dict):
            return None
        local = {"months": curve.get("months"), "break_even_month": curve.get("break_even_month")}
        for key in ("rent", "buy"):
            values = curve.get(key)
            if isinstance(values, (list, tuple)):
                local[key] = [_scaled(v, f.cur.rate) for v in values]
        geo = C.cost_curve(local, fmt_y=lambda v: f.local(v, compact=True), fmt_x=lambda m: f"{m:g}")
        if geo is None:
            return None
        names = {"rent": self._("Rent"), "buy": self._("Buy")}
        for s in geo["series"]:
            s["name"] = names.get(s["key"], s["key"])
            s["end_label"] = f"{s['name']} {f.local(s['end_value'])}"
        be = geo["break_even"]
        last = {s["key"]: s for s in geo["series"]}
        numeric = [m for m in curve.get("months") or [] if isinstance(m, (int, float))]
        months = f"{max(numeric):g}" if numeric else "?"
        parts = []
        if "rent" in last and "buy" in last:
            parts.append(self._("Over %(months)s months, renting costs %(rent)s and buying %(buy)s.",
                                months=months, rent=f.local(last["rent"]["end_value"]),
                                buy=f.local(last["buy"]["end_value"])))
        if be:
            parts.append(self._("Buying becomes cheaper than renting from month %(m)s.", m=be["month_label"]))
            be["label"] = self._("break-even: month %(m)s", m=be["month_label"])
        else:
            parts.append(self._("No break-even within the months shown."))
        # a small table: about a dozen rows of the curve
        mlist = curve.get("months") or []
        step = max(1, math.ceil(len(mlist) / 12))
        idx = sorted({*range(0, len(mlist), step), len(mlist) - 1} | (
            {mlist.index(curve["break_even_month"])} if curve.get("break_even_month") in mlist else set()))
        rows = []
        for i in idx:
            row = [str(mlist[i])]
            for key in ("rent", "buy"):
                vals = local.get(key) or []
                row.append(f.local(vals[i]) if i < len(vals) and vals[i] is not None else DASH)
            rows.append(row)
        return {"geo": geo, "id": "chart-cost", "title": self._("Cumulative cost of renting and of buying"),
                "desc": " ".join(parts), "alt": " ".join(parts),
                "x_title": self._("Months of use"), "y_title": self._("Cumulative cost"),
                "table": table([self._("Month"), self._("Rent"), self._("Buy")], rows, right=(1, 2))}

    def scatter_chart(self, points: Any, candidates: list[Candidate], chosen: Candidate | None
                      ) -> dict[str, Any] | None:
        f = self.f
        if not points:
            points = [{"label": self.candidate_name(c), "wall_days": c.wall_days,
                       "cost_usd": c.total_cost_usd, "feasible": c.feasible, "chosen": c is chosen}
                      for c in candidates]
        if not isinstance(points, (list, tuple)):
            return None
        local = [{**p, "cost_usd": _scaled(p.get("cost_usd"), f.cur.rate)}
                 for p in points if isinstance(p, dict)]
        chosen_word = self._("chosen")
        geo = C.time_cost(local, fmt_x=lambda d: f"{d:g}", fmt_y=lambda v: f.local(v, compact=True),
                          chosen_suffix=f" ({chosen_word})")
        if geo is None or len(geo["points"]) < 2:  # one point compares nothing
            return None
        for p in geo["points"]:
            p["time"] = f.days(p["xv"])
            p["cost"] = f.local(p["yv"])
            p["status"] = (self._("chosen") if p["chosen"] else
                           self._("feasible") if p["feasible"] else self._("rejected"))
            p["tip"] = f"{p['label']}: {p['time']}, {p['cost']} ({p['status']})"
        some = geo["labelled"] < len(geo["points"])
        listed = [p for p in geo["points"] if p["show_label"] or not some]
        rows = [[p["label"], p["time"], p["cost"], p["status"]] for p in sorted(listed, key=lambda q: q["xv"])]
        pick = next((p for p in geo["points"] if p["chosen"]), None)
        alt = (self._("The chosen option, %(name)s, takes %(time)s and costs %(cost)s.", name=pick["label"],
                      time=pick["time"], cost=pick["cost"]) if pick else
               self._("No option is marked as chosen."))
        feasible = [p for p in geo["points"] if p["feasible"]]
        if feasible:
            fastest = min(feasible, key=lambda p: p["xv"])
            cheapest = min(feasible, key=lambda p: p["yv"])
            alt += " " + self._("Fastest feasible: %(fast)s; cheapest feasible: %(cheap)s.",
                                fast=fastest["label"], cheap=cheapest["label"])
        if some:
            alt += " " + self._("Labelled, and listed below: the chosen option and the feasible options that no "
                                "other beats on both time and cost. Every candidate is in the table of all "
                                "candidates.")
        x_title = self._("Wall-clock time, days")
        y_title = self._("Cost")
        if geo["xlog"]:
            x_title += f" ({self._('log scale')})"
        if geo["ylog"]:
            y_title += f" ({self._('log scale')})"
        return {"geo": geo, "id": "chart-time-cost", "title": self._("Time against cost of each candidate"),
                "desc": alt, "alt": alt, "x_title": x_title, "y_title": y_title,
                "legend": {"chosen": self._("chosen"), "feasible": self._("feasible"),
                           "rejected": self._("rejected")},
                "omitted": self._("Not placed (no time or cost): %(names)s.", names=", ".join(geo["omitted"]))
                if geo["omitted"] else "",
                "table": table([self._("Candidate"), self._("Wall-clock time"), self._("Cost"),
                                self._("Status")], rows, right=(1, 2))}

    # whole reports -------------------------------------------------------------------
    def recommend(self) -> dict[str, Any]:
        r: RecommendResult = self.r
        cands = list(r.candidates)
        chosen = _chosen(cands, r.recommendation)
        focus = chosen or next((c for c in cands if c.feasible), cands[0] if cands else None)
        vm = self.base()
        vm.update({
            "title": self._("GPU recommendation"),
            "question": self.question(r.question),
            "answer": self.answer(r.recommendation, chosen) if r.recommendation else None,
            "runner_up": self.answer(r.runner_up, _chosen(cands, r.runner_up)) if r.runner_up else None,
            "no_answer": self._("No candidate meets the requirements. The reasons each one was rejected are "
                                "listed below."),
            "steps": self.steps(focus, cands, r.estimate),
            "rejected": self.rejected(cands),
            "candidates": self.candidates_table(cands, chosen),
            "findings": self.findings(list(r.findings)),
            "knowledge": self.knowledge(),
            "trace": self.trace_table(),
            "charts": self.charts(cands, chosen),
        })
        return vm

    def audit(self) -> dict[str, Any]:
        r: AuditResult = self.r
        f = self.f
        cands = [c for c in (r.proposed, r.alternative) if c is not None]
        vm = self.base()
        savings = ""
        if r.savings_usd is not None and r.savings_usd > 0 and r.alternative is not None:
            base_cost = r.proposed.total_cost_usd if r.proposed else None
            if base_cost:
                savings = self._("The alternative saves %(amount)s (%(pct)s of the proposed cost).",
                                 amount=f.money(r.savings_usd), pct=f.pct(r.savings_usd / base_cost))
            else:
                savings = self._("The alternative saves %(amount)s.", amount=f.money(r.savings_usd))
        elif r.alternative is None:
            savings = self._("No feasible alternative was found in the catalog.")
        else:
            savings = self._("The alternative is not cheaper than the proposal.")
        vm.update({
            "title": self._("GPU proposal audit"),
            "proposal_title": r.title, "file": r.file,
            "verdict": {"code": r.verdict, "label": self._(VERDICT_LABELS[r.verdict]),
                        "text": self._(VERDICT_TEXT[r.verdict])},
            "question": self.question(r.proposal),
            "comparison": self.comparison(r.proposed, r.alternative),
            "savings": savings,
            "steps": self.steps(r.proposed, cands, None),
            "rejected": [],
            "findings": self.findings(list(r.findings)),
            "cards": self.cards(r.cards),
            "knowledge": self.knowledge(),
            "trace": self.trace_table(),
            "charts": self.charts(cands, r.proposed),
        })
        return vm

    def comparison(self, proposed: Candidate | None, alternative: Candidate | None) -> dict[str, Any] | None:
        f = self.f
        cols = [c for c in (proposed, alternative)]
        if not any(cols):
            return None

        def cell(c: Candidate | None, get: Callable[[Candidate], str]) -> str:
            return get(c) if c is not None else DASH

        spec: list[tuple[str, Callable[[Candidate], str]]] = [
            (self._("GPU"), lambda c: c.gpu_name or c.gpu),
            (self._("Count"), lambda c: self.gpus_on_nodes(c.count, c.nodes)),
            (self._("Strategy"), lambda c: c.strategy or DASH),
            (self._("Memory per GPU"), lambda c: f.bytes(c.memory_per_gpu_bytes)),
            (self._("Usable per GPU"), lambda c: f.bytes(c.usable_per_gpu_bytes or None)),
            (self._("Fits"), lambda c: self._("fits") if _fits(c) else self._("does not fit")),
            (self._("Wall-clock time"), lambda c: f.days(c.wall_days)),
            (self._("Rent or buy"), lambda c: f.acquisition(c.acquisition)),
            (self._("Total cost"), lambda c: f.money(c.total_cost_usd)),
            (self._("Feasible"), lambda c: f.yes_no(c.feasible)),
        ]
        rows = [[label, cell(proposed, get), cell(alternative, get)] for label, get in spec]
        reasons = self.reasons(proposed) if proposed else []
        return {**table(["", self._("Proposed"), self._("Best feasible alternative")], rows),
                "reasons": reasons, "reasons_title": self._("Why the proposal falls short")}

    def cards(self, cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Used-card inspection: the known readings of each card, and the findings about it."""
        out = []
        findings = list(getattr(self.r, "findings", []))
        for i, card in enumerate(cards, 1):
            serial = str(card.get("serial") or "")
            about = [x for x in findings if serial and (x.evidence.get("serial") == serial or serial in x.subject)]
            rows = self._card_rows(card)
            if about:
                rows.append([self._("Findings on this card"),
                             ", ".join(f"{x.rule} ({self._(SEVERITY_ONE[x.severity])})" for x in about)])
            status = str(card.get("status") or card.get("verdict") or "").lower()
            if not status:  # the worst finding about the card, as the report's summary of it
                worst = min((SEVERITIES.index(x.severity) for x in about), default=len(SEVERITIES))
                status = {0: "fail", 1: "suspect"}.get(worst, "ok" if _card_checked(card) else "unknown")
            out.append({
                "title": self._("Card %(n)s: %(serial)s", n=i, serial=serial or self.f.na()),
                "status": status,
                "status_label": self._(CARD_STATUS[status]) if status in CARD_STATUS else status,
                **table([self._("Check"), self._("Value")], rows),
            })
        return out

    def _card_rows(self, card: dict[str, Any]) -> list[list[str]]:
        f = self.f
        unknown = self._("not known")
        has_smi = card.get("has_smi", True) is not False

        known = _known
        rows, seen = [], set()
        for key, label, how in CARD_FIELDS:
            text = None
            if how == "pcie" and "link_width" in card:
                w, wm, g, gm = (card.get(k) for k in ("link_width", "link_width_max", "link_gen", "link_gen_max"))
                if has_smi:
                    text = self._("Gen %(gen)s x%(width)s (the card supports Gen %(gen_max)s x%(width_max)s)",
                                  gen=g if known(g) else "?", width=w if known(w) else "?",
                                  gen_max=gm if known(gm) else "?", width_max=wm if known(wm) else "?")
            elif how == "power" and "power_limit_w" in card:
                lim, default = card.get("power_limit_w"), card.get("default_power_limit_w")
                if has_smi and known(lim):
                    text = self._("%(limit)s W (default %(default)s W)", limit=format(lim, "g"),
                                  default=format(default, "g") if known(default) else "?")
            elif key in card:
                v = card[key]
                seen.add(key)
                if how.startswith("smi-") and not has_smi:
                    continue
                if key == "mining_era" and not _known(card.get("manufactured", "?")):
                    continue  # without a manufacture date the flag says nothing
                kind = how.removeprefix("smi-")
                if kind == "text":
                    text = input_text(v) if known(v) else None
                elif kind == "bool":
                    text = f.yes_no(bool(v))
                elif kind == "match":
                    text = {1: self._("yes"), 0: self._("no")}.get(v, unknown) if has_smi else None
                elif not known(v):
                    text = unknown
                elif kind == "count":
                    text = f.num(v, 0)
                elif kind == "ratio":
                    n = card.get(key.replace("_cv", "_samples"))
                    text = self._("%(value)s from %(n)s readings", value=format(v, ".2f"), n=n) if n else \
                        format(v, ".2f")
                elif kind == "pct":
                    text = f.pct(v)
            if text is not None:
                rows.append([self._(label), text])
        for key, value in card.items():  # anything the list above does not know yet, as it came
            if key in seen or key in CARD_INTERNAL or key in {k for k, _, _ in CARD_FIELDS}:
                continue
            if isinstance(value, dict):
                rows += [[f"{key}: {k}", input_text(v)] for k, v in value.items()]
            elif key != "findings":
                rows.append([key, input_text(value)])
        return rows

    def estimate(self) -> dict[str, Any]:
        r: EstimateResult = self.r
        f = self.f
        m = r.memory
        vm = self.base()
        mem_rows = [[f.kind(k), f.bytes(v)] for k, v in _ordered(m.breakdown)]
        mem_rows.append([self._("Total per GPU"), f.bytes(m.per_gpu_bytes)])
        if m.usable_per_gpu_bytes:
            mem_rows.append([self._("Usable per GPU"), f.bytes(m.usable_per_gpu_bytes)])
        if m.capacity_per_gpu_bytes:
            mem_rows.append([self._("Capacity per GPU"), f.bytes(m.capacity_per_gpu_bytes)])
        mem_rows.append([self._("Total over all GPUs"), f.bytes(m.total_bytes)])
        gpu = None
        if r.gpu is not None:
            g = r.gpu
            rows = [[self._("GPU"), f"{g.name} ({g.id})" if g.name else g.id],
                    [self._("Count"), self.gpus_on_nodes(g.count, g.nodes)],
                    [self._("Fits"), self._("fits") if g.fits else self._("does not fit")]]
            if g.strategy:
                rows.append([self._("Strategy"), g.strategy])
            if g.gpu_hours is not None:
                rows.append([self._("GPU-hours"), f.num(g.gpu_hours, 0)])
            if g.wall_hours is not None:
                rows.append([self._("Wall-clock time"), f.days(g.wall_hours / 24)])
            for key, label in (("decode_tokens_per_s", N_("Decode speed, one sequence")),
                               ("decode_tokens_per_s_total", N_("Decode speed, all sequences")),
                               ("prefill_tokens_per_s", N_("Prefill speed"))):
                v = getattr(g, key)
                if v is not None:
                    rows.append([self._(label), self._("%(n)s tokens/s", n=f.num(v))])
            if g.peak_tflops is not None:
                rows.append([self._("Dense peak"), f"{g.peak_tflops:g} TFLOP/s {g.peak_kind}".rstrip()])
            if g.mfu is not None:
                rows.append([self._("Utilisation (MFU)"), f.pct(g.mfu)])
            if g.scaling_efficiency is not None:
                rows.append([self._("Scaling efficiency"), f.pct(g.scaling_efficiency)])
            if g.cost_usd is not None:
                rows.append([self._("Cost"), f"{f.money(g.cost_usd)} ({f.acquisition(g.acquisition)})"
                             if g.acquisition else f.money(g.cost_usd)])
            gpu = {**table([self._("Item"), self._("Value")], rows),
                   "terms": [self.term(t) for t in g.terms]}
        vm.update({
            "title": self._("GPU memory and time estimate"),
            "question": self.question(r.workload),
            "memory": {**table([self._("Part"), self._("Per GPU")], mem_rows, right=(1,)),
                       "layout": m.layout, "peak_phase": m.peak_phase,
                       "notes": [" ".join(n.split()) for n in m.notes],
                       "terms": [self.term(t) for t in m.terms]},
            "compute": {"flops": f"{eng(r.compute.flops)} FLOP",
                        "terms": [self.term(t) for t in r.compute.terms]},
            "gpu": gpu,
            "knowledge": self.knowledge(),
        })
        return vm


def _scaled(v: Any, rate: float) -> float | None:
    """A money figure in the report's currency; None for anything that is not a number."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return v * rate


def _reason(text: str) -> str:
    """An assumption's reason without a leading "default:" (the report marks defaults itself)."""
    text = " ".join(text.split())
    return text[len("default:"):].strip() if text.lower().startswith("default:") else text


def _flatten(data: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(data, dict):
        out: list[tuple[str, Any]] = []
        for k, v in data.items():
            key = f"{prefix}.{k}" if prefix else str(k)
            if isinstance(v, dict) and v:
                out += _flatten(v, key)
            else:
                out.append((key, v if v != {} else None))
        return out
    return [(prefix, data)] if prefix else []


def _ordered(parts: dict[str, int]) -> list[tuple[str, int]]:
    known = [(k, parts[k]) for k in C.MEMORY_KINDS if k in parts]
    return known + [(k, v) for k, v in parts.items() if k not in C.MEMORY_KINDS]


def _known(v: Any) -> bool:
    """False for the audit's "not known" markers in a card: None, "" and negative numbers."""
    return v is not None and v != "" and not (isinstance(v, (int, float)) and not isinstance(v, bool) and v < 0)


def _card_checked(card: dict[str, Any]) -> bool:
    """Whether anything was measured on a used card (an nvidia-smi report, fan or power readings)."""
    return bool(card.get("has_smi")) or any(_known(card.get(k)) for k in ("fan_cv", "power_cv", "fan_speed_cv"))


def _all_candidates(result: Any) -> list[Candidate]:
    if isinstance(result, RecommendResult):
        return list(result.candidates)
    if isinstance(result, AuditResult):
        return [c for c in (result.proposed, result.alternative) if c is not None]
    return []


def _strip_subject(reason: str, c: Candidate) -> str:
    """A reason without the leading "2 x NVIDIA A10 24GB:" that repeats the line's own title."""
    name = re.escape(c.gpu_name or c.gpu)
    short = re.sub(rf"^\s*{c.count}\s*[x×]\s*{name}\s*:?\s*", "", reason)
    return short if short and short != reason else reason


def _leading(cands: list[Candidate], focus: Candidate | None, n: int) -> list[Candidate]:
    """The ``n`` best-ranked feasible candidates (in rank order), with ``focus`` first when it is not
    among them (an audit's proposal); all candidates when none is feasible."""
    feasible = [c for c in cands if c.feasible]
    if not feasible:
        return cands[:n] if focus is None or focus in cands[:n] else [focus, *cands[: n - 1]]
    best = sorted(feasible, key=lambda c: c.rank if c.rank is not None else 1 << 30)[:n]
    return best if focus is None or focus in best else [focus, *best]


def _fits(c: Candidate) -> bool:
    limit = c.usable_per_gpu_bytes or c.capacity_per_gpu_bytes
    return not limit or c.memory_per_gpu_bytes <= limit


def _chosen(cands: list[Candidate], rec: Recommendation | None) -> Candidate | None:
    if rec is None:
        return None
    same = [c for c in cands if c.feasible and c.gpu == rec.gpu and c.count == rec.count]
    if same:
        return min(same, key=lambda c: c.rank if c.rank is not None else 1 << 30)
    return next((c for c in cands if c.rank == 1), None)


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


def view_model(result: Any, *, lang: str = "en", currency: str = "USD", fx_rate: float | None = None,
               kind: str | None = None, knowledge: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """The dict the templates receive (exposed for tests and for other front ends)."""
    result, kind = _kind_of(result, kind)
    f = Fmt(lang, currency_for(currency, fx_rate, knowledge, getattr(result, "currency", None)))
    return getattr(_View(result, kind, f), kind)()


def render(result: Any, fmt: str, *, lang: str = "en", currency: str = "USD", fx_rate: float | None = None,
           kind: str | None = None, knowledge: str | os.PathLike[str] | None = None) -> str:
    """The report as a string. ``fmt``: text | md | html | json (an estimate: text or json).

    ``currency="CNY"`` converts money at ``fx_rate`` or, without one, at the knowledge base's
    ``usd_cny`` rate (``knowledge``: an overlay directory); the report states the rate, its date
    and its source.  JSON ignores ``lang`` and ``currency``: it is the contract's data, in USD.
    """
    fmt = normalise_format(fmt)
    result, kind = _kind_of(result, kind)
    lang = _lang(lang)
    if fmt == "json":
        return json.dumps(result.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    if kind == "estimate" and fmt != "text":
        raise UserError(f"an estimate is reported as text or json, not {fmt}")
    vm = view_model(result, lang=lang, currency=currency, fx_rate=fx_rate, kind=kind, knowledge=knowledge)
    suffix = {"text": "txt", "md": "md", "html": "html"}[fmt]
    out = environment(lang).get_template(f"{kind}.{suffix}").render(vm=vm)
    if fmt != "html":  # the templates' section blocks leave runs of blank lines behind
        out = re.sub(r"\n{3,}", "\n\n", out).lstrip("\n")
    return out


def audit_summary_view(results: list[tuple[str, AuditResult | None, str]], *, lang: str = "en",
                       currency: str = "USD", fx_rate: float | None = None,
                       knowledge: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """The view model of a batch audit: one row per proposal file, and the verdict counts."""
    f = Fmt(lang, currency_for(currency, fx_rate, knowledge))
    _ = f._
    rows, counts = [], {"approve": 0, "revise": 0, "reject": 0, "error": 0}
    for path, res, err in results:
        if res is None:
            counts["error"] += 1
            rows.append([path, _("input error"), "-", "-", err, "-"])
            continue
        counts[res.verdict] += 1
        blockers = sum(x.severity == "blocker" for x in res.findings)
        warnings = sum(x.severity == "warning" for x in res.findings)
        alt = res.alternative
        better = (f"{alt.count} x {alt.gpu_name or alt.gpu}" if alt else f.na)
        if alt and res.savings_usd is not None and res.savings_usd > 0:
            better += " (" + _("saves %(amount)s", amount=f.money(res.savings_usd)) + ")"
        rows.append([path, _(VERDICT_LABELS[res.verdict]), str(blockers), str(warnings), res.title, better])
    headers = [_("File"), _("Verdict"), _("Blockers"), _("Warnings"), _("Title"), _("Best alternative")]
    totals = _("%(n)s proposals: %(approve)s approve, %(revise)s revise, %(reject)s reject, %(error)s input errors",
               n=len(results), **counts)
    return {"title": _("Audit of %(n)s proposals", n=len(results)), "html_lang": _HTML_LANG[_lang(lang)],
            "totals": totals, "table": table(headers, rows, right=(2, 3))}


def render_audit_summary(results: list[tuple[str, AuditResult | None, str]], fmt: str, **kw: Any) -> str:
    """A batch audit's summary table as text, Markdown or HTML (JSON lines are written by the CLI)."""
    fmt = normalise_format(fmt)
    if fmt == "json":
        raise UserError("a batch audit's JSON is one document per line; use --format json")
    lang = _lang(kw.get("lang"))
    vm = audit_summary_view(results, **kw)
    suffix = {"text": "txt", "md": "md", "html": "html"}[fmt]
    out = environment(lang).get_template(f"audit-summary.{suffix}").render(vm=vm)
    return re.sub(r"\n{3,}", "\n\n", out).lstrip("\n") if fmt != "html" else out


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write already-rendered text atomically (see write_report)."""
    return _atomic_write(Path(path), text)


def write_report(result: Any, path: str | os.PathLike[str], fmt: str | None = None, **kw: Any) -> Path:
    """Render and write atomically: a temporary file beside ``path``, then ``os.replace``.

    The report is rendered completely before anything is written, and the temporary file is
    removed on any failure, so no partial report is ever left at ``path``.
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
