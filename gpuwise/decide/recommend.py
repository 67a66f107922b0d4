"""``gpuwise recommend``: candidates -> the four steps as a chain of rules -> ranking policy.

Candidates are GPU type x count (1, 2, 4, 8 in a node, then whole nodes up to ``max_gpus``) x
rent or buy. Estimators compute every number of every step; the rule book decides, step by
step, which candidates pass (memory -> compute -> interconnect -> TCO -> decided) and what to
say about them; the ranking policy (:mod:`gpuwise.decide.rank`) orders the candidates that reached
the end of the chain unrejected.
"""

from __future__ import annotations

import contextlib
import gc
import math
from collections.abc import Iterator
from dataclasses import field
from typing import Any

from .. import knowledge as knowledge_mod
from .. import messages
from ..chart_series import Charts, MemoryBar, TimeCostPoint
from ..checked import made
from ..estimators import GB
from ..estimators import cost as K
from ..estimators import interconnect as I
from ..estimators import planner as P
from ..estimators import serving as SV
from ..estimators.candidate import (
    Evaluation,
    capacity_bytes,
    evaluate,
    market_of,
    networks_for,
    requested_pins,
    training_job,
)
from ..frozen import record
from ..inputs.job import Job, note, resolve
from ..inputs.money import to_usd
from ..inputs.schema import Requirements, coerce
from ..ledger import built
from ..prices.used import prices_used
from ..results import (
    CORE_STEPS,
    STAGES,
    Assumption,
    Candidate,
    CurrencyInfo,
    EstimateResult,
    HouseRules,
    Recommendation,
    RecommendResult,
    Sentence,
    StalePrice,
    StepSummary,
)
from ..results_serving import ServingOut
from . import bounds, engine, rulebook
from .actions import Outcome, fact_key, materialize, ordered_findings
from .estimate import _flops, gpu_out, memory_out, term_out
from .rank import Scored, nearest, rank, score
from .subjects import (
    NODE,
    Server,
    candidate_fact,
    candidate_gpus,
    counts_for,
    environment,
    host_ram_key,
    job_fact,
    modes_for,
    price_facts,
    probe_fact,
    roomiest,
)
from .verdicts import PAST_MEMORY, Verdict, judged_serving, plan_within, serving_verdict


def rulebook_for(job: Job, rules: str | None = None) -> rulebook.Rulebook:
    """The rule book compiled with this knowledge base's policy (an overlay may change it); the
    job's layouts are planned within its memory limit (:func:`verdicts.plan_within`)."""
    book = rulebook.load(rules, {k: v.value for k, v in job.kb.policy.items()})
    plan_within(job, book)
    return book


@record
class Consultation:
    """The facts of one consultation, what the rules did with them, and the options by key."""

    book: rulebook.Rulebook
    facts: list[dict[str, Any]]
    keys: list[str]
    session: engine.Session
    options: dict[str, tuple[Evaluation, str]] = field(default_factory=dict)  # key -> (estimate, mode)

    def __post_init__(self) -> None:
        self.position: dict[str, int] = {}
        for i, k in enumerate(self.keys):
            self.position.setdefault(k, i)

    def outcome(self, detail: Any = lambda key: False, sentences: bool = True, reasons: Any = None) -> Outcome:
        return materialize(self.book, self.session, self.facts, detail, sentences, reasons)

    def detail(self, keys: list[str]) -> None:
        """Run the candidates a result presents through the chain again with every rule (their
        findings and step conclusions; the first pass ran only the rules that decide)."""
        index = [self.position[k] for k in dict.fromkeys(keys) if k in self.position
                 and not self.facts[self.position[k]].get("detail")]
        if not index:
            return
        again = [{**self.facts[i], "detail": 1} for i in index]
        engine.merge(self.session, engine.run(self.book, again), index)
        for i in index:
            self.facts[i] = {**self.facts[i], "detail": 1}

    def fact(self, key: str) -> dict[str, Any]:
        return self.facts[self.position[key]]

    def verdict(self, key: str) -> Verdict:
        """What the memory and serving rules decided of a candidate (:class:`verdicts.Verdict`)."""
        return Verdict(dict(self.session.stage_values.get((self.position[key], PAST_MEMORY), {})),
                       serving=serving_verdict(self.book, self.fact(key), self.options[key][0].serving))


