"""The guided questionnaire behind ``gpuwise ask``.

The questions are data (``questions.yaml`` beside this module: key, type, texts in every
language, choices, defaults, and ``when``/``advanced`` conditions on earlier answers); this
module only interprets them.  The essential questions come first; one "advanced settings?"
question shows the defaults it would use and asks the rest only on yes, so an answer that is
not given stays out of the file and the documented default (listed in the report as an
assumption) applies.  Every answer is validated with the same pydantic models that read
requirements files (:mod:`gpuwise.inputs.schema`), so a value ``ask`` accepts is one
``recommend`` accepts, and saved after each one (a temporary file, then ``os.replace``), so
Ctrl-C loses nothing and ``--answers FILE`` resumes where it stopped.  A summary lets the
user confirm or change any answer; then the recommendation runs and the report is written.

Languages: every word said comes from ``questions.yaml`` (``en`` and ``zh``; the loader
refuses a text missing a language).  Currency: amounts are asked in ``--currency`` (USD or
CNY) and saved as typed, with ``constraints.currency`` saying which.

Public entry: :func:`run_ask`.  Heavy imports (questionary, prompt_toolkit, rich,
pydantic) happen inside functions, so importing this module costs next to nothing.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import difflib
import math
import operator
import os
import re
import string
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

QUESTIONS_FILE = Path(__file__).with_name("questions.yaml")
SCHEMA_VERSION = 2
SECTIONS = ("workload", "constraints", "environment")
DEFAULT_ANSWERS = "gpuwise-answers.yaml"
EXIT_INTERRUPTED = 130
EXIT_USAGE = 2
CURRENCIES = ("USD", "CNY")
SYMBOLS = {"USD": "$", "CNY": "¥"}
GATE = "advanced"  # the key of the one "advanced settings?" question (not a requirements-file key)

TYPES = ("select", "text", "int", "float", "bool", "autocomplete", "section", "advanced")
_QUESTION_FIELDS = {"key", "alt_key", "type", "label", "question", "help", "invalid", "terms", "choices",
                    "default", "defaults", "optional", "when", "advanced", "money", "parse", "source"}
_TEXT_PLACEHOLDERS = {"sym", "cur"}  # what question texts may use: the session's currency
_NONE_WORDS = ("none", "null", "-", "无", "没有", "不限")
_HELP = "?"  # what a select/confirm prompt returns when the user presses ?
_STATE = re.compile(r"^# gpuwise-ask: (.*)$", re.MULTILINE)  # the session state a file carries


class QuestionsError(ValueError):
    """``questions.yaml`` does not match its schema: a bug in gpuwise (or a bad edit), not bad input."""


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


_UNSET: Any = object()
_AGAIN: Any = object()  # "put the question again" (after help, or an unparsable answer)


# ----------------------------------------------------------------------------- conditions
_COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
_LITERAL_NAMES = {"true": True, "false": False, "null": None, "True": True, "False": False, "None": None}


class Condition:
    """A ``when:`` expression, evaluated without ``eval``.

    The text is parsed with :func:`ast.parse` and every node is checked against a short
    whitelist: dotted names (answers), literals (strings, numbers, true/false/null, lists),
    comparisons (``== != < <= > >= in``, ``not in``) and ``and``/``or``/``not``.  Anything
    else (calls, attribute tricks, subscripts, arithmetic) is refused when the file loads.
    """

    def __init__(self, text: str):
        self.text = text
        try:
            tree = ast.parse(text.strip(), mode="eval")
        except SyntaxError as exc:
            raise QuestionsError(f"cannot parse condition {text!r}: {exc.msg}") from None
        self.names: set[str] = set()
        self._check(tree.body)
        self._body = tree.body

    def _check(self, node: ast.AST) -> None:
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And | ast.Or):
            for v in node.values:
                self._check(v)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self._check(node.operand)
        elif isinstance(node, ast.Compare):
            bad = [op for op in node.ops if type(op) not in _COMPARE]
            if bad:
                raise QuestionsError(f"operator {type(bad[0]).__name__} not allowed in {self.text!r}")
            for v in (node.left, *node.comparators):
                self._check(v)
        elif isinstance(node, ast.List | ast.Tuple):
            for v in node.elts:
                self._check(v)
        elif isinstance(node, ast.Constant):
            if not isinstance(node.value, str | int | float | bool | type(None)):
                raise QuestionsError(f"literal {node.value!r} not allowed in {self.text!r}")
        elif isinstance(node, ast.Name | ast.Attribute):
            path = _dotted(node)
            if path is None:
                raise QuestionsError(f"only dotted names are allowed in {self.text!r}")
            if path not in _LITERAL_NAMES:
                self.names.add(path)
        else:
            raise QuestionsError(f"{type(node).__name__} not allowed in condition {self.text!r}")

    def evaluate(self, lookup: Callable[[str], Any]) -> bool:
        """True when the condition holds; ``lookup(path)`` gives an answer's current value."""
        return bool(self._eval(self._body, lookup))

    def _eval(self, node: ast.AST, lookup: Callable[[str], Any]) -> Any:
        if isinstance(node, ast.BoolOp):
            if isinstance(node.op, ast.And):
                return all(self._eval(v, lookup) for v in node.values)
            return any(self._eval(v, lookup) for v in node.values)
        if isinstance(node, ast.UnaryOp):
            return not self._eval(node.operand, lookup)
        if isinstance(node, ast.Compare):
            left = self._eval(node.left, lookup)
            for op, right_node in zip(node.ops, node.comparators, strict=True):
                right = self._eval(right_node, lookup)
                try:
                    ok = _COMPARE[type(op)](left, right)
                except TypeError:  # e.g. None < 3: an unanswered value satisfies no ordering
                    ok = False
                if not ok:
                    return False
                left = right
            return True
        if isinstance(node, ast.List | ast.Tuple):
            return [self._eval(v, lookup) for v in node.elts]
        if isinstance(node, ast.Constant):
            return node.value
        path = _dotted(node)
        assert path is not None
        return _LITERAL_NAMES[path] if path in _LITERAL_NAMES else lookup(path)


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else None
    return None


# ---------------------------------------------------------------------------------- texts
Text = dict[str, str]  # language -> text

_CJK = "\u2e80-\u9fff\uf900-\ufaff"
_CJK_PUNCT = "\u3000-\u303f\uff00-\uffef"


def _squash(text: str) -> str:
    """Whitespace collapsed as YAML folding leaves it, without the spaces folding puts between
    Chinese characters (or after Chinese punctuation)."""
    text = " ".join(str(text).split())
    text = re.sub(f"(?<=[{_CJK_PUNCT}]) (?=\\S)", "", text)
    return re.sub(f"(?<=[{_CJK}]) (?=[{_CJK}{_CJK_PUNCT}])", "", text)


def _placeholders(text: str) -> set[str]:
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError as exc:  # a lone brace
        raise QuestionsError(f"bad braces in {text!r}: {exc}") from None


