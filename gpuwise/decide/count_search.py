"""The count search: which GPU types x counts ``recommend`` estimates in full and hands the rule
book, and which it may skip because the rules in force would certainly leave them undecided
(:mod:`gpuwise.decide.bounds`). It decides nothing itself: every count it keeps is judged by the
engine, and every count it skips is one the rules themselves would reject.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..estimators import cost as K
from ..estimators import held_plan as H
from ..estimators import interconnect as I
from ..estimators import planner as P
from ..estimators import serving as SV
from ..estimators import training_job as TJ
from ..estimators.candidate import (
    Evaluation,
    capacity_bytes,
    evaluate,
    market_of,
    networks_for,
    requested_pins,
    training_job,
)
from ..estimators.rental import instance_split
from ..inputs.job import Job
from . import bounds, engine, rulebook
from .consult import fact_of, memory_limit, memory_may_pass, rulebook_for, ways_judged
from .rank import score
from .subjects import NODE, Server, counts_for, probe_fact, roomiest


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
        gpu = job.kb.gpus[gid]
        probe = _Probe(SV.on_gpu(job, gpu), gpu, wanted, book)
        probe.job_asked = job
        filled: dict[int, list[Evaluation]] = {}  # counts judged because a rental bills them whole (_billed_whole)
        if job.c.gpus:
            listed = _keeping_the_pin(job, counts)
            for n in listed:
                _fill(job, n, judge(probe(n)), listed, lambda m, p=probe: judge(p(m)), filled)
            server = probe.server(one_server, server)
            continue
        mine = [n for n in counts if not probe.surely_out(n)] or counts[-1:]  # the most GPUs say why none passes
        mine = _keeping_the_pin(job, mine)
        first = probe.first_fitting(mine)
        if first == len(mine) or first > 0:  # what does not fit: the largest count below the first that may
            judge(probe(mine[first - 1]))
        best = {False: math.inf, True: math.inf}  # by regime: one server, several
        for n in mine[first:]:
            ways = judge(probe(n))
            _fill(job, n, ways, mine, lambda m, p=probe: judge(p(m)), filled)
            scores = probe.scores(ways)
            s = min(scores, default=math.inf)
            cluster = n > NODE
            if s > best[cluster] or _time_is_cheap(job, ways, scores, policy) or probe.never_priced(n, ways):
                break
            best[cluster] = min(best[cluster], s)
        server = probe.server(one_server, server)
        probe.release()
    priced_apart = [e.job for e in evaluations if e.job is not None]
    if priced_apart:  # a published checkpoint served in 16 bits where its engine has no kernels for it: said
        job.assumptions.extend(SV.notes_of(job, priced_apart))
    return evaluations, modes, server


_BY_COUNT = frozenset(("count", "multi_gpu", "wall_days", "gpu_hours"))
"""What :meth:`_Probe.surely_out` knows of a count beyond the GPU and the job."""


class _Probe:
    """One GPU type's estimates by count, made once each, with the compute and cost steps put off
    until the count is judged (finding the first count that may fit looks only at memory)."""

    job_asked: Job | None = None  # the question's job, where ``job`` is it as priced on this GPU

    def __init__(self, job: Job, gpu: Any, wanted: list[str], book: rulebook.Rulebook) -> None:
        self.job, self.gpu, self.wanted, self.book = job, gpu, wanted, book
        self.made: dict[int, list[tuple[Evaluation, list[str] | None]]] = {}
        self.value_of_a_day = float(job.kb.policy_value("value_of_a_day_usd"))  # the ranking's, once per GPU
        self.known = bounds.judgement_of(book, probe_fact(job, gpu))  # the rules, this GPU and job settled
        self.limit = memory_limit(job, book, gpu, self.known)
        self.by_count = self.known.narrowed(_BY_COUNT)  # the same, asked only about what a count adds
        self._fewest: tuple[float, float] | None = None
        self._fewest_known = False

    def __call__(self, n: int) -> list[tuple[Evaluation, list[str] | None]]:
        """The estimates of ``n`` GPUs: one for a single server; several servers once per network
        the allowed ways of acquiring them have, with those ways (None: every way the user allows); a rental
        sold only as smaller instances than the servers, once more as those instances
        (:func:`rental.instance_split`)."""
        got = self.made.get(n)
        if got is not None:
            return got
        job, gpu, wanted = self.job, self.gpu, self.wanted
        # rented only as smaller instances (8 T4s as eight one-GPU g4dn.xlarge): so many servers on their network
        split = instance_split(job, gpu, n) if "rent" in wanted else None
        if n <= NODE and split is None:
            got = [(evaluate(job, gpu, n, defer=True), None)]
        else:
            nets = networks_for(job, gpu, n) if n > NODE else {}
            by_net: dict[tuple[int | None, str | None], list[str]] = {}
            for mode in wanted:  # a way of acquiring that does not exist is judged only if it is the only one asked
                if mode == "rent" and split is not None:
                    by_net.setdefault(split, []).append(mode)
                elif n <= NODE:
                    by_net.setdefault((None, None), []).append(mode)
                elif nets.get(mode) is not None or len(wanted) == 1:
                    by_net.setdefault((None, nets.get(mode)), []).append(mode)
            if not by_net:  # neither way exists: one estimate, so the rules can say why
                by_net[(None, None)] = wanted
            got = [(evaluate(job, gpu, n, nodes=k, network=net, defer=True), ms) for (k, net), ms in by_net.items()]
        if self.job_asked is not None and job is not self.job_asked:  # priced otherwise on this GPU: judged so
            for e, _ in got:
                e.job = job
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
                return H.fits_at_all(training_job(job), n, I.topology(gpu, n, job.kb.runtime),
                                     math.nextafter(self.limit, 0.0), requested_pins(job), gpu=gpu,
                                     stated=TJ.micro_batch_stated(job))
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
            need = H.least_need(training_job(job), n, I.topology(gpu, n, job.kb.runtime),
                                math.nextafter(self.limit, 0.0), requested_pins(job), gpu=gpu,
                                stated=TJ.micro_batch_stated(job))
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
                f = fact_of(job, e, mode)  # a new dict of its own
                f["detail"] = 0
                facts.append(f)
                owner.append(i)
        out = [math.inf] * len(ways)
        verdicts = [self.known.verdict(f) for f in facts]  # the GPU's judgement: only its open rules read
        open_ = [i for i, v in enumerate(verdicts) if v is None]  # a field a pass rule sets decides
        if open_:
            session = engine.run(book, [facts[i] for i in open_])
            rejected = {idx for rid, idx, _stage in session.firings if book.rules[rid].then.action == "reject"}
            for j, i in enumerate(open_):
                verdicts[i] = session.reached.get(j) == "decided" and j not in rejected
        for f, i, v in zip(facts, owner, verdicts, strict=True):
            if v:
                out[i] = min(out[i], score(f, self.value_of_a_day))
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
        unpriced = {"rent": {"rent_known": False, "rent_usd": -1.0}, "buy": {"buy_known": False, "buy_usd": -1.0,
                                                                                "buy_cash_out_usd": -1.0}}
        return all(self.known.verdict({"acquisition": m, "cost_usd": -1.0, "cash_out_usd": -1.0,
                                       "price_known": False, **unpriced[m]})
                   is False for m in allowed)

    def release(self) -> None:
        """Estimates the search made but did not judge drop their put-off steps (which refer back
        to them: no reference cycle is left for the garbage collector). Judged ones ran theirs."""
        for ways in self.made.values():
            for e, _ms in ways:
                e.rest = None


def _keeping_the_pin(job: Job, counts: list[int]) -> list[int]:
    """A job with a pinned layout (``parallelism: {tp: 16}``) is searched on the counts that can hold one
    copy of it (two, for disaggregated serving): fewer GPUs cannot keep the pin, and judged they could win
    on cost with another layout (8 GPUs at tensor parallel 8 for a 16-GPU pin). Where no count allowed can
    hold it (``max_gpus`` below the copy), every count is searched and the rules say the pin was not kept
    (MEM-PIN-NOT-KEPT, SRV-DISAGGREGATED-ONE-COPY). A served copy whose GPUs the count ladder skips is searched
    on its own count first."""
    if job.shape.diffusion:
        return counts
    need = TJ.job_pinned_span(job) if job.training else SV.pinned_gpus(job)
    if not job.training and getattr(job.w, "disaggregated", False):
        need *= 2  # prefill and decode on copies apart: two copies at least (SRV-DISAGGREGATED-ONE-COPY)
    kept = [n for n in counts if n >= need]
    if not job.training and kept and need > 1 and need not in kept:  # a copy of whole servers off the ladder
        kept.insert(0, need)  # (tp 8 x pp 3: 24 GPUs) is judged on its own count, not on the next rung's 32
    return kept or counts


def _fill(job: Job, n: int, ways: list[tuple[Evaluation, list[str]]], ladder: list[int],
          judged: Callable[[int], list[tuple[Evaluation, list[str]]]], filled: dict[int, list[Evaluation]]) -> None:
    """Judge the count a rental of ``n`` bills whole (:func:`_billed_whole`) once, beside the ladder (its score does not
    move where the ladder stops), each of its estimates pointing at the nearest count below billed it (the ladder
    climbs: 64, not 32, for 72 GB200)."""
    whole = _billed_whole(job, ways, n, ladder)
    if whole is None:
        return
    if whole[1] not in filled:
        filled[whole[1]] = [e for e, _ms in judged(whole[1])]
    for e in filled[whole[1]]:
        e.step_of = whole[0]


def _billed_whole(job: Job, ways: list[tuple[Evaluation, list[str]]], n: int,
                  ladder: list[int]) -> tuple[Evaluation, int] | None:
    """A training job's ``n`` GPUs rented where the offer bills a larger count, in whole steps (clouds.yaml step_gpus:
    CoreWeave's GB200 NVL72 in racks of 72, so 64 are billed 72): that estimate and the count billed, where the ladder
    does not judge it and the user allows it (max_gpus), so the layout that uses every GPU paid for (a wider data
    parallel, a batch that fills it) is judged beside it (review60b: recommend billed 72 GB200 for a 64-GPU layout and
    never tried 72). A service's count is its load's, not the bill's: none."""
    if not job.training:
        return None
    for e, ms in ways:
        o = e.offer
        if "rent" in ms and o is not None and o.step_gpus > 1 and n < o.gpus <= job.c.max_gpus \
                and o.gpus not in ladder:
            return e, int(o.gpus)
    return None


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
