"""What the rules in force would certainly decide about a candidate known only in part.

The count search of ``recommend`` skips a count only when the rule book itself, asked about what
is known of that count before estimating it, would certainly leave it undecided: a ``reject`` rule
that certainly holds, or a step none of whose ``pass`` rules can hold. What is known is exact
values (the GPU, the job, the count) and ranges (the fewest days any layout takes, the least
memory any layout needs); every other field is unknown. A condition is then true, false or
unknown (three-valued logic over intervals), so a house rule that relaxes or tightens a threshold,
replaces a rule or adds one moves the bound with it: the search never re-states a rule's threshold.

This reads the compiled rule book's conditions (the same policy values the engine gets); it never
decides a judged candidate — those go through the engine (:mod:`gpuwise.decide.engine`).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable
from typing import Any

import orjson

from ..frozen import frozen
from ..results import STAGES
from .rulebook import CHAINED, Rule, Rulebook, _literal, _policy_ref, _ref, policy_expression, stage_of


@frozen
class Range:
    """A number known to lie in ``[lo, hi]``."""

    lo: float
    hi: float


UNKNOWN = object()
_NUMBER = (int, float)


@frozen
class _Cond:
    name: str
    op: str
    literal: Any = None  # the value compared with, when it is not another field
    other: str | None = None  # the other field, for ``$field`` and ``{ref: field, times: f}``
    factor: float = 1.0


@frozen
class _Prepared:
    rejects: list[tuple[list[_Cond], list[_Cond]]]
    passes: dict[str, list[tuple[list[_Cond], list[_Cond]]]]  # stage -> pass rules (when, any)
    chain: dict[str, Any]  # what every pass rule of a step sets alike (fits: true): known past it


_PREPARED: dict[str, _Prepared] = {}


def _cond(c: list[Any], policy: dict[str, Any]) -> _Cond:
    name, op, value = c
    ref = _ref(value)
    if ref is not None:
        times = ref[1]
        factor = policy_expression(times, policy) if isinstance(times, str) else float(times)
        return _Cond(name, op, other=ref[0], factor=factor)
    pname = _policy_ref(value)
    if pname is not None:
        return _Cond(name, op, literal=policy[pname])
    # as the engine reads it: 10**400 (a house rule's) is 1e15 there, and float() of it overflowed here
    return _Cond(name, op, literal=[_literal(v) for v in value] if isinstance(value, list) else _literal(value))


def _prepared(book: Rulebook) -> _Prepared:
    got = _PREPARED.get(book.digest)
    if got is None:
        rejects: list[tuple[list[_Cond], list[_Cond]]] = []
        passes: dict[str, list[tuple[list[_Cond], list[_Cond]]]] = {s: [] for s in STAGES[:-1]}
        sets: dict[str, list[dict[str, Any]]] = {}
        for rid, rule in book.rules.items():
            if rule.fact != CHAINED or rule.then.action not in ("reject", "pass"):
                continue
            conds = _conds(rule, book.policy)
            if rule.then.action == "reject":
                rejects.append(conds)
            else:
                stage = str(stage_of(rule, book.step_of[rid]))
                passes.setdefault(stage, []).append(conds)
                sets.setdefault(stage, []).append(rule.then.set)
        chain: dict[str, Any] = {}
        for many in sets.values():  # a literal every pass rule of the step sets: the next steps see it
            for name, value in many[0].items():
                literal = not (isinstance(value, str) and value.startswith("$"))
                if literal and all(name in one and one[name] == value for one in many):
                    chain[name] = value
        got = _PREPARED[book.digest] = _Prepared(rejects, passes, chain)
    return got


def _conds(rule: Rule, policy: dict[str, Any]) -> tuple[list[_Cond], list[_Cond]]:
    return [_cond(c, policy) for c in rule.when], [_cond(c, policy) for c in rule.any]


def _scaled(v: Any, factor: float) -> Any:
    if v is UNKNOWN or factor == 1.0:
        return v
    if isinstance(v, Range):
        a, b = v.lo * factor, v.hi * factor
        return Range(min(a, b), max(a, b))
    if isinstance(v, _NUMBER) and not isinstance(v, bool):
        return v * factor
    return UNKNOWN


def _span(v: Any) -> tuple[float, float] | None:
    if isinstance(v, Range):
        return v.lo, v.hi
    if isinstance(v, _NUMBER) and not isinstance(v, bool):
        return float(v), float(v)
    return None


def _equal(a: Any, b: Any) -> bool | None:
    if isinstance(a, Range) or isinstance(b, Range):
        sa, sb = _span(a), _span(b)
        if sa is None or sb is None:
            return None
        if sa[1] < sb[0] or sb[1] < sa[0]:
            return False
        return True if sa[0] == sa[1] == sb[0] == sb[1] else None
    if isinstance(a, bool) != isinstance(b, bool):
        return None  # the engine's JSON does not equate true and 1: do not guess
    return a == b


def compare(op: str, a: Any, b: Any) -> bool | None:
    """``a op b`` where either side may be a :class:`Range` or unknown: True, False or None."""
    if a is UNKNOWN or b is UNKNOWN:
        return None
    if op == "in":
        answers = {_equal(a, x) for x in b}
        return True if True in answers else (False if answers == {False} else None)
    if op in ("==", "!="):
        eq = _equal(a, b)
        return None if eq is None else (eq if op == "==" else not eq)
    sa, sb = _span(a), _span(b)
    if sa is None or sb is None:
        if isinstance(a, str) and isinstance(b, str):
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        return None
    (alo, ahi), (blo, bhi) = sa, sb
    return _ordered(op, alo, ahi, blo, bhi)


def _holds(conds: tuple[list[_Cond], list[_Cond]], known: dict[str, Any]) -> bool | None:
    """Whether a rule's conditions hold for these fields: True, False or None (cannot tell)."""
    return _holds_split(_whole(conds), known)


