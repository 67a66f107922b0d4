"""The rule base: every rule fires when its conditions hold and stays silent when one of
them does not, through the real durable-rules engine; every rule explains itself; bad rule
files are errors that name the file and the rule."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from gpuwise.decide import engine as rules
from gpuwise.decide import rulebook
from gpuwise.decide.rulebook import _policy_ref, _ref, policy_expression
from gpuwise.errors import RuleError
from gpuwise.render import listing

BOOK = rulebook.load()
KEY_FIELDS = {"candidate": {"gpu": "h100-80gb-sxm", "count": 8, "acquisition": "rent"},
              "environment": {"gpu": "h100-80gb-sxm"}, "card": {"card": 1}, "price": {"what": "rent h100"},
              "job": {}, "proposal": {}, "plan_fleet": {"gpu": "rtx-4090"}, "plan_workload": {"workload": "w"},
              "plan_budget": {"period": "Q1"}, "plan_api": {"workload": "w", "provider": "p"}}


def _lit(value):
    """A condition's value with policy references put in (numbers, as the compiled rule sees them)."""
    name = _policy_ref(value)
    return BOOK.policy[name] if name else value


def _ref_(value):
    ref = _ref(value)
    if ref is None:
        return None
    other, times = ref
    return other, policy_expression(times, BOOK.policy) if isinstance(times, str) else float(times)


def _satisfy(rule: rulebook.Rule) -> dict:
    """A fact meeting every `when` condition and the first `any` condition."""
    fact: dict = {"t": rule.fact, **KEY_FIELDS[rule.fact]}
    if rule.fact == "candidate":
        fact["stage"] = BOOK.stage(rule.id)
    conds = [*rule.when, *rule.any[:1]]
    bounds: dict[str, list[float]] = {}
    for field, op, value in conds:  # literals first
        if _ref(value) is not None:
            continue
        value = _lit(value)
        if op == "==":
            fact[field] = value
        elif op == "!=":
            fact[field] = "something-else" if isinstance(value, str) else value + 1
        elif op == "in":
            fact[field] = value[0]
        elif isinstance(value, str):  # dates as text (YYYY-MM) compare as strings
            fact[field] = "0000-00" if op in ("<", "<=") else value + "~"
        else:
            lo, hi = bounds.setdefault(field, [-1e9, 1e9])
            if op in (">", ">="):
                bounds[field][0] = max(lo, value + (1e-3 if op == ">" else 0))
            else:
                bounds[field][1] = min(hi, value - (1e-3 if op == "<" else 0))
    for field, (lo, hi) in bounds.items():
        fact[field] = (lo + hi) / 2 if lo > -1e9 and hi < 1e9 else (lo + 1 if lo > -1e9 else hi - 1)
    refb: dict[str, list[float]] = {}
    # others compared from below get smaller values than others compared from above
    order = sorted((c for c in conds if _ref_(c[2])), key=lambda c: c[1] in ("<", "<="))
    for i, (_f, _op, value) in enumerate(order):
        other = _ref_(value)[0]
        if other not in fact and _f not in fact:
            fact[other] = 10.0 * (i + 1)
    for field, op, value in conds:  # then fields compared with other fields
        ref = _ref_(value)
        if ref is None:
            continue
        other, times = ref
        if field in fact and other not in fact:  # the field is pinned: move the other side instead
            a = fact[field]
            fact[other] = {">": a - 1, ">=": a, "<": a + 1, "<=": a, "==": a, "!=": a + 1}[op] / times
            continue
        target = fact.setdefault(other, 10.0 * (1 + len(refb) + sum(1 for c in conds if c[0] == other))) * times
        lo, hi = refb.setdefault(field, [-1e9, 1e9])
        if op in (">", ">="):
            refb[field][0] = max(lo, target + (1e-3 if op == ">" else 0))
        elif op in ("<", "<="):
            refb[field][1] = min(hi, target - (1e-3 if op == "<" else 0))
        else:
            refb[field] = [target + (1 if op == "!=" else 0)] * 2
    for field, (lo, hi) in refb.items():
        fact[field] = (lo + hi) / 2 if lo > -1e9 and hi < 1e9 else (lo + 1 if lo > -1e9 else hi - 1)
    return fact


def _violate(rule: rulebook.Rule, fact: dict) -> dict:
    field, op, value = rule.when[0]
    bad = dict(fact)
    ref = _ref_(value)
    target = fact[ref[0]] * ref[1] if ref else _lit(value)
    if op == "==":
        bad[field] = (not value) if isinstance(value, bool) else ("zzz" if isinstance(value, str) else target + 1)
    elif op == "!=":
        bad[field] = target
    elif op == "in":
        bad[field] = "zzz"
    elif op in (">", ">="):
        bad[field] = target - 1
    else:
        bad[field] = target + 1
    return bad


def _fired(fact: dict) -> set[str]:
    return {rid for rid, _, _ in rules.run(BOOK, [fact]).firings}


def _without_a_case() -> list[str]:
    """Rules with no realistic case yet (tests/rules/PENDING): until they get one
    (tests/test_rule_fixtures.py), a fact made from their own conditions at least checks that they
    compile and fire. A rule with a case is tested by the case instead."""
    from .test_rule_fixtures import _pending

    return [rid for rid in BOOK.rules if rid in _pending()]


