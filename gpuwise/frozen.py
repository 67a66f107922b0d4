"""``@frozen`` and ``@record``: the classes ``@dataclass(frozen=True)`` and ``@dataclass`` make,
built in a fraction of the time, with a faster ``__init__`` for the frozen ones.

Building the classes was a large part of starting gpuwise: ``dataclasses`` compiles each
generated method (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``,
``__delattr__``) by a separate ``exec`` and looks at every annotation for ``ClassVar`` and
``InitVar``; sixty-odd records cost 40-70 ms of every process. Here a class's methods are
written as one source and compiled once, the fields are the dataclass's own ``Field`` objects,
and the class carries ``__dataclass_fields__`` and ``__dataclass_params__``, so
``dataclasses.fields``, ``replace``, ``asdict``, ``is_dataclass``, pickling and pydantic see a
dataclass. A class this does not rebuild exactly (a dataclass base or any base, ``ClassVar``,
``InitVar`` or ``KW_ONLY`` annotations, keyword-only or mutable defaults, its own ``__eq__``,
``__repr__``, ``__init__``...) is handed to ``dataclasses`` itself.

A frozen record's ``__init__`` stores the fields straight into the instance's ``__dict__``: a
frozen dataclass's own sets every field through ``object.__setattr__`` (its ``__setattr__``
refuses assignment), about four times slower to build, and an estimate builds thousands of small
frozen records. The instance is the same -- the fields in ``__dict__`` in declared order,
defaults and default factories applied, ``__post_init__`` called.
"""

from __future__ import annotations

import _thread
import atexit
import dataclasses
import operator
import types
from collections.abc import Callable
from typing import Any, TypeVar, overload

T = TypeVar("T")

_MISSING = dataclasses.MISSING
_FACTORY = getattr(dataclasses, "_HAS_DEFAULT_FACTORY", object())
_PARAMS = dataclasses._DataclassParams.__init__.__code__.co_varnames[1:]  # type: ignore[attr-defined]
_OWN = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__match_args__",
        "__slots__", "__getstate__", "__setstate__", "__replace__")


@overload
def frozen(cls: type[T], /) -> type[T]: ...
@overload
def frozen(*, slots: bool = False) -> Callable[[type[T]], type[T]]: ...
def frozen(cls: Any = None, /, *, slots: bool = False) -> Any:
    """``dataclass(frozen=True)`` (``slots=True`` too when asked), built fast (see the module
    docstring), with the ``__init__`` that writes ``__dict__``."""
    if cls is None:
        return lambda c: _build(c, frozen=True, slots=slots)
    return _build(cls, frozen=True, slots=slots)


def record(cls: type[T]) -> type[T]:
    """``dataclass`` (mutable, compared by value, unhashable), built fast."""
    return _build(cls, frozen=False, slots=False)


def _build(cls: type[T], *, frozen: bool, slots: bool) -> type[T]:
    fields = _fields(cls)
    if fields is None:  # not one this module rebuilds: dataclasses' own class
        made = dataclasses.dataclass(frozen=frozen, slots=slots)(cls)
        if frozen and not slots:
            init = _dict_init(made)
            if init is not None:
                init.__qualname__ = f"{made.__qualname__}.__init__"
                made.__init__ = init  # type: ignore[misc]
        return made
    for f in fields.values():  # as dataclasses does: the class attribute is the default, or none
        if isinstance(cls.__dict__.get(f.name), dataclasses.Field):
            if f.default is _MISSING:
                delattr(cls, f.name)
            else:
                setattr(cls, f.name, f.default)
    cls.__dataclass_fields__ = fields  # type: ignore[attr-defined]
    if cls.__doc__ is None:
        cls.__doc__ = _SignatureDoc()  # type: ignore[assignment]
    given = {"init": True, "repr": True, "eq": True, "order": False, "unsafe_hash": False, "frozen": frozen,
             "match_args": True, "kw_only": False, "slots": slots, "weakref_slot": False}
    cls.__dataclass_params__ = dataclasses._DataclassParams(*(given[p] for p in _PARAMS))  # type: ignore[attr-defined]
    if slots:
        cls = _slotted(cls, fields, frozen)
    for name, fn in _methods(cls, fields, frozen, slots).items():
        fn.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, fn)
    if not frozen:
        cls.__hash__ = None  # type: ignore[assignment]  # eq without frozen: unhashable, as a dataclass
    cls.__match_args__ = tuple(f.name for f in fields.values() if f.init)  # type: ignore[attr-defined]
    if hasattr(dataclasses, "_replace"):  # Python 3.13: copy.replace()
        cls.__replace__ = dataclasses._replace  # type: ignore[attr-defined]
    return cls


