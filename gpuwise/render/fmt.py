"""The report's vocabulary and number formatting: labels, languages, currency, and the small
table and formula helpers every view uses. Every string a report shows comes from here or from a
sentence template; nothing here decides or computes a figure (a currency or unit conversion is
formatting).

Strings written here are marked with ``N_`` so that ``pybabel extract`` finds them; they are
translated when the view model is built.
"""

from __future__ import annotations

import functools
import gettext
import math
import os
import re
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import UserError
from ..frozen import frozen
from ..messages import cjk_tight, fill, share, template_parts
from ..paths import templates_dir
from ..results import MEMORY_PARTS, MONEY_WHOLE_FROM, STEPS, Candidate, Recommendation
from . import words
from .formats import DETAILS  # noqa: F401  (the report's vocabulary)
from .words import times

if TYPE_CHECKING:
    from ..results_audit import UsedCard

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "gpuwise"
_LANGS = {"en": "en", "en_us": "en", "en_gb": "en", "zh": "zh", "zh_cn": "zh", "zh_hans": "zh",
          "zh_hans_cn": "zh"}
_LOCALES = {"en": None, "zh": "zh_CN"}
HTML_LANG = {"en": "en", "zh": "zh-CN"}
STEP_ORDER = STEPS
DASH = "—"

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
PROPOSAL_PROVIDER = N_("the proposal's provider")
ACQUISITION_LABELS = {"rent": N_("rent"), "buy": N_("buy"), "either": N_("rent or buy")}
VERDICT_LABELS = {"approve": N_("APPROVE"), "revise": N_("REVISE"), "reject": N_("REJECT")}
VERDICT_TEXT = {
    "approve": N_("No blockers and no warnings: the proposal can go ahead as written."),
    "revise": N_("Warnings only: revise the proposal before committing money."),
    "reject": N_("At least one blocker: do not proceed with the proposal as written."),
}
TERM_LABELS = {
    **KIND_LABELS,
    "training_flops": N_("Training FLOPs"), "flops": N_("FLOPs"),
    "flops_per_generated_token": N_("FLOPs per generated token"),
    "wall_hours": N_("Training time, without the start-up"),  # the step's; the timeline adds the start-up
    "gpu_hours": N_("GPU-hours of training"), "decode_tokens_per_s": N_("Decode speed, one sequence"),
    "decode_tokens_per_s_total": N_("Decode speed, all sequences"),
    "prefill_tokens_per_s": N_("Prefill speed"), "allreduce_seconds": N_("All-reduce time per step"),
    "dp_traffic_seconds": N_("Data-parallel traffic per step"), "offload_seconds": N_("Offload time per step"),
    "scaling_efficiency": N_("Scaling efficiency"), "rent_usd": N_("Rent"), "buy_usd": N_("Buy, total"),
    "cards_usd": N_("Cards"), "server_usd": N_("Server share"), "power_usd": N_("Electricity"),
    "hosting_usd": N_("Hosting"), "licences_usd": N_("Licences"), "resale_usd": N_("Resale value"),
    "cloud_fees_usd": N_("Cloud fees"), "per_gpu": N_("Memory per GPU"),
    "step_mfu": N_("Utilisation (MFU)"),
    # the GPU's terms a training or serving estimate shows, labelled as the others (review54: 'mfu = 0.532' stood
    # under 'Utilisation (MFU) = 0.468', 'step_seconds', 'job_setup_hours' and the rest as identifiers, in zh too)
    "mfu": N_("MFU of the compute, at the model's width"), "step_seconds": N_("Step time"),
    "pp_bubble_fraction": N_("Pipeline bubble"), "goodput": N_("Goodput"), "optimizer_steps": N_("Optimizer steps"),
    "job_setup_hours": N_("Start-up and wind-down"), "network_usd": N_("Network"),
    "max_concurrent_sequences": N_("Sequences memory holds at once"),
    "throughput_tokens_per_s": N_("Output tokens/s"), "tpot_s": N_("Time per output token"),
}
# the knowledge base's, not the answer's (its own prices and their ages are listed below them)
DATE_LABELS = {"oldest": N_("Oldest dated figure in the knowledge base"),
               "newest": N_("Newest dated figure in the knowledge base")}
