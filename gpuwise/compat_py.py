"""Python-version quirks of gpuwise's dependencies, kept in one place.

durable-rules 2.0.28 (the rule engine) is a C extension built from source at install time:

* on Python 3.13 its C code calls ``PyEval_CallObject``, which 3.13 removed; a default build
  installs but fails to import (``undefined symbol: PyEval_CallObject``).  Built with
  ``CPPFLAGS=-DPyEval_CallObject=PyObject_CallObject`` (its setup.py overwrites CFLAGS, not
  CPPFLAGS) and without pip's wheel cache holding an old build, it loads and fires;
* on Python 3.12 and later its ``durable.engine._unix_now`` calls
  ``datetime.datetime.utcfromtimestamp``, deprecated in 3.12: one DeprecationWarning per action
  run, which a long-running process (or a test run that records warnings) keeps by the
  hundred thousand.

The rule-engine adapter (``gpuwise.decide.engine``) imports durable through :func:`import_durable`,
which turns a failed import into a :class:`~gpuwise.errors.SetupError` with the fix, gives durable a
clock that does not call the deprecated function, and registers a warnings filter for any other
caller.  Nothing here imports durable at module level, so importing this module is cheap.
"""

from __future__ import annotations

import datetime
import sys
import warnings
from types import ModuleType

DURABLE_BUILD_FLAGS = "CPPFLAGS=-DPyEval_CallObject=PyObject_CallObject"
REINSTALL = f"{DURABLE_BUILD_FLAGS} pip install --no-cache-dir --force-reinstall durable-rules==2.0.28"

UTCFROMTIMESTAMP_WARNING = r"datetime\.datetime\.utcfromtimestamp\(\) is deprecated"
"""The start of Python 3.12's message, as a ``warnings`` filter regular expression."""


def durable_import_hint(exc: BaseException) -> str | None:
    """One line saying how to fix a failed import of durable-rules, or ``None`` when ``exc`` is not
    one (the caller then reports it as it would any other error).  The failed import may be the
    cause or the context of ``exc`` (a module that imports durable and raises its own error, even
    ``from None``), so the chain is searched."""
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen and len(seen) < 10:
        seen.add(id(link))
        hint = _import_hint(link)
        if hint:
            return hint
        link = link.__cause__ or link.__context__
    return None


def _import_hint(exc: BaseException) -> str | None:
    text = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, ModuleNotFoundError) and (exc.name or "").startswith(("durable", "durable_rules_engine")):
        return f"the rule engine durable-rules is not installed ({text}); install gpuwise with pip, " \
               f"on Python 3.13 as: {REINSTALL}"
    if not isinstance(exc, ImportError | AttributeError):
        return None
    if "PyEval_CallObject" in text or (sys.version_info >= (3, 13) and "durable" in text):
        return (f"durable-rules was built without the Python 3.13 flag ({_clip(text)}); reinstall it with: "
                f"{REINSTALL}")
    if "durable" in text:
        return f"durable-rules does not import ({_clip(text)}); reinstall it with: {REINSTALL}"
    return None


def import_durable() -> tuple[ModuleType, ModuleType]:
    """``(durable_rules_engine, durable.engine)``, with the warnings filter registered.

    A failed import becomes a :class:`~gpuwise.errors.SetupError` whose one line says how to
    rebuild durable-rules (the usual cause: Python 3.13 without the build flag).
    """
    try:
        import durable_rules_engine
        from durable import engine as durable_engine
    except (ImportError, AttributeError) as exc:
        from .errors import SetupError

        hint = durable_import_hint(exc) or f"durable-rules does not import: {exc}"
        raise SetupError(hint) from exc
    silence_durable_warnings()
    quiet_durable_clock(durable_engine)
    return durable_rules_engine, durable_engine


_NAIVE_EPOCH = datetime.datetime(1970, 1, 1)
"""What ``datetime.datetime.utcfromtimestamp(0)`` returns: the Unix epoch as a naive datetime."""


def durable_unix_now() -> float:
    """``durable.engine._unix_now`` without its deprecated call, returning the same value: the local
    wall-clock time minus the naive Unix epoch, in seconds (durable only takes differences of it)."""
    return (datetime.datetime.now() - _NAIVE_EPOCH).total_seconds()


def quiet_durable_clock(durable_engine: ModuleType) -> None:
    """Replace durable's clock (called once per action run) with :func:`durable_unix_now`, so that
    on Python 3.12+ no DeprecationWarning is raised at all: not even ``-W error`` or a test runner
    that resets the warning filters can turn it into a failure or a pile of kept warnings."""
    if getattr(durable_engine, "_unix_now", None) is not None:
        durable_engine._unix_now = durable_unix_now


def silence_durable_warnings() -> None:
    """Ignore durable-rules' ``utcfromtimestamp`` DeprecationWarning (Python 3.12+), only where it
    arises (module ``durable.engine``); every other warning is left alone.  Idempotent: the
    ``warnings`` module drops a filter that is already registered before adding it again."""
    warnings.filterwarnings("ignore", message=UTCFROMTIMESTAMP_WARNING, category=DeprecationWarning,
                            module=r"durable\.engine")


def _clip(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
