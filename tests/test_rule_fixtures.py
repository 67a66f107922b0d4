"""A realistic case per rule (ruff-style): ``tests/rules/<RULE-ID>/`` holds a small requirements
or proposal file (``input.yaml``) and what the rule must do with it (``expected.yaml``): whether it
fires, with which severity, on which candidate. One parametrised test runs them all through the
real commands (``gpuwise.recommend`` / ``gpuwise.audit`` / ``gpuwise.plan``) with the built-in rules;
a case may bring the small overlay a real user would (``knowledge:``, ``rules:``).

``expected.yaml``::

    command: recommend          # or audit, or plan
    knowledge: knowledge        # optional: a --knowledge overlay (a team's own card entry, a site's
                                # policy value, a case's own dated figures), relative to the case's
                                # folder; a knowledge/ folder beside the case is used without it
    rules: house-rules          # optional: a --rules folder of house rules, likewise
    fires: true                 # false: a near miss the rule must stay silent on
    severity: blocker           # a finding's severity (a reject is a blocker); omitted for pass/conclude
    subject: rtx-4090 x 8       # the candidate (GPU x count) the rule must hit -- a rule on an audit's
                                # proposal hits the proposed configuration -- or its subject: env:<gpu>
                                # (an environment), a card's serial, job, a plan's workload or budget
                                # period, a price item; a list: each must be hit. Required where it fires
    why: what the case is, in a sentence

Every rule of rules/*.yaml needs a case; a rule without one fails
:func:`test_every_rule_has_a_case` with the list to add (``tests/rules/PENDING`` lists the
rules that had none when the check was introduced, each to be worked off)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import gpuwise
from gpuwise.decide import rulebook

from .conftest import load_yaml

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest: 32 -> 16 CPU-s here

CASES = Path(__file__).parent / "rules"
PENDING_FILE = CASES / "PENDING"


def _cases() -> list[Path]:
    return sorted(p for p in CASES.iterdir() if p.is_dir() and (p / "expected.yaml").is_file())


def _pending() -> set[str]:
    if not PENDING_FILE.is_file():
        return set()
    return {line.split("#")[0].strip() for line in PENDING_FILE.read_text().splitlines()} - {""}


def _hits(result: Any) -> dict[str, set[str]]:
    """Rule id -> the subjects it fired on (candidates as 'gpu x count', findings' subjects)."""
    out: dict[str, set[str]] = {}
    cands = list(getattr(result, "candidates", None) or [])
    for extra in ("proposed", "alternative"):
        if getattr(result, extra, None) is not None:
            cands.append(getattr(result, extra))
    for c in cands:
        for r in c.rules:
            out.setdefault(r, set()).add(f"{c.gpu} x {c.count}")
    for f in result.findings:
        out.setdefault(f.rule, set()).add(f.subject)
    proposed = getattr(result, "proposed", None)
    for t in result.trace:
        out.setdefault(t.rule, set()).add(t.subject)
        if t.subject == "proposal" and proposed is not None:  # a rule on the proposal hits what it proposes
            out[t.rule].add(f"{proposed.gpu} x {proposed.count}")
    for g in getattr(result, "alternative_gives_up", None) or []:  # an audit's comparison rules: the figure
        out.setdefault(g.rule, set()).add(g.what)
    return out


def _severity(result: Any, rule_id: str) -> set[str]:
    """The severities the rule was given: its findings', and a blocker where it rejected a
    candidate (the candidate's reasons name it; a reject is a blocker even when the result lists
    no finding for it, as for a count of a GPU another count of which is feasible)."""
    got = {f.severity for f in result.findings if f.rule == rule_id}
    cands = list(getattr(result, "candidates", None) or [])
    cands += [c for c in (getattr(result, "proposed", None), getattr(result, "alternative", None)) if c is not None]
    if any(s.id == rule_id for c in cands for s in (c.reason_sentences or [])):
        got.add("blocker")
    return got


def run_case(case: Path) -> tuple[dict[str, Any], Any]:
    expected = load_yaml((case / "expected.yaml").read_text())
    source = case / "input.yaml"
    run = {"audit": gpuwise.audit, "recommend": gpuwise.recommend, "plan": gpuwise.plan}[expected["command"]]
    extra = {key: str((case / expected[key]).resolve()) for key in ("knowledge", "rules") if key in expected}
    if "knowledge" not in extra and (case / "knowledge").is_dir():
        # a case's own dated figures (an old exchange rate), so its verdict keeps holding as the
        # shipped ones are refreshed
        extra["knowledge"] = str(case / "knowledge")
    for key, path in extra.items():
        assert Path(path).is_dir(), f"tests/rules/{case.name}: {key}: {expected.get(key, key)} is not a folder"
    return expected, run(source, **extra)


@pytest.mark.parametrize("case", _cases(), ids=lambda p: p.name)
def test_rule_case(case: Path) -> None:
    rule_id = case.name
    book = rulebook.load()
    assert rule_id in book.rules, f"tests/rules/{rule_id}: no such rule (renamed? move the case)"
    expected, result = run_case(case)
    check(rule_id, expected, result)


def check(rule_id: str, expected: dict[str, Any], result: Any) -> None:
    """What a case expects of its rule, asserted."""
    hits = _hits(result)
    if not expected["fires"]:
        assert rule_id not in hits, f"{rule_id} fired on {sorted(hits.get(rule_id, []))}: {expected.get('why')}"
        return
    assert rule_id in hits, f"{rule_id} did not fire: {expected.get('why')}"
    if "severity" in expected:
        assert expected["severity"] in _severity(result, rule_id), (rule_id, _severity(result, rule_id))
    if "subject" in expected:
        subjects = expected["subject"] if isinstance(expected["subject"], list) else [expected["subject"]]
        for subject in map(str, subjects):  # each must be hit: exactly, or a card named with its report
            assert any(subject == s or s.startswith(subject + " (") for s in hits[rule_id]), (
                subject, sorted(hits[rule_id]))


def test_every_rule_has_a_case() -> None:
    """A rule added without a case fails here, with the list of cases to add."""
    book = rulebook.load()
    have = {p.name for p in _cases()}
    pending = _pending()
    missing = sorted(set(book.rules) - have - pending)
    assert not missing, ("rules without a case: add tests/rules/<RULE-ID>/input.yaml and expected.yaml for "
                         + ", ".join(missing))
    stale = sorted(pending & have)
    assert not stale, "these rules have a case now: remove them from tests/rules/PENDING: " + ", ".join(stale)
    unknown = sorted(pending - set(book.rules))
    assert not unknown, "tests/rules/PENDING names rules that do not exist: " + ", ".join(unknown)


def test_every_case_that_fires_names_its_subject_and_severity() -> None:
    """A case that fires says what it hits and how hard: the candidate or subject, and the severity
    of a ``reject`` or ``finding`` (a ``pass`` or ``conclude`` has none)."""
    book = rulebook.load()
    vague = []
    for case in _cases():
        expected = load_yaml((case / "expected.yaml").read_text())
        rule = book.rules.get(case.name)
        if rule is None or not expected.get("fires"):
            continue
        graded = rule.then.action in ("reject", "finding")
        if "subject" not in expected or graded != ("severity" in expected):
            vague.append(case.name)
    assert not vague, "cases that fire without a subject, or with a severity their action lacks: " + ", ".join(vague)


def test_a_case_whose_rule_does_not_do_what_it_expects_fails() -> None:
    """The check can fail: the same result against a flipped expectation, another severity or
    another subject is caught."""
    case = CASES / "MEM-NO-FIT"
    expected, result = run_case(case)
    check("MEM-NO-FIT", expected, result)
    for wrong in ({**expected, "fires": False}, {**expected, "severity": "info"},
                  {**expected, "subject": "no-such-gpu x 3"}):
        with pytest.raises(AssertionError):
            check("MEM-NO-FIT", wrong, result)


def _read_by_rules(book: rulebook.Rulebook) -> tuple[dict[str, set[str]], set[str]]:
    """Fact fields (by fact type) and policy names some rule reads: in a condition, a reference, a
    policy expression, a value a pass rule sets, or a message or fix placeholder."""
    import re

    from gpuwise.messages import placeholders

    fields: dict[str, set[str]] = {}
    policy: set[str] = set()
    for r in book.rules.values():
        mine = fields.setdefault(r.fact, set())
        for name, _op, value in (*r.when, *r.any):
            mine.add(name)
            ref = rulebook._ref(value)
            if ref is not None:
                mine.add(ref[0])
                if isinstance(ref[1], str):
                    policy.update(re.findall(r"[a-z_][a-z0-9_]*", ref[1]))
            pname = rulebook._policy_ref(value)
            if pname is not None:
                policy.add(pname)
        mine.update(v[1:] for v in r.then.set.values() if isinstance(v, str) and v.startswith("$"))
        mine.update(placeholders(r.then.message) + placeholders(r.then.fix))
    return fields, policy


def test_every_fact_field_and_policy_value_is_read_by_a_rule_or_listed_as_output_only(kb) -> None:
    from gpuwise.decide.facts import FACT_MODELS, OUTPUT_ONLY, POLICY_OUTSIDE_RULES

    book = rulebook.load()
    fields, policy = _read_by_rules(book)
    for fact, model in FACT_MODELS.items():
        listed = OUTPUT_ONLY.get(fact, {})
        unread = sorted(f for f in model.model_fields if f not in fields.get(fact, set()) and f not in listed)
        assert not unread, (f"{fact} fields no rule reads: {unread}: read them in a rule, or list them in "
                            "gpuwise/decide/facts.py OUTPUT_ONLY with why they are there")
        read_now = sorted(f for f in listed if f in fields.get(fact, set()))
        assert not read_now, f"{fact} fields listed as output-only that a rule reads: {read_now}"
        assert not set(listed) - set(model.model_fields), f"OUTPUT_ONLY names unknown {fact} fields"
    unread_policy = sorted(set(kb.policy) - policy - set(POLICY_OUTSIDE_RULES))
    assert not unread_policy, (f"policy values no rule reads: {unread_policy} "
                               "(read one in a rule, or list it in POLICY_OUTSIDE_RULES)")
    assert not set(POLICY_OUTSIDE_RULES) & policy, "a policy value listed as read outside the rules is read by a rule"
