"""Sentences with ids: every sentence gpuwise writes comes from a template, never from code.

Two kinds of templates exist: a rule's ``message`` and ``fix`` (in rules/*.yaml, id = the rule's
id) and the sentences of ``reports/messages.yaml`` (id -> English template), for what is not a
rule's (a recommendation's summary, an assumption's reason). A result keeps each message's id,
template and values, and the English text filled in; a report translates the template with the
gettext catalog (the English template is the msgid) and fills it in its own currency.

Placeholders are Python format fields, with a few specs of our own:
``{x:money}`` an amount in the report's currency (whole units), ``{x:money2}`` with cents,
``{x:pct}`` a fraction as a percentage, ``{x:int}`` a count with thousands separators,
``{x:gb}`` a size in GB, ``{x:days}`` a duration given in days (hours when under a day, "1 day",
"3.5 days": the report's language words it), ``{x:months}`` a span of months ("1 month", "6 months").
A value that is missing or of the wrong type prints
as "?" (a message is never allowed to fail).
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from .paths import data_dir
from .yamlio import read_yaml

Money = Callable[[float, int], str]
Duration = Callable[[float], str]


def days_en(days: float) -> str:
    """A duration in English: hours under a day, else days with one decimal."""
    if days < 1:
        hours = days * 24
        if 0 < hours < 0.05:  # a few minutes: two figures, not '0.0 hours' beside another '0.0 hours'
            return f"{hours:.2g} hours"
        return f"{hours:,.1f} hours" if hours < 48 else f"{hours:,.0f} hours"
    return "1 day" if round(days, 1) == 1 else f"{days:,.1f} days"


def months_en(months: float) -> str:
    """A span of months in English: '1 month', '6 months', '0.5 months' (a one-month project read '1 months')."""
    n = format(months, ".3g")  # three figures, as the reports write a span (render/fmt.py Fmt.months)
    return "1 month" if n == "1" else f"{n} months"


def usd(amount: float, decimals: int = 0) -> str:
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount):,.{decimals}f}"


def share(x: float, digits: int = 0) -> str:
    """A share as a percent with ``digits`` decimals; one that is not exactly 0 or 1 never reads as an end:
    up to two more decimals (7 hours idle of 26,280 is 99.97%, not 100.0%), then '>99.99%' or '<0.01%'."""
    v = 100.0 * x
    if not math.isfinite(v):
        return str(x)
    for d in range(digits, digits + 3):
        text = f"{v:.{d}f}"
        if v in (0.0, 100.0) or float(text) not in (0.0, 100.0):
            return f"{text}%"
    end, step = round(v), 10.0 ** -d
    if end == 100:
        return f">{100 - step if v < 100 else 100:.{d}f}%"
    return f"<{step if v > 0 else 0:.{d}f}%"


class Filler(string.Formatter):
    """str.format that knows our specs and never fails."""

    def __init__(self, money: Money = usd, duration: Duration = days_en, months: Duration = months_en):
        super().__init__()
        self.money = money
        self.duration = duration
        self.months = months

    def get_value(self, key: Any, args: Any, kwargs: Any) -> Any:
        return kwargs.get(key, "?") if isinstance(key, str) else "?"

    def format_field(self, value: Any, format_spec: str) -> str:
        number = isinstance(value, int | float) and not isinstance(value, bool)
        try:
            if format_spec in ("money", "money2"):
                return self.money(float(value), 2 if format_spec == "money2" else 0) if number else str(value)
            if format_spec == "pct":
                return share(value) if number else str(value)
            if number and format_spec[:1] == "." and format_spec[-1:] == "%" and format_spec[1:-1].isdigit():
                return share(value, int(format_spec[1:-1]))
            if format_spec == "int":
                return f"{round(value):,}" if number else str(value)
            if format_spec == "days":
                return self.duration(float(value)) if number else str(value)
            if format_spec == "months":
                return self.months(float(value)) if number else str(value)
            if format_spec == "gpuh":  # GPU-hours as Fmt's quantity writes them: whole from 10 up, else to the
                # hundredth (review62: a 0.91 GPU-hour fine-tune read '1 GPU-hours of training', its formula 0.91)
                return (f"{value:,.0f}" if value >= 10 else f"{value:.2f}") if number else str(value)
            if format_spec == "ms":  # a latency: ms, seconds from 10 s, the report's hours or days from an hour (a
                # queue behind a 128k-token sequence read 'the first token comes after 8,144,310 ms')
                if not number:
                    return str(value)
                if value < 10_000:
                    return f"{value:,.0f} ms"
                if value < 3_600_000:
                    return f"{value / 1000:,.1f} s" if value < 100_000 else f"{value / 1000:,.0f} s"
                return self.duration(value / 86_400_000)
            if format_spec == "gb":
                return f"{value:,.1f} GB" if number else str(value)
            if number and format_spec == "d":  # likewise grouped (review56: '36 layers x (1048576 state x 4 B + 36864
                # convolution x 2 B)', 'own head 32000 x h' in a Qwen3.5 estimate beside '134,850' tokens)
                return format(value, ",d")
            if number and format_spec == "g":  # likewise grouped (review53: 'nvswitch 1800 GB/s per GPU' of a B200)
                return format(value, ",g")
            if number and format_spec[:1] == "." and format_spec[-1:] == "f" and format_spec[1:-1].isdigit():
                # a fixed-point figure in the house style, its thousands grouped (review51: a rule's '{gb:.0f} GB'
                # read 'needs 2414 GB of host RAM per node; the node has 1024 GB')
                return super().format_field(value, "," + format_spec)
            return super().format_field(value, format_spec)
        except (ValueError, TypeError):
            return str(value)


_USD = Filler()

ENGLISH_VALUES: dict[str, dict[str, str]] = {
    # a value of a closed vocabulary whose raw form is not English: a proposal's own rate with no provider named
    # is priced as provider 'proposal' (estimators/candidate.py) and said as the report says it (render/words.py
    # VALUE_TERMS); review52: the JSON's ledger item read '8 GPUs on proposal' beside the page's words
    "provider": {"proposal": "the proposal's provider"},
}


_CJK = "\u2e80-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef"  # CJK ideographs, CJK and fullwidth punctuation
_IS_CJK = re.compile(f"[{_CJK}]")


def cjk_tight(put: Callable[[dict[str, Any]], str], values: dict[str, Any]) -> str:
    """``put(values)``, the spaces beside a slot dropped where a CJK value meets CJK text: a Chinese template
    spaces a slot made for a Latin name ('从 {provider} 以', 'from aws'), and a Chinese name put in it kept them
    (review52: '从 提案中的云服务商 以'). A Latin value or a Latin neighbour keeps its space ('第 4 个月')."""
    if not any(v.__class__ is str and v and (v[0] >= "\u2e80" or v[-1] >= "\u2e80") for v in values.values()):
        return put(values)
    edged = {k: v for k, v in values.items()
             if v.__class__ is str and v and (_IS_CJK.match(v[0]) or _IS_CJK.match(v[-1]))}
    if not edged:
        return put(values)
    marks = {k: f"\x00{i}\x00" for i, k in enumerate(edged)}
    text = put({**values, **marks})
    for k, mark in marks.items():
        v = edged[k]
        if _IS_CJK.match(v[0]):
            text = re.sub(f"(?<=[{_CJK}]) +{mark}", mark, text)
        if _IS_CJK.match(v[-1]):
            text = re.sub(f"{mark} +(?=[{_CJK}])", mark, text)
        text = text.replace(mark, v)
    return text


def fill(template: str, values: dict[str, Any], money: Money | None = None,
         duration: Duration | None = None, months: Duration | None = None) -> str:
    """A template with its values put in (USD and English durations unless ``money``, ``duration`` and
    ``months`` say otherwise); a CJK value in a slot spaced for a Latin one meets CJK text unspaced
    (:func:`cjk_tight`)."""
    for v in values.values():  # the usual case, no CJK value, at the cost of a look at each value's ends
        if v.__class__ is str and v and (v[0] >= "\u2e80" or v[-1] >= "\u2e80"):
            return cjk_tight(lambda vs: _fill(template, vs, money, duration, months), values)
    return _fill(template, values, money, duration, months)


def _fill(template: str, values: dict[str, Any], money: Money | None = None,
          duration: Duration | None = None, months: Duration | None = None) -> str:
    filler = _USD if money is None and duration is None and months is None else Filler(
        money or usd, duration or days_en, months or months_en)
    parts = _plain_fields(template)
    if parts is not None:  # the usual template: named fields, no nesting (parsed once per process)
        out: list[str] = []
        for literal, name, spec, conversion in parts:
            out.append(literal)
            if name is not None:
                value = values.get(name, "?")
                if value.__class__ is str and not spec and not conversion:  # as format_field writes it
                    terms = ENGLISH_VALUES.get(name)
                    out.append(terms.get(value, value) if terms is not None else value)
                    continue
                out.append(filler.format_field(filler.convert_field(value, conversion) if conversion else value,
                                               spec))
        return "".join(out)
    worded = {k: terms[v] for k, terms in ENGLISH_VALUES.items()
              if (v := values.get(k)).__class__ is str and v in terms}
    if worded:
        values = {**values, **worded}
    try:
        return filler.vformat(template, (), values)
    except (ValueError, IndexError, KeyError, AttributeError):
        return template


@lru_cache(maxsize=4096)
def _parsed(template: str) -> tuple[tuple[str, str | None, str | None, str | None], ...] | None:
    """A template's (literal, field name, spec, conversion) parts, parsed once per process; None
    when it does not parse."""
    try:
        return tuple(string.Formatter().parse(template))
    except ValueError:
        return None


@lru_cache(maxsize=4096)
def _plain_fields(template: str) -> tuple[tuple[str, str | None, str, str | None], ...] | None:
    """:func:`_parsed` when every field is a plain name with a plain spec; None when the template
    needs ``str.format``'s full machinery (or does not parse)."""
    parts = _parsed(template)
    if parts is None or any(name is not None and (not name.isidentifier() or "{" in (spec or ""))
                            for _literal, name, spec, _conversion in parts):
        return None
    return tuple((literal, name, spec or "", conversion) for literal, name, spec, conversion in parts)


