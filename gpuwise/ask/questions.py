"""The questionnaire as data: ``questions.yaml`` read and checked into typed questions, with
the conditions (``when``, ``advanced``) they are asked under.
"""

from __future__ import annotations

import ast
import difflib
import operator
import re
import string
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..frozen import frozen

QUESTIONS_FILE = Path(__file__).with_name("questions.yaml")
SCHEMA_VERSION = 2
SECTIONS = ("workload", "constraints", "environment")
GATE = "advanced"  # the key of the one "advanced settings?" question (not a requirements-file key)
TYPES = ("select", "text", "int", "float", "bool", "autocomplete", "section", "advanced")
_QUESTION_FIELDS = {"key", "alt_key", "type", "label", "question", "help", "invalid", "terms", "choices",
                    "default", "defaults", "optional", "when", "advanced", "money", "parse", "source", "policy",
                    "settled_by", "variants"}
_VARIANT_TEXTS = ("question", "help", "label")  # the texts a variant may replace (a label: the defaults listed before
# "advanced settings?" and the summary name the field as the question asked it, review61)
_TEXT_PLACEHOLDERS = {"sym", "cur"}  # what question texts may use: the session's currency


class QuestionsError(ValueError):
    """``questions.yaml`` does not match its schema: a bug in gpuwise (or a bad edit), not bad input."""





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
@frozen
class Choice:
    value: Any
    title: Text


@frozen
class Term:
    text: Text
    aliases: tuple[str, ...] = ()


@frozen
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
    policy: str | None = None  # the knowledge base's policy value that a none answer leaves in force
    # keys whose answer settles this optional question as none: a file that states its service's load as a
    # concurrency is not asked for a rate on resume (the rate would replace it; hostile rounds 27 / 28's resumes)
    settled_by: tuple[str, ...] = ()
    # texts that replace ``question`` / ``help`` where a condition on earlier answers holds (the first that holds):
    # the p95 targets are asked 'at that rate' after a request rate, 'with that many requests at once' after a
    # concurrency
    variants: tuple[tuple[Condition, dict[str, Text]], ...] = ()

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
        for cond, _ in self.variants:
            out |= cond.names
        return out


@frozen
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
_COMPUTED = ("chinchilla_tokens", "published_precision", "published_method")


def load_questions(path: str | Path | None = None) -> Questionnaire:
    """Read and check ``questions.yaml`` (or ``path``); a malformed file is a QuestionsError."""
    import yaml

    from ..yamlio import safe_load

    p = Path(path) if path else QUESTIONS_FILE
    try:
        data = safe_load(p.read_text(encoding="utf-8"))
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
    settled = tuple(str(k) for k in raw.get("settled_by") or ())
    if not set(settled) <= _all_paths(fields):
        raise QuestionsError(f"{where}: settled_by names a key that is not a requirements-file key")
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
    policy = raw.get("policy")
    if policy is not None and (not isinstance(policy, str) or not raw.get("optional") or not money):
        raise QuestionsError(f"{where}: policy names the policy value (USD) an optional amount's none leaves")

    def text(name: str) -> Text:
        return _text(raw[name], f"{where}: {name}", languages, _TEXT_PLACEHOLDERS)

    variants = []
    for j, v in enumerate(raw.get("variants") or []):
        named = set(v) - {"when"} if isinstance(v, dict) else set()
        if not isinstance(v, dict) or "when" not in v or not named or not named <= set(_VARIANT_TEXTS):
            raise QuestionsError(f"{where}: variants[{j}]: expected {{when}} and one or more of "
                                 f"{', '.join(_VARIANT_TEXTS)}")
        variants.append((Condition(str(v["when"])), {n: _text(v[n], f"{where}: variants[{j}].{n}", languages,
                                                               _TEXT_PLACEHOLDERS) for n in sorted(named)}))

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
        settled_by=settled,
        variants=tuple(variants),
        advanced=adv,
        money=money,
        parse=raw.get("parse"),
        alt_key=raw.get("alt_key"),
        source=raw.get("source"),
        policy=policy,
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
