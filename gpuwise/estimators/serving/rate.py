"""Serving at a request rate: the highest rate a copy serves within p95 latency targets, and its
latencies at a stated rate.

A queueing approximation built on the closed-loop step model (:mod:`.load`), stated in every answer
(:data:`MODEL`). Requests arrive as a Poisson stream of rate ``λ`` per copy:

* **In service.** ``b`` sequences run in the batch, with ``b = λ x R(b)`` (Little's law), ``R(b)`` the
  time a request spends in the batch: its prefill chunks plus ``output x TPOT(b)``. The step model times whole
  batches; between two, the times are their mean weighted to ``b`` (:func:`at_batch`), so the rate ``b / R(b)``
  rises with ``b`` where a larger batch ends requests faster.
* **Slots.** The scheduler runs at most ``c`` sequences (the batch where the copy's throughput peaks,
  as the closed-loop model sets ``max_num_seqs``): the wait for a slot is M/D/c, i.e. Erlang C's chance
  of waiting with the Allen-Cunneen factor ``(1 + cs²)/2 = 1/2`` for a near-constant time in service.
  Beyond 256 slots Erlang C is Halfin and Whitt's heavy-traffic limit (Halfin & Whitt 1981, Operations
  Research 29(3)), within ~5% of the exact recursion there and far cheaper.
* **Prefill.** Prompts queue for the step's chunk budget: M/D/m with ``m`` prompts per chunk.
* **The step in flight.** The engine takes new requests only between steps (vLLM's EngineCore loop drains its
  input queue, then runs one step: vllm/v1/engine/core.py ``run_busy_loop``), so a prompt that arrives while a
  step runs waits out its rest: with chance ``1 - e^-b`` a step is running (the batch is Poisson; Poisson
  arrivals see time averages) and its rest is uniform over the step (:func:`residual`). Priced here once: the
  open-loop point reports the part of its prompt time that is this wait (``Point.in_flight``; within ``queued``
  where prompt chunks ride on the decode steps), taken out here for every branch. Where the engine runs prompts in
  forwards of their own (SGLang's default scheduler, ``mixed_prefill`` false) the step in flight is of two kinds:
  a decode step, or a prompt's prefill (``Point.prefill_run`` long) for the share of the busy time the point spends
  on prefills (``Point.prefill_busy``), and the wait follows the mix of the two rests (:func:`residual_mix`).
  SGLang's loops take new requests in once a batch (sgl-project/sglang
  python/sglang/srt/managers/scheduler.py at 0003215cf1464f44b389cd0b18d0b4c56f2a3da6: ``event_loop_normal``
  receives, schedules, runs the batch and processes its result; ``event_loop_overlap`` receives, schedules and
  launches batch k+1, then processes batch k), so an arrival waits the rest of one batch, not two.
* **The step scheduled ahead.** Where the engine schedules the next step while one runs (serving.yaml
  ``scheduled_ahead``: vLLM's async scheduling, SGLang's and TensorRT-LLM's overlap schedulers), it takes in new
  requests only as a step ends, when the step after it is already scheduled without them: a prompt that finds the
  engine busy waits that whole step too (:func:`ahead`).
* **The prefill-admission cadence** (``workload.prefill_admission_steps``, AMD's MLPerf vLLM build): new prompts
  enter one schedule in S + 1 while the floor of running requests holds, so a prompt waits S / 2 decode steps more
  on average (:func:`cadence`).
* **The prompts taken in with it.** The step that carries a new prompt carries the others that arrived over the
  step before it (the engine takes in every waiting request between steps and answers the first tokens when the
  whole step has run): a Poisson count of them, as many as the step's budget holds (:func:`taken_with`).
* **Percentiles.** A wait is zero with chance ``1 - C`` and otherwise exponential (the M/M/c shape),
  so its 95th percentile is ``mean | waiting x ln(C / 0.05)``; the two waits' percentiles are added
  (an upper bound).
* **p95 TPOT**, a request's own mean over its decode, spreads by two independent parts, added in quadrature
  (:func:`tpot_p95`). The batch: every request in it gains a token a step, so the copy is a processor-sharing
  server whose rate depends on how many it holds; at ``n`` in service requests end at ``φ(n) = n / R(n)`` a
  second, ``R(n)`` the request's time with ``n`` in service and the prompts still arriving at ``λ`` (a swing of
  the batch is not a swing of the arrivals; :func:`tpot_p95` bounds that TPOT by two the step model times). Such
  a queue (a symmetric queue: Kelly 1979, Reversibility and Stochastic Networks, ch. 3) has the birth-death
  chain's stationary law ``π(n) ∝ Π λ / φ(i)`` (Kleinrock 1975, Queueing Systems vol. 1, ch. 3) whatever the
  spread of the requests' lengths: Poisson while ``R`` holds (an M/G/∞ batch), far wider near the copy's full
  rate, where a larger batch ends requests hardly faster. Its 95th percentile as a request meets it (``π(n)``
  weighted by ``n``, :func:`batch_p95`) sets the TPOT's rise. The prompts: those that arrive while a request
  decodes (``λ x output x TPOT``, a Poisson count) each add their chunks or prefill pause to its tokens, so the
  prompts' part of its TPOT at the 95th percentile is that count's 95th percentile (:func:`poisson_p95`) times one
  prompt's part: none at a trickle, where 95% of requests meet no prompt, and ``share x 1.645 / √count`` above the
  mean share at a large count. Below one request in service the open-loop point is timed at one (its prompts
  arriving one a request time), so its prompts' share is taken in proportion to the batch (:func:`prompt_share`).
* **Disaggregated** prefill and decode: ``p`` of the copies prefill (M/D/m each), the rest decode with
  no prompt chunks in their steps (M/D/c), and the prompt's KV cache crosses the link between them;
  the splits of :func:`splits` are tried and the best kept.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from ...frozen import frozen
from ..interconnect import default_network
from .engine import Engine, kv_per_token, prefill_tokens
from .layout import Replica
from .limits import Limits
from .load import Point, capacity_point, point, prefill_seconds, scheduled_ahead
from .step import token_time
from .support import request_lengths

MODEL = "rate.model"  # the queueing model, as a message of reports/messages.yaml (the JSON writes its text)
MODEL_DISAGGREGATED = "rate.model_disaggregated"
TAIL = 0.05  # the 95th percentile
Z95 = 1.645  # standard normal 95th percentile (the disaggregated decode copies' Poisson batch, normal approximation)
EXACT_SERVERS = 256  # Erlang C by its recursion up to this many slots, Halfin-Whitt's limit beyond
PHI_POINTS = 48  # open-loop points timed at the batches c^(i / 48), i = 0..48, interpolated between (tpot_p95)
TAIL_NATS = 30.0  # the chain is followed until its weight falls e^-30 below its peak (nothing beyond counts)


@frozen
class RatePoint:
    """One copy layout at a request rate (figures for the whole system)."""

    requests_per_s: float
    batch: float  # mean sequences in service per decoding copy
    slot_utilisation: float
    prefill_utilisation: float
    ttft_mean: float
    ttft_p95: float
    tpot_mean: float
    tpot_p95: float
    stable: bool
    prefill_copies: int = 0  # disaggregated: copies that prefill (0: colocated)
    decode_copies: int = 0

    def within(self, ttft: float | None, tpot: float | None) -> bool:
        return self.stable and (ttft is None or self.ttft_p95 <= ttft) and (tpot is None or self.tpot_p95 <= tpot)


@frozen
class RateAnswer:
    """The request-rate answer of one layout: the most it serves within the targets, and at the rate asked."""

    model: str  # the queueing model's message id (rate.model*)
    best: RatePoint | None  # the highest rate within the p95 targets (None: not even a trickle)
    at_rate: RatePoint | None  # at workload.requests_per_s (None: no rate given)
    note: str = ""  # a message id (rate.*), "" for none
    trickle: RatePoint | None = None  # where no rate is within the targets: the least rate tried

    @property
    def judged(self) -> RatePoint | None:
        """The point whose p95 latencies the rules judge: the highest rate within the p95 limits, else
        a trickle of requests (SRV-P95-TTFT-TARGET, SRV-P95-TPOT-TARGET then say which is missed)."""
        return self.best if self.best is not None else self.trickle

    @property
    def max_requests_per_s(self) -> float:
        return self.best.requests_per_s if self.best is not None else 0.0


def erlang_c(c: int, a: float) -> float:
    """Chance that an arrival waits in M/M/c with offered load ``a`` Erlangs (1 when ``a >= c``)."""
    if a <= 0:
        return 0.0
    if a >= c:
        return 1.0
    if c > EXACT_SERVERS:  # Halfin-Whitt: C = 1 / (1 + beta Phi(beta) / phi(beta)), beta = (c - a) / sqrt(a)
        beta = (c - a) / math.sqrt(a)
        if beta > 8.0:
            return 0.0
        cdf = 0.5 * (1.0 + math.erf(beta / math.sqrt(2.0)))
        pdf = math.exp(-beta * beta / 2.0) / math.sqrt(2.0 * math.pi)
        return 1.0 / (1.0 + beta * cdf / pdf)
    b = 1.0
    for i in range(1, c + 1):  # Erlang B by its recursion, stable for large c
        b = a * b / (i + a * b)
        if b < 1e-15 and i > a:  # it only falls from here: nobody waits
            return 0.0
    rho = a / c
    return b / (1.0 - rho * (1.0 - b))


def wait(c: int, a: float, service: float) -> tuple[float, float]:
    """(mean, p95) wait for one of ``c`` servers at offered load ``a`` with a constant ``service`` time."""
    if a >= c:
        return math.inf, math.inf
    waits = erlang_c(c, a)
    given = 0.5 * service / (c - a)  # mean wait of those who wait: M/M/c's, halved for constant service
    p95 = given * math.log(waits / TAIL) if waits > TAIL else 0.0
    return waits * given, p95


def residual(busy: float, step: float) -> tuple[float, float]:
    """(mean, p95) wait of an arrival for the step in flight: none with chance ``1 - busy``, else uniform on
    ``[0, step]`` (the rest of a constant-length step met at a random instant)."""
    p95 = step * (1.0 - TAIL / busy) if busy > TAIL else 0.0
    return busy * step / 2, p95


def residual_mix(parts: list[tuple[float, float]]) -> tuple[float, float]:
    """(mean, p95) wait of an arrival for the step in flight where steps of several lengths run: ``parts`` holds each
    kind's (share of the time it runs, its length). Poisson arrivals see time averages, so with chance ``share`` the
    arrival meets that kind and waits a rest uniform on ``[0, length]`` (:func:`residual`, one kind): the mean is
    the sum of ``share x length / 2``, and the wait exceeds ``x`` with chance ``sum share (1 - x / length)`` over
    the kinds longer than ``x``, a falling broken line whose crossing of 5% is the 95th percentile."""
    kinds = sorted(((share, step) for share, step in parts if share > 0 and step > 0), key=lambda k: k[1])
    if len(kinds) <= 1:
        return residual(*kinds[0]) if kinds else (0.0, 0.0)
    mean = sum(share * step / 2 for share, step in kinds)
    start = 0.0
    for i, (_, step) in enumerate(kinds):  # on [start, step] the kinds from i on are still running
        left = kinds[i:]
        over = sum(share for share, _ in left)  # the chance of waiting beyond x = 0 of these
        slope = sum(share / length for share, length in left)
        x = (over - TAIL) / slope
        if x <= start:  # only on the first piece (the line is continuous): 95% of arrivals wait for nothing
            return mean, start
        if x <= step:
            return mean, x
        start = step
    return mean, start


def ahead(busy: float, step: float) -> tuple[float, float]:
    """(mean, p95) wait of an arrival for the step an engine that schedules a step ahead has already scheduled
    without it, beyond the rest of the step running (:func:`residual`): none with chance ``1 - busy`` (the engine
    idles and schedules the request at once), else the whole step."""
    return busy * step, (step if busy > TAIL else 0.0)


def cadence(steps: int, floor: int, b: float, step: float) -> tuple[float, float]:
    """(mean, p95) wait of an arrival for the next step that admits new prompts, where the scheduler admits them one
    schedule in ``steps + 1`` while at least ``floor`` requests run (AMD's MLPerf v6.0 vLLM build,
    VLLM_SUBSEQUENT_DECODE_STEPS / VLLM_MIN_REQUEST_DECODE_STEP: gbeezybez/inference_results_v6.0 at ab33b214,
    closed/AMD/setup/llama2-70b-99/patches/llama2-70b_vllm_gfx950.patch, vllm/v1/core/sched/scheduler.py). Its
    scheduler breaks out of
    the WAITING loop while its step counter is not 0 and ``len(running) >= floor``, and after every schedule resets the
    counter at ``steps``, else adds one: a cycle of ``steps + 1`` schedules whose first admits. A prompt taken in at a
    random schedule of the cycle (Poisson arrivals, each step taken as long as the others) waits ``k`` more steps, ``k``
    uniform on 0..``steps`` (``steps + 1 - j`` at the cycle's ``j``-th schedule, none at its first): ``steps / 2`` on
    average, decode steps of ``step`` seconds (those steps admit no prompt). The cadence holds with chance ``gate``:
    that of at least ``max(floor, 1)`` running, the batch Poisson of mean ``b`` (:func:`poisson_tail`; ``1 - e^-b`` with
    no floor: an idle engine schedules nothing, and its empty schedules take no time). The p95 is the count's, its
    chance spread evenly over the unit below each count as :func:`poisson_p95` does (continuous for a bisection):
    ``(steps + 1)(1 - 0.05 / gate) - 1`` steps, none while ``gate`` <= 5%."""
    if steps <= 0 or step <= 0:
        return 0.0, 0.0
    gate = poisson_tail(b, max(floor, 1))
    p95 = max((steps + 1) * (1.0 - TAIL / gate) - 1.0, 0.0) if gate > TAIL else 0.0
    return gate * steps / 2 * step, p95 * step


def poisson_tail(mean: float, k: int) -> float:
    """Chance that a Poisson count of mean ``mean`` is at least ``k``: ``1 - e^-mean`` at ``k = 1``, else summed from
    the side with less mass, within 12 standard deviations of the mean (beyond them, under e^-70, taken as none)."""
    if k <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    if k == 1:
        return -math.expm1(-mean)
    spread = 12.0 * math.sqrt(mean) + 10.0
    if k > mean + spread:
        return 0.0
    if k < mean - spread:
        return 1.0

    def pmf(i: int) -> float:
        return math.exp(-mean + i * math.log(mean) - math.lgamma(i + 1))

    if k > mean:  # the upper tail: k, k + 1, ... while it still weighs
        return math.fsum(pmf(i) for i in range(k, int(mean + spread) + 1))
    return 1.0 - math.fsum(pmf(i) for i in range(max(0, int(mean - spread)), k))


def taken_with(job: Any, eng: Engine, p: Point, lam: float, b: float) -> tuple[float, float]:
    """(mean, p95) time the step that carries an arrival's prompt spends on the other prompts taken in with it, where
    prompt chunks ride on the decode steps. The engine takes in every request that arrived over the step in flight once
    it ends and schedules their prompts together, first come first served up to the step's token budget, and answers
    each request's first token only when that whole step has run (TensorRT-LLM's executor,
    cpp/tensorrt_llm/executor/executorImpl.cpp at 036a60f7: ``executionLoop`` runs ``forwardSync``, answers
    (``populateNewResponses``), then ``fetchNewRequests`` takes every queued request and ``forwardAsync`` schedules them
    in the next step; MicroBatchScheduler gives each waiting prompt min(its tokens, the budget left); vLLM's scheduler
    fills max_num_batched_tokens from the waiting queue likewise). The open-loop point prices the step that carries a
    prompt as the decodes and that prompt alone (:func:`.load._timed`'s ``carry``); the others arrived over the step
    before, a Poisson count of mean ``a = lam x step`` (the arrival sees the time average), each adding what one prompt
    adds to a step at the open-loop point: its TPOT less its decode step, the time a step spends on the prompts that
    reach it there (``max(b, 1) / output`` of them a token). Only as many as the budget holds beside the decodes and the
    arrival's own prompt join it (none where its prompt fills the budget: chunked over several steps, each full). The
    95th percentile takes the count's (:func:`poisson_p95`)."""
    per_step = eng.spec.tokens_per_step if eng.spec is not None else 1.0
    a = lam * p.tpot * per_step
    if p.tpot <= p.decode_step or a <= 0:
        return 0.0, 0.0
    prompt, output = request_lengths(job.w)
    pre = prefill_tokens(job.w, prompt, eng.fw)
    fit = max(eng.chunk - b - pre, 0.0) / pre  # other whole prompts the budget holds beside decodes and this one
    # one prompt's time in a step: the point's prompt time a step over the prompts that reach one of its steps
    # (max(b, 1) / output x tokens a step: the point is timed at one request below one)
    each = (p.tpot - p.decode_step) * output / max(b, 1.0)
    return each * min(a, fit), each * min(poisson_p95(a), fit)


def slots(job: Any, eng: Engine, rep: Replica) -> int:
    """Sequences the scheduler admits per copy: the batch where the copy's throughput peaks."""
    top = capacity_point(job, eng, rep, None, None) if rep.fits else None
    return max(1, int(top.concurrency)) if top is not None else max(rep.max_seqs, 1)


def _copy(job: Any, eng: Engine, rep: Replica) -> tuple[int, int, int, int, bool]:
    """(output tokens, copies, :func:`slots`, prompts per prefill step, :func:`scheduled_ahead`) of ``eng`` on
    ``rep`` for ``job``: what :func:`colocated` reads at every batch of its bisections, worked out once per job and
    pair."""
    key = ("serving-rate-copy", id(eng), id(rep))
    got = job.memo.get(key)
    if got is None or got[0] is not eng or got[1] is not rep:
        prompt, output = request_lengths(job.w)
        pre = prefill_tokens(job.w, prompt, eng.fw)
        m = max(1, int(eng.chunk // pre)) if eng.fw.chunked_prefill else 1
        got = job.memo[key] = (eng, rep, (output, rep.layout.replicas, slots(job, eng, rep), m,
                                          scheduled_ahead(job, eng)))
    return got[2]


def at_batch(job: Any, eng: Engine, rep: Replica, b: float) -> Point:
    """The open-loop point of a copy whose mean batch is ``b``: a mean over the whole batches the copy runs. The step
    model times a whole number of sequences; the queue's batch is a whole-number state whose mean is ``b``, so the
    point is the mean over the two whole batches around it weighted to that mean (``n = ⌊b⌋`` with weight
    ``⌈b⌉ - b``, ``n + 1`` with ``b - n``: the narrowest law of whole batches whose mean is ``b``), every time of
    :class:`.load.Point` (TTFT, TPOT, decode step, waits) linear in ``b`` between whole batches and equal to the
    step model's at each. Read at the nearest whole batch instead, a copy's rate ``b / R`` rose in proportion to
    ``b`` within each whole batch and fell by ``R(n + 1) / R(n)`` at the next, a saw of ~1.7% a batch near 45 in
    service (Llama 3.1 8B on an H100), so the highest rate within a target could fall as the target loosened. With
    the time in service ``R`` linear between whole batches, ``b / R(b)`` rises wherever a whole batch more ends
    requests faster (``(n + 1) / R(n + 1) > n / R(n)``, below the copy's throughput peak where the slots end).
    Below one in service the point at one (the prompts' share then in proportion to ``b``: :func:`prompt_share`)."""
    lo = max(1, math.floor(b))
    p = point(job, eng, rep, float(lo), open_loop=True)
    f = b - lo
    if f <= 0:
        return p
    q = point(job, eng, rep, float(lo + 1), open_loop=True)

    def mix(x: float, y: float) -> float:
        return x + f * (y - x)

    return Point(mix(p.concurrency, q.concurrency), mix(p.throughput, q.throughput), mix(p.tpot, q.tpot),
                 mix(p.ttft, q.ttft), mix(p.decode_step, q.decode_step), mix(p.queued, q.queued),
                 mix(p.in_flight, q.in_flight), mix(p.prefill_busy, q.prefill_busy), mix(p.prefill_run, q.prefill_run),
                 p.front_end or q.front_end)


def colocated(job: Any, eng: Engine, rep: Replica, b: float) -> RatePoint:
    """The system when each copy has ``b`` sequences in service on average (prefill sharing the steps)."""
    output, r, c, m, step_ahead = _copy(job, eng, rep)
    p = at_batch(job, eng, rep, b)
    in_batch = p.ttft + output * p.tpot
    lam = b / in_batch
    # the closed loop's own wait for the step budget is queued here instead, and its wait for the step in flight too
    # (the point's, each branch of load._timed its own: in ``queued`` where prompt chunks ride on the decode steps)
    service = p.ttft - p.queued - p.in_flight
    a_pre = lam * service
    slot_mean, slot95 = wait(c, b, in_batch)
    pre_mean, pre95 = wait(m, a_pre, service)
    busy = 1.0 - math.exp(-b)
    # the step in flight: with prompt chunks on the decode steps, its chunks included (the TPOT); where prompts run
    # in forwards of their own, a decode step or, the point's share of the time, a prompt's run of prefill forwards
    in_step = p.tpot if eng.fw.mixed_prefill or not eng.fw.continuous_batching else p.decode_step
    res_mean, res95 = residual_mix([(busy * (1.0 - p.prefill_busy), in_step), (busy * p.prefill_busy, p.prefill_run)])
    if step_ahead:  # and the step already scheduled behind it
        more_mean, more95 = ahead(busy, p.tpot)
        res_mean, res95 = res_mean + more_mean, res95 + more95
    if eng.fw.continuous_batching and eng.fw.mixed_prefill:  # the prompts its step takes in with it
        more_mean, more95 = taken_with(job, eng, p, lam, b)
        res_mean, res95 = res_mean + more_mean, res95 + more95
    steps = int(getattr(job.w, "prefill_admission_steps", 0) or 0)
    if steps:  # and the steps until the cadence's next admission (a decode step: its seconds a token x tokens a step)
        per_step = eng.spec.tokens_per_step if eng.spec is not None else 1.0
        floor = int(getattr(job.w, "prefill_admission_floor", 0) or 0)
        more_mean, more95 = cadence(steps, floor, b, p.decode_step * per_step)
        res_mean, res95 = res_mean + more_mean, res95 + more95
    tpot95 = tpot_p95(job, eng, rep, p, lam, output, c)
    stable = b < c and a_pre < m
    return RatePoint(lam * r, b, b / c, a_pre / m, slot_mean + pre_mean + res_mean + service,
                     slot95 + pre95 + res95 + service, p.decode_step + prompt_share(p, b), tpot95, stable)


def tpot_p95(job: Any, eng: Engine, rep: Replica, p: Any, lam: float, output: int, c: int) -> float:
    """The 95th percentile of a request's TPOT at ``p``, the open-loop point of a copy that requests reach at ``lam``
    a second (``c`` slots): its mean (the decode step plus the prompts' share, :func:`prompt_share`) plus, in
    quadrature, the rise of the TPOT at the 95th percentile of the batch (:func:`batch_p95` on the chain's rates
    ``n / (TTFT + output x T(n))``) and the prompts' part beyond their mean share (the module docstring). ``T(n)`` is
    the TPOT with ``n`` in service and the prompts still arriving at ``lam``, bounded by two points the step model
    times: the open-loop point at ``n``, whose prompts arrive at that batch's own rate (more than ``lam`` above ``b``,
    fewer below), and the decode step at ``n`` plus the prompts' share at ``b`` (a share that does not grow with the
    batch it joins: a chunk's GPU work is the same, and a mixed step held at its launch floor adds less as the decode
    step nears it). Above ``b`` both are at least ``T(n)``, so the lesser is taken; below, both at most, so the
    greater. The batch's percentile is read at ``lam`` to 0.1% (kept per copy and point: a bisection's last steps ask
    at rates closer than that, and the percentile, a whole batch, does not move within it).

    The prompts: ``met = lam x output x TPOT`` arrive while a request decodes, a Poisson count, and each adds the
    point's share over the prompts the point's own arrivals bring (``met x n / b`` for the point at ``n`` in service:
    ``share / met`` below one in service), so the prompts' part at the 95th percentile is :func:`poisson_p95`
    ``(met)`` times that. Where it is below their mean part (``met`` under 0.0542: a request nearly always meets no
    prompt) the difference is taken off the mean, so at a trickle (``e^-met >= 0.95``) the p95 TPOT is the decode
    step; above, the excess is the spread added in quadrature (``share x 1.645 / √met`` at a large count, the normal
    form)."""
    in_batch = p.ttft + output * p.tpot

    def share_at(rate: float) -> float:  # what the prompts arriving at ``rate`` add to a token
        return prompt_share(p, rate * in_batch)

    share = share_at(lam)
    mean = p.decode_step + share

    def tpot_at(n: float, tpot: float, decode: float, add: float) -> float:
        return min(tpot, decode + add) if n >= p.concurrency else max(tpot, decode + add)

    near = round(math.log(lam) * 1000) if lam > 0 else None
    key = ("serving-rate-b95", id(eng), id(rep), p.concurrency, near)
    got = job.memo.get(key)
    if got is None or got[0] is not eng or got[1] is not rep:
        at = math.exp(near / 1000) if near is not None else 0.0
        add = share_at(at)
        rates = [(n, n / (p.ttft + output * tpot_at(n, t, d, add))) for n, t, d in _open_steps(job, eng, rep, c)]
        got = job.memo[key] = (eng, rep, min(float(c), batch_p95(at, rates)))
    b95 = got[2]
    q = point(job, eng, rep, float(max(1, round(b95))), open_loop=True)
    swing = max(tpot_at(q.concurrency, q.tpot, q.decode_step, share) - mean, 0.0)
    met = lam * output * mean
    b = lam * in_batch
    # one prompt's part of a token: the point's share over the prompts its own arrivals (n in service, n / b times
    # lam's) bring to a request's decode (n = b from one in service on, :func:`at_batch`; one below)
    per = max(p.tpot - p.decode_step, 0.0) * b / (max(p.concurrency, 1.0) * met) if met > 0 else 0.0
    beyond = (poisson_p95(met) - met) * per
    return mean + math.hypot(swing, max(beyond, 0.0)) + min(beyond, 0.0)


def prompt_share(p: Any, b: float) -> float:
    """What the prompts arriving at a mean batch ``b`` add to a token at ``p``, the open-loop point at ``b`` in
    service (:func:`at_batch`; at one below one): its TPOT less its decode step, which prices the prompts that arrive
    at that point's own rate. Below one in service the point is timed at one request, whose decode meets one request
    time's arrivals, where a batch ``b`` meets ``b`` of them (Little's law: ``b = λ x R``), so the share is taken in
    proportion: it falls to nothing at a trickle, as the count of prompts met does."""
    return max(p.tpot - p.decode_step, 0.0) * min(max(b, 0.0), 1.0)


def poisson_p95(mean: float, tail: float = TAIL) -> float:
    """The 95th percentile of a Poisson count of mean ``mean``, continuous in it: the count where the CDF, linear
    between whole counts (``F(-1) = 0``), reaches 95% (each count's chance spread evenly over the unit below it), so it
    equals the whole-count quantile where that just steps up and lies within one count below it elsewhere; 0 while a
    count of none has 95% (``e^-mean >= 0.95``). Continuous and increasing in ``mean`` (within a step
    ``k - 1 + (0.95 - F(k-1)) / P(k)``, whose derivative's sign is ``P(k-1) - (0.95 - F(k-1)) (k / mean - 1)``, positive
    as ``0.95 - F(k-1) <= P(k) = P(k-1) mean / k``), so a bisection on the rate meets no steps. Summed from 12
    standard deviations below the mean (the mass below, under e^-70, is left out)."""
    if not mean > 0 or math.isinf(mean):
        return max(mean, 0.0) if not math.isnan(mean) else 0.0
    want = 1.0 - tail
    k = max(0, int(mean - 12.0 * math.sqrt(mean) - 10.0))
    pk = math.exp(-mean + k * math.log(mean) - math.lgamma(k + 1))
    cdf = 0.0
    while cdf + pk < want and k < mean + 20.0 * math.sqrt(mean) + 20.0:
        cdf += pk
        k += 1
        pk *= mean / k
    return max(k - 1 + (want - cdf) / pk, 0.0)


def _open_steps(job: Any, eng: Engine, rep: Replica, c: int) -> list[tuple[int, float, float]]:
    """(n, TPOT, decode step) of the open-loop point at n in service (s a token), at the batches
    ``c^(i / PHI_POINTS)``, worked out once per job and pair."""
    key = ("serving-rate-open", id(eng), id(rep))
    got = job.memo.get(key)
    if got is None or got[0] is not eng or got[1] is not rep:
        grid = sorted({max(1, round(c ** (i / PHI_POINTS))) for i in range(PHI_POINTS + 1)})
        points = [(n, point(job, eng, rep, float(n), open_loop=True)) for n in grid]
        got = job.memo[key] = (eng, rep, [(n, q.tpot, q.decode_step) for n, q in points])
    return got[2]


def batch_p95(lam: float, rates: list[tuple[int, float]]) -> float:
    """The 95th percentile of the batch a request meets in a copy that requests reach at ``lam`` a second and that
    ends them at ``φ(n)`` a second with ``n`` in service (``rates``: (n, φ(n)) at increasing n, interpolated
    linearly between, ``φ(n) = φ(n_1) n / n_1`` below the first; from the last one on, where the slots are full,
    its rate, so the chain's tail there is geometric and summed whole). The birth-death chain's law
    ``π(n) ∝ Π_{i<=n} λ / φ(i)`` (the module docstring), each state weighted by the ``n`` requests in it (a request
    meets a batch as often as it is in it); ``inf`` where the chain has no stationary law (``λ`` at or beyond the
    last rate) or its 95th percentile lies beyond the last timed batch. States are summed one by one up to 64 and
    in blocks of ``√n / 4`` beyond (each block at its middle state's rate), a fraction of the chain's spread, which
    is at least Poisson's ``√n``."""
    last_n, last_phi = rates[-1]
    if lam <= 0:
        return 0.0
    if lam >= last_phi:
        return math.inf

    # where the chain's weight peaks (where the rate reaches lam): the states more than 10 √mode below it weigh nothing
    # (below the peak R(n) <= R(mode), so lam / phi(n) <= mode / n: a lower tail no wider than Poisson's)
    mode = last_n
    for (lo_n, lo_phi), (hi_n, hi_phi) in itertools.pairwise(rates):
        if hi_phi >= lam:
            mode = int(lo_n + (hi_n - lo_n) * max(lam - lo_phi, 0.0) / (hi_phi - lo_phi)) if hi_phi > lo_phi else lo_n
            break
    n = max(0, int(mode - 10 * math.sqrt(mode)))
    logw, top = 0.0, -math.inf
    blocks: list[tuple[int, float]] = []  # (the block's last state, log of its weight: pi x n x states)
    k, beyond = 0, None
    while n < last_n:
        size = min(max(1, int(math.sqrt(n) / 4)) if n >= 64 else 1, last_n - n)
        mid = n + (size + 1) / 2
        while k + 1 < len(rates) and rates[k + 1][0] < mid:
            k += 1
        lo_n, lo_phi = rates[k]
        if mid <= lo_n:  # below the first timed batch: the rate grows in proportion
            rate = lo_phi * mid / lo_n
        else:  # between two timed batches (mid < last_n here)
            hi_n, hi_phi = rates[k + 1]
            rate = lo_phi + (hi_phi - lo_phi) * (mid - lo_n) / (hi_n - lo_n)
        step = math.log(lam / rate)
        here = logw + step * (size + 1) / 2 + math.log(mid * size)  # the middle state's weight, x the block
        logw += step * size
        n += size
        blocks.append((n, here))
        top = max(top, here)
        if here < top - TAIL_NATS and lam < rate:  # past the peak and falling: the rest weighs nothing
            beyond = 0.0
            break
    if beyond is None:  # the slots are full from last_n on: pi(last_n + j) = pi(last_n) r^j, r = lam / phi(last_n)
        r = lam / last_phi
        beyond = math.exp(logw - top) * (last_n * r / (1 - r) + r / (1 - r) ** 2)
    total = sum(math.exp(w - top) for _, w in blocks) + beyond
    acc = 0.0
    for end, w in blocks:
        acc += math.exp(w - top)
        if acc >= (1.0 - TAIL) * total:
            return float(end)
    return math.inf


def _requests_per_s(job: Any, eng: Engine, rep: Replica, b: float) -> float:
    """``colocated(job, eng, rep, b).requests_per_s`` without the waits (the same arithmetic)."""
    output, r, _c, _m, _ahead = _copy(job, eng, rep)
    p = at_batch(job, eng, rep, b)
    in_batch = p.ttft + output * p.tpot
    lam = b / in_batch
    return lam * r


def _bisect(lo: float, hi: float, good: Any, steps: int = 40) -> float:
    """The largest x in [lo, hi] with good(x), good monotone decreasing; lo when none."""
    if good(hi):
        return hi
    for _ in range(steps):
        mid = (lo + hi) / 2
        if good(mid):
            lo = mid
        else:
            hi = mid
    return lo


def answer(job: Any, eng: Engine, rep: Replica, lim: Limits) -> RateAnswer:
    """The most this layout serves within the p95 limits in force (``lim``: the workload's p95
    targets under the built-in rules) and, at the least rate the rules want served (the workload's
    ``requests_per_s`` under the built-in rules), its latencies there."""
    w = job.w
    if getattr(w, "disaggregated", False):
        if rep.layout.replicas >= 2:
            return _disaggregated(job, eng, rep, lim)
        note = "rate.one_copy_colocated"
    else:
        note = ""
    ttft, tpot = lim.p95_ttft_s, lim.p95_tpot_s
    c = slots(job, eng, rep)
    tiny = 1e-6

    def ok(b: float) -> bool:
        return colocated(job, eng, rep, b).within(ttft, tpot)

    # whether a batch is within the targets is a copy's affair (its waits and latencies; the number of
    # copies only scales the rate): the same copy on more GPUs has the same best batch, found once per job
    lay = rep.layout
    key = (eng.gpu_id, eng.fw.id, eng.weight_format, lay.tp, lay.pp, lay.ep, lay.dp_attention, lay.node, lay.network,
           ttft, tpot)
    found = job.memo.setdefault("serving-rate-batch", {})
    b_best = found.get(key)
    if b_best is None:
        b_best = found[key] = _bisect(tiny, c * (1 - 1e-6), ok)
    got = colocated(job, eng, rep, b_best)
    best = got if got.within(ttft, tpot) else None
    at = None
    rate = lim.requests_per_s
    if rate:
        b_at = _bisect(tiny, c * (1 - 1e-6), lambda b: _requests_per_s(job, eng, rep, b) <= rate)
        at = colocated(job, eng, rep, b_at)
        if at.requests_per_s < rate * (1 - 1e-3):  # even a full scheduler does not keep up: the queue grows
            at = RatePoint(rate, float(c), 1.0, at.prefill_utilisation, math.inf, math.inf, at.tpot_mean,
                           at.tpot_p95, False)
    return RateAnswer(MODEL, best, at, note, trickle=None if best is not None else got)


# ----------------------------------------------------------------------------- disaggregated
def _link_bytes_per_s(job: Any, eng: Engine, rep: Replica) -> float:
    """Bandwidth the prompt's KV cache crosses from a prefill copy to a decode copy: the node's link when
    two copies share a node, else the network between nodes."""
    lay = rep.layout
    if 2 * lay.gpus_per_copy <= lay.node and math.isfinite(rep.link_bw):
        return rep.link_bw
    rt = job.kb.runtime
    gpu = job.kb.gpus[eng.gpu_id]
    net = rt.networks.get(lay.network or default_network(gpu, rt))
    return (net.gb_s if net else 1.25) * 1e9 * rt.link_efficiency.value


SPLIT_SHARES = (1 / 16, 1 / 8, 1 / 6, 1 / 4, 1 / 3, 3 / 8, 1 / 2, 5 / 8, 2 / 3, 3 / 4)
"""Shares of the copies tried as prefill copies (every split when there are few copies)."""


def splits(replicas: int) -> list[int]:
    """Prefill copies to try out of ``replicas``: every split up to 12 copies, else the shares above."""
    if replicas <= 12:
        return list(range(1, replicas))
    return sorted({max(1, min(replicas - 1, round(replicas * f))) for f in SPLIT_SHARES})


def _disaggregated(job: Any, eng: Engine, rep: Replica, lim: Limits) -> RateAnswer:
    w = job.w
    prompt, output = request_lengths(w)
    pre = prefill_tokens(w, prompt, eng.fw)
    n = math.ceil(pre / min(pre, float(eng.chunk)))
    chunk = pre / n  # the prompt's tokens over its n chunks, not n full chunks
    service = n * prefill_seconds(job, eng, rep, chunk, prompt - pre / 2)  # a prompt on an idle copy
    m = max(1, int(eng.chunk // pre))
    transfer = kv_per_token(job.shape, eng.kv_bytes) * prompt / max(rep.layout.gpus_per_copy, 1) \
        / _link_bytes_per_s(job, eng, rep)
    kv_ctx = prompt + output / 2
    cache: dict[int, float] = {}

    def whole(k: int) -> float:
        if k not in cache:
            cache[k] = token_time(job, eng, rep, float(k), kv_ctx)
        return cache[k]

    def tpot(b: float) -> float:  # between whole batches, their mean weighted to ``b`` (as :func:`at_batch`)
        lo = max(1, math.floor(b))
        f = b - lo
        return whole(lo) + f * (whole(lo + 1) - whole(lo)) if f > 0 else whole(lo)

    top = max(rep.max_seqs, 1)
    grid = sorted({max(1, round(top ** (i / 16))) for i in range(17)})
    c = max(grid, key=lambda b: b / tpot(b))  # decode copies run the batch of their throughput peak
    r = rep.layout.replicas
    ttft_t, tpot_t = lim.p95_ttft_s, lim.p95_tpot_s

    def at(lam: float, p: int) -> RatePoint:
        d = r - p
        a_pre = lam / p * service
        pre_mean, pre95 = wait(m, a_pre, service)
        lam_d = lam / d
        b = _bisect(1e-6, c * (1 - 1e-6), lambda x: x / (output * tpot(x)) <= lam_d)
        in_batch = output * tpot(b)
        slot_mean, slot95 = wait(c, lam_d * in_batch, in_batch)
        b95 = min(float(c), b + Z95 * math.sqrt(b))
        stable = a_pre < m and lam_d * in_batch < c
        return RatePoint(lam, b, lam_d * in_batch / c, a_pre / m, pre_mean + service + transfer + slot_mean,
                         pre95 + service + transfer + slot95, tpot(b), max(tpot(b95), tpot(b)), stable, p, d)

    best: RatePoint | None = None
    trickle: RatePoint | None = None
    for p in splits(r):
        upper = min(p * m / service, (r - p) * c / (output * tpot(c)))
        lam = _bisect(upper * 1e-9, upper * (1 - 1e-6), lambda x, p=p: at(x, p).within(ttft_t, tpot_t))
        got = at(lam, p)
        if got.within(ttft_t, tpot_t):
            if best is None or got.requests_per_s > best.requests_per_s:
                best = got
        elif trickle is None:
            trickle = got  # the first split's least rate: at a trickle every split waits alike
    at_rate = None
    rate = lim.requests_per_s
    if rate:
        split = best.prefill_copies if best is not None else max(1, r // 2)
        at_rate = at(rate, split)
        if not at_rate.stable:
            at_rate = RatePoint(rate, at_rate.batch, at_rate.slot_utilisation, at_rate.prefill_utilisation,
                                math.inf, math.inf, at_rate.tpot_mean, at_rate.tpot_p95, False, split, r - split)
    return RateAnswer(MODEL_DISAGGREGATED, best, at_rate, trickle=None if best is not None else trickle)
