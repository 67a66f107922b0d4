"""The guided questionnaire behind ``gpuwise ask``.

The questions are data (``questions.yaml`` beside this module: key, type, help, choices,
default, and a ``when`` condition on earlier answers); this module only interprets them.
It asks the questions that apply, validates every answer with the same pydantic models
that read requirements files (:mod:`engine.inputs`), so a value ``ask`` accepts is one
``recommend`` accepts, and saves the answers after each one (write a temporary file, then
``os.replace``), so Ctrl-C loses nothing and ``--answers FILE`` resumes where it stopped.
A summary lets the user confirm or change any answer; then the recommendation runs and
the report is written.

Public entry: :func:`run_ask`.  Heavy imports (questionary, prompt_toolkit, rich,
pydantic) happen inside functions, so importing this module costs next to nothing.
"""

from __future__ import annotations

import ast
import copy
import difflib
import math
import operator
import os
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

QUESTIONS_FILE = Path(__file__).with_name("questions.yaml")
SCHEMA_VERSION = 1
SECTIONS = ("workload", "constraints", "environment")
DEFAULT_ANSWERS = "gpuwise-answers.yaml"
EXIT_INTERRUPTED = 130
EXIT_USAGE = 2

TYPES = ("select", "text", "int", "float", "bool", "autocomplete", "section")
_QUESTION_FIELDS = {"key", "alt_key", "type", "label", "question", "help", "terms", "choices", "default",
                    "optional", "when", "parse", "source"}
_NONE_WORDS = ("none", "null", "-")
_HELP = "?"  # what a select/confirm prompt returns when the user presses ?


class QuestionsError(ValueError):
    """``questions.yaml`` does not match its schema: a bug in gpuwise (or a bad edit), not bad input."""


class _Invalid(Exception):
    """An answer that failed parsing or validation; the message is shown and the question re-asked."""


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


# ------------------------------------------------------------------------------ questions
@dataclass(frozen=True)
class Choice:
    value: Any
    title: str


@dataclass(frozen=True)
class Question:
    """One question, as declared in ``questions.yaml``."""

    key: str
    type: str
    label: str
    question: str
    help: str
    terms: tuple[str, ...] = ()
    choices: tuple[Choice, ...] = ()
    default: Any = _UNSET
    optional: bool = False
    when: Condition | None = None
    parse: str | None = None
    alt_key: str | None = None
    source: str | None = None

    @property
    def section(self) -> str:
        return self.key.split(".", 1)[0]

    @property
    def field(self) -> str | None:
        return self.key.split(".", 1)[1] if "." in self.key else None

    @property
    def keys(self) -> tuple[str, ...]:
        return (self.key, self.alt_key) if self.alt_key else (self.key,)


@dataclass(frozen=True)
class Questionnaire:
    questions: tuple[Question, ...]
    glossary: dict[str, str]

    def by_key(self, key: str) -> Question:
        for q in self.questions:
            if key in q.keys:
                return q
        raise KeyError(key)


_CONVERTERS = ("model", "gpu_list")
_SOURCES = ("models",)


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
    unknown = set(data) - {"schema_version", "glossary", "questions"}
    if unknown:
        raise QuestionsError(f"{p}: unknown top-level key {sorted(unknown)[0]!r}")
    glossary = {str(k).lower(): " ".join(str(v).split()) for k, v in (data.get("glossary") or {}).items()}
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
        q = _build_question(raw, where, fields, glossary)
        if q.when is not None:
            unknown = sorted(n for n in q.when.names if n not in owned and n not in _all_paths(fields))
            if unknown:
                raise QuestionsError(f"{where}: condition names unknown key {unknown[0]!r}")
            ahead = sorted(n for n in q.when.names if n not in owned and _owned_by_later(n, data, i))
            if ahead:
                raise QuestionsError(f"{where}: condition uses {ahead[0]!r}, which is asked later")
        dup = set(q.keys) & owned
        if dup:
            raise QuestionsError(f"{where}: key {sorted(dup)[0]!r} is asked twice")
        owned.update(q.keys)
        questions.append(q)
    if not questions or questions[0].key != "workload.task":
        raise QuestionsError(f"{p}: the first question must be workload.task")
    return Questionnaire(tuple(questions), glossary)


