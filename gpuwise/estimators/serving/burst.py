"""A burst of requests of varied lengths -- a benchmark's dataset sent at once -- stepped through the step model.

A serving benchmark that sends a dataset's prompts at once (vllm bench serve --request-rate inf, no concurrency
cap) reports the dataset's output over the run, and the run lasts until its longest answer ends. Priced as if every
request had the mean lengths, the burst would end with its mean answer, all sequences together; a real dataset's
answers spread (ShareGPT's median is two thirds of its mean, its longest nine times the mean), so after the bulk of
the answers end, the run goes on with a thinning batch whose steps stream the same weights for ever fewer tokens.

:func:`burst_run` simulates that: the requests are drawn at a fixed grid of the dataset's quantiles (no random
numbers: serving.yaml ``length_distributions``, scaled to the workload's stated means), reach the copy as its front
end hands them over (:mod:`.front`), are admitted while the scheduler's sequence cap and the KV pool allow, have
their prompts prefilled in the step budget (``max_num_batched_tokens``: with the running decodes where the framework
mixes them, alone where it runs prefill batches by themselves) and then decode one token a step. Each step is priced
by :func:`.step.per_token` at its live batch, context and prompt tokens. The run between two events (a request
ending, arriving or finishing its prompt) keeps its batch, so it is priced as one stretch of equal steps at its
middle context.
"""

from __future__ import annotations

import bisect
import heapq
import math
from typing import Any

from ...frozen import frozen
from .engine import Engine, prefill_tokens
from .front import front
from .layout import Replica, copy_graph_cap
from .load import _prefill, burst_decode_step, prefill_seconds, scheduled_ahead
from .step import _host, consts, per_token
from .support import request_lengths

GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0
"""The stride of the arrival order over the quantile grid: (i x GOLDEN) mod 1 spreads every stretch of arrivals
over the whole distribution (a benchmark client shuffles its dataset), with no random numbers."""


@frozen
class BurstRun:
    """A burst of requests at one copy, start to last token."""

    seconds: float  # from the burst's send to its last token
    output_tokens: float  # the burst's output tokens
    ttft: float  # s, mean over the requests (from the send)
    tpot: float  # s, mean over the requests of more than one output token
    most_running: int  # the largest batch decoded
    e2e: float = 0.0  # s, mean over the requests from each one's send to its last token

    @property
    def throughput(self) -> float:
        """Output tokens/s over the run, as a benchmark reports it."""
        return self.output_tokens / self.seconds if self.seconds > 0 else 0.0


def dataset_lengths(dist: Any, prompt_mean: float, output_mean: float, n: int) -> list[tuple[int, int]]:
    """``n`` requests' (prompt, output) tokens drawn at the quantile grid ``(i + 0.5) / n`` of ``dist`` (serving.yaml
    ``length_distributions``): the output linear between its levels, the prompt its band's mean; both scaled so
    their means are the workload's, and listed in arrival order (:data:`GOLDEN`)."""
    levels, outs, prompts = dist.levels, dist.output_tokens, dist.prompt_tokens
    raw = []
    for i in range(n):
        q = (i + 0.5) / n
        j = min(bisect.bisect_right(levels, q) - 1, len(levels) - 2)
        f = (q - levels[j]) / (levels[j + 1] - levels[j])
        raw.append((prompts[j], outs[j] + (outs[j + 1] - outs[j]) * f))
    sp = prompt_mean * n / sum(p for p, _ in raw)
    so = output_mean * n / sum(o for _, o in raw)
    drawn = [(max(1, round(p * sp)), max(1, round(o * so))) for p, o in raw]
    return [drawn[i] for i in sorted(range(n), key=lambda i: (i * GOLDEN) % 1.0)]


def sequence_cap(job: Any, eng: Engine, rep: Replica) -> int:
    """The most sequences the copy's scheduler runs at once in a benchmark of a default server: the framework's
    default (vLLM's max_num_seqs: 1,024 on large GPUs, 256 on A100s and small ones; serving.yaml ``max_batch``) per
    attention rank, or the job's own ``max_batch_size``, and never more than the memory holds."""
    if getattr(job.w, "max_batch_size", None):
        return max(rep.max_seqs, 1)
    return max(min(rep.max_seqs, eng.max_batch * rep.layout.dp_attention), 1)


def state_tokens(rep: Replica) -> float:
    """A running sequence's recurrent state (:attr:`.layout.Replica.state_gpu`) in KV tokens of the pool it shares:
    its bytes over the KV bytes a token takes, both per GPU; 0 for a model without the state, or without a KV
    cache (whose sequences the memory's count bounds, the state included)."""
    return rep.state_gpu / rep.kv_token_gpu if rep.kv_token_gpu > 0 else 0.0


