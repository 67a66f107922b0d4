"""The rules' verdicts on estimates judged one by one, outside a consultation: whether ``gpuwise
estimate``'s configuration fits (its ``fits`` and ``fits_as_requested``), and which counts of a GPU
type the capacity plan's sizing may take (:mod:`gpuwise.plan.sizing`): counts that fit, a run that
finishes in time, a copy that answers within the latency targets. Each estimate goes through the
rule book in force (policy overlays and house rules included) as a candidate fact; what the memory
and compute steps' ``pass`` rules set and which rules reject it is read back. Likewise what an
audit's alternative gives up against the proposal (:func:`gives_up`: comparison facts). Nothing
here compares a figure with a threshold: that is the rules' part.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..checked import made
from ..estimators.candidate import Evaluation
from ..estimators.interconnect import topology
from ..estimators.serving.limits import Limits
from ..frozen import frozen, replaced
from ..inputs.job import Job
from ..messages import Phrase, quoted
from ..results import STAGES, Candidate
from . import bounds, engine
from .rulebook import ENGINE_MAX, Rulebook, _ref
from .subjects import candidate_fact, gpu_fields, joined_systems, modes_for, probe_fact

if TYPE_CHECKING:  # a training job never loads the serving model
    from ..estimators.serving.result import ServingResult
    from ..results_audit import GivenUp

PAST_MEMORY = STAGES[1]
"""The stage a candidate reaches when a memory ``pass`` rule lets it through (its verdict fields
-- ``fits``, ``fits_as_requested`` -- are the ones that rule sets)."""
PAST_COMPUTE = STAGES[2]
"""The stage a candidate reaches when a compute ``pass`` rule lets it through (``fast_enough``)."""

TIME = ("wall_days",)
"""The figure the deadline rules judge a training run by (CMP-IN-TIME, CMP-DEADLINE)."""
LATENCY = ("ttft_ms", "tpot_ms")
"""The figures the latency rules judge a service by (CMP-TTFT-TARGET, CMP-TPOT-TARGET)."""
P95 = ("p95_ttft_s", "p95_tpot_s")
"""The figures the p95 rules judge a service by (SRV-P95-TTFT-TARGET, SRV-P95-TPOT-TARGET): its 95th-percentile
latencies at the highest request rate within the workload's p95 targets, else at a trickle of requests."""
HOST_RAM = ("host_ram_gb",)
"""The figure the host-RAM rules judge an offloaded run's server by (MEM-HOST-RAM-SHORT): its RAM per server."""


@frozen
class Verdict:
    """What the rules did with one estimate: the fields the memory step's pass rule set (empty
    when none let it through), the rules that rejected it, in the rule book's order, and the
    rules' verdicts on a service's yes/no figures (:func:`serving_verdict`)."""

    memory: dict[str, Any] = field(default_factory=dict)
    rejected: tuple[str, ...] = ()
    compute: dict[str, Any] = field(default_factory=dict)  # what the compute step's pass rule set
    serving: ServingVerdict | None = None

    @property
    def fast_enough(self) -> bool:
        """A compute pass rule let it through (``set: {fast_enough: true}``): for a training run,
        in time for the deadline (CMP-IN-TIME)."""
        return self.compute.get("fast_enough") is True

    @property
    def fits(self) -> bool:
        """A memory pass rule let it through and said it fits (``set: {fits: true}``)."""
        return self.memory.get("fits") is True

    @property
    def fits_as_requested(self) -> bool:
        return self.memory.get("fits_as_requested") is True


def plan_within(job: Job, book: Rulebook) -> Job:
    """Let the estimators plan ``job`` within the limits of the rule book in force: the share of
    each GPU's memory its memory rules let through (:func:`gpuwise.decide.bounds.usable_share`),
    which every layout the planner and the serving model choose is sized to fill, and which the
    candidates report as usable; and the serving limits its rules set
    (:func:`gpuwise.decide.bounds.serving_limits`): the latency limits a serving layout and a copy's
    capacity are chosen within, the throughput and request rate the load is put at, the p95
    limits the highest rate served is found within; and which sizes of a serving copy its rules let
    serve on a GPU type x count (:func:`copy_allowed`), which the layouts are chosen among. Bound
    before anything of the job is estimated."""
    job.memory_share = functools.partial(_share, book)
    job.serving_limits = functools.partial(_serving, book)
    job.serving_copies = functools.partial(copy_allowed, book)
    return job


def _share(book: Rulebook, job: Job, gpu: Any) -> float:
    key = ("usable-share", book.digest, gpu.id)
    got = job.memo.get(key)
    if got is None:
        got = job.memo[key] = bounds.usable_share(book, probe_fact(job, gpu))
    return float(got)