def _owned_by_later(name: str, data: dict, index: int) -> bool:
    for raw in data["questions"][index:]:
        if isinstance(raw, dict) and name in (raw.get("key"), raw.get("alt_key")):
            return True
    return False


def _all_paths(fields: dict[str, list[str]]) -> set[str]:
    return set(fields) | {f"{s}.{f}" for s, fs in fields.items() for f in fs}


def _build_question(raw: dict, where: str, fields: dict[str, list[str]],
                    glossary: dict[str, str]) -> Question:
    key = str(raw["key"])
    qtype = str(raw["type"])
    if qtype not in TYPES:
        raise QuestionsError(f"{where}: type {qtype!r} is not one of {', '.join(TYPES)}")
    for k in (key, raw.get("alt_key")):
        if k is None:
            continue
        section, _, name = str(k).partition(".")
        if section not in fields or (name and name not in fields[section]):
            raise QuestionsError(f"{where}: {k!r} is not a requirements-file key")
        if (qtype == "section") != (not name):
            raise QuestionsError(f"{where}: type 'section' is for a bare section key, and only for one")
    choices = tuple(Choice(c["value"], str(c.get("title", c["value"]))) for c in raw.get("choices") or [])
    if qtype == "select" and not choices:
        raise QuestionsError(f"{where}: a select needs choices")
    default = raw.get("default", _UNSET)
    if choices and default is not _UNSET and _index(choices, default) is None:
        raise QuestionsError(f"{where}: default {default!r} is not one of the choices")
    terms = tuple(str(t).lower() for t in raw.get("terms") or [])
    for t in terms:
        if t not in glossary:
            raise QuestionsError(f"{where}: term {t!r} is not in the glossary")
    if raw.get("parse") is not None and raw["parse"] not in _CONVERTERS:
        raise QuestionsError(f"{where}: parse {raw['parse']!r} is not one of {', '.join(_CONVERTERS)}")
    if raw.get("source") is not None and raw["source"] not in _SOURCES:
        raise QuestionsError(f"{where}: source {raw['source']!r} is not one of {', '.join(_SOURCES)}")
    return Question(
        key=key,
        type=qtype,
        label=str(raw["label"]),
        question=" ".join(str(raw["question"]).split()),
        help=" ".join(str(raw["help"]).split()),
        terms=terms,
        choices=choices,
        default=default,
        optional=bool(raw.get("optional", False)),
        when=Condition(str(raw["when"])) if raw.get("when") is not None else None,
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


def _yaml_scalar(value: Any) -> str:
    import yaml

    if isinstance(value, float) and math.isfinite(value) and value.is_integer() and abs(value) >= 1e6:
        mantissa, exp = f"{value:e}".split("e")
        mantissa = mantissa.rstrip("0")
        return f"{mantissa}0e{exp}" if mantissa.endswith(".") else f"{mantissa}e{exp}"
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10_000)
    return text.removesuffix("\n").removesuffix("\n...").strip()


def render_answers(answers: dict, questionnaire: Questionnaire | None = None) -> str:
    """The requirements file's text: the contract's sections and keys, each labelled."""
    import yaml

    labels: dict[str, str] = {}
    if questionnaire is not None:
        for q in questionnaire.questions:
            for k in q.keys:
                labels[k] = q.label
    data = _ordered(answers)
    lines = [
        "# gpuwise requirements, written by `gpuwise ask`.",
        "# Run it with `gpuwise recommend FILE`; change answers with `gpuwise ask --answers FILE`.",
    ]
    for section, body in data.items():
        if not body:
            lines.append(f"{section}: {{}}")
            continue
        lines.append(f"{section}:")
        for name, value in body.items():
            line = f"  {name}: {_yaml_scalar(value)}"
            label = labels.get(f"{section}.{name}")
            lines.append(f"{line}  # {label}" if label else line)
    text = "\n".join(lines) + "\n"
    if yaml.safe_load(text) != (data or None):  # belt and braces: never save what reads back differently
        text = "\n".join(lines[:2]) + "\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    return text