def consult(job: Job, evaluations: list[Evaluation], book: rulebook.Rulebook, *,
            extra_facts: list[dict[str, Any]] | None = None, proposed_total_gb: float = -1.0,
            modes: dict[int, list[str]] | None = None, server: Server | None,
            judged_before: tuple[list[Evaluation], list[tuple[Evaluation, str]]] | None = None,
            before_host_ram: tuple[Evaluation | None] | None = None) -> Consultation:
    """Run the rule book over every candidate (each estimate once per acquisition mode) and the
    consultation's other facts. ``judged_before``: estimates (and their options) an earlier
    consultation of the same question judged and that are not judged again here (a batch's
    audits share them): the job fact and the price facts still cover them, as if they were.
    ``before_host_ram``: :func:`host_ram_server` of those estimates, when the caller kept it (one
    item: None is an answer)."""
    facts: list[dict[str, Any]] = []
    options: dict[str, tuple[Evaluation, str]] = {}
    for i, ev in enumerate(evaluations):
        for mode in ways_judged(job, ev, (modes or {}).get(i), book):
            f = fact_of(job, ev, mode)
            f["detail"] = 1 if ev.tag else 0  # an audit's proposal is judged in full at once
            key = fact_key(f)
            if key in options:
                continue
            options[key] = (ev, mode)
            facts.append(f)
    before, before_options = judged_before or ([], [])
    judged = [*evaluations, *before]
    if before_host_ram is None:
        host = host_ram_server(job, book, judged)
    else:  # min() over evaluations then before: the first of the least keys
        host = host_ram_server(job, book, evaluations)
        other = before_host_ram[0]
        if other is not None and (host is None or host_ram_key(other) < host_ram_key(host)):
            host = other
    facts.append(job_fact(job, judged, proposed_total_gb, server, host))
    facts += environment(job, list(dict.fromkeys(e.gpu.id for e in evaluations)))
    facts += price_facts(job, [*options.values(), *before_options])
    facts += extra_facts or []
    session = engine.run(book, facts)
    return Consultation(book, facts, [fact_key(f) for f in facts], session, options)