def _text(raw: Any, where: str, languages: tuple[str, ...], allowed: set[str] | None = None) -> Text:
    """A text in every language: a mapping {lang: text}, or one string for all (names only)."""
    if isinstance(raw, str | int | float) and not isinstance(raw, bool):
        out = {lang: _squash(str(raw)) for lang in languages}
    elif isinstance(raw, dict):
        missing = [lang for lang in languages if not raw.get(lang)]
        if missing:
            raise QuestionsError(f"{where}: no {missing[0]!r} text")
        extra = sorted(set(raw) - set(languages))
        if extra:
            raise QuestionsError(f"{where}: language {extra[0]!r} is not in `languages`")
        out = {lang: _squash(str(raw[lang])) for lang in languages}
    else:
        raise QuestionsError(f"{where}: expected a text or a mapping of languages")
    names = {lang: _placeholders(t) for lang, t in out.items()}
    first = names[languages[0]]
    for lang, got in names.items():
        if got != first:
            raise QuestionsError(f"{where}: the {lang!r} text has placeholders {sorted(got)}, "
                                 f"the {languages[0]!r} text {sorted(first)}")
    if allowed is not None and not first <= allowed:
        raise QuestionsError(f"{where}: unknown placeholder {sorted(first - allowed)[0]!r}")
    return out


# ------------------------------------------------------------------------------ questions
@dataclass(frozen=True)
class Choice:
    value: Any
    title: Text


@dataclass(frozen=True)
class Term:
    text: Text
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Question:
    """One question, as declared in ``questions.yaml``."""

    key: str
    type: str
    label: Text
    question: Text
    help: Text
    invalid: Text | None = None
    terms: tuple[str, ...] = ()
    choices: tuple[Choice, ...] = ()
    default: Any = _UNSET
    defaults: tuple[tuple[Condition, str, Any], ...] = ()  # (when, "value" | "compute", what)
    optional: bool = False
    when: Condition | None = None
    advanced: bool | Condition = False
    money: bool = False
    parse: str | None = None
    alt_key: str | None = None
    source: str | None = None

    @property
    def section(self) -> str:
        return self.key.split(".", 1)[0]

    @property
    def keys(self) -> tuple[str, ...]:
        return (self.key, self.alt_key) if self.alt_key else (self.key,)

    def names(self) -> set[str]:
        """The answers this question's conditions read."""
        out = set(self.when.names) if self.when else set()
        if isinstance(self.advanced, Condition):
            out |= self.advanced.names
        for cond, _, _ in self.defaults:
            out |= cond.names
        return out


@dataclass(frozen=True)
class Questionnaire:
    questions: tuple[Question, ...]
    glossary: dict[str, Term]
    messages: dict[str, Text]
    languages: tuple[str, ...] = ("en",)

    def by_key(self, key: str) -> Question:
        for q in self.questions:
            if key in q.keys:
                return q
        raise KeyError(key)

    def say(self, msg: str, lang: str, **params: Any) -> str:
        """Message ``msg`` in ``lang``, its ``{name}`` placeholders filled from ``params``."""
        return self.messages[msg][lang].format(**params)

    def term(self, typed: str) -> str | None:
        """The glossary entry ``typed`` names: a term, one of its aliases, or a close spelling."""
        typed = typed.strip().lower()
        names = {t: t for t in self.glossary} | {a.lower(): t for t, e in self.glossary.items() for a in e.aliases}
        if typed in names:
            return names[typed]
        close = difflib.get_close_matches(typed, list(names), n=1)
        return names[close[0]] if close else None


_CONVERTERS = ("model", "gpu_list")
_SOURCES = ("models",)
_COMPUTED = ("chinchilla_tokens",)


def load_questions(path: str | Path | None = None) -> Questionnaire:
    """Read and check ``questions.yaml`` (or ``path``); a malformed file is a QuestionsError."""
    import yaml

    p = Path(path) if path else QUESTIONS_FILE
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise QuestionsError(f"{p}: not valid YAML: {' '.join(str(exc).split())}") from None
    if not isinstance(data, dict) or data.get("schema_version") != SCHEMA_VERSION:
        raise QuestionsError(f"{p}: schema_version must be {SCHEMA_VERSION}")
    unknown = set(data) - {"schema_version", "languages", "messages", "glossary", "questions"}
    if unknown:
        raise QuestionsError(f"{p}: unknown top-level key {sorted(unknown)[0]!r}")
    languages = tuple(str(x) for x in data.get("languages") or ["en"])
    if languages[0] != "en" or len(set(languages)) != len(languages):
        raise QuestionsError(f"{p}: languages must list en first, each once")
    messages = {str(k): _text(v, f"{p}: messages.{k}", languages) for k, v in (data.get("messages") or {}).items()}
    glossary: dict[str, Term] = {}
    for k, v in (data.get("glossary") or {}).items():
        if not isinstance(v, dict):
            raise QuestionsError(f"{p}: glossary.{k}: expected a mapping of languages (and aliases)")
        body = {lang: t for lang, t in v.items() if lang != "aliases"}
        glossary[str(k).lower()] = Term(_text(body, f"{p}: glossary.{k}", languages),
                                        tuple(str(a).lower() for a in v.get("aliases") or ()))
    fields = _section_fields()
    questions: list[Question] = []
    owned: set[str] = set()
    for i, raw in enumerate(data.get("questions") or []):
        where = f"{p}: questions[{i}]"
        if not isinstance(raw, dict):
            raise QuestionsError(f"{where}: expected a mapping")
        extra = set(raw) - _QUESTION_FIELDS
        if extra:
            raise QuestionsError(f"{where}: unknown field {sorted(extra)[0]!r}")
        for need in ("key", "type", "label", "question", "help"):
            if not raw.get(need):
                raise QuestionsError(f"{where}: {need!r} is required")
        q = _build_question(raw, where, fields, glossary, languages)
        paths = _all_paths(fields)
        unknown_names = sorted(n for n in q.names() if n not in owned and n not in paths)
        if unknown_names:
            raise QuestionsError(f"{where}: condition names unknown key {unknown_names[0]!r}")
        ahead = sorted(n for n in q.names() if n not in owned and _owned_by_later(n, data, i))
        if ahead:
            raise QuestionsError(f"{where}: condition uses {ahead[0]!r}, which is asked later")
        dup = set(q.keys) & owned
        if dup:
            raise QuestionsError(f"{where}: key {sorted(dup)[0]!r} is asked twice")
        owned.update(q.keys)
        questions.append(q)
    if not questions or questions[0].key != "workload.task":
        raise QuestionsError(f"{p}: the first question must be workload.task")
    if any(q.advanced for q in questions) and GATE not in owned:
        raise QuestionsError(f"{p}: advanced questions need the {GATE!r} question")
    return Questionnaire(tuple(questions), glossary, messages, languages)


def _owned_by_later(name: str, data: dict, index: int) -> bool:
    for raw in data["questions"][index:]:
        if isinstance(raw, dict) and name in (raw.get("key"), raw.get("alt_key")):
            return True
    return False


def _all_paths(fields: dict[str, list[str]]) -> set[str]:
    return set(fields) | {f"{s}.{f}" for s, fs in fields.items() for f in fs}


