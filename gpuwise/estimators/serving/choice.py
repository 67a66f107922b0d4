"""The layout to serve with on a GPU type x count, and the load it is reported at."""

from __future__ import annotations

import math
from dataclasses import field
from typing import TYPE_CHECKING, Any

from ...frozen import frozen, record
from ...results_serving import CurvePoint
from .. import memory as M
from . import rate as R
from .engine import Engine, engine
from .layout import Layout, Replica, layouts, replica
from .limits import Limits, copy_allowed, limits
from .load import Point, capacity_point, point, system_point
from .rate import RateAnswer
from .support import Support, request_lengths, support

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ...knowledge.schema import Gpu


# ------------------------------------------------------------------------------- choice
@frozen
class Alternative:
    """Another layout of the same GPU count, not chosen: whether its copy fits, its throughput at the
    load and the most it sustains, and the sequences its memory holds."""

    layout: Layout
    fits: bool
    throughput_tokens_per_s: float
    max_throughput_tokens_per_s: float
    max_concurrent_sequences: int


@record
class Serving:
    """The chosen way to serve on one GPU type x count, with its numbers."""

    engine: Engine
    replica: Replica
    support: Support
    load: Point  # at the chosen load (concurrent_requests, or what the target needs)
    capacity: Point | None  # the most the memory allows within the latency targets
    single: Point  # one request alone
    max_concurrent: int
    meets_throughput: bool | None
    meets_ttft: bool | None
    meets_tpot: bool | None
    load_source: str  # where the load comes from: a message id of reports/messages.yaml (load.*)
    alternatives: list[Alternative] = field(default_factory=list)
    best_capacity: Point | None = None  # the most any layout of this count sustains (within the targets)
    best_capacity_layout: Layout | None = None
    best_capacity_max_concurrent: int = 0
    rate: RateAnswer | None = None  # the request-rate answer (requests_per_s, p95 targets, disaggregated)
    meets_rate: bool | None = None
    limits: Limits | None = None  # the limits in force it was chosen for (:mod:`.limits`)
    allowed: bool = True  # the rules in force let a copy of this size serve here (:func:`.limits.copy_allowed`)

    @property
    def layout(self) -> Layout:
        return self.replica.layout


def load_concurrency(job: Any, eng: Engine, rep: Replica, cap_point: Point | None, target: float) -> tuple[float, str]:
    """The load to report: ``concurrent_requests`` when given (or when no throughput is wanted);
    otherwise the fewest concurrent requests that reach ``target`` -- the least throughput the rules
    in force accept (:mod:`.limits`: ``target_tokens_per_s`` under the built-in rules) -- within the
    latency limits (or the most the copies sustain when none does)."""
    w = job.w
    given = "concurrent_requests" in w.model_fields_set
    if given or target <= 0:
        return float(w.concurrent_requests), "load.given"
    r = rep.layout.replicas
    top = (cap_point.concurrency if cap_point else 1.0) * r
    if system_point(job, eng, rep, top).throughput < target:
        return top, "load.target_unreached"
    lo, hi = 1.0, top
    if system_point(job, eng, rep, lo).throughput >= target:
        return lo, "load.target"
    for _ in range(40):
        if hi - lo <= 1:
            break
        mid = math.floor((lo + hi) / 2)
        if system_point(job, eng, rep, mid).throughput >= target:
            hi = mid
        else:
            lo = mid
    return float(hi), "load.target"


def wants_rate(w: Any) -> bool:
    """The workload asks the request-rate question (a rate, p95 targets, or disaggregated serving)."""
    return bool(getattr(w, "requests_per_s", None) or getattr(w, "p95_ttft_s", None)
                or getattr(w, "p95_tpot_s", None) or getattr(w, "disaggregated", False))


