"""A memo of whole answers: a ``recommend`` run asked again, with nothing it depends on changed,
replays what the first run printed instead of importing and computing it all again.

It is a layer on top of the knowledge and rule caches (gpuwise/cache.py), for the repeat of one
command: a new question is always computed. An entry is keyed by a hash of everything the output
can depend on:

- the command line, the working directory, today's date, and the whole environment (``COLUMNS``,
  ``LANG``, ``TZ``... all of it, but the shell's own ``_``, ``OLDPWD`` and ``SHLVL``);
- whether standard output and error are terminals, and the terminal's size;
- the bytes of every file and folder named on the command line (the requirements file, a
  ``--knowledge`` overlay, ``--rules``) and of the built-in knowledge, rules, report templates and
  messages (each file's SHA-256, kept by the file's identity: cache.file_digest); the name, size
  and modification time of every file of the gpuwise package itself (code, catalogs), as the
  knowledge cache's key has them (reading its 2 MB was ~5 ms a run);
- the Python build and the installed packages' folders (an upgrade of pydantic or Jinja2 is a new
  key).

Only a run that writes no file (no ``-o``), reads no standard input, names only options known not
to write anything, and ends with exit status 0 or 1 is kept; what it wrote to standard output and
error, byte for byte, and its exit status are replayed. Entries live with the other caches (written
atomically, at most 64), an unreadable or malformed entry is ignored, and ``GPUWISE_NO_CACHE=1``
turns the memo off with the rest of the cache.
"""

from __future__ import annotations

import errno
import hashlib
import io
import marshal
import os
import stat
import sys
import time
from typing import Any

COMMANDS = ("recommend",)
"""Commands whose answer is memoised: their output depends only on the key's parts."""

OPTIONS = {"--format": True, "--lang": True, "--currency": True, "--fx-rate": True, "--detail": True,
           "--knowledge": True, "--rules": True}
"""Options a memoised run may carry (all take a value); any other option (``-o``, an abbreviation,
``--help``) is run as usual."""

VOLATILE = ("_", "OLDPWD", "SHLVL")
"""Shell bookkeeping left out of the key: it changes between two runs of the same command."""

ENTRIES = 64
MAX_BYTES = 64 * 2**20
"""A run naming more than this many bytes of files is not memoised (hashing them would cost more)."""


def key(argv: list[str]) -> str | None:
    """The memo key of the command line ``argv`` (without the program name), or ``None`` when
    the run is not one to memoise or what it reads cannot all be hashed."""
    if not argv or argv[0] not in COMMANDS or os.environ.get("GPUWISE_NO_CACHE", "") not in ("", "0"):
        return None
    named: list[str] = []
    args = iter(argv[1:])
    for arg in args:
        if arg.startswith("-") and arg != "-":
            name, eq, value = arg.partition("=")
            if name not in OPTIONS:
                return None
            value = value if eq else next(args, None)
            if value is None:
                return None
            named.append(value)
        elif arg == "-":
            return None  # standard input: read once, by the run
        else:
            named.append(arg)
    h = hashlib.sha256()
    env = sorted((k, v) for k, v in os.environ.items() if k not in VOLATILE)
    streams = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:  # a closed stream (``>&-``): the run refuses to lose its report; never replay onto it
            return None
        try:
            tty = os.isatty(fd)
            size = os.get_terminal_size(fd) if tty else None
        except OSError:
            tty, size = False, None
        streams.append((tty, tuple(size) if size else None))
    site = [(p, os.stat(p).st_mtime_ns) for p in sys.path if p.endswith(("site-packages", "dist-packages"))
            and os.path.isdir(p)]
    try:
        cwd = os.getcwd()
    except OSError:  # run from a directory since removed: a traceback before the run began
        return None
    head = (argv, cwd, time.strftime("%Y-%m-%d"), env, streams, sys.version, sys.executable, site)
    h.update(repr(head).encode("utf-8", "surrogateescape"))
    budget = [MAX_BYTES]
    from .cache import package_stamp
    from .paths import data_dir

    h.update(package_stamp())
    try:
        roots = [str(data_dir(n)) for n in ("knowledge", "rules", "reports")]
        for path in [*roots, *(n for n in named if os.path.lexists(n))]:  # a value such as "json" is no file
            if not _hash_path(h, path, budget):
                return None
    except (OSError, ValueError, FileNotFoundError):
        return None
    return h.hexdigest()[:40]


def _hash_path(h: Any, path: str, budget: list[int]) -> bool:
    """Hash the name and bytes of ``path``, or of every file under it; ``False`` when something
    is not a plain file or folder (a FIFO, a device) or the bytes are too many."""
    st = os.stat(path)
    if stat.S_ISDIR(st.st_mode):
        h.update(b"D" + os.fsencode(os.path.abspath(path)) + b"\0")
        for dirpath, dirs, names in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            h.update(b"d" + os.fsencode(dirpath) + b"\0" + b"\0".join(os.fsencode(d) for d in dirs) + b"\0")
            for name in sorted(names):
                if name.endswith((".pyc", ".pyo")):
                    continue
                if not _hash_file(h, os.path.join(dirpath, name), budget):
                    return False
        return True
    return _hash_file(h, path, budget)