def _build_question(raw: dict, where: str, fields: dict[str, list[str]], glossary: dict[str, Term],
                    languages: tuple[str, ...]) -> Question:
    key = str(raw["key"])
    qtype = str(raw["type"])
    if qtype not in TYPES:
        raise QuestionsError(f"{where}: type {qtype!r} is not one of {', '.join(TYPES)}")
    if (qtype == "advanced") != (key == GATE):
        raise QuestionsError(f"{where}: type 'advanced' is for the key {GATE!r}, and only for it")
    for k in (key, raw.get("alt_key")) if qtype != "advanced" else ():
        if k is None:
            continue
        section, _, name = str(k).partition(".")
        if section not in fields or (name and name not in fields[section]):
            raise QuestionsError(f"{where}: {k!r} is not a requirements-file key")
        if (qtype == "section") != (not name):
            raise QuestionsError(f"{where}: type 'section' is for a bare section key, and only for one")
    choices = []
    for j, c in enumerate(raw.get("choices") or []):
        if not isinstance(c, dict) or "value" not in c:
            raise QuestionsError(f"{where}: choices[{j}]: expected {{value, title}}")
        choices.append(Choice(c["value"], _text(c.get("title", c["value"]), f"{where}: choices[{j}]", languages)))
    if qtype == "select" and not choices:
        raise QuestionsError(f"{where}: a select needs choices")
    default = raw.get("default", _UNSET)
    if choices and default is not _UNSET and _index(choices, default) is None:
        raise QuestionsError(f"{where}: default {default!r} is not one of the choices")
    defaults = []
    for j, d in enumerate(raw.get("defaults") or []):
        if not isinstance(d, dict) or "when" not in d or len(set(d) & {"value", "compute"}) != 1 \
                or set(d) - {"when", "value", "compute"}:
            raise QuestionsError(f"{where}: defaults[{j}]: expected {{when, value}} or {{when, compute}}")
        kind = "value" if "value" in d else "compute"
        if kind == "compute" and d["compute"] not in _COMPUTED:
            raise QuestionsError(f"{where}: defaults[{j}]: compute {d['compute']!r} is not one of "
                                 f"{', '.join(_COMPUTED)}")
        defaults.append((Condition(str(d["when"])), kind, d[kind]))
    terms = tuple(str(t).lower() for t in raw.get("terms") or [])
    for t in terms:
        if t not in glossary:
            raise QuestionsError(f"{where}: term {t!r} is not in the glossary")
    if raw.get("parse") is not None and raw["parse"] not in _CONVERTERS:
        raise QuestionsError(f"{where}: parse {raw['parse']!r} is not one of {', '.join(_CONVERTERS)}")
    if raw.get("source") is not None and raw["source"] not in _SOURCES:
        raise QuestionsError(f"{where}: source {raw['source']!r} is not one of {', '.join(_SOURCES)}")
    adv = raw.get("advanced", False)
    if not isinstance(adv, bool):
        adv = Condition(str(adv))
    if adv is not False and qtype == "advanced":
        raise QuestionsError(f"{where}: the advanced-settings question cannot itself be advanced")
    money = bool(raw.get("money", False))
    if money and qtype not in ("int", "float"):
        raise QuestionsError(f"{where}: money is for int and float questions")

    def text(name: str) -> Text:
        return _text(raw[name], f"{where}: {name}", languages, _TEXT_PLACEHOLDERS)

    return Question(
        key=key,
        type=qtype,
        label=text("label"),
        question=text("question"),
        help=text("help"),
        invalid=text("invalid") if raw.get("invalid") else None,
        terms=terms,
        choices=tuple(choices),
        default=default,
        defaults=tuple(defaults),
        optional=bool(raw.get("optional", False)),
        when=Condition(str(raw["when"])) if raw.get("when") is not None else None,
        advanced=adv,
        money=money,
        parse=raw.get("parse"),
        alt_key=raw.get("alt_key"),
        source=raw.get("source"),
    )


def _section_models() -> dict[str, Any]:
    from ..inputs.schema import Constraints, Environment, Workload

    return {"workload": Workload, "constraints": Constraints, "environment": Environment}


def _section_fields() -> dict[str, list[str]]:
    return {s: list(m.model_fields) for s, m in _section_models().items()}


def _model_default(path: str) -> Any:
    """The requirements model's default for ``section.field`` (None when it has none)."""
    from pydantic_core import PydanticUndefined

    section, _, name = path.partition(".")
    model = _section_models().get(section)
    info = model.model_fields.get(name) if model is not None else None
    if info is None or info.default is PydanticUndefined:
        return None
    return info.default


def _same(a: Any, b: Any) -> bool:
    """Equality that keeps ``False``/``0`` and ``True``/``1`` apart."""
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def _index(choices: Iterable[Choice], value: Any) -> int | None:
    for i, c in enumerate(choices):
        if _same(c.value, value):
            return i
    return None


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
    data = _ordered(answers)
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
            key = f"{section}.{name}"
            line = f"  {name}: {_yaml_scalar(value, key in money)}"
            label = labels.get(key)
            lines.append(f"{line}  # {label}" if label else line)
    text = "\n".join(lines) + "\n"
    if yaml.safe_load(text) != (data or None):  # belt and braces: never save what reads back differently
        text = "\n".join(lines[:head]) + "\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    return text


def save_answers(path: str | Path, answers: dict, questionnaire: Questionnaire | None = None,
                 **kw: Any) -> None:
    """Write the answers atomically: a temporary file beside ``path``, then ``os.replace``."""
    from ..render.output import atomic_write_text

    atomic_write_text(path, render_answers(answers, questionnaire, **kw))


# -------------------------------------------------------------------------------- parsing
_SUFFIX = {"k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12, "千": 1e3, "万": 1e4, "亿": 1e8}
_NUMBER = re.compile(r"^([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*([kmbgt千万亿])?$", re.IGNORECASE)
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
    s = body.replace(",", "").replace("_", "").replace(" ", "")
    m = _NUMBER.match(s)
    if not m:
        raise _Invalid("not_a_number", text=repr(text.strip()))
    value = float(m.group(1)) * _SUFFIX.get((m.group(2) or "").lower(), 1)
    if not math.isfinite(value):
        raise _Invalid("not_finite")
    if integer:
        if not value.is_integer():
            raise _Invalid("not_whole", text=repr(text.strip()))
        return int(value)
    return value


def _short_float(value: float) -> str:
    """``2e9`` as ``2e9``, ``0.15`` as ``0.15``, ``6.0`` as ``6``: as a user would type it."""
    if value.is_integer() and abs(value) >= 1e6:
        return f"{value:.4g}".replace("e+0", "e").replace("e+", "e")
    return f"{value:g}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# -------------------------------------------------------------------------------- session
@dataclass
class _Update:
    key: str
    value: Any
    drop: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)


