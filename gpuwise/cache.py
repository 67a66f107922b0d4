"""A per-user cache of what every run builds the same way: the validated knowledge base and the
checked rule book. Loading and validating the YAML was most of a short run's time.

Entries are keyed by a hash of everything they are built from: the bytes of every file read
(overlays and house rules included), gpuwise's version, the size and time of each of its package's
files, the Python and pydantic versions. A changed file or schema is never served stale. They
live in ``$XDG_CACHE_HOME/gpuwise`` (else ``~/.cache/gpuwise``), are written to a temporary file
and renamed into place (concurrent runs never see half an entry), and an entry that cannot be
read -- corrupt, truncated, from another version, unreadable -- is ignored and rebuilt.
``GPUWISE_NO_CACHE=1`` turns the cache off. The SHA-256 of each file hashed is kept by the file's
identity (:func:`file_digest`), so an unchanged file is not read again for a key.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from .lru import Lru

T = TypeVar("T")
MAX_ENTRIES = 32
"""Entries kept per kind; older ones are removed when a new one is written."""


def enabled() -> bool:
    return os.environ.get("GPUWISE_NO_CACHE", "") in ("", "0") and directory() is not None


def directory() -> Path | None:
    """``$XDG_CACHE_HOME/gpuwise``, else ``~/.cache/gpuwise``; ``None`` (no cache) where there is no
    such place: a relative ``XDG_CACHE_HOME`` (the XDG spec says to ignore it; it had put a cache
    in every working directory), an empty ``HOME`` (read as ``/``) or a home that does not exist
    (``HOME=/nonexistent/x`` had the whole tree created)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        home = os.environ.get("HOME")
        home = os.path.expanduser("~") if home is None else home
        if not os.path.isabs(home) or not os.path.isdir(home):
            return None
        base = os.path.join(home, ".cache")
    return Path(base) / "gpuwise"


def _private(d: Path) -> bool:
    """Whether ``d`` is the user's own and no one else may write to it: an entry is a pickle (and a
    template's, marshalled code), so one planted by another user would run as this one."""
    try:
        info = os.stat(d)
    except OSError:
        return False
    if not hasattr(os, "getuid"):  # Windows: no owners or modes to compare
        return True
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


def key(kind: str, files: Iterable[Path], extra: str = "") -> str | None:
    """The hash of ``files``' names and bytes and of the versions an entry depends on; ``None``
    when a file cannot be read (the loader will say why)."""
    import pydantic

    from . import __version__

    h = hashlib.sha256(f"{kind}\0{__version__}\0{sys.version}\0{pydantic.VERSION}\0{extra}".encode())
    h.update(package_stamp())
    try:
        for path in files:
            from .yamlio import MAX_FILE_BYTES

            st = os.stat(path)
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE_BYTES:
                return None  # a device, FIFO or oversized file is not hashed: the loader refuses it
            h.update(os.fsencode(os.path.abspath(path)) + b"\0")
            h.update(file_digest(str(path), st, MAX_FILE_BYTES))  # the digest of its bytes
    except (OSError, ValueError):
        return None
    return h.hexdigest()[:40]


_STAMP: bytes | None = None


def package_stamp() -> bytes:
    """The name, size and modification time of every file of the gpuwise package (its code and its
    message catalogs; compiled bytecode left out), once per process: an entry holds objects of its
    schema classes, so an edited schema must not read an old entry, and an answer the memo replays
    (memo.py) must have been written by this code."""
    global _STAMP
    if _STAMP is None:
        parts: list[str] = []
        _stamp_dir(str(Path(__file__).parent), "", parts)
        _STAMP = "\n".join(sorted(parts)).encode()
    return _STAMP


