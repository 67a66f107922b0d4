"""The compiled code of the source strings the libraries compile while a ``gpuwise`` process
starts, kept in the user's cache: parsing them was 5% of a new ``recommend`` question.

pydantic-core's schema module declares some 80 ``TypedDict`` classes whose ~600 string annotations
``typing`` turns into forward references, each compiled by ``compile``; ``dataclasses`` writes
and ``exec``-utes the source of each method of the ~50 dataclasses of pydantic and
annotated-types; ``collections.namedtuple`` ``eval``-uates a ``__new__``. :func:`install` (called
by the command, not on import of the package) puts a caching ``compile``, ``exec`` and ``eval``
in those three modules' namespaces only (a module's own name shadows the builtin): a source
string that was compiled before, with the same file name and mode, is served as the code object
Python made of it then (``marshal``, as ``__pycache__`` keeps a module's), and run as the builtin
would run it. Any other call -- a code object, flags, no explicit namespace -- goes to the builtin
unchanged. The code is compiled as those modules compile it: none of them has a ``__future__``
import, so the cached compile inherits none (``dont_inherit``). The file is one per Python build
(``sys.version``, ``sys.implementation.cache_tag``); an unreadable or malformed one is ignored,
and :func:`save` adds this process's new sources (a temporary file renamed into place; any
failure ignored). ``GPUWISE_NO_CACHE=1`` leaves the three modules alone.
"""

from __future__ import annotations

import builtins
import sys
from types import CodeType
from typing import Any

_TABLE: dict[tuple[str, str, str], CodeType] = {}
_USED: set[tuple[str, str, str]] = set()
_NEW = False
_INSTALLED = False
MAX_SOURCES = 4096
"""Sources kept in the file; past it, only those of the last process that saved."""
MAX_SOURCE_CHARS = 20_000
"""A longer source is compiled as usual and not kept (the file stays small)."""
MODULES = {"typing": ("compile",), "dataclasses": ("exec",), "collections": ("eval",)}
"""The modules given a caching builtin, and which: the ones that compile at start-up."""


def _file() -> str:
    import hashlib

    tag = f"{sys.version}\0{sys.implementation.cache_tag}\0code-1".encode()
    return f"code-{hashlib.sha256(tag).hexdigest()[:40]}.marshal"


def code_of(source: str, filename: str, mode: str) -> CodeType:
    """``compile(source, filename, mode)`` as a module without ``__future__`` imports calls it,
    from the table when it was compiled before. A syntax error is the builtin's own."""
    global _NEW
    key = (source, filename, mode)
    code = _TABLE.get(key)
    if code.__class__ is not CodeType:  # not compiled before (or an entry of the file that is no code)
        code = builtins.compile(source, filename, mode, 0, True)
        if len(source) <= MAX_SOURCE_CHARS:
            _TABLE[key] = code
            _NEW = True
    _USED.add(key)
    return code


def _compile(source: Any, filename: Any, mode: Any, flags: int = 0, dont_inherit: bool = False,
             optimize: int = -1, **kw: Any) -> Any:
    if (source.__class__ is str and filename.__class__ is str and mode in ("eval", "exec")
            and not flags and optimize == -1 and not kw):
        return code_of(source, filename, mode)
    return builtins.compile(source, filename, mode, flags, True, optimize, **kw)


def _exec(source: Any, globals: dict | None = None, locals: Any = None, /, **kw: Any) -> None:
    if globals is None:  # the caller's namespace: the builtin's own way of finding it
        frame = sys._getframe(1)
        globals, locals = frame.f_globals, frame.f_locals if locals is None else locals
    if source.__class__ is str and not kw:
        source = code_of(source, "<string>", "exec")
    return builtins.exec(source, globals, locals, **kw)


def _eval(source: Any, globals: dict | None = None, locals: Any = None, /) -> Any:
    if globals is None:
        frame = sys._getframe(1)
        globals, locals = frame.f_globals, frame.f_locals if locals is None else locals
    if source.__class__ is str:
        source = code_of(source, "<string>", "eval")
    return builtins.eval(source, globals, locals)


_REPLACEMENTS = {"compile": _compile, "exec": _exec, "eval": _eval}


def install() -> None:
    """Give the modules of :data:`MODULES` the caching builtins, with the table from the cache
    file, for the rest of this process (once)."""
    global _INSTALLED
    if _INSTALLED:
        return
    _INSTALLED = True
    from . import cache

    if not cache.enabled():
        return
    import collections
    import dataclasses
    import typing

    _TABLE.update(_load())
    for module in (typing, dataclasses, collections):
        for name in MODULES[module.__name__]:
            if name not in module.__dict__:  # a module's own function of that name is left alone
                setattr(module, name, _REPLACEMENTS[name])


def _load() -> dict:
    from . import cache

    # entries as read: code_of looks one up by a key of three strings and checks that it holds code
    # (checking all ~500 entries of the file was ~1 ms of every process)
    return cache.load_table(_file(), None)


def save() -> None:
    """Store the sources compiled in this process with the others; any failure is ignored."""
    global _NEW
    if not _NEW:
        return
    _NEW = False
    from . import cache

    cache.store_table("code", _file(), _TABLE, _USED, MAX_SOURCES)