def _serving(book: Rulebook, job: Job, gpu: Any, count: int) -> Limits:
    key = ("serving-limits", book.digest, gpu.id, count)
    got = job.memo.get(key)
    if got is None:
        lim = bounds.serving_limits(book, probe_fact(job, gpu, count))

        def least(v: float | None, asked: float | None) -> float | None:
            return v if v is None or math.isfinite(v) else asked  # no value passes: put the load at the asked

        w = job.w
        asked = getattr(w, "requests_per_s", None)
        got = job.memo[key] = Limits(ttft_ms=lim.ttft_ms, tpot_ms=lim.tpot_ms,
                                     tokens_per_s=least(lim.aggregate_tps, w.target_tokens_per_s) or 0.0,
                                     requests_per_s=least(lim.max_requests_per_s, asked),
                                     p95_ttft_s=lim.p95_ttft_s, p95_tpot_s=lim.p95_tpot_s)
    return got


def copy_allowed(book: Rulebook, job: Job, gpu: Any, count: int, gpus_per_copy: int, spans: bool) -> bool:
    """Whether the rules in force let one serving copy of ``gpus_per_copy`` GPUs serve on ``count``
    x ``gpu`` with a framework that may (``spans``) or may not spread a copy over servers: the
    rules that judge a candidate by its copy (:data:`COPY`: CMP-FRAMEWORK-NODES, or a house rule
    that relaxes, replaces or adds to it) asked about the candidate's GPU, job, count and servers
    (:func:`lets_through`). What the serving model chooses a layout among
    (:func:`gpuwise.estimators.serving.limits.copy_allowed`), so a house rule that lets ExLlama span
    servers, or keeps copies small, changes the layouts it prefers as it changes the verdict."""
    key = ("serving-copy", book.digest, gpu.id, count, gpus_per_copy, spans)
    got = job.memo.get(key)
    if got is None:
        topo = topology(gpu, count, job.kb.runtime)
        fact = {**probe_fact(job, gpu, count), "nodes": topo.nodes, "per_node": topo.per_node,
                "multi_node": topo.nodes > 1, "copy_gpus": gpus_per_copy, "framework_spans_servers": spans,
                "joined_systems": joined_systems(topo.nodes, topo.per_node, gpus_per_copy)}
        got = job.memo[key] = lets_through(book, fact, COPY)
    return bool(got)


def judge(book: Rulebook, job: Job, evaluations: list[Evaluation], *, chosen_way: bool = False) -> list[Verdict]:
    """Each estimate as the rules see it, in one session: only the rules that decide run
    (``detail: 0``), the first way of acquiring it the user allows (the memory and compatibility
    rules do not read the way), or with ``chosen_way`` the way its cost step chose where the user allows it: the
    way an estimate prices and shows (review58: 4 H100 serving a 70B model, shown bought at $70,088, read 'Refused
    by the rules: TCO-RENT-DEARER', the rental's verdict)."""
    if not evaluations:
        return []

    def way(ev: Evaluation) -> str:
        allowed = modes_for(job, ev)
        chosen = ev.cost.acquisition if chosen_way and ev.cost is not None else None
        return chosen if chosen in allowed else allowed[0]

    facts = [{**candidate_fact(ev.job or job, ev, way(ev)), "detail": 0} for ev in evaluations]
    session = engine.run(book, facts)
    order = {rid: i for i, rid in enumerate(book.rules)}
    rejected: dict[int, set[str]] = {}
    for rid, idx, _stage in session.firings:
        if book.rules[rid].then.action == "reject":
            rejected.setdefault(idx, set()).add(rid)
    return [Verdict(dict(session.stage_values.get((i, PAST_MEMORY), {})),
                    tuple(sorted(rejected.get(i, ()), key=order.__getitem__)),
                    dict(session.stage_values.get((i, PAST_COMPUTE), {})),
                    serving_verdict(book, facts[i], ev.serving)) for i, ev in enumerate(evaluations)]