def _stamp_dir(path: str, prefix: str, parts: list[str]) -> None:
    """``name:size:mtime`` of each file under ``path`` (its path from the package's folder), as
    ``os.walk`` and ``os.path.relpath`` would name them (a third of the time: this runs in every
    process); a linked folder is not entered, an unreadable entry is left out."""
    try:
        entries = list(os.scandir(path))
    except OSError:
        return
    for entry in entries:
        name = entry.name
        with contextlib.suppress(OSError):
            if entry.is_dir():
                if name != "__pycache__" and not entry.is_symlink():
                    _stamp_dir(entry.path, f"{prefix}{name}{os.sep}", parts)
            elif not name.endswith((".pyc", ".pyo")):
                st = entry.stat()
                parts.append(f"{prefix}{name}:{st.st_size}:{st.st_mtime_ns}")


MAX_ENTRY_BYTES = 64 * 2**20
"""The largest entry read back (the largest written is about 1 MB, a pydantic schema)."""
TOUCH_AFTER_NS = 10 * 10**9
"""An entry read back whose modification time is older than this is given the time of now, so
that :func:`_prune`, which drops the oldest first, drops the entries least recently *used*: by the
time they were written, the built-in knowledge base's entry (written once, read by every run) was
the first to go when tests, overlays or other checkouts wrote a kind's quota of newer ones, and the
next run rebuilt it; the record classes' code, one file per checkout with four kept, was compiled
again by every run on a machine with five checkouts (~45 ms, 12% of a recommend's instructions)."""