def save_answers(path: str | Path, answers: dict, questionnaire: Questionnaire | None = None) -> None:
    """Write the answers atomically: a temporary file beside ``path``, then ``os.replace``."""
    from ..render.output import atomic_write_text

    atomic_write_text(path, render_answers(answers, questionnaire))


# -------------------------------------------------------------------------------- parsing
_SUFFIX = {"k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12}
_NUMBER = re.compile(r"^([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*([kmbgt])?$", re.IGNORECASE)
_SIZE = re.compile(r"^(\d+(?:\.\d+)?|\.\d+)\s*b?$", re.IGNORECASE)


def parse_number(text: str, *, integer: bool = False) -> int | float:
    """``'2e9'``, ``'2B'``, ``'50k'``, ``'$1,500'``, ``'1_000'`` -> a number."""
    s = text.strip().lstrip("$").replace(",", "").replace("_", "").replace(" ", "")
    m = _NUMBER.match(s)
    if not m:
        kind = "a whole number" if integer else "a number"
        raise _Invalid(f"{text.strip()!r} is not {kind} (examples: 4096, 2e9, 2B, 50k)")
    value = float(m.group(1)) * _SUFFIX.get((m.group(2) or "").lower(), 1)
    if not math.isfinite(value):
        raise _Invalid("the number must be finite")
    if integer:
        if not value.is_integer():
            raise _Invalid(f"{text.strip()!r} is not a whole number")
        return int(value)
    return value


# -------------------------------------------------------------------------------- session
@dataclass
class _Update:
    key: str
    value: Any
    drop: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)


