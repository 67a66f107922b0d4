"""The rule files (``rules/*.yaml``): their schema, loading, and compilation into the
JSON ruleset form durable-rules understands. Nothing here imports durable-rules.

A condition is ``[field, op, value]``: ``op`` is one of == != < <= > >= in; ``value`` is
a literal, ``"$other_field"`` (another field of the same fact), or
``{ref: other_field, times: 0.9}``. ``when`` conditions must all hold; if ``any`` is
given, at least one of those must hold too.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..errors import RuleError
from ..paths import rules_dir
from .facts import FACT_TYPES

Op = Literal["==", "!=", "<", "<=", ">", ">=", "in"]
OPS = {"==": None, "!=": "$neq", "<": "$lt", "<=": "$lte", ">": "$gt", ">=": "$gte"}
STEPS = ("memory", "compute", "interconnect", "tco", "pitfalls")
_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)(?:[:!][^}]*)?\}")


class Then(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    action: Literal["reject", "finding", "conclude"]
    severity: Literal["blocker", "warning", "info"] = "info"
    topic: Literal["memory", "compute", "interconnect", "cost", "compatibility", "used-hardware",
                   "cloud-fees", "power-cooling", "licensing", "data-freshness"]
    message: str = Field(min_length=3)
    fix: str = ""


class Rule(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[A-Z]+-[A-Z0-9-]+$")
    title: str = Field(min_length=3)
    fact: str
    when: list[list[Any]] = Field(min_length=1)
    any: list[list[Any]] = []
    then: Then
    rationale: str = Field(min_length=10)
    source: str = Field(min_length=3)
    example: str = ""

    @model_validator(mode="after")
    def _check(self) -> Rule:
        fields = FACT_TYPES.get(self.fact)
        if fields is None:
            raise ValueError(f"unknown fact type '{self.fact}' (known: {', '.join(FACT_TYPES)})")
        for cond in [*self.when, *self.any]:
            if len(cond) != 3:
                raise ValueError(f"condition {cond!r} must be [field, op, value]")
            field, op, value = cond
            if field not in fields:
                raise ValueError(f"condition names unknown field '{field}' of a {self.fact} fact")
            if op not in OPS and op != "in":
                raise ValueError(f"unknown operator '{op}' in {cond!r}")
            ref = _ref(value)
            if ref is not None and ref[0] not in fields:
                raise ValueError(f"condition refers to unknown field '{ref[0]}'")
            if op == "in" and not isinstance(value, list):
                raise ValueError(f"'in' needs a list in {cond!r}")
        for text in (self.then.message, self.then.fix):
            for name in _PLACEHOLDER.findall(text):
                if name not in fields:
                    raise ValueError(f"message names unknown field '{{{name}}}' of a {self.fact} fact")
        return self


class RuleFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: Literal[1]
    ruleset: str = Field(pattern=r"^[a-z][a-z-]*$")
    step: Literal["memory", "compute", "interconnect", "tco", "pitfalls"]
    description: str = ""
    rules: list[Rule] = Field(min_length=1)


def _ref(value: Any) -> tuple[str, float] | None:
    if isinstance(value, str) and value.startswith("$"):
        return value[1:], 1.0
    if isinstance(value, dict) and "ref" in value:
        return str(value["ref"]), float(value.get("times", 1.0))
    return None


def _literal(v: Any) -> Any:
    return v  # durable-rules compares JSON booleans, numbers and strings natively


def compile_condition(cond: list[Any]) -> dict[str, Any]:
    field, op, value = cond
    if op == "in":
        return {"$or": [{field: _literal(v)} for v in value]}
    ref = _ref(value)
    if ref is not None:
        name, times = ref
        rhs: Any = {"$m": name} if times == 1.0 else {"$mul": {"$l": {"$m": name}, "$r": times}}
    else:
        rhs = _literal(value)
    durable_op = OPS[op]
    if durable_op is None:
        return {field: rhs}
    return {durable_op: {field: rhs}}


OPEN = "__open"
"""A session's first fact in every ruleset. durable-rules creates a session on its first
fact; if no fact of a session was ever handled, deleting it crashed the process here and
keeping it leaks (1,024 sessions, then MemoryError). The sentinel is always handled."""

DETAILED = {"candidate"}
"""Fact types with many instances per consultation. Their reject rules run over every
instance; their other rules (findings, conclusions) only over the instances a result
shows in detail, which are asserted again with ``detail: 1`` once the ranking is known."""


def compile_rule(rule: Rule) -> dict[str, Any]:
    parts: list[dict[str, Any]] = [{"t": rule.fact}]
    if rule.fact in DETAILED and rule.then.action != "reject":
        parts.append({"detail": 1})
    parts += [compile_condition(c) for c in rule.when]
    if rule.any:
        parts.append({"$or": [compile_condition(c) for c in rule.any]})
    return {"all": [{"m": {"$and": parts}}], "run": rule.id}


class Rulebook:
    """All rule files, validated, with each file compiled to one durable-rules ruleset."""

    def __init__(self, files: list[tuple[Path, RuleFile]]):
        self.files = files
        self.rules: dict[str, Rule] = {}
        self.step_of: dict[str, str] = {}
        self.ruleset_of: dict[str, str] = {}
        for path, rf in files:
            for r in rf.rules:
                if r.id in self.rules:
                    raise RuleError(f"duplicate rule id '{r.id}'", where=f"{path}: {r.id}")
                self.rules[r.id] = r
                self.step_of[r.id] = rf.step
                self.ruleset_of[r.id] = rf.ruleset
        digest = hashlib.sha1(
            json.dumps([rf.model_dump(mode="json") for _, rf in files], sort_keys=True).encode()
        ).hexdigest()[:10]
        self.digest = digest
        self._fields: dict[tuple[str, bool], dict[str, tuple[str, ...]]] = {}

    def rulesets(self) -> dict[str, dict[str, Any]]:
        """ruleset name -> durable JSON definition (names are global per process, so versioned)."""
        out: dict[str, dict[str, Any]] = {}
        for _, rf in self.files:
            rules = {r.id: compile_rule(r) for r in rf.rules}
            rules[OPEN] = {"all": [{"m": {"t": OPEN}}], "run": OPEN}
            out[self.durable_name(rf.ruleset)] = rules
        return out

    def condition_fields(self, ruleset: str, rejects_only: bool = False) -> dict[str, tuple[str, ...]]:
        """fact type -> the fields this ruleset's conditions read (what the engine must see);
        with ``rejects_only``, what its reject rules read (a first-pass candidate needs no more)."""
        key = (ruleset, rejects_only)
        cached = self._fields.get(key)
        if cached is None:
            fields = self._condition_fields(ruleset, rejects_only)
            cached = self._fields[key] = {k: tuple(sorted(v)) for k, v in fields.items()}
        return cached

    def _condition_fields(self, ruleset: str, rejects_only: bool) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for _, rf in self.files:
            if rf.ruleset != ruleset:
                continue
            for r in rf.rules:
                if rejects_only and r.then.action != "reject":
                    continue
                names = out.setdefault(r.fact, set())
                if r.fact in DETAILED:
                    names.add("detail")
                for c in (*r.when, *r.any):
                    names.add(c[0])
                    ref = _ref(c[2])
                    if ref is not None:
                        names.add(ref[0])
        return out

    def durable_name(self, ruleset: str) -> str:
        return f"gpuwise_{ruleset.replace('-', '_')}_{self.digest}"

    def by_step(self) -> dict[str, list[Rule]]:
        out: dict[str, list[Rule]] = {s: [] for s in STEPS}
        for rid, r in self.rules.items():
            out[self.step_of[rid]].append(r)
        return out

    def fact_types_of(self, ruleset: str) -> set[str]:
        for _, rf in self.files:
            if rf.ruleset == ruleset:
                return {r.fact for r in rf.rules}
        return set()


def load_rulefile(path: Path) -> RuleFile:
    from ..yamlio import read_yaml

    data = read_yaml(path, what="rule file")
    if not isinstance(data, dict):
        raise RuleError("expected a mapping at the top level", where=str(path))
    try:
        return RuleFile.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = list(err["loc"])
        label = ".".join(str(p) for p in loc)
        if len(loc) >= 2 and loc[0] == "rules" and isinstance(loc[1], int):
            with contextlib.suppress(IndexError, AttributeError, KeyError, TypeError):
                label = f"rule {data['rules'][loc[1]].get('id', '#' + str(loc[1]))}" + (
                    "." + ".".join(str(p) for p in loc[2:]) if loc[2:] else "")
        raise RuleError(err["msg"].replace("Value error, ", ""), where=f"{path}: {label}") from None


@lru_cache(maxsize=4)
def load(directory: str | None = None) -> Rulebook:
    base = Path(directory) if directory else rules_dir()
    paths = sorted(base.glob("*.yaml"))
    if not paths:
        raise RuleError("no rule files found", where=str(base))
    files = [(p, load_rulefile(p)) for p in paths]
    files.sort(key=lambda f: (STEPS.index(f[1].step), f[0].name))  # memory, compute, interconnect, tco, pitfalls
    return Rulebook(files)
