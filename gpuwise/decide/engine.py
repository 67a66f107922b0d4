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
* on Python 3.12 its clock calls the deprecated ``utcfromtimestamp`` once per action:
  :func:`gpuwise.compat_py.import_durable` gives it an equivalent clock (and filters that one
  warning as a backstop);
* the Host's background dispatch threads are not needed (every call is synchronous), so the host
  starts none;
* every fact goes in as JSON and every batch an action is handed comes back as JSON, through
  durable's module-level ``json``; that module is given orjson's encoder and decoder (the same
  JSON in compact form, several times faster: about a third of a full-catalog consultation's time
  was spent there);
* each action's context is kept in a reference cycle (its lease timer refers to itself), so the
  facts it was handed are dropped when the action ends (:func:`_release`);
* access is serialised with one lock: durable-rules is not thread-safe.

Chaining: a ``pass`` rule's action asserts the candidates it passed again at the next stage
(memory -> compute -> interconnect -> tco -> decided) with the fields the rule sets, from inside
the action with ``Host.assert_facts``; the next step's rules match them. The order of the steps is
the chain itself, and the firings record it.

Batches: every rule carries a ``cap``, so an action fires once on all the facts it matches in a
batch (one Python round trip instead of one per fact: five to eight times faster here over a full
catalog). A batch that holds a fact no rule handles corrupted the session here, so the rule book
has a catch-all rule (``SEEN``) whose first condition matches every fact: the engine counts a fact
matched by a rule's first condition as handled. Its second condition matches no fact ever
asserted, so it never fires: a catch-all that fired was handed every fact at every stage back
from the engine as JSON (about half of what a full-catalog consultation's actions were handed).
"""

from __future__ import annotations

import contextlib
import itertools
import signal
import threading
from collections.abc import Iterator
from dataclasses import field
from typing import Any

import orjson

from ..compat_py import import_durable
from ..errors import EngineError
from ..frozen import record
from ..results import STAGES
from .rulebook import CHAINED, DETAIL, OPEN, SEEN, Rulebook, engine_number

_, _durable = import_durable()  # a broken build: SetupError with the rebuild hint (exit 3)


class _OrjsonCodec:
    """The two functions durable.engine calls on its ``json`` module (always with
    ``ensure_ascii=False``: orjson writes UTF-8 as that does), done by orjson."""

    loads = staticmethod(orjson.loads)

    @staticmethod
    def dumps(obj: Any, ensure_ascii: bool = False) -> str:
        return orjson.dumps(obj).decode()


_durable.json = _OrjsonCodec()


class _Content(_durable.Content):
    """durable's wrapper of each fact handed to an action, made without its ``__setattr__`` (a
    Python call per fact, ~630 in a full-catalog consultation). The same object: ``_d`` in its
    ``__dict__``."""

    def __init__(self, data: Any) -> None:
        self.__dict__["_d"] = data


_durable.Content = _Content  # durable.engine.Closure builds an action's facts with its module's Content

_LOCK = threading.RLock()
_SIDS = itertools.count(1)
_registered: dict[str, list[tuple[frozenset[str], str]]] = {}  # book -> (fact types, ruleset name)


@record
class Session:
    """What one consultation's rules did: firings in order, what each pass set, how far each
    candidate got."""

    book: Rulebook
    facts: list[dict[str, Any]] = field(default_factory=list)
    name: str = ""  # the durable-rules ruleset the session runs in (:func:`_ensure`)
    firings: list[tuple[str, int, str | None]] = field(default_factory=list)  # (rule id, fact index, stage)
    stage_values: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)  # (index, stage) -> set
    reached: dict[int, str] = field(default_factory=dict)  # candidate index -> furthest stage
    stalled: dict[int, str] = field(default_factory=dict)  # candidate index -> stage no rule handled
    carried: list[tuple[int, str]] = field(default_factory=list)  # audited candidates carried past a failed step


_sessions: dict[str, Session] = {}


class _Host(_durable.Host):
    """A durable-rules host whose actions record firings in the consultation's session."""

    def _run(self) -> None:  # no background dispatch threads: every call here is synchronous
        return

    def get_action(self, action_name: str):
        if action_name in (OPEN, SEEN):
            return _release
        return lambda c: (_fire(action_name, c), _release(c))