def burst_run(job: Any, eng: Engine, rep: Replica, lengths: list[tuple[int, int]],
              rate: float | None = None) -> BurstRun | None:
    """The requests ``lengths`` (prompt, output tokens, in arrival order) sent at once to one copy, simulated step by
    step (module docstring). None where the model does not apply: a static-batching framework (its own burst model)
    or speculative decoding (a step yields more than one token a sequence).

    ``rate``: requests a second a client that paces its sends offers instead (SGLang's and vLLM's bench_serving
    --request-rate with no --max-concurrency: request i is sent after i exponential gaps of mean 1 / rate, taken
    here at their mean, i / rate, with no random numbers); the run still lasts from the first send to the last
    token, and a request's TTFT is timed from its own send."""
    fw = eng.fw
    if not fw.continuous_batching or eng.spec is not None or not lengths:
        return None
    c = consts(job, eng, rep)
    n = len(lengths)
    f = front(job, eng)
    gap = f.seconds if f is not None else 0.0  # the front end hands over one request each ``gap`` seconds
    pace = 1.0 / rate if rate else 0.0  # a client that paces its requests sends request i at i / rate
    cap = sequence_cap(job, eng, rep)
    per_rank = rep.free_gpu / rep.kv_token_gpu if rep.kv_token_gpu > 0 else math.inf
    pool = (rep.pool_tokens or per_rank) * rep.layout.dp_attention  # KV tokens the copy holds
    # a running sequence's recurrent state (layout.py state_gpu, the bytes admission counts) in KV tokens of the same
    # pool; a model with no KV cache at all has its sequences bounded by the cap, which counts the state
    st = state_tokens(rep)
    full = fw.kv_reserve == "full"  # reserves prompt + output at admission, else the current length
    budget = float(eng.chunk)
    graphs = copy_graph_cap(eng, rep)
    floor = c.prefill_floor
    # a release that schedules a step ahead launches an eager mixed step while the GPU runs the step before it
    # (load.launched_ahead): after a decode-only step replayed from a CUDA graph, its launches outlast its GPU work
    # only by what that step's GPU time does not cover
    ahead = bool(eng.eager_kernel) and scheduled_ahead(job, eng)
    prev_gpu = 0.0  # the GPU seconds of the step before, where it was a graph-replayed decode-only step
    memo: dict[tuple, float] = {}

    def step_s(b: int, ctx: float, ptoks: float, pctx: float, alone: bool) -> float:
        key = (b, round(ctx, -1), round(ptoks), round(pctx, -1), alone)
        got = memo.get(key)
        if got is None:
            if alone or b == 0:
                got = _prefill(c, ptoks, pctx)
            else:
                got = per_token(c, float(b), ctx, ptoks, pctx)
                if (graphs and b > graphs) or (ptoks > 0 and eng.eager_kernel):
                    got = max(got, floor)  # a step outside CUDA graphs lasts at least its launches
            memo[key] = got
        return got

    def arrive(i: int) -> float:
        """When request i has passed the front end: sent at i x pace, handed over one ``gap`` after the later of
        its sending and the request before it (for a burst, pace 0: (i + 1) x gap)."""
        return max((i + 1) * gap, i * pace + gap)

    t = 0.0
    k = 0  # decode steps run so far
    nxt = 0  # the next request to admit
    kv = 0.0  # KV tokens held
    prefilling: list[list[float]] = []  # [request, prompt tokens left]
    ends: list[tuple[int, int]] = []  # (the decode step at whose end a request ends, request)
    ctx_sum = 0.0  # prompt + tokens so far, over the decoding requests
    first = [0.0] * n
    done = [0.0] * n
    most = 0
    total_out = float(sum(o for _, o in lengths))
    while nxt < n or prefilling or ends:
        while (nxt < n and arrive(nxt) <= t + 1e-12 and len(prefilling) + len(ends) < cap
               and kv + st + lengths[nxt][0] + (lengths[nxt][1] if full else 0) <= pool):
            p, o = lengths[nxt]
            prefilling.append([nxt, float(p)])
            kv += p + (o if full else 0) + st
            nxt += 1
        b = len(ends)
        if not prefilling and b == 0:
            if nxt >= n:
                break
            t = max(t, arrive(nxt))
            if len(prefilling) + len(ends) >= cap or kv + st + lengths[nxt][0] > pool:  # nothing runs or fits
                return None
            continue
        most = max(most, b)
        alone = bool(prefilling) and not fw.mixed_prefill
        room = budget if alone else (max(budget - b, 0.0) if prefilling else 0.0)
        ptoks, pos, ended = 0.0, 0.0, []
        for item in prefilling:
            if room <= 0:
                break
            r, left = int(item[0]), item[1]
            take = min(left, room)
            start = lengths[r][0] - left
            pos += take * (start + take / 2)  # the mean position of the chunk's tokens
            ptoks += take
            room -= take
            item[1] = left - take
            if item[1] <= 0:
                ended.append(r)
        pctx = pos / ptoks if ptoks else 0.0
        admits = (nxt < n and len(prefilling) + b < cap  # a request may be admitted after this step
                  and kv + st + lengths[nxt][0] + (lengths[nxt][1] if full else 0) <= pool)
        eager = bool(graphs and b > graphs)  # a decode batch beyond the captured graphs runs eagerly too
        if alone:
            t += step_s(0, 0.0, ptoks, pctx, True)
            prev_gpu = 0.0
        elif ptoks or admits:
            ctx = ctx_sum / b if b else 0.0
            got = step_s(b, ctx, ptoks, pctx, False)  # one step: something may change after it
            if ahead and prev_gpu and b and ptoks > 0 and not eager and got <= floor:
                got = max(per_token(c, float(b), ctx, ptoks, pctx), floor - prev_gpu)
            t += got
            eager = eager or (ptoks > 0 and bool(eng.eager_kernel)) or not b
            prev_gpu = 0.0 if eager else max(got - _host(c, float(b)), 0.0)
            if b:
                k += 1
                ctx_sum += b
                kv += 0 if full else b
        else:  # decode only until the next request ends: equal steps
            m = ends[0][0] - k
            got = step_s(b, ctx_sum / b + (m - 1) / 2, 0.0, 0.0, False)
            t += m * got
            prev_gpu = 0.0 if eager else max(got - _host(c, float(b)), 0.0)
            k += m
            ctx_sum += b * m
            kv += 0 if full else b * m
        while ends and ends[0][0] <= k:
            _, r = heapq.heappop(ends)
            done[r] = t
            p, o = lengths[r]
            ctx_sum -= p + o
            kv -= p + o + st
        if ended:
            gone = set(ended)
            prefilling = [item for item in prefilling if int(item[0]) not in gone]
            for r in ended:
                p, o = lengths[r]
                first[r] = t
                if o <= 1:
                    done[r] = t
                    kv -= p + (o if full else 0) + st
                    continue
                heapq.heappush(ends, (k + o - 1, r))
                ctx_sum += p + 1
                kv += 0 if full else 1
    tpots = [(done[r] - first[r]) / (o - 1) for r, (_, o) in enumerate(lengths) if o > 1]
    return BurstRun(seconds=t, output_tokens=total_out, ttft=sum(first[r] - r * pace for r in range(n)) / n,
                    tpot=sum(tpots) / len(tpots) if tpots else 0.0, most_running=most,
                    e2e=sum(done[r] - r * pace for r in range(n)) / n)


