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

The code lists are kept as bytes (machine words, as ``array`` writes them) and made a list only for
a pattern compiled: kept as lists of integers, reading them back was 14 ms of every process, for
a table most of whose code was patterns the process never compiled. Past :data:`MAX_PATTERNS`
patterns or :data:`MAX_CODE_BYTES` of code, the patterns no process used lately are dropped first:
``tokenize`` writes its token pattern with the string prefixes in a different order in every
process (a set's order, which the hash seed changes), so each process that tokenized added one
more variant of 2,000 words, and 163 of them were 95% of the file.
"""

from __future__ import annotations

import sys
from typing import Any

_TABLE: dict[tuple[str, int], tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]] = {}
_USED: dict[tuple[str, int], None] = {}
"""The patterns this process compiled, in the order it first did (a dict as an ordered set)."""
_NEW = False
_INSTALLED = False
MAX_PATTERNS = 512
"""Patterns kept in the file; past it, those no recent process used are dropped first."""
MAX_CODE_BYTES = 512 * 1024
"""Code kept in the file, in bytes (gpuwise's own patterns and its libraries' take about 75 KB)."""
_WORD = "I"
"""The ``array`` type code of one word of compiled code (``_sre.CODESIZE`` bytes)."""


def _file() -> str:
    import hashlib

    tag = f"{sys.version}\0{sys.implementation.cache_tag}\0regex-2".encode()
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
    from array import array

    if array(_WORD).itemsize != getattr(_sre, "CODESIZE", 0):  # a build whose code words are another size
        return

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
                words = [int(c) for c in code]
                made = _sre.compile(p, int(flags | tree.state.flags), words, tree.state.groups - 1, groupindex,
                                    tuple(indexgroup))
                _TABLE[key] = (int(flags | tree.state.flags), array(_WORD, words).tobytes(), tree.state.groups - 1,
                               groupindex, tuple(indexgroup))
                _NEW = True
            else:
                out_flags, words, groups, groupindex, indexgroup = got
                made = _sre.compile(p, out_flags, array(_WORD, words).tolist(), groups, groupindex, indexgroup)
            _USED[key] = None
            return made
        except Exception:  # a pattern error (re's own message), or an entry C refuses: re's compiler
            _TABLE.pop(key, None)
            return original(p, flags)

    mod.compile = compile


def _load() -> dict:
    from . import cache

    return cache.load_table(_file(), lambda k, v: isinstance(k, tuple) and len(k) == 2 and isinstance(k[0], str)
                            and isinstance(v, tuple) and len(v) == 5 and isinstance(v[1], bytes))


def kept(table: dict, used: dict) -> dict:
    """What :func:`save` writes of ``table``: the patterns this process did not use in their order,
    then those it used (the most recent last), less the oldest while there are more than
    :data:`MAX_PATTERNS` of them or more than :data:`MAX_CODE_BYTES` of code."""
    order = [k for k in table if k not in used] + [k for k in used if k in table]
    size = sum(len(table[k][1]) for k in order)
    drop = 0
    while drop < len(order) and (len(order) - drop > MAX_PATTERNS or size > MAX_CODE_BYTES):
        size -= len(table[order[drop]][1])
        drop += 1
    return {k: table[k] for k in order[drop:]}


def save() -> None:
    """Store the patterns compiled in this process with the others; any failure is ignored."""
    global _NEW
    if not _NEW:
        return
    _NEW = False
    from . import cache

    cache.store_marshalled("regex", _file(), kept(_TABLE, _USED))
