"""One copy, and the system of copies, at a number of concurrent requests (closed loop)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ...frozen import frozen
from ...knowledge.records import release_at_least
from .engine import Engine, prefill_tokens
from .front import front
from .layout import Replica, copy_graph_cap
from .step import StepConsts, _host, consts, per_token, seconds_of
from .support import request_lengths


# ---------------------------------------------------------------------------- at a load
@frozen
class Point:
    """A copy (or the system) at a number of concurrent requests."""

    concurrency: float
    throughput: float  # output tokens/s
    tpot: float  # s
    ttft: float  # s
    decode_step: float  # s, decode alone (one sequence's speed = 1 / this)
    queued: float = 0.0  # s of the TTFT spent queueing for the step budget (the request-rate model queues its own)
    # s of the TTFT, beyond ``queued``, that are an arrival's wait for the step in flight (the request-rate model
    # prices its own: :func:`.rate.colocated`); ``queued`` holds it where prompt chunks ride on the decode steps
    in_flight: float = 0.0
    # where prompts run in forwards of their own: the share of the time the GPUs spend on them and the s one prompt's
    # prefill lasts (its n forwards), the other kind of step an arrival can meet in flight
    prefill_busy: float = 0.0
    prefill_run: float = 0.0
    front_end: bool = False  # the front end, not the GPUs, bounds the throughput (:mod:`.front`)


def point(job: Any, eng: Engine, rep: Replica, conc: float, *, pure_decode: bool = True,
          open_loop: bool = False) -> Point:
    """Steady state of one copy with ``conc`` concurrent requests (closed loop). ``pure_decode``:
    also time a decode-only step (one sequence's decode speed; skipped for curves). ``open_loop``: ``conc``
    is the mean batch of a stream of independent arrivals (the request-rate model), whose prompts join a
    request's decode at the stream's full rate (:func:`_point`). Memoised per job: a copy of the same shape
    is the same on 2 GPUs as on 16 (only the number of copies differs; :func:`.step.consts` keeps the memo
    by the copy's shape; open-loop points under the key ``("open", conc)``)."""
    c = consts(job, eng, rep)
    if open_loop:
        key = ("open", conc)
        got = c.points.get(key)
        if got is None:
            got = c.points[key] = _fed(job, eng, rep, c, _at_gpus(job, eng, rep, c, conc, True), True)
        return got
    got = c.points.get(conc)
    if got is None:
        got = _new_point(job, eng, rep, c, conc)
    return got


def _new_point(job: Any, eng: Engine, rep: Replica, c: StepConsts, conc: float) -> Point:
    """:func:`point` at a load not yet timed for the copy's shape, kept. A load a peak scan passed over
    (:func:`_busiest`) is timed as that scan would have asked for it, as a float: the memo holds the same
    point (its concurrency written the same way) whether or not the scan timed it."""
    if conc in c.passed:
        conc = float(conc)
    got = c.points[conc] = _fed(job, eng, rep, c, _at_gpus(job, eng, rep, c, conc))
    return got


def _at_gpus(job: Any, eng: Engine, rep: Replica, c: StepConsts, conc: float, open_loop: bool = False) -> Point:
    """:func:`point` at the GPUs' pace, before the front end's bound, memoised on the pair's
    :func:`.step.consts` ``c`` likewise."""
    key = ("open", conc) if open_loop else conc
    got = c.gpu_points.get(key)
    if got is None:
        got = c.gpu_points[key] = _open(job, eng, rep, conc, c) if open_loop else _point(job, eng, rep, conc, c)
    return got


def _fed(job: Any, eng: Engine, rep: Replica, c: StepConsts, p: Point, open_loop: bool = False) -> Point:
    """``p`` bounded by the copy's front end (:mod:`.front`): where the GPUs would finish requests faster
    than it hands them over, the batch on the GPUs is the one that keeps pace with it (found by bisection:
    throughput grows with the batch), the throughput is its rate x output tokens, and the rest of the
    closed loop waits in the front end's queue before its first token (Little's law)."""
    got = c.front
    if got is None:
        got = c.front = _front(job, eng)
    f, output = got
    if f is None:
        return p
    rate = f.requests_per_s
    if p.throughput <= rate * output:
        return p
    lo, hi = 0.0, p.concurrency
    for _ in range(30):
        mid = (lo + hi) / 2
        if _at_gpus(job, eng, rep, c, mid, open_loop).throughput < rate * output:
            lo = mid
        else:
            hi = mid
    q = _at_gpus(job, eng, rep, c, hi, open_loop)
    return Point(p.concurrency, rate * output, q.tpot, q.ttft + (p.concurrency - hi) / rate, q.decode_step,
                 q.queued, q.in_flight, q.prefill_busy, q.prefill_run, front_end=True)


def _front(job: Any, eng: Engine) -> tuple[Any, int]:
    """:func:`.front.front` of ``eng`` for ``job`` and the job's output tokens per request, worked out
    once per job and framework (:func:`_fed` asks at every load point)."""
    key = ("serving-front", id(eng.fw))
    got = job.memo.get(key)
    if got is None or got[0] is not eng.fw:
        got = job.memo[key] = (eng.fw, front(job, eng), request_lengths(job.w)[1])
    return got[1], got[2]


#: Rounds that settle the open-loop point's decoding share (:func:`_open`): the share moves the TPOT, which moves the
#: share (Llama 3.1 8B on an H100 at 44 in service: 0.9834083, 0.9833708, then 0.9833707 from the third round).
OPEN_ROUNDS = 4


def _open(job: Any, eng: Engine, rep: Replica, conc: float, c: StepConsts) -> Point:
    """The open-loop point of a copy with ``conc`` requests in service on average (the request-rate model). Of them,
    only those past their first token decode: a request spends ``TTFT`` waiting for or running its prompt and
    ``output x TPOT`` decoding, so by Little's law on each phase the share ``output x TPOT / (TTFT + output x TPOT)``
    of them decodes (``rate.colocated`` reads the same point's time in service, ``TTFT + output x TPOT``, for its
    rate). A step that decodes a request decodes it and that share of the ``conc - 1`` others (at one in service or
    fewer, the request alone, as before), and carries the prompt chunks beside them (vLLM's scheduler puts the
    running requests' decodes in a step first and fills the rest of its token budget with waiting prompts:
    vllm/v1/core/sched/scheduler.py; docs.vllm.ai, 'Optimization and Tuning', chunked prefill), not ``conc`` decodes;
    the arrivals stay the stream's, ``conc`` per time in service. The share and the TPOT it sets are settled over
    :data:`OPEN_ROUNDS` rounds from every request decoding. A closed loop's request is sent as another ends, so its
    ``b`` all decode (:func:`_point`)."""
    got = _timed(job, eng, rep, conc, c, True)
    output = c.lengths[1]
    for _ in range(OPEN_ROUNDS):
        in_batch = got.ttft + output * got.tpot
        got = _timed(job, eng, rep, conc, c, True, output * got.tpot / in_batch if in_batch > 0 else 1.0)
    return got


def _point(job: Any, eng: Engine, rep: Replica, conc: float, c: StepConsts | None = None) -> Point:
    """One copy at ``conc`` requests of a closed loop at the GPUs' pace (``c``: the pair's :func:`.step.consts`)."""
    return _timed(job, eng, rep, conc, c, False)


def _timed(job: Any, eng: Engine, rep: Replica, conc: float, c: StepConsts | None, open_loop: bool,
           decoding: float = 1.0) -> Point:
    """One copy at ``conc`` requests at the GPUs' pace (``c``: the pair's :func:`.step.consts`).

    A request's decode steps carry the prompts of the requests that arrive while it decodes; its own prompt is
    prefilled before its first token, in its TTFT. In a closed loop of ``b`` requests (a benchmark's
    --max-concurrency) a new request arrives only when one of the others ends, so a request's decode meets the
    prompts of the other b - 1 (at concurrency 1 none: its TPOT is the decode step); with independent arrivals
    (``open_loop``: the request-rate model) they come at the stream's rate whatever the request's own presence,
    b per request time. ``decoding``: the share of the ``b`` in service that decode a step, where prompts run beside
    decodes (continuous batching; :func:`_open`); the others wait for or run their prompt."""
    if c is None:
        c = consts(job, eng, rep)
    prompt, output, prefilled = c.lengths  # request_lengths and prefill_tokens of the job's workload
    queued = flight = busy = run = 0.0
    cap = max(rep.max_seqs, 1)
    b = max(min(conc, cap), 1e-9)
    kv_ctx = prompt + output / 2
    fw = eng.fw
    per_step = eng.spec.tokens_per_step if eng.spec is not None else 1.0  # tokens a sequence gains per step
    if fw.continuous_batching and fw.mixed_prefill and fw.chunked_prefill and not open_loop:
        # the running sequences whose prompts one budget a decode step still takes: beyond them the scheduler runs
        # full-budget steps and the other requests wait for the budget (:func:`budget_batch`), as for a slot
        most_run = budget_batch(float(eng.chunk), float(prefilled), float(output), per_step, b)
        if most_run < b:
            cap, b = most_run, most_run
    # the sequences a decode step decodes: a request's own and the share of the others past their first token
    dec = 1.0 + (b - 1.0) * decoding if fw.continuous_batching and b > 1.0 else b
    longest = prompt + output if dec > 1.0 else 0.0  # where a decoding sequence ends: the spread (step._parts)
    pure = per_token(c, dec, kv_ctx, longest=longest)
    graphs = copy_graph_cap(eng, rep)
    if graphs and dec > graphs:
        # a decode batch beyond the largest the release captured in CUDA graphs runs its forward eagerly: every
        # kernel launched from Python, as a prefill forward is (SGLang's cuda_graph_runner replays a graph only for
        # batches up to --cuda-graph-max-bs), so the step lasts at least that forward's launch time
        pure = max(pure, c.prefill_floor / per_step)
    full_prompt, prompt = prompt, prefilled  # a cached prefix is not prefilled again
    if fw.continuous_batching:
        room = max(eng.chunk - b, 16.0) if fw.chunked_prefill else float(prompt)
        chunk = min(float(prompt), room)
        n = math.ceil(prompt / chunk)
        chunk = prompt / n  # the prompt's tokens over its n chunks (the last one is short): not n full chunks
    if fw.continuous_batching and not fw.mixed_prefill:
        # A prefill batch runs alone and decoding waits for it (SGLang's default): a prefill forward stops
        # every running sequence, and it is launch-bound for short prompts when it runs outside CUDA graphs.
        # Requests that arrive while one prefill runs are prefilled together in the next (a bulk-service
        # queue: k = 1 + arrivals per prefill, up to a chunk's worth of prompts), so each pays 1/k of a
        # forward. A scheduler that polls for requests only every ``poll`` decode steps (SGLang's
        # --scheduler-recv-interval) also gathers those that arrive over the poll - 1 decode steps it does not
        # look: they are all in the waiting queue at the next poll, and its next prefill batch takes every one the
        # prefill budget holds (scheduler_recv_skipper.py; Scheduler.get_new_batch_prefill). A new request waits
        # for the scheduler's next poll (half a step on average, :func:`poll_wait` where it polls less often), for
        # the prefill running when it arrives (half of one, as often as one runs), then its own.
        ctx = full_prompt - prompt / 2
        most = max(1.0, float(eng.chunk // max(int(prompt), 1))) if n == 1 else 1.0
        met = b if open_loop else max(b - 1.0, 0.0)  # the prompts a request's decode meets (docstring)
        k, tpot, pre = 1.0, pure, _prefill(c, chunk, ctx)
        # the decode steps over which a scheduler that polls less often gathers arrivals (none alone on the copy:
        # it idles and takes the one request at once, :func:`poll_wait`)
        poll = poll_window(c.poll)
        gather = (poll - 1) * pure * per_step if b > 1 else 0.0
        priced = chunk  # the prefill ``pre`` is of: priced again only when the batch of prompts changes
        for _ in range(4):  # arrivals depend on the TPOT the pauses set: a few rounds settle it
            tpot = pure + met / output * n * pre / k * per_step
            k = min(most, 1.0 + b / (output * tpot) * (n * pre + gather))
            tokens = chunk * k if n == 1 else chunk
            if tokens != priced:
                pre, priced = _prefill(c, tokens, ctx), tokens
        tpot = pure + met / output * n * pre / k * per_step
        busy = min(b / (output * tpot) * n * pre / k, 1.0)  # share of the time the GPUs spend prefilling
        ttft = poll_wait(poll, pure, busy, b) + n * pre * (1 + busy / 2)
        # of which the wait for the step in flight: half the decode step, and half the prefill run as often as one runs
        run = n * pre
        flight = poll_wait(1, pure, 0.0, b) + run * busy / 2
        if not open_loop:  # sent as another request ended: the decode step it meets has just begun
            ttft += sent_on_completion(pure, b) * (1.0 - busy) + scheduled_step(job, eng, pure, b)
        req_time = ttft + output * tpot
        thr = closed_loop_throughput(b, output, req_time)
    elif fw.continuous_batching:
        # Each request's prompt enters as n chunks that ride on decode steps; a chunk adds what it
        # costs beyond the decode step it joins (little for a memory-bound dense step, every expert
        # for an MoE one), and the b requests' chunks are spread over their `output` decode steps.
        # A step that carries a chunk runs outside CUDA graphs where the framework captures decode-only
        # batches (TensorRT-LLM's PyTorch backend): it lasts at least its kernels' launch time.
        # Chunks arrive at ``a`` per decode step. When more than one arrives per step, the scheduler packs them
        # into one mixed step up to the step's token budget (max_num_batched_tokens: vLLM's, SGLang's chunked
        # prefill, TensorRT-LLM's max_num_tokens), so they share one step's fixed time (its launch floor,
        # routing, all-to-all latency, weight streaming) rather than each paying a step of its own.
        # A step carries every running decode and at most the budget's worth of prompt tokens (vLLM V1's scheduler
        # schedules the running requests first, then fills what is left of max_num_batched_tokens with waiting
        # prompts: vllm/v1/core/sched/scheduler.py; docs.vllm.ai, 'Optimization and Tuning', chunked prefill: 'it
        # batches all pending decode requests before scheduling any prefill operations'), so a decode token waits
        # for one step, never for more than one step's prompts (``b`` is held where they fill the budget, above).
        ctx = full_prompt - prompt / 2
        floor = c.prefill_floor / per_step if eng.eager_kernel else 0.0
        a = b / output * n * per_step
        # a prompt longer than the budget's room is no exception: its chunk ends where the budget does and the next
        # prompt's chunk takes the rest of the step (TensorRT-LLM's FIRST_COME_FIRST_SERVED context chunking gives each
        # waiting prompt min(its remaining tokens, the capacity left) and lowers the capacity by it:
        # MicroBatchScheduler::setCtxRequestsChunkSize, cpp/tensorrt_llm/batch_manager/microBatchScheduler.cpp
        # @ b8b7b782; vLLM V1 fills
        # max_num_batched_tokens from the waiting queue likewise), so up to room / chunk chunks share one step
        k = min(max(a, 1.0), max(1.0, room / chunk))
        gpu_joined = per_token(c, dec, kv_ctx, k * chunk, ctx, longest)
        joined = max(gpu_joined, floor)
        if floor and gpu_joined < floor and scheduled_ahead(job, eng):
            joined = launched_ahead(c, dec, pure, gpu_joined, floor, min(a / k, 1.0), per_step)
        met = 1.0 if open_loop else max(b - 1.0, 0.0) / b  # the share of the arrivals a request's decode meets
        tpot = pure + min(a * met / k, 1.0) * max(joined - pure, 0.0)
        others = max(dec - 1, 0.0)
        carry = (max(per_token(c, others, kv_ctx, chunk, ctx, longest), floor) * per_step if others > 0
                 else _prefill(c, chunk, ctx))
        queued = budget_wait(b, output, tpot, n * carry, max(1.0, room // prompt) if n == 1 else 1.0, n * carry)
        ttft = n * carry + queued
        if c.poll > 1:  # the scheduler polls for requests less often than every step: the wait beyond one step's
            ttft += poll_wait(poll_window(c.poll), pure, 0.0, b) - poll_wait(1, pure, 0.0, b)
        hold = 0.0
        for _ in range(3 if c.waits else 0):  # the arrival rate depends on the hold: a few rounds settle it
            hold = held(job.w, b / (ttft + hold + output * tpot), tpot, eng.chunk / prompt)
        ttft += hold
        if not open_loop:  # sent as another request ended: the step it meets has just begun
            ttft += sent_on_completion(tpot * per_step, b) + scheduled_step(job, eng, tpot * per_step, b)
        req_time = ttft + output * tpot
        thr = closed_loop_throughput(b, output, req_time)
    else:  # static batches: prefill all prompts, then decode them together
        pre = seconds_of(c, 0.0, b * prompt, 0.0, full_prompt - prompt / 2)
        tpot = pure
        cycle = pre + output * pure
        thr = b * output / cycle
        ttft = pre
        req_time = cycle
    if conc > cap:  # the rest wait for a slot: Little's law with `cap` slots
        ttft += req_time * (conc / cap - 1)
    return Point(conc, thr, tpot, ttft, pure, queued, flight, busy, run)


def launched_ahead(c: StepConsts, b: float, pure: float, gpu_joined: float, floor: float, share: float,
                   per_step: float = 1.0) -> float:
    """Seconds a token of an eager mixed step (its launches, ``floor``, longer than its GPU work, ``gpu_joined``) adds
    to the stream of steps where the release schedules a step ahead (:func:`scheduled_ahead`), on average over the
    step before it. TensorRT-LLM's overlap loop (PyExecutor._executor_loop_overlap, tensorrt_llm/_torch/pyexecutor/
    py_executor.py) enqueues step n's forward, then waits on step n-1's sampler event (_update_requests), samples n,
    answers n-1 and schedules and launches n+1: the host launches n+1 while the GPU runs n, and PyTorch's launches
    are asynchronous, so a mixed step that follows a decode-only step (a CUDA graph replayed, its host part ``own``)
    lasts max(its GPU work, its launches less the decode step's GPU time) beyond that step; one that follows another
    eager step meets a GPU that waits on the host and lasts its whole launch time. ``share``: the share of steps that
    carry a prompt (a mixed step's predecessor is one at that chance); ``pure``: the decode step, a token."""
    gpu_decode = max(pure - _host(c, b) / per_step, 0.0)
    after_decode = max(gpu_joined, floor - gpu_decode)
    return (1.0 - share) * after_decode + share * floor


def budget_batch(budget: float, prompt: float, output: float, per_step: float, b: float) -> float:
    """The most sequences a copy of a mixed, chunked scheduler keeps decoding in a closed loop of ``b`` requests of
    ``prompt`` prefilled / ``output`` tokens: every step carries the running decodes and at most ``budget`` tokens in
    all (max_num_batched_tokens), so the prompts that replace the requests ending each step must fit in what the
    decodes leave, ``(running - 1) / output x per_step`` prompts a step (the share of the others, as
    :func:`_timed` counts them) against ``(budget - running) / prompt``. Where ``b`` needs more, the scheduler
    runs full-budget steps at the batch that balances the two and the other requests wait for the budget (Little's
    law): ``running = (output x budget + prompt x per_step) / (prompt x per_step + output)``, below ``b``. The
    throughput then saturates at that batch's instead of falling as the decodes crowd the prompts out."""
    if b <= 1 or prompt <= 0:
        return b
    balance = (output * budget + prompt * per_step) / (prompt * per_step + output)
    return max(1.0, min(b, balance))


#: What a prefill (or mixed) forward adds to SGLang's request-poll counter, against 1 for a decode step: the scheduler
#: polls for new requests and resets the counter once it reaches --scheduler-recv-interval
#: (SchedulerRecvSkipper.handle, sgl-project/sglang python/sglang/srt/managers/scheduler_recv_skipper.py @ 70310f05;
#: the weights: python/sglang/srt/environ.py @ 21ff4b08, SGLANG_SCHEDULER_RECV_SKIPPER_WEIGHT_DEFAULT 1000 and
#: _DECODE, _TARGET_VERIFY, _NONE 1; the skipper's first version, @ 0cc650fb, hard-coded the same 1000 and 1).
PREFILL_POLL_WEIGHT = 1000


def poll_window(poll: int) -> int:
    """Decode steps between two polls of a scheduler whose polls take in new prompts, at SGLang's
    --scheduler-recv-interval ``poll``. The prompts a poll takes in are prefilled, and the prefill counts
    :data:`PREFILL_POLL_WEIGHT` toward the interval: an interval of at most that weight polls again right after the
    prefill, then after ``poll`` decode steps; a longer one ``poll - PREFILL_POLL_WEIGHT`` decode steps after the
    prefill (1,920 with the default weight: 920 decode steps, not 1,920)."""
    return poll - PREFILL_POLL_WEIGHT if poll > PREFILL_POLL_WEIGHT else poll


def poll_wait(poll: int, step_s: float, busy: float, running: float) -> float:
    """Mean seconds a new request waits for the scheduler to take it in, while ``running`` others decode in steps
    of ``step_s``. A scheduler that polls for requests every ``poll`` decode steps (SGLang's
    --scheduler-recv-interval: SchedulerRecvSkipper adds 1 per decode iteration and 1,000 per prefill or mixed
    one, and receives once the count reaches the interval, so right after every prefill and otherwise every
    ``poll`` decode steps; python/sglang/srt/managers/scheduler_recv_skipper.py. --num-continuous-decode-steps k runs
    k decode steps per scheduler iteration: a poll every k x interval steps) takes a request that arrives at a
    random time during the decode steps, a share ``1 - busy`` of the time, at the end of the window: ``poll / 2``
    steps on average; one that arrives during a prefill (share ``busy``) right after it, so half a step like a
    scheduler that polls every step. Alone on the copy (``running`` <= 1) the scheduler is idle, loops at once
    and takes the request without a wait."""
    if running <= 1:
        return 0.0
    return 0.5 * step_s * (1.0 + (poll - 1) * (1.0 - busy))


def sent_on_completion(step_s: float, running: float) -> float:
    """What a closed loop's new request waits for the step in flight beyond the half step a request arriving at a
    random instant waits (:func:`budget_wait`, :func:`poll_wait` count that half). The benchmark clients hold a
    semaphore of --max-concurrency slots and send a request as soon as another's response has ended (vllm bench serve
    and sglang bench_serving: ``limited_request_func``, ``async with semaphore``), so it is sent as a step ends: the
    one that gave the other request its last token. The engine takes new requests only between steps (vLLM's
    EngineCore ``run_busy_loop``: ``_process_input_queue``, then one engine step, vllm/v1/engine/core.py; SGLang's
    event loop receives, then runs a batch; TensorRT-LLM's executor fetches new requests as an iteration starts),
    and by the time the request has crossed the client, HTTP and the front end the next step has begun without it:
    it waits that whole step, ``step_s``, the other half here. Alone on the copy (``running`` <= 1) the engine is
    idle and takes it at once. A stream of independent arrivals (the request-rate model) meets steps at random
    instants and gets no such term."""
    return 0.5 * step_s if running > 1 else 0.0


def scheduled_ahead(job: Any, eng: Engine) -> bool:
    """Whether ``eng``'s framework, in the job's stated release, schedules the next step while one runs (serving.yaml
    ``scheduled_ahead``: vLLM's async scheduling, SGLang's and TensorRT-LLM's overlap schedulers): from that entry's
    first release on, and for a job that states none (the current releases do); never where the release turns
    SGLang's overlap scheduler off for the model (``eng.unoverlapped``), nor for a job naming another runtime backend
    than the loop's (``workload.runtime_backend``)."""
    span = eng.fw.scheduled_ahead
    if span is None or eng.unoverlapped:
        return False
    stated = getattr(job.w, "runtime_backend", None)  # another backend's loop (TensorRT-LLM's C++ executor) waits
    if stated is not None and span.backend is not None and stated != span.backend:
        return False
    version = getattr(job.w, "framework_version", None)
    return not version or release_at_least(version, span.first)


def scheduled_step(job: Any, eng: Engine, step_s: float, running: float) -> float:
    """What a closed loop's new request waits beyond :func:`sent_on_completion` where the engine schedules a step
    ahead (:func:`scheduled_ahead`): it takes in new requests only as a step ends, and the request, sent as the step
    that ended another request's answer ended, reaches it after the step behind that one was scheduled without it
    (vLLM's engine core schedules step k+2 as step k's outputs go out; SGLang's and TensorRT-LLM's overlap loops
    likewise), so it waits that whole step, ``step_s``, as well. Alone on the copy (``running`` <= 1) the engine
    idles and schedules it at once."""
    return step_s if running > 1 and scheduled_ahead(job, eng) else 0.0


def closed_loop_throughput(b: float, output: int, req_time: float) -> float:
    """Output tokens/s of ``b`` requests held in a closed loop, each lasting ``req_time`` (its time to first
    token, queueing included, then ``output`` tokens at the TPOT): Little's law, b = rate x req_time, so
    rate x output tokens. A request yields no token while it waits for and runs its prefill, so ``b / tpot``
    (every request decoding all the time) overstates it by the TTFT's share of a request's life: at one
    request, a 5,000-token prompt's TTFT is a tenth of a 500-token answer's time (NIM's Llama-3.1-70B on
    2 x H100 at concurrency 1, tests/data/serving_published.csv S36: 51.7 tok/s measured from a TTFT of
    0.41 s and 500 tokens at 18.6 ms; 1 / TPOT would be 53.8). Every closed-loop benchmark's own figures
    obey it (vllm bench serve / bench_serving: output tok/s = concurrency x output / mean end-to-end latency)."""
    return b * output / req_time if req_time > 0 else 0.0


def budget_wait(b: float, output: int, tpot: float, service: float, share: float, ttft0: float) -> float:
    """Mean wait of a new request for the prompt budget of the steps (``max_num_batched_tokens``), in a closed
    loop of ``b`` requests: it first waits for the step in flight to end (half a step on average), then for
    the prompts queued before it. Each step carries at most ``share`` whole prompts, so the budget is a
    queue whose server is busy ``service / share`` seconds per request; arrivals come at ``b`` per request
    time. Mean wait of M/D/1, rho D / (2 (1 - rho)) (Pollaczek-Khinchine with a constant service time),
    its load capped below one: the closed loop holds no more than ``b`` requests."""
    if b <= 1:
        return 0.0
    d = service / share
    wait = 0.0
    for _ in range(4):  # the arrival rate depends on the wait: a few rounds settle it
        rho = min(b / (ttft0 + wait + output * tpot) * d, 0.95)
        wait = rho * d / (2 * (1 - rho))
    return 0.5 * tpot + wait


def held(w: Any, rate: float, step_s: float, budget_prompts: float) -> float:
    """Mean time a new prompt is held back so that prefills gather (TensorRT-LLM's batch_wait_timeout_iters and
    batch_wait_max_tokens_ratio: the scheduler keeps new requests until the oldest has waited that many
    iterations or they hold that share of max_num_tokens). With arrivals at ``rate``, a window opens with
    the first held prompt and lasts ``T = steps x step`` or until ``K - 1`` more prompts arrive, whichever
    is first: w = min(T, (K - 1) / rate). The first prompt waits w, the ``rate x w`` others w / 2 on
    average, so the mean is w (1 + rate w / 2) / (1 + rate w)."""
    steps = int(getattr(w, "batch_wait_steps", 0) or 0)
    if steps <= 0 or rate <= 0:
        return 0.0
    window = steps * step_s
    frac = float(getattr(w, "batch_wait_token_fraction", 0.0) or 0.0)
    if frac > 0:
        k = math.ceil(frac * budget_prompts)
        window = min(window, max(k - 1, 0) / rate)
    return window * (1 + rate * window / 2) / (1 + rate * window)


def prefill_seconds(job: Any, eng: Engine, rep: Replica, tokens: float, ctx: float) -> float:
    """A prefill forward of ``tokens`` prompt tokens run alone: its GPU time, or the host's time to launch
    its kernels when the framework runs prefill outside CUDA graphs (the GPU cannot finish first)."""
    return _prefill(consts(job, eng, rep), tokens, ctx)


def _prefill(c: StepConsts, tokens: float, ctx: float) -> float:
    """:func:`prefill_seconds` of the engine and copy of ``c``, kept on ``c`` (a pure function of its figures)."""
    key = (tokens, ctx)
    got = c.prefills.get(key)
    if got is None:
        got = c.prefills[key] = max(seconds_of(c, 0.0, tokens, 0.0, ctx), c.prefill_floor)
    return got


def burst_ttft(job: Any, eng: Engine, rep: Replica, n: int) -> float:
    """Mean time to first token of ``n`` requests that reach one idle copy at once (a traffic spike, or
    the first wave of a closed-loop benchmark): their prompts are prefilled in chunks of the framework's
    step, and each request's first token comes with the chunk that ends its prompt."""
    prompt, chunk, per_chunk, last, tail = _burst_chunks(job, eng, rep, n)
    ends = [math.ceil((i + 1) * prompt / chunk) for i in range(n)]  # the chunk in which request i's prompt ends
    return sum((k - 1) * per_chunk + (tail if k == last else per_chunk) for k in ends) / n


def burst_last_ttft(job: Any, eng: Engine, rep: Replica, n: int) -> float:
    """When the last of ``n`` requests that reach one idle copy at once gets its first token: every prompt's
    chunks have been prefilled (the end of a batch benchmark's prefill, which its run time counts whole)."""
    _, _, per_chunk, last, tail = _burst_chunks(job, eng, rep, n)
    return (last - 1) * per_chunk + tail


def _burst_chunks(job: Any, eng: Engine, rep: Replica, n: int) -> tuple[float, float, float, int, float]:
    """The chunks in which ``n`` prompts that reach one idle copy at once are prefilled: full chunks of the step
    budget (max_num_batched_tokens), then a last one of the tokens left, priced at those tokens (vLLM's V1
    scheduler, vllm/v1/core/sched/scheduler.py schedule(), gives each waiting request min(its tokens left, the
    budget left) and runs the step with what it scheduled; a forward's price follows its tokens). Gives a prompt's
    new tokens, a chunk's tokens, a full chunk's seconds, the number of chunks and the last chunk's seconds."""
    prompt, _ = request_lengths(job.w)
    full, prompt = prompt, prefill_tokens(job.w, prompt, eng.fw)
    total = n * float(prompt)
    chunk = min(float(eng.chunk), total) if eng.fw.chunked_prefill else total
    last = math.ceil(total / chunk)
    rest = total - (last - 1) * chunk
    per_chunk = prefill_seconds(job, eng, rep, chunk, full - prompt / 2)
    tail = per_chunk if rest >= chunk else prefill_seconds(job, eng, rep, rest, full - prompt / 2)
    return float(prompt), chunk, per_chunk, last, tail


def burst_decode_step(job: Any, eng: Engine, rep: Replica, n: int) -> float:
    """Seconds of a decode step once ``n`` requests that reached one copy at once are all running: the step
    of that batch at the GPUs' pace. The front end bounds how fast a burst's requests get in (the start of
    the burst's run, :func:`.front.burst_seconds`), not how many decode together once in; :func:`point`
    bounds a steady closed loop by it, so its step is that of the smaller batch that keeps pace with the
    front end, which a burst past that pace does not decode at."""
    c = consts(job, eng, rep)
    return _at_gpus(job, eng, rep, c, float(max(n, 1))).decode_step


def system_point(job: Any, eng: Engine, rep: Replica, conc: float, *, pure_decode: bool = True) -> Point:
    """The whole system at ``conc`` requests spread over the copies. Past the throughput peak of a
    copy the scheduler runs the peak's batch (``max_num_seqs`` set there) and the rest queue: the
    throughput saturates at the peak and only the wait grows (Little's law), rather than every
    admitted sequence slowing every step."""
    r = rep.layout.replicas
    if conc <= r:
        p = point(job, eng, rep, 1.0, pure_decode=pure_decode)
        return Point(conc, p.throughput * conc, p.tpot, p.ttft, p.decode_step, front_end=p.front_end)
    per = conc / r
    top = capacity_point(job, eng, rep, None, None) if rep.fits else None
    if top is not None and per > top.concurrency:
        _, output = request_lengths(job.w)
        wait = (top.ttft + output * top.tpot) * (per / top.concurrency - 1)
        return Point(conc, top.throughput * r, top.tpot, top.ttft + wait, top.decode_step, front_end=top.front_end)
    p = point(job, eng, rep, per, pure_decode=pure_decode)
    q = _whole_prompt_batch(job, eng, rep, per)
    if q is not None and q.throughput > p.throughput:  # the scheduler holds the batch where prompts still fit a step
        _, output = request_lengths(job.w)
        wait = (q.ttft + output * q.tpot) * (per / q.concurrency - 1)
        return Point(conc, q.throughput * r, q.tpot, q.ttft + wait, q.decode_step, front_end=q.front_end)
    return Point(conc, p.throughput * r, p.tpot, p.ttft, p.decode_step, front_end=p.front_end)


def _whole_prompt_batch(job: Any, eng: Engine, rep: Replica, per: float) -> Point | None:
    """The best of the batches below ``per`` at which a prompt's chunks last fit the step's token budget beside the
    running sequences (``chunk - b`` tokens of room: a prompt of P tokens goes in m chunks while b <= chunk - P/m).
    One sequence more splits every prompt into one chunk more, and on engines whose prompt-carrying steps have a
    fixed cost (a launch floor, routing, all-to-all) that extra step can cost more than the sequence adds: the curve
    would fall there and rise again further on. A scheduler does not run the batch that loses throughput; as past
    the peak (``max_num_seqs`` set where throughput is highest), it holds the better batch and the rest wait.
    None where the framework does not split prompts by the room left (no chunked prefill)."""
    best: Point | None = None
    for c in whole_prompt_batches(job, eng, per):
        q = point(job, eng, rep, float(c))
        if best is None or q.throughput > best.throughput:
            best = q
    return best


def whole_prompt_batches(job: Any, eng: Engine, below: float) -> list[int]:
    """The batches under ``below`` at which a prompt's m chunks last fit beside the running sequences
    (``chunk - P/m``, m = 1..8: beyond that a chunk is small beside the budget); none without chunked prefill."""
    if not (eng.fw.continuous_batching and eng.fw.chunked_prefill):
        return []
    prompt, _ = request_lengths(job.w)
    prompt = prefill_tokens(job.w, prompt, eng.fw)
    out = []
    for m in range(1, 9):
        c = math.floor(eng.chunk - prompt / m)
        if c >= below:
            break
        if c >= 1:
            out.append(c)
    return out


def capacity_point(job: Any, eng: Engine, rep: Replica, max_ttft: float | None, max_tpot: float | None) -> Point | None:
    """The busiest load one copy sustains within the latency targets (None: not even one request)."""
    c = consts(job, eng, rep)
    cache = c.capacity
    key = (max_ttft, max_tpot)
    if key in cache:
        return cache[key]
    at = _at(job, eng, rep, c)

    def ok(n: float) -> bool:
        p = at(n)
        return (max_tpot is None or p.tpot <= max_tpot) and (max_ttft is None or p.ttft <= max_ttft)

    hi = max(rep.max_seqs, 1)
    if (max_tpot is None and max_ttft is None) or ok(hi):
        best = hi
    elif not ok(1):
        cache[key] = None
        return None
    else:
        lo = 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if ok(mid):
                lo = mid
            else:
                hi = mid
        best = lo
    cache[key] = peak_point(job, eng, rep, best)
    return cache[key]


def _at(job: Any, eng: Engine, rep: Replica, c: StepConsts) -> Callable[[float], Point]:
    """:func:`point` of ``eng`` on ``rep`` as a function of the load alone, for the searches over it
    (the pair's constants and memo looked up once)."""
    points = c.points

    def at(conc: float) -> Point:
        got = points.get(conc)
        if got is None:
            got = _new_point(job, eng, rep, c, conc)
        return got

    return at


def peak_point(job: Any, eng: Engine, rep: Replica, top: int) -> Point:
    """The busiest point of one copy's throughput curve between one request and ``top``: past its
    peak, more sequences cost more per step (host work, attention) than they add, so the peak can
    lie below what the memory holds. A geometric scan, then the integers around its best."""
    c = consts(job, eng, rep)
    at = _at(job, eng, rep, c)
    if top <= 1:
        return at(1.0)
    grid = sorted({max(1, round(top ** (i / 24))) for i in range(25)} | {top})
    held = whole_prompt_batches(job, eng, top)  # where the curve can step down as prompts split into one chunk more
    best = _busiest(eng, rep, c, grid + held, at)
    if best in held and best not in grid:
        return at(float(best))
    i = grid.index(best)
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    while hi - lo > 2:  # the curve is unimodal near its top: narrow the bracket by thirds
        a, b = lo + (hi - lo) // 3, hi - (hi - lo) // 3
        if at(float(a)).throughput < at(float(b)).throughput:
            lo = a
        else:
            hi = b
    best = max(range(lo, hi + 1), key=lambda n: at(float(n)).throughput)
    return at(float(best))


def throughput_ceiling(c: StepConsts, eng: Engine, rep: Replica, conc: float) -> float:
    """A bound no :func:`point` of the copy at ``conc`` requests exceeds, from the pair's constants alone
    (nothing timed). Why it holds, for every branch of :func:`_point` and :func:`_fed`:

    - the throughput is ``b x output / (TTFT + output x TPOT)`` (a static batch's ``b x output / (prefill
      + output x TPOT)``) with ``b = min(conc, max_seqs)`` and a TTFT that is never negative, so at most
      ``b / TPOT``; past ``max_seqs`` the rest only wait; the front end's bound only lowers it;
    - the TPOT is the decode step's seconds per token plus what prefills add (never negative), so at
      least the decode step's: the step over the tokens a speculative step yields;
    - a step lasts at least its stages' dense weight streaming and fixed layer costs plus its host
      work, ``pp x (t_mem + over) + step_overhead + seq_overhead x sequences``: every other part of
      :func:`.step._parts` (math, experts, attention, communication, the block-FP8 floor) adds time.

    The floating-point sums keep these inequalities (rounding is monotone); :func:`_busiest` leaves a
    margin besides. tests/test_serving_peak_bound.py checks it at every load the held-out serving
    questions time."""
    cap = max(rep.max_seqs, 1)
    b = max(min(conc, cap), 1e-9)
    dpa = c.dpa
    step = c.pp * (c.t_mem + c.over) + c.step_overhead + c.seq_overhead * (b / dpa if dpa > 1 else b)
    spec = eng.spec
    if spec is not None:
        step = step / spec.tokens_per_step
    return b / step if step > 0 else math.inf


PASS_MARGIN = 1e-9
"""The share by which a load's :func:`throughput_ceiling` must fall below the best throughput found for
:func:`_busiest` to pass over it: far above the rounding of the few sums between the two."""


def _busiest(eng: Engine, rep: Replica, c: StepConsts, loads: list[int], at: Callable[[float], Point]) -> int:
    """``max(loads, key=lambda n: at(float(n)).throughput)``, the same load, timing fewer: the loads are
    tried from the busiest down, and one not yet timed whose :func:`throughput_ceiling` is below the best
    throughput found so far is passed over -- it cannot be the best nor tie with it, so the first load (in
    ``loads``' order) with the highest throughput is the same. The best usually lies among the busiest
    loads of a geometric grid, and the ceiling of a small batch (its weights streamed for few sequences)
    is far below it. A passed load is noted (``c.passed``) so that, timed later, it is kept as this scan
    would have kept it (:func:`_new_point`)."""
    points = c.points
    best = -math.inf
    got: dict[int, float] = {}
    for n in sorted(set(loads), reverse=True):
        if n not in points and throughput_ceiling(c, eng, rep, n) * (1.0 + PASS_MARGIN) < best:
            c.passed.add(n)
            continue
        t = got[n] = at(float(n)).throughput
        if t != t:  # NaN orders nothing: the plain scan
            return max(loads, key=lambda m: at(float(m)).throughput)
        if t > best:
            best = t
    return next(n for n in loads if got.get(n) == best)