def _whole(conds: tuple[list[_Cond], list[_Cond]]) -> _Split:
    """A rule's conditions as :func:`_holds_split` reads them, none left out."""
    when, anyof = conds
    return when, False, anyof, False, bool(anyof)


def _test(c: _Cond, known: dict[str, Any]) -> bool | None:
    """``compare`` of a condition's two sides; the common cases (an unknown side, two flags, two
    names, two plain numbers, a range against a number) answered without its general path."""
    lhs = known.get(c.name, UNKNOWN)
    if lhs is UNKNOWN:
        return None
    rhs = c.literal if c.other is None else _scaled(known.get(c.other, UNKNOWN), c.factor)
    if rhs is UNKNOWN:
        return None
    op, lt, rt = c.op, lhs.__class__, rhs.__class__
    if op == "==" or op == "!=":
        if (lt is rt and (lt is bool or lt is str)) or ((lt is float or lt is int) and (rt is float or rt is int)):
            return (lhs == rhs) if op == "==" else (lhs != rhs)
    elif (rt is float or rt is int) and op != "in":
        if lt is Range:
            r = float(rhs)
            return _ordered(op, lhs.lo, lhs.hi, r, r)
        if lt is float or lt is int:
            v, r = float(lhs), float(rhs)
            return _ordered(op, v, v, r, r)
    return compare(op, lhs, rhs)


def _ordered(op: str, alo: float, ahi: float, blo: float, bhi: float) -> bool | None:
    """The ordering of the span ``[alo, ahi]`` against ``[blo, bhi]`` (a number is a span of one
    point): True or False when every value of each agrees, None when the spans leave it open."""
    if op == ">":
        return True if alo > bhi else (False if ahi <= blo else None)
    if op == ">=":
        return True if alo >= bhi else (False if ahi < blo else None)
    if op == "<":
        return True if ahi < blo else (False if alo >= bhi else None)
    if op == "<=":
        return True if ahi <= blo else (False if alo > bhi else None)
    return None


_Conds = tuple[list[_Cond], list[_Cond]]


def _residual(conds: _Conds, known: dict[str, Any]) -> bool | _Conds:
    """A rule with what ``known`` settles taken out: False (cannot hold), True (holds) or the
    conditions still open."""
    when, anyof = conds
    open_when: list[_Cond] = []
    for c in when:
        v = _test(c, known)
        if v is False:
            return False
        if v is None:
            open_when.append(c)
    open_any: list[_Cond] = []
    if anyof:
        answers = [_test(c, known) for c in anyof]
        if True not in answers:
            open_any = [c for c, a in zip(anyof, answers, strict=True) if a is None]
            if not open_any:
                return False
    return (open_when, open_any) if open_when or open_any else True


