"""Ctrl-C in ``gpuwise ask``: always the flow's one line and exit 130 (:mod:`.ending`).

At a question the terminal is in raw mode, so Ctrl-C is a key, which ends the prompt with KeyboardInterrupt. A SIGINT
-- Ctrl-C pressed between two questions, while the terminal is back in cooked mode, or ``kill -INT`` -- used to be
raised as KeyboardInterrupt wherever Python then was: in asyncio building the next prompt's event loop (the half-built
loop's ``__del__`` printed "Exception ignored ... '_UnixSelectorEventLoop' object has no attribute '_ssock'") or
closing the last one, in pydantic building a validator (a SchemaError: exit 3, "a bug in gpuwise"); and one that came
while a prompt ran, or as it ended, was lost (prompt_toolkit turns it into a ``<sigint>`` key that questionary's lists
do not bind, or that the ending prompt swallows): the next question waited. While the questions are put,
:func:`held` keeps SIGINT as a flag that :func:`check` raises at gpuwise's own points -- before and after each prompt,
and as a prompt starts (its pre-run) -- and that ends the prompt running (:func:`ask`: prompt_toolkit's own SIGINT
handling is off, the flag's handler asks the prompt's event loop to end it). :func:`released` gives the work after
the questions (the recommendation, the plan) the interrupt as before.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_PENDING = [False]
_RUNNING: list[Any] = [None]  # the prompt_toolkit Application :func:`ask` runs


def _end(app: Any) -> None:
    """On the prompt's event loop: end ``app`` as Ctrl-C does, where it still runs."""
    future = getattr(app, "future", None)
    if app.is_running and future is not None and not future.done():
        app.exit(exception=KeyboardInterrupt, style="class:aborting")


def _hold(_signum: int, _frame: Any) -> None:
    _PENDING[0] = True
    app = _RUNNING[0]
    loop = getattr(app, "loop", None) if app is not None else None
    if loop is not None and not loop.is_closed():
        loop.call_soon_threadsafe(_end, app)


def check() -> None:
    """Raise the SIGINT held since the last check, if any, as KeyboardInterrupt."""
    if _PENDING[0]:
        _PENDING[0] = False
        raise KeyboardInterrupt


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def held() -> Iterator[None]:
    """SIGINT held as a flag inside the block (raised by :func:`check`, and on leaving it); the handler before it
    is put back after. Outside the main thread, where no signal handler can be set, nothing changes."""
    if not _main_thread():
        yield
        return
    before = signal.getsignal(signal.SIGINT)
    _PENDING[0] = False
    signal.signal(signal.SIGINT, _hold)
    try:
        yield
    except BaseException:
        _PENDING[0] = False  # the block ends already (an interrupt, an error): the held one adds nothing
        raise
    finally:
        signal.signal(signal.SIGINT, before if before is not None else signal.default_int_handler)
    check()


@contextmanager
def released() -> Iterator[None]:
    """Inside :func:`held`, the block with SIGINT as it was before (KeyboardInterrupt at once): the work after the
    questions, which may be long. A SIGINT held until then is raised first."""
    if not _main_thread() or signal.getsignal(signal.SIGINT) is not _hold:
        yield
        return
    check()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, _hold)


def ask(question: Any) -> Any:
    """``question`` (a questionary Question) asked as its ``unsafe_ask`` does, ending with KeyboardInterrupt on a
    SIGINT held before it starts (its pre-run), while it runs, or as it ends (after it returns)."""
    app = question.application
    app.pre_run_callables.append(check)
    check()
    _RUNNING[0] = app
    try:
        got = app.run(handle_sigint=False)
    finally:
        _RUNNING[0] = None
    check()
    return got