class _Session:
    """The answers so far, which questions apply, validation, and saving, in one language and currency."""

    def __init__(self, questionnaire: Questionnaire, kb: Any, path: Path, *, lang: str = "en",
                 currency: str | None = None):
        if lang not in questionnaire.languages:
            raise ValueError(f"language {lang!r} is not one of {', '.join(questionnaire.languages)}")
        self.qn = questionnaire
        self.kb = kb
        self.path = path
        self.lang = lang
        self.requested_currency = currency
        self.currency = currency or "USD"
        self.answers: dict[str, dict[str, Any]] = {}
        self.declined: set[str] = set()  # optional sections answered "no"
        self.advanced: bool | None = None  # the answer to the advanced-settings question
        self.owner = {k: q for q in questionnaire.questions for k in q.keys}
        self._rate: float | None = None

    # ---- language and currency
    def t(self, msg: str, **params: Any) -> str:
        return self.qn.say(msg, self.lang, **params)

    def text(self, q: Question, name: str) -> str:
        """One of ``q``'s texts (label, question, help, invalid) in the session's language and currency."""
        value: Text | None = getattr(q, name)
        return "" if value is None else value[self.lang].format(sym=self.sym, cur=self.currency)

    @property
    def sym(self) -> str:
        return SYMBOLS[self.currency]

    @property
    def rate(self) -> float:
        """Units of the session's currency per USD (the knowledge base's dated ``usd_cny`` for CNY)."""
        if self._rate is None:
            self._rate = 1.0 if self.currency == "USD" else float(self.kb.tco_value("usd_cny").value)
        return self._rate

    def set_currency(self) -> None:
        _put(self.answers, "constraints.currency", self.currency)

    # ---- state
    def lookup(self, path: str) -> Any:
        if "." not in path:
            return self.answers.get(path)
        if _has(self.answers, path):
            return _get(self.answers, path)
        return _model_default(path)

    def answered(self, q: Question) -> bool:
        if q.type == "advanced":
            return self.advanced is not None
        return any(_has(self.answers, k) for k in q.keys) or q.key in self.declined

    def is_advanced(self, q: Question) -> bool:
        if isinstance(q.advanced, Condition):
            return q.advanced.evaluate(self.lookup)
        return q.advanced

    def applies(self, q: Question, advanced: bool | None = None) -> bool:
        """Whether ``q`` is to be asked; ``advanced`` overrides the gate's answer (to list the defaults)."""
        if q.when is not None and not q.when.evaluate(self.lookup):
            return False
        if self.is_advanced(q):
            return (self.advanced if advanced is None else advanced) is True
        return True

    def _gone(self, q: Question) -> bool:
        """``q`` cannot apply, and everything that decides so is final (answered, or never asked)."""
        if not all(self._settled(n) for n in q.names()):
            return False
        if q.when is not None and not q.when.evaluate(self.lookup):
            return True
        return self.is_advanced(q) and self.advanced is False

    def _settled(self, path: str) -> bool:
        """Whether ``path``'s value is final: answered, not asked at all, or asked by nothing that applies."""
        q = self.owner.get(path)
        return q is None or self.answered(q) or self._gone(q)

    def prune(self) -> list[Question]:
        """Drop the answers of questions that no longer apply (say, LoRA rank after task -> inference)."""
        dropped = []
        for q in self.qn.questions:
            if q.type != "advanced" and self.answered(q) and self._gone(q):
                for k in q.keys:
                    _drop(self.answers, k)
                self.declined.discard(q.key)
                dropped.append(q)
        return dropped

    def pending(self) -> Question | None:
        for q in self.qn.questions:
            if not self.answered(q) and self.applies(q):
                return q
        return None

    def asked(self) -> list[Question]:
        return [q for q in self.qn.questions if self.answered(q) and self.applies(q)]

    def advanced_defaults(self) -> list[Question]:
        """The advanced questions that a yes would put (their defaults apply on no)."""
        return [q for q in self.qn.questions if self.is_advanced(q) and not self.answered(q)
                and self.applies(q, advanced=True)]

    def default(self, q: Question) -> Any:
        """The value offered when ``q`` has no answer: its conditional default, its default, or
        the model's; money converted from USD at the dated rate."""
        value = _UNSET
        for cond, kind, what in q.defaults:
            if cond.evaluate(self.lookup):
                value = what if kind == "value" else self._compute(what)
                if value is not _UNSET:
                    break
        if value is _UNSET:
            value = q.default if q.default is not _UNSET else _model_default(q.key)
        if q.money and isinstance(value, int | float) and not isinstance(value, bool) and self.currency != "USD":
            value = round(value * self.rate, 2)
        return value

    def _compute(self, name: str) -> Any:
        if name == "chinchilla_tokens":  # 20 tokens per parameter (Hoffmann et al. 2022)
            params_b = self.lookup("workload.params_b")
            model = self.lookup("workload.model")
            if model in self.kb.models:
                params_b = self.kb.models[model].params_b
            if params_b is None:
                return _UNSET
            return float(f"{20 * params_b * 1e9:.3g}")
        raise AssertionError(name)

    def current(self, q: Question) -> Any:
        """The value to offer: the current answer, else the default."""
        if q.type == "advanced":
            return self.advanced if self.advanced is not None else bool(q.default)
        if q.type == "section":
            if self.answered(q):
                return q.key in self.answers
            return bool(q.default) if q.default is not _UNSET else False
        if q.alt_key and _has(self.answers, q.alt_key) and not _has(self.answers, q.key):
            return _get(self.answers, q.alt_key)
        if _has(self.answers, q.key):
            return _get(self.answers, q.key)
        return self.default(q)

    def state(self) -> str:
        """The questionnaire's own answers, for the file's ``# gpuwise-ask:`` line."""
        parts = []
        if self.advanced is not None:
            parts.append(f"advanced={'yes' if self.advanced else 'no'}")
        parts += [f"{s}=no" for s in sorted(self.declined)]
        return ", ".join(parts)

    def save(self) -> None:
        save_answers(self.path, self.answers, self.qn, lang=self.lang, currency=self.currency,
                     state=self.state())

    def apply(self, q: Question, update: _Update) -> None:
        if q.type == "advanced":
            self.advanced = bool(update.value)
        elif q.type == "section":
            if update.value:
                self.answers.setdefault(q.key, {})
                self.declined.discard(q.key)
            else:
                self.answers.pop(q.key, None)
                self.declined.add(q.key)
        else:
            for k in update.drop:
                _drop(self.answers, k)
            _put(self.answers, update.key, update.value)
        self.set_currency()
        self.prune()
        self.save()

    # ---- validation
    def validate(self, q: Question, value: Any) -> _Update:
        """Convert (named converter) and validate one answer; raises _Invalid with the message to show."""
        if q.type in ("section", "advanced"):
            return _Update(q.key, bool(value))
        update = _Update(q.key, value)
        if q.parse == "model":
            update = self._convert_model(q, value)
        elif q.parse == "gpu_list":
            update = self._convert_gpus(q, value)
        if update.value is None and not q.optional:
            raise _Invalid("need_answer")
        message = self._check_section(q, update)
        if message:
            raise _Invalid(raw=message)
        return update

    def _convert_model(self, q: Question, value: Any) -> _Update:
        from ..errors import UserError

        alt = q.alt_key or q.key
        if isinstance(value, int | float) and not isinstance(value, bool):
            return _Update(alt, float(value), drop=(q.key,))
        text = str(value or "").strip()
        if not text:
            raise _Invalid("model_needed")
        if _SIZE.match(text):
            return _Update(alt, float(text.rstrip("bB").strip()), drop=(q.key,))
        try:
            resolved = self.kb.model(text)
        except UserError as exc:
            raise _Invalid(raw=exc.line()) from None
        notes = [resolved.note] if resolved.note else []
        return _Update(q.key, resolved.id, drop=(alt,) if alt != q.key else (), notes=notes)

    def _convert_gpus(self, q: Question, value: Any) -> _Update:
        from ..errors import UserError

        if value is None:
            items: list[str] = []
        elif isinstance(value, str):
            items = [] if value.strip().lower() in ("", "all", "any", "全部") else re.split(r"[,，、]", value)
        elif isinstance(value, list):
            items = [str(v) for v in value]
        else:
            raise _Invalid("gpu_list")
        ids: list[str] = []
        notes: list[str] = []
        for name in (i.strip() for i in items):
            if not name:
                continue
            try:
                resolved = self.kb.gpu(name)
            except UserError as exc:
                raise _Invalid(raw=exc.line()) from None
            if resolved.note:
                notes.append(resolved.note)
            if resolved.id not in ids:
                ids.append(resolved.id)
        return _Update(q.key, ids, notes=notes)

    def _check_section(self, q: Question, update: _Update) -> str | None:
        """Validate the section as it would be with ``update``; the first error about it, or None."""
        from pydantic import ValidationError

        section = q.section
        model = _section_models()[section]
        # the answers as they would be, answers that would stop applying dropped (task finetune ->
        # inference drops the method): validate what would be saved, not an impossible mixture
        trial = copy.deepcopy(self.answers)
        for k in update.drop:
            _drop(trial, k)
        _put(trial, update.key, update.value)
        kept, self.answers = self.answers, trial
        try:
            self.prune()
        finally:
            self.answers = kept
        data = dict(trial.get(section) or {})
        name = update.key.partition(".")[2]
        if section == "workload":  # placeholders for what is not asked yet; they never reach the file
            data.setdefault("task", "finetune")
            if data.get("model") is None and data.get("params_b") is None:
                data["params_b"] = 1.0
        try:
            model.model_validate(data)
        except ValidationError as exc:
            for err in exc.errors():
                loc = err.get("loc") or ()
                if not loc or loc[0] == name:
                    return self.explain(err, q)
        return None

    def explain(self, err: Any, q: Question) -> str:
        """A pydantic error as a sentence in the session's language: the question's own ``invalid``
        text for the checks a value can fail beyond its range, else from the error's type."""
        kind = err.get("type")
        ctx = err.get("ctx") or {}
        limits = {"greater_than": ("err_gt", "gt"), "greater_than_equal": ("err_ge", "ge"),
                  "less_than": ("err_lt", "lt"), "less_than_equal": ("err_le", "le"),
                  "string_too_long": ("err_too_long", "max_length")}
        if kind in ("value_error", "string_pattern_mismatch", "assertion_error") and q.invalid:
            msg = self.text(q, "invalid")
        elif kind in limits and limits[kind][1] in ctx:
            limit = ctx[limits[kind][1]]
            msg = self.t(limits[kind][0], limit=f"{limit:g}" if isinstance(limit, float) else limit)
        elif kind == "literal_error":
            return self.t("err_literal", input=_short(err.get("input")), expected=ctx.get("expected", ""))
        elif kind == "value_error":
            msg = str(err.get("msg", "")).removeprefix("Value error, ")
        elif kind and kind.endswith(("_type", "_parsing")):
            msg = self.t("err_type")
        else:
            msg = str(err.get("msg", ""))
        if err.get("loc") and "input" in err and kind not in ("model_type", "dict_type"):
            return self.t("got", message=msg, input=_short(err["input"]))
        return msg

    def message(self, exc: _Invalid) -> str:
        return exc.raw if exc.msg is None else self.t(exc.msg, **exc.params)

    # ---- resume
    def load(self, data: Any, text: str = "") -> list[str]:
        """Pre-fill from an answers file's parsed content (and its ``text``, for the state line);
        returns notes (answers to be asked again).

        Unknown sections or keys, and values of keys no question asks that do not validate,
        are a UserError (exit 2): resuming must not silently change what a file says.
        """
        from ..errors import UserError
        from ..inputs.schema import Requirements, explain_validation

        where = str(self.path)
        if data is not None and not isinstance(data, dict):
            raise UserError("expected a mapping with the sections workload, constraints, environment",
                            where=where)
        for section, body in (data or {}).items():
            if section not in SECTIONS:
                close = difflib.get_close_matches(str(section), SECTIONS, n=1)
                hint = f"did you mean '{close[0]}'?" if close else f"sections: {', '.join(SECTIONS)}"
                raise UserError("unknown section", where=f"{where}: {section}", hint=hint)
            if body is not None and not isinstance(body, dict):
                raise UserError(f"expected a mapping, got {type(body).__name__}", where=f"{where}: {section}")
            self.answers[section] = dict(body or {})
        self._load_currency(where)
        state = dict(p.strip().partition("=")[::2] for m in _STATE.finditer(text) for p in m.group(1).split(","))
        if state.get("advanced") in ("yes", "no"):
            self.advanced = state["advanced"] == "yes"
        if any(self.is_advanced(q) and self.answered(q) for q in self.qn.questions):
            self.advanced = True  # the file sets an advanced value: keep it, never drop it silently
        for section in SECTIONS:
            if state.get(section) == "no" and section not in self.answers and section in self.owner:
                self.declined.add(section)
        as_read = copy.deepcopy(self.answers)
        notes: list[str] = []
        for q in self.qn.questions:
            if q.type in ("section", "advanced") or not self.answered(q):
                continue
            key = q.key if _has(self.answers, q.key) else q.alt_key
            assert key is not None
            value = _get(self.answers, key)
            if q.money and isinstance(value, str):  # "¥1,500,000" or "150万" as written by hand: the number
                with contextlib.suppress(_Invalid):  # if not a number, validation below says what is wrong
                    value = parse_number(value, currency=self.currency)
            try:
                update = self.validate(q, value)
            except _Invalid as exc:
                for k in q.keys:
                    _drop(self.answers, k)
                notes.append(self.t("asking_again", key=key, error=self.message(exc)))
                continue
            if q.parse == "model" and _has(self.answers, q.key) and _has(self.answers, q.alt_key or q.key):
                update.drop = ()  # a hand-written file may give both; keep both
            for k in update.drop:
                _drop(self.answers, k)
            _put(self.answers, update.key, update.value)
            notes.extend(update.notes)
        for q in self.prune():
            notes.append(self.t("dropped", key=q.key))
        check = copy.deepcopy(self.answers)  # unknown keys (never pruned) must fail here
        work = check.setdefault("workload", {})
        work.setdefault("task", "finetune")
        if work.get("model") is None and work.get("params_b") is None:
            work["params_b"] = 1.0
        from pydantic import ValidationError

        try:
            Requirements.model_validate(check)
        except ValidationError as exc:
            raise explain_validation(exc, Requirements, where) from None
        if self.answers != as_read:  # names normalised, answers dropped: the file says so at once
            self.save()
        return notes

    def _load_currency(self, where: str) -> None:
        """The file's currency, reconciled with ``--currency``: a file with amounts in one currency
        is not resumed in another (its numbers would change meaning)."""
        from ..errors import UserError

        constraints = self.answers.get("constraints") or {}
        given = constraints.get("currency")
        if given is not None and given not in CURRENCIES:
            raise UserError(f"{_short(given)} is not one of {', '.join(map(repr, CURRENCIES))}",
                            where=f"{where}: constraints.currency")
        money = [constraints.get(q.key.partition(".")[2]) for q in self.qn.questions
                 if q.money and q.section == "constraints"]
        marked = {_currency_mark(v)[1] for v in money if isinstance(v, str)} - {None}
        in_file = given or (marked.pop() if len(marked) == 1 else "USD")  # "¥1500000" says CNY
        amounts = any(v is not None for v in money)
        if self.requested_currency is None:
            self.currency = in_file
        elif self.requested_currency != in_file and amounts:
            raise UserError(self.t("currency_conflict", file=in_file), where=f"{where}: constraints.currency")
        if "constraints" in self.answers or given is not None:
            self.set_currency()


