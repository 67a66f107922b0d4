"""gpuwise.checked.made: the instance validation gives, without building the model's validator when
the values already have their fields' types; anything else is validated (and refused) as before."""

from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from gpuwise.checked import made
from gpuwise.results import Assumption, Candidate, Sentence


class Inner(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)
    a: int


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)
    name: str
    share: float
    count: int
    either: int | float = 0
    maybe: float | None = None
    kind: Literal["rent", "buy"] = "rent"
    parts: list[Any] = []
    sizes: dict[str, int] = {}
    inner: Inner | None = None
    inners: list[Inner] = []
    free: Any = None


def _same(values: dict[str, Any]) -> Record:
    got = made(Record, values)
    want = Record(**values)
    assert got == want
    assert got.model_fields_set == want.model_fields_set
    for k in Record.model_fields:  # the same types too: 1 and 1.0 print differently in JSON
        assert type(getattr(got, k)) is type(getattr(want, k)), k
    return got


def test_values_of_their_own_types_are_taken_as_they_are():
    got = _same({"name": "x", "share": 0.5, "count": 3, "either": 2.5, "maybe": None, "kind": "buy",
                 "parts": [["", "id", {}]], "sizes": {"a": 1}, "inner": Inner(a=1), "inners": [Inner(a=2)],
                 "free": (1, 2)})
    assert got.free == (1, 2)  # Any is not converted


def test_lossless_conversions_match_pydantic():
    got = _same({"name": "x", "share": 2, "count": 4.0, "maybe": 7, "parts": (1, 2), "sizes": {"a": 3.0}})
    assert got.share == 2.0 and type(got.share) is float
    assert got.count == 4 and type(got.count) is int
    assert got.parts == [1, 2] and got.sizes == {"a": 3}
    assert _same({"name": "x", "share": 1.0, "count": 1, "either": 1}).either.__class__ is int


def test_lists_and_dicts_are_copied_as_validation_copies_them():
    parts: list[Any] = [1]
    got = made(Record, {"name": "x", "share": 1.0, "count": 1, "parts": parts})
    parts.append(2)
    assert got.parts == [1]


@pytest.mark.parametrize("bad", [
    {"share": "0.5"},  # a string for a float: pydantic parses it, so it decides
    {"count": 2.5},  # not integral: refused
    {"count": True},  # a flag for a count
    {"kind": "lease"},  # not one of the literal's values
    {"inner": {"a": 1}},  # a dict for a model: validated into one
    {"sizes": {1: 2}},
])
def test_anything_else_is_validated(bad):
    values = {"name": "x", "share": 0.5, "count": 1, **bad}
    try:
        want = Record(**values)
    except ValidationError:
        with pytest.raises(ValidationError):
            made(Record, values)
        return
    assert made(Record, values) == want


def test_a_missing_required_field_is_refused_as_before():
    with pytest.raises(ValidationError):
        made(Record, {"name": "x", "share": 0.5})


def test_a_model_with_validators_is_always_validated():
    class Checked(BaseModel):
        n: int

        @field_validator("n")
        @classmethod
        def _double(cls, v: int) -> int:
            return v * 2

    assert made(Checked, {"n": 2}).n == 4


def test_result_records():
    s = made(Sentence, {"id": "m", "text": "t", "template": "t", "values": {"x": 1}})
    assert s == Sentence(id="m", text="t", template="t", values={"x": 1})
    a = {"field": "f", "value": 3, "reason": "r"}
    assert made(Assumption, a) == Assumption(**a)
    c = {"gpu": "h100", "count": 2, "feasible": True, "memory_per_gpu_bytes": 10.0, "wall_days": 3,
         "total_cost_usd": None, "reason_sentences": [s]}
    got, want = made(Candidate, c), Candidate(**c)
    assert got == want and got.model_dump(mode="json") == want.model_dump(mode="json")
    assert type(got.wall_days) is float and type(got.memory_per_gpu_bytes) is int
