"""Pydantic core schemas kept in the user's cache (gpuwise/prebuilt.py): a schema from the cache is
the one pydantic generates, the models validate and write alike with it, and a bad entry, a class
outside gpuwise or a schema that does not pickle falls back to pydantic's own generation."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import Field

from gpuwise import prebuilt
from gpuwise.inputs import strict
from gpuwise.inputs.schema import Proposal, Requirements, coerce
from gpuwise.plan.result import PlanResult
from gpuwise.results import AuditResult, EstimateResult, RecommendResult

EXAMPLES = Path(__file__).parent.parent / "examples"
TOPS = [Requirements, Proposal, RecommendResult, AuditResult, EstimateResult, PlanResult]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("GPUWISE_NO_CACHE", "0")
    monkeypatch.setattr(prebuilt, "_SERVED", set())
    return tmp_path / "xdg" / "gpuwise"


def entries(d: Path) -> list[Path]:
    return sorted(d.glob("schema-*.pickle"))


def complete(model: type) -> None:
    """Build ``model``'s schema, validator and serializer again, as in a new process: pydantic
    calls ``__pydantic_on_complete__`` when it completes a class the first time, not when a
    complete one is rebuilt."""
    model.model_rebuild(force=True)
    model.__pydantic_on_complete__()


@pytest.mark.parametrize("model", TOPS, ids=lambda m: m.__name__)
def test_a_schema_from_the_cache_is_the_generated_one(cache_dir, model):
    complete(model)  # generated, then stored
    generated = model.__pydantic_core_schema__
    assert len(entries(cache_dir)) == 1
    complete(model)  # from the cache
    assert prebuilt._name(model) in prebuilt._SERVED
    assert model.__pydantic_core_schema__ == generated
    assert repr(model.__pydantic_core_schema__) == repr(generated)
    assert len(entries(cache_dir)) == 1  # served, not stored again


def test_inputs_validate_and_results_write_alike_from_the_cache(cache_dir):
    from gpuwise.decide.recommend import recommend

    complete(Requirements)
    complete(RecommendResult)
    req = coerce(Requirements, str(EXAMPLES / "lora-70b.yaml"))
    first = recommend(req).model_dump(mode="json")
    complete(Requirements)
    complete(RecommendResult)
    assert {prebuilt._name(Requirements), prebuilt._name(RecommendResult)} <= prebuilt._SERVED
    again = coerce(Requirements, str(EXAMPLES / "lora-70b.yaml"))
    assert again == req
    assert recommend(again).model_dump(mode="json") == first
    with pytest.raises(Exception, match="params_b"):  # a validator of its own still runs
        coerce(Requirements, {"workload": {"task": "finetune", "method": "lora", "model": {"params_b": -1}}})


def test_a_corrupt_entry_is_generated_afresh_and_replaced(cache_dir):
    complete(Requirements)
    generated = Requirements.__pydantic_core_schema__
    [entry] = entries(cache_dir)
    entry.write_bytes(b"\x80\x05not a pickle")
    complete(Requirements)
    assert prebuilt._name(Requirements) not in prebuilt._SERVED
    assert Requirements.__pydantic_core_schema__ == generated
    complete(Requirements)
    assert prebuilt._name(Requirements) in prebuilt._SERVED


def test_no_cache_when_turned_off(cache_dir, monkeypatch):
    monkeypatch.setenv("GPUWISE_NO_CACHE", "1")
    complete(Requirements)
    complete(Requirements)
    assert not prebuilt._SERVED and not entries(cache_dir)


def test_a_class_outside_gpuwise_is_not_kept(cache_dir):
    """A test's (or a user's) subclass: its module is not among gpuwise's files, so an edit to
    it would not change the key."""

    class Mine(Requirements):
        note: str = ""

    complete(Mine)
    assert prebuilt._name(Mine) is None and not entries(cache_dir)
    assert Mine.model_validate({"workload": {"task": "inference", "model": "llama-3-8b"}, "note": "x"}).note == "x"


def test_a_schema_that_does_not_pickle_is_not_kept(cache_dir, monkeypatch):
    class Odd(strict.Strict):
        values: list[int] = Field(default_factory=lambda: [1])

    Odd.__module__, Odd.__qualname__ = strict.__name__, "Odd"
    monkeypatch.setattr(strict, "Odd", Odd, raising=False)
    complete(Odd)
    assert prebuilt._name(Odd) == "gpuwise.inputs.strict.Odd"
    assert not entries(cache_dir)
    assert not list(cache_dir.glob(".schema-*"))  # no temporary file left behind
    assert Odd().values == [1]