def _release(c: Any) -> None:
    """Let go of the facts an action was handed: durable-rules keeps each action's context in a
    reference cycle (its lease timer refers to itself), so whatever the context holds would
    otherwise wait for the garbage collector instead of being freed when the action ends."""
    c.__dict__.pop("m", None)


def _index(fact_id: str) -> int:
    return int(fact_id.split("@")[0][1:])


def _matched(c: Any) -> list[dict[str, Any]]:
    """The facts an action fired on: a batch (rules have a ``cap``), or one."""
    m = c.m
    return [x._d for x in m] if isinstance(m, list) else [m._d]


def _fire(rule_id: str, c: Any) -> None:
    """One rule fired on a batch of facts: record each firing; for a ``pass``, assert the batch
    again at the next stage with the fields the rule sets (the next step's rules match it)."""
    batch = _matched(c)
    session = _sessions.get(batch[0]["sid"]) if batch else None
    if session is None:  # pragma: no cover - a session always exists while its facts are asserted
        return
    book = session.book
    rule = book.rules[rule_id]
    onward: list[dict[str, Any]] = []
    for m in batch:
        idx = _index(m["id"])
        stage = m.get("stage")
        session.firings.append((rule_id, idx, stage))
        if rule.then.action != "pass" or m.get("t") != CHAINED:
            continue
        nxt = STAGES[STAGES.index(stage) + 1]
        if (idx, nxt) in session.stage_values:  # another pass rule of this step already moved it on
            continue
        fact = session.facts[idx]
        verdicts = _verdicts(session, idx, nxt)
        now = {}
        for name, value in rule.then.set.items():
            ref = value[1:] if isinstance(value, str) and value.startswith("$") else None
            now[name] = (verdicts[ref] if ref in verdicts else fact.get(ref)) if ref else value
        verdicts.update(now)
        session.stage_values[(idx, nxt)] = now
        session.reached[idx] = nxt
        if book.has_stage(nxt):  # no rule looks at that stage: nothing to assert
            onward.append(message(book, fact, idx, m["sid"], verdicts, nxt))
    if onward:
        c.host.assert_facts(session.name, onward)


def _verdicts(session: Session, idx: int, upto: str) -> dict[str, Any]:
    """What the pass rules set for a candidate on its way to ``upto``."""
    out: dict[str, Any] = {}
    for s in STAGES[1:STAGES.index(upto)]:
        out.update(session.stage_values.get((idx, s), {}))
    return out


def _ensure(book: Rulebook, kinds: frozenset[str]) -> tuple[_Host, str]:
    """The host, and the name of a ruleset holding the rule book's rules about the fact types
    ``kinds`` (with the sentinel and catch-all rules): one registered before whose types cover
    them, else a new one of these types. A rule matches facts of its own type only, and an action
    asserts candidates only (a session's types are those it opens with), so the rules about other
    types could never fire in the session: leaving them out leaves the firings as they are, and a
    recommendation's ruleset (no seller's cards, proposals or plans) is a third smaller to build."""
    global _host
    if _host is None:
        _host = _Host()
    known = _registered.setdefault(book.durable_name, [])
    for covered, name in known:
        if kinds <= covered:
            return _host, name
    name = f"{book.durable_name}_{len(known)}"
    kinds = kinds | CORE if kinds <= CORE else frozenset(book.fact_types())  # the consultation's, or all
    whole = book.definition()
    wanted = {rid: rule for rid, rule in whole.items() if rid in (OPEN, SEEN) or book.rules[rid].fact in kinds}
    # durable-rules deletes each rule's "run" as it registers it and edits nothing deeper (it
    # hands the rest to its engine as JSON): a copy of each rule's top level keeps the book's own
    _host.set_rulesets({name: {rid: dict(rule) for rid, rule in wanted.items()}})
    known.append((kinds, name))
    return _host, name