def template_parts(template: str) -> tuple[tuple[str, str | None, str | None, str | None], ...]:
    """A template's (literal, field name, spec, conversion) parts, in order; none when it does not
    parse (a report shows such a sentence whole)."""
    return _parsed(template) or ()


@lru_cache(maxsize=4096)
def placeholders(template: str) -> tuple[str, ...]:
    """The field names a template fills (cached: rule messages are read once per firing)."""
    return tuple(name for _, name, _, _ in _parsed(template) or () if name)


@lru_cache(maxsize=1)
def catalog() -> dict[str, str]:
    """id -> English template, from reports/messages.yaml; kept in the user's cache
    (:func:`gpuwise.cache.cached`, keyed by the file's bytes): parsing the YAML was about 10 ms of
    every new process."""
    from . import cache

    path = data_dir("reports") / "messages.yaml"
    return cache.cached("messages", [path], lambda: _read_catalog(path))


def _read_catalog(path: Any) -> dict[str, str]:
    data = read_yaml(path, what="message catalog")
    return {str(k): str(v) for k, v in (data or {}).get("messages", {}).items()}


def template(message_id: str) -> str:
    try:
        return catalog()[message_id]
    except KeyError:
        raise KeyError(f"no message '{message_id}' in reports/messages.yaml") from None