CARD_FIELDS: tuple[tuple[str, str, str], ...] = (
    # a field of the audit's used card (results.UsedCard), its row's label, how to show it: "text", "count",
    # "ratio", "pct", "bool", "match"; "smi-" before one: only with an nvidia-smi report; the others show the
    # field with those of CARD_SHOWN_WITH it names
    ("serial", N_("Serial"), "text"),
    ("serial_in_report", N_("Serial in the nvidia-smi report"), "serial-report"),
    ("gpu_index", N_("GPU of the nvidia-smi report judged"), "report-gpu"),
    ("product_name", N_("Product reported by nvidia-smi"), "text"),
    ("product_matches", N_("Product matches the proposal"), "match"),
    ("memory_mib", N_("Memory reported by nvidia-smi"), "memory"),
    ("mem_type", N_("Memory type"), "mem-type"),
    ("manufactured", N_("Manufactured"), "text"),
    ("months_to_sale", N_("Months from manufacture to sale"), "count"),
    ("fan_cv", N_("Fan speed variation under load (CV)"), "ratio"),
    ("fan_swing", N_("Fan speed swing under load, of the mean"), "pct"),
    ("power_cv", N_("Power draw variation under load (CV)"), "ratio"),
    ("power_swing", N_("Power draw swing under load, of the mean"), "pct"),
    ("has_smi", N_("nvidia-smi report given"), "bool"),
    ("smi_error", N_("nvidia-smi report problem"), "text"),
    ("recovery", N_("Recovery the driver asks for"), "text"),
    ("retired_pages", N_("Retired memory pages"), "smi-count"),
    ("remapped_rows", N_("Remapped memory rows"), "smi-count"),
    ("pending", N_("Memory repair pending"), "smi-bool"),
    ("remap_failure", N_("Row remapping failed"), "smi-bool"),
    ("remap_banks_exhausted", N_("Memory banks with no spare rows left"), "smi-count"),
    ("uncorrectable_ecc", N_("Uncorrectable ECC errors"), "smi-count"),
    ("correctable_ecc", N_("Correctable ECC errors"), "smi-count"),
    ("ecc_on", N_("ECC on"), "match"),
    ("link_gen", N_("PCIe link"), "pcie"),
    ("pcie_replays", N_("PCIe replays since the driver loaded"), "smi-count"),
    ("power_limit_w", N_("Power limit"), "power"),
    ("app_clocks_off_mhz", N_("Clocks off their defaults, MHz"), "smi-count"),
    ("throttle_reasons", N_("Active clock limiters"), "text"),
    ("gpu_temp_c", N_("GPU temperature"), "gpu-temp"),
    ("mem_temp_c", N_("Memory temperature"), "mem-temp"),
    ("vbios", N_("VBIOS"), "text"),
)
CARD_SHOWN_WITH = {  # fields shown in another field's row (the row's key: what the row reads besides its own)
    "serial_in_report": ("report_serial",), "gpu_index": ("gpus_in_report",),
    "memory_mib": ("claimed_memory_mib", "memory_ratio"), "mem_type": ("mem_throttle_c",),
    "link_gen": ("link_width", "link_width_max", "link_gen_max"), "power_limit_w": ("default_power_limit_w",),
    "gpu_temp_c": ("gpu_temp_limit_c", "gpu_slowdown_temp_c", "gpu_shutdown_temp_c"),
    "mem_temp_c": ("mem_temp_limit_c",),
}
CARD_INTERNAL = {  # what the rules compare and the report shows elsewhere, or not at all: left out by design
    "card",  # the card's number: the section's title
    "purchase", "segment", "consumer",  # the proposal's way and the GPU claimed: the report's head says them
    "primary", "has_dates", "serial_given", "judged_all",  # which fact judges what: the rules' bookkeeping
    "throttling", "reason_hw_slowdown", "reason_hw_thermal_slowdown", "reason_hw_power_brake",
    "reason_sw_thermal_slowdown",  # the clock limiters' row says them
    "memory_repairs",  # retired pages and remapped rows together: each has its own row
    "pstate", "gpu_idle_known", "gpu_idle",  # whether the readings were taken under load: the rules' findings say
    "link_width_fraction", "link_gb_s", "link_gb_s_full",  # the PCIe row worked out: the findings say them
    "virtual_gpu",  # a vGPU guest's report: its finding says so
    "ecc_memory",  # the claimed GPU's memory has ECC: the catalog's, shown by `gpuwise gpus`
    "fan_samples", "power_samples",  # in the variation rows ("from 4 readings")
}
CARD_STATUS = {"ok": N_("passed"), "pass": N_("passed"), "passed": N_("passed"), "suspect": N_("suspect"),
               "warn": N_("suspect"), "warning": N_("suspect"), "fail": N_("failed"), "failed": N_("failed"),
               "unknown": N_("could not check")}