class _Session:
    """The answers so far, which questions apply, validation, and saving."""

    def __init__(self, questionnaire: Questionnaire, kb: Any, path: Path):
        self.qn = questionnaire
        self.kb = kb
        self.path = path
        self.answers: dict[str, dict[str, Any]] = {}
        self.declined: set[str] = set()  # optional sections answered "no" in this session (not saved)
        self.owner = {k: q for q in questionnaire.questions for k in q.keys}

    # ---- state
    def lookup(self, path: str) -> Any:
        if "." not in path:
            return self.answers.get(path)
        if _has(self.answers, path):
            return _get(self.answers, path)
        return _model_default(path)

    def answered(self, q: Question) -> bool:
        return any(_has(self.answers, k) for k in q.keys) or q.key in self.declined

    def applies(self, q: Question) -> bool:
        return q.when is None or q.when.evaluate(self.lookup)

    def _settled(self, path: str) -> bool:
        """Whether ``path``'s value is final: answered, not asked at all, or asked by nothing that applies."""
        q = self.owner.get(path)
        if q is None or self.answered(q):
            return True
        return q.when is not None and all(self._settled(n) for n in q.when.names) and not self.applies(q)

    def prune(self) -> list[Question]:
        """Drop the answers of questions that no longer apply (say, LoRA rank after task -> inference)."""
        dropped = []
        for q in self.qn.questions:
            if self.answered(q) and q.when is not None and all(self._settled(n) for n in q.when.names) \
                    and not self.applies(q):
                for k in q.keys:
                    _drop(self.answers, k)
                dropped.append(q)
        return dropped

    def pending(self) -> Question | None:
        for q in self.qn.questions:
            if not self.answered(q) and self.applies(q):
                return q
        return None

    def asked(self) -> list[Question]:
        return [q for q in self.qn.questions if self.answered(q) and self.applies(q)]

    def current(self, q: Question) -> Any:
        """The value to offer: the current answer, else the question's default, else the model's."""
        if q.type == "section":
            if self.answered(q):
                return q.key in self.answers
            return bool(q.default) if q.default is not _UNSET else False
        if q.alt_key and _has(self.answers, q.alt_key) and not _has(self.answers, q.key):
            return _get(self.answers, q.alt_key)
        if _has(self.answers, q.key):
            return _get(self.answers, q.key)
        return q.default if q.default is not _UNSET else _model_default(q.key)

    def save(self) -> None:
        save_answers(self.path, self.answers, self.qn)

    def apply(self, q: Question, update: _Update) -> None:
        if q.type == "section":
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
        self.prune()
        self.save()

    # ---- validation
    def validate(self, q: Question, value: Any) -> _Update:
        """Convert (named converter) and validate one answer; raises _Invalid with the message to show."""
        if q.type == "section":
            return _Update(q.key, bool(value))
        update = _Update(q.key, value)
        if q.parse == "model":
            update = self._convert_model(q, value)
        elif q.parse == "gpu_list":
            update = self._convert_gpus(q, value)
        if update.value is None and not q.optional:
            raise _Invalid("an answer is needed here")
        message = self._check_section(q.section, update)
        if message:
            raise _Invalid(message)
        return update

    def _convert_model(self, q: Question, value: Any) -> _Update:
        from ..errors import UserError

        alt = q.alt_key or q.key
        if isinstance(value, int | float) and not isinstance(value, bool):
            return _Update(alt, float(value), drop=(q.key,))
        text = str(value or "").strip()
        if not text:
            raise _Invalid("give a catalog model name, or a size in billions such as 13b")
        if _SIZE.match(text):
            return _Update(alt, float(text.rstrip("bB").strip()), drop=(q.key,))
        try:
            resolved = self.kb.model(text)
        except UserError as exc:
            raise _Invalid(exc.line()) from None
        notes = [resolved.note] if resolved.note else []
        return _Update(q.key, resolved.id, drop=(alt,) if alt != q.key else (), notes=notes)

    def _convert_gpus(self, q: Question, value: Any) -> _Update:
        from ..errors import UserError

        if value is None:
            items: list[str] = []
        elif isinstance(value, str):
            items = [] if value.strip().lower() in ("", "all", "any") else value.split(",")
        elif isinstance(value, list):
            items = [str(v) for v in value]
        else:
            raise _Invalid("expected GPU names separated by commas")
        ids: list[str] = []
        notes: list[str] = []
        for name in (i.strip() for i in items):
            if not name:
                continue
            try:
                resolved = self.kb.gpu(name)
            except UserError as exc:
                raise _Invalid(exc.line()) from None
            if resolved.note:
                notes.append(resolved.note)
            if resolved.id not in ids:
                ids.append(resolved.id)
        return _Update(q.key, ids, notes=notes)

    def _check_section(self, section: str, update: _Update) -> str | None:
        """Validate the section as it would be with ``update``; the first error about it, or None."""
        from pydantic import ValidationError

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
                    return _pydantic_message(err)
        return None

    # ---- resume
    def load(self, data: Any) -> list[str]:
        """Pre-fill from an answers file's parsed content; returns notes (answers to be asked again).

        Unknown sections or keys, and values of keys no question asks that do not validate,
        are a UserError (exit 2): resuming must not silently change what a file says.
        """
        from ..errors import UserError
        from ..inputs.schema import Requirements, explain_validation

        where = str(self.path)
        if data is None:
            return []
        if not isinstance(data, dict):
            raise UserError("expected a mapping with the sections workload, constraints, environment",
                            where=where)
        for section, body in data.items():
            if section not in SECTIONS:
                close = difflib.get_close_matches(str(section), SECTIONS, n=1)
                hint = f"did you mean '{close[0]}'?" if close else f"sections: {', '.join(SECTIONS)}"
                raise UserError("unknown section", where=f"{where}: {section}", hint=hint)
            if body is not None and not isinstance(body, dict):
                raise UserError(f"expected a mapping, got {type(body).__name__}", where=f"{where}: {section}")
            self.answers[section] = dict(body or {})
        as_read = copy.deepcopy(self.answers)
        notes: list[str] = []
        for q in self.qn.questions:
            if q.type == "section" or not self.answered(q):
                continue
            key = q.key if _has(self.answers, q.key) else q.alt_key
            assert key is not None
            value = _get(self.answers, key)
            try:
                update = self.validate(q, value)
            except _Invalid as exc:
                for k in q.keys:
                    _drop(self.answers, k)
                notes.append(f"{key}: {exc} - asking again")
                continue
            if q.parse == "model" and _has(self.answers, q.key) and _has(self.answers, q.alt_key or q.key):
                update.drop = ()  # a hand-written file may give both; keep both
            for k in update.drop:
                _drop(self.answers, k)
            _put(self.answers, update.key, update.value)
            notes.extend(update.notes)
        for q in self.prune():
            notes.append(f"{q.key}: dropped, as the question does not apply with these answers")
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