# ------------------------------------------------------------------------------ prompting
def _fold(text: str) -> str:
    """Lower case without separators: ``Qwen2.5 7B`` and ``qwen2.5-7b`` both read ``qwen257b``."""
    return re.sub(r"[\W_]+", "", text.lower())


def _model_completer(entries: list[tuple[str, str, str, tuple[str, ...]]],
                     meta: Callable[[str, str, str | None], str] | None = None) -> Any:
    """A prompt_toolkit completer over the catalog: one line per model, its id (what is inserted),
    with its name and size beside it and, when the match was by an alias, that one alias.

    ``entries``: (id, name, size text, aliases); ``meta(name, size, alias)`` writes the text
    beside the id.  Matching ignores case and separators; matches at the start come before
    matches inside.  Plain strings only: no markup to leak (questionary's own completer wraps
    the meta text in HTML again each time a question is put, which showed ``HTML('<text>...')``).
    """
    if meta is None:
        def meta(name: str, size: str, alias: str | None) -> str:
            return f"{name}, {size}B" if alias is None else f"{name}, {size}B; {alias}"

    from prompt_toolkit.completion import Completer, Completion

    class ModelCompleter(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Any:
            typed = _fold(document.text_before_cursor)
            start, inside = [], []
            for mid, name, size, aliases in entries:
                hit: tuple[int, str | None] | None = None
                for n, alias in ((mid, None), (name, None), *((a, a) for a in aliases)):
                    folded = _fold(n)
                    if folded.startswith(typed):
                        hit = (0, alias)
                        break
                    if hit is None and typed in folded:
                        hit = (1, alias)
                if hit is None:
                    continue
                (start if hit[0] == 0 else inside).append(Completion(
                    mid, start_position=-len(document.text_before_cursor), display=mid,
                    display_meta=meta(name, size, hit[1])))
            yield from start
            yield from inside

    return ModelCompleter()


class _Prompter:
    """questionary prompts on the given prompt_toolkit input/output (a terminal when None)."""

    def __init__(self, input: Any = None, output: Any = None):
        import questionary

        self.questionary = questionary
        self.kw: dict[str, Any] = {}
        if input is not None:
            self.kw["input"] = input
        if output is not None:
            self.kw["output"] = output

    @staticmethod
    def _help_key(question: Any) -> Any:
        """Let ``?`` end a select/confirm prompt with the help sentinel."""
        from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings

        kb = KeyBindings()

        @kb.add("?")
        def _help(event: Any) -> None:
            event.app.exit(result=_HELP)

        app = question.application
        app.key_bindings = merge_key_bindings([app.key_bindings, kb])
        return question

    def select(self, message: str, titles: list[str], default: int, instruction: str) -> Any:
        from questionary import Choice as QChoice

        choices = [QChoice(title=t, value=i) for i, t in enumerate(titles)]
        question = self.questionary.select(message, choices=choices, default=default, instruction=instruction,
                                           **self.kw)
        return self._help_key(question).unsafe_ask()

    def confirm(self, message: str, default: bool, instruction: str) -> Any:
        question = self.questionary.confirm(message, default=default, instruction=instruction, **self.kw)
        return self._help_key(question).unsafe_ask()

    def text(self, message: str, instruction: str, completer: Any = None) -> str:
        if completer is not None:
            question = self.questionary.autocomplete(f"{message} {instruction}", choices=[], completer=completer,
                                                     **self.kw)
        else:
            question = self.questionary.text(message, instruction=instruction, **self.kw)
        return str(question.unsafe_ask() or "")


# --------------------------------------------------------------------------- presentation
def _show_value(s: _Session, q: Question | None, key: str, value: Any) -> str:
    """An answer as the summary shows it, in the session's language and currency."""
    if q is not None and q.type in ("section", "advanced"):
        return s.t("value_yes") if value else s.t("value_no")
    if q is not None and q.choices:
        i = _index(q.choices, value)
        if i is not None:
            return q.choices[i].title[s.lang]
    if value is None:
        return s.t("value_none")
    if isinstance(value, bool):
        return s.t("value_yes") if value else s.t("value_no")
    if key == "workload.params_b":
        return s.t("value_custom_model", size=f"{value:g}")
    if key == "workload.model" and value in s.kb.models:
        m = s.kb.models[value]
        return f"{value} ({s.t('model_meta', name=m.name, size=f'{m.params_b:.1f}')})"
    if isinstance(value, list):
        if key == "constraints.gpus" and not value:
            return s.t("value_all_gpus")
        return ", ".join(str(v) for v in value)
    if q is not None and q.money and isinstance(value, int | float):
        return f"{s.sym}{value:,.0f}" if value >= 100 else f"{s.sym}{value:g}"
    if isinstance(value, float):
        return _short_float(value)
    return str(value)


def _default_text(s: _Session, q: Question, value: Any) -> str:
    """The default as the Enter hint shows it: what the user would type."""
    if value is None:
        return s.t("value_none")
    if isinstance(value, list):
        return ", ".join(value) if value else s.t("value_all")
    if q.parse == "model" and isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:g}b"
    if q.key == "workload.train_tokens" and not _has(s.answers, q.key) and s.lookup("workload.task") == "pretrain" \
            and isinstance(value, float):
        return s.t("value_chinchilla", tokens=_short_float(value))
    if q.money and isinstance(value, int | float):
        return f"{s.sym}{value:g}"
    if isinstance(value, float):
        return _short_float(value)
    return str(value)