STEP_SHORT = {"memory": N_("Memory"), "compute": N_("Compute"), "interconnect": N_("Interconnect"),
              "tco": N_("Cost"), "pitfalls": N_("Pitfalls")}
FRAMEWORK_NAMES = {"vllm": "vLLM", "sglang": "SGLang", "tensorrt-llm": "TensorRT-LLM", "llama.cpp": "llama.cpp",
                   "exllama": "ExLlamaV2", "mlc": "MLC LLM", "transformers": "Hugging Face Transformers"}
"""Display names of the serving frameworks (knowledge/serving.yaml ids): names, not translated."""


# --------------------------------------------------------------------------- languages
def _lang(lang: str | None) -> str:
    key = (lang or "en").strip().lower().replace("-", "_")
    if key not in _LANGS:
        raise UserError(N_("unknown report language '%(lang)s'"), hint=N_("use en or zh"), values={"lang": lang})
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

    from .. import cache

    env = Environment(
        loader=FileSystemLoader(str(templates_dir())),
        undefined=StrictUndefined,
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        bytecode_cache=cache.templates(),  # compiled templates kept in the user's cache (gpuwise/cache.py)
    )
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    env.filters["md"] = md_escape
    env.filters["mdcode"] = md_code
    env.filters["wbr"] = wbr
    env.filters["code_spans"] = code_spans
    env.filters["md_spans"] = md_spans
    # punctuation around a label or a count: full-width in Chinese ("修正建议：", "（2 个警告）")
    zh = _lang(lang) == "zh"
    env.globals.update(COLON="：" if zh else ": ", SP="" if zh else " ", LP="（" if zh else " (",
                       RP="）" if zh else ")", CLAUSE="；" if zh else "; ", LB="［" if zh else "[",
                       RB="］" if zh else "]", SEP="，" if zh else ", ")
    return env


def code_spans(value: Any) -> Any:
    """HTML: a sentence with its `backticked` commands (a rule's fix: `nvidia-smi -pl`) set as code,
    not shown with their backticks."""
    from markupsafe import Markup, escape

    text = str(escape(" ".join(str(value).split())))
    return Markup(re.sub(r"`([^`]+)`", r"<code>\1</code>", text))


def wbr(value: Any) -> Any:
    """HTML: a field name or id with a line-break opportunity after each ``.``, ``_`` and ``/``, so a
    narrow screen breaks ``constraints.electricity_usd_per_kwh`` between its parts, not mid-word."""
    from markupsafe import Markup, escape

    text = str(escape(" ".join(str(value).split())))
    return Markup(re.sub(r"([._/])(?=[^\s])", r"\1<wbr>", text))