CORE = frozenset((CHAINED, "job", "environment", "price"))
"""The fact types of a recommendation's consultation (and of its count search's): the ruleset
registered for any of them holds all of their rules, so a search and the consultation after it
share one; a session with a seller's card, a proposal or a plan gets the whole book."""

_host: _Host | None = None


_ABSENT = object()


def message(book: Rulebook, fact: dict[str, Any], index: int, sid: str,
            override: dict[str, Any] | None = None, stage: str | None = None) -> dict[str, Any]:
    """What the engine sees of a fact: the fields some rule reads (for a candidate, the rules of
    its stage, ``stage`` or the fact's own), numbers in its range, ids. ``override`` holds what the
    pass rules set on the way."""
    t = fact["t"]
    chained = t == CHAINED
    if chained and stage is None:
        stage = fact["stage"]
    msg: dict[str, Any] = {}
    get = fact.get
    over = override.get if override else None
    for k in book.fields_read(t, stage):  # one pass: each value looked up once, brought into range
        if over is None or (v := over(k, _ABSENT)) is _ABSENT:
            v = get(k, _ABSENT)
            if v is _ABSENT:
                continue
        c = v.__class__
        if c is float:  # zero, or 1e-4 <= |v| < 1e15, as it is (NaN fails every comparison)
            if v and not (1e-4 <= v < 1e15 or -1e15 < v <= -1e-4):
                v = engine_number(v)
        elif c is int and not -10**15 < v < 10**15:
            v = engine_number(float(v))
        msg[k] = v
    msg["t"] = t
    msg["sid"] = sid
    if chained:
        msg["id"] = f"f{index}@{stage}"
        msg["stage"] = stage
        msg[DETAIL] = fact.get(DETAIL, 1)
    else:
        msg["id"] = f"f{index}"
    return msg


