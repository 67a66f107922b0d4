"""The fact vocabulary is complete both ways: every field a rule may name is produced (by the fact
builders, or by a ``pass`` rule's ``set``) and nothing is handed to the rules that the vocabulary
does not declare; every field and every policy value is read by some rule, or listed with why it
is there (``OUTPUT_ONLY``, ``POLICY_OUTSIDE_RULES`` in gpuwise/decide/facts.py, checked by
tests/test_rule_fixtures.py), and a policy value listed as read outside the rules is read there."""

from __future__ import annotations

import re
from typing import Any

import pytest

import gpuwise
from gpuwise.decide import engine, facts, rulebook

from .conftest import ROOT

RUNS = [
    (gpuwise.recommend, ROOT / "examples" / "lora-70b.yaml"),
    (gpuwise.recommend, ROOT / "examples" / "inference-70b.yaml"),
    (gpuwise.audit, ROOT / "examples" / "proposal-used-3090-mining.yaml"),
    (gpuwise.plan, ROOT / "examples" / "plan-team-4090.yaml"),
    # an offloaded run on owned GPUs (plan_owned_run), which the example plan has none of
    (gpuwise.plan, ROOT / "tests" / "rules" / "PLAN-OWNED-HOST-RAM-SHORT" / "input.yaml"),
]


@pytest.fixture(scope="module")
def asserted() -> dict[str, list[dict[str, Any]]]:
    """Every fact the commands hand to the rule engine on the examples, by fact type."""
    import gpuwise.decide.consult as consult_mod
    import gpuwise.decide.count_search as search_mod
    import gpuwise.plan.judge as judge_mod

    seen: dict[str, list[dict[str, Any]]] = {}
    real = engine.run

    def spy(book: Any, fs: list[dict[str, Any]]) -> Any:
        for f in fs:
            seen.setdefault(f.get("t", "candidate"), []).append(f)
        return real(book, fs)

    with pytest.MonkeyPatch.context() as mp:
        for module in (engine, consult_mod.engine, search_mod.engine, judge_mod.engine):
            mp.setattr(module, "run", spy)
        for run, path in RUNS:
            run(path)
    return seen


def test_every_declared_field_is_produced_and_nothing_undeclared_is(asserted):
    book = rulebook.load()
    set_by_pass = {name for r in book.rules.values() if r.then.action == "pass" for name in r.then.set}
    bookkeeping = {"t", "detail", "stage"}
    for fact, model in facts.FACT_MODELS.items():
        got = asserted.get(fact)
        assert got, f"no {fact} fact was asserted on the examples: add a run that makes one"
        keys = set().union(*(set(f) for f in got))
        never = sorted(set(model.model_fields) - keys - set_by_pass - bookkeeping)
        assert not never, f"{fact} fields declared but set by no builder (a rule on them never fires): {never}"
        extra = sorted(keys - set(model.model_fields) - bookkeeping)
        assert not extra, f"{fact} fields handed to the rules that the vocabulary does not declare: {extra}"


def test_pass_rules_set_only_fields_marked_as_set_by_a_stage():
    book = rulebook.load()
    for r in book.rules.values():
        for name in r.then.set if r.then.action == "pass" else ():
            assert facts.set_by(r.fact, name), f"{r.id} sets {name}, which facts.py does not mark set_by a stage"


def test_a_policy_value_read_outside_the_rules_is_read_where_it_says():
    """POLICY_OUTSIDE_RULES names where each value is read; that module must read it."""
    for name, where in facts.POLICY_OUTSIDE_RULES.items():
        paths = re.findall(r"gpuwise/[\w/]+\.py", where)
        assert paths, f"POLICY_OUTSIDE_RULES[{name!r}] names no module: {where!r}"
        assert any(name in (ROOT / p).read_text() for p in paths), f"{name} is not read in {paths}"
