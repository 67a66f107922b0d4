"""SHA-256 digests of the files every run hashes, kept in the user's cache by each file's identity.

Every ``recommend`` process hashed the built-in knowledge, rules, report templates and catalogs
twice (~1.4 MB read and hashed: the answer memo's key, then the knowledge and rule caches' keys),
though they change only when gpuwise is edited or upgraded. :func:`of` gives a file's digest from
the table when its path, size, modification and change times, inode and device are what they
were when it was hashed (the way ``git`` trusts its index), else reads and hashes it. Any write to
a file moves its change time, which no program can set back, so an edited file is always read
again. A file changed in the last two seconds is hashed but not kept: on a file system with coarse
times, an edit in the same tick as the hash would otherwise leave the times as they were (git's
"racy" files). A file read while it was being written is not kept either (its times after the
read differ from those before).

The table is one marshalled file in gpuwise/cache.py's directory, written by :func:`save` when the
``gpuwise`` process ends (a temporary file renamed into place; any failure ignored), at most
:data:`MAX_FILES` entries; an unreadable or malformed file is ignored. ``GPUWISE_NO_CACHE=1``
leaves it alone: every file is hashed, as before.
"""

from __future__ import annotations

import hashlib
import os
import time

_Entry = tuple[int, int, int, int, int, bytes]
"""size, mtime_ns, ctime_ns, inode, device, the SHA-256 digest of the bytes."""
_TABLE: dict[str, _Entry] | None = None
_USED: set[str] = set()
_NEW = False
MAX_FILES = 1024
"""Files kept in the table; past it, only those of the last process that saved."""
SETTLED_NS = 2_000_000_000
"""A file whose times are this close to now (or ahead of it) is hashed every time."""
NAME = "digests-1.marshal"


def _identity(st: os.stat_result) -> tuple[int, int, int, int, int]:
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev


def _valid(k: object, v: object) -> bool:
    return (isinstance(k, str) and isinstance(v, tuple) and len(v) == 6
            and all(x.__class__ is int for x in v[:5]) and isinstance(v[5], bytes) and len(v[5]) == 32)


def _table() -> dict[str, _Entry]:
    global _TABLE
    if _TABLE is None:
        from . import cache

        _TABLE = cache.load_table(NAME, _valid) if cache.enabled() else {}
    return _TABLE


def of(path: str, st: os.stat_result, limit: int | None = None) -> bytes:
    """The SHA-256 digest of the bytes of the regular file ``path``, whose ``os.stat`` is ``st``
    (at most ``limit + 1`` bytes read when the file is hashed). OSError when it cannot be read."""
    global _NEW
    key = os.path.abspath(path)
    table = _table()
    ident = _identity(st)
    got = table.get(key)
    if got is not None and got[:5] == ident:
        _USED.add(key)
        return got[5]
    with open(path, "rb") as fh:
        data = fh.read() if limit is None else fh.read(limit + 1)
        after = os.fstat(fh.fileno())
    digest = hashlib.sha256(data).digest()
    if (_identity(after) == ident and len(data) == st.st_size
            and time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) > SETTLED_NS):
        from . import cache

        if cache.enabled():
            table[key] = (*ident, digest)
            _USED.add(key)
            _NEW = True
    return digest


def save() -> None:
    """Keep the digests this process added with the others (called when the ``gpuwise`` process
    ends); past :data:`MAX_FILES` only the files this process hashed."""
    global _NEW
    if not _NEW or _TABLE is None:
        return
    _NEW = False
    from . import cache

    cache.store_table("digests", NAME, _TABLE, _USED, MAX_FILES)