class Judgement:
    """The rule book specialised to what is known of a candidate (``known``): what it settles is
    taken out once, so asking again with more fields (:meth:`verdict`) looks only at the rest."""

    def __init__(self, book: Rulebook, known: dict[str, Any]) -> None:
        p = _prepared(book)
        known = {**p.chain, **known}  # a rule reading a step's verdict runs only past that step
        self.known = known
        self.out = False
        self.rejects: list[_Conds] = []
        for r in p.rejects:
            got = _residual(r, known)
            if got is True:
                self.out = True
            elif got is not False:
                self.rejects.append(got)
        self.stages: list[list[_Conds]] = []  # per step with no pass rule certain yet: the open ones
        for rules in p.passes.values():
            left = [_residual(r, known) for r in rules]
            if True in left:
                continue
            open_rules = [r for r in left if r is not False]
            if not open_rules:
                self.out = True
            self.stages.append(open_rules)  # type: ignore[arg-type]
        # the same as _holds asks them (each rule's conditions whole)
        self._rejects_split = [_whole(r) for r in self.rejects]
        self._stages_split = [[_whole(r) for r in rules] for rules in self.stages]
        self._narrowed: dict[frozenset[str], _Narrowed] = {}

    def verdict(self, more: dict[str, Any] | None = None) -> bool | None:
        """False: the rules certainly leave the candidate undecided; True: they certainly let it
        through every step; None: the rest of its fields decide. ``more``: fields not in ``known``."""
        if self.out:
            return False
        known = {**self.known, **more} if more else self.known
        unsure = False
        for r in self._rejects_split:
            h = _holds_split(r, known)
            if h is True:
                return False
            unsure = unsure or h is None
        for rules in self._stages_split:
            answers = [_holds_split(r, known) for r in rules]
            if True in answers:
                continue
            if all(a is False for a in answers):
                return False
            unsure = True
        return None if unsure else True


    def narrowed(self, names: frozenset[str]) -> _Narrowed:
        """This judgement asked again with only ``names`` added (:meth:`_Narrowed.verdict`): the
        open conditions that read none of them stay unknown, so they are answered once here."""
        got = self._narrowed.get(names)
        if got is None:
            got = self._narrowed[names] = _Narrowed(self, names)
        return got


_Split = tuple[list[_Cond], bool, list[_Cond], bool, bool]  # when read, when open, any read, any open, has any


class _Narrowed:
    """A :class:`Judgement` specialised to a few fields still to come (the need of memory probed by
    bisection): each open rule keeps only the conditions that read those fields; the others are
    unknown whatever they turn out to be. ``verdict`` answers exactly as the judgement's would."""

    def __init__(self, judgement: Judgement, names: frozenset[str]) -> None:
        self.known, self.out = judgement.known, judgement.out

        def split(conds: _Conds) -> _Split | None:
            when, anyof = conds
            w = [c for c in when if c.name in names or c.other in names]
            a = [c for c in anyof if c.name in names or c.other in names]
            if not w and not a:
                return None  # reads none of the fields: unknown, whatever they are
            return w, len(w) < len(when), a, len(a) < len(anyof), bool(anyof)

        rejects = [split(r) for r in judgement.rejects]
        self.rejects = [r for r in rejects if r is not None]
        self.unsure = any(r is None for r in rejects)  # a reject that may hold whatever the fields are
        self.stages: list[tuple[list[_Split], bool]] = []  # the rules that read the fields; any other open
        for rules in judgement.stages:
            split_rules = [split(r) for r in rules]
            self.stages.append(([r for r in split_rules if r is not None], any(r is None for r in split_rules)))

    def verdict(self, more: dict[str, Any]) -> bool | None:
        if self.out:
            return False
        known = {**self.known, **more}
        unsure = self.unsure
        for r in self.rejects:
            h = _holds_split(r, known)
            if h is True:
                return False
            unsure = unsure or h is None
        for rules, other_open in self.stages:
            answers = [_holds_split(r, known) for r in rules]
            if True in answers:
                continue
            if not other_open and all(a is False for a in answers):
                return False
            unsure = True
        return None if unsure else True