def _pydantic_message(err: dict) -> str:
    msg = str(err.get("msg", "invalid value")).removeprefix("Value error, ")
    if err.get("type") == "literal_error":
        expected = err.get("ctx", {}).get("expected", "")
        return f"{err.get('input')!r} is not one of {expected}"
    if err.get("loc") and "input" in err and err.get("type") not in ("model_type", "dict_type"):
        return f"{msg} (got {err['input']!r})"
    return msg


# ------------------------------------------------------------------------------ prompting
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

    def confirm(self, message: str, default: bool) -> Any:
        instruction = "(Y/n, ? explains) " if default else "(y/N, ? explains) "
        question = self.questionary.confirm(message, default=default, instruction=instruction, **self.kw)
        return self._help_key(question).unsafe_ask()

    def text(self, message: str, instruction: str, completions: list[str] | None = None,
             meta: dict[str, str] | None = None) -> str:
        if completions is not None:
            question = self.questionary.autocomplete(f"{message} {instruction}", choices=completions,
                                                     meta_information=meta, match_middle=False, **self.kw)
        else:
            question = self.questionary.text(message, instruction=instruction, **self.kw)
        return str(question.unsafe_ask() or "")


# --------------------------------------------------------------------------- presentation
def _show_value(q: Question | None, key: str, value: Any, kb: Any = None) -> str:
    if q is not None and q.type == "section":
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key == "workload.params_b":
        return f"custom model, {value:g}B parameters"
    if key == "workload.model" and kb is not None and value in kb.models:
        m = kb.models[value]
        return f"{value} ({m.name}, {m.params_b:.1f}B)"
    if isinstance(value, list):
        if key == "constraints.gpus" and not value:
            return "all GPUs in the catalog"
        return ", ".join(str(v) for v in value)
    if isinstance(value, float):
        return _short_float(value)
    return str(value)


def _short_float(value: float) -> str:
    """``2e9`` as ``2e9``, ``0.15`` as ``0.15``, ``6.0`` as ``6``: as a user would type it."""
    if value.is_integer() and abs(value) >= 1e6:
        return f"{value:.4g}".replace("e+0", "e").replace("e+", "e")
    return f"{value:g}"


def _default_text(q: Question, value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(value) if value else "all"
    if q.parse == "model" and isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:g}b"
    if isinstance(value, float):
        return _short_float(value)
    return str(value)