@contextlib.contextmanager
def _interrupt_held() -> Iterator[None]:
    """Ctrl-C waits until the consultation is over, then raises KeyboardInterrupt. Raised inside
    an action, durable-rules caught it, printed its own traceback and went on with half a
    session: the command could then write another report and exit 0 or 1. A consultation takes
    milliseconds, so the wait is not felt. Only Python's own SIGINT handler, in the main thread,
    is replaced (a program embedding gpuwise keeps its handler)."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    pending: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, _frame: pending.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if pending:
            raise KeyboardInterrupt


def run(book: Rulebook, facts: list[dict[str, Any]]) -> Session:
    """Assert every fact (candidates at their first stage) in a fresh session and let the rules
    chain; return what fired. Facts of a type no rule reads are not asserted. An interrupt waits
    for the end of the consultation (:func:`_interrupt_held`)."""
    with _interrupt_held():
        return _run(book, facts)


_Record = tuple[list[tuple[str, str | None]], dict[str, dict[str, Any]], str | None]
"""What the rules did with one fact: its firings (rule id, stage), what each pass set by stage,
the stage it reached."""
_REMEMBERED: dict[str, dict[bytes, _Record]] | None = None  # rule book -> fact -> record, in remembering()
MAX_REMEMBERED = 50_000


@contextlib.contextmanager
def remembering() -> Iterator[None]:
    """Consultations inside reuse what the rules did with a fact met before (a batch's proposals
    that ask the same question judge the same alternatives). Every rule matches one fact, so what
    fires on a fact -- and on its chain through the steps -- is a function of the fact and the rule
    book alone; the outcome is the one a fresh session gives (tests/test_audit_batch.py)."""
    global _REMEMBERED
    outer, _REMEMBERED = _REMEMBERED, {} if _REMEMBERED is None else _REMEMBERED
    try:
        yield
    finally:
        _REMEMBERED = outer


def _fact_id(fact: dict[str, Any]) -> bytes:
    """A fact's content as a key: its JSON with sorted keys (1, 1.0 and true stay apart, floats are
    exact); where JSON would write null for NaN or an infinity, or cannot write a value, its repr."""
    try:
        got = orjson.dumps(fact, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        got = b"null"
    return got if b"null" not in got else repr(sorted(fact.items())).encode()


def _records(session: Session, wanted: list[int]) -> dict[int, _Record]:
    out: dict[int, _Record] = {i: ([], {}, session.reached.get(i)) for i in wanted}
    for rid, idx, stage in session.firings:
        if idx in out:
            out[idx][0].append((rid, stage))
    for (idx, stage), v in session.stage_values.items():
        if idx in out:
            out[idx][1][stage] = dict(v)
    return out


def _replay(session: Session, i: int, rec: _Record) -> None:
    firings, values, reached = rec
    session.firings += [(rid, i, stage) for rid, stage in firings]
    for stage, v in values.items():
        session.stage_values[(i, stage)] = dict(v)
    if reached is not None:
        session.reached[i] = reached


def _run(book: Rulebook, facts: list[dict[str, Any]]) -> Session:
    types = book.fact_types() | {CHAINED}
    with _LOCK:
        host, name = _ensure(book, frozenset(f["t"] for f in facts if f["t"] in types))
        sid = f"c{next(_SIDS)}"
        session = Session(book, facts, name=name)
        _sessions[sid] = session
        # a fact's record is the same in any ruleset holding its type's rules: kept by the whole book
        memo = None if _REMEMBERED is None else _REMEMBERED.setdefault(book.durable_name, {})
        try:
            host.assert_fact(name, {"t": OPEN, "sid": sid, "id": OPEN})
            batch, carry, new = [], [], []
            for i, f in enumerate(facts):
                if f["t"] not in types:
                    continue
                proposed = f["t"] == CHAINED and f.get("tag") == "proposed"
                if f["t"] == CHAINED:
                    session.reached.setdefault(i, f["stage"])
                    if proposed:
                        carry.append(i)
                if memo is not None and not proposed:  # a proposal is carried through every step: not reused
                    key = _fact_id(f)
                    rec = memo.get(key)
                    if rec is not None:
                        _replay(session, i, rec)
                        continue
                    new.append((i, key))
                batch.append(message(book, f, i, sid))
            if batch:  # every fact is handled (the SEEN rule matches all): a batch is safe
                host.assert_facts(name, batch)
            for i in carry:
                _carry(host, name, sid, session, i)
            if memo is not None:
                if len(memo) + len(new) > MAX_REMEMBERED:
                    memo.clear()
                records = _records(session, [i for i, _ in new])
                for i, key in new:
                    memo[key] = records[i]
            return session
        except EngineError:
            raise
        except Exception as exc:  # an action failed, or the engine refused a fact: surface it
            raise EngineError(f"rule engine: {type(exc).__name__}: {getattr(exc, 'message', exc)}") from exc
        finally:
            with contextlib.suppress(Exception):
                host.delete_state(name, sid)
            _sessions.pop(sid, None)


def _carry(host: _Host, name: str, sid: str, session: Session, i: int) -> None:
    """An audit judges every step of the proposal: where no rule passed it on, the proposal is
    carried to the next stage anyway, its verdict fields for that step false (``fits: false``...),
    so the later steps' rules still look at it. Recommendations never carry a candidate."""
    while session.reached.get(i) != "decided":
        stage = session.reached.get(i, session.facts[i]["stage"])
        nxt = STAGES[STAGES.index(stage) + 1]
        failed = {k: False for k in session.book.set_by_stage(nxt)}
        session.stage_values[(i, nxt)] = failed
        session.reached[i] = nxt
        session.carried.append((i, nxt))
        if session.book.has_stage(nxt):
            verdicts = {**_verdicts(session, i, nxt), **failed}
            host.assert_facts(name, [message(session.book, session.facts[i], i, sid, verdicts, nxt)])


def merge(session: Session, more: Session, index: list[int]) -> None:
    """Add a second session's firings about some of the first session's facts (``index`` maps the
    second session's fact positions to the first's): the detail pass."""
    session.firings += [(rid, index[i], stage) for rid, i, stage in more.firings]
    for (i, stage), values in more.stage_values.items():
        session.stage_values.setdefault((index[i], stage), values)
    session.carried += [(index[i], stage) for i, stage in more.carried]


def live_sessions() -> int:
    """Sessions not yet cleaned up (0 between consultations); used by the load tests."""
    return len(_sessions)