def _holds_split(r: _Split, known: dict[str, Any]) -> bool | None:
    """:func:`_holds` of a rule whose conditions left out are unknown."""
    when, when_open, anyof, any_open, has_any = r
    verdict: bool | None = None if when_open else True
    for c in when:
        v = _test(c, known)
        if v is False:
            return False
        if v is None:
            verdict = None
    if has_any:
        answers = [_test(c, known) for c in anyof]
        if True not in answers:
            if not any_open and all(a is False for a in answers):
                return False
            verdict = None
    return verdict


_NEED = frozenset(("need_gb", "need_requested_gb"))


def certainly_out(book: Rulebook, known: dict[str, Any]) -> bool:
    """The rules would certainly not let a candidate with these fields (values, :class:`Range`s;
    missing fields unknown) reach the end of the chain: a reject certainly holds, or some step
    has no pass rule that can hold."""
    return Judgement(book, known).verdict() is False


def certainly_rejecting(book: Rulebook, known: dict[str, Any]) -> list[str]:
    """The ``reject`` rules whose conditions certainly hold for a candidate with these fields
    (values, :class:`Range`s; missing fields unknown), by id."""
    out = []
    for rid, rule in book.rules.items():
        if rule.fact == CHAINED and rule.then.action == "reject" and _holds(_conds(rule, book.policy), known) is True:
            out.append(rid)
    return out


def judgement_of(book: Rulebook, known: dict[str, Any]) -> Judgement:
    """``Judgement(book, known)``, made once for every ``known`` that agrees on the fields the rules'
    conditions read (:func:`_read`): a judgement reads no other field of it, so it answers the
    same for each (the count search asks one per GPU type, and types of one size and generation
    often agree on all of them)."""
    return _by_read_fields(_JUDGEMENTS, "judgement", book, known, lambda: Judgement(book, known))


def _by_read_fields(store: dict[Any, Any], tag: str, book: Rulebook, known: dict[str, Any],
                    make: Callable[[], Any]) -> Any:
    """``make()``, remembered in ``store`` under the rule book, ``tag`` and the fields of ``known`` the
    rules' conditions read (:func:`_read`): an answer of the rules about a candidate reads no other
    field, so candidates that agree on those share it (the count search asks for each GPU type and
    count, and types of one size and generation often agree on all of them; a batch asks again for
    each proposal of the same job). Not remembered where the fields make no key (a list)."""
    key = _known_key(_read_part(book, known))
    if key is None:
        return make()
    full = (book.digest, tag, key)
    got = store.get(full, _MISSING)
    if got is _MISSING:
        if len(store) >= MAX_LIMITS:
            store.clear()
        got = store[full] = make()
    return got


_MISSING = object()


_JUDGEMENTS: dict[Any, Judgement] = {}
_READ: dict[str, frozenset[str]] = {}


def _read(book: Rulebook) -> frozenset[str]:
    """The fields the conditions of the rules a :class:`Judgement` asks read (either side), and
    ``capacity_gb`` (the memory limit's bisection starts from it)."""
    got = _READ.get(book.digest)
    if got is None:
        p = _prepared(book)
        names = {"capacity_gb"}
        for when, anyof in [*p.rejects, *(r for rules in p.passes.values() for r in rules)]:
            for c in (*when, *anyof):
                names.add(c.name)
                if c.other is not None:
                    names.add(c.other)
        got = _READ[book.digest] = frozenset(names)
    return got


def _read_part(book: Rulebook, known: dict[str, Any]) -> dict[str, Any]:
    names = _read(book)
    return {k: v for k, v in known.items() if k in names}


def memory_limit_gb(book: Rulebook, known: dict[str, Any], judgement: Judgement | None = None) -> float:
    """The least per-GPU need (GB) from which the rules certainly leave a candidate with these
    fields undecided, however the rest turns out: a layout whose busiest GPU needs less may pass
    (``inf`` when no need is too large; 0 when the candidate is out whatever it needs). Found by
    bisection on ``need_gb`` = ``need_requested_gb`` >= x (both are at least the least any layout
    needs); the answer is monotone in x because a narrower range is only more certain.
    ``judgement``: ``Judgement(book, known)`` when the caller has made it (the count search has)."""
    return _by_read_fields(_LIMITS, "memory", book, known, lambda: _memory_limit_gb(book, known, judgement))