_MD_ESCAPES = (("\\", "\\\\"), ("|", "\\|"), ("*", "\\*"), ("<", "&lt;"), (">", "&gt;"), ("`", "\\`"),
               ("[", "\\["), ("]", "\\]"))
"""Markdown's active characters in input text, each made literal: a table's pipe, emphasis, HTML, a code
span, and a link or image's brackets (a title ``[click](javascript:...)`` became a live link)."""


def md_escape(value: Any) -> str:
    """Text made safe inside a Markdown paragraph or table cell (no tables broken, no HTML)."""
    text = " ".join(str(value).split())
    for a, b in _MD_ESCAPES:
        text = text.replace(a, b)
    return text


def md_spans(value: Any) -> str:
    """Markdown: a sentence made safe as :func:`md_escape` does, its `backticked` commands kept as
    code spans (a rule's fix: `nvidia-smi -pl`)."""
    parts = re.split(r"`([^`]+)`", " ".join(str(value).split()))
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(md_code(part))
            continue
        for a, b in _MD_ESCAPES:
            part = part.replace(a, b)
        out.append(part)
    return "".join(out)


def md_code(value: Any) -> str:
    """An inline code span that survives any backticks and pipes in ``value``."""
    text = " ".join(str(value).split()).replace("|", "\\|")
    if not text:
        return ""
    fence = "``" if "`" in text else "`"
    return f"{fence} {text} {fence}" if fence == "``" else f"`{text}`"

# ---------------------------------------------------------------------------- currency
@frozen
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
        raise UserError(N_("unknown report currency '%(currency)s'"), hint=N_("use USD or CNY"),
                        values={"currency": currency})
    if code == "USD":
        if fx_rate is not None and fx_rate != 1:
            raise UserError(N_("an exchange rate only applies to a non-USD currency"), hint=N_("add --currency CNY"))
        return Currency()
    if fx_rate is not None:
        rate = float(fx_rate)
        if not math.isfinite(rate) or rate <= 0:
            raise UserError(N_("exchange rate must be a positive number, got %(fx_rate)s"),
                            values={"fx_rate": f"{fx_rate!r}"})
        return Currency("CNY", rate, given=True)
    if info is not None:
        return Currency("CNY", float(info.usd_cny), info.as_of, " ".join(info.source.split()))
    from ..knowledge import load

    v = load(knowledge).tco_value("usd_cny")
    return Currency("CNY", float(v.value), v.as_of.isoformat() if v.as_of else "", " ".join(v.source.split()))

# ---------------------------------------------------------------------------- formatting

def _two_figures(h: float) -> str:
    """Two significant figures written out, never in e-notation: a one-GPU fine-tune's failures and restarts,
    6.1e-06 hours, read '6.1e-06 hours' in the time table beside '0.8 hours' (review62)."""
    text = format(h, ".2g")
    if "e" not in text:
        return text
    places = 1 - math.floor(math.log10(abs(float(text))))
    return format(float(text), f".{places}f")