def read_entry(path: str | os.PathLike[str]) -> bytes | None:
    """An entry's bytes, or ``None`` when it is not a regular file of at most ``MAX_ENTRY_BYTES``
    or cannot be read. Opened without following a link and without blocking, and checked on the
    open descriptor: an entry that was a FIFO hung every run, one linked to /dev/zero read without
    end."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError):
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_ENTRY_BYTES:
            return None
        chunks, left = [], MAX_ENTRY_BYTES + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        if left <= 0:
            return None
        if time.time_ns() - st.st_mtime_ns > TOUCH_AFTER_NS:  # used now (see TOUCH_AFTER_NS)
            with contextlib.suppress(OSError, NotImplementedError):
                os.utime(fd if os.utime in os.supports_fd else path)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def get(kind: str, digest: str | None) -> Any | None:
    if digest is None or not enabled():
        return None
    import pickle

    d = directory()
    if d is None or not _private(d):
        return None
    data = read_entry(d / f"{kind}-{digest}.pickle")
    if data is None:
        return None
    try:
        got_kind, got_digest, value = pickle.loads(data)
    except Exception:  # corrupt, truncated, from another version: rebuild
        return None
    # an entry carries its own key: another entry's bytes under this name (two swapped) unpickled
    # fine and served one model's schema as another's ('workload: unknown key' for a good file)
    return value if (got_kind, got_digest) == (kind, digest) else None


def put(kind: str, digest: str | None, value: Any, keep: int = MAX_ENTRIES) -> None:
    """Store ``value`` atomically, ``keep`` entries of its kind at most; any failure (read-only
    home, full disk, a value that does not pickle) is ignored."""
    if digest is None or not enabled():
        return
    import pickle

    _store(kind, f"{kind}-{digest}.pickle",
           lambda fh: pickle.dump((kind, digest, value), fh, protocol=pickle.HIGHEST_PROTOCOL), keep)


def load_marshalled(name: str) -> Any | None:
    """The marshalled table kept as ``name`` (compiled code, regular expressions, class sources);
    None when the cache is off, not private, or the file is missing, damaged or from another build."""
    if not enabled():
        return None
    d = directory()
    if d is None or not _private(d):
        return None
    import marshal

    data = read_entry(d / name)
    try:
        return None if data is None else marshal.loads(data)
    except Exception:  # truncated, from another build: the caller compiles afresh
        return None


def load_table(name: str, valid: Callable[[Any, Any], bool] | None) -> dict:
    """A kept table's entries that ``valid(key, value)`` accepts; {} when there is none. With
    ``valid`` None, every entry as read: the caller checks an entry when it looks one up (a table
    of a thousand file digests was checked whole in every process, ~3 ms, to use some seventy)."""
    got = load_marshalled(name)
    if not isinstance(got, dict):
        return {}
    return got if valid is None else {k: v for k, v in got.items() if valid(k, v)}


def store_table(kind: str, name: str, table: dict, used: set, limit: int) -> None:
    """Keep a table of compiled things (regular expressions, code); past ``limit`` entries only
    those this process ``used`` are kept, so the file does not grow without end."""
    store_marshalled(kind, name, dict(table) if len(table) <= limit else {k: v for k, v in table.items() if k in used})


def store_marshalled(kind: str, name: str, table: Any, keep: int = 8) -> None:
    """Keep ``table`` (marshal's types only) as ``name``; a table marshal refuses is not kept. A
    kind has one such file per Python build (code, regular expressions) or per checkout (record
    classes): ``keep`` of them, the least recently used dropped first (3.10 to 3.13 and a second
    checkout or version fit)."""
    if not enabled():
        return
    import marshal

    try:
        data = marshal.dumps(table)
    except ValueError:
        return
    _store(kind, name, lambda fh: fh.write(data), keep)


def _store(kind: str, name: str, write: Callable[[Any], None], keep: int = MAX_ENTRIES) -> None:
    """Write an entry through a temporary file renamed into place; failures are ignored."""
    d = directory()
    tmp = None
    if d is None:
        return
    try:
        d.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not _private(d):
            return
        # a new file of this run's own (mkstemp's way, without importing tempfile and shutil: ~3 ms)
        new = d / f".{kind}-{os.getpid()}-{os.urandom(8).hex()}.tmp"
        fd = os.open(new, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
        tmp = new
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, d / name)
        tmp = None
        _prune(d, kind, keep)
    except Exception:
        pass
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _prune(d: Path, kind: str, keep: int = MAX_ENTRIES) -> None:
    """Keep the ``keep`` entries of ``kind`` most recently written or read (:data:`TOUCH_AFTER_NS`)."""
    entries = sorted(d.glob(f"{kind}-*.*"), key=lambda p: p.stat().st_mtime)
    for old in entries[:-keep]:
        with contextlib.suppress(OSError):
            old.unlink()


TEMPLATE_ENTRIES = 64
"""Compiled report templates kept (about 20 templates, a few versions of each)."""


def templates() -> Any | None:
    """A Jinja2 bytecode cache in the same directory (None when the cache is off): compiling the
    report templates was a tenth of a short run. An entry is keyed by the template's name and
    gpuwise's source files (the environment's options live there) and carries Jinja's own check
    of the template's text and of the Jinja and Python versions; a bad entry is compiled afresh."""
    if not enabled():
        return None
    from jinja2.bccache import Bucket, BytecodeCache

    class Templates(BytecodeCache):
        def _name(self, bucket: Bucket) -> str:
            from . import __version__

            h = hashlib.sha256(f"{__version__}\0{bucket.key}\0".encode() + package_stamp())
            return f"template-{h.hexdigest()[:40]}.jinja"

        def load_bytecode(self, bucket: Bucket) -> None:
            d = directory()
            try:
                if d is None or not _private(d):
                    raise OSError("no private cache directory")
                data = read_entry(d / self._name(bucket))
                if data is None:
                    raise OSError("no usable entry")
                bucket.bytecode_from_string(data)
            except Exception:  # missing, unreadable, truncated, corrupt: compiled afresh
                bucket.reset()

        def dump_bytecode(self, bucket: Bucket) -> None:
            with contextlib.suppress(Exception):
                data = bucket.bytecode_to_string()
                _store("template", self._name(bucket), lambda fh: fh.write(data), TEMPLATE_ENTRIES)

    return Templates()


def cached(kind: str, files: Iterable[Path], build: Callable[[], T], extra: str = "") -> T:
    """``build()``, or the entry a run with the same inputs stored."""
    digest = key(kind, list(files), extra) if enabled() else None
    hit = get(kind, digest)
    if hit is not None:
        return hit
    value = build()
    put(kind, digest, value)
    return value