def _fields(cls: type) -> dict[str, dataclasses.Field] | None:
    """The class's fields as dataclasses would make them, or None when it is not a plain case."""
    if cls.__bases__ != (object,) or type(cls) is not type:
        return None
    own = cls.__dict__
    if any(name in own for name in _OWN):
        return None
    annotations = own.get("__annotations__", {})
    found: list[tuple[str, Any, dataclasses.Field]] = []
    seen_default = False
    for name, kind in annotations.items():
        text = kind if isinstance(kind, str) else repr(kind)
        if "ClassVar" in text or "InitVar" in text or "KW_ONLY" in text:
            return None
        default = own.get(name, _MISSING)
        if isinstance(default, dataclasses.Field):
            f = default
            if f.kw_only is True:
                return None
        else:
            f = dataclasses.field(default=default)
        if f.default is not _MISSING and type(f.default).__hash__ is None:  # a mutable default: dataclasses' error
            return None
        has_default = f.default is not _MISSING or f.default_factory is not _MISSING
        if f.init and not has_default and seen_default:  # a required field after a default one: its error
            return None
        seen_default = seen_default or (f.init and has_default)
        found.append((name, kind, f))
    if any(isinstance(v, dataclasses.Field) and k not in annotations for k, v in own.items()):
        return None  # a field() without an annotation: dataclasses' error
    out: dict[str, dataclasses.Field] = {}
    for name, kind, f in found:  # set as dataclasses sets them (only now: a class handed back stays untouched)
        f.name, f.type = name, kind
        f._field_type = dataclasses._FIELD  # type: ignore[attr-defined]
        if f.kw_only is _MISSING:
            f.kw_only = False
        out[name] = f
    return out


class _SignatureDoc:
    """The docstring dataclasses gives a class without one, its name and signature
    (``Point(x: 'int', y: 'int' = 0)``), worked out when it is read: ``inspect.signature`` was
    the slowest part of building such a class."""

    def __get__(self, obj: Any, owner: type) -> str:
        import inspect

        try:
            return owner.__name__ + str(inspect.signature(owner)).replace(" -> None", "")
        except (TypeError, ValueError):
            return ""


def _slotted(cls: type, fields: dict[str, dataclasses.Field], frozen: bool) -> type:
    """The class again with ``__slots__`` for its fields (dataclasses' ``slots=True``)."""
    body = dict(cls.__dict__)
    body["__slots__"] = tuple(fields)
    for name in fields:
        body.pop(name, None)
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    made = type(cls)(cls.__name__, cls.__bases__, body)
    made.__qualname__ = cls.__qualname__
    if frozen:  # pickling a frozen slotted instance
        made.__getstate__ = dataclasses._dataclass_getstate  # type: ignore[attr-defined]
        made.__setstate__ = dataclasses._dataclass_setstate  # type: ignore[attr-defined]
    return made


