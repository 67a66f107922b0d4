"""The short cuts taken for speed answer exactly as the long way does (issue 26)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import gpuwise
from gpuwise.decide import bounds

ROOT = Path(__file__).parent.parent
PROBES = (0.0, 0.5, 1, 3, 10, 20, 23.9, 24, 40, 70, 79.9, 80, 100, 141, 192, 200, 500, 1e3, 1e5, math.inf)


@pytest.mark.parametrize("rules", [None, ROOT / "examples" / "house-rules"])
def test_the_narrowed_judgement_answers_as_the_whole_one(monkeypatch, rules):
    """``Judgement.narrowed`` (the memory limit's bisection asks only about the need fields) gives
    the verdict the whole judgement gives, for every GPU a recommendation probes, at needs on
    both sides of every capacity, with the built-in rules and with house rules."""
    seen = {"asked": 0, "out": 0}
    whole = bounds.memory_limit_gb

    def both(book, known, made=None):
        base = {k: v for k, v in known.items() if k not in bounds._NEED}
        judgement = bounds.Judgement(book, base)
        narrowed = judgement.narrowed(bounds._NEED)
        for x in PROBES:
            need = bounds.Range(x, math.inf)
            more = {"need_gb": need, "need_requested_gb": need}
            assert narrowed.verdict(more) == judgement.verdict(more), (known.get("gpu"), x)
            seen["asked"] += 1
            seen["out"] += judgement.verdict(more) is False
        return whole(book, known, made)

    monkeypatch.setattr(bounds, "memory_limit_gb", both)
    for example in ("lora-70b.yaml", "inference-70b.yaml", "pretrain-7b.yaml"):
        gpuwise.recommend(ROOT / "examples" / example, rules=rules)
    assert seen["asked"] > 100 and 0 < seen["out"] < seen["asked"]  # both answers were met


def test_remembered_rule_firings_give_the_answer_a_fresh_session_gives():
    """engine.remembering: facts met before are not asserted again; what fired on them is replayed.
    A recommendation made twice inside, and with house rules (another rule book: not mixed up),
    equals the one made outside, and the second time the engine is handed only what it never saw."""
    from gpuwise.decide import engine

    example = ROOT / "examples" / "inference-70b.yaml"
    house = ROOT / "examples" / "house-rules"
    fresh = gpuwise.recommend(example).model_dump(mode="json")
    fresh_house = gpuwise.recommend(example, rules=house).model_dump(mode="json")
    with engine.remembering():
        first = gpuwise.recommend(example).model_dump(mode="json")
        asserted = []
        real = engine._Host.assert_facts

        def counting(self, name, facts):
            asserted.extend(facts)
            return real(self, name, facts)

        engine._Host.assert_facts = counting
        try:
            again = gpuwise.recommend(example).model_dump(mode="json")
        finally:
            engine._Host.assert_facts = real
        house_inside = gpuwise.recommend(example, rules=house).model_dump(mode="json")
    assert first == again == fresh and house_inside == fresh_house
    assert asserted == []  # every fact of the second consultation was remembered
    assert engine._REMEMBERED is None