def evaluate_layout(job: Any, gpu: Gpu, eng: Engine, lay: Layout, count: int | None = None) -> Serving:
    """One layout of ``count`` GPUs (default: the layout's own) at the operating point the limits in
    force give (:mod:`.limits`): a copy's capacity within the latency limits, the load at the
    request rate or the throughput the rules want at least, the highest rate within the p95 limits."""
    rep = replica(job, gpu, eng, lay)
    w = job.w
    lim = limits(job, gpu, count or lay.gpus)
    max_ttft, max_tpot, target, asked = lim.ttft_s, lim.tpot_s, lim.tokens_per_s, lim.requests_per_s
    cap = capacity_point(job, eng, rep, max_ttft, max_tpot) if rep.fits else None
    rate = R.answer(job, eng, rep, lim) if rep.fits and wants_rate(w) else None
    if rate is not None and rate.at_rate is not None and "concurrent_requests" not in w.model_fields_set:
        at = rate.at_rate  # Little's law: the sequences in service at the stated rate
        conc = max(at.batch * (at.decode_copies or lay.replicas), 1.0)
        source = "load.rate"
    else:
        conc, source = load_concurrency(job, eng, rep, cap, target)
    load = system_point(job, eng, rep, conc)
    if source == "load.rate" and rate is not None and rate.at_rate is not None:
        at = rate.at_rate  # the load is the rate: its output and mean latencies (disaggregated ones too)
        served = at.requests_per_s * request_lengths(w)[1] if at.stable else load.throughput
        load = Point(conc, served, at.tpot_mean, at.ttft_mean, load.decode_step, front_end=load.front_end)
    if not rep.fits:  # not one sequence fits beside the weights: nothing is served, so nothing is timed (a
        # latency or speed of a copy that cannot hold the model would be read as what it serves)
        load = Point(load.concurrency, 0.0, math.inf, math.inf, math.inf)
    r = lay.replicas
    capacity = None
    if cap is not None:
        capacity = Point(cap.concurrency * r, cap.throughput * r, cap.tpot, cap.ttft, cap.decode_step,
                         front_end=cap.front_end)
    single = point(job, eng, rep, 1.0) if rep.fits else Point(1.0, 0.0, math.inf, math.inf, math.inf)
    sup = support(eng.fw, gpu, w.precision, lay.gpus_per_copy, getattr(w, "attention_backend", None),
                  bool(job.shape.mla))
    return Serving(
        engine=eng, replica=rep, support=sup, load=load, capacity=capacity, single=single,
        max_concurrent=rep.max_seqs * r,
        meets_throughput=(load.throughput >= target) if target > 0 else None,
        meets_ttft=(load.ttft <= max_ttft) if max_ttft is not None else None,
        meets_tpot=(load.tpot <= max_tpot) if max_tpot is not None else None,
        load_source=source, rate=rate,
        meets_rate=(rate.max_requests_per_s >= asked) if (rate is not None and asked) else None, limits=lim,
        allowed=copy_allowed(job, gpu, count or lay.gpus, lay.gpus_per_copy, eng.fw),
    )


def _unserved(job: Any, gpu: Gpu, eng: Engine, lay: Layout, rep: Replica, count: int) -> Serving:
    """A layout whose copy does not fit, listed beside one that fits and runs: nothing is served,
    so nothing is timed (its latencies would be bounds nobody reads)."""
    w = job.w
    lim = limits(job, gpu, count)
    never = Point(float(w.concurrent_requests), 0.0, math.inf, math.inf, math.inf)
    sup = support(eng.fw, gpu, w.precision, lay.gpus_per_copy, getattr(w, "attention_backend", None),
                  bool(job.shape.mla))
    return Serving(engine=eng, replica=rep, support=sup,
                   load=never, capacity=None, single=never, max_concurrent=rep.max_seqs * lay.replicas,
                   meets_throughput=False if lim.tokens_per_s > 0 else None,
                   meets_ttft=False if lim.ttft_s is not None else None,
                   meets_tpot=False if lim.tpot_s is not None else None,
                   load_source="load.unfit",
                   meets_rate=False if lim.requests_per_s else None, limits=lim,
                   allowed=copy_allowed(job, gpu, count, lay.gpus_per_copy, eng.fw))


def _score(s: Serving, job: Any, target: float | None = None) -> tuple:
    """Order layouts: it fits and the rules in force let a copy of its size serve here
    (:func:`.limits.copy_allowed`); it holds the stated concurrency; latency targets met at the
    load; throughput target met; the request rate met; throughput at the load (or, when only a rate is
    asked, what the copies sustain; with the request-rate question, the most requests/s within the
    p95 targets); then capacity; then fewer GPUs per copy (simpler). ``target``: the least throughput
    the rules in force accept (:mod:`.limits`)."""
    w = job.w
    if target is None:
        target = s.limits.tokens_per_s if s.limits is not None else 0.0
    runs = s.replica.fits and s.allowed
    holds = s.max_concurrent >= w.concurrent_requests  # the stated concurrency fits in memory at once
    lat_ok = s.meets_ttft is not False and s.meets_tpot is not False
    thr_ok = s.meets_throughput is not False
    cap = s.capacity.throughput if s.capacity else 0.0
    rate_only = target > 0 and "concurrent_requests" not in w.model_fields_set
    primary = cap if rate_only else s.load.throughput
    rate_ok = s.meets_rate is not False
    if s.rate is not None:
        primary = s.rate.max_requests_per_s
    return (runs, holds, lat_ok, thr_ok, rate_ok, round(primary, 6), round(cap, 6), -s.layout.gpus_per_copy)


def least_bytes(job: Any, gpu: Gpu, count: int) -> float:
    """A floor on the memory total of any layout of ``count`` GPUs: a copy spreads its weights
    over at most ``count`` GPUs, so each holds at least that share, beside its CUDA context."""
    eng = engine(job, gpu)
    return M.total_bytes(eng.mbytes.total / count, 0.0, (eng.context_bytes, eng.alloc_frac))


def surely_unfit(job: Any, gpu: Gpu, count: int) -> bool:
    """No layout of ``count`` GPUs holds the weights (:func:`least_bytes`). A test that costs
    nothing next to :func:`choose`, for a search over counts."""
    return least_bytes(job, gpu, count) >= engine(job, gpu).usable