def _methods(cls: type, fields: dict[str, dataclasses.Field], frozen: bool, slots: bool) -> dict[str, Any]:
    """``__init__``, ``__repr__``, ``__eq__`` (and for a frozen class ``__hash__``,
    ``__setattr__``, ``__delattr__``), written as dataclasses writes them, compiled at once."""
    ns: dict[str, Any] = {"__name__": cls.__module__, "__gw_cls": cls, "__gw_factory": _FACTORY,
                          "__gw_set": object.__setattr__, "__gw_frozen_error": dataclasses.FrozenInstanceError,
                          "__gw_thread": _thread.get_ident}
    params: list[str] = []
    body: list[str] = ["    __gw_d = self.__dict__"] if frozen and not slots else []

    def store(name: str, value: str) -> str:
        if not frozen:
            return f"    self.{name} = {value}"
        return f"    __gw_set(self, {name!r}, {value})" if slots else f"    __gw_d[{name!r}] = {value}"

    for f in fields.values():
        name = f.name
        if f.default_factory is not _MISSING:
            ns[f"__gw_make_{name}"] = f.default_factory
        if not f.init:  # as dataclasses does: a factory's value is set, a plain default stays the class's
            if f.default_factory is not _MISSING:
                body.append(store(name, f"__gw_make_{name}()"))
            elif slots and f.default is not _MISSING:  # (a slotted class has no class attribute to fall back on)
                ns[f"__gw_default_{name}"] = f.default
                body.append(store(name, f"__gw_default_{name}"))
            continue
        if f.default is not _MISSING:
            ns[f"__gw_default_{name}"] = f.default
            params.append(f"{name}=__gw_default_{name}")
            body.append(store(name, name))
        elif f.default_factory is not _MISSING:
            params.append(f"{name}=__gw_factory")
            body.append(store(name, f"__gw_make_{name}() if {name} is __gw_factory else {name}"))
        else:
            params.append(name)
            body.append(store(name, name))
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    compared = [f.name for f in fields.values() if f.compare]
    hashed = [f.name for f in fields.values() if (f.compare if f.hash is None else f.hash)]
    shown = ", ".join(f"{f.name}={{self.{f.name}!r}}" for f in fields.values() if f.repr)

    def tup(who: str, names: list[str]) -> str:
        return f"({','.join(f'{who}.{n}' for n in names)},)" if names else "()"

    lines = [f"def __init__(self, {', '.join(params)}):", *(body or ["    pass"]),
             "__gw_busy = set()",
             "def __repr__(self):",
             "    key = (id(self), __gw_thread())",
             "    if key in __gw_busy:",
             "        return '...'",
             "    __gw_busy.add(key)",
             "    try:",
             f"        return self.__class__.__qualname__ + f\"({shown})\"",
             "    finally:",
             "        __gw_busy.discard(key)",
             "def __eq__(self, other):",
             "    if other.__class__ is self.__class__:",
             f"        return {tup('self', compared)} == {tup('other', compared)}",
             "    return NotImplemented"]
    if frozen:
        names = f"({''.join(f'{n!r},' for n in fields)})"
        lines += ["def __hash__(self):",
                  f"    return hash({tup('self', hashed)})",
                  "def __setattr__(self, name, value):",
                  f"    if type(self) is __gw_cls or name in {names}:",
                  "        raise __gw_frozen_error(f'cannot assign to field {name!r}')",
                  "    super(__gw_cls, self).__setattr__(name, value)",
                  "def __delattr__(self, name):",
                  f"    if type(self) is __gw_cls or name in {names}:",
                  "        raise __gw_frozen_error(f'cannot delete field {name!r}')",
                  "    super(__gw_cls, self).__delattr__(name)"]
    exec(_compiled("\n".join(lines) + "\n"), ns)
    out = {name: ns[name] for name in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")
           if name in ns}
    out["__init__"].__annotations__ = {**{f.name: f.type for f in fields.values() if f.init}, "return": None}
    return out


