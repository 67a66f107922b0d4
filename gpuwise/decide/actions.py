"""The named consequents rules refer to (``then.action``), applied in one place.

* ``reject``   — the subject is infeasible; the message is its reason (and a blocker finding
  about it). A reject on an ``environment`` fact excludes every candidate of that GPU.
* ``finding``  — a judgement with severity, topic, evidence, fix and source.
* ``conclude`` — a step's conclusion, kept in the trace.
* ``pass``     — the candidate passes the step; the engine asserted it at the next stage
  (:mod:`gpuwise.decide.engine`); here the firing becomes the step's conclusion.

The engine records each firing as (rule id, fact, stage); the consequences are applied here,
after the session, so an error in them surfaces normally. Messages are filled in for every
rejection (they are the candidates' reasons) and for the subjects a result shows in detail;
every other firing is still counted against its subject.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import Any

from ..checked import made
from ..frozen import frozen, record
from ..messages import fill, placeholders
from ..results import Finding, TraceEntry
from .engine import Session
from .rulebook import Rule, Rulebook, _ref

SEVERITY_ORDER = {"blocker": 0, "warning": 1, "info": 2}


def fact_key(fact: dict[str, Any]) -> str:
    """Which subject a fact is about: a candidate, a GPU's environment, a card, a price, the job."""
    t = fact.get("t")
    if t == "candidate":
        return f"{fact.get('tag') or ''}{fact['gpu']}x{fact['count']}:{fact['acquisition']}"
    if t == "environment":
        return f"env:{fact['gpu']}"
    if t == "card":
        return f"card:{fact['card']}"
    if t == "price":
        return f"price:{fact['what']}"
    return str(t)


def evidence(rule: Rule, values: dict[str, Any]) -> dict[str, Any]:
    """The facts a rule looked at: its condition fields and its message's placeholders."""
    names = [c[0] for c in (*rule.when, *rule.any)]
    names += [r[0] for c in (*rule.when, *rule.any) if (r := _ref(c[2])) is not None]
    names += placeholders(rule.then.message)
    out: dict[str, Any] = {}
    for n in dict.fromkeys(names):
        if n in values:
            v = values[n]
            out[n] = round(v, 4) if isinstance(v, float) else v
    return out


def _values(rule: Rule, values: dict[str, Any]) -> dict[str, Any]:
    """What the rule's message and fix need; a value an estimator worded comes with its parts
    (``<name>_phrases``: message ids and values), which a report words in its own language."""
    out: dict[str, Any] = {}
    for n in dict.fromkeys(placeholders(rule.then.message) + placeholders(rule.then.fix)):
        if n in values:
            out[n] = values[n]
            if f"{n}_phrases" in values:
                out[f"{n}_phrases"] = values[f"{n}_phrases"]
    return out


@frozen
class Rejection:
    rule: str
    message: str
    template: str
    values: dict[str, Any]


@record
class Conclusion:
    rule: str
    template: str
    values: dict[str, Any]
    text: str


@record
class Outcome:
    trace: list[TraceEntry] = field(default_factory=list)
    findings: list[tuple[str, Finding]] = field(default_factory=list)  # (subject key, finding)
    rejections: dict[str, list[Rejection]] = field(default_factory=dict)  # key -> why it is out
    fired: dict[str, list[str]] = field(default_factory=dict)  # key -> rule ids
    conclusions: dict[str, dict[str, Conclusion]] = field(default_factory=dict)  # key -> step -> conclusion
    reached: dict[str, str] = field(default_factory=dict)  # candidate key -> furthest stage
    gpu_rejections: dict[str, list[Rejection]] = field(default_factory=dict)  # gpu id -> why its candidates are out

    def rules_for(self, key: str) -> list[str]:
        return self.fired.get(key, [])

    def decided(self, key: str) -> bool:
        """A candidate is feasible when it reached the end of the chain and nothing rejected it."""
        return self.reached.get(key) == "decided" and not self.rejections.get(key)


def _subject(fact: dict[str, Any]) -> str:
    if fact.get("t") == "card":
        return str(fact.get("serial") or f"card {fact.get('card')}")
    return str(fact.get("gpu") or fact.get("what") or fact.get("t"))


def _candidate(fact: dict[str, Any]) -> str:
    """The configuration a candidate's finding judged (its key), so a report can tell a finding about the answer
    from one about another count of the same GPU (hostile round 27: NET-SLOW-NETWORK of 64 rented Sparks read as
    about an answer of two): GPU x count : acquisition, without an audit's tag (its findings are its proposal's)."""
    return f"{fact['gpu']}x{fact['count']}:{fact['acquisition']}" if fact.get("t") == "candidate" else ""