def _hash_file(h: Any, path: str, budget: list[int]) -> bool:
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        return False
    budget[0] -= st.st_size
    if budget[0] < 0:
        return False
    from .cache import file_digest

    h.update(b"F" + os.fsencode(os.path.abspath(path)) + b"\0" + st.st_size.to_bytes(8, "little")
             + file_digest(path, st))  # the digest of its bytes, kept by the file's identity
    return True


def _path(digest: str) -> str | None:
    """The entry's file; ``None`` where there is no cache directory, or one others may write to (an
    answer planted there would be printed as this user's)."""
    from .cache import _private, directory

    d = directory()
    if d is None or not _private(d):
        return None
    return os.path.join(d, f"answer-{digest}.memo")


def replay(digest: str | None) -> int | None:
    """Write the memoised run's output and return its exit status; ``None`` when there is no
    usable entry (then nothing was written). Standard output that cannot be written (a full disk)
    raises its OSError once the rest is replayed; a reader that went away or a closed output does not."""
    path = _path(digest) if digest is not None else None
    if path is None:
        return None
    try:
        from .cache import read_entry

        data = read_entry(path)  # a FIFO or a link to /dev/zero there hung the run
        if data is None:
            return None
        ops, code, check = marshal.loads(data)
        if not (code in (0, 1) and check == digest and isinstance(ops, list)
                and all(isinstance(o, tuple) and len(o) == 2 and o[0] in (1, 2, -1, -2)
                        and isinstance(o[1], bytes) for o in ops)):
            return None
    except Exception:  # missing, unreadable, truncated, another Python's format: computed afresh
        return None
    streams = {1: sys.stdout, 2: sys.stderr}
    lost: OSError | None = None
    for fd, data in ops:  # the writes and flushes as the run made them: merged streams keep their order
        stream = streams.get(abs(fd))
        if stream is None:
            continue
        try:
            if fd > 0:
                stream.buffer.write(data)
            else:
                stream.buffer.flush()
        except BrokenPipeError:  # the reader went away: as in the run itself, the exit status stays
            if fd in (1, -1):
                from .render.output import silence_stdout

                silence_stdout()
            streams[abs(fd)] = None
        except OSError as exc:
            if fd in (1, -1) and exc.errno != errno.EBADF:  # a full disk: the answer is lost (the caller says so)
                lost = exc
            streams[abs(fd)] = None
        except (ValueError, AttributeError):
            streams[abs(fd)] = None
    if lost is not None:
        from .render.output import silence_stdout

        silence_stdout()  # the interpreter's last flush must not fail again on what was not written
        raise lost
    return code


class _Tee(io.RawIOBase):
    """What the run writes to a standard stream: passed on to it, and noted in ``ops`` (shared by
    both streams) as ``(fd, bytes)`` for a write and ``(-fd, b"")`` for a flush."""

    def __init__(self, stream: Any, fd: int, ops: list[tuple[int, bytes]], failed: list[bool]) -> None:
        self.stream, self.fd, self.ops, self.failed = stream, fd, ops, failed

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        try:
            n = self.stream.write(data)
        except BaseException:
            self.failed[0] = True
            raise
        self.ops.append((self.fd, bytes(data)))
        return len(data) if n is None else n

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BaseException:
            self.failed[0] = True
            raise
        self.ops.append((-self.fd, b""))

    def fileno(self) -> int:
        return self.stream.fileno()

    def isatty(self) -> bool:
        return self.stream.isatty()


class Recording:
    """Standard output and error as the run sees them, copied for the memo (see :func:`record`)."""

    def __init__(self) -> None:
        self.ops: list[tuple[int, bytes]] = []
        self.failed = [False]
        self.saved = (sys.stdout, sys.stderr)
        wrapped = []
        for fd, real in ((1, sys.stdout), (2, sys.stderr)):
            buffer = getattr(real, "buffer", None)
            if buffer is None:
                raise ValueError("no binary stream")
            wrapped.append(io.TextIOWrapper(_Tee(buffer, fd, self.ops, self.failed), encoding=real.encoding,
                                            errors=real.errors, line_buffering=real.line_buffering,
                                            write_through=True))
        sys.stdout, sys.stderr = wrapped

    def finish(self, digest: str, code: int) -> None:
        """Flush, put the streams back, and keep the entry if the run is one to replay."""
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                self.failed[0] = True
        sys.stdout, sys.stderr = self.saved
        if code not in (0, 1) or self.failed[0]:
            return
        data = marshal.dumps((self.ops, code, digest))
        from .cache import _store

        _store("answer", f"answer-{digest}.memo", lambda fh: fh.write(data), ENTRIES)


def record(digest: str | None) -> Recording | None:
    """Start copying standard output and error for the entry ``digest`` (``None``: not kept)."""
    if digest is None:
        return None
    try:
        return Recording()
    except (ValueError, AttributeError, OSError):
        return None