class _Asker:
    """Puts one question (with help on ``?``), re-asking until the answer validates."""

    def __init__(self, session: _Session, prompter: _Prompter, console: Any):
        self.s = session
        self.p = prompter
        self.console = console
        self._completer: Any = None

    def say(self, text: str, style: str = "") -> None:
        from rich.markup import escape

        self.console.print(f"[{style}]{escape(text)}[/]" if style else escape(text))

    def show_help(self, q: Question | None, typed: str = "") -> None:
        from rich.markup import escape

        glossary = self.s.qn.glossary
        lang = self.s.lang
        typed = typed.strip()
        terms = ", ".join(sorted(glossary))
        if typed:
            key = self.s.qn.term(typed)
            if key is None:
                self.say(self.s.t("no_entry", term=repr(typed), terms=terms), "yellow")
            else:
                self.console.print(f"[bold]{escape(key)}[/]: {escape(glossary[key].text[lang])}")
            return
        if q is not None:
            self.console.print(f"[bold cyan]{escape(self.s.text(q, 'label'))}[/]: {escape(self.s.text(q, 'help'))}")
            for t in q.terms:
                self.console.print(f"  [bold]{escape(t)}[/]: {escape(glossary[t].text[lang])}")
        self.say("  " + self.s.t("glossary_hint", terms=terms), "dim")

    def ask(self, q: Question) -> None:
        if q.type == "advanced":
            self._show_defaults()
        while True:
            current = self.s.current(q)
            value = self._prompt(q, current)
            if value is _AGAIN:
                continue
            try:
                update = self.s.validate(q, value)
            except _Invalid as exc:
                self.say(f"✗ {self.s.message(exc)}", "red")
                continue
            for note in update.notes:
                self.say(note, "dim")
            self.s.apply(q, update)
            return

    def _show_defaults(self) -> None:
        """Before the advanced-settings question: what a no keeps."""
        pending = self.s.advanced_defaults()
        if not pending:
            return
        self.say(self.s.t("advanced_defaults"), "dim")
        for q in pending:
            colon = "：" if self.s.lang == "zh" else ": "
            self.say(f"  {self.s.text(q, 'label')}{colon}{_show_value(self.s, q, q.key, self.s.current(q))}", "dim")

    def _prompt(self, q: Question, current: Any) -> Any:
        s = self.s
        message = s.text(q, "question")
        if q.type == "select":
            default = _index(q.choices, current)
            got = self.p.select(message, [c.title[s.lang] for c in q.choices], default or 0, s.t("hint_select"))
            if got == _HELP:
                self.show_help(q)
                return _AGAIN
            return q.choices[got].value
        if q.type in ("bool", "section", "advanced"):
            got = self.p.confirm(message, bool(current), s.t("hint_confirm_yes" if current else "hint_confirm_no"))
            if got == _HELP:
                self.show_help(q)
                return _AGAIN
            return bool(got)
        default = _default_text(s, q, current)
        completer = None
        instruction = s.t("hint_text", default=default)
        if q.type == "autocomplete" and q.source == "models":
            completer = self._model_completer()
            instruction = s.t("hint_complete", default=default)
        text = self.p.text(message, instruction, completer).strip()
        if text.startswith(("?", "？")):
            self.show_help(q, text[1:])
            return _AGAIN
        if not text:
            return current
        if q.optional and text.lower() in _NONE_WORDS:
            return None
        if q.type in ("int", "float"):
            try:
                if not q.money and _currency_mark(text)[1] is not None:
                    raise _Invalid("not_money", text=repr(text))
                return parse_number(text, integer=q.type == "int", currency=s.currency if q.money else None)
            except _Invalid as exc:
                self.say(f"✗ {s.message(exc)}", "red")
                return _AGAIN
        return text

    def _model_completer(self) -> Any:
        if self._completer is None:
            entries = [(m.id, m.name, f"{m.params_b:.1f}", tuple(m.aliases)) for m in self.s.kb.models.values()]

            def meta(name: str, size: str, alias: str | None) -> str:
                if alias is None:
                    return self.s.t("model_meta", name=name, size=size)
                return self.s.t("model_meta_alias", name=name, size=size, alias=alias)

            self._completer = _model_completer(entries, meta)
        return self._completer


