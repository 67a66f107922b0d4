"""Writing output files so that a reader never sees a partial one, and nothing else is harmed.

* A regular file (new or existing) is written to a temporary file beside it and renamed into
  place, so it is either untouched or complete.  A symbolic link is followed: the file it points
  to is replaced and the link stays.
* Anything that is not a regular file -- ``/dev/null``, ``/dev/full``, a terminal, a FIFO -- is
  written through, never renamed over (as root, a rename would replace the device node with a
  regular file).  ``-``, ``/dev/stdout`` and ``/dev/stderr`` are the process's own streams.
* The input files are never the output (``protect``), and a directory never is.
* The temporary name fits the file system's name limit whatever the target's name (a long
  target name is shortened in the temporary name, not refused), and the temporary file is
  removed on any failure: an exception, Ctrl-C, or SIGTERM/SIGHUP arriving during the write.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from ..errors import N_, UserError, escaped
from .formats import format_for

STREAMS = {"-": "stdout", "/dev/stdout": "stdout", "/dev/stderr": "stderr"}
"""Output names that mean one of the process's own streams."""

_DESCRIPTOR = re.compile(r"/(?:dev/fd|proc/self/fd)/(\d{1,9})")
"""Names of an open descriptor: written to that descriptor, never resolved (``/dev/fd/1`` resolves
to the file or pipe behind it, and replacing that would cut the descriptor off from it)."""

NAME_MAX = 255
"""Bytes in one path component on Linux, macOS and the BSDs (the fallback when pathconf cannot say)."""


PENDING: set[str] = set()
"""Temporary files being written: a process that must end at once (Ctrl-C, see
``gpuwise.cli.run``) removes them first."""

PLACED: list[str] = []
"""Files renamed into place by :func:`atomic_write_text`, noted in the same moment (no signal
handler runs between the two): once the command's output is in place, Ctrl-C in the ``gpuwise``
process changes nothing (``gpuwise.cli.interrupted``): exit 130 always means the old file."""


def remove_pending() -> None:
    """Remove the temporary files being written (the targets stay as they were)."""
    for name in list(PENDING):
        with contextlib.suppress(OSError):
            os.unlink(name)
    PENDING.clear()


