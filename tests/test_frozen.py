"""gpuwise.frozen: a frozen dataclass whose __init__ writes the instance's __dict__ directly builds
the same instance as dataclass(frozen=True) does (fields in order, defaults, factories, fields
not in __init__, __post_init__), stays frozen, and keeps the dataclass's equality, hash, repr,
replace and pickling."""

from __future__ import annotations

import dataclasses
import pickle
import sys

import pytest

from gpuwise.frozen import frozen, record, replaced


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


STALE = {"__weakref__"} if sys.version_info < (3, 11) else set()
"""Python 3.10's ``dataclass(slots=True)`` copies the old class's ``__weakref__`` descriptor into the
new class (3.11 no longer does); it works on no instance of the new class, so ours
leaves it out and the comparison ignores it there."""


def _describe(cls) -> dict:
    """What dataclasses, pydantic and a reader see of a dataclass: its fields, parameters,
    signature, docstring, methods and class attributes."""
    import inspect

    fields = [(f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.hash, f.compare, f.kw_only,
               dict(f.metadata), f._field_type) for f in cls.__dataclass_fields__.values()]
    return {"fields": fields, "params": repr(cls.__dataclass_params__), "match": cls.__match_args__,
            "signature": str(inspect.signature(cls)), "doc": cls.__doc__, "hash": cls.__hash__ is None,
            "slots": cls.__dict__.get("__slots__"), "keys": sorted(set(cls.__dict__) - STALE),
            "defaults": {f.name: repr(cls.__dict__.get(f.name, "-")) for f in cls.__dataclass_fields__.values()},
            "init": cls.__init__.__annotations__,
            "names": {k: (v.__qualname__, v.__module__) for k, v in cls.__dict__.items()
                      if k.startswith("__") and inspect.isfunction(v)}}


def _body(doc: str | None = "A record.") -> dict:
    return {"__module__": __name__, "__qualname__": "Rec", "__doc__": doc,
            "__annotations__": {"a": "int", "b": "str", "c": "tuple", "d": "float", "e": "bool"},
            "b": "x", "c": dataclasses.field(default_factory=tuple),
            "d": dataclasses.field(default=0.5, compare=False, repr=False),
            "e": dataclasses.field(default=False, init=False)}


@pytest.mark.parametrize("doc", ["A record.", None])
@pytest.mark.parametrize(("ours", "theirs"), [
    (frozen, dataclasses.dataclass(frozen=True)),
    (frozen(slots=True), dataclasses.dataclass(frozen=True, slots=True)),
    (record, dataclasses.dataclass),
], ids=["frozen", "frozen-slots", "record"])
def test_the_class_is_the_one_dataclass_builds(ours, theirs, doc):
    """Built from the same class body, ours and dataclasses' look the same to every reader
    (a class without a docstring gets dataclasses' signature line) and their instances behave
    the same: repr, equality (d is not compared), hash, replace, asdict, pickling."""
    mine, ref = ours(type("Rec", (), _body(doc))), theirs(type("Rec", (), _body(doc)))
    assert _describe(mine) == _describe(ref)
    a, b = mine(1, "y", (2,), 0.25), ref(1, "y", (2,), 0.25)
    assert repr(a) == repr(b) == "Rec(a=1, b='y', c=(2,), e=False)"
    assert a == mine(1, "y", (2,), 0.75) and a != mine(2, "y", (2,)) and (a == b) is False
    if ref.__hash__ is None:
        assert mine.__hash__ is None
        a.a = 5
        assert a.a == 5
    else:
        assert hash(a) == hash(b) == hash((1, "y", (2,), False))
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'a'"):
            a.a = 5
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'b'"):
            del a.b
    assert dataclasses.asdict(dataclasses.replace(a, b="z")) == {"a": a.a, "b": "z", "c": (2,), "d": 0.25, "e": False}
    globals()["Rec"] = mine  # pickled by reference to its module's name
    try:
        assert pickle.loads(pickle.dumps(a)) == a
    finally:
        del globals()["Rec"]
    assert hasattr(a, "__dict__") == hasattr(b, "__dict__")


