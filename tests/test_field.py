"""gpuwise.field.Field against pydantic's own Field(): the same FieldInfo, slot by slot (the
constraints' metadata in the same order, the same arguments recorded as set), for the arguments
gpuwise's models give and for those it hands back to pydantic (aliases, pydantic 1's names)."""

from __future__ import annotations

import re
import warnings

import pydantic
import pytest
from pydantic.fields import FieldInfo

from gpuwise.field import PLAIN, Field

CASES = [
    ((), {}),
    ((None,), {}),
    ((3,), {"ge": 1, "le": 1000}),
    ((), {"le": 1000, "ge": 1}),  # given in the other order: the metadata in pydantic's order all the same
    ((None,), {"ge": 1, "le": 10_000, "description": "default: heads"}),
    ((), {"default_factory": list, "max_length": 64}),
    ((), {"pattern": r"^[A-Z]+-[A-Z0-9-]+$", "max_length": 64}),
    ((), {"min_length": 3, "max_length": 2000}),
    (("",), {"max_length": 2000}),
    ((), {"gt": 0, "lt": 1, "multiple_of": 0.5, "allow_inf_nan": False, "strict": True}),
    ((None,), {"ge": None, "description": None}),  # None given is not the same as not given
    ((...,), {"title": "t", "examples": [1], "json_schema_extra": {"x": 1}, "frozen": True, "repr": False}),
    ((), {"exclude": True, "validate_default": True, "union_mode": "left_to_right", "fail_fast": True}),
    ((), {"max_digits": 5, "decimal_places": 2, "coerce_numbers_to_str": True, "deprecated": "old"}),
    ((), {"alias": "a"}),  # pydantic derives the validation and serialization aliases: its own Field
    ((), {"validation_alias": pydantic.AliasChoices("a", "b")}),
    ((1,), {"alias_priority": 2, "serialization_alias": "s"}),
    ((), {"min_items": 1}),  # pydantic 1's name: pydantic's warning and its meaning
]


def _slots(info: FieldInfo) -> dict:
    out = {}
    for cls in type(info).__mro__:
        for name in getattr(cls, "__slots__", ()):
            value = getattr(info, name, "<unset>")
            out[name] = [(type(m), repr(m)) for m in value] if name == "metadata" else repr(value)
    return out


@pytest.mark.parametrize(("args", "kwargs"), CASES)
def test_the_same_field_info_as_pydantics(args, kwargs):
    with warnings.catch_warnings(record=True) as theirs_warned:
        warnings.simplefilter("always")
        theirs = pydantic.Field(*args, **kwargs)
    with warnings.catch_warnings(record=True) as ours_warned:
        warnings.simplefilter("always")
        ours = Field(*args, **kwargs)
    assert type(ours) is type(theirs) is FieldInfo
    assert list(ours._attributes_set.items()) == list(theirs._attributes_set.items())
    assert _slots(ours) == _slots(theirs)
    assert [str(w.message) for w in ours_warned] == [str(w.message) for w in theirs_warned]


def test_a_model_validates_alike():
    class Ours(pydantic.BaseModel):
        n: int = Field(ge=1, le=10)
        s: str = Field(default="x", pattern=r"^[a-z]+$", max_length=3)

    class Theirs(pydantic.BaseModel):
        n: int = pydantic.Field(ge=1, le=10)
        s: str = pydantic.Field(default="x", pattern=r"^[a-z]+$", max_length=3)

    assert Ours.model_json_schema() == {**Theirs.model_json_schema(), "title": "Ours"}
    for bad in ({"n": 0}, {"n": 11, "s": "ABCD"}, {"s": "ab"}):
        with pytest.raises(pydantic.ValidationError) as ours:
            Ours(**bad)
        with pytest.raises(pydantic.ValidationError) as theirs:
            Theirs(**bad)
        assert re.sub("Ours", "Theirs", str(ours.value)) == str(theirs.value)
    assert Ours(n=3).model_dump() == Theirs(n=3).model_dump() == {"n": 3, "s": "x"}


def test_the_aliases_go_to_pydantic():
    assert not {"alias", "validation_alias", "serialization_alias", "alias_priority", "annotation"} & PLAIN
    assert {"ge", "le", "description", "default_factory", "pattern", "max_length", "min_length"} <= PLAIN
