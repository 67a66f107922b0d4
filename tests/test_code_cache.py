"""The code of the sources libraries compile at start-up, kept in the user's cache
(gpuwise/code_cache.py): a forward reference, a dataclass and a named tuple built from the cache
behave as Python builds them, errors are Python's own, and a damaged file or GPUWISE_NO_CACHE=1
fall back to the builtins."""

from __future__ import annotations

import collections
import dataclasses
import inspect
import typing
from pathlib import Path

import pytest

from gpuwise import code_cache

ROOT = Path(__file__).parent.parent
PATCHED = [(typing, "compile"), (dataclasses, "exec"), (collections, "eval")]


@pytest.fixture
def installed(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("GPUWISE_NO_CACHE", "0")

    def fresh() -> None:
        """As a new process: the table from the file, the modules as Python leaves them."""
        for module, name in PATCHED:
            module.__dict__.pop(name, None)
        for name, value in (("_TABLE", {}), ("_USED", set()), ("_NEW", False), ("_INSTALLED", False)):
            monkeypatch.setattr(code_cache, name, value)
        code_cache.install()

    fresh()
    yield fresh
    for module, name in PATCHED:  # the builtins again
        module.__dict__.pop(name, None)


def _evaluated(ref: typing.ForwardRef) -> object:
    """``typing._eval_type`` as pydantic calls it; Python 3.13 warns (DeprecationWarning) unless ``type_params`` is
    given, which 3.10 and 3.11 do not take."""
    if "type_params" in inspect.signature(typing._eval_type).parameters:
        return typing._eval_type(ref, {}, {}, type_params=())
    return typing._eval_type(ref, {}, {})


def built() -> tuple:
    """A forward reference, a frozen dataclass and a named tuple, as their libraries build them."""
    ref = typing.ForwardRef("dict[str, list[int]]")

    body = {"__annotations__": {"x": int, "y": float, "tags": tuple[str, ...]}, "y": 1.5, "tags": ()}
    Point = dataclasses.dataclass(frozen=True, order=True)(type("Point", (), body))  # annotations as objects
    Pair = collections.namedtuple("Pair", "left right", defaults=(0,))
    p = Point(3)
    return (ref.__forward_arg__, _evaluated(ref), repr(p), p == Point(3, 1.5), p < Point(4),
            hash(p) == hash(Point(3)), Point.__init__.__annotations__, dataclasses.astuple(p),
            tuple(Pair(1)), Pair(1, 2)._asdict(), Pair.__new__.__defaults__)


def test_what_the_cache_serves_is_what_python_builds(installed, tmp_path):
    for module, name in PATCHED:
        assert module.__dict__[name] is code_cache._REPLACEMENTS[name]
    first = built()
    assert code_cache._NEW
    code_cache.save()
    [entry] = (tmp_path / "xdg" / "gpuwise").glob("code-*.marshal")
    assert entry.stat().st_mode & 0o077 == 0
    installed()  # a new process
    assert code_cache._TABLE
    served = built()
    assert not code_cache._NEW  # every source served, nothing new to store
    for module, name in PATCHED:
        module.__dict__.pop(name)
    plain = built()
    assert first == served == plain
    # annotations stay objects (no ``from __future__ import annotations`` inherited from gpuwise's module)
    assert served[6] == {"x": int, "y": float, "tags": tuple[str, ...], "return": None}


def test_errors_are_pythons_own(installed):
    with pytest.raises(SyntaxError) as got:
        typing.ForwardRef("not an expression")
    assert "Forward reference must be an expression" in str(got.value)
    assert not any(k[0] == "not an expression" for k in code_cache._TABLE)


def test_other_calls_go_to_the_builtin(installed):
    assert eval(typing.compile(b"1 + 1", "<string>", "eval")) == 2  # bytes: the builtin's answer
    assert typing.compile("x = 1", "f.py", "single", dont_inherit=True).co_filename == "f.py"
    namespace: dict = {}
    dataclasses.exec("y = 2", namespace)
    assert namespace["y"] == 2
    assert collections.eval("a * 3", {"a": 2}) == 6
    assert ("x = 1", "f.py", "single") not in code_cache._TABLE


def test_a_damaged_file_is_compiled_afresh(installed, tmp_path):
    built()
    code_cache.save()
    [entry] = (tmp_path / "xdg" / "gpuwise").glob("code-*.marshal")
    for damage in (b"\x00garbage", entry.read_bytes()[:100]):
        entry.write_bytes(damage)
        installed()
        assert code_cache._TABLE == {}
        assert built()[2].endswith("Point(x=3, y=1.5, tags=())")


def test_off_with_the_cache(installed, monkeypatch):
    monkeypatch.setenv("GPUWISE_NO_CACHE", "1")
    for module, name in PATCHED:
        module.__dict__.pop(name, None)
    installed()
    assert all(name not in module.__dict__ for module, name in PATCHED)


def test_the_command_keeps_them(estimate_cold_and_warm):
    cold, warm, left = estimate_cold_and_warm  # conftest: two real runs on an empty cache
    [size] = [size for name, size in left.items() if name.startswith("code-") and name.endswith(".marshal")]
    assert size > 0
    assert cold.returncode == warm.returncode == 0, cold.stderr
    assert cold.stdout == warm.stdout


def test_an_entry_that_is_not_code_is_compiled_afresh(installed, tmp_path):
    """The file's entries are not checked as it is read, only the one a source looks up: one that
    holds no code is compiled as Python compiles it, and replaced."""
    import marshal

    source = "dict[str, list[int]]"
    d = tmp_path / "xdg" / "gpuwise"
    d.mkdir(parents=True, exist_ok=True, mode=0o700)
    (d / code_cache._file()).write_bytes(marshal.dumps({(source, "<string>", "eval"): "not code", ("x",): 1}))
    installed()
    assert code_cache._TABLE[(source, "<string>", "eval")] == "not code"
    assert _evaluated(typing.ForwardRef(source)) == dict[str, list[int]]
    assert code_cache._TABLE[(source, "<string>", "eval")].co_filename == "<string>"
    assert code_cache._NEW