def burst_tpot(job: Any, eng: Engine, rep: Replica, n: int) -> float | None:
    """Mean time per output token of ``n`` requests of the job's lengths that reach one idle copy at once and all
    run together. A benchmark client times a request's TPOT from its own first token to its last, over its other
    output - 1 tokens (vllm bench serve: (e2el - ttft) / (output - 1), its mean over the requests). The burst's
    prompts are prefilled in ``K`` chunks of the step budget, each a step of ``S`` seconds (the chunk's price, as
    :func:`.load.burst_ttft` times the first tokens), request i's first token with chunk ``k_i``; then the burst
    decodes at ``d`` a step (:func:`.load.burst_decode_step`). A scheduler that runs the decodes first and fills the
    rest of the budget with prompt chunks (vLLM V1: ``mixed_prefill``) gives request i one token in each of the
    ``K - k_i`` chunk steps left, up to its output - 1, and the rest in decode steps: TPOT_i = (m S + (output - 1 -
    m) d) / (output - 1), m = min(K - k_i, output - 1); where the prompts' chunk steps outnumber an answer's tokens,
    the early requests end during the prefill, else all end together with the last prompt's answer. One that runs
    prefill batches alone (SGLang's default) makes the decodes wait for them: TPOT_i = d + (K - k_i) S /
    (output - 1). Not the steady state's TPOT, whose steps carry other prompts' chunks for the whole of every
    answer. None where the copy does not run the whole burst at once (its scheduler's sequence cap or its memory
    holds fewer: a request ends and the next one's prompt is prefilled beside the running decodes, the steady
    state), an answer has one token, or a step yields more than one token a sequence (speculative decoding)."""
    prompt, output = request_lengths(job.w)
    if output <= 1 or eng.spec is not None or n > min(sequence_cap(job, eng, rep), rep.max_seqs):
        return None
    new = prefill_tokens(job.w, prompt, eng.fw)  # a cached prefix is not prefilled again
    total = n * float(new)
    chunk = min(float(eng.chunk), total) if eng.fw.chunked_prefill else total
    s = prefill_seconds(job, eng, rep, chunk, prompt - new / 2)
    d = burst_decode_step(job, eng, rep, n)
    return chunked_tpot(n, new, chunk, output, s, d, eng.fw.mixed_prefill and eng.fw.chunked_prefill)


def chunked_tpot(n: int, new: float, chunk: float, output: int, s: float, d: float, mixed: bool) -> float:
    """:func:`burst_tpot`'s mean over the ``n`` requests of ``new`` prompt tokens each, prefilled in chunks of
    ``chunk`` tokens of ``s`` seconds a step, and ``output`` tokens decoded at ``d`` a step; ``mixed``: the decodes
    ride the chunk steps (else they wait for them)."""
    last = math.ceil(n * new / chunk)
    rest = output - 1
    out = 0.0
    for i in range(n):
        left = last - math.ceil((i + 1) * new / chunk)  # chunk steps after request i's first token
        if mixed:
            m = min(left, rest)
            out += (m * s + (rest - m) * d) / rest
        else:
            out += d + left * s / rest
    return out / n