def fact_of(job: Job, ev: Evaluation, mode: str) -> dict[str, Any]:
    """:func:`subjects.candidate_fact` of a judged estimate, built once per job, estimate and way
    of acquiring (the count search scores the estimate, then the consultation judges it): a new
    dict each call, its values shared."""
    if ev.rest is not None:  # not estimated in full yet: its fact would change
        return candidate_fact(job, ev, mode)
    key = ("candidate-fact", id(ev), mode)
    got = job.memo.get(key)
    if got is None or got[0] is not ev:
        got = job.memo[key] = (ev, candidate_fact(job, ev, mode))  # the estimate kept: its id stays its own
    return dict(got[1])


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a decision is computed: it allocates many short-lived
    dicts and none of its garbage is cyclic, and each collection would walk the knowledge base
    (about a sixth of a full-catalog recommendation's time). The previous state is restored."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def recommend(requirements: Any, *, knowledge: str | None = None, rules: str | None = None) -> RecommendResult:
    with gc_paused():
        return _recommend(requirements, knowledge=knowledge, rules=rules)


def _recommend(requirements: Any, *, knowledge: str | None, rules: str | None) -> RecommendResult:
    req: Requirements = coerce(Requirements, requirements)
    kb = knowledge_mod.load(knowledge)
    where = str(requirements) if isinstance(requirements, str) else "requirements"
    req, money_notes = to_usd(req, kb)
    with resolve(req, kb, where) as job:  # its caches are dropped when the result is built
        book = rulebook_for(job, rules)
        gpu_ids, notes = candidate_gpus(job)
        notes = [*money_notes, *notes]
        evaluations, modes, server = estimates(job, gpu_ids, book)
        con = consult(job, evaluations, book, modes=modes, server=server)
        return build_result(job, con, notes, rules)


def estimates(job: Job, gpu_ids: list[str], book: rulebook.Rulebook | None = None) -> tuple[
        list[Evaluation], dict[int, list[str]], Server | None]:
    """The GPU types x counts worth judging, each estimated once per network it would run on: a
    single server once; several servers once per way of acquiring them when the rental offer's
    stated network and the fabric a bought cluster gets differ.

    The rule book is the only decider: a count is left out only where the rules in force (house
    rules and policy overlays included), asked about what is known of it before it is estimated,
    would certainly leave it undecided (:mod:`gpuwise.decide.bounds`); judged counts go through
    the engine. What is known before estimating: the GPU and the job; the fewest days and
    GPU-hours any layout of a training job takes (its FLOPs at the GPU's full rate,
    :func:`gpuwise.estimators.planner.fewest_gpus_in_time`, plus the job's start-up); the least
    memory any layout needs (the planner's frugal layouts, or a copy's share of the weights).

    Counts double from 1 up to ``max_gpus``. The search starts at the fewest GPUs that may pass the
    memory rules and judges the count below it too, so the rules say why it does not (the smaller
    counts were bounded and do not either); a GPU no count of which may pass is judged on
    ``max_gpus``. From there it stops, for a count the rules let through, when the ranking score
    (:func:`gpuwise.decide.rank.score`: cost plus days x the value of a day) stops improving, or
    when the days are worth less than the ranking's tie fraction of the cost every way of
    acquiring it: doubling the GPUs at best halves the days while the GPU-hours paid for never
    shrink, so once a doubling does not pay, or can gain less than a tie, the next pays less. That
    holds at one price per GPU-hour, so the first count over one server (a cluster rental or a
    bought network: another, usually higher, price) is compared only with the counts above it. A
    count the rules do not let through has no score: more GPUs may pass. The search also stops
    where no larger count can be priced the ways the user allows and the rules would certainly
    reject a candidate without a price. Every count of a GPU the user listed is judged.

    Returns the judged estimates, the ways of acquiring each multi-server one allows, and the
    server's worth of GPUs that comes closest to holding the job (:func:`subjects.roomiest`; its
    least need is worked out where the search skipped that count too: memory does not depend on
    the deadline), whose figures the job fact carries for the memory rules to judge."""
    book = book or rulebook_for(job)
    evaluations: list[Evaluation] = []
    modes: dict[int, list[str]] = {}
    wanted = ["rent", "buy"] if job.c.acquisition == "either" else [job.c.acquisition]
    policy = job.kb.policy_values()
    counts = counts_for(job.c.max_gpus)
    one_server = max(n for n in counts if n <= NODE)
    server: Server | None = None

    def judge(ways: list[tuple[Evaluation, list[str] | None]]) -> list[tuple[Evaluation, list[str]]]:
        for e, ms in ways:
            if ms is not None:
                modes[len(evaluations)] = ms
            evaluations.append(e.complete())
        return [(e, ms or wanted) for e, ms in ways]

    for gid in gpu_ids:
        probe = _Probe(job, job.kb.gpus[gid], wanted, book)
        if job.c.gpus:
            for n in counts:
                judge(probe(n))
            server = probe.server(one_server, server)
            continue
        mine = [n for n in counts if not probe.surely_out(n)] or counts[-1:]  # the most GPUs say why none passes
        first = probe.first_fitting(mine)
        if first == len(mine) or first > 0:  # what does not fit: the largest count below the first that may
            judge(probe(mine[first - 1]))
        best = {False: math.inf, True: math.inf}  # by regime: one server, several
        for n in mine[first:]:
            ways = judge(probe(n))
            scores = probe.scores(ways)
            s = min(scores, default=math.inf)
            cluster = n > NODE
            if s > best[cluster] or _time_is_cheap(job, ways, scores, policy) or probe.never_priced(n, ways):
                break
            best[cluster] = min(best[cluster], s)
        server = probe.server(one_server, server)
        probe.release()
    return evaluations, modes, server


def host_ram_server(job: Job, book: rulebook.Rulebook, judged: list[Evaluation]) -> Evaluation | None:
    """Of the judged estimates on one server whose need is under the memory rules' limit (they may
    pass the memory step on GPU memory), the one that comes closest to keeping its offloaded state
    in host RAM (:func:`subjects.host_ram_key`): the job fact carries its RAM and need, which
    MEM-ALT-LORA-HOST-RAM compares. None when no one-server estimate may fit the GPUs."""
    one = [e for e in judged if Server.of(e) is not None and memory_may_pass(job, book, e)]
    return min(one, key=host_ram_key, default=None)


def ways_judged(job: Job, ev: Evaluation, allowed: list[str] | None, book: rulebook.Rulebook) -> list[str]:
    """The acquisition modes a consultation judges an estimate in: the ones allowed that have a
    price (else the first allowed, so the rules say why), and only one where the memory rules
    certainly reject it (not fitting is not fitting whichever way it is acquired)."""
    ways = [m for m in modes_for(job, ev) if allowed is None or m in allowed] or allowed or []
    if not ev.tag and not memory_may_pass(job, book, ev):
        ways = ways[:1]
    return ways


def memory_limit(job: Job, book: rulebook.Rulebook, gpu: Any, judgement: bounds.Judgement | None = None) -> float:
    """Bytes per GPU from which the rules in force certainly leave a candidate of ``gpu``
    undecided whatever else holds (see :func:`gpuwise.decide.bounds.memory_limit_gb`).
    ``judgement``: the rule book's judgement of :func:`subjects.probe_fact` of ``gpu``, when made."""
    key = ("memory-limit", book.digest, gpu.id)
    got = job.memo.get(key)
    if got is None:
        got = job.memo[key] = bounds.memory_limit_gb(book, probe_fact(job, gpu), judgement) * GB
    return float(got)


def memory_may_pass(job: Job, book: rulebook.Rulebook, ev: Evaluation) -> bool:
    """An estimate's memory (as requested or with gpuwise's changes) is below the rules' limit."""
    return min(ev.memory.per_gpu, ev.requested_memory_per_gpu) < memory_limit(job, book, ev.gpu)


_BY_COUNT = frozenset(("count", "multi_gpu", "wall_days", "gpu_hours"))
"""What :meth:`_Probe.surely_out` knows of a count beyond the GPU and the job."""


class _Probe:
    """One GPU type's estimates by count, made once each, with the compute and cost steps put off
    until the count is judged (finding the first count that may fit looks only at memory)."""

    def __init__(self, job: Job, gpu: Any, wanted: list[str], book: rulebook.Rulebook) -> None:
        self.job, self.gpu, self.wanted, self.book = job, gpu, wanted, book
        self.made: dict[int, list[tuple[Evaluation, list[str] | None]]] = {}
        self.known = bounds.Judgement(book, probe_fact(job, gpu))  # the rules, this GPU and job settled
        self.limit = memory_limit(job, book, gpu, self.known)
        self.by_count = self.known.narrowed(_BY_COUNT)  # the same, asked only about what a count adds
        self._fewest: tuple[float, float] | None = None
        self._fewest_known = False

    def __call__(self, n: int) -> list[tuple[Evaluation, list[str] | None]]:
        """The estimates of ``n`` GPUs: one for a single server; several servers once per network
        the allowed ways of acquiring them have, with those ways (None: every way the user allows)."""
        got = self.made.get(n)
        if got is not None:
            return got
        job, gpu, wanted = self.job, self.gpu, self.wanted
        if n <= NODE:
            got = [(evaluate(job, gpu, n, defer=True), None)]
        else:
            nets = networks_for(job, gpu, n)
            by_net: dict[str | None, list[str]] = {}
            for mode in wanted:  # a way of acquiring that does not exist is judged only if it is the only one asked
                if nets.get(mode) is not None or len(wanted) == 1:
                    by_net.setdefault(nets.get(mode), []).append(mode)
            if not by_net:  # neither way exists: one estimate, so the rules can say why
                by_net[None] = wanted
            got = [(evaluate(job, gpu, n, network=net, defer=True), ms) for net, ms in by_net.items()]
        self.made[n] = got
        return got

    def surely_out(self, n: int) -> bool:
        """The rules certainly leave every candidate of ``n`` GPUs undecided, from what is known
        before estimating it: the GPU, the job and, for training, the fewest days and GPU-hours
        any layout takes."""
        more: dict[str, Any] = {"count": n, "multi_gpu": n > 1}
        fewest = self.fewest_gpu_hours()
        if fewest is not None:
            gpu_hours, setup = fewest
            more["wall_days"] = bounds.Range((gpu_hours / n + setup) / 24, math.inf)
            more["gpu_hours"] = bounds.Range(gpu_hours, math.inf)
        return self.by_count.verdict(more) is False

    def fewest_gpu_hours(self) -> tuple[float, float] | None:
        """A training job's GPU-hours at this GPU's full rate and its start-up hours (None when
        unknown or not a training job): the same for every count, worked out once."""
        if not self._fewest_known:
            job, self._fewest_known = self.job, True
            if job.training and not job.shape.diffusion:
                gpu_hours = P.fewest_gpus_in_time(training_job(job), self.gpu, 1.0)  # GPU-hours at full rate
                if 0 < gpu_hours < math.inf:
                    self._fewest = (gpu_hours, job.kb.runtime.training.job_setup_hours.value)
        return self._fewest

    def fits(self, n: int) -> bool:
        """Whether ``n`` GPUs may pass the memory rules in force, estimated only as far as that
        needs: the least memory any layout needs against the rules' limit."""
        job, gpu = self.job, self.gpu
        if n not in self.made and not job.shape.diffusion:
            if job.training:  # the planner's memory alone (no layout timed, no estimate made)
                return P.fits_at_all(training_job(job), n, I.topology(gpu, n, job.kb.runtime),
                                     math.nextafter(self.limit, 0.0), requested_pins(job))
            if SV.least_bytes(job, gpu, n) >= self.limit:  # no layout of n GPUs holds the weights
                return False
        return any(memory_may_pass(job, self.book, e) for e, _ms in self(n))

    def server(self, n: int, so_far: Server | None) -> Server | None:
        """Of ``so_far`` (the server the GPU types before chose) and ``n`` GPUs of this one in one
        server, the one the job fact carries (:func:`subjects.roomiest`): so far's where the rules'
        memory limit lets it through (a server that holds the job is all the rules ask about, and
        this one is not estimated for it), else the one with the least need as a share of its
        capacity. The need: the least memory any way of running the job on ``n`` GPUs needs on
        the busiest (a training job's layouts from the planner alone where ``n`` was not
        estimated; a service's share of the weights where that alone is over the limit; else the
        estimates, as requested or with gpuwise's changes)."""
        if so_far is not None and so_far.held:
            return so_far
        job, gpu = self.job, self.gpu
        if job.training and not job.shape.diffusion and n not in self.made:
            need = P.least_per_gpu(training_job(job), n, I.topology(gpu, n, job.kb.runtime), requested_pins(job))
        elif not job.training and not job.shape.diffusion and n not in self.made \
                and (floor := SV.least_bytes(job, gpu, n)) >= self.limit:
            need = floor  # a floor already over the limit: no estimate says more about whether it holds
        else:
            need = min(min(e.memory.per_gpu, e.requested_memory_per_gpu) for e, _ms in self(n))
        return roomiest(so_far, Server(gpu.id, n, need, capacity_bytes(gpu), held=need < self.limit))

    def first_fitting(self, counts: list[int]) -> int:
        """The index of the fewest GPUs that may fit (``len(counts)`` when not even the most may).
        From the fewest up: a larger count costs more to estimate (more layouts to try), and
        bisection would estimate the largest of every GPU type."""
        return next((i for i, n in enumerate(counts) if self.fits(n)), len(counts))

    def scores(self, ways: list[tuple[Evaluation, list[str]]]) -> list[float]:
        """Each estimate's ranking score, the best of the ways of acquiring it that the rules let
        through to the end of the chain (inf when they let none through): the rules are asked
        exactly as the consultation asks them, with only the rules that decide."""
        job, book = self.job, self.book
        facts: list[dict[str, Any]] = []
        owner: list[int] = []
        for i, (e, ms) in enumerate(ways):
            for mode in ways_judged(job, e, ms, book):
                facts.append({**fact_of(job, e, mode), "detail": 0})
                owner.append(i)
        out = [math.inf] * len(ways)
        verdicts = [self.known.verdict(f) for f in facts]  # the GPU's judgement: only its open rules read
        open_ = [i for i, v in enumerate(verdicts) if v is None]  # a field a pass rule sets decides
        if open_:
            session = engine.run(book, [facts[i] for i in open_])
            rejected = {idx for rid, idx, _stage in session.firings if book.rules[rid].then.action == "reject"}
            for j, i in enumerate(open_):
                verdicts[i] = session.reached.get(j) == "decided" and j not in rejected
        value = float(job.kb.policy_values()["value_of_a_day_usd"])
        for f, i, v in zip(facts, owner, verdicts, strict=True):
            if v:
                out[i] = min(out[i], score(f, value))
        return out

    def never_priced(self, n: int, ways: list[tuple[Evaluation, list[str]]]) -> bool:
        """No count above ``n`` can be priced any way the user allows (a rental offer that cannot
        give ``n`` GPUs cannot give more; a GPU without a dated purchase price has none at any
        size), and the rules in force certainly reject a candidate without its price. Asked only
        where ``n`` may fit: below that, more GPUs are still worth judging."""
        if not self.fits(n):
            return False
        allowed = list(dict.fromkeys(m for _e, ms in ways for m in ms))
        for e, ms in ways:
            for m in ms:
                if e.cost is not None and e.cost.usd(m) is not None:
                    return False
        job, kb = self.job, self.job.kb
        if "buy" in allowed and K.buyable_above(kb.prices, self.gpu, n, kb.tco, market=market_of(job),
                                                usd_cny=kb.tco_value("usd_cny").value):
            return False
        unpriced = {"rent": {"rent_known": False, "rent_usd": -1.0}, "buy": {"buy_known": False, "buy_usd": -1.0}}
        return all(self.known.verdict({"acquisition": m, "cost_usd": -1.0, "price_known": False, **unpriced[m]})
                   is False for m in allowed)

    def release(self) -> None:
        """Estimates the search made but did not judge drop their put-off steps (which refer back
        to them: no reference cycle is left for the garbage collector). Judged ones ran theirs."""
        for ways in self.made.values():
            for e, _ms in ways:
                e.rest = None


def _time_is_cheap(job: Job, ways: list[tuple[Evaluation, list[str]]], scores: list[float],
                   policy: dict[str, Any]) -> bool:
    """The days each way of acquiring this count takes are worth less than a tie of its cost: more
    GPUs cannot win (if one way's days are still worth more, say renting a cluster where buying
    one is dear, more GPUs may win that way). A ranking argument, not a rule: the scores are the
    rules' verdicts (inf for what they do not let through)."""
    cheap = None
    for (e, _ms), s in zip(ways, scores, strict=True):
        if math.isinf(s):
            continue
        days = (e.wall_days or 0.0) if job.training else 0.0
        cost = s - float(policy["value_of_a_day_usd"]) * days
        if float(policy["value_of_a_day_usd"]) * days > float(policy["ranking_tie_fraction"]) * cost:
            return False
        cheap = True
    return bool(cheap)


@record
class Ranking:
    order: list[Scored]
    ranks: dict[str, int]
    best: str | None
    runner: str | None
    shown: list[str]
    why_not: list[str] = field(default_factory=list)


def ranking(job: Job, con: Consultation, outcome: Outcome) -> Ranking:
    """Rank the candidates the chain decided; pick what a result shows (the best, a runner-up of
    another GPU, the user's short list, the best of each other GPU type as "why not")."""
    keys = [k for k in con.options if outcome.decided(k) and not k.startswith("proposed")]
    order = rank([con.fact(k) for k in keys], keys, job.kb.policy_values())
    ranks = {s.key: i + 1 for i, s in enumerate(order)}
    best = order[0].key if order else None
    gpu_of = {k: con.options[k][0].gpu.id for k in con.options}
    runner = next((s.key for s in order[1:] if best and gpu_of[s.key] != gpu_of[best]), None)
    shown = [k for k in (best, runner) if k]
    if job.c.gpus:  # the user's short list: each listed GPU's best configuration and its largest one
        for gid in dict.fromkeys(gpu_of.values()):
            mine = [k for k in con.options if gpu_of[k] == gid and not k.startswith("proposed")]
            if not mine:
                continue
            good = [s.key for s in order if gpu_of[s.key] == gid]
            first = good[0] if good else mine[0]
            mode = con.options[first][1]  # its largest count, acquired the same way (not the other mode's twin)
            same = [k for k in mine if con.options[k][1] == mode] or mine
            shown += [first, max(same, key=lambda k: con.options[k][0].count)]
    return Ranking(order, ranks, best, runner, list(dict.fromkeys(shown)), why_not(job, con, order, outcome, best))


def why_not(job: Job, con: Consultation, order: list[Scored], outcome: Outcome, best: str | None) -> list[str]:
    """The alternatives worth naming beside the answer: the best candidate of each other GPU
    family (architecture), best first; every GPU the user listed, feasible or not (its best or its
    largest candidate, with the reason); at most ``why_not_count`` (policy) besides the listed ones."""
    limit = int(job.kb.policy_values().get("why_not_count", 6))
    family = {k: con.options[k][0].gpu.architecture for k in con.options}
    gpu_of = {k: con.options[k][0].gpu.id for k in con.options}
    taken_families = {family[best]} if best else set()
    out: list[str] = []
    for s in order:
        if s.key == best or family[s.key] in taken_families:
            continue
        taken_families.add(family[s.key])
        out.append(s.key)
        if len(out) >= limit:
            break
    listed = set(gpu_of[k] for k in con.options) if job.c.gpus else set()
    for gid in sorted(listed):
        if any(gpu_of[k] == gid for k in out) or (best and gpu_of[best] == gid):
            continue
        mine = [s.key for s in order if gpu_of[s.key] == gid]
        if not mine:
            theirs = [k for k in con.options if gpu_of[k] == gid and not k.startswith("proposed")]
            mine = [_closest(con, outcome, theirs)]
        out += [k for k in mine[:1] if k]
    if not order:  # nothing decided: the GPU types that came closest (and not named yet), to say why not
        out += nearest(con, outcome, limit, {gpu_of[k] for k in out})
    return out


def _closest(con: Consultation, outcome: Outcome, keys: list[str]) -> str | None:
    """Of a GPU's rejected candidates, the one that says most about it: the one that got furthest
    in the chain, smallest count first (its rejection is about time, speed, units or cost), or, if
    none got past the memory step, the largest count (it does not fit even there)."""
    def furthest(k: str) -> int:
        return STAGES.index(outcome.reached.get(k, "memory"))

    past = [k for k in keys if furthest(k) > 0]
    if past:
        return min(past, key=lambda k: (-furthest(k), con.options[k][0].count))
    return max(keys, key=lambda k: con.options[k][0].count, default=None)


def build_result(job: Job, con: Consultation, notes: list[Assumption], rules: str | None = None) -> RecommendResult:
    kb = job.kb
    first = con.outcome(sentences=False)
    r = ranking(job, con, first)
    shown = set(r.shown)
    shown_gpus = {con.options[k][0].gpu.id for k in shown}
    prices = {fact_key(f) for f in price_facts(job, [con.options[k] for k in shown])}
    relevant = shown | prices | {f"env:{g}" for g in shown_gpus}
    con.detail(r.shown)
    outcome = con.outcome(lambda key: key in relevant or not _per_subject(key))
    scores = {s.key: s.score for s in r.order}
    candidates = [candidate_out(con, outcome, k, r.ranks.get(k), scores.get(k)) for k in con.options
                  if not k.startswith("proposed")]
    candidates.sort(key=lambda c: (c.rank is None, c.rank or 0, c.gpu, c.count, c.acquisition or ""))
    findings = ordered_findings(outcome, lambda key: key in relevant or not _per_subject(key))
    estimate = None
    steps: list[StepSummary] = []
    charts = Charts()
    if r.best is not None:
        ev, _mode = con.options[r.best]
        estimate = estimate_of(job, ev, con.verdict(r.best))
        steps = step_summaries(job, con, outcome, r.best)
        charts = _charts(job, con, r)
    for k in (r.best, r.runner):
        if k and con.options[k][0].nodes > 1 and con.options[k][0].topology:
            net = con.options[k][0].topology.network  # type: ignore[union-attr]
            if net:
                known = kb.runtime.networks.get(net)
                said = {"network": known.text, "network_phrases": messages.phrase_json(known.phrases())} if known \
                    else {"network": net}
                notes = [*notes, note("network", net, "assume.network", said)]
    by_key = {f"{c.gpu}x{c.count}:{c.acquisition}": c for c in candidates}
    return made(RecommendResult, dict(
        alternatives=[by_key[k] for k in r.why_not if k in by_key],
        ranking_note=tie_note(r, con),
        recommendation=recommendation(job, con, r.best, r) if r.best else None,
        runner_up=recommendation(job, con, r.runner, r) if r.runner else None,
        candidates=candidates,
        findings=findings,
        trace=outcome.trace,
        question=job.question(),
        assumptions=[*job.assumptions, *_dedupe(notes)],
        steps=steps,
        charts=charts,
        knowledge_dates={k: v.isoformat() for k, v in kb.dates().items()},
        stale_prices=stale_prices(findings),
        prices_used=prices_used(job, *con.options[r.best]) if r.best else [],
        estimate=estimate,
        currency=currency_info(kb, job.c.currency),
        house_rules=house_rules(con.book, rules),
        policy=kb.policy_values(),
        ranking=ranking_sentence(kb.policy_values(), job.training),
    ))


def _dedupe(notes: list[Assumption]) -> list[Assumption]:
    seen: set[tuple[str, str]] = set()
    out = []
    for n in notes:
        if (n.field, str(n.value)) not in seen:
            seen.add((n.field, str(n.value)))
            out.append(n)
    return out


def _per_subject(key: str) -> bool:
    """Candidates, prices and GPU environments are detailed only for the subjects a result
    presents; consultation-wide facts (the job, a proposal, its cards) always."""
    return not key.startswith("card:") and key not in ("job", "proposal")


def stale_prices(findings: list[Any]) -> list[StalePrice]:
    """The prices a data-freshness rule called stale, for the report's note."""
    return [StalePrice.of(f, f.subject) for f in findings if f.topic == "data-freshness"]


def currency_info(kb: Any, asked: str = "USD") -> CurrencyInfo | None:
    """The rate a report in yuan converts at, and the currency the input was written in."""
    try:
        v = kb.tco_value("usd_cny")
    except Exception:  # an overlay may lack it; the report then asks for --fx-rate
        return None
    return made(CurrencyInfo, dict(usd_cny=float(v.value), as_of=v.as_of.isoformat() if v.as_of else "",
                        source=" ".join(v.source.split()), asked=asked))


def house_rules(book: rulebook.Rulebook, rules: str | None) -> HouseRules | None:
    if not book.house:
        return None
    return made(HouseRules, dict(directory=str(rules or ""), added=sorted(book.house - set(book.replaced)),
                      replaced=dict(sorted(book.replaced.items()))))


def tie_note(r: Ranking, con: Consultation) -> Sentence | None:
    """When the runner-up ties with the answer under the ranking policy, say why the answer won."""
    if not r.best or len(r.order) <= 1:
        return None
    first, second = r.order[0], r.order[1]
    tie = float(con.book.policy.get("ranking_tie_fraction", 0))
    if not (second.score <= first.score * (1 + tie) and first.score <= second.score * (1 + tie)):
        return None
    a, b = con.options[first.key][0], con.options[second.key][0]
    why = "fewer GPUs" if first.count < second.count else (
        "more free memory" if first.free_fraction > second.free_fraction else "faster")
    values = {"best": f"{a.count} x {a.gpu.name}", "other": f"{b.count} x {b.gpu.name}",
              "tie_fraction": tie, "why": why, "best_score": first.score, "other_score": second.score}
    mid = f"ranking.tie.{why.replace(' ', '_')}"
    return made(Sentence, dict(id=mid, text=messages.text(mid, values), template=messages.template(mid), values=values))


def ranking_sentence(policy: dict[str, Any], training: bool = True) -> Sentence:
    """The ranking policy in words; a service's score has no days in it (rank.score), so its
    sentence leaves the value of a day out."""
    values = {k: policy[k] for k in ("value_of_a_day_usd", "ranking_tie_fraction")}
    mid = "ranking.policy" if training else "ranking.policy.serving"
    return made(Sentence, dict(id=mid, text=messages.text(mid, values), template=messages.template(mid), values=values))


def candidate_out(con: Consultation, outcome: Outcome, key: str, rank_: int | None,
                  scored: float | None) -> Candidate:
    e, mode = con.options[key]
    k = e.cost
    why = [made(Sentence, dict(id=r.rule, text=r.message, template=r.template, values=r.values))
           for r in outcome.rejections.get(key, [])]
    stage = outcome.reached.get(key, "memory")
    if not why and stage != "decided":
        why = [made(Sentence, dict(id="reason.stalled", text=messages.text("reason.stalled", {"stage": stage}),
                        template=messages.template("reason.stalled"), values={"stage": stage}))]
    led, tl, speed = e.ledger(mode), e.timeline, e.speed
    changes = _changes(e)
    return built(Candidate, dict(  # built from typed estimates: no validation per candidate
        gpu=e.gpu.id, gpu_name=e.gpu.name, count=e.count, nodes=e.nodes, feasible=outcome.decided(key), rank=rank_,
        memory_per_gpu_bytes=round(e.memory.per_gpu), capacity_per_gpu_bytes=int(e.capacity),
        usable_per_gpu_bytes=int(e.usable), memory_breakdown=e.memory.breakdown(),
        wall_days=_wall_days(e), gpu_hours=tl.gpu_hours if tl else None, serving=serving_of(e, con.book, con.fact(key)),
        total_cost_usd=led.total if led else None, ledger=led, timeline=tl,
        acquisition=mode, rent_cost_usd=k.rent_usd if k else None, buy_cost_usd=k.buy_usd if k else None,
        break_even_month=k.break_even_month if k else None, strategy=_label(e), strategy_phrases=e.label_phrases(),
        strategy_changes=[messages.phrase_text((("", mid, kw),)) for _sep, mid, kw in changes],
        strategy_changes_phrases=messages.phrase_json(changes),
        scaling_efficiency=speed.efficiency if speed else None,
        decode_tokens_per_s=speed.decode_tokens_per_s if speed else None,
        decode_tokens_per_s_total=speed.decode_tokens_per_s_total if speed else None,
        provider=k.provider if k and mode == "rent" else None,
        instance=k.instance if k and mode == "rent" else None, reasons=[s.text for s in why], reason_sentences=why,
        rules=outcome.rules_for(key), score_usd=None if scored is None or math.isinf(scored) else scored, stage=stage,
    ))


def _wall_days(e: Evaluation) -> float | None:
    """A training job's wall-clock days, from its timeline (None for a service, which runs on)."""
    if e.timeline is None or e.wall_days is None:
        return e.wall_days
    return e.timeline.wall_days


def serving_of(e: Evaluation, book: rulebook.Rulebook, fact: dict[str, Any]) -> ServingOut | None:
    """A serving configuration's figures at the stated load (the curve is left to the estimate);
    ``meets_*``/``supports`` are the rules' verdicts (:func:`verdicts.judged_serving`)."""
    if e.serving is None:  # not served (a training job needs no serving module loaded)
        return None
    return SV.serving_json(judged_serving(book, fact, e.serving), with_curve=False)


def _label(e: Evaluation) -> str:
    return e.label()


def _changes(e: Evaluation) -> tuple[messages.Phrase, ...]:
    """What the layout changes in the one the question wrote, as message ids (a service has none)."""
    return e.strategy.changes_from(e.requested) if hasattr(e.strategy, "changes_from") else ()


def recommendation(job: Job, con: Consultation, key: str, r: Ranking) -> Recommendation:
    e, mode = con.options[key]
    f = con.fact(key)
    k = e.cost
    led, speed = e.ledger(mode), e.speed
    kind = "training" if job.training else ("diffusion" if job.shape.diffusion else "inference")
    values = {"count": e.count, "gpu_name": e.gpu.name, "nodes": e.nodes, "provider": f["provider"],
              "wall_days": _wall_days(e), "cost_usd": led.total if led else f["cost_usd"], "need_gb": f["need_gb"],
              "usable_gb": e.usable / GB, "strategy": _label(e), "strategy_phrases": e.label_phrases(),
              "decode_tps": speed.decode_tokens_per_s if speed else None,
              "aggregate_tps": speed.decode_tokens_per_s_total if speed else None,
              "project_months": job.c.project_months}
    mid = f"summary.{kind}.{mode}"
    sentence = made(Sentence, dict(id=mid, text=messages.text(mid, values), template=messages.template(mid),
                                   values=values))
    scored = next((s.score for s in r.order if s.key == key), None)
    return made(Recommendation, dict(gpu=e.gpu.id, gpu_name=e.gpu.name, count=e.count, nodes=e.nodes, acquisition=mode,
                          wall_days=_wall_days(e), total_cost_usd=led.total if led else None,
                          gpu_hours=e.timeline.gpu_hours if e.timeline else None, ledger=led, timeline=e.timeline,
                          serving=serving_of(e, con.book, f),
                          summary=sentence.text, summary_sentence=sentence,
                          score_usd=None if scored is None or math.isinf(scored) else scored,
                          strategy=_label(e), strategy_phrases=e.label_phrases(),
                          provider=k.provider if k and mode == "rent" else None,
                          instance=k.instance if k and mode == "rent" else None,
                          decode_tokens_per_s=speed.decode_tokens_per_s if speed else None,
                          decode_tokens_per_s_total=speed.decode_tokens_per_s_total if speed else None))


def estimate_of(job: Job, e: Evaluation, verdict: Verdict) -> EstimateResult:
    return made(EstimateResult, dict(memory=memory_out(job, e, e.memory, e.count), compute=_flops(job),
                          gpu=gpu_out(job, e, verdict), workload={}, assumptions=[]))


STEP_TERMS = {
    "compute": ("flops", "gpu_hours", "wall_hours", "decode", "decode_total", "prefill"),
    "interconnect": ("allreduce", "scaling_efficiency"),
    "tco": ("rent", "buy"),
}


def step_summaries(job: Job, con: Consultation, outcome: Outcome, key: str) -> list[StepSummary]:
    """Each step's conclusion for one candidate: the sentence of the rule that passed it there,
    the other rules that fired at that step, and the formulas behind the step's numbers."""
    e, _mode = con.options[key]
    book = con.book
    by_step: dict[str, list[str]] = {}
    for rid in outcome.rules_for(key):
        by_step.setdefault(book.step_of[rid], []).append(rid)
    concl = outcome.conclusions.get(key, {})
    out = []
    for step in CORE_STEPS:
        c = concl.get(step)
        terms = [term_out(t) for t in e.memory.terms()] if step == "memory" else [
            term_out(e.all_terms()[k]) for k in STEP_TERMS[step] if k in e.all_terms()]
        out.append(made(StepSummary, dict(step=step, conclusion=c.text if c else "", rule=c.rule if c else "",
                               template=c.template if c else "", values=c.values if c else {},
                               rules=by_step.get(step, []), terms=terms)))
    return out


def _charts(job: Job, con: Consultation, r: Ranking) -> Charts:
    order = [s.key for s in r.order]
    best = con.options[r.order[0].key][0]
    shown = list({id(e): e for e in (con.options[k][0] for k in order[:6])}.values())
    memory = [MemoryBar.model_construct(label=f"{e.count} x {e.gpu.name}", capacity=e.capacity, usable=e.usable,
                                        parts=e.memory.breakdown()) for e in shown]
    time_cost = [TimeCostPoint.model_construct(
                     label=f"{con.options[k][0].count} x {con.options[k][0].gpu.id} ({con.options[k][1]})",
                     # the label's parts as data: a report words the point in its language from these
                     count=con.options[k][0].count, gpu=con.options[k][0].gpu.id, acquisition=con.options[k][1],
                     wall_days=con.options[k][0].wall_days, cost_usd=con.fact(k)["cost_usd"], feasible=True,
                     chosen=k == r.best)
                 for k in order[:40] if con.fact(k)["cost_usd"] >= 0]
    curve = best.cost_chart(con.options[r.order[0].key][1])
    if curve is not None:
        curve = curve.model_copy(update={"label": f"{best.count} x {best.gpu.name}"})
    return Charts.model_construct(memory=memory, time_cost=time_cost, cost_curve=curve)