def choose(job: Any, gpu: Gpu, count: int, *, weight_format: str | None = None,
           servers: tuple[int, str | None] | None = None) -> Serving:
    """The layout to serve with on ``count`` x ``gpu`` (memoised per job). ``servers``: (GPUs a server holds, the
    network between them) where the count is not in the usual 8-GPU servers (:func:`.layout.layouts`)."""
    key = ("serving-choice", gpu.id, count, weight_format, servers)
    got = job.memo.get(key)
    if got is not None:
        return got
    eng = engine(job, gpu, weight_format=weight_format)
    lays = layouts(job, eng, count, servers)
    reps = [replica(job, gpu, eng, lay) for lay in lays]
    if getattr(job.w, "disaggregated", False):
        # prefill and decode on copies apart need two copies at least: the layouts with two or more that fit
        # and may run, where there are any (one copy serves colocated, and the rules say so)
        apart = [(lay, r) for lay, r in zip(lays, reps, strict=True)
                 if lay.replicas >= 2 and r.fits and copy_allowed(job, gpu, count, lay.gpus_per_copy, eng.fw)]
        if apart:
            lays, reps = [lay for lay, _ in apart], [r for _, r in apart]
    # a copy that does not fit cannot be chosen over one that fits and runs: it is not timed then
    runs = any(r.fits and copy_allowed(job, gpu, count, lay.gpus_per_copy, eng.fw)
               for lay, r in zip(lays, reps, strict=True))
    options = [evaluate_layout(job, gpu, eng, lay, count) if r.fits or not runs
               else _unserved(job, gpu, eng, lay, r, count) for lay, r in zip(lays, reps, strict=True)]
    if runs:
        target = limits(job, gpu, count).tokens_per_s
        best = max(options, key=lambda s: _score(s, job, target))
    else:  # nothing fits: report the layout that comes closest (the least held per GPU), not the simplest
        best = min(options, key=lambda s: (s.replica.weights_gpu + s.replica.act_gpu, -s.replica.free_gpu,
                                           s.layout.gpus_per_copy))
    top = max(options, key=lambda s: (s.replica.fits and s.allowed,
                                      s.capacity.throughput if s.capacity else 0.0, -s.layout.gpus_per_copy)
              ) if runs else best  # nothing fits: no layout serves more than the one reported
    best.best_capacity, best.best_capacity_layout = top.capacity, top.layout
    best.best_capacity_max_concurrent = top.max_concurrent
    best.alternatives = [Alternative(o.layout, o.replica.fits, o.load.throughput,
                                     o.capacity.throughput if o.capacity else 0.0, o.max_concurrent)
                         for o in options if o is not best]
    job.memo[key] = best
    return best


def curve(job: Any, s: Serving, points: int = 8) -> list[CurvePoint]:
    """Throughput, TPOT and TTFT against concurrency for the chosen layout: ``points`` geometric steps
    from one request to twice what the memory holds, plus the load and the memory's limit."""
    if not s.replica.fits:  # a copy that does not fit serves nothing at any load: no curve to draw
        return []
    top = max(2 * s.max_concurrent, int(s.load.concurrency), 1)
    ratio = top ** (1 / max(points - 1, 1))
    grid = {max(1, round(ratio ** i)) for i in range(points)}
    peak = int(s.capacity.concurrency) if s.capacity else None
    cs = sorted(grid | {max(1, int(s.load.concurrency)), max(1, s.max_concurrent)} | ({peak} if peak else set()))
    out = []
    for c in cs:
        p = system_point(job, s.engine, s.replica, float(c), pure_decode=False)
        out.append(CurvePoint.model_construct(concurrency=c, throughput_tokens_per_s=p.throughput, tpot_s=p.tpot,
                                              ttft_s=p.ttft))
    return out


def p95_in_flight(job: Any, s: Serving) -> float | None:
    """The most requests in flight the copies carry within the p95 targets, judged as the rules judge a load in
    flight (SRV-RATE-AT-LOAD): ``n`` requests amount to the output tokens/s of ``n`` in a closed loop
    (:func:`system_point`) over a request's output tokens, and that rate must be at most the highest the p95
    targets allow (``s.rate.max_requests_per_s``). The rate model's own stay at its best rate (Little's law on
    its mean latencies) differs from the closed loop's by about 1% near the edge, enough for a plan to size a
    copy for one request more than recommend lets it carry (ratemodel58's 28 on one H100). None: no p95 answer
    (no rate answer, or a load given as a rate)."""
    rate = s.rate
    if rate is None or not rate.max_requests_per_s or not s.replica.fits or getattr(job.w, "requests_per_s", None):
        return None if rate is None or getattr(job.w, "requests_per_s", None) else 0.0
    output = request_lengths(job.w)[1]
    best = rate.max_requests_per_s

    def within(n: int) -> bool:
        return n <= 0 or system_point(job, s.engine, s.replica, float(n)).throughput / output <= best

    b = rate.best
    n = max(0, math.floor(b.requests_per_s * (b.ttft_mean + output * b.tpot_mean) + 1e-9)) if b is not None else 1
    while n > 0 and not within(n):
        n -= 1
    for _ in range(64):  # the closed loop's stay is within a few requests of the rate model's
        if not within(n + 1):
            break
        n += 1
    return float(n)
