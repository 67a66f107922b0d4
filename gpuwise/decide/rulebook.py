"""The rule files (``rules/*.yaml`` and a user's house rules): their schema, loading, checking
against the fact vocabulary, and compilation into the JSON ruleset form durable-rules understands.
Nothing here imports durable-rules.

A rule matches one fact type (``fact``) and holds when every ``when`` condition holds and, if
``any`` is given, at least one of those. A condition is ``[field, op, value]``: ``op`` is one of
== != < <= > >= in; ``value`` is

* a literal (number, string, boolean; a list for ``in``),
* ``"$other_field"`` (another field of the same fact),
* ``{ref: other_field, times: 0.9}`` (a field times a factor), or
* ``{policy: name}`` (a value from ``knowledge/policy.yaml``).

``times`` may also be a policy expression: ``times: "1 - memory_headroom_fraction"`` (numbers,
policy names, + - * / and parentheses). Policy values are put in when the rule book is compiled,
so a policy overlay changes the decisions without touching a rule.

Actions (``then.action``): ``reject`` (the subject is infeasible; the message is its reason),
``finding`` (a judgement with severity, topic and fix), ``conclude`` (a step's conclusion, kept in
the trace), and ``pass`` (a candidate passes this step: it is asserted again at the next stage,
with the fields in ``then.set``). Candidates flow memory -> compute -> interconnect -> tco ->
decided; a rule on candidates sees the stage of its file's step (``pitfalls`` sees ``decided``)
unless it says ``at: <stage>``.

House rules (``--rules DIR``) use the same format; a house rule whose id is a built-in rule's
replaces it, and the result says so.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import hashlib
import json
import math
import operator
import os
import re
import stat
import string
from dataclasses import field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from ..cache import Memo
from ..errors import N_, RuleError, Said, Term, either, field_path
from ..field import Field  # pydantic's Field(), made faster (gpuwise/field.py)
from ..frozen import record
from ..paths import dir_stamp, rules_dir
from ..results import STAGES, STEPS, Severity, Stage, Step, Topic
from ..yamlio import list_directory, parse_yaml, read_bytes
from .rule_values import _clip, _close, _digits_as_written, _is_text, _kind, _same_kind

# the fact vocabulary (.facts) is imported where a rule file is checked: a rule book served from the
# cache (gpuwise/cache.py) does not need it, and building its models was a tenth of a short run

Op = Literal["==", "!=", "<", "<=", ">", ">=", "in"]
OPS = {"==": None, "!=": "$neq", "<": "$lt", "<=": "$lte", ">": "$gt", ">=": "$gte"}
STEP_STAGE = {"memory": "memory", "compute": "compute", "interconnect": "interconnect", "tco": "tco",
              "pitfalls": "decided"}
ACTIONS = ("reject", "finding", "conclude", "pass")
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)(?:[:!][^}]*)?\}")
FORMAT_SPECS = {"money", "money2", "pct", "int", "gb", "gpuh", "days", "months", "ms"}
"""Format specs of our own in message placeholders (``{cost_usd:money}``); see gpuwise/messages.py."""
MAX_FORMAT_NUMBER = 64
"""The largest width or precision a message placeholder may ask for (``{x:900000000}`` would
build a 900 MB string)."""
MAX_EXPRESSION = 200
"""Characters in a ``times:`` policy expression (a 20,000-term one exhausts the parser's stack)."""
MAX_HOUSE_RULES = 300
"""House rules in one run. A team's policy is a few dozen; durable-rules' work grows faster than
the rule count (300 added rules: 3 s more here; 800: over 100 s), so thousands would hang the run."""
MAX_RULE_FILES = 200
"""Files in a ``--rules`` directory."""
ENGINE_MIN = 1e-4
ENGINE_MAX = 1e15

CHAINED = "candidate"
"""The fact type that flows through the steps."""
OPEN = "__open"
"""A session's first fact: durable-rules creates a session on its first fact; if no fact of a
session was ever handled, deleting it crashed the process here and keeping it leaks (1,024
sessions, then MemoryError). The sentinel rule always handles it."""
SEEN = "__seen"
"""The engine's catch-all rule: it handles every fact, so no batch holds an unhandled fact. It never
fires (its second condition waits for a fact of type ``__seen``, never asserted): durable-rules
counts a fact as handled once a rule's first condition matches it (gpuwise/decide/engine.py)."""
CAP = 1_000_000
"""Each rule fires once on up to this many matching facts (durable-rules' ``cap``)."""
DETAIL = "detail"
"""A candidate asserted with ``detail: 0`` is seen only by the rules that decide (``reject`` and
``pass``); with ``detail: 1``, by every rule (findings, conclusions). An audit's alternatives go
in with 0 and those its result presents again with 1; a recommendation lists every candidate with
all that fired on it, so its candidates go in with 1 at once (one pass through the chain)."""


class Then(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    action: Literal["reject", "finding", "conclude", "pass"]
    severity: Severity = "info"
    topic: Topic
    message: str = Field(min_length=3, max_length=2000)  # repeated per subject: 2 MB made a 210 MB report
    fix: str = Field(default="", max_length=2000)
    set: dict[str, Any] = Field(default_factory=dict, description="pass: fields the next stage gets")


class Rule(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    id: str = Field(pattern=r"^[A-Z]+-[A-Z0-9-]+$", max_length=64)
    title: str = Field(min_length=3, max_length=200)
    fact: str
    at: Stage | None = None
    when: list[list[Any]] = Field(min_length=1, max_length=64)
    any: list[list[Any]] = Field(default_factory=list, max_length=64)
    then: Then
    rationale: str = Field(min_length=10, max_length=4000)
    source: str = Field(min_length=3, max_length=2000)
    example: str = Field(default="", max_length=2000)

    @field_validator("fact")
    @classmethod
    def _known_fact(cls, v: str) -> str:
        from .facts import FACT_TYPES

        close = _close(v[:100], set(FACT_TYPES)) if v not in FACT_TYPES else ""
        if close:
            raise Said(N_("unknown fact type '%(v)s' (did you mean '%(close)s'?)"), v=v, close=close)
        if v not in FACT_TYPES:
            raise Said(N_("unknown fact type '%(v)s' (known: %(fact_types)s)"), v=v, fact_types=', '.join(FACT_TYPES))
        return v


class RuleFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    schema_version: Literal[1]
    ruleset: str = Field(pattern=r"^[a-z][a-z-]*$")
    step: Step
    description: str = ""
    rules: list[Rule] = Field(min_length=1)

    @field_validator("schema_version", mode="before")
    @classmethod
    def _not_true(cls, v: Any) -> Any:
        if isinstance(v, bool):  # `true` equals 1
            raise Said(N_("must be the number 1, not %(v)s"), v=str(v).lower())
        if isinstance(v, str):  # a quoted plain decimal is the number in every data file (docs/formats.md)
            from ..inputs.notation import number_text

            number = number_text(v)  # '0x1', '１': refused, saying what they meant
            if number is not None and math.isfinite(number):
                return int(number) if number == int(number) else number
        return v


# ------------------------------------------------------------------------------ policy values
_ARITH = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def policy_expression(text: str, policy: dict[str, Any]) -> float:
    """A small arithmetic expression over policy names (``1 - memory_headroom_fraction``)."""
    from ..inputs.notation import meant

    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
            said = meant(ast.get_source_segment(text, node) or "")  # Python reads 0x2, 0o7 and 1_0; a file does not
            if said is not None:
                raise said
            return float(node.value)
        if isinstance(node, ast.Name):
            if node.id not in policy:
                raise Said(N_("unknown policy '%(id)s'"), id=node.id)
            value = policy[node.id]
            if not isinstance(value, int | float):
                raise Said(N_("policy '%(id)s' is not a number"), id=node.id)
            return float(value)
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
            return _ARITH[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand)
        raise Said(N_("not allowed in a policy expression: %(dump)s"), dump=ast.dump(node)[:40])

    text = str(text)
    if len(text) > MAX_EXPRESSION:
        raise Said(N_("the expression %(text)s... is longer than %(max_expression)s characters"), text=f"{text[:40]!r}",
                   max_expression=MAX_EXPRESSION)
    try:
        return ev(ast.parse(text, mode="eval"))
    except (RecursionError, MemoryError):
        raise Said(N_("the expression %(text)s is nested too deeply"), text=f"{text[:40]!r}") from None
    except SyntaxError:
        raise Said(N_("cannot read the expression %(text)s"), text=f"{text!r}") from None
    except ZeroDivisionError:
        raise Said(N_("%(text)s divides by zero"), text=f"{text!r}") from None


def _ref(value: Any) -> tuple[str, Any] | None:
    """(field, factor) for a reference to another field; the factor may be a policy expression."""
    if isinstance(value, str) and value.startswith("$"):
        return value[1:], 1.0
    if isinstance(value, dict) and "ref" in value:
        return str(value["ref"]), value.get("times", 1.0)
    return None


def _policy_ref(value: Any) -> str | None:
    if isinstance(value, dict) and set(value) == {"policy"}:
        return str(value["policy"])
    return None


# ------------------------------------------------------------------------------ checking
def stage_of(rule: Rule, step: str) -> str | None:
    """The stage a rule on candidates runs at (None for other fact types)."""
    if rule.fact != CHAINED:
        return None
    return rule.at or STEP_STAGE[step]


def _check(rule: Rule, step: str, policy: dict[str, Any]) -> None:
    """Every name a rule uses must be a field of its fact (available at its stage), a policy, a
    known action; a ``pass`` must have a next stage; message placeholders must be fields."""
    from .facts import FACT_TYPES, set_by

    fields = FACT_TYPES[rule.fact]
    stage = stage_of(rule, step)
    if rule.at is not None and rule.fact != CHAINED:
        raise Said(N_("'at' applies to candidate rules only (this rule is on a %(fact)s fact)"), fact=rule.fact)

    def known(name: str, what: str) -> None:
        if name not in fields:
            raise _unknown_field(what, name, rule.fact, fields)
        origin = set_by(rule.fact, name)
        if stage is not None and origin is not None and STAGES.index(stage) < STAGES.index(origin):
            raise Said(N_("%(what)s reads '%(name)s', which exists from the %(origin)s stage on; this rule runs at "
                          "the %(stage)s stage"), what=what, name=name, origin=origin, stage=stage)

    for cond in [*rule.when, *rule.any]:
        if len(cond) != 3:
            raise Said(N_("condition %(cond)s must be [field, op, value]"), cond=_clip(cond))  # 3,000 items: clipped
        name, op, value = cond
        if not isinstance(name, str):
            raise Said(N_("condition %(cond)s: the field must be a name"), cond=_clip(cond))
        known(name, Term(N_("a condition")))
        if not isinstance(op, str) or (op not in OPS and op != "in"):  # an operator [] or {a: 1}: 'unhashable', exit 3
            raise Said(N_("unknown operator '%(op)s' in %(cond)s (use one of %(value)s)"), op=str(op)[:20],
                       cond=_clip(cond),
                       value=', '.join([*OPS, 'in']))
        if op == "in" and not isinstance(value, list):
            raise Said(N_("'in' needs a list in %(cond)s"), cond=_clip(cond))
        if op != "in" and isinstance(value, list):
            raise Said(N_("a list is a value for 'in' only, not for '%(op)s', in %(cond)s"), op=op, cond=_clip(cond))
        if op in ("==", "!=", "in") and _is_text(rule.fact, name) and isinstance(cond, list):
            value = cond[2] = _digits_as_written(value)
        for item in value if op == "in" else [value]:
            if item is None or (op == "in" and isinstance(item, list | dict)):
                raise Said(N_("a condition value must be a number, a string or true/false in %(cond)s"),
                           cond=_clip(cond))
            if isinstance(item, float) and not math.isfinite(item):
                raise Said(N_("a condition value must be a finite number in %(cond)s"), cond=_clip(cond))
            if not isinstance(item, dict) and not (isinstance(item, str) and item.startswith("$")):
                _same_kind(rule.fact, name, item, cond)
            elif isinstance(item, str) and len({_kind(rule.fact, name), _kind(rule.fact, item[1:])} - {None}) == 2:
                raise Said(N_("'%(name)s' and '%(other)s' are not of one kind (a number, text, true or false); "
                              "they never compare, in %(cond)s"), name=name, other=item[1:], cond=_clip(cond))
        if isinstance(value, dict) and "ref" in value and set(value) - {"ref", "times"}:
            raise Said(N_("a reference has 'ref' and 'times' only, not %(keys)s, in %(cond)s"),
                       keys=", ".join(sorted(map(str, set(value) - {"ref", "times"}))), cond=_clip(cond))
        ref = _ref(value)
        if ref is not None:
            known(ref[0], Term(N_("a condition")))
            times = ref[1]
            if isinstance(times, str):
                factor = policy_expression(times, policy)
            elif isinstance(times, bool) or not isinstance(times, int | float):
                raise Said(N_("'times' must be a number or a policy expression in %(cond)s"), cond=_clip(cond))
            else:
                factor = float(times)
            if not math.isfinite(factor):
                raise Said(N_("'times' must be a finite number in %(cond)s"), cond=_clip(cond))
        pname = _policy_ref(value)
        if pname is not None and pname not in policy:
            close = _close(pname, set(policy))
            raise (Said(N_("unknown policy '%(name)s' (did you mean '%(close)s'?)"), name=pname, close=close) if close
                   else Said(N_("unknown policy '%(name)s'"), name=pname))
        if isinstance(value, dict) and ref is None and pname is None:
            raise Said(N_("a condition value %(value)s must be a literal, '$field', {ref: field} or {policy: name}"),
                       value=f"{value!r}")
    then = rule.then
    if then.action == "finding" and then.severity == "blocker" and rule.fact in (CHAINED, "environment"):
        raise Said(N_("a blocker on a %(fact)s fact must reject it: use action: reject"), fact=rule.fact)
    if then.action == "pass":
        if rule.fact != CHAINED:
            raise Said(N_("'pass' moves a candidate to the next step: it applies to candidate rules only"))
        if stage == "decided":
            raise Said(N_("'pass' has no next stage after 'decided'"))
    elif then.set:
        raise Said(N_("'set' belongs to 'pass' rules"))
    for name, value in then.set.items():
        if name not in fields:
            raise _unknown_field("'set'", name, rule.fact, fields)
        if isinstance(value, str) and value.startswith("$"):
            known(value[1:], "'set'")
    for text, what in ((then.message, Term(N_("the message"))), (then.fix, Term(N_("the fix")))):
        for name, spec in _placeholders(text):
            if name not in fields:
                raise _unknown_field(what, name, rule.fact, fields, braces=True)
            if spec and spec not in FORMAT_SPECS:
                if any(int(n) > MAX_FORMAT_NUMBER for n in re.findall(r"\d+", spec)):
                    raise Said(N_("%(what)s: the format '%(spec)s' in {%(name)s} asks for a width or precision over "
                                  "%(max_format_number)s"), what=what, spec=spec[:20], name=name,
                               max_format_number=MAX_FORMAT_NUMBER)
                with contextlib.suppress(ValueError):  # as the field's kind takes it: '=10' is no format for text
                    format("x" if _is_text(rule.fact, name) else 1.5, spec)
                    continue
                raise Said(N_("%(what)s: unknown format '%(spec)s' in {%(name)s:%(spec2)s}"), what=what, spec=spec,
                           name=name, spec2=spec)


def _placeholders(text: str) -> list[tuple[str, str]]:
    out = []
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise Said(N_("cannot read the placeholders of %(text)s: %(reason)s"), text=f"{text!r}", reason=exc) from None
    for _lit, name, spec, conv in parsed:
        if name is None:
            continue
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise Said(N_("placeholder {%(name)s} must be a field name"), name=_clip(name, 40))
        if conv is not None:
            raise Said(N_("placeholder {%(name)s!%(conv)s}: conversions (!r, !s) are not supported; write {%(name)s} "
                          "or {%(name)s:format}"), name=name, conv=conv[:10])
        if spec and ("{" in spec or "}" in spec):
            raise Said(N_("placeholder {%(name)s}: a nested field in the format is not supported"), name=name)
        out.append((name, spec or ""))
    return out


def _unknown_field(what: str, name: str, fact: str, fields: set[str], *, braces: bool = False) -> Said:
    """"a condition names unknown field 'cuont' of a candidate fact (did you mean 'count'?)"."""
    close, shown = _close(name, fields), "{" + name + "}" if braces else name
    if close:
        return Said(N_("%(what)s names unknown field '%(name)s' of a %(fact)s fact (did you mean '%(close)s'?)"),
                    what=what, name=shown, fact=fact, close=close)
    return Said(N_("%(what)s names unknown field '%(name)s' of a %(fact)s fact"), what=what, name=shown, fact=fact)


# ------------------------------------------------------------------------------ compiling
def engine_number(v: float) -> float:
    """A float durable-rules' parser reads, in the same order as the original: negative zero is
    zero; magnitudes below 1e-4 (Python writes them in exponent form, which its JSON parser
    refuses: error 204) become +-1e-4; above 1e15 (exponent form too, and integers past 64 bits
    wrap), +-1e15. Facts and the numbers in rules go through the same map, so a comparison between
    them keeps its sense."""
    if v != v or v in (math.inf, -math.inf):
        raise Said(N_("a non-finite number (%(v)s) cannot reach the rule engine"), v=v)
    if v == 0:
        return 0.0
    mag = abs(v)
    if mag < ENGINE_MIN:
        return math.copysign(ENGINE_MIN, v)
    if mag >= ENGINE_MAX:
        return math.copysign(ENGINE_MAX, v)
    return v


def _literal(v: Any) -> Any:
    """A condition's value as durable-rules reads it: booleans and strings as they are (it compares
    them natively), numbers brought into its range (:func:`engine_number`)."""
    if isinstance(v, bool) or not isinstance(v, int | float):
        return v
    if isinstance(v, int):  # past 64 bits durable-rules' integers wrap; float() of 10**400 overflows
        return v if abs(v) < ENGINE_MAX else (ENGINE_MAX if v > 0 else -ENGINE_MAX)  # copysign(x, 10**400) overflows
    return engine_number(v)


def compile_condition(cond: list[Any], policy: dict[str, Any]) -> dict[str, Any]:
    name, op, value = cond
    if op == "in":
        return {"$or": [{name: _literal(v)} for v in value]}
    ref = _ref(value)
    pname = _policy_ref(value)
    if ref is not None:
        other, times = ref
        factor = policy_expression(times, policy) if isinstance(times, str) else float(times)
        rhs: Any = {"$m": other} if factor == 1.0 else {"$mul": {"$l": {"$m": other}, "$r": _literal(factor)}}
    elif pname is not None:
        rhs = _literal(policy[pname])
    else:
        rhs = _literal(value)
    durable_op = OPS[op]
    return {name: rhs} if durable_op is None else {durable_op: {name: rhs}}


@record
class Rulebook:
    """Built-in and house rule files, checked, with every rule compiled into one ruleset (so a
    candidate's facts chain from step to step inside one durable-rules session)."""

    files: list[tuple[Path, RuleFile]]
    policy: dict[str, Any]
    house: set[str] = field(default_factory=set)  # ids of the rules that come from --rules
    replaced: dict[str, str] = field(default_factory=dict)  # built-in id -> the house file replacing it
    rules: dict[str, Rule] = field(default_factory=dict)
    step_of: dict[str, str] = field(default_factory=dict)
    ruleset_of: dict[str, str] = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)  # rule id -> file it comes from
    digest: str = ""

    def __post_init__(self) -> None:
        for path, rf in self.files:
            for r in rf.rules:
                self.rules[r.id] = r
                self.step_of[r.id] = rf.step
                self.ruleset_of[r.id] = rf.ruleset
                self.origin[r.id] = str(path)
        payload = [[rf.model_dump(mode="json") for _, rf in self.files], sorted(self.policy.items())]
        self.digest = hashlib.sha1(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()[:12]
        self._fields: dict[tuple[str, str | None], tuple[str, ...]] = {}
        self._definition: dict[str, Any] | None = None
        self._stages: set[str] | None = None

    @property
    def durable_name(self) -> str:
        """Rulesets are global by name in a process: the name carries the digest of rules and policy."""
        return f"gpuwise_{self.digest}"

    def stage(self, rule_id: str) -> str | None:
        return stage_of(self.rules[rule_id], self.step_of[rule_id])

    def definition(self) -> dict[str, Any]:
        """The durable-rules JSON of the whole rule book."""
        if self._definition is None:
            out: dict[str, Any] = {}
            for rid, rule in self.rules.items():
                parts: list[dict[str, Any]] = [{"t": rule.fact}]
                stage = self.stage(rid)
                if stage is not None:
                    parts.append({"stage": stage})
                    if rule.then.action in ("finding", "conclude"):
                        parts.append({DETAIL: 1})
                parts += [compile_condition(c, self.policy) for c in rule.when]
                if rule.any:
                    parts.append({"$or": [compile_condition(c, self.policy) for c in rule.any]})
                out[rid] = {"all": [{"m": {"$and": parts}}], "run": rid, "cap": CAP}
            out[OPEN] = {"all": [{"m": {"t": OPEN}}], "run": OPEN}
            out[SEEN] = {"all": [{"m": {"$or": [{"t": t} for t in sorted({*self.fact_types(), CHAINED})]}},
                                 {"never": {"t": SEEN}}], "run": SEEN}
            self._definition = out
        return self._definition

    def fields_read(self, fact: str, stage: str | None = None) -> tuple[str, ...]:
        """The fields of a fact type that some rule reads (all the engine must see of it); with
        ``stage``, only what the candidate rules of that stage read."""
        key = (fact, stage)
        cached = self._fields.get(key)
        if cached is None:
            names: set[str] = set()
            for rid, r in self.rules.items():
                if r.fact != fact or (stage is not None and self.stage(rid) != stage):
                    continue
                for c in (*r.when, *r.any):
                    names.add(c[0])
                    ref = _ref(c[2])
                    if ref is not None:
                        names.add(ref[0])
                for v in r.then.set.values():
                    if isinstance(v, str) and v.startswith("$"):
                        names.add(v[1:])
            cached = self._fields[key] = tuple(sorted(names))
        return cached

    def has_stage(self, stage: str) -> bool:
        """Some rule looks at candidates at ``stage``."""
        if self._stages is None:
            self._stages = {s for rid in self.rules if (s := self.stage(rid)) is not None}
        return stage in self._stages

    def set_by_stage(self, stage: str) -> list[str]:
        """Candidate fields that the pass rules into ``stage`` set (the verdicts of the step before);
        worked out when the book is built, so that a cached book needs no fact vocabulary."""
        by_stage: dict[str, list[str]] | None = self.__dict__.get("_set_by")
        if by_stage is None:
            from .facts import FACT_MODELS, set_by

            fields = FACT_MODELS[CHAINED].model_fields
            by_stage = self._set_by = {s: [f for f in fields if set_by(CHAINED, f) == s] for s in STAGES}
        return by_stage[stage]

    def fact_types(self) -> set[str]:
        return {r.fact for r in self.rules.values()}

    def by_step(self) -> dict[str, list[Rule]]:
        out: dict[str, list[Rule]] = {s: [] for s in STEPS}
        for rid, r in self.rules.items():
            out[self.step_of[rid]].append(r)
        return out

    def sources(self) -> dict[str, str]:
        return {rid: r.source for rid, r in self.rules.items()}


# ------------------------------------------------------------------------------ loading
def _complaint(err: Any) -> dict[str, Any]:
    """A rule file's first validation error as a message of the catalog (``message``, ``values``,
    ``msgid``): a bound in the house's words in every language; otherwise pydantic's own words in English, the
    catalog's for its common complaints."""
    from ..inputs.error_words import _BOUNDS, _short, bound_words, too_long_text

    msg = err["msg"].replace("Value error, ", "")
    error = err.get("ctx", {}).get("error")
    if err["type"] == "literal_error":
        expected = str(err.get("ctx", {}).get("expected", ""))
        choices = either([c for c in (x.strip() for x in expected.replace(" or ", ",").split(",")) if c], commas=True)
        close = _close(str(err.get("input"))[:100], {c.strip("'") for c in choices})  # 'memroy': memory
        return {"message": N_("%(given)s is not one of %(expected)s"),
                "values": {"given": repr(str(err.get("input"))[:40]),
                           "expected": choices if choices.words("en") == expected else expected},
                **({"hint": N_("did you mean %(names)s?"), "hint_values": {"names": close}} if close else {})}
    if err["type"] == "extra_forbidden":
        return {"message": N_("unknown key")}
    if err["type"] == "missing":
        return {"message": msg, "msgid": N_("required field is missing")}
    if isinstance(error, Said):
        return {"message": error.template, "values": error.values}
    if err["type"] in ("too_short", "too_long"):  # how many were given, not the list itself
        ctx = err.get("ctx", {})
        return {"message": _BOUNDS[err["type"]], "values": {**ctx, "given": f"{ctx.get('actual_length', 0):,}"}}
    if (long := too_long_text(err)) is not None:  # its length, as an input file's field says it
        return {"message": long[0], "values": long[1]}
    if (bound := bound_words(err)) is not None:  # the house's words in every language (hostile round 48)
        return {"message": bound[0], "values": bound[1]}
    if err["type"] in _BOUNDS and "input" in err:
        return {"message": msg, "msgid": _BOUNDS[err["type"]],
                "values": {**err.get("ctx", {}), "given": _short(err["input"])}}
    return {"message": msg}


_CHECKED = Memo()
"""Rule files checked in this process, by their bytes and the policy: a program (or the test suite)
that builds many rule books with house rules or policy overlays checks each built-in file once."""


def load_rulefile(path: Path, policy: dict[str, Any], policy_key: str | None = None) -> RuleFile:
    """The rule file at ``path``, read, validated and checked against ``policy`` (``policy_key``:
    its JSON, when the caller has it)."""
    raw = read_bytes(path, what="rule file")
    key = Memo.key(path, raw, policy_key if policy_key is not None else _policy_key(policy))
    rf = _CHECKED.get(key)
    if rf is None:
        rf = _check_rulefile(parse_yaml(raw, path, what="rule file"), path, policy)
        _CHECKED.put(key, rf)
    return rf


def _policy_key(policy: dict[str, Any]) -> str:
    return json.dumps(sorted(policy.items()), default=str)


def _close_key(loc: list[Any]) -> str | None:
    """The key of a rule file (top level), a rule or its ``then`` closest to the unknown key at ``loc``."""
    if len(loc) == 1:
        model: type[BaseModel] | None = RuleFile
    elif loc[0] == "rules" and len(loc) in (3, 4):
        model = Rule if len(loc) == 3 else (Then if loc[2] == "then" else None)
    else:
        model = None
    if model is None or not isinstance(loc[-1], str):
        return None
    return _close(loc[-1], set(model.model_fields)) or None


def _check_rulefile(data: Any, path: Path, policy: dict[str, Any]) -> RuleFile:
    if data is None:  # empty or comments only: 'expected a mapping' did not say what was wrong
        raise RuleError(N_("the file is empty"), where=str(path))
    if not isinstance(data, dict):
        raise RuleError(N_("expected a mapping at the top level"), where=str(path))
    try:
        rf = RuleFile.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        # a misspelt key is also a missing one ('stepp' given, 'step' missing): the misspelling is the news
        err = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
        loc = list(err["loc"])
        label = field_path(loc) or "(top level)"
        if len(loc) >= 2 and loc[0] == "rules" and isinstance(loc[1], int):
            with contextlib.suppress(IndexError, AttributeError, KeyError, TypeError):
                rule_id = data["rules"][loc[1]].get("id", "#" + str(loc[1]))
                if not isinstance(rule_id, str) or len(rule_id) > 64:  # a 100,000-letter id made a 100 KB line
                    rule_id = "#" + str(loc[1])
                rest = field_path(loc[2:])
                label = f"rule {rule_id}" + ("" if not rest else rest if rest[0] == "[" else "." + rest)
        complaint = _complaint(err)
        close = _close_key(loc) if err["type"] == "extra_forbidden" else None
        if close:
            complaint = {"message": N_("unknown key (did you mean '%(close)s'?)"), "values": {"close": close}}
        raise RuleError(**complaint, where=f"{path}: {label}") from None
    for r in rf.rules:
        try:
            _check(r, rf.step, policy)
        except Said as exc:
            raise RuleError(exc.template, values=exc.values, where=f"{path}: rule {r.id}") from None
        except ValueError as exc:
            raise RuleError(str(exc), where=f"{path}: rule {r.id}") from None
    return rf


_CACHE: dict[tuple[str | None, str], Rulebook] = {}


def load(house: str | Path | None = None, policy: dict[str, Any] | None = None) -> Rulebook:
    """The built-in rule files, with the house rules of directory ``house`` on top, compiled with
    ``policy`` (name -> value; default: the built-in knowledge base's). Cached per process, by the
    directory's real path and its files' names, sizes and times (house rules edited between two
    calls of the Python API are read afresh)."""
    if policy is None:
        from ..knowledge import load as load_kb

        policy = {k: v.value for k, v in load_kb().policy.items()}
    key = (f"{_dir_key(house)}\0{dir_stamp(house)}" if house else None, _policy_key(policy))
    book = _CACHE.get(key)
    if book is None:
        book = _CACHE[key] = _load_cached(Path(house) if house else None, policy, key[1])
    return _spelled(book, Path(house)) if house else book


def _spelled(book: Rulebook, house: Path) -> Rulebook:
    """The book with its house files named as this run spells ``--rules`` (a book cached in this
    process or on disk may come from a run that gave the same directory another way). A house
    file is one outside the built-in rules' folder; it sits directly in the ``--rules`` folder."""
    base = rules_dir()

    def named(path: Path) -> Path:
        return path if path.parent == base else house / path.name

    files = [(named(p), rf) for p, rf in book.files]
    if [p for p, _ in files] == [p for p, _ in book.files]:
        return book
    replaced = {k: str(named(Path(v))) for k, v in book.replaced.items()}
    # the maps __post_init__ fills are new ones: sharing the cached book's would rename its files too
    spelled = dataclasses.replace(book, files=files, replaced=replaced, rules={}, step_of={}, ruleset_of={},
                                  origin={})
    spelled.__dict__.update({k: v for k, v in book.__dict__.items() if k.startswith("_")})  # compiled once
    return spelled


def _load_cached(house: Path | None, policy: dict[str, Any], policy_key: str) -> Rulebook:
    """:func:`_load`, or the rule book an earlier run checked and compiled from the same rule files
    and policy (see gpuwise/cache.py)."""
    from .. import cache

    files = sorted(rules_dir().glob("*.yaml"))
    if house is not None:
        files += _house_paths(house)

    def build() -> Rulebook:
        book = _load(house, policy)
        book.definition()  # compiled once, stored with it
        book.set_by_stage(STAGES[0])
        return book

    return cache.cached("rules", files, build, extra=policy_key)


def _load_files(paths: list[Path], policy: dict[str, Any]) -> tuple[list[tuple[Path, RuleFile]], dict[str, Path]]:
    """Rule files, checked, and where each rule id comes from; an id twice is an error naming both."""
    policy_key = _policy_key(policy)
    files = [(p, load_rulefile(p, policy, policy_key)) for p in paths]
    where: dict[str, Path] = {}
    for p, rf in files:
        for r in rf.rules:
            if r.id in where:
                raise RuleError(N_("duplicate rule id '%(id)s' (also in %(name)s)"),
                                where=f"{p}: rule {r.id}", values={"id": r.id, "name": where[r.id].name})
            where[r.id] = p
    return files, where


def _house_paths(house: Path) -> list[Path]:
    """The rule files of a ``--rules`` directory; a directory that cannot be listed (missing, a
    link loop, unreadable, not a directory) is a one-line error."""
    names = list_directory(house, "--rules", "rule files (*.yaml)", RuleError)
    paths = sorted(house / n for n in names if n.endswith((".yaml", ".yml")) and not n.startswith("."))
    for path in paths:  # a FIFO read as empty was 'expected a mapping'; a dangling link 'no such file'
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            raise RuleError(N_("a link to nothing (dangling symbolic link)"), where=str(path)) from None
        except (OSError, ValueError):  # a link loop, a permission: reading it says which
            continue
        if not stat.S_ISREG(mode):
            kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
            raise RuleError(N_("is %(kind)s, not a YAML file"), where=str(path), values={"kind": kind})
    return paths


def _load(house: Path | None, policy: dict[str, Any]) -> Rulebook:
    base = rules_dir()
    paths = sorted(base.glob("*.yaml"))
    if not paths:
        raise RuleError(N_("no rule files found"), where=str(base))
    files, seen = _load_files(paths, policy)
    house_ids: set[str] = set()
    replaced: dict[str, str] = {}
    if house is not None:
        house_paths = _house_paths(house)
        if not house_paths:
            raise RuleError(N_("no rule files (*.yaml) in the directory"), where=str(house))
        if len(house_paths) > MAX_RULE_FILES:
            raise RuleError(N_("%(n)s rule files: more than the limit of %(max_rule_files)s"),
                            where=str(house), values={"n": len(house_paths), "max_rule_files": MAX_RULE_FILES})
        house_files, mine = _load_files(house_paths, policy)
        if len(mine) > MAX_HOUSE_RULES:
            raise RuleError(N_("%(n)s house rules: more than the limit of %(max_house_rules)s"),
                            where=str(house),
                            hint=N_("merge conditions with 'any', or split the work into several runs"),
                            values={"n": len(mine), "max_house_rules": MAX_HOUSE_RULES})
        house_ids = set(mine)
        replaced = {rid: str(p) for rid, p in mine.items() if rid in seen}
        # a replaced built-in rule is dropped from its file; the house rule takes its place
        kept: list[tuple[Path, RuleFile]] = []
        for p, rf in files:
            rules = [r for r in rf.rules if r.id not in replaced]
            if rules:
                kept.append((p, rf.model_copy(update={"rules": rules})))
        files = kept + house_files
    files.sort(key=lambda f: STEPS.index(f[1].step))  # memory, compute, interconnect, tco, pitfalls
    return Rulebook(files=files, policy=dict(policy), house=house_ids, replaced=replaced)


def _dir_key(path: str | Path) -> str:
    """The cache key of a directory argument: its real path, or as given when that cannot be
    worked out (a link loop: the loader then says what is wrong with it)."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError, RuntimeError):
        return os.path.abspath(path)