def _known_key(known: dict[str, Any]) -> Any:
    """The known fields as a key: their JSON in order (true is not 1, 1 is not 1.0 there; a batch asks
    about every GPU again for each proposal, and this is cheaper than a set of the items), or that
    set where JSON would write null (NaN is not None) or cannot write a value (a Range); None where
    neither can be made (a field holding a list): not remembered."""
    try:
        got = orjson.dumps(known, option=orjson.OPT_PASSTHROUGH_DATACLASS)
        if b"null" not in got:
            return got
    except TypeError:
        pass
    try:
        return frozenset((k, type(v), v) for k, v in known.items())  # True is not 1 here
    except TypeError:
        return None


_LIMITS: dict[Any, float] = {}
"""Memory limits by rule book and known fields: a pure function of both, asked again by every
proposal of a batch that asks about the same job (and by every recommendation of the same job)."""
MAX_LIMITS = 4096


def _memory_limit_gb(book: Rulebook, known: dict[str, Any], whole: Judgement | None = None) -> float:
    if whole is None or not _NEED.isdisjoint(known):  # the needs are what is asked: not known here
        whole = Judgement(book, {k: v for k, v in known.items() if k not in _NEED})
    judgement = whole.narrowed(_NEED)
    points = _breakpoints(judgement)
    answers: dict[tuple[int, bool], bool] = {}

    def asked(x: float) -> bool:
        r = Range(x, math.inf)
        return judgement.verdict({"need_gb": r, "need_requested_gb": r}) is False

    def out(x: float) -> bool:
        if points is None:
            return asked(x)
        i = bisect.bisect_left(points, x)
        cell = (i, i < len(points) and points[i] == x)
        got = answers.get(cell)
        if got is None:
            got = answers[cell] = asked(x)
        return got

    if out(0.0):
        return 0.0
    hi = max(1.0, float(known.get("capacity_gb", 1.0)))
    while not out(hi):
        hi *= 4
        if hi > 1e9:
            return math.inf
    lo = 0.0
    if points is None:
        for _ in range(40):
            mid = (lo + hi) / 2
            if asked(mid):
                hi = mid
            else:
                lo = mid
        return hi
    cut, n = bisect.bisect_left, len(points)
    for _ in range(40):  # out(mid), inlined: forty steps per GPU type of a catalog
        mid = (lo + hi) / 2
        i = cut(points, mid)
        cell = (i, i < n and points[i] == mid)
        got = answers.get(cell)
        if got is None:
            got = answers[cell] = asked(mid)
        if got:
            hi = mid
        else:
            lo = mid
    return hi


def _breakpoints(judgement: _Narrowed) -> list[float] | None:
    """The numbers the open conditions compare the need with, sorted: the verdict on a need of at
    least ``x`` depends on ``x`` only through its order against each of them (which lies between
    two, or on one), so the bisection asks the rules once per such cell and gets the same answer
    for every other ``x`` in it. None where a condition compares the need otherwise (with a
    scaled need, or two needs with each other): every ``x`` is then asked."""
    found: list[float] = []
    rules = [*judgement.rejects, *(r for rules, _other in judgement.stages for r in rules)]
    for when, _w, anyof, _a, _h in rules:
        for c in (*when, *anyof):
            if c.other in _NEED or c.name not in _NEED:
                return None
            rhs = c.literal if c.other is None else _scaled(judgement.known.get(c.other, UNKNOWN), c.factor)
            values = rhs if isinstance(rhs, list | tuple) else [rhs]
            for v in values:
                if isinstance(v, Range):
                    found += [float(v.lo), float(v.hi)]
                elif isinstance(v, _NUMBER) and not isinstance(v, bool):
                    found.append(float(v))
    if any(math.isnan(v) for v in found):
        return None
    return sorted(set(found))


_JUDGING: dict[tuple[str, frozenset[str]], tuple[list[_Conds], list[list[_Conds]], list[_Cond]]] = {}


