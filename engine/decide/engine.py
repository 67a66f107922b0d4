"""The only module that imports durable-rules. It owns the engine's quirks:

* rulesets are global by name in the process, so they are registered once (names carry
  the rule book's digest, so a changed rule book gets new names);
* more than 1,024 live sessions in a ruleset raise MemoryError and can crash the
  process, so every consultation runs in its own session whose state is deleted
  afterwards, also on error;
* asserting a fact equal to a live one raises MessageObservedException and big sessions
  refuse distinct facts, so every fact carries a unique id and sessions stay small
  (each fact carries only the fields its ruleset's conditions read);
* a fact that no rule matches raises MessageNotHandledException: asserted one at a time
  that is harmless and simply means "no rule fired" (asserted in a batch it corrupted
  the session and crashed the process here, so facts are never batched); but a session
  whose facts were *all* unhandled can be neither kept (leak) nor deleted (crash), so
  every session opens each ruleset with a sentinel fact that a built-in rule handles;
* an exception inside an action would be stored in the session rather than raised, so
  the action only records the firing, and the consequences run afterwards in Python
  (``engine.actions``), where errors surface normally;
* access is serialised with one lock: durable-rules is not thread-safe.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import threading
from typing import Any

import durable_rules_engine as _c_engine
from durable import engine as _durable

from ..errors import EngineError
from .actions import Firing
from .rulebook import OPEN, Rulebook

_LOCK = threading.RLock()
_SIDS = itertools.count(1)
_registered: set[str] = set()
_sessions: dict[str, list[Firing]] = {}


class _Host(_durable.Host):
    """A durable-rules host without its background dispatch threads (all calls are synchronous)."""

    def _run(self) -> None:
        return

    def get_action(self, action_name: str):
        def act(c: Any) -> None:
            m = c.m
            firings = _sessions.get(m["sid"])
            if firings is not None and action_name != OPEN:
                firings.append((action_name, int(m["id"][1:])))

        return act


_host: _Host | None = None


def _ensure(book: Rulebook) -> _Host:
    global _host
    if _host is None:
        _host = _Host()
    new = {name: d for name, d in book.rulesets().items() if name not in _registered}
    if new:
        _host.set_rulesets(new)
        _registered.update(new)
    return _host


def run(book: Rulebook, facts: list[dict[str, Any]]) -> list[Firing]:
    """Assert every fact into every ruleset that has rules for its type, in rule-file (step)
    order, in a fresh session; return the firings as (rule id, index into ``facts``)."""
    with _LOCK:
        host = _ensure(book)
        sid = f"c{next(_SIDS)}"
        firings: list[Firing] = []
        _sessions[sid] = firings
        used: list[str] = []
        try:
            for _, rf in book.files:
                name = book.durable_name(rf.ruleset)
                fields = book.condition_fields(rf.ruleset)
                first_pass = book.condition_fields(rf.ruleset, rejects_only=True)
                asserted = False
                for i, f in enumerate(facts):
                    wanted = (first_pass if f.get("detail") == 0 else fields).get(f["t"])
                    if wanted is None:
                        continue
                    msg = {k: f[k] for k in wanted if k in f}
                    msg.update(t=f["t"], sid=sid, id=f"f{i}")
                    if not asserted:
                        ruleset = host.get_ruleset(name)
                        _assert(ruleset, {"t": OPEN, "sid": sid, "id": OPEN})
                        used.append(name)
                        asserted = True
                    _assert(ruleset, msg)
            return firings
        finally:
            for name in used:
                with contextlib.suppress(Exception):
                    host.delete_state(name, sid)
            _sessions.pop(sid, None)


def _assert(ruleset: Any, msg: dict[str, Any]) -> None:
    """Assert one fact and run the actions it triggers.

    The same calls ``Host.assert_fact`` makes, without building a MessageNotHandledException
    for every fact no rule matches (most facts, in a consultation): result code 1 means "no
    rule matched", 2 "an identical fact is live", 3 "stored, nothing to run".
    """
    result = _c_engine.assert_fact(ruleset._handle, json.dumps(msg))
    code = result[0]
    if code == 1 or code == 3:
        return
    if code == 2:  # pragma: no cover - every fact carries a unique id
        raise EngineError(f"rule engine refused fact {msg['id']} as a duplicate")
    errors: list[BaseException] = []

    def done(error: BaseException | None, _state: Any) -> None:
        if error:
            errors.append(error)

    ruleset.do_actions(result[1], done)
    if errors:
        raise EngineError(f"rule action failed: {errors[0]}")


def live_sessions() -> int:
    """Sessions not yet cleaned up (0 between consultations); used by the load tests."""
    return len(_sessions)