# ------------------------------------------------------------------ a service's verdicts
SERVING_JUDGED: dict[str, tuple[str, ...]] = {
    "meets_throughput_target": ("aggregate_tps",),  # CMP-TARGET-SPEED, CMP-SERVES(-PAST-RATE, -NO-RATE-WITHIN)
    "meets_ttft": ("ttft_ms",),  # CMP-TTFT-TARGET
    "meets_tpot": ("tpot_ms",),  # CMP-TPOT-TARGET
    "meets_rate": ("max_requests_per_s",),  # SRV-RATE-TARGET
    "gpu": ("framework_vendor_listed", "framework_min_cc", "attention_backend_runs_here"),  # CMP-FRAMEWORK-GPU,
    # CMP-ATTENTION-BACKEND-GPU
    "precision": ("precision_listed", "precision_min_cc", "precision_units"),  # CMP-FRAMEWORK-PRECISION
    "multi_node": ("framework_spans_servers", "copy_gpus"),  # CMP-FRAMEWORK-NODES
}
"""A service's yes/no figures in the JSON (``targets.meets_*``, ``rate.meets_requests_per_s``,
``supports.gpu/precision/multi_node``) and the candidate fields the rules judge each by: each is
the verdict of the rules that read those fields (:func:`lets_through`), never a comparison here."""


SYSTEMS = ("joined_systems",)
"""The figure the rules judge how many systems a job joins by (NET-SYSTEMS-BEYOND-MAKER: a DGX Spark cluster
beyond the four its maker's tools join): more GPUs of the type never join fewer."""
COPY = SERVING_JUDGED["multi_node"] + SYSTEMS
"""The candidate fields a serving copy's size is judged by (:func:`copy_allowed`): whether the framework spans
the servers it needs (CMP-FRAMEWORK-NODES) and whether its systems may be joined at all."""

_CHAINED = "\0chained"  # marks a fact the chain's verdicts are already merged into


def lets_through(book: Rulebook, fact: dict[str, Any], fields: tuple[str, ...]) -> bool:
    """Whether the rules that judge a candidate by ``fields`` let this one through: no ``reject``
    rule reading them holds, and in each step where a ``pass`` rule reads them some pass rule of
    the step holds (as the chain would need; the verdicts earlier steps set are taken as passed,
    so the answer is about these figures alone). A rule that cannot be settled on the fact (a
    field it reads is missing) does not count against it."""
    rejects, passes = bounds.judging_whole(book, fields)
    known = {**bounds._prepared(book).chain, **fact} if not fact.get(_CHAINED) else fact
    holds = bounds._holds_split
    for r in rejects:
        if holds(r, known) is True:
            return False
    for rules in passes:
        for r in rules:
            if holds(r, known) is not False:
                break
        else:  # every pass rule of the step certainly fails
            return False
    return True


@dataclass(frozen=True)
class ServingVerdict:
    """The rules' verdicts on a service's yes/no figures (:data:`SERVING_JUDGED`): whether it meets
    each target in force (None where no rule sets one) and whether the framework runs the GPU,
    the precision and a copy of this size."""

    meets_throughput_target: bool | None
    meets_ttft: bool | None
    meets_tpot: bool | None
    meets_rate: bool | None
    gpu: bool
    precision: bool
    multi_node: bool

    def on(self, r: ServingResult) -> ServingResult:
        """``r`` with these verdicts in it, as the JSON shows them (made when it is shown: the
        curve is drawn on ``r`` only then)."""
        return replaced(r, meets_throughput_target=self.meets_throughput_target, meets_ttft=self.meets_ttft,
                        meets_tpot=self.meets_tpot, meets_rate=self.meets_rate,
                        support=replaced(r.support, gpu_ok=self.gpu, precision_ok=self.precision,
                                         multi_node_ok=self.multi_node))


def serving_verdict(book: Rulebook, fact: dict[str, Any], r: ServingResult | None) -> ServingVerdict | None:
    """The rule book's verdicts on a candidate's service (:data:`SERVING_JUDGED`), from its fact;
    a target is judged only where a rule sets one (the result's limits are the rules' own,
    :mod:`gpuwise.estimators.serving.limits`). A latency the estimator could not time (a copy
    that does not fit: forever) is judged at the engine's largest number, as the comparison facts
    hold it, not as the fact's -1 (not known)."""
    if r is None:
        return None
    at = {**bounds._prepared(book).chain, **fact, "ttft_ms": _known(r.achieved_ttft_ms),
          "tpot_ms": _known(r.achieved_tpot_ms), _CHAINED: True}

    def ok(name: str) -> bool:
        return lets_through(book, at, SERVING_JUDGED[name])

    return ServingVerdict(
        meets_throughput_target=ok("meets_throughput_target") if r.target_tokens_per_s > 0 else None,
        meets_ttft=ok("meets_ttft") if r.max_ttft_ms is not None else None,
        meets_tpot=ok("meets_tpot") if r.max_tpot_ms is not None else None,
        meets_rate=ok("meets_rate") if r.requests_per_s else None,
        gpu=ok("gpu"), precision=ok("precision"), multi_node=ok("multi_node"))


