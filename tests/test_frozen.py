"""gpuwise.frozen: a frozen dataclass whose __init__ writes the instance's __dict__ directly builds
the same instance as dataclass(frozen=True) does (fields in order, defaults, factories, fields
not in __init__, __post_init__), stays frozen, and keeps the dataclass's equality, hash, repr,
replace and pickling."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from gpuwise.frozen import frozen


def _pair():
    def body():
        return {
            "__annotations__": {"a": "int", "b": "str", "c": "list", "d": "float", "e": "tuple"},
            "b": "x",
            "c": dataclasses.field(default_factory=list),
            "d": dataclasses.field(default=0.0, init=False),
            "e": dataclasses.field(default_factory=tuple, init=False),
            "__post_init__": lambda self: object.__setattr__(self, "d", self.a * 2.0),
        }
    plain = dataclasses.dataclass(frozen=True)(type("Plain", (), body()))
    fast = frozen(type("Fast", (), body()))
    return plain, fast


@pytest.mark.parametrize("args", [((1,), {}), ((1, "y"), {}), ((1,), {"c": [3]}), ((), {"a": 2, "b": "z", "c": []})])
def test_the_instance_is_the_one_dataclass_builds(args):
    plain, fast = _pair()
    pos, kw = args
    p, f = plain(*pos, **kw), fast(*pos, **kw)
    assert list(f.__dict__.items()) == list(p.__dict__.items())
    assert f.c is not fast(*pos, **kw).c or "c" in kw  # a factory default is made per instance


def test_it_stays_a_frozen_dataclass():
    _plain, fast = _pair()
    f = fast(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.a = 2  # type: ignore[misc]
    assert f == fast(1) and hash(fast(1, "y", (1,))) == hash(fast(1, "y", (1,)))  # type: ignore[arg-type]
    assert repr(f) == "Fast(a=1, b='x', c=[], d=2.0, e=())"
    assert dataclasses.replace(f, a=3).d == 6.0
    assert dataclasses.fields(f)[0].name == "a"
    with pytest.raises(TypeError):
        fast()  # a is required


def test_a_class_it_cannot_rebuild_keeps_the_dataclass_init():
    @frozen
    class Slotted:
        __slots__ = ("a",)
        a: int

    assert Slotted(1).a == 1
    assert Slotted.__init__.__qualname__.endswith("Slotted.__init__")


def test_estimates_records_pickle_and_compare():
    from gpuwise.estimators import Term

    t = Term("x", 1.0, "GB", "a + b", {"a": 1})
    assert pickle.loads(pickle.dumps(t)) == t
    assert t.formula == "a + b" and t.inputs == {"a": 1} and t.note == ""