def test_a_recursive_repr_says_so():
    node = record(type("Node", (), {"__module__": __name__, "__doc__": "n", "__annotations__": {"next": "object"}}))
    n = node(None)
    n.next = n
    assert repr(n) == "Node(next=...)"


def test_what_dataclasses_refuses_it_refuses():
    with pytest.raises(TypeError, match="non-default argument"):
        record(type("Bad", (), {"__module__": __name__, "__annotations__": {"a": "int", "b": "int"}, "a": 1}))
    with pytest.raises(ValueError, match="mutable default"):
        frozen(type("Bad", (), {"__module__": __name__, "__annotations__": {"a": "list"}, "a": []}))


def test_compiled_methods_come_from_the_cache_next_time(tmp_path):
    """The methods compiled for the record classes are kept in the user's cache: the next process
    compiles none of them; a corrupt cache file is ignored (and replaced); GPUWISE_NO_CACHE writes
    nothing."""
    import os
    import subprocess
    import sys

    probe = ("import gpuwise.decide.recommend, gpuwise.frozen as F; "
             "print(len(F._USED), sum(1 for s in F._USED if F._CODE.get(s) is not None), F._NEW); F.save()")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "GPUWISE_NO_CACHE": "0"}

    def run(**more):
        out = subprocess.run([sys.executable, "-c", probe], env={**env, **more}, capture_output=True, text=True,
                             check=True).stdout.split()
        return int(out[0]), out[2] == "True"

    used, new = run()
    assert used > 30 and new  # the first process compiles them all
    files = list((tmp_path / "gpuwise").glob("classes-*.marshal"))
    assert len(files) == 1
    assert run() == (used, False)  # the next one: none
    files[0].write_bytes(b"\xe3 not marshal")
    assert run() == (used, True)  # a corrupt file: compiled again, and rewritten
    assert run() == (used, False)
    empty = tmp_path / "other"
    assert run(GPUWISE_NO_CACHE="1", XDG_CACHE_HOME=str(empty)) == (used, True)
    assert not empty.exists()


def test_replaced_is_dataclasses_replace():
    """``replaced`` makes the instance ``dataclasses.replace`` makes (fields in order, ``__post_init__``
    run, slots and frozen classes alike), and for what it does not rebuild -- a field not in
    ``__init__``, a keyword-only field, a change naming no field -- it is ``replace`` itself, errors
    included."""

    @dataclasses.dataclass(slots=True)
    class Slotted:
        a: int
        b: str = "x"
        c: tuple = ()

    @frozen
    class Fast:
        a: int
        b: float = 1.0

        def __post_init__(self):
            object.__setattr__(self, "c", self.a * 2)

    s = Slotted(1, "y", (2,))
    got, want = replaced(s, b="z"), dataclasses.replace(s, b="z")
    assert (got.a, got.b, got.c) == (want.a, want.b, want.c) == (1, "z", (2,)) and got is not s
    f = Fast(3)
    got = replaced(f, b=2.5)
    assert got == dataclasses.replace(f, b=2.5) == Fast(3, 2.5) and got.c == 6
    assert list(got.__dict__) == list(dataclasses.replace(f, b=2.5).__dict__)
    plain, fast = _pair()  # ``d`` and ``e`` are not in __init__: replace's own path (d made again)
    for cls in (plain, fast):
        p = cls(1, "y", [1])
        assert replaced(p, a=5) == dataclasses.replace(p, a=5) and replaced(p, a=5).d == 10.0
    with pytest.raises(TypeError):
        replaced(s, nope=1)
    # init=False: dataclasses refuses it, with ValueError up to Python 3.12 and TypeError on 3.13
    # (both seen on 3.10.13 and 3.13.0); replaced raises what dataclasses.replace raises here
    with pytest.raises((ValueError, TypeError)) as refused:
        replaced(p, d=1.0)
    with pytest.raises(type(refused.value)):
        dataclasses.replace(p, d=1.0)