@pytest.mark.parametrize("rule_id", _without_a_case())
def test_rule_fires_and_stays_silent(rule_id: str) -> None:
    rule = BOOK.rules[rule_id]
    fact = _satisfy(rule)
    assert rule_id in _fired(fact), f"{rule_id} did not fire on {fact}"
    assert rule_id not in _fired(_violate(rule, fact)), f"{rule_id} fired with its first condition broken"


@pytest.mark.parametrize("rule_id", list(BOOK.rules))
def test_explain_every_rule(rule_id: str) -> None:
    text = listing.explain(rule_id.lower())
    rule = BOOK.rules[rule_id]
    flat = " ".join(text.split())  # the listing wraps to the terminal's width (80 when not a terminal)
    assert flat.startswith(f"{rule_id} - {rule.title}")
    assert " ".join(rule.source.split()) in flat and rule.rationale.split()[0] in flat


def test_rule_files_follow_the_steps() -> None:
    steps = [rf.step for _, rf in BOOK.files]
    order = ["memory", "compute", "interconnect", "tco", "pitfalls"]
    assert steps == sorted(steps, key=order.index)
    assert {rf.ruleset for _, rf in BOOK.files} >= {
        "memory", "compute", "interconnect", "tco", "compatibility", "used-hardware", "cloud-fees",
        "power-cooling", "licensing"}


def test_the_chain_is_visible_in_the_yaml() -> None:
    """A step's pass rules assert what the next step's pass rules match: every pass rule of the
    memory, compute and interconnect steps sets a verdict field alike (fits, fast_enough, scales),
    and every pass rule of the next step has that field in its conditions (the compiler's stage
    field only keeps a rule from looking at a candidate before its step)."""
    core = ["memory", "compute", "interconnect", "tco"]
    passes: dict[str, list[rulebook.Rule]] = {s: [] for s in core}
    for rid, rule in BOOK.rules.items():
        if rule.then.action == "pass":
            passes[BOOK.stage(rid)].append(rule)
    for step, nxt in itertools.pairwise(core):
        assert passes[step] and passes[nxt], (step, nxt)
        sets = [set(r.then.set.items()) for r in passes[step]]
        alike = set.intersection(*sets)
        assert alike, f"the {step} step's pass rules set no verdict alike"
        for r in passes[nxt]:
            matched = {(f, v) for f, op, v in r.when if op == "=="}
            assert matched & alike, f"{r.id} ({nxt}) does not match what the {step} step's pass rules set: {alike}"


GPU_FIGURE_FIELDS = {
    "capacity_gb", "usable_gb", "cc", "tdp_w", "intra_gb_s", "launch_year", "memory_mib", "claimed_memory_mib",
    "gpu_temp_c", "gpu_temp_limit_c", "gpu_slowdown_temp_c", "gpu_shutdown_temp_c", "mem_temp_c",
    "mem_temp_limit_c", "power_limit_w", "default_power_limit_w", "link_width", "link_width_max", "link_gen",
    "link_gen_max",
}
"""Fact fields that carry a GPU's own figures (its datasheet or its nvidia-smi report)."""

def _literal_gpu_figures() -> set[tuple[str, str]]:
    """(rule, field) where a rule compares a GPU figure field with a number written in the rule.
    The 'not known' sentinels -1 and 0 (as in `limit > 0`) are not figures."""
    found = set()
    for _, rf in BOOK.files:
        for rule in rf.rules:
            for field, _op, value in (*rule.when, *rule.any):
                number = isinstance(value, int | float) and not isinstance(value, bool)
                if field in GPU_FIGURE_FIELDS and number and value not in (0, -1):
                    found.add((rule.id, field))
    return found


def test_no_gpu_figure_in_a_rule() -> None:
    """Rules compare facts; thresholds are policy (fractions, days, percentages), never a card's spec
    (a `[capacity_gb, "<", 30]` would be a 24 GB card written into a rule)."""
    assert _literal_gpu_figures() == set()


def _write(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "bad.yaml"
    p.write_text(body)
    return p


def test_malformed_rule_file_names_file_and_rule(tmp_path: Path) -> None:
    p = _write(tmp_path, """schema_version: 1
ruleset: memory
step: memory
rules:
  - id: MEM-TYPO
    title: A rule with a misspelt field
    fact: candidate
    when:
      - [need_bets_gb, ">", 1]
    then: {action: finding, severity: warning, topic: memory, message: "x {count}"}
    rationale: "Rationale long enough."
    source: "test"
""")
    with pytest.raises(RuleError) as err:
        rulebook.load_rulefile(p, BOOK.policy)
    line = err.value.line()
    assert str(p) in line and "MEM-TYPO" in line and "need_bets_gb" in line


def test_rule_file_unknown_placeholder(tmp_path: Path) -> None:
    p = _write(tmp_path, """schema_version: 1
ruleset: memory
step: memory
rules:
  - id: MEM-X
    title: Placeholder typo
    fact: candidate
    when: [[count, "==", 1]]
    then: {action: finding, severity: warning, topic: memory, message: "{gpu_nmae} fits"}
    rationale: "Rationale long enough."
    source: "test"
""")
    with pytest.raises(RuleError, match="gpu_nmae"):
        rulebook.load_rulefile(p, BOOK.policy)


def test_sessions_are_cleaned_up() -> None:
    for _ in range(50):
        rules.run(BOOK, [{"t": "job", "full_training": False}])
    assert rules.live_sessions() == 0
