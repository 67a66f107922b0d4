"""One consultation of the rule book: every candidate a search kept (each estimate once per way
of acquiring it), the job, the GPUs' software environments and the dated prices as facts, run
through the rules; what they decided is read back from it (:class:`Consultation`). Shared by
``recommend`` and ``audit``; the count search (:mod:`gpuwise.decide.count_search`) asks the same
rule book before it estimates a count in full.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from dataclasses import field
from typing import Any

from ..estimators import GB
from ..estimators.candidate import Evaluation
from ..frozen import record
from ..inputs.job import Job
from . import bounds, engine, rulebook
from .actions import Outcome, fact_key, materialize
from .subjects import (
    Server,
    candidate_fact,
    environment,
    host_ram_key,
    job_fact,
    modes_for,
    price_facts,
    probe_fact,
)
from .verdicts import PAST_MEMORY, Verdict, plan_within, serving_verdict


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
            extra_facts: list[dict[str, Any]] | None = None, proposed_total_gb: float = -1.0, proposed_gpus: int = 0,
            modes: dict[int, list[str]] | None = None, server: Server | None,
            judged_before: tuple[list[Evaluation], list[tuple[Evaluation, str]]] | None = None,
            before_host_ram: tuple[Evaluation | None] | None = None, every_rule: bool = False) -> Consultation:
    """Run the rule book over every candidate (each estimate once per acquisition mode) and the
    consultation's other facts. ``judged_before``: estimates (and their options) an earlier
    consultation of the same question judged and that are not judged again here (a batch's
    audits share them): the job fact and the price facts still cover them, as if they were.
    ``before_host_ram``: :func:`host_ram_server` of those estimates, when the caller kept it (one
    item: None is an answer). ``every_rule``: every candidate is asserted with ``detail: 1`` at
    once, for a caller whose result runs them all through every rule anyway (a recommendation,
    :func:`result.build_result`): one pass, not a deciding pass and then the same chain again."""
    facts: list[dict[str, Any]] = []
    options: dict[str, tuple[Evaluation, str]] = {}
    for i, ev in enumerate(evaluations):
        for mode in ways_judged(job, ev, (modes or {}).get(i), book):
            f = fact_of(job, ev, mode)
            f["detail"] = 1 if ev.tag or every_rule else 0  # an audit's proposal is judged in full at once
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
    facts.append(job_fact(job, judged, proposed_total_gb, server, host, proposed_gpus))
    facts += environment(job, list(dict.fromkeys(e.gpu.id for e in evaluations)))
    facts += price_facts(job, [*options.values(), *before_options])
    facts += extra_facts or []
    session = engine.run(book, facts)
    return Consultation(book, facts, [fact_key(f) for f in facts], session, options)


def fact_of(job: Job, ev: Evaluation, mode: str) -> dict[str, Any]:
    """:func:`subjects.candidate_fact` of a judged estimate, built once per job, estimate and way
    of acquiring (the count search scores the estimate, then the consultation judges it): a new
    dict each call, its values shared. An estimate priced on its own copy of the job (``ev.job``: a published
    checkpoint served in 16 bits where its engine has no kernels for it) is judged on that copy."""
    job = ev.job or job
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
