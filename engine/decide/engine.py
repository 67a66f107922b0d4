"""The only module that imports durable-rules, through its public API (``Host.assert_fact``,
``Closure.assert_fact``, ``Host.delete_state``). It owns the engine's quirks:

* rulesets are global by name in the process, so the rule book is registered once under a name
  that carries its digest (rules and policy), and a changed rule book gets a new name;
* more than 1,024 live sessions in a ruleset raise MemoryError and can crash the process, so every
  consultation runs in its own session whose state is deleted afterwards, also on error;
* asserting a fact equal to a live one raises MessageObservedException, so every fact carries a
  unique id (its index, and for candidates the stage);
* a session whose facts were *all* unhandled can be neither kept (leak) nor deleted (crash), so
  every session opens with a sentinel fact a built-in rule handles;
* its JSON parser refuses numbers in exponent form ("1e-05", "1e+16": error 204), which is how
  Python writes very small and very large floats, so numbers are brought into the range it reads
  (see :func:`engine_number`);
* on Python 3.12 it emits a ``utcfromtimestamp`` DeprecationWarning for every action: filtered here;
* the Host's background dispatch threads are not needed (every call is synchronous), so the host
  starts none;
* access is serialised with one lock: durable-rules is not thread-safe.

Chaining: a ``pass`` rule's action asserts the candidate again at the next stage (memory ->
compute -> interconnect -> tco -> decided) with the fields the rule sets, from inside the action
with ``Closure.assert_fact``; the next step's rules match it. The order of the steps is the chain
itself, and the firings record it.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import threading
import warnings
from dataclasses import dataclass, field
from typing import Any

from ..errors import EngineError
from .facts import STAGES
from .rulebook import CHAINED, DECIDED, OPEN, Rulebook

warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"durable(\..*)?$")

try:
    from durable import engine as _durable
except (ImportError, AttributeError) as exc:  # pragma: no cover - depends on how durable-rules was built
    raise EngineError(
        f"durable-rules does not load ({exc}). On Python 3.13 build it with "
        "CPPFLAGS=-DPyEval_CallObject=PyObject_CallObject pip install --no-cache-dir --force-reinstall "
        "durable-rules==2.0.28 (see README, Python versions)") from None

_LOCK = threading.RLock()
_SIDS = itertools.count(1)
_registered: set[str] = set()


@dataclass
class Session:
    """What one consultation's rules did: firings in order, what each pass set, how far each
    candidate got."""

    book: Rulebook
    facts: list[dict[str, Any]] = field(default_factory=list)
    firings: list[tuple[str, int, str | None]] = field(default_factory=list)  # (rule id, fact index, stage)
    stage_values: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)  # (index, stage) -> set
    reached: dict[int, str] = field(default_factory=dict)  # candidate index -> furthest stage
    stalled: dict[int, str] = field(default_factory=dict)  # candidate index -> stage no rule handled
    carried: list[tuple[int, str]] = field(default_factory=list)  # audited candidates carried past a failed step


_sessions: dict[str, Session] = {}


def engine_number(v: float) -> float:
    """A float durable-rules' parser reads, in the same order as the original: negative zero is
    zero; magnitudes below 1e-4 (written in exponent form) become +-1e-4; above 1e15, +-1e15."""
    if v != v or v in (math.inf, -math.inf):
        raise EngineError(f"a non-finite number ({v}) reached the rule engine")
    if v == 0:
        return 0.0
    mag = abs(v)
    if mag < 1e-4:
        return math.copysign(1e-4, v)
    if mag >= 1e15:
        return math.copysign(1e15, v)
    return v


def _clean(value: Any) -> Any:
    if value.__class__ is float:
        return engine_number(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        return engine_number(float(value))
    return value


class _Host(_durable.Host):
    """A durable-rules host whose actions record firings in the consultation's session."""

    def _run(self) -> None:  # no background dispatch threads: every call here is synchronous
        return

    def get_action(self, action_name: str):
        if action_name == OPEN:
            return lambda c: None
        if action_name == DECIDED:
            return _decided
        return lambda c: _fire(action_name, c)


def _index(fact_id: str) -> int:
    return int(fact_id.split("@")[0][1:])


def _decided(c: Any) -> None:
    m = c.m._d
    session = _sessions.get(m["sid"])
    if session is not None:
        session.reached[_index(m["id"])] = "decided"