def _finding(book: Rulebook, rule: Rule, step: str, values: dict[str, Any], message: str,
             subject: str, candidate: str = "") -> Finding:
    return made(Finding, dict(rule=rule.id, severity="blocker" if rule.then.action == "reject" else rule.then.severity,
                   topic=rule.then.topic, message=message, evidence=evidence(rule, values),
                   fix=fill(rule.then.fix, values), source=rule.source, step=step, subject=subject,  # type: ignore[arg-type]
                   candidate=candidate,
                   house=rule.id in book.house, template=rule.then.message, fix_template=rule.then.fix,
                   values=_values(rule, values)))


def materialize(book: Rulebook, session: Session, facts: list[dict[str, Any]],
                detail: Callable[[str], bool] = lambda key: True, sentences: bool = True,
                reasons: Callable[[str], bool] | None = None) -> Outcome:
    """Apply each firing's consequence; fill messages in for rejections and detailed subjects
    (with ``sentences`` false, none: what fired and what was rejected, for the ranking).
    ``reasons``: the subjects not detailed whose rejections are worded too (default: all; an
    audit words only its proposal's: it shows no other candidate's reasons)."""
    out = Outcome()
    keys = [fact_key(f) for f in facts]
    order = {rid: i for i, rid in enumerate(book.rules)}
    seen: set[tuple[str, str]] = set()
    for idx, stage in session.reached.items():
        out.reached[keys[idx]] = stage
    for rule_id, idx, stage in sorted(session.firings, key=lambda f: (f[1], order.get(f[0], 0))):
        rule = book.rules[rule_id]
        fact = facts[idx]
        key = keys[idx]
        if (rule_id, key) in seen:
            continue
        seen.add((rule_id, key))
        out.fired.setdefault(key, []).append(rule_id)
        action = rule.then.action
        show = detail(key)
        if not show and action != "reject":
            continue
        if not sentences or (not show and reasons is not None and not reasons(key)):
            if action == "reject":
                target = out.gpu_rejections.setdefault(fact["gpu"], []) if fact.get("t") == "environment" else \
                    out.rejections.setdefault(key, [])
                target.append(Rejection(rule_id, "", "", {}))
            continue
        values = fact
        if stage is not None and any((idx, s) in session.stage_values for s in ("compute", "interconnect", "tco",
                                                                               "decided")):
            values = {**fact}
            for s in ("compute", "interconnect", "tco", "decided"):
                values.update(session.stage_values.get((idx, s), {}))
        message = fill(rule.then.message, values)
        step = book.step_of[rule_id]
        if show:
            out.trace.append(made(TraceEntry, dict(
                rule=rule_id, step=step, conclusion=message, facts=evidence(rule, values),
                                        source=rule.source, subject=key, stage=stage, action=action,
                                        template=rule.then.message, values=_values(rule, values))))
        if action == "reject":
            subject = _subject(fact)
            why = Rejection(rule_id, message, rule.then.message, _values(rule, values))
            if fact.get("t") == "environment":
                out.gpu_rejections.setdefault(fact["gpu"], []).append(why)
            else:
                out.rejections.setdefault(key, []).append(why)
            if show:
                out.findings.append((key, _finding(book, rule, step, values, message, subject, _candidate(fact))))
        elif action == "finding":
            out.findings.append((key, _finding(book, rule, step, values, message, _subject(fact),
                                               _candidate(fact))))
        elif action in ("pass", "conclude") and stage is not None:
            out.conclusions.setdefault(key, {}).setdefault(
                step, Conclusion(rule_id, rule.then.message, _values(rule, values), message))
    # an environment reject excludes every candidate of that GPU
    for idx, fact in enumerate(facts):
        if fact.get("t") == "candidate" and fact["gpu"] in out.gpu_rejections:
            out.rejections.setdefault(keys[idx], []).extend(out.gpu_rejections[fact["gpu"]])
    return out


def ordered_findings(outcome: Outcome, keep: Callable[[str], bool] = lambda key: True,
                     also: Callable[[str, Finding], bool] = lambda key, f: True,
                     first: str | None = None) -> list[Finding]:
    """The findings once each per (rule, subject), blockers first: those about the subjects ``keep``
    keeps, and of them the ones ``also`` keeps; a rule that fired on the subject ``first`` (the answer) is said
    of it, not of another configuration of its GPU."""
    seen: set[tuple[str, str]] = set()
    out: list[Finding] = []
    for key, f in sorted(outcome.findings, key=lambda kf: kf[0] != first) if first else outcome.findings:
        if keep(key) and also(key, f) and (f.rule, f.subject) not in seen:
            seen.add((f.rule, f.subject))
            out.append(f)
    return sorted(out, key=lambda f: SEVERITY_ORDER[f.severity])
