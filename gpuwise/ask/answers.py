"""Answers: parsing what is typed (numbers with suffixes and currency marks, ``none``), and the
answers file (nested keys, ordered, written in the session's currency).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from ..inputs.notation import other_digits
from .questions import SECTIONS, Questionnaire, _section_fields

CURRENCIES = ("USD", "CNY")
SYMBOLS = {"USD": "$", "CNY": "¥"}
_NONE_WORDS = ("none", "null", "-", "无", "没有", "不限")
_STATE = re.compile(r"^# gpuwise-ask: (.*)$", re.MULTILINE)  # the session state a file carries


class _Invalid(Exception):
    """An answer that failed parsing or validation; the message is shown and the question re-asked.

    ``msg`` is a message id from ``questions.yaml`` (filled with ``params``), or ``raw`` text
    that is already what to show (say, a knowledge-base "did you mean").
    """

    def __init__(self, msg: str | None = None, *, raw: str | None = None, **params: Any):
        super().__init__(raw or msg)
        self.msg = msg
        self.raw = raw
        self.params = params


# -------------------------------------------------------------------------------- answers
def _get(answers: dict, path: str, default: Any = None) -> Any:
    section, _, name = path.partition(".")
    body = answers.get(section)
    if not name:
        return body if section in answers else default
    return body.get(name, default) if isinstance(body, dict) else default


def _has(answers: dict, path: str) -> bool:
    section, _, name = path.partition(".")
    if not name:
        return section in answers
    body = answers.get(section)
    return isinstance(body, dict) and name in body


def _put(answers: dict, path: str, value: Any) -> None:
    section, _, name = path.partition(".")
    if not name:
        answers.setdefault(section, {})
        return
    answers.setdefault(section, {})[name] = value


def _drop(answers: dict, path: str) -> None:
    section, _, name = path.partition(".")
    if not name:
        answers.pop(section, None)
    elif isinstance(answers.get(section), dict):
        answers[section].pop(name, None)


def _ordered(answers: dict) -> dict:
    """The answers in the contract's order: sections, then each model's field order."""
    fields = _section_fields()
    out: dict = {}
    for section in SECTIONS:
        if section not in answers:
            continue
        body = answers[section] or {}
        out[section] = {f: body[f] for f in fields[section] if f in body}
    return out


def _yaml_scalar(value: Any, money: bool = False) -> str:
    import yaml

    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        if money and abs(value) < 1e15:  # an amount as it was typed: 1500000, not 1.5e+06
            return str(int(value))
        if abs(value) >= 1e6:
            mantissa, exp = f"{value:e}".split("e")
            mantissa = mantissa.rstrip("0")
            return f"{mantissa}0e{exp}" if mantissa.endswith(".") else f"{mantissa}e{exp}"
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10_000)
    return text.removesuffix("\n").removesuffix("\n...").strip()


def render_answers(answers: dict, questionnaire: Questionnaire | None = None, *, lang: str = "en",
                   currency: str = "USD", state: str = "") -> str:
    """The requirements file's text: the contract's sections and keys, each labelled in ``lang``.

    ``state`` (the questionnaire's own answers that are no requirements, such as "advanced
    settings: no") goes in a comment line, so a resumed session does not ask them again.
    """
    import yaml

    from ..yamlio import safe_load

    labels: dict[str, str] = {}
    money: set[str] = set()
    if questionnaire is not None:
        for q in questionnaire.questions:
            for k in q.keys:
                labels[k] = q.label[lang].format(sym=SYMBOLS[currency], cur=currency)
                if q.money:
                    money.add(k)
        if "currency_label" in questionnaire.messages:
            labels["constraints.currency"] = questionnaire.say("currency_label", lang)
    from ..inputs.schema import to_currency_fields

    data = _ordered(answers)
    own = {}  # a yuan amount is saved in the field named for its currency (budget_cny), as the file reads it
    if isinstance(data.get("constraints"), dict):
        before = list(data["constraints"])
        data["constraints"] = to_currency_fields(data["constraints"], currency)
        own = {f"constraints.{n}": f"constraints.{o}" for o, n in zip(before, data["constraints"], strict=True)
               if o != n}
    if questionnaire is not None and {"file_head", "file_run"} <= set(questionnaire.messages):
        lines = ["# " + questionnaire.say("file_head", lang), "# " + questionnaire.say("file_run", lang)]
    else:
        lines = [
            "# gpuwise requirements, written by `gpuwise ask`.",
            "# Run it with `gpuwise recommend FILE`; change answers with `gpuwise ask --answers FILE`.",
        ]
    if state:
        lines.append(f"# gpuwise-ask: {state}")
    head = len(lines)
    for section, body in data.items():
        if not body:
            lines.append(f"{section}: {{}}")
            continue
        lines.append(f"{section}:")
        for name, value in body.items():
            key = own.get(f"{section}.{name}", f"{section}.{name}")
            line = f"  {name}: {_yaml_scalar(value, key in money)}"
            label = labels.get(key)
            lines.append(f"{line}  # {label}" if label else line)
    text = "\n".join(lines) + "\n"
    if safe_load(text) != (data or None):  # belt and braces: never save what reads back differently
        text = "\n".join(lines[:head]) + "\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    return text


def save_answers(path: str | Path, answers: dict, questionnaire: Questionnaire | None = None,
                 **kw: Any) -> None:
    """Write the answers atomically: a temporary file beside ``path``, then ``os.replace``."""
    from ..render.output import atomic_write_text

    atomic_write_text(path, render_answers(answers, questionnaire, **kw))


# -------------------------------------------------------------------------------- parsing
_SUFFIX = {"k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12, "十": 10, "百": 100, "千": 1e3, "万": 1e4, "亿": 1e8}
# a Chinese multiplier may be compound, each character multiplying: '3万亿' (3e12 tokens, how a pretraining corpus is
# said), '3千万' (3e7), '5百万', '2千亿'; only '3万' and '3亿' were read, and '3万亿' was 'not a number' (review59)
_CJK_MULT = r"[十百千]?万亿|[十百千]?[万亿]|千"
_NUMBER = re.compile(rf"^([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*([kmbgt]|{_CJK_MULT})?$", re.IGNORECASE)
_SIZE = re.compile(r"^(\d+(?:\.\d+)?|\.\d+)\s*b?$", re.IGNORECASE)
# currency marks a user may type around an amount, longest first
_MARK_BEFORE = (("us$", "USD"), ("cn¥", "CNY"), ("rmb", "CNY"), ("$", "USD"), ("¥", "CNY"), ("￥", "CNY"))
_MARK_AFTER = (("人民币", "CNY"), ("dollars", "USD"), ("dollar", "USD"), ("yuan", "CNY"), ("美元", "USD"),
               ("usd", "USD"), ("cny", "CNY"), ("rmb", "CNY"), ("元", "CNY"))


def _currency_mark(text: str) -> tuple[str, str | None]:
    """``'¥1,500,000'`` -> ``('1,500,000', 'CNY')``; text without a mark -> ``(text, None)``."""
    s = text.strip()
    low = s.lower()
    for mark, code in _MARK_BEFORE:
        if low.startswith(mark):
            return s[len(mark):].strip(), code
    for mark, code in _MARK_AFTER:
        if low.endswith(mark) and len(s) > len(mark):
            return s[: -len(mark)].strip(), code
    return s, None


def parse_number(text: str, *, integer: bool = False, currency: str | None = None) -> int | float:
    """``'2e9'``, ``'2B'``, ``'50k'``, ``'$1,500'``, ``'1_000'``, ``'30万'`` -> a number.

    With ``currency`` (an amount), a currency mark that names another currency is refused
    rather than silently read in the wrong one.
    """
    body, code = _currency_mark(text)
    if currency is not None and code is not None and code != currency:
        raise _Invalid("wrong_currency", cur=currency, sym=SYMBOLS[currency], other=code)
    said = other_digits(body)  # '١e8', '５万': Python's float() reads them; every file refuses them, with the ASCII
    if said is not None:
        raise _Invalid("other_digits", **said.values)
    s = body.replace(",", "").replace("_", "").replace(" ", "")
    m = _NUMBER.match(s)
    if not m:
        raise _Invalid("not_a_number", text=repr(text.strip()))
    value = float(m.group(1)) * math.prod(_SUFFIX[c] for c in (m.group(2) or "").lower())
    if not math.isfinite(value):
        raise _Invalid("not_finite")
    if integer:
        if not value.is_integer():
            raise _Invalid("not_whole", text=repr(text.strip()))
        return int(value)
    return value


_MULTIPLIED = re.compile(rf"[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?\s*(?:[kmbgt]|{_CJK_MULT})", re.IGNORECASE)
_NOT_MULTIPLIED = ("s", "ms", "days", "months", "hours", "fraction")
"""The units of the fields a k / M / B suffix does not multiply: '500m' at a time in seconds is 500 million seconds to
parse_number, where the user meant milliseconds or minutes (and '2m' at max_ttft_ms was saved as 2,000,000 ms)."""


def number_for(text: str, field: str | None, *, integer: bool = False, currency: str | None = None,
               lang: str = "en", bounds: dict[str, float] | None = None) -> int | float:
    """The number typed for the file's ``field`` (an amount when ``currency`` is given). A number written with a
    unit the field's name fixes ('500ms' at a time in seconds, '2 weeks' at a deadline in days, '50%' at a share,
    '120/min' at a request rate) is refused offering it in the field's unit, as the file's field is
    (inputs/units.py), not as 'not a number'; a multiplier suffix is refused at a time, days, months or a share.
    ``bounds``: the field's (inputs/strict.py ``field_bounds``), said after a number offered past one, as a file's
    field says them ('50 years' at the horizon: 600, and horizon_months must be at most 60; hostileleft60)."""
    from ..inputs.notation import Meant
    from ..inputs.units import _kind, raise_unit_written

    kind = _kind(field) if field else None
    if kind is not None and kind[0] in _NOT_MULTIPLIED and _MULTIPLIED.fullmatch(text):
        raise _Invalid("no_multiplier", text=repr(text))
    try:
        return parse_number(text, integer=integer, currency=currency)
    except _Invalid as exc:
        if exc.msg == "not_a_number" and currency is not None:  # '€20,000': EUR named, and USD and CNY
            from ..errors import Said
            from ..inputs.notation import raise_other_currency

            try:
                raise_other_currency(text)
            except Said as said:
                raise _Invalid(raw=said.words(lang)) from None
        if exc.msg == "not_a_number" and currency is None and field:
            try:
                raise_unit_written(text, field, bounds)
            except Meant as said:
                raise _Invalid(raw=said.words(lang)) from None
        if exc.msg == "not_a_number" and kind is not None and kind[0] in _NOT_MULTIPLIED:
            # review65: 'y' at the project length was answered 'examples: 4096, 2e9, 2B, 50k', the forms of a count
            # of tokens, and '2B' there is then refused as a multiplier (no_multiplier)
            raise _Invalid("not_a_number_in_unit", text=exc.params.get("text", repr(text)),
                           examples="0.1, 0.5" if kind[0] == "fraction" else "3, 0.5") from None
        raise


def _short_float(value: float) -> str:
    """``2e9`` as ``2e9``, ``0.15`` as ``0.15``, ``6.0`` as ``6``: as a user would type it."""
    if value.is_integer() and abs(value) >= 1e6:
        return f"{value:.4g}".replace("e+0", "e").replace("e+", "e")
    return f"{value:g}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