class _Asker:
    """Puts one question (with help on ``?``), re-asking until the answer validates."""

    def __init__(self, session: _Session, prompter: _Prompter, console: Any):
        self.s = session
        self.p = prompter
        self.console = console
        self._completions: tuple[list[str], dict[str, str]] | None = None

    def show_help(self, q: Question | None, term: str = "") -> None:
        glossary = self.s.qn.glossary
        term = term.strip().lower()
        if term:
            close = difflib.get_close_matches(term, list(glossary), n=1)
            key = term if term in glossary else (close[0] if close else None)
            if key is None:
                self.console.print(f"[yellow]No entry for {term!r}.[/] Terms: {', '.join(sorted(glossary))}")
            else:
                self.console.print(f"[bold]{key}[/]: {glossary[key]}")
            return
        if q is not None:
            self.console.print(f"[bold cyan]{q.label}[/]: {q.help}")
            for t in q.terms:
                self.console.print(f"  [bold]{t}[/]: {glossary[t]}")
        self.console.print(f"  [dim]Type ?TERM in a text answer to look up: {', '.join(sorted(glossary))}[/]")

    def ask(self, q: Question) -> None:
        while True:
            current = self.s.current(q)
            value = self._prompt(q, current)
            if value is _AGAIN:
                continue
            try:
                update = self.s.validate(q, value)
            except _Invalid as exc:
                self.console.print(f"[red]✗ {exc}[/]")
                continue
            for note in update.notes:
                self.console.print(f"[dim]{note}[/]")
            self.s.apply(q, update)
            return

    def _prompt(self, q: Question, current: Any) -> Any:
        if q.type == "select":
            default = _index(q.choices, current)
            got = self.p.select(q.question, [c.title for c in q.choices], default or 0,
                                "(↑↓ and Enter, ? explains)")
            if got == _HELP:
                self.show_help(q)
                return _AGAIN
            return q.choices[got].value
        if q.type in ("bool", "section"):
            got = self.p.confirm(q.question, bool(current))
            if got == _HELP:
                self.show_help(q)
                return _AGAIN
            return bool(got)
        instruction = f"(Enter = {_default_text(q, current)}, ? explains)"
        completions = meta = None
        if q.type == "autocomplete" and q.source == "models":
            completions, meta = self._model_completions()
            instruction = f"(Tab completes, Enter = {_default_text(q, current)}, ? explains)"
        text = self.p.text(q.question, instruction, completions, meta).strip()
        if text.startswith("?"):
            self.show_help(q, text[1:])
            return _AGAIN
        if not text:
            return current
        if q.optional and text.lower() in _NONE_WORDS:
            return None
        try:
            if q.type == "int":
                return parse_number(text, integer=True)
            if q.type == "float":
                return parse_number(text)
        except _Invalid as exc:
            self.console.print(f"[red]✗ {exc}[/]")
            return _AGAIN
        return text

    def _model_completions(self) -> tuple[list[str], dict[str, str]]:
        if self._completions is None:
            names: list[str] = []
            meta: dict[str, str] = {}
            for m in self.s.kb.models.values():
                for n in (m.id, *m.aliases):
                    if n not in meta:
                        names.append(n)
                        meta[n] = f"{m.name}, {m.params_b:.1f}B"
            self._completions = (names, meta)
        return self._completions


def _answers_table(session: _Session) -> Any:
    from rich.table import Table

    table = Table(title="Your answers", title_justify="left")
    table.add_column("#", justify="right", style="dim")
    table.add_column("question")
    table.add_column("answer", style="bold")
    table.add_column("file key", style="dim", overflow="fold")
    for i, q in enumerate(session.asked(), 1):
        key = q.key if q.type == "section" or _has(session.answers, q.key) else (q.alt_key or q.key)
        value = q.key in session.answers if q.type == "section" else _get(session.answers, key)
        table.add_row(str(i), q.label, _show_value(q, key, value, session.kb), key)
    for section, body in _ordered(session.answers).items():
        for name, value in body.items():
            key = f"{section}.{name}"
            if key not in session.owner:
                table.add_row("", "(from the file)", _show_value(None, key, value, session.kb), key)
    return table