class _Signalled(BaseException):
    """SIGTERM or SIGHUP arrived while a temporary file existed."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def stream_for(target: str | os.PathLike[str] | None) -> TextIO | None:
    """``sys.stdout`` for ``-`` and ``/dev/stdout``, ``sys.stderr`` for ``/dev/stderr``, else ``None``."""
    if target is None:
        return None
    name = STREAMS.get(os.fspath(target))
    return getattr(sys, name) if name else None


def descriptor_of(target: str | os.PathLike[str]) -> int | None:
    """``N`` for ``/dev/fd/N`` or ``/proc/self/fd/N`` when that descriptor is open, else ``None``."""
    match = _DESCRIPTOR.fullmatch(os.fspath(target))
    if not match:
        return None
    fd = int(match.group(1))
    try:
        os.fstat(fd)
    except OSError:
        return None
    return fd


def names_a_file(target: str | os.PathLike[str] | None) -> bool:
    """Whether the output's name should tell the format by its suffix: not for a stream, nor for
    something that exists and is not a regular file (``/dev/null``, a FIFO): those default to text."""
    if target is None or stream_for(target) is not None or descriptor_of(target) is not None:
        return False
    try:
        return stat.S_ISREG(os.stat(target).st_mode)
    except (OSError, ValueError):  # a new file: its name is all there is; 'reports/' names a folder, whose refusal
        return not str(os.fspath(target)).endswith(("/", os.sep))  # (check_target) is not its suffix's (round 47)


def report_format(target: str | os.PathLike[str] | None, fmt: str | None, *, format_option: bool = True) -> str:
    """The report format: ``fmt`` when given, else the suffix of ``target`` (text for standard
    output, a descriptor, a device or a FIFO). ``format_option``: the command has ``--format`` (see
    :func:`format_for`)."""
    if target is not None and not os.fspath(target):  # -o "": an unset shell variable, most often
        raise UserError(N_("the output path is empty"), where="-o",
                        hint=N_("give a file name, or leave -o out to write to standard output"))
    return format_for(target if names_a_file(target) else None, fmt, format_option=format_option)


_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"  # Cc, but newline and tab
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e"  # Cf
    "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
    "\u2028\u2029]")  # Zl, Zp
"""Control characters other than newline and tab (Unicode Cc), the invisible format characters
(Cf: zero-width space and joiners, bidirectional marks, overrides and isolates, the byte-order
mark, soft hyphen, tag characters) and the line and paragraph separators (Zl, Zp): a seller's
title may carry terminal escapes (``\\x1b[2J``), text that reorders a line, or an invisible
character that makes two different names look alike. tests/test_hostile_fifth.py checks this
class against ``unicodedata`` for every code point."""


def escape_controls(text: str, *, is_json: bool = False) -> str:
    """``text`` with every such character written as ``\\uXXXX`` (a UTF-16 pair past U+FFFF, so a
    JSON string keeps its value): what an input file carried is shown, never acted on by a
    terminal, and an invisible character is seen. ``is_json``: ``text`` is JSON, in which every
    character below U+0020 but the line breaks between values is escaped already, so an ASCII
    one may hold only DEL (lora-70b's 983 KB answer: 0.04 M instructions, not 9.7 M)."""
    if text.isascii():
        if is_json:
            if "\x7f" not in text:
                return text
        elif not text.encode("ascii").translate(None, _PLAIN_ASCII):
            return text  # nothing to escape (most reports): no scan of a batch's megabytes by the pattern
    return _CONTROL.sub(_escaped, text)


_PLAIN_ASCII = bytes([0x09, 0x0A, *range(0x20, 0x7F)])
"""The ASCII characters :data:`_CONTROL` leaves alone: tab, newline and the printable ones (an ASCII
text made of these alone has nothing to escape)."""


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def shown_name(text: str) -> str:
    """A file name (or a line naming one) as one printable line: a newline or a terminal escape in
    a name given with ``-o`` is written out (``\\n``, ``\\x1b``) in 'wrote NAME', never acted on."""
    return escaped(text)


def to_stdout(text: str) -> bool:
    """Write ``text`` to standard output; ``False`` when the reader has gone (a closed pipe:
    ``| head -1``, ``| true``) or standard output is closed. The command then keeps its own exit
    status -- a rejected audit still exits 1 -- and nothing is printed about the pipe."""
    out = sys.stdout
    if out is None:
        return False
    try:
        out.write(text)
        out.flush()
        return True
    except BrokenPipeError:
        silence_stdout()
        return False
    except OSError as exc:
        if exc.errno == errno.EBADF:  # ``>&-``: standard output closed
            silence_stdout()
            return False
        raise


def refuse_closed_stdout(target: str | os.PathLike[str] | None) -> None:
    """A report bound for a closed standard output (``>&-``) is refused in one line, exit 2: it was
    lost while the exit status said approved (0) or rejected (1), as if it had been read. A reader
    that goes away after reading some (``| head``) is another case: the verdict's status is kept."""
    if target is not None and STREAMS.get(os.fspath(target)) != "stdout":
        return
    out = sys.stdout
    closed = out is None
    if not closed:
        try:
            os.fstat(out.fileno())
        except OSError as exc:
            closed = exc.errno == errno.EBADF
        except (ValueError, AttributeError, io.UnsupportedOperation):  # an in-memory stream (a test): open
            pass
    if closed:
        raise UserError(N_("standard output is closed: the report would be lost"),
                        hint=N_("write it to a file with -o FILE"))


def silence_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's final flush does not
    fail again on the closed pipe (Python would print an error and exit 120)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def emit(text: str | Iterable[str], target: str | os.PathLike[str] | None, *,
         protect: Iterable[str | os.PathLike[str]] = (), is_json: bool = False) -> str | None:
    """``text`` to ``target`` (see :func:`write_output`), or to standard output when ``target``
    is ``None``, ``-`` or ``/dev/stdout``; returns the file name written, ``None`` for stdout.
    Control characters from the inputs are escaped (:func:`escape_controls`; ``is_json``: the
    text is JSON) wherever it goes.  ``text`` may come in pieces (a batch's report, from its spool):
    each is escaped and written as it comes, and a file is still replaced only once all are in."""
    text = escape_controls(text, is_json=is_json) if isinstance(text, str) else \
        (escape_controls(t, is_json=is_json) for t in text)
    # by name: with standard output closed sys.stdout is None, as stream_for() of a file is, and every
    # -o file's report was taken for standard output and dropped (exit 0, no file, no 'wrote')
    if target is None or STREAMS.get(os.fspath(target)) == "stdout":
        refuse_closed_stdout(target)
        all(to_stdout(t) for t in _pieces(text))  # a reader gone: the rest is not written
        return None
    return write_output(target, text, protect=protect)


def write_output(target: str | os.PathLike[str], text: str | Iterable[str], *,
                 protect: Iterable[str | os.PathLike[str]] = ()) -> str:
    """Write a report or summary to ``target`` (see the module notes); returns the name written.

    Every failure is a one-line :class:`~gpuwise.errors.UserError` naming ``target``: the target
    is one of the ``protect`` paths (the inputs), a directory, in a missing directory, or
    cannot be written (``/dev/full``: no space left on device).
    """
    stream = stream_for(target)
    where = os.fspath(target)
    if stream is not None:
        for t in _pieces(text):
            stream.write(t)
        stream.flush()
        return where
    check_target(target, protect=protect)
    try:
        return os.fspath(atomic_write_text(target, text))
    except OSError as exc:
        raise UserError(N_("cannot write the output: %(strerror)s"), where=where,
                        values={"strerror": exc.strerror or exc}) from None
    except ValueError as exc:  # an embedded NUL in the name
        raise UserError(N_("cannot write the output: %(reason)s"), where=where, values={"reason": exc}) from None


def check_target(target: str | os.PathLike[str] | None, *,
                 protect: Iterable[str | os.PathLike[str]] = ()) -> None:
    """Refuse an output that can never be written -- an input file, a directory, a file in a
    missing directory, an empty name -- with the one-line :class:`~gpuwise.errors.UserError`
    :func:`write_output` would give, so the command can say so before it does the work."""
    if target is None or stream_for(target) is not None:
        return
    where = os.fspath(target)
    if not where:
        raise UserError(N_("empty output file name"))
    if _same_as_any(target, protect):
        raise UserError(N_("the output would replace an input file"), where=where,
                        hint=N_("write the report to another file"))
    try:
        if descriptor_of(target) is not None:
            return
        if os.path.isdir(target) or where.endswith(("/", os.sep)):  # 'reports/' names a directory: not a file 'reports'
            raise UserError(N_("is a directory, not a file"), where=where, hint=N_("give a file name"))
        if not Path(os.path.realpath(target)).parent.is_dir():
            _shell_word(where)
            raise UserError(N_("the output's directory does not exist"), where=where)
    except OSError as exc:  # a path over PATH_MAX (ENAMETOOLONG) was an internal error
        raise UserError(N_("cannot write the output: %(strerror)s"), where=where,
                        values={"strerror": exc.strerror or exc}) from None
    except ValueError as exc:  # an embedded NUL in the name
        raise UserError(N_("cannot write the output: %(reason)s"), where=where, values={"reason": exc}) from None


def _shell_word(where: str) -> None:
    """An output path whose missing directory is a word the shell expands, written in quotes so it was not ('-o
    "~/r.md"', '-o "$HOME/r.md"'): 'the output's directory does not exist' did not say why (hostile round 50's
    leftover, round 52). gpuwise expands neither, as no program does: the shell does, outside quotes."""
    if where.startswith("~"):
        raise UserError(N_("the output's directory does not exist: ~ is the shell's word for the home directory, and "
                           "the shell leaves it as it is inside quotes"), where=where,
                        hint=N_("write ~ outside the quotes, or the whole path"))
    if (var := re.search(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", where)) is not None:
        raise UserError(N_("the output's directory does not exist: $%(name)s is a shell variable, and the shell "
                           "leaves it as it is inside single quotes"), where=where, values={"name": var.group(1)},
                        hint=N_("write it in double quotes or none, or the whole path"))


def atomic_write_text(target: str | os.PathLike[str], text: str | Iterable[str]) -> Path:
    """Write ``text`` to ``target`` without a reader ever seeing a partial file.

    A regular file (or a new one) gets a temporary file beside it, then ``os.replace``; the
    temporary file is created like any new file (0666 less the umask; an existing file's own
    permissions when it replaces one) and removed on any failure,
    SIGTERM and SIGHUP included, so ``target`` is either untouched or complete.  An existing
    target that is not a regular file (a device, a FIFO) is written through instead.  OSError
    propagates to the caller, which knows how to word it.
    """
    fd = descriptor_of(target)
    if fd is not None:
        _write_fd(fd, text)
        return Path(target)
    path = Path(os.path.realpath(target))  # follow a symlink: replace what it points to, keep the link
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(target))
        _write_through(path, text)
        return Path(target)
    tmp = path.with_name(temp_name(path.name, _name_max(path.parent)))
    created = False
    try:
        with _cleanup_on_signals():
            with _signals_held(_HELD):  # no handler runs between creating the file and noting it
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
                created = True
                PENDING.add(os.fspath(tmp))
            if mode is not None:  # an existing report keeps its permissions (a 0600 report stays private)
                with contextlib.suppress(OSError):
                    os.fchmod(fd, stat.S_IMODE(mode))
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                for t in _pieces(text):
                    fh.write(t)
                fh.flush()
                os.fsync(fh.fileno())
            with _signals_held(_HELD):  # nor between the rename and noting it: Ctrl-C then saw the new
                os.replace(tmp, path)  # report and exited 130 as if the old one were left
                created = False
                PENDING.discard(os.fspath(tmp))
                PLACED.append(os.fspath(path))
    except _Signalled as sig:
        PENDING.discard(os.fspath(tmp))
        if created:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        _redeliver(sig.signum)
        raise InterruptedError(errno.EINTR, f"interrupted by signal {sig.signum}", os.fspath(target)) from None
    except BaseException:
        PENDING.discard(os.fspath(tmp))
        if created:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise
    return path if os.fspath(target) == os.fspath(path) else Path(target)


def temp_name(name: str, name_max: int = NAME_MAX) -> str:
    """``.NAME.PID.RANDOM.tmp``, with ``NAME`` shortened (on a character boundary) so that the
    whole name fits in ``name_max`` bytes of the file system's encoding."""
    suffix = f".{os.getpid()}.{os.urandom(6).hex()}.tmp"  # 12 random hex digits (uuid: a slower import)
    room = name_max - len(os.fsencode(suffix)) - 1
    stem = name
    while stem and len(os.fsencode(stem)) > room:
        stem = stem[: max(0, len(stem) - max(1, (len(os.fsencode(stem)) - room) // 4))]
    return f".{stem}{suffix}"


def _name_max(directory: Path) -> int:
    try:
        return int(os.pathconf(directory, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):
        return NAME_MAX


FIFO_READER_WAIT_S = 5.0
"""How long ``-o`` onto a FIFO waits for a process to open it for reading. The open used to wait
for ever, as a shell redirection does: a run whose reader never came hung (hostile round 15)."""


def _write_through(path: Path, text: str | Iterable[str]) -> None:
    """Write into an existing device or FIFO: opened for writing, never created, renamed or
    truncated. A FIFO waits up to FIFO_READER_WAIT_S for a reader, then fails with ENXIO."""
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0)
    fifo = stat.S_ISFIFO(os.stat(path).st_mode)
    fd = _open_fifo_for_writing(path, flags) if fifo else os.open(path, flags)
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
        for t in _pieces(text):
            fh.write(t)
        fh.flush()


def _open_fifo_for_writing(path: Path, flags: int) -> int:
    """A FIFO opened for writing once a reader has it open (a non-blocking open fails with ENXIO
    until then), waiting at most FIFO_READER_WAIT_S; the descriptor then blocks as usual."""
    import time

    deadline = time.monotonic() + FIFO_READER_WAIT_S
    while True:
        try:
            fd = os.open(path, flags | os.O_NONBLOCK)
        except OSError as exc:
            if exc.errno != errno.ENXIO or time.monotonic() >= deadline:
                if exc.errno == errno.ENXIO:
                    raise OSError(errno.ENXIO, f"a FIFO that no process reads (waited {FIFO_READER_WAIT_S:g} s)",
                                  os.fspath(path)) from None
                raise
            time.sleep(0.05)
            continue
        os.set_blocking(fd, True)
        return fd


def _write_fd(fd: int, text: str | Iterable[str]) -> None:
    """Write all of ``text`` to an open descriptor, leaving it open."""
    for t in _pieces(text):
        data = t.encode("utf-8")
        while data:
            data = data[os.write(fd, data):]


def _pieces(text: str | Iterable[str]) -> Iterable[str]:
    """A text given whole or in pieces, as pieces."""
    return (text,) if isinstance(text, str) else text


def _same_as_any(target: str | os.PathLike[str], paths: Iterable[str | os.PathLike[str]]) -> bool:
    """Whether ``target`` is one of ``paths`` (``os.path.samefile`` with each, errors meaning no).
    The target is looked up once, not once per path: a run protects some 350 files (the knowledge,
    the rules, gpuwise's own), and an output that does not exist yet is none of them."""
    try:
        st = os.stat(target)
    except (OSError, ValueError):
        return False
    for p in paths:
        try:
            if os.path.samestat(st, os.stat(p)):
                return True
        except (OSError, ValueError):
            continue
    return False


_TERMINATING = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))
_HELD = (*_TERMINATING, signal.SIGINT)
"""Held where a step and noting it must happen together: the terminating signals and Ctrl-C."""


@contextlib.contextmanager
def _cleanup_on_signals() -> Iterator[None]:
    """While the temporary file exists, SIGTERM and SIGHUP raise :class:`_Signalled` so the
    ``except`` clause can remove it; the previous handlers are restored afterwards.  Python lets
    only the main thread set handlers: elsewhere nothing changes (the signal is delivered to the
    main thread anyway).  A signal the process ignores stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {}

    def handler(signum: int, _frame: Any) -> None:
        raise _Signalled(signum)

    try:
        for sig in _TERMINATING:
            old = signal.getsignal(sig)
            if old is signal.SIG_IGN or old is None:  # None: set from C, leave it be
                continue
            previous[sig] = old
            signal.signal(sig, handler)
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


@contextlib.contextmanager
def _signals_held(signals: tuple[int, ...] = _TERMINATING) -> Iterator[None]:
    """``signals`` (SIGTERM and SIGHUP) wait (blocked in the kernel) until the block ends, then
    their handler runs: a signal cannot fall between two statements that must happen together.
    Where ``pthread_sigmask`` does not exist (Windows) nothing is held."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None or not _TERMINATING:
        yield
        return
    old = mask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, old)


def _redeliver(signum: int) -> None:
    """Deliver ``signum`` again now that its old handler is back: with the default action the
    process ends as the signal meant; a Python handler runs (and may raise)."""
    old: Callable[..., Any] | int | None = signal.getsignal(signum)
    if old is signal.SIG_IGN or old is None:
        return
    signal.raise_signal(signum)