def _answers_table(s: _Session) -> Any:
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=s.t("table_title"), title_justify="left")
    table.add_column("#", justify="right", style="dim")
    table.add_column(s.t("col_question"))
    table.add_column(s.t("col_answer"), style="bold")
    table.add_column(s.t("col_key"), style="dim", overflow="fold")
    for i, q in enumerate(s.asked(), 1):
        key, value = _answer_of(s, q)
        table.add_row(str(i), escape(s.text(q, "label")), escape(_show_value(s, q, key, value)),
                      "" if q.type == "advanced" else key)
    for section, body in _ordered(s.answers).items():
        for name, value in body.items():
            key = f"{section}.{name}"
            if key not in s.owner:
                label = s.t("currency_label") if key == "constraints.currency" else s.t("from_file")
                table.add_row("", escape(label), escape(_show_value(s, None, key, value)), key)
    return table


def _answer_of(s: _Session, q: Question) -> tuple[str, Any]:
    """The key ``q``'s answer is under (``key`` or ``alt_key``), and the answer."""
    if q.type == "advanced":
        return q.key, s.advanced
    if q.type == "section":
        return q.key, q.key in s.answers
    key = q.key if _has(s.answers, q.key) else (q.alt_key or q.key)
    return key, _get(s.answers, key)


def _duration(s: _Session, days: float | None) -> str:
    if days is None or not math.isfinite(days):
        return "—"
    return s.t("days", n=f"{days:,.1f}") if days >= 1 else s.t("hours", n=f"{days * 24:,.1f}")


def _show_result(console: Any, s: _Session, result: Any) -> None:
    """The answer in the terminal, in the session's language and currency; the report has the rest.
    The engine's sentences (the answer, why an option is out, the warnings) are translated through
    the report's catalog, so a Chinese session shows them in Chinese."""
    from rich.markup import escape
    from rich.table import Table

    from ..render.fmt import Currency, Fmt, _strip_subject
    from ..render.view import View

    info = getattr(result, "currency", None)
    rate_info = (Currency("CNY", s.rate, getattr(info, "as_of", ""), getattr(info, "source", ""))
                 if s.currency == "CNY" else Currency())
    f = Fmt(s.lang, rate_info)
    view = View(result, "recommend", f)
    rec = result.recommendation
    if rec is None:
        console.print(f"[bold red]{escape(s.t('no_feasible'))}[/]")
    else:
        acq = {"rent": s.t("acq_rent"), "buy": s.t("acq_buy")}
        t = Table(title=s.t("recommendation"), title_justify="left")
        row = {"col_gpu": rec.gpu_name or rec.gpu, "col_count": str(rec.count), "col_nodes": str(rec.nodes),
               "col_acquire": acq.get(rec.acquisition or "", rec.acquisition or "—"),
               "col_duration": _duration(s, rec.wall_days), "col_cost": f.money(rec.total_cost_usd)}
        if rec.wall_days is None:  # serving: no duration
            del row["col_duration"]
        for col in row:
            t.add_column(s.t(col))
        t.add_row(*(escape(v) for v in row.values()))
        console.print(t)
        summary = (f.sentence(rec.summary_sentence.template, rec.summary_sentence.values, rec.summary)
                   if rec.summary_sentence else rec.summary)
        if summary:
            console.print(escape(summary))
    cands = sorted(result.candidates, key=lambda c: (not c.feasible, 1 << 30 if c.rank is None else c.rank))
    if cands:
        serving = all(c.wall_days is None for c in cands)  # inference: speed, not duration
        t = Table(title=s.t("candidates"), title_justify="left")
        shown = cands[:10]
        why_any = any(not c.feasible for c in shown)  # no empty "why" column when every option shown is feasible
        cols = ["col_rank", "col_gpu", "col_count", "col_feasible", "col_speed" if serving else "col_duration",
                "col_cost"] + (["col_why"] if why_any else [])
        for col in cols:
            t.add_column(s.t(col), overflow="fold")
        for c in shown:
            speed = c.decode_tokens_per_s_total or c.decode_tokens_per_s
            cells = ["—" if c.rank is None else str(c.rank), escape(c.gpu_name or c.gpu), str(c.count),
                     s.t("value_yes") if c.feasible else f"[red]{escape(s.t('value_no'))}[/]",
                     ("—" if speed is None else f"{speed:,.0f}") if serving else
                     _duration(s, c.wall_days if c.feasible else None),  # an infeasible run has no duration
                     f.money(c.total_cost_usd)]
            if why_any:
                why = [_strip_subject(x, c) for x in view.reasons(c)]
                cells.append(escape(why[0]) if why and not c.feasible else "")
            t.add_row(*cells)
        if len(cands) > 10:
            t.caption = s.t("more_in_report", n=len(cands) - 10)
        console.print(t)
    # each warning once, its sentence for the answer's GPU and the other GPUs named (as in the report)
    issues = view.issues(list(result.findings), rec.gpu if rec is not None else "")
    important = [e for g in issues["groups"] for e in g["entries"]]
    if important:
        t = Table(title=s.t("findings"), title_justify="left")
        for col in ("col_severity", "col_rule", "col_finding"):
            t.add_column(s.t(col), overflow="fold")
        for e in important[:12]:
            colour = "red" if e["severity"] == "blocker" else "yellow"
            text = f"{e['message']}\n{e['also']}" if e["also"] else e["message"]
            t.add_row(f"[{colour}]{escape(s.t('sev_' + e['severity']))}[/]", escape(e["rule"]), escape(text))
        if len(important) > 12:
            t.caption = s.t("more_in_report", n=len(important) - 12)
        console.print(t)