def _fmt_money(v: float | None) -> str:
    return "—" if v is None else f"${v:,.0f}"


def _fmt_days(v: float | None) -> str:
    return "—" if v is None else (f"{v:.1f}" if v >= 0.1 else f"{v * 24:.1f} h")


def _show_result(console: Any, result: Any) -> None:
    from rich.table import Table

    rec = result.recommendation
    if rec is None:
        console.print("[bold red]No feasible option[/] for these requirements; the report says why.")
    else:
        t = Table(title="Recommendation", title_justify="left")
        row = {"GPU": rec.gpu_name or rec.gpu, "count": str(rec.count), "nodes": str(rec.nodes),
               "acquire": rec.acquisition, "wall days": _fmt_days(rec.wall_days),
               "total cost": _fmt_money(rec.total_cost_usd)}
        if rec.wall_days is None:  # serving: the summary line gives the speed
            del row["wall days"]
        for col in row:
            t.add_column(col)
        t.add_row(*row.values())
        console.print(t)
        if rec.summary:
            console.print(rec.summary)
    cands = sorted(result.candidates, key=lambda c: (not c.feasible, 1 << 30 if c.rank is None else c.rank))
    if cands:
        serving = all(c.wall_days is None for c in cands)  # inference: speed, not duration
        t = Table(title="Candidates considered", title_justify="left")
        speed_col = "tokens/s" if serving else "wall days"
        for col in ("rank", "GPU", "count", "fits", speed_col, "total cost", "why"):
            t.add_column(col)
        for c in cands[:10]:
            speed = c.decode_tokens_per_s_total or c.decode_tokens_per_s
            t.add_row("—" if c.rank is None else str(c.rank), c.gpu, str(c.count),
                      "yes" if c.feasible else "[red]no[/]",
                      ("—" if speed is None else f"{speed:,.0f}") if serving else _fmt_days(c.wall_days),
                      _fmt_money(c.total_cost_usd), c.reasons[0] if c.reasons else "")
        if len(cands) > 10:
            t.caption = f"and {len(cands) - 10} more in the report"
        console.print(t)
    important = [f for f in result.findings if f.severity in ("blocker", "warning")]
    if important:
        t = Table(title="Findings", title_justify="left")
        for col in ("severity", "topic", "finding"):
            t.add_column(col)
        for f in important[:12]:
            colour = "red" if f.severity == "blocker" else "yellow"
            t.add_row(f"[{colour}]{f.severity}[/]", f.topic, f.message)
        if len(important) > 12:
            t.caption = f"and {len(important) - 12} more in the report"
        console.print(t)


# ------------------------------------------------------------------------------------ run
_MENU = ("Run the recommendation", "Change an answer", "Save and quit (resume later with --answers)")