def _dict_init(cls: type) -> Any:
    """For a frozen dataclass built by dataclasses: an ``__init__`` that writes ``__dict__``, or
    None when the class has no ``__dict__`` or fields this cannot pass (keyword-only, pseudo-fields)."""
    fields = dataclasses.fields(cls)
    if "__slots__" in cls.__dict__ or len(fields) != len(cls.__dataclass_fields__):  # type: ignore[attr-defined]
        return None
    if any(f.kw_only for f in fields):
        return None
    return _methods(cls, {f.name: f for f in fields}, True, False)["__init__"]


_REPLACERS: dict[type, tuple[Callable[[Any], tuple], dict[str, int]] | None] = {}


def replaced(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)``, the same new instance made faster for a dataclass whose
    fields are all plain positional ``__init__`` parameters (no ``init=False``, ``InitVar``,
    ``ClassVar`` or keyword-only field): its values read at once (``operator.attrgetter``) and
    passed to ``__init__`` in field order, which is what ``replace`` passes by name. Any other
    class, or a change that names no field, goes to ``dataclasses.replace`` (its errors too).
    A serving estimate is copied with the rules' verdicts in it for every candidate shown."""
    cls = obj.__class__
    got = _REPLACERS.get(cls, False)
    if got is False:
        got = _REPLACERS[cls] = _replacer(cls)
    if got is None:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    read, index = got
    values = list(read(obj))
    for name, value in changes.items():
        i = index.get(name)
        if i is None:
            return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
        values[i] = value
    return cls(*values)


def _replacer(cls: type) -> tuple[Callable[[Any], tuple], dict[str, int]] | None:
    fields = cls.__dict__.get("__dataclass_fields__") or getattr(cls, "__dataclass_fields__", None)
    if not fields:
        return None
    names = []
    for f in fields.values():
        if f._field_type is not dataclasses._FIELD or not f.init or f.kw_only:  # type: ignore[attr-defined]
            return None
        names.append(f.name)
    if not names:
        return None
    read = operator.attrgetter(*names) if len(names) > 1 else (lambda o, n=names[0]: (getattr(o, n),))
    return read, {n: i for i, n in enumerate(names)}


_CODE: dict[bytes, Any] | None = None
_USED: set[bytes] = set()
_NEW = False
CODE_ENTRIES = 1024
"""Compiled sources kept in the cache file; past it, only those of the last process that saved."""


def _code_file() -> str:
    """The cache file of this code: one per build of Python and state of the gpuwise package (the
    package stamp, as the other caches have it), so that it holds the sources of one version of
    the records and nothing that an edit left behind."""
    import hashlib
    import sys

    from .cache import package_stamp

    tag = f"{sys.version}\0{sys.implementation.cache_tag}\0".encode() + package_stamp()
    return f"classes-{hashlib.sha256(tag).hexdigest()[:40]}.marshal"


def _compiled(source: str) -> Any:
    """The code object of ``source``: from the per-user cache of compiled record methods (by the
    hash of the source text, as ``__pycache__`` keeps a module's), else compiled now."""
    global _CODE, _NEW
    if _CODE is None:
        _CODE = _load_code()
    import hashlib

    key = hashlib.sha256(source.encode()).digest()[:20]
    code = _CODE.get(key)
    if code is None:
        code = _CODE[key] = compile(source, "<string>", "exec")
        _NEW = True
    _USED.add(key)
    return code


def _load_code() -> dict[bytes, Any]:
    from . import cache

    return cache.load_table(_code_file(), lambda k, v: isinstance(k, bytes) and isinstance(v, types.CodeType))


def save() -> None:
    """Store the sources compiled in this process with the others (a temporary file renamed into
    place; any failure ignored). Called when the ``gpuwise`` process ends, and at exit."""
    global _NEW
    if not _NEW or _CODE is None:
        return
    _NEW = False
    from . import cache

    cache.store_table("classes", _code_file(), _CODE, _USED, CODE_ENTRIES)


atexit.register(save)
