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


def test_an_ascii_text_skips_the_escape_pattern_only_when_the_pattern_finds_nothing():
    """output.escape_controls returns a plain ASCII text as it is without running the pattern (a
    batch's JSON lines are megabytes): for every ASCII character, alone and inside text, the short
    cut is taken exactly where the pattern finds nothing, and the result is the pattern's."""
    from gpuwise.render import output

    calls = []
    real = output._CONTROL

    class Counting:
        def sub(self, repl, text):
            calls.append(text)
            return real.sub(repl, text)

    for code in range(128):
        for text in (chr(code), f"gpu {chr(code)} x8\n\tok", '{"title": "a' + chr(code) + '"}'):
            calls.clear()
            output._CONTROL = Counting()
            try:
                got = output.escape_controls(text)
            finally:
                output._CONTROL = real
            assert got == real.sub(output._escaped, text)
            assert bool(calls) == (real.search(text) is not None), (code, text)
    assert output.escape_controls("\x1b[2J") == "\\u001b[2J"  # ESC written out (hand-escaped)
    assert output.escape_controls("a\u200bb") == "a\\u200bb"  # not ASCII: the pattern runs


def test_a_step_timed_from_its_kept_constants_is_the_step(monkeypatch, tmp_path):
    """serving.step's figures that do not depend on the batch are kept per engine and copy
    (StepConsts): the seconds the load model asks for alone are the step record's, for the copies the
    serving questions time (dense, MoE with expert parallelism and attention data parallelism,
    speculative decoding); a copy that is another object gets its own constants."""
    import importlib

    S = importlib.import_module("gpuwise.estimators.serving.step")
    L = importlib.import_module("gpuwise.estimators.serving.load")
    real, timed = L._point, []

    def spy(job, eng, rep, conc, c=None):
        timed.append((job, eng, rep))
        return real(job, eng, rep, conc, c)

    monkeypatch.setattr(L, "_point", spy)
    drafted = tmp_path / "eagle.yaml"  # speculative decoding: the verify step and the drafter's passes
    drafted.write_text((ROOT / "examples" / "inference-70b.yaml").read_text().replace(
        "  precision: bf16\n", "  precision: bf16\n  speculative: {method: eagle3}\n"))
    questions = [drafted, *sorted((ROOT / "tests" / "data" / "heldout").glob("*serve*.yaml"))]
    for path in questions:
        gpuwise.recommend(path)
    pairs = list({(id(e), id(r)): (j, e, r) for j, e, r in timed}.values())
    assert len(pairs) > 50 and any(e.spec for _j, e, _r in pairs) and any(r.layout.ep > 1 for _j, _e, r in pairs)
    for job, eng, rep in pairs[::7]:
        c = S.consts(job, eng, rep)
        assert S.consts(job, eng, rep) is c
        for decode, prefill, kv, pctx in ((1.0, 0.0, 1536.0, 0.0), (64.0, 2048.0, 4096.0, 1024.0),
                                          (0.0, 8192.0, 0.0, 4096.0), (300.0, 0.0, 9000.0, 0.0)):
            assert S.seconds_of(c, decode, prefill, kv, pctx) == S.step(job, eng, rep, decode, prefill, kv,
                                                                         pctx).seconds
            assert S.per_token(c, decode, kv) == S.token_time(job, eng, rep, decode, kv)
        other = type(rep)(**rep.__dict__)
        assert S.consts(job, eng, other) is not c and S.consts(job, eng, other).rep is other