def run_ask(answers_path: str | None, report_path: str | None, *, knowledge: str | None = None,
            input: Any = None, output: Any = None) -> int:
    """``gpuwise ask``: the guided questionnaire; returns the exit status.

    ``answers_path`` (default ``./gpuwise-answers.yaml``) is pre-filled from when it exists
    and saved after every answer; ``report_path`` defaults to ``<answers stem>-report.md``
    beside it.  ``input``/``output`` are prompt_toolkit objects (tests pass a pipe input and
    a ``DummyOutput``); without them the terminal is used, and stdin must be one.

    Exit status: 0 done; 1 nothing feasible (as ``recommend``); 2 bad input, or no terminal;
    130 interrupted (Ctrl-C or end of input), with the answers so far saved.
    """
    from ..errors import UserError

    path = Path(answers_path or DEFAULT_ANSWERS)
    if input is None and not sys.stdin.isatty():
        print("gpuwise ask: needs an interactive terminal (stdin is not one); write a requirements file "
              "and run `gpuwise recommend FILE` instead", file=sys.stderr)
        return EXIT_USAGE
    report = Path(report_path) if report_path else path.with_name(f"{path.stem}-report.md")

    from rich.console import Console

    console = Console(highlight=False)
    try:
        session, notes = _start(path, knowledge)
        return _interact(session, notes, report, knowledge, _Prompter(input, output), console)
    except (KeyboardInterrupt, EOFError):
        console.print()
        if path.exists():
            print(f"Interrupted: the answers so far are saved in {path}; resume with "
                  f"`gpuwise ask --answers {path}`", file=sys.stderr)
        else:
            print("Interrupted before the first answer; nothing was saved", file=sys.stderr)
        return EXIT_INTERRUPTED
    except UserError as exc:
        print(f"gpuwise ask: {exc.line()}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"gpuwise ask: {path}: cannot save the answers: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE


def _start(path: Path, knowledge: str | None) -> tuple[_Session, list[str]]:
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
    session = _Session(load_questions(), load(knowledge), path)
    notes: list[str] = []
    if path.exists():
        notes = session.load(read_yaml(path, what="answers file"))
        notes.insert(0, f"Resuming from {path}: {len(session.asked())} answer(s) already given.")
    return session, notes


def _interact(session: _Session, notes: list[str], report: Path, knowledge: str | None,
              prompter: _Prompter, console: Any) -> int:
    asker = _Asker(session, prompter, console)
    console.print(f"[bold]gpuwise ask[/]: answers are saved to [cyan]{session.path}[/] as you go; "
                  f"[dim]type ? at any question for help, Ctrl-C to stop and resume later.[/]")
    for note in notes:
        console.print(f"[dim]{note}[/]")
    while True:
        while (q := session.pending()) is not None:
            asker.ask(q)
        session.save()
        console.print(_answers_table(session))
        choice = prompter.select("Ready?", list(_MENU), 0, "(↑↓ and Enter)")
        if choice == _HELP:
            console.print("Run the recommendation with these answers, change one of them, or save them "
                          "to finish later.")
            continue
        if choice == 1:
            _edit(session, prompter, asker)
            continue
        if choice == 2:
            console.print(f"Answers saved to [cyan]{session.path}[/]. Resume with `gpuwise ask --answers "
                          f"{session.path}`, or run `gpuwise recommend {session.path}`.")
            return 0
        return _finish(session, report, knowledge, console)


def _edit(session: _Session, prompter: _Prompter, asker: _Asker) -> None:
    asked = session.asked()
    titles = []
    for q in asked:
        key = q.key if q.type == "section" or _has(session.answers, q.key) else (q.alt_key or q.key)
        value = q.key in session.answers if q.type == "section" else _get(session.answers, key)
        titles.append(f"{q.label}: {_show_value(q, key, value, session.kb)}")
    titles.append("(back to the summary)")
    got = prompter.select("Which answer do you want to change?", titles, 0, "(↑↓ and Enter)")
    if got == _HELP or got == len(asked):
        return
    asker.ask(asked[got])


def _finish(session: _Session, report: Path, knowledge: str | None, console: Any) -> int:
    from .. import recommend
    console.print(f"Answers saved to [cyan]{session.path}[/] "
                  f"(replay with `gpuwise recommend {session.path}`).")
    console.print("Working out the recommendation...")  # no spinner: no second thread near durable-rules
    # the saved file itself, as `gpuwise recommend FILE` reads it: the run is reproducible exactly
    result = recommend(str(session.path), knowledge=knowledge)
    _show_result(console, result)
    from ..errors import UserError
    from ..render.report import write_report

    try:
        write_report(result, str(report), fmt=None, lang="en")
    except OSError as exc:
        raise UserError(f"cannot write the report: {exc.strerror or exc}", where=str(report)) from None
    console.print(f"Report written to [cyan]{report}[/]")
    return 0 if result.recommendation is not None else 1