def _fire(rule_id: str, c: Any) -> None:
    m = c.m._d
    session = _sessions.get(m["sid"])
    if session is None:  # pragma: no cover - a session always exists while its facts are asserted
        return
    idx = _index(m["id"])
    stage = m.get("stage")
    session.firings.append((rule_id, idx, stage))
    rule = session.book.rules[rule_id]
    if rule.then.action != "pass" or m.get("t") != CHAINED:
        return
    nxt = STAGES[STAGES.index(stage) + 1]
    if (idx, nxt) in session.stage_values:  # another pass rule of this step already moved it on
        return
    values = {**session.facts[idx], **_verdicts(session, idx, nxt)}
    for name, value in rule.then.set.items():
        values[name] = values.get(value[1:]) if isinstance(value, str) and value.startswith("$") else value
    session.stage_values[(idx, nxt)] = {k: values[k] for k in rule.then.set}
    session.reached[idx] = nxt
    new = message(session.book, {**values, "stage": nxt}, idx, m["sid"])
    try:
        c.assert_fact(new)
    except _durable.MessageNotHandledException:
        session.stalled[idx] = nxt


def _verdicts(session: Session, idx: int, upto: str) -> dict[str, Any]:
    """What the pass rules set for a candidate on its way to ``upto``."""
    out: dict[str, Any] = {}
    for s in STAGES[1:STAGES.index(upto)]:
        out.update(session.stage_values.get((idx, s), {}))
    return out


def _ensure(book: Rulebook) -> _Host:
    global _host
    if _host is None:
        _host = _Host()
    name = book.durable_name
    if name not in _registered:
        _host.set_rulesets({name: book.definition()})
        _registered.add(name)
    return _host


_host: _Host | None = None


def message(book: Rulebook, fact: dict[str, Any], index: int, sid: str) -> dict[str, Any]:
    """What the engine sees of a fact: the fields some rule reads (for a candidate, the rules of
    its stage), numbers in its range, ids."""
    t = fact["t"]
    msg = {k: _clean(fact[k]) for k in book.fields_read(t, fact.get("stage")) if k in fact}
    msg.update(t=t, sid=sid, id=f"f{index}" + (f"@{fact['stage']}" if t == CHAINED else ""))
    if t == CHAINED:
        msg["stage"] = fact["stage"]
    return msg


def run(book: Rulebook, facts: list[dict[str, Any]]) -> Session:
    """Assert every fact (candidates at their first stage) in a fresh session and let the rules
    chain; return what fired. Facts of a type no rule reads are not asserted."""
    types = book.fact_types() | {CHAINED}
    with _LOCK:
        host = _ensure(book)
        name = book.durable_name
        sid = f"c{next(_SIDS)}"
        session = Session(book, facts)
        _sessions[sid] = session
        try:
            host.assert_fact(name, {"t": OPEN, "sid": sid, "id": OPEN})
            for i, f in enumerate(facts):
                if f["t"] not in types:
                    continue
                if f["t"] == CHAINED:
                    session.reached.setdefault(i, f["stage"])
                msg = message(book, f, i, sid)
                _assert(host, name, msg, session, i)
                if f["t"] == CHAINED and f.get("tag") == "proposed":
                    _carry(host, name, msg, session, i)
            return session
        except EngineError:
            raise
        except Exception as exc:  # an action failed, or the engine refused a fact: surface it
            raise EngineError(f"rule engine: {type(exc).__name__}: {getattr(exc, 'message', exc)}") from exc
        finally:
            with contextlib.suppress(Exception):
                host.delete_state(name, sid)
            _sessions.pop(sid, None)


def _assert(host: _Host, name: str, msg: dict[str, Any], session: Session, i: int) -> None:
    try:
        host.assert_fact(name, msg)
    except _durable.MessageNotHandledException:
        if msg["t"] == CHAINED:
            session.stalled[i] = msg["stage"]
    except _durable.MessageObservedException:  # pragma: no cover - ids are unique
        raise EngineError(f"rule engine refused fact {i} as a duplicate") from None


def _carry(host: _Host, name: str, msg: dict[str, Any], session: Session, i: int) -> None:
    """An audit judges every step of the proposal: where no rule passed it on, the proposal is
    carried to the next stage anyway, its verdict fields for that step false (``fits: false``...),
    so the later steps' rules still look at it. Recommendations never carry a candidate."""
    while session.reached.get(i) != "decided":
        stage = session.reached.get(i, msg["stage"])
        nxt = STAGES[STAGES.index(stage) + 1]
        failed = {k: False for k in session.book.set_by_stage(nxt)}
        session.stage_values[(i, nxt)] = failed
        session.reached[i] = nxt
        session.carried.append((i, nxt))
        values = {**session.facts[i], **_verdicts(session, i, nxt), **failed, "stage": nxt}
        _assert(host, name, message(session.book, values, i, msg["sid"]), session, i)


def live_sessions() -> int:
    """Sessions not yet cleaned up (0 between consultations); used by the load tests."""
    return len(_sessions)