def _judging(book: Rulebook, fields: frozenset[str]) -> tuple[list[_Conds], list[list[_Conds]], list[_Cond]]:
    """The rules that judge a candidate by ``fields``: the ``reject`` rules with a condition on
    one of them, every ``pass`` rule of a step that has such a pass rule, and the conditions on
    them (their thresholds)."""
    key = (book.digest, fields)
    got = _JUDGING.get(key)
    if got is None:
        rejects: list[_Conds] = []
        passes: dict[str, list[_Conds]] = {}
        judged: set[str] = set()
        conds: list[_Cond] = []
        for rid, rule in book.rules.items():
            if rule.fact != CHAINED or rule.then.action not in ("reject", "pass"):
                continue
            when, anyof = _conds(rule, book.policy)
            mine = [c for c in (*when, *anyof) if c.name in fields or c.other in fields]
            conds += mine
            if rule.then.action == "reject":
                if mine:
                    rejects.append((when, anyof))
                continue
            stage = str(stage_of(rule, book.step_of[rid]))
            passes.setdefault(stage, []).append((when, anyof))
            if mine:
                judged.add(stage)
        got = _JUDGING[key] = (rejects, [passes[s] for s in passes if s in judged], conds)
    return got


_JUDGING_WHOLE: dict[tuple[str, tuple[str, ...]], tuple[list[_Split], list[list[_Split]]]] = {}


def judging_whole(book: Rulebook, fields: tuple[str, ...]) -> tuple[list[_Split], list[list[_Split]]]:
    """:func:`_judging`'s reject rules and pass rules by step for ``fields``, each rule's conditions
    whole as :func:`_holds_split` reads them, worked out once per rule book (verdicts.lets_through asks
    about a service's fields ~7 times a candidate)."""
    key = (book.digest, fields)
    got = _JUDGING_WHOLE.get(key)
    if got is None:
        rejects, passes, _conds = _judging(book, frozenset(fields))
        got = _JUDGING_WHOLE[key] = ([_whole(r) for r in rejects], [[_whole(r) for r in rules] for rules in passes])
    return got


def _limits_and_test(book: Rulebook, known: dict[str, Any], fields: frozenset[str]) -> tuple[
        dict[float, _Cond], Any]:
    """The figures the rules judging ``fields`` compare them with (each with its condition), and the
    test whether a value of the fields (all set to it) may pass those rules."""
    rejects, passes, conds = _judging(book, fields)
    base = {**_prepared(book).chain, **known}
    limits: dict[float, _Cond] = {}
    for c in conds:
        v: Any = None
        if c.name in fields:
            v = c.literal if c.other is None else (None if c.other in fields else base.get(c.other))
            if c.other is not None and isinstance(v, _NUMBER) and not isinstance(v, bool):
                v = v * c.factor
        elif c.factor:  # [x, op, {ref: field, times: f}]: the field is x / f
            x = base.get(c.name)
            v = x / c.factor if isinstance(x, _NUMBER) and not isinstance(x, bool) else None
        if isinstance(v, _NUMBER) and not isinstance(v, bool) and math.isfinite(v) and v > 0:
            limits.setdefault(float(v), c)

    def ok(x: float) -> bool:
        k = {**base, **dict.fromkeys(fields, x)}
        if any(_holds(r, k) is True for r in rejects):
            return False
        return not any(all(_holds(r, k) is False for r in rules) for rules in passes)

    return limits, ok


def limit_in_force(book: Rulebook, known: dict[str, Any], fields: frozenset[str]) -> tuple[float, _Cond | None] | None:
    """The largest value of ``fields`` (all set to it) that the rules judging them may let a
    candidate with the ``known`` fields through with: no such ``reject`` rule certainly holds and
    some ``pass`` rule of each step that judges them may hold. It is one of the figures their
    conditions compare the fields with (``capacity_gb`` x a factor, ``max_ttft_ms``, a number), given
    with the condition it comes from; (0, None) when no value passes, None when no rule limits them.
    A house rule or a policy overlay that moves a threshold moves the limit with it."""
    limits, ok = _limits_and_test(book, known, fields)
    points = sorted(limits)
    if not points:
        return None
    if not ok(points[0] / 2):
        return 0.0, None
    for i, v in enumerate(points):
        above = points[i + 1] if i + 1 < len(points) else 2 * v + 1
        if not ok((v + above) / 2):
            return v, limits[v]
    return None