def judged_serving(book: Rulebook, fact: dict[str, Any], r: ServingResult | None) -> ServingResult | None:
    """``r`` with the rule book's verdicts on it (:func:`serving_verdict`)."""
    v = serving_verdict(book, fact, r)
    return v.on(r) if v is not None and r is not None else None


def rejected_on(book: Rulebook, verdict: Verdict, topic: str) -> list[str]:
    """The rules of ``topic`` (rules/*.yaml ``then.topic``) that rejected an estimate."""
    return [rid for rid in verdict.rejected if book.rules[rid].then.topic == topic]


def rejected_reading(book: Rulebook, verdict: Verdict, fields: tuple[str, ...]) -> list[str]:
    """The rules that rejected an estimate over one of ``fields`` (a condition reads it, on either
    side): the deadline rules (:data:`TIME`), the latency rules (:data:`LATENCY`), a house rule
    that replaces or adds to them."""
    return [rid for rid in verdict.rejected if reads(book.rules[rid], fields)]


def reads(rule: Any, fields: tuple[str, ...]) -> bool:
    """A condition of ``rule`` compares one of ``fields`` (``[field, op, x]``, ``$field`` or
    ``{ref: field}``)."""
    for c in (*rule.when, *rule.any):
        ref = _ref(c[2])
        if c[0] in fields or (ref is not None and ref[0] in fields):
            return True
    return False


COMPARED = ("throughput_tokens_per_s", "tpot_s", "wall_days")
"""The figures an audit compares between the proposal and its alternative (comparison facts)."""


def _figures(c: Candidate) -> dict[str, float | None]:
    sv = c.serving
    return {"throughput_tokens_per_s": sv.throughput_tokens_per_s if sv is not None else None,
            "tpot_s": sv.tpot_s if sv is not None else None, "wall_days": c.wall_days}


def _known(v: float | None) -> float:
    """A figure as a comparison fact holds it: -1 when not known; past the engine's range, its
    largest number (a copy that serves nothing takes forever per token)."""
    if v is None:
        return -1.0
    return v if math.isfinite(v) else math.copysign(ENGINE_MAX, v)


def gives_up(book: Rulebook, proposed: Candidate, alt: Candidate | None) -> list[GivenUp]:
    """What the audit's alternative delivers less of than the proposal: the figures whose
    comparison fact a rule fired on (rules/comparison.yaml compares them with the policy's
    ``comparison_tolerance_fraction``), in :data:`COMPARED` order. A saving is like for like only
    when this is empty."""
    if alt is None:
        return []
    from ..results_audit import GivenUp  # an audit's record: a recommendation never builds the class

    mine, theirs = _figures(proposed), _figures(alt)
    facts = [{"t": "comparison", "what": w, "proposed": _known(mine[w]), "alternative": _known(theirs[w])}
             for w in COMPARED]
    session = engine.run(book, facts)
    fired: dict[int, str] = {}
    for rid, idx, _stage in session.firings:
        if book.rules[rid].fact == "comparison":
            fired.setdefault(idx, rid)
    return [made(GivenUp, dict(what=w, proposed=mine[w], alternative=theirs[w], rule=fired[i]))  # type: ignore[arg-type]
            for i, w in enumerate(COMPARED) if i in fired]


def stale(book: Rulebook, prices: list[Any]) -> dict[int, list[str]]:
    """The rules that fire on each dated price of a listing (``gpuwise prices``; by index), judged
    as a price an answer relies on (``used``): DATA-STALE-PRICE against ``price_max_age_days``,
    DATA-STALE-FX against ``fx_max_age_days``, or a house rule in their place. Each item has
    ``kind``, ``as_of`` and ``age_days`` (undated ones are not judged), and ``item``/``source``."""
    index = [i for i, p in enumerate(prices) if p.as_of and p.age_days is not None]
    if not index:
        return {}
    facts = [{"t": "price", "what": str(prices[i].item), "kind": "fx" if prices[i].kind == "fx" else prices[i].kind,
              "as_of": str(prices[i].as_of), "age_days": int(prices[i].age_days), "source": str(prices[i].source),
              "used": True} for i in index]
    session = engine.run(book, facts)
    order = {rid: i for i, rid in enumerate(book.rules)}
    out: dict[int, set[str]] = {}
    for rid, idx, _stage in session.firings:
        if book.rules[rid].fact == "price":
            out.setdefault(index[idx], set()).add(rid)
    return {i: sorted(rids, key=order.__getitem__) for i, rids in out.items()}