# ------------------------------------------------------------------------------------ run
_MENU = ("menu_run", "menu_edit", "menu_quit")


def run_ask(answers_path: str | None, report_path: str | None, *, knowledge: str | None = None,
            lang: str = "en", currency: str | None = None, input: Any = None, output: Any = None) -> int:
    """``gpuwise ask``: the guided questionnaire; returns the exit status.

    ``answers_path`` (default ``./gpuwise-answers.yaml``) is pre-filled from when it exists
    and saved after every answer; ``report_path`` defaults to ``<answers stem>-report.md``
    beside it.  ``lang`` (en, zh) is the language of the questions, the summary and the
    report; ``currency`` (USD, CNY; default: the answers file's, else USD) is the currency
    amounts are asked and saved in, and the report's.  ``input``/``output`` are prompt_toolkit
    objects (tests pass a pipe input and a ``DummyOutput``); without them the terminal is
    used, and stdin must be one.

    Exit status: 0 done; 1 nothing feasible (as ``recommend``); 2 bad input, or no terminal;
    130 interrupted (Ctrl-C or end of input), with the answers so far saved.
    """
    from ..errors import UserError

    qn = load_questions()
    if lang not in qn.languages:
        print(f"gpuwise ask: unknown language {lang!r} (use {' or '.join(qn.languages)})", file=sys.stderr)
        return EXIT_USAGE
    if currency is not None and currency not in CURRENCIES:
        print(f"gpuwise ask: unknown currency {currency!r} (use {' or '.join(CURRENCIES)})", file=sys.stderr)
        return EXIT_USAGE
    path = Path(answers_path or DEFAULT_ANSWERS)
    if input is None and not sys.stdin.isatty():
        print(qn.say("no_terminal", lang), file=sys.stderr)
        return EXIT_USAGE
    report = Path(report_path) if report_path else path.with_name(f"{path.stem}-report.md")

    from rich.console import Console

    console = Console(highlight=False)
    try:
        session, notes = _start(qn, path, knowledge, lang, currency)
        return _interact(session, notes, report, knowledge, _Prompter(input, output), console)
    except (KeyboardInterrupt, EOFError):
        console.print()
        if path.exists():
            print(qn.say("interrupted", lang, path=path), file=sys.stderr)
        else:
            print(qn.say("interrupted_empty", lang), file=sys.stderr)
        return EXIT_INTERRUPTED
    except UserError as exc:
        print(f"gpuwise ask: {exc.line()}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(qn.say("cannot_save", lang, path=path, error=exc.strerror or exc), file=sys.stderr)
        return EXIT_USAGE


def _start(qn: Questionnaire, path: Path, knowledge: str | None, lang: str,
           currency: str | None) -> tuple[_Session, list[str]]:
    from ..errors import UserError
    from ..knowledge import load
    from ..yamlio import read_yaml

    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise UserError("is a directory; give a file name for the answers", where=str(path))
    if not parent.is_dir():
        raise UserError("the directory does not exist", where=str(path))
    if not os.access(parent, os.W_OK):
        raise UserError("cannot write the answers there (no permission)", where=str(path))
    session = _Session(qn, load(knowledge), path, lang=lang, currency=currency)
    notes: list[str] = []
    if path.exists():
        data = read_yaml(path, what="answers file")
        notes = session.load(data, path.read_text(encoding="utf-8", errors="replace"))
        notes.insert(0, session.t("resuming", path=path, n=len(session.asked())))
    session.set_currency()
    return session, notes


def _interact(s: _Session, notes: list[str], report: Path, knowledge: str | None,
              prompter: _Prompter, console: Any) -> int:
    asker = _Asker(s, prompter, console)
    asker.say(s.t("intro", path=s.path))
    if s.currency != "USD":
        asker.say(s.t("amounts_in", cur=s.currency, sym=s.sym), "dim")
    for note in notes:
        asker.say(note, "dim")
    while True:
        while (q := s.pending()) is not None:
            asker.ask(q)
        s.save()
        console.print(_answers_table(s))
        choice = prompter.select(s.t("ready"), [s.t(m) for m in _MENU], 0, s.t("hint_menu"))
        if choice == _HELP:
            asker.say(s.t("menu_help"))
            continue
        if choice == 1:
            _edit(s, prompter, asker)
            continue
        if choice == 2:
            asker.say(s.t("saved_quit", path=s.path))
            return 0
        return _finish(s, report, knowledge, console, asker)


def _edit(s: _Session, prompter: _Prompter, asker: _Asker) -> None:
    asked = s.asked()
    titles = []
    for q in asked:
        key, value = _answer_of(s, q)
        titles.append(f"{s.text(q, 'label')}: {_show_value(s, q, key, value)}")
    titles.append(s.t("back"))
    got = prompter.select(s.t("which_answer"), titles, 0, s.t("hint_menu"))
    if got == _HELP or got == len(asked):
        return
    asker.ask(asked[got])


def _finish(s: _Session, report: Path, knowledge: str | None, console: Any, asker: _Asker) -> int:
    from .. import recommend
    from ..errors import UserError
    from ..render.report import write_report

    asker.say(s.t("saved_replay", path=s.path))
    asker.say(s.t("working"))  # no spinner: no second thread near durable-rules
    # the saved file itself, as `gpuwise recommend FILE` reads it: the run is reproducible exactly
    result = recommend(str(s.path), knowledge=knowledge)
    _show_result(console, s, result)
    try:
        write_report(result, str(report), fmt=None, lang=s.lang, currency=s.currency, knowledge=knowledge)
    except OSError as exc:
        raise UserError(f"cannot write the report: {exc.strerror or exc}", where=str(report)) from None
    asker.say(s.t("report_written", path=report))
    return 0 if result.recommendation is not None else 1