def text(message_id: str, values: dict[str, Any]) -> str:
    """The English sentence of a catalog message."""
    return fill(template(message_id), values)


Phrase = tuple[str, str, dict[str, Any]]
"""A part of a phrase an estimator words (a link description...): the separator before it ("",
", ", "; " or " or "), its message id in reports/messages.yaml and its values. A fact carries the English
text for the rules and the parts beside it (``<field>_phrases``), so a report words the value in
its own language from the catalog instead of parsing the English."""


def is_phrase(value: Any) -> bool:
    """Whether ``value`` is a phrase's parts (a list of [separator, id, values]), as a phrase's value
    may be (the knowledge base's reason quoted inside a sentence)."""
    return isinstance(value, (list, tuple)) and bool(value) and all(
        isinstance(p, (list, tuple)) and len(p) == 3 and isinstance(p[1], str) and isinstance(p[2], dict)
        for p in value)


def phrase_text(parts: Any) -> str:
    """A phrase's English text: each part's template filled (a value that is a phrase itself worded
    first), after its separator. A part whose values are all text, whole numbers, yes/no or none is
    filled once per process (:data:`_PART_TEXTS`): a recommendation words ~600 ledger items, some 35
    different ones ("Servers", "Rent 8 GPUs from lambda")."""
    out = []
    for sep, mid, values in parts:
        key = _part_key(mid, values)
        got = _PART_TEXTS.get(key) if key is not None else None
        if got is None:
            got = text(mid, {k: phrase_text(v) if is_phrase(v) else v for k, v in values.items()})
            if key is not None:
                if len(_PART_TEXTS) >= MAX_PART_TEXTS:
                    _PART_TEXTS.clear()
                _PART_TEXTS[key] = got
        out.append(sep + got)
    return "".join(out)