class Fmt:
    """Number formatting in one language and currency. Every string the reports show comes from here."""

    def __init__(self, lang: str = "en", currency: Currency | None = None):
        self.lang = _lang(lang)
        self.tr = translations(self.lang)
        self.cur = currency or Currency()
        self.sep, self.clause = ("，", "；") if self.lang == "zh" else (", ", "; ")

    def join(self, sentences: Iterable[str]) -> str:
        """Sentences one after the other: a space between English ones, none after a Chinese "。"."""
        return ("" if self.lang == "zh" else " ").join(x for x in sentences if x)

    def cite(self, source: str) -> str:
        """A source as the report quotes it: as written in English; in another language within “”,
        marked as a quotation of the document it names."""
        text = " ".join(str(source or "").split())
        return text if not text or self.lang == "en" else f"“{text}”"

    def _(self, message: str, **kw: Any) -> str:
        text = self.tr.gettext(message)
        return cjk_tight(text.__mod__, kw) if kw else text

    def sentence(self, template: str, values: dict[str, Any], english: str = "",
                 subject: Candidate | Recommendation | None = None) -> str:
        """A rule's or the decision's sentence in this language and currency: the template
        translated (the English template is the msgid), filled with its values (money in the
        report's currency, durations in its words, layout and link phrases worded by
        :mod:`words`). Without a template the English text is looked up in the catalog as a
        whole, and shown as it came when the catalog does not have it. ``subject``: the candidate
        the line already names; a template that opens with it (its ``{count}`` and ``{gpu_name}``
        fields, then a colon) is written without that opening."""
        if not template:
            plain = " ".join(english.split())
            return times(" ".join(self.tr.gettext(plain).split())) if plain else ""
        shown = {k: words.value(k, v, values, self) for k, v in values.items()}
        text = self.tr.gettext(template)
        if subject is not None:
            text = _without_subject(text, values, subject)
        return times(" ".join(fill(text, shown, self._money, self.days, self.months).split()))

    def _money(self, usd: float, decimals: int = 0) -> str:
        local = self.to_local(usd)
        if decimals and local is not None and abs(local) < MONEY_WHOLE_FROM:
            sym = "$" if self.cur.code == "USD" else ("¥" if self.lang == "zh" else "CN¥")
            return f"{'-' if local < 0 else ''}{sym}{abs(local):,.2f}"
        return self.local(local)

    def ngettext(self, singular: str, plural: str, n: int, **kw: Any) -> str:
        return cjk_tight(self.tr.ngettext(singular, plural, n).__mod__, {"n": n, **kw})

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

    def local(self, amount: float | None, *, compact: bool = False, whole: bool = False) -> str:
        """An amount already in the report's currency; ``whole``: in whole units below MONEY_WHOLE_FROM too (the
        difference of two amounts shown whole is itself whole: '$30', not '$30.00', where the two read $43,672 and
        $43,642 and lie $30.16 apart)."""
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
        text = f"{a:,.0f}" if whole or a >= MONEY_WHOLE_FROM or a == 0 else f"{a:,.2f}"
        return f"{sign}{sym}{text}"

    def to_local(self, usd: float | None) -> float | None:
        return None if usd is None else usd * self.cur.rate

    def money(self, usd: float | None) -> str:
        return self.local(self.to_local(usd))

    def money_exact(self, usd: float) -> str:
        """A price with its cents (an hourly rate in a formula: "$61.60", "¥432.41")."""
        v = self.to_local(usd) or 0.0
        sym = "$" if self.cur.code == "USD" else ("¥" if self.lang == "zh" else "CN¥")
        return f"{'-' if v < 0 else ''}{sym}{abs(v):,.2f}"

    def rate_exact(self, usd: float) -> str:
        """An hourly rate in a formula: its cents, or to four decimals where the cents would lose a part of it
        (review51: AWS's 1-year p5.48xlarge rate $34.6752 an hour read '$34.68/h x 8,760 h' beside a Rent of
        $303,755, which those figures put at $303,797)."""
        v = self.to_local(usd) or 0.0
        sym = "$" if self.cur.code == "USD" else ("¥" if self.lang == "zh" else "CN¥")
        text = f"{abs(v):,.2f}"
        if abs(round(abs(v), 2) - abs(v)) > 5e-7:
            text = f"{abs(v):,.4f}".rstrip("0")
        return f"{'-' if v < 0 else ''}{sym}{text}"

    def money_shown(self, usd: float | None) -> str:
        """Money in the report's currency (one currency throughout: the rate is stated once)."""
        return self.money(usd)

    def days(self, d: float | None) -> str:
        """A duration given in days: hours under a day ("2.1 hours"), else days ("1 day", "3.5 days")."""
        if d is None or not math.isfinite(d):
            return self.na()
        if d < 1:
            return self.hours(d * 24)
        if round(d, 1) == 1:
            return self._("1 day")
        return self._("%(n)s days", n=format(d, ",.1f"))

    def months(self, m: float | None) -> str:
        """A span of months ("1 month", "6 months", "0.5 months"): a one-month project read '1 months'."""
        if m is None or not math.isfinite(m):
            return self.na()
        # three figures: a purchase owned for a run's 1,462.9 hours read 'the 2.00395 months it is owned' (review58)
        n = format(m, ".3g")
        return self._("1 month") if n == "1" else self._("%(n)s months", n=n)

    def hours(self, h: float | None) -> str:
        if h is None or not math.isfinite(h):
            return self.na()
        if round(h, 1) == 1:
            return self._("1 hour")
        if 0 < h < 0.05:  # a few minutes: two figures (a 0.001-day deadline read '0.0 hours')
            return self._("%(n)s hours", n=_two_figures(h))
        if h >= 48:
            return self._("%(n)s hours", n=format(h, ",.0f"))
        cents = h * 100
        if abs(cents - round(cents)) < 1e-6 and round(cents) % 10:  # a figure with two decimals (a stated 0.25 h)
            return self._("%(n)s hours", n=format(h, ",.2f"))  # as written: one decimal would round it half to even
        return self._("%(n)s hours", n=format(h, ",.1f"))

    @staticmethod
    def hours_figure(h: float) -> tuple[float, float]:
        """The number :meth:`hours` writes for ``h``, and half the unit of its last digit (what a reader adding
        the figures up may be off by on it)."""
        if round(h, 1) == 1:
            return 1.0, 0.05
        if 0 < h < 0.05:
            v = float(format(h, ".2g"))
            return v, 0.5 * 10.0 ** (math.floor(math.log10(abs(v))) - 1) if v else 0.0
        if h >= 48:
            return float(round(h)), 0.5
        cents = h * 100
        if abs(cents - round(cents)) < 1e-6 and round(cents) % 10:
            return round(h, 2), 0.005
        return round(h, 1), 0.05

    def duration_column(self, values: Sequence[float | None], title: str) -> tuple[str, list[str]]:
        """A column of durations (in days) in one unit: hours when every one is under two days,
        else days; the unit goes in the header, the cells are numbers."""
        known = [v for v in values if v is not None and math.isfinite(v)]
        in_hours = bool(known) and (max(known) < 2 or (min(known) < 1 and max(known) <= 10))
        header = self._("%(title)s, hours", title=title) if in_hours else self._("%(title)s, days", title=title)
        digits = 2 if known and not in_hours and min(known) < 1 else 1
        cells = [DASH if v is None or not math.isfinite(v) else
                 format(v * 24, ",.1f" if v * 24 < 100 else ",.0f") if in_hours else format(v, f",.{digits}f")
                 for v in values]
        return header, cells

    def seconds(self, s: float | None) -> str:
        """A latency: milliseconds under a second, seconds above."""
        if s is None or not isinstance(s, (int, float)) or not math.isfinite(s):
            return self.na()
        if s < 1:
            return f"{s * 1000:,.0f} ms"
        return f"{s:,.1f} s" if s < 100 else f"{s:,.0f} s"

    def money2(self, usd: float | None) -> str:
        """Money with cents when small (a price per million tokens, per hour)."""
        if usd is None:
            return self.na()
        return self._money(usd, 2)

    def strategy(self, label: str, count: int | None = None, parts: Any = None) -> str:
        """A layout label in this language, from its parts (message ids and values) where it has them."""
        return words.strategy(label, count, self, parts) if label else DASH

    def month(self, m: float | None) -> str:
        if m is None:
            return self.na()
        return self._("month %(n)s", n=format(m, "g"))

    @staticmethod
    def pct(x: float | None, digits: int = 0) -> str:
        if x is None or not math.isfinite(x):
            return DASH
        return share(x, digits)

    def yes_no(self, v: bool | None) -> str:
        if v is None:
            return self.na()
        return self._("yes") if v else self._("no")

    def acquisition(self, mode: str | None) -> str:
        if not mode:
            return self.na()
        return self._(ACQUISITION_LABELS[mode]) if mode in ACQUISITION_LABELS else mode

    def provider(self, name: str | None) -> str:
        """A rental's provider as the report names it: a proposal that gives its rate and names no provider is
        priced at 'proposal' (estimators/candidate.py), said as the proposal's provider (review51: 'rent, from
        proposal', '8 GPUs on proposal')."""
        return self._(PROPOSAL_PROVIDER) if name == "proposal" else (name or "")

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
        if unit == "tok/s":  # whole tokens from 100 up (review61: '10,000.0 tokens/s' for 9,999.99999998)
            return self._("%(n)s tokens/s", n=self.num(value, 0 if value >= 100 else 1))
        if unit == "sequences":
            return self._("%(n)s sequences", n=self.num(value))
        if unit == "s":
            return f"{value:,.3g} s" if value < 100 else f"{value:,.0f} s"
        if unit == "FLOP":
            return f"{eng(value)} FLOP"
        if unit in ("", "fraction"):
            # a count in the thousands grouped in whole units, as a formula's inputs are (review54: 'optimizer_steps
            # = 3.81e+03' for 500e6 / 131,072 = 3,815 steps)
            return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}"
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
        if abs(v) >= 1000:  # whole units, grouped as a count is (review50: 'steps = 4.768e+04' of 47,684)
            return f"{v:,.0f}"
        return f"{v:.4g}"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}={input_text(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return ", ".join(input_text(x) for x in v) or DASH
    return " ".join(str(v).split())


MONEY_INPUTS = frozenset({"capex"})
"""Formula inputs in USD whose names do not end in ``_usd`` (the buy formula's hardware + host + network)."""


def money_input(name: str) -> bool:
    """Whether a formula input is an amount or a rate in USD, shown in the report's money."""
    return name in MONEY_INPUTS or name.endswith("_usd") or name.startswith("usd_per_") or "_usd_per_" in name


def input_name(name: str, code: str = "USD") -> str:
    """A formula input's name as a report in currency ``code`` shows it: an amount or a rate named in USD
    (``hardware_usd``, ``usd_per_hour``) is named in the report's currency (``hardware_cny``), as its figure is
    shown; every other name, and every name in a USD report, as the result writes it (the JSON keeps it)."""
    if code == "USD" or not money_input(name):
        return name
    return "_".join(code.lower() if part == "usd" else part for part in name.split("_"))


def operand_number(name: str, inputs: dict[str, Any], money: Any = None, rate: Any = None) -> str | None:
    """The number a formula's operand ``name`` stands for, as the formula with the numbers shows it
    (a price per hour in the report's money, a discount as a percentage, hours and seconds with their
    unit); None when the input is not a number (the operand's word stays)."""
    v = inputs.get(name)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    if name == "usd_per_hour":  # ``rate``: to the digits the price has (Fmt.rate_exact)
        return (rate(v) if rate else money(v) if money else f"${v:,.2f}") + "/h"
    if money_input(name):  # an amount or a rate: the report's money, cents
        return money(v) if money else f"${v:,.2f}"
    if name == "discount":
        return f"{v:.0%}"
    if (name == "hours" or name.endswith("_hours")) and isinstance(v, float) and 100 <= abs(v) < 1e6 \
            and not v.is_integer():  # to the hundredth: '343 h' of 343.03 put CN¥179 between a rent and its formula
        return f"{v:,.2f}".rstrip("0").rstrip(".") + " h"
    unit = " h" if name == "hours" or name.endswith("_hours") else " s" if name.endswith("_s") else ""
    return input_text(v) + unit


def display_width(text: str) -> int:
    """Terminal columns: East Asian wide and full-width characters take two."""
    if text.isascii():
        return len(text)
    return _wide_width(text)


@functools.lru_cache(maxsize=8192)
def _wide_width(text: str) -> int:
    """:func:`display_width` of a text with characters past ASCII (a report measures the same cells
    and words many times while it fits its tables and lines): one column a character, one more for
    each wide one, asked per character of a cache (``map`` over it runs in C, no Python frame per
    character as the generator it replaces had)."""
    return len(text) + sum(map(_extra_column, text))


@functools.cache
def _extra_column(ch: str) -> int:
    """1 for an East Asian wide or full-width character (two columns), else 0."""
    return 1 if unicodedata.east_asian_width(ch) in ("W", "F") else 0


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


def pairs(rows: list[list[str]]) -> list[str]:
    """Label-value lines with the values aligned ("GPU          NVIDIA H100 ..."), for text."""
    if not rows:
        return []
    width = max(display_width(r[0]) for r in rows)
    return [f"{r[0]}{' ' * (width - display_width(r[0]))}  {r[1]}".rstrip() for r in rows]


def table(headers: list[str], rows: list[list[str]], *, right: Iterable[int] = (),
          classes: list[str] | None = None) -> dict[str, Any]:
    """A table for every format: headers and cells for Markdown and HTML, laid-out lines for text."""
    right = tuple(right)
    cls = classes or [""] * len(rows)
    return {"headers": headers, "rows": [{"cells": r, "cls": c} for r, c in zip(rows, cls, strict=True)],
            "right": list(right), "lines": text_lines(headers, rows, right)}

def _scaled(v: Any, rate: float) -> float | None:
    """A money figure in the report's currency; None for anything that is not a number."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return v * rate


_DEFAULT_MARKS = ("default:", "默认：", "默认:")  # how a reason opens in the catalogs' languages


def _reason(text: str) -> str:
    """An assumption's reason without a leading "default:" (the report marks defaults itself), in English or
    as a catalog worded it."""
    text = " ".join(text.split())
    mark = next((m for m in _DEFAULT_MARKS if text.lower().startswith(m)), None)
    return text[len(mark):].strip() if mark else text


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
    known = [(k, parts[k]) for k in MEMORY_PARTS if k in parts]  # the charts' order (charts.MEMORY_KINDS)
    return known + [(k, v) for k, v in parts.items() if k not in MEMORY_PARTS]


def _known(v: Any) -> bool:
    """False for the audit's "not known" markers in a card: None, "" and negative numbers."""
    return v is not None and v != "" and not (isinstance(v, (int, float)) and not isinstance(v, bool) and v < 0)


def _card_checked(card: UsedCard) -> bool:
    """Whether anything was measured on a used card (an nvidia-smi report, fan or power readings)."""
    return card.has_smi or _known(card.fan_cv) or _known(card.power_cv)


def _without_subject(template: str, values: dict[str, Any], c: Candidate | Recommendation) -> str:
    """A sentence template without the opening that names ``c``: its first fields ``{count}`` and
    ``{gpu_name}`` (joined by a multiplication sign) and the colon after them, when the values they
    are filled with are ``c``'s. Any other template (one that opens otherwise, the Chinese "上的…"
    form, a sentence about another candidate) is kept whole."""
    parts = template_parts(template)
    if len(parts) < 3:
        return template
    (lead, first, _, _), (between, second, _, _), (after, *_rest) = parts[:3]
    head = after.lstrip()
    if (lead.strip() or first != "count" or second != "gpu_name" or between.strip() not in ("x", "×")
            or head[:1] not in (":", "：") or values.get("count") != c.count
            or values.get("gpu_name") != (c.gpu_name or c.gpu)):
        return template
    rest = [(head[1:].lstrip(), *parts[2][1:]), *parts[3:]]
    out = "".join(literal.replace("{", "{{").replace("}", "}}")
                  + ("" if name is None else "{" + name + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "")
                     + "}") for literal, name, spec, conv in rest)
    return out if out.strip() else template


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

