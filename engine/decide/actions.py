"""The named consequents rules refer to (``then.action``), registered in one place.

* ``reject``   — the subject is infeasible; the message is kept as its reason, and as a
  finding about it.
* ``finding``  — a judgement with severity, topic, evidence, fix and source.
* ``conclude`` — a step's conclusion, kept in the trace.

The rule engine records each firing as (rule id, fact); the consequences are applied
here, after the session, so an error in them surfaces normally instead of being stored
inside durable-rules' session state. Messages are filled in for the subjects a result
shows in detail; every other firing is still counted against its subject.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..results import Finding, TraceEntry
from .rulebook import _PLACEHOLDER, Rule, Rulebook, _ref

Firing = tuple[str, int]  # (rule id, index of the fact)


class _Fmt(string.Formatter):
    """str.format over a fact that never fails: unknown or ill-typed fields print as '?'."""

    def get_value(self, key: Any, args: Any, kwargs: Any) -> Any:
        return kwargs.get(key, "?") if isinstance(key, str) else "?"

    def format_field(self, value: Any, format_spec: str) -> str:
        try:
            return super().format_field(value, format_spec)
        except (ValueError, TypeError):
            return str(value)


_FMT = _Fmt()


class _Known(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def fill(template: str, fact: dict[str, Any]) -> str:
    """A rule's message with the fact's values put in; never fails (see _Fmt)."""
    try:
        return template.format_map(_Known(fact))
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return _FMT.vformat(template, (), fact)


def fact_key(fact: dict[str, Any]) -> str:
    """Which subject a fact is about: a candidate, a GPU's environment, a card, the job..."""
    t = fact.get("t")
    if t == "candidate":
        return f"{fact.get('tag', '')}{fact['gpu']}x{fact['count']}"
    if t == "environment":
        return f"env:{fact['gpu']}"
    if t == "card":
        return f"card:{fact['card']}"
    if t == "price":
        return f"price:{fact['what']}"
    return str(t)


def evidence(rule: Rule, fact: dict[str, Any]) -> dict[str, Any]:
    """The facts a rule looked at: its condition fields and its message's placeholders."""
    names = [c[0] for c in (*rule.when, *rule.any)]
    names += [r[0] for c in (*rule.when, *rule.any) if (r := _ref(c[2])) is not None]
    names += _PLACEHOLDER.findall(rule.then.message)
    out: dict[str, Any] = {}
    for n in dict.fromkeys(names):
        if n in fact:
            v = fact[n]
            out[n] = round(v, 4) if isinstance(v, float) else v
    return out


@dataclass
class Outcome:
    trace: list[TraceEntry] = field(default_factory=list)
    findings: list[tuple[str, Finding]] = field(default_factory=list)  # (subject key, finding)
    rejections: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # key -> [(rule, reason)]
    fired: dict[str, list[str]] = field(default_factory=dict)  # key -> rule ids

    def rules_for(self, key: str) -> list[str]:
        return self.fired.get(key, [])


def _finding(rule: Rule, step: str, fact: dict[str, Any], message: str) -> Finding:
    if fact.get("t") == "card":
        subject = str(fact.get("serial") or f"card {fact.get('card')}")
    else:
        subject = str(fact.get("gpu") or fact.get("what") or fact.get("t"))
    return Finding(rule=rule.id, severity=rule.then.severity, topic=rule.then.topic, message=message,
                   evidence=evidence(rule, fact), fix=fill(rule.then.fix, fact), source=rule.source,
                   step=step, subject=subject)  # type: ignore[arg-type]


def reject(rule: Rule, step: str, fact: dict[str, Any], key: str, message: str, out: Outcome, detail: bool) -> None:
    out.rejections.setdefault(key, []).append((rule.id, message))
    if detail:
        out.findings.append((key, _finding(rule, step, fact, message)))


def finding(rule: Rule, step: str, fact: dict[str, Any], key: str, message: str, out: Outcome, detail: bool) -> None:
    if detail:
        out.findings.append((key, _finding(rule, step, fact, message)))


def conclude(rule: Rule, step: str, fact: dict[str, Any], key: str, message: str, out: Outcome, detail: bool) -> None:
    return  # the trace entry made for every detailed firing is the whole consequence


ACTIONS: dict[str, Callable[..., None]] = {"reject": reject, "finding": finding, "conclude": conclude}


SEVERITY_ORDER = {"blocker": 0, "warning": 1, "info": 2}


def ordered_findings(outcome: Outcome) -> list[Finding]:
    """The findings once each per (rule, subject), blockers first."""
    seen: set[tuple[str, str]] = set()
    out: list[Finding] = []
    for _key, f in outcome.findings:
        if (f.rule, f.subject) not in seen:
            seen.add((f.rule, f.subject))
            out.append(f)
    return sorted(out, key=lambda f: SEVERITY_ORDER[f.severity])


def materialize(book: Rulebook, firings: list[Firing], facts: list[dict[str, Any]],
                detail: Callable[[str], bool] = lambda key: True) -> Outcome:
    """Apply each firing's consequence; fill messages in for rejections and detailed subjects."""
    out = Outcome()
    order = {rid: i for i, rid in enumerate(book.rules)}
    seen: set[tuple[str, str]] = set()
    for rule_id, idx in sorted(firings, key=lambda f: (f[1], order.get(f[0], 0))):
        rule = book.rules[rule_id]
        fact = facts[idx]
        key = fact_key(fact)
        if (rule_id, key) in seen:  # a detailed subject is asserted twice
            continue
        seen.add((rule_id, key))
        out.fired.setdefault(key, []).append(rule_id)
        show = detail(key)
        if not show and rule.then.action != "reject":
            continue
        message = fill(rule.then.message, fact)
        step = book.step_of[rule_id]
        if show:
            out.trace.append(TraceEntry(rule=rule_id, step=step, conclusion=message,
                                        facts=evidence(rule, fact), source=rule.source))
        ACTIONS[rule.then.action](rule, step, fact, key, message, out, show)
    return out