def buy_refused(book: Rulebook, kb: Any, gpu: Any, constraints: Any, market: str) -> list[str]:
    """The ``reject`` rules that certainly refuse buying ``gpu`` in ``market``, from what the market
    facts say before any count is estimated (:func:`buying`): MARKET-EXPORT-BUY (not sold into
    China), MARKET-CHINA-ONLY (a part sold only there), MARKET-CHINA-IMPORT-BLOCKED (China's
    customs stop it), a house rule in their place; empty when the rules may let a purchase through.
    What the capacity plan may buy (:mod:`gpuwise.plan.build`), so its purchases follow the rules as
    ``recommend``'s candidates do (:mod:`gpuwise.decide.bounds`: the facts it does not know leave
    a rule open, never certain)."""
    order = {rid: i for i, rid in enumerate(book.rules)}
    return sorted(bounds.certainly_rejecting(book, buying(kb, gpu, constraints, market)), key=order.__getitem__)


REFUSALS: tuple[tuple[str, str], ...] = (
    ("sold_in_china", "buy.china_blocked"),  # MARKET-EXPORT-BUY: the US export rules
    ("china_import", "buy.china_import_blocked"),  # MARKET-CHINA-IMPORT-BLOCKED: China's customs
    ("sold_globally", "buy.china_only"),  # MARKET-CHINA-ONLY: a part sold only in China
    ("domestic_part", "buy.not_domestic"),  # MARKET-PROCUREMENT-DOMESTIC: domestic parts asked
)
"""How a refusal is worded, by the market field the refusing rule reads (reports/messages.yaml
``buy.*``); a rule that reads none of them (a house rule) is named (``buy.refused``)."""


def buy_refusal(book: Rulebook, kb: Any, gpu: Any, constraints: Any, market: str) -> tuple[Phrase, ...]:
    """Why the rules refuse buying ``gpu`` in ``market`` (:func:`buy_refused`), as message ids with
    values: each refusing rule's reason, worded by the market field it reads (:data:`REFUSALS`)
    with the values the market facts hold (the export rule, the customs note and its date);
    empty when no rule certainly refuses it. The capacity plan's ``buy_reason``."""
    refused = buy_refused(book, kb, gpu, constraints, market)
    if not refused:
        return ()
    known = buying(kb, gpu, constraints, market)
    values = {"gpu": gpu.name, "why": [quoted(known["china_rule"] or "-")],
              "note": [quoted(known["china_import_note"] or "-")], "as_of": known["china_import_as_of"]}
    out: list[Phrase] = []
    for rid in refused:
        mid = next((m for name, m in REFUSALS if reads(book.rules[rid], (name,))), "buy.refused")
        out.append(("; " if out else "", mid, {**values, "rule": rid}))
    return tuple(out)


def buy_findings(book: Rulebook, kb: Any, gpu: Any, constraints: Any, market: str,
                 run: dict[str, Any] | None = None) -> list[str]:
    """The ``finding`` rules on candidates that certainly hold for buying ``gpu`` in ``market`` on
    what :func:`buying` knows (MARKET-CHINA-IMPORT's warning on a purchase China discourages,
    MARKET-EXPORT-CASE-BY-CASE, MARKET-CHINA-PART, CMP-NON-CUDA, a house rule's), in the rule
    book's order: what the capacity plan says of a GPU type it buys, as ``recommend`` and ``audit``
    say it of a candidate bought, with the same severity. ``run``: the facts of one run on it known beside
    (a plan's offloaded run: its host RAM, sizing.HOST_RAM_FACTS)."""
    known = {**buying(kb, gpu, constraints, market), **(run or {})}
    return [rid for rid, rule in book.rules.items()
            if rule.fact == "candidate" and rule.then.action == "finding"
            and bounds._holds(bounds._conds(rule, book.policy), known) is True]


def buying(kb: Any, gpu: Any, constraints: Any, market: str) -> dict[str, Any]:
    """A purchase of ``gpu`` in ``market`` as the candidate rules see it before any count is
    estimated: the GPU's fields, the way (buy) and the market, and its China-market entry in
    prices.yaml (sold into China or not, a China part, the export rule; the export licence and
    China's import guidance). Every other candidate field is unknown."""
    from ..estimators.cost import market_entry
    from ..prices.markets import jurisdiction_fields

    mk = market_entry(kb.prices, gpu.id)
    return {"t": "candidate", "tag": "", **gpu_fields(kb, gpu), "acquisition": "buy", "market": market,
            "sold_in_china": mk is None or mk.sold_in_china is not False,
            "sold_in_china_known": mk is not None,
            "china_part": bool(mk.china_part) if mk is not None else False,
            "china_rule": mk.rule if mk is not None else "",
            **jurisdiction_fields(kb, gpu.id, constraints)}