class Memo(Lru[Any]):
    """What a loader built from a file's bytes, kept for the life of the process: the same bytes
    (and the same ``extra``, such as the policy a rule file is checked against) give the same
    checked object, so a program or a test that loads many rule books or knowledge overlays checks
    each unchanged built-in file once. Only what loaded without error is kept; the objects are
    frozen. At most ``limit`` entries, the least recently used dropped first (it emptied itself
    when full, and the built-in files, used by every load, were checked again)."""

    def __init__(self, limit: int = 256) -> None:
        super().__init__(limit)

    @staticmethod
    def key(path: Path, raw: bytes, extra: str = "") -> tuple[str, bytes, str]:
        return os.path.abspath(path), hashlib.sha256(raw).digest(), extra


# --------------------------------------------------------------------------------- file digests
# Every ``recommend`` process hashed the built-in knowledge, rules, report templates and catalogs
# twice (~1.4 MB read and hashed: the answer memo's key, then the knowledge and rule caches' keys),
# though they change only when gpuwise is edited or upgraded. :func:`file_digest` gives a file's
# SHA-256 from a table when its path, size, modification and change times, inode and device are what
# they were when it was hashed (the way git trusts its index), else reads and hashes it. Any write
# to a file moves its change time, which no program can set back, so an edited file is always read
# again. A file changed in the last two seconds is hashed but not kept: on a file system with coarse
# times, an edit in the same tick as the hash would leave the times as they were (git's "racy"
# files); nor is a file whose times changed while it was read. The table is one marshalled file
# here, written by :func:`save` when the ``gpuwise`` process ends; an unreadable one is ignored.

_Digest = tuple[int, int, int, int, int, bytes]
"""size, mtime_ns, ctime_ns, inode, device, the SHA-256 digest of the bytes."""
_DIGESTS: dict[str, _Digest] | None = None
_DIGESTS_USED: set[str] = set()
_DIGESTS_NEW = False
DIGEST_FILES = 1024
"""Files kept in the table; past it, only those of the last process that saved."""
SETTLED_NS = 2_000_000_000
"""A file whose times are this close to now (or ahead of it) is hashed every time."""
DIGESTS = "digests-1.marshal"


def _identity(st: os.stat_result) -> tuple[int, int, int, int, int]:
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev


def _digest_entry(k: object, v: object) -> bool:
    return (isinstance(k, str) and isinstance(v, tuple) and len(v) == 6
            and all(x.__class__ is int for x in v[:5]) and isinstance(v[5], bytes) and len(v[5]) == 32)


def _digests() -> dict[str, _Digest]:
    global _DIGESTS
    if _DIGESTS is None:
        _DIGESTS = load_table(DIGESTS, None) if enabled() else {}  # each entry checked when used (file_digest)
    return _DIGESTS


def file_digest(path: str, st: os.stat_result, limit: int | None = None) -> bytes:
    """The SHA-256 digest of the bytes of the regular file ``path``, whose ``os.stat`` is ``st``
    (at most ``limit + 1`` bytes read when the file is hashed). OSError when it cannot be read."""
    global _DIGESTS_NEW
    key = os.path.abspath(path)
    table = _digests()
    ident = _identity(st)
    got = table.get(key)
    if got is not None and _digest_entry(key, got) and got[:5] == ident:
        _DIGESTS_USED.add(key)
        return got[5]
    with open(path, "rb") as fh:
        data = fh.read() if limit is None else fh.read(limit + 1)
        after = os.fstat(fh.fileno())
    digest = hashlib.sha256(data).digest()
    if (_identity(after) == ident and len(data) == st.st_size and enabled()
            and time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) > SETTLED_NS):
        table[key] = (*ident, digest)
        _DIGESTS_USED.add(key)
        _DIGESTS_NEW = True
    return digest


def save() -> None:
    """Keep the file digests this process added with the others (called when the ``gpuwise``
    process ends); past :data:`DIGEST_FILES` only the files this process hashed."""
    global _DIGESTS_NEW
    if not _DIGESTS_NEW or _DIGESTS is None:
        return
    _DIGESTS_NEW = False
    store_table("digests", DIGESTS, _DIGESTS, _DIGESTS_USED, DIGEST_FILES)