def floor_in_force(book: Rulebook, known: dict[str, Any], fields: frozenset[str]) -> tuple[float, _Cond | None] | None:
    """The least value of ``fields`` (all set to it) from which the rules judging them may let a
    candidate with the ``known`` fields through (:func:`limit_in_force` from below): for a figure a
    rule wants at least so much of, the throughput (``aggregate_tps``) or the request rate served
    (``max_requests_per_s``). (inf, None) when no value passes, None when no rule wants a least."""
    limits, ok = _limits_and_test(book, known, fields)
    points = sorted(limits)
    if not points:
        return None
    if not ok(2 * points[-1] + 1):
        return math.inf, None
    for i in range(len(points) - 1, -1, -1):
        v = points[i]
        below = points[i - 1] if i > 0 else v / 2
        if not ok((below + v) / 2):
            return v, limits[v]
    return None


def usable_share(book: Rulebook, known: dict[str, Any]) -> float:
    """The share of ``capacity_gb`` a layout may fill under the rules in force, for a candidate
    with these fields (a GPU and a job, the count unknown): the memory rules' limit on the need
    (:func:`limit_in_force`). For the built-in rules capacity x (1 - ``memory_headroom_fraction``),
    returned as that factor exactly; a house rule that keeps 40 % of each card free makes it 0.6;
    1 (the card) where no rule limits the need. What the estimators plan a layout for
    (:func:`gpuwise.decide.verdicts.plan_within`)."""
    return _by_read_fields(_LIMITS, "usable", book, known, lambda: _usable_share(book, known))


def _usable_share(book: Rulebook, known: dict[str, Any]) -> float:
    got = limit_in_force(book, known, _NEED)
    if got is None:
        return 1.0
    value, c = got
    if c is None:
        return 0.0
    if c.name in _NEED and c.other == "capacity_gb":
        return c.factor
    cap = float(known.get("capacity_gb", 0.0) or 0.0)
    return value / cap if cap > 0 else 1.0


LATENCY_FIELDS = ("ttft_ms", "tpot_ms", "p95_ttft_s", "p95_tpot_s")
"""The latency figures a service is judged by, each with an upper limit (at the load; at a rate)."""
LEAST_FIELDS = ("aggregate_tps", "max_requests_per_s")
"""The figures a service must reach at least: the throughput at the load, the rate served."""


@frozen
class ServingBounds:
    """The limits the rules in force set on a service, by the fact field each limits (None: no
    rule limits it): at most ``ttft_ms``/``tpot_ms`` at the load and ``p95_ttft_s``/``p95_tpot_s``
    at a request rate; at least ``aggregate_tps`` at the load and ``max_requests_per_s`` served."""

    ttft_ms: float | None
    tpot_ms: float | None
    p95_ttft_s: float | None
    p95_tpot_s: float | None
    aggregate_tps: float | None
    max_requests_per_s: float | None


def serving_limits(book: Rulebook, known: dict[str, Any]) -> ServingBounds:
    """The limits the rules in force set on a service with these fields (a GPU and a job), by
    figure: the largest time to first token and per output token at the load (``ttft_ms``,
    ``tpot_ms``) and at a request rate (``p95_ttft_s``, ``p95_tpot_s``) the latency rules let
    through (:func:`limit_in_force`), and the least throughput (``aggregate_tps``) and request rate
    served (``max_requests_per_s``) they accept (:func:`floor_in_force`); None where no rule limits
    the figure. Under the built-in rules the workload's targets; under a house rule that allows
    three times the TTFT target, three times it. What the serving model picks its operating point
    for (:mod:`gpuwise.estimators.serving.limits`)."""
    return _by_read_fields(_SERVING, "serving", book, known, lambda: _serving_limits(book, known))


_SERVING: dict[Any, ServingBounds] = {}
"""Serving limits by the values the rules' conditions read (:func:`_read`): the count search asks
for each GPU type and count, and types of one size and generation often agree on all of them."""


def _serving_limits(book: Rulebook, known: dict[str, Any]) -> ServingBounds:
    out: dict[str, float | None] = {}
    for name in LATENCY_FIELDS:
        got = limit_in_force(book, known, frozenset((name,)))
        out[name] = None if got is None else got[0]
    for name in LEAST_FIELDS:
        got = floor_in_force(book, known, frozenset((name,)))
        out[name] = None if got is None else got[0]
    return ServingBounds(**out)
