"""The compiled form of the regular expressions a ``gpuwise`` process compiles, kept in the user's
cache: compiling them was 15-20 ms of every process (PyYAML's reader alone compiles a character
class spanning Unicode at import, 5 ms; pydantic, Jinja2, the standard library and gpuwise about
80 more).

Python compiles a pattern in two steps: ``re``'s parser and code generator (Python, slow) turn the
pattern and flags into a list of integers, and ``_sre.compile`` (C, fast) makes the pattern object
from that list. :func:`install` (called by the command, not on import of the package) keeps the
list the first step made for each string pattern and flags, and hands it to ``_sre.compile``
directly when a later process compiles the same pattern. The first step's output depends only on
the pattern, the flags and the Python build, so the file is one per Python build
(``sys.version``); C's own check of the code list still runs, and any failure falls back to
Python's own compiler. Bytes patterns and ``re.DEBUG`` are left to it. :func:`save` adds this
process's new patterns to the file (a temporary file renamed into place; any failure ignored).
"""

from __future__ import annotations

import sys
from typing import Any

_TABLE: dict[tuple[str, int], tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]] = {}
_USED: set[tuple[str, int]] = set()
_NEW = False
_INSTALLED = False
MAX_PATTERNS = 512
"""Patterns kept in the file; past it, only those of the last process that saved."""


def _file() -> str:
    import hashlib

    tag = f"{sys.version}\0{sys.implementation.cache_tag}\0regex-1".encode()
    return f"regex-{hashlib.sha256(tag).hexdigest()[:40]}.marshal"


def _compiler() -> Any:
    """The module whose ``compile`` ``re`` calls: ``re._compiler`` (Python 3.11+), ``sre_compile`` before."""
    import re

    return getattr(re, "_compiler", None) or sys.modules.get("sre_compile") or __import__("sre_compile")


def install() -> None:
    """Serve compiled patterns from the cache file for the rest of this process (once)."""
    global _INSTALLED
    if _INSTALLED:
        return
    _INSTALLED = True
    from . import cache

    if not cache.enabled():
        return
    mod = _compiler()
    parse = getattr(mod, "_parser", None) or sys.modules.get("sre_parse")
    original = mod.compile
    code_of = getattr(mod, "_code", None)
    if parse is None or code_of is None:
        return
    import _sre

    debug = int(getattr(mod, "SRE_FLAG_DEBUG", 128))
    _TABLE.update(_load())

    def compile(p: Any, flags: int = 0) -> Any:
        global _NEW
        if p.__class__ is not str or flags & debug:
            return original(p, flags)
        key = (p, int(flags))
        try:
            got = _TABLE.get(key)
            if got is None:
                tree = parse.parse(p, flags)
                code = code_of(tree, flags)
                groupindex = dict(tree.state.groupdict)
                indexgroup: list[str | None] = [None] * tree.state.groups
                for name, i in groupindex.items():
                    indexgroup[i] = name
                got = (int(flags | tree.state.flags), [int(c) for c in code], tree.state.groups - 1, groupindex,
                       tuple(indexgroup))
                made = _sre.compile(p, *got)
                _TABLE[key] = got
                _NEW = True
            else:
                made = _sre.compile(p, *got)
            _USED.add(key)
            return made
        except Exception:  # a pattern error (re's own message), or an entry C refuses: re's compiler
            _TABLE.pop(key, None)
            return original(p, flags)

    mod.compile = compile


def _load() -> dict:
    from . import cache

    return cache.load_table(_file(), lambda k, v: isinstance(k, tuple) and len(k) == 2 and isinstance(k[0], str)
                            and isinstance(v, tuple) and len(v) == 5)


def save() -> None:
    """Store the patterns compiled in this process with the others; any failure is ignored."""
    global _NEW
    if not _NEW:
        return
    _NEW = False
    from . import cache

    cache.store_table("regex", _file(), _TABLE, _USED, MAX_PATTERNS)