_PART_TEXTS: dict[tuple[Any, ...], str] = {}
"""A phrase part's English text by its message id and values (each value with its type: 1, True
and "1" are written differently). Floats are left out: -0.0 equals 0.0 but is written "-0"."""
MAX_PART_TEXTS = 4096


def _part_key(message_id: str, values: dict[str, Any]) -> tuple[Any, ...] | None:
    """The key of a phrase part in :data:`_PART_TEXTS`; None when a value is not one kept there."""
    key: list[Any] = [message_id]
    for k, v in values.items():
        c = v.__class__
        if c is not str and c is not int and c is not bool and v is not None:
            return None
        key += (k, c, v)
    return tuple(key)


def quoted(text: str, sep: str = "") -> Phrase:
    """A phrase part that is the knowledge base's own wording (a reason written in a YAML file):
    shown as written, quoted in a report in another language (message ``quote``)."""
    return (sep, "quote", {"quote": " ".join(str(text).split())})


def batch_size_change(before: int, after: int, accum: int, sep: str = "") -> Phrase:
    """A stated micro-batch planned smaller, in the input file's own field (workload.batch_size, docs/formats.md)
    with the accumulation steps that keep the step's tokens: the one wording the job fact's strategy_changes, a
    recommendation's changes from the question and its suggested changes share (reports/messages.yaml
    change.batch_size, translated in the gettext catalog)."""
    return (sep, "change.batch_size", {"before": int(before), "after": int(after), "accum": int(accum)})


def phrase_json(parts: Any) -> list[Any]:
    """A phrase's parts as JSON has them (lists, nested phrases too): what a fact and a finding carry."""
    return [[sep, mid, {k: phrase_json(v) if is_phrase(v) else v for k, v in values.items()}]
            for sep, mid, values in parts]


def formula(message_id: str, sep: str = "", **values: Any) -> tuple[Phrase, ...]:
    """A formula as a phrase of one part (reports/messages.yaml ``formula.*``): its constants as
    values; a field without a value is an operand (:func:`operand`). Parts join with ``+``."""
    return ((sep, message_id, values),)


def operand(name: str) -> str:
    """The word a formula writes for its operand ``name`` (``operand.<name>`` in
    reports/messages.yaml): "params", "$/h"; the report puts the input's number in its place."""
    return template(f"operand.{name}")


def formula_text(parts: Any) -> str:
    """A formula's English text: each part's template filled with its values, an operand by its word,
    a value that is a formula itself (a memory term's frozen base inside its weights) worded first."""
    out = []
    for sep, mid, values in parts:
        if not values:  # operands only (most cost formulas): the same words every time
            out.append(sep + _operands_only(mid))
            continue
        t = template(mid)
        filled = {k: formula_text(v) if is_phrase(v) else v for k, v in values.items()}
        out.append(sep + fill(t, {**{n: operand(n) for n in placeholders(t) if n not in values}, **filled}))
    return "".join(out)



@lru_cache(maxsize=1024)
def _operands_only(message_id: str) -> str:
    """:func:`formula_text` of a formula part with no values: its template with every field an operand."""
    t = template(message_id)
    return fill(t, {n: operand(n) for n in placeholders(t)})
