"""The serving cases of benchmarks/accuracy.py: whole-system throughput and latency at a stated concurrency
(serving_published.csv, validation/serving_independent.csv) and at a stated request rate
(validation/serving_rate.csv), with the helpers that time a benchmark run as its client ran it: a batch or burst
sent at once and its waves, a closed loop over a dataset's lengths, a paced stream, the run's own TTFT. Also the
resolved job as a user would write it (:func:`serving_job`), which the decode cases share."""

from __future__ import annotations

import csv
import itertools
import math
import random
import sys
from pathlib import Path

from benchmarks.accuracy_rows import ROOT, _rows
from gpuwise.errors import UserError

SERVING = ROOT / "tests" / "data" / "serving_published.csv"
INDEPENDENT = ROOT / "tests" / "data" / "validation" / "serving_independent.csv"


def serving_job(kb, model: str, precision: str, framework: str, prompt: int, output: int,
                concurrency: int | None = None, tp: int | None = None, pp: int | None = None,
                ep: int | None = None, kv_precision: str | None = None, framework_version: str | None = None,
                options: str = "", speculative: str = "", offline: bool = False):
    """A resolved inference job as a user would write it (a published layout becomes a parallelism pin;
    ``offline``: a run through the engine's Python API, with no HTTP front end: ``api_servers: 0``)."""
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    w: dict = {"task": "inference", "model": model, "precision": precision, "framework": framework,
               "prompt_tokens": max(1, prompt), "output_tokens": max(1, output)}
    if concurrency:
        w["concurrent_requests"] = concurrency
    if kv_precision:
        w["kv_precision"] = kv_precision
    if framework_version:  # the release the row ran: its kernels set the per-step constants
        w["framework_version"] = framework_version
    for item in filter(None, options.split(";")):  # server settings the run made apart from the defaults
        key, _, value = item.partition("=")
        w[key] = {"true": True, "false": False}.get(value, value)
    if speculative:  # method:acceptance:draft tokens, as the run published it
        method, alpha, k = speculative.split(":")
        w["speculative"] = {"method": method, "acceptance_rate": float(alpha), "draft_tokens": int(k)}
    if tp:
        w["parallelism"] = {"tp": tp, "pp": pp or 1, **({"ep": ep} if ep else {})}
    if offline:
        w["api_servers"] = 0
    return resolve(Requirements.model_validate({"workload": w}), kb)


OFFLINE_METRICS = ("benchmark_latency", "benchmark_throughput", "trtllm-bench", "maximum load", "offline")
"""Words of a row's metric that say it ran through the engine's Python API, not an HTTP server: vLLM's
benchmark_latency.py/benchmark_throughput.py (the LLM class), trtllm-bench and the performance pages'
maximum-load runs made with them. A metric that also names a serving client (``bench serve``,
``bench_serving``, vLLM's older ``benchmark_serving.py``) went through the server: N07's 'benchmark_serving.py over
HTTP' burst and L06's 'benchmark_serving ... benchmark_latency-like' single stream."""


def offline_metric(metric: str) -> bool:
    """The row's run had no HTTP front end (:data:`OFFLINE_METRICS`)."""
    m = metric.lower()
    if "bench serve" in m or "bench_serving" in m or "benchmark_serving" in m:
        return False
    return any(k in m for k in OFFLINE_METRICS)


def serving_cases(kb, path: Path = SERVING, *, latency: list | None = None) -> list[tuple[str, float, float]]:
    """tests/data/serving_published.csv: whole-system output tokens/s. 'max' rows are the throughput
    the memory allows (``max_throughput_tokens_per_s``); the others the throughput at their
    concurrency. Rows with TPOT/TTFT add (label, estimate, published) seconds to ``latency``."""
    from gpuwise.estimators import serving as SV

    out = []
    with open(path, newline="") as fh:
        for row in csv.DictReader(fh):
            conc = None if row["concurrency"] == "max" else int(row["concurrency"])
            # a maximum-load run of N requests queued at once (trtllm-bench throughput) never holds more than N
            # sequences: its load is N, which saturates at the peak where the memory holds fewer
            queued = int(row.get("prompts") or 0) if conc is None else 0
            try:
                job = serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                                  int(row["output_tokens"]), conc or queued or None, int(row["tp"]), int(row["pp"]),
                                  int(row["ep"]) if row.get("ep") else None, row.get("kv_precision") or None,
                                  row.get("framework_version") or None, row.get("workload_options") or "",
                                  offline=offline_metric(row.get("metric", "")))
            except UserError as e:  # a layout gpuwise refuses to price: no figure, said on stderr
                print(f"  {row['id']} not estimated: {e.line()}", file=sys.stderr)
                continue
            s = SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))
            got = s.load if conc or queued else s.capacity
            est = got.throughput if got else 0.0
            if (conc or queued) and not est and row["output_tokens_per_s"]:  # the memory holds no sequence in this
                # layout (the weights fill it): no figure, said on stderr as a refused layout is
                print(f"  {row['id']} not estimated: {row['count']} x {row['gpu']} hold no sequence beside the weights",
                      file=sys.stderr)
                continue
            label = (f"{row['id']} {row['model']} {row['precision']} {row['count']}x{row['gpu']} "
                     f"{row['prompt_tokens']}/{row['output_tokens']} c={row['concurrency']} ({row['framework']})")
            if not row["output_tokens_per_s"]:  # a TPOT-only row: its latency is compared, not a throughput
                if latency is not None and got is not None and row["tpot_ms"]:
                    latency.append((label + " TPOT", got.tpot * 1e3, float(row["tpot_ms"])))
                continue
            drawn = dataset_burst(kb, job, s, row) if conc and got is not None else None
            if drawn is None and conc and got is not None:  # a dataset's prompts sent at a rate, no cap: the run
                drawn = dataset_paced(kb, job, s, row)
            looped = dataset_loop(kb, job, s, row, conc) if drawn is None and conc and got is not None else None
            if drawn is not None:  # a dataset's prompts sent at once or at a rate: its requests' own lengths, stepped
                est = drawn.throughput * s.layout.replicas
            elif looped is not None:  # a closed loop over a dataset's requests: the run's tail as they finish
                est = looped
            elif conc and got is not None and "benchmark_latency" in row.get("metric", ""):
                est = batch_throughput(job, s, conc, int(row["output_tokens"]))
            if drawn is None and conc and got is not None and row.get("fixed_lengths") == "1" and (
                    "benchmark_latency" not in row.get("metric", "")):
                est = wave_throughput(job, s, conc, est)
            out.append((label, est, float(row["output_tokens_per_s"])))
            if latency is not None and got is not None:
                if row["tpot_ms"]:
                    tpot = drawn.tpot if drawn is not None else got.tpot
                    if drawn is None and conc and "benchmark_latency" in row.get("metric", ""):
                        # a batch started together and run whole: each request's TPOT spans the other prompts'
                        # chunk steps after its first token, then the decode tail (burst.burst_tpot); a copy
                        # that holds fewer runs the steady state
                        whole = SV.burst_tpot(job, s.engine, s.replica, max(1, round(conc / s.layout.replicas)))
                        tpot = got.tpot if whole is None else whole
                    elif drawn is None and conc and row.get("fixed_lengths") == "1":
                        tpot = wave_tpot(job, s, got, conc)
                    latency.append((label + " TPOT", tpot * 1e3, float(row["tpot_ms"])))
                if row["ttft_ms"]:
                    if drawn is not None:
                        ttft = drawn.ttft
                    elif conc and "benchmark_latency" in row.get("metric", ""):
                        ttft = burst_run_ttft(job, s, row)
                    else:
                        ttft = run_ttft(job, s, got, row)
                    latency.append((label + " TTFT", ttft * 1e3, float(row["ttft_ms"])))
    return out


def batch_throughput(job, s, conc: int, out_tokens: int) -> float:
    """Output tok/s of a batch of ``conc`` requests of the job's lengths started together (vLLM
    benchmark_latency/_throughput, or a burst sent at once). The prompts arrive at once, so the run lasts until the
    last prompt is prefilled and then decodes its output with no prompt left to prefill: decode-only steps at the
    batch (the steady state's TPOT would carry the prompts' chunks a second time); a batch beyond the sequences the
    memory holds runs in waves of what it holds (:func:`burst_waves`)."""
    from gpuwise.estimators import serving as SV

    sent = max(1, round(conc / s.layout.replicas))
    running = min(sent, max(s.replica.max_seqs, 1))
    # over HTTP (a burst sent to the server) the last prompt reaches the engine only once the front end has taken
    # every request before it (none offline)
    first = SV.burst_last_ttft(job, s.engine, s.replica, running)
    last = max(first, SV.burst_seconds(job, s.engine, sent))
    step = SV.burst_decode_step(job, s.engine, s.replica, running)
    if sent <= running:
        return running * s.layout.replicas * out_tokens / (last + out_tokens * step)
    # the whole burst's output over the waves it runs in, each prefilled and decoded in turn, or over the front
    # end's time for every request
    run = max(sum(burst_waves(job, s, sent, running, out_tokens)), last + out_tokens * step)
    return sent * s.layout.replicas * out_tokens / run


def wave_tpot(job, s, got, conc: int) -> float:
    """TPOT of a closed loop whose requests all have the same lengths and whose clients outnumber the copy's sequence
    cap: the scheduler admits the queued requests as the slots free, all at once as the wave before them ends (its
    requests decoded in lockstep), so each wave of the cap is a burst (burst.burst_tpot) rather than the steady state
    of staggered arrivals (``got.tpot``). Within the cap the steady state stands (the client's later waves were tried
    as bursts and not kept: validation README, 'Tried and not kept: (1) the burst TPOT for the fixed-length closed
    loops' later waves too')."""
    from gpuwise.estimators import serving as SV

    per = max(1, round(conc / s.layout.replicas))
    running = min(per, max(s.replica.max_seqs, 1))
    if per <= running:
        return got.tpot
    whole = SV.burst_tpot(job, s.engine, s.replica, running)
    return got.tpot if whole is None else whole


def wave_throughput(job, s, conc: int, steady: float) -> float:
    """Output tokens/s of a closed loop of fixed lengths whose clients outnumber the copy's sequence cap: the cap's
    waves (:func:`wave_tpot`) follow each other with no gap, the next wave's requests already queued in the server when
    the last one ends, so each wave lasts the burst of ``cap`` requests (burst.burst_run: a framework that runs prefill
    batches alone prefills the wave's prompts a whole budget a forward, then decodes them together). Within the cap
    the waves are the client's, sent as the last answers reach it, and ``steady`` (the closed loop's steady state)
    stands."""
    from gpuwise.estimators.serving import burst as BU
    from gpuwise.estimators.serving.support import request_lengths

    per = max(1, round(conc / s.layout.replicas))
    running = min(per, max(s.replica.max_seqs, 1))
    if per <= running:
        return steady
    prompt, output = request_lengths(job.w)
    run = BU.burst_run(job, s.engine, s.replica, [(prompt, output)] * running)
    if run is None or run.seconds <= 0:
        return steady
    return running * s.layout.replicas * output / run.seconds


RATE = ROOT / "tests" / "data" / "validation" / "serving_rate.csv"
"""Runs at a stated request rate (Poisson arrivals, no concurrency cap): the rate model's own check."""


def finite_run_share(row: dict, served: float, point) -> float:
    """What a finite benchmark run of ``row['prompts']`` requests reports of the served rate: vLLM's and SGLang's
    bench_serving divide the output tokens by the run's duration, from the first request sent to the last one
    finished (benchmark_duration), so a run of n prompts at a served rate r lasts n / r for the arrivals plus the
    last request's own time, its TTFT and the rest of its tokens one TPOT each (``point``: the rate answer at the
    offered rate, where the copies keep up). 1 where no count is stated (an MLPerf run: at least ten minutes of
    arrivals); the harness leaves a rate beyond the copies' reach at the full scheduler's steady rate, since a
    finite run there never fills the scheduler the steady state assumes, which this share cannot say."""
    n = int(row["prompts"]) if row.get("prompts") else 0
    if not n or served <= 0:
        return 1.0
    span = n / served
    last = point.ttft_mean + (int(row["output_tokens"]) - 1) * point.tpot_mean
    return span / (span + last) if math.isfinite(last) else 1.0


MLPERF_RUN_S = 600.0
"""An MLPerf Inference Server / Interactive performance run's duration: 600 seconds of Poisson arrivals
(mlcommons/inference_policies inference_rules.adoc at ac93e89c, the scenario table: 'Server/Interactive ... 600
seconds'), from an idle system."""


def span_wait(rate: float, span: float) -> tuple[float, float]:
    """(mean, p95) wait for a slot of the requests of a run ``span`` seconds long that reach a copy at ``rate`` a
    second, where the copy's slots are as busy as the arrivals (load 1): the steady state's wait has no bound there,
    but a run that starts idle never reaches it. In heavy traffic the queue of a many-server copy is a reflected
    Brownian motion (Iglehart & Whitt 1970, Multiple channel queues in heavy traffic I, Adv. Appl. Prob. 2) whose
    variance a second is the arrivals' and the departures' ``rate x (ca² + cs²)``, with ca² = 1 for Poisson arrivals
    and cs² = 0 for the near-constant time in service the rate model's Allen-Cunneen factor takes (gpuwise.estimators.
    serving.rate.wait). Started at zero with no drift it has the law of ``|B(t)|`` (Lévy; Harrison 1985, Brownian
    Motion and Stochastic Flow Systems, ch. 1), so the queue met at ``t`` averages ``sqrt(2 rate t / π)`` and,
    drained at the arrivals' rate, the wait ``sqrt(2 t / (π rate))``; over arrivals uniform in the run the mean is
    ``(2/3) sqrt(2 span / (π rate))``, and the p95 the ``w`` where the share of the run's arrivals with
    ``|N(0, t / rate)| > w`` is 5%: that share, the mean over ``u = t / span`` of ``erfc(a / sqrt(u))`` with
    ``a = w sqrt(rate / (2 span))``, is ``(1 + 2a²) erfc(a) - 2a e^(-a²) / sqrt(π)``. A queue started empty
    waits less at every moment than in its steady state, and one with arrivals below its slots' rate less than one
    without drift (the reflection map is monotone), so each bounds the run's wait from above: the lesser of this and
    the steady state's is the run's."""
    mean = 2.0 / 3.0 * math.sqrt(2.0 * span / (math.pi * rate))

    def above(w: float) -> float:  # the mean over u = t / span in (0, 1) of erfc(a / sqrt(u)), in closed form
        a = w * math.sqrt(rate / (2.0 * span))
        return (1.0 + 2.0 * a * a) * math.erfc(a) - 2.0 * a * math.exp(-a * a) / math.sqrt(math.pi)

    lo, hi = 0.0, 4.0 * math.sqrt(span / rate)
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if above(mid) > 0.05 else (lo, mid)
    return mean, (lo + hi) / 2


def mlperf_ttft(job, s, row: dict, at) -> tuple[float, float]:
    """(mean, p95) TTFT of ``at``, the rate answer at an MLPerf row's offered rate, with its wait for a slot that of
    the rules' 600-second run (:func:`span_wait`) where that is the lesser: the steady state's wait is the rate
    model's own (:func:`gpuwise.estimators.serving.rate.wait` over the copy's slots at its mean batch), the rest of
    the TTFT (the prompt's queue, the step in flight, its own chunks) as the answer gives it. Other rows: ``at``'s."""
    from gpuwise.estimators.serving import rate as RT

    if row.get("prompts") or "MLPerf" not in row.get("metric", ""):
        return at.ttft_mean, at.ttft_p95
    c = RT.slots(job, s.engine, s.replica)
    p = RT.at_batch(job, s.engine, s.replica, at.batch)
    slot_mean, slot95 = RT.wait(c, at.batch, p.ttft + int(row["output_tokens"]) * p.tpot)
    run_mean, run95 = span_wait(float(row["request_rate"]) / s.replica.layout.replicas, MLPERF_RUN_S)
    mean = at.ttft_mean - slot_mean + run_mean if slot_mean > run_mean else at.ttft_mean
    return mean, at.ttft_p95 - slot95 + run95 if slot95 > run95 else at.ttft_p95


def rate_row_served(kb, row: dict):
    """One serving_rate.csv row as gpuwise serves it: (the job at the row's offered rate, the chosen serving
    estimate on the row's GPUs). What rate_cases scores and benchmarks/rate_latency_split.py splits."""
    from gpuwise.estimators import serving as SV

    rate = float(row["request_rate"])
    opts = ";".join(filter(None, (row.get("workload_options") or "", f"requests_per_s={rate}")))
    job = serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                      int(row["output_tokens"]), None, int(row["tp"]), int(row["pp"]),
                      int(row["ep"]) if row.get("ep") else None, row.get("kv_precision") or None,
                      row.get("framework_version") or None, opts)
    return job, SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))


def rate_cases(kb, path: Path = RATE, *, latency: list | None = None) -> list[tuple[str, float, float]]:
    """tests/data/validation/serving_rate.csv through the request-rate answer (``workload.requests_per_s``): the
    output tok/s (or requests/s) served at the offered rate -- the rate itself while the copies keep up, else what a
    full scheduler serves -- and, into ``latency``, the mean and p95 TTFT and TPOT of the answer at that rate against
    the published mean, p95 and (for TPOT, near-symmetric where the batch is steady) p50. A rate the model finds
    beyond the copies' reach has no finite steady-state latency: such a row's latencies are left out, said on
    stderr."""
    from gpuwise.estimators.serving import rate as RT

    out = []
    for row in _rows(path.parent, path.name):
        rate = float(row["request_rate"])
        job, s = rate_row_served(kb, row)
        at = s.rate.at_rate if s.rate is not None else None
        if at is None:
            print(f"  {row['id']} not estimated: no rate answer", file=sys.stderr)
            continue
        full = RT.colocated(job, s.engine, s.replica, RT.slots(job, s.engine, s.replica) * (1 - 1e-6))
        served = min(rate, full.requests_per_s)
        label = (f"{row['id']} {row['model']} {row['precision']} {row['count']}x{row['gpu']} "
                 f"{row['prompt_tokens']}/{row['output_tokens']} rate={row['request_rate']} ({row['framework']})")
        run = finite_paced(job, s, row, at)
        # a row whose prompts a dataset gave (length_distribution): its run ends with its longest answers, which the
        # mean lengths leave out, so its length is the simulated run's over the dataset's own lengths, steady state
        # or not; the steady state's latencies stand where it holds
        drawn = dataset_paced(kb, job, s, row)
        if run is not None and drawn is not None:
            run = drawn
        whole = drawn if drawn is not None else run
        if whole is not None:  # the run's prompts never build the steady state, or a dataset's tail ends it
            served = whole.seconds and len(run_lengths(row, s)) * s.layout.replicas / whole.seconds
            served *= whole.output_tokens / len(run_lengths(row, s)) / int(row["output_tokens"])  # the grid's rounding
        else:
            served *= finite_run_share(row, served, at) if at.stable else 1.0
        if row["output_tokens_per_s"]:
            out.append((label + " out tok/s", served * int(row["output_tokens"]), float(row["output_tokens_per_s"])))
        elif row.get("served_requests_per_s"):
            out.append((label + " req/s", served, float(row["served_requests_per_s"])))
        if latency is None:
            continue
        if run is not None:  # the simulated run's means (it gives no spread: the p95 columns are not compared)
            for col, name, est in (("ttft_ms", "TTFT mean", run.ttft), ("tpot_ms", "TPOT mean", run.tpot),
                                   ("tpot_p50_ms", "TPOT p50 (vs mean)", run.tpot)):
                if row.get(col):
                    latency.append((f"{label} {name} (finite run)", est * 1e3, float(row[col])))
            continue
        if not at.stable:
            print(f"  {row['id']} beyond the copies' reach at {rate:g}/s (the model's queue grows): latencies not "
                  "compared", file=sys.stderr)
            continue
        ttft_mean, ttft_p95 = mlperf_ttft(job, s, row, at)  # a 600-second run never reaches a full copy's wait
        for col, name, est in (("ttft_ms", "TTFT mean", ttft_mean), ("ttft_p95_ms", "TTFT p95", ttft_p95),
                               ("tpot_ms", "TPOT mean", at.tpot_mean), ("tpot_p95_ms", "TPOT p95", at.tpot_p95),
                               ("tpot_p50_ms", "TPOT p50 (vs mean)", at.tpot_mean)):
            if row.get(col):
                latency.append((f"{label} {name}", est * 1e3, float(row[col])))
    return out


def run_lengths(row: dict, s) -> list[tuple[int, int]]:
    """The (prompt, output) tokens of the requests one copy gets in a run of ``row['prompts']``, shared evenly over
    the copies: each at the row's mean lengths, or, where the row states the client's ``range_ratio`` r (vllm bench
    serve's random dataset, --random-range-ratio: each request's output drawn uniformly over mean x [1 - r, 1 + r]),
    the outputs at that uniform's quantile grid (i + 0.5) / n, scaled to the row's mean and sent in the order
    burst.GOLDEN strides over the grid (no random numbers), the prompts at their mean."""
    from gpuwise.estimators.serving import burst as BU

    n = max(1, round(int(row["prompts"]) / s.layout.replicas))
    prompt, output = int(row["prompt_tokens"]), int(row["output_tokens"])
    r = float(row.get("range_ratio") or 0)
    if not r:
        return [(prompt, output)] * n
    grid = [1 - r + 2 * r * (i + 0.5) / n for i in range(n)]
    scale = n / sum(grid)
    outs = [max(1, round(output * g * scale)) for g in grid]
    return [(prompt, outs[i]) for i in sorted(range(n), key=lambda i: (i * BU.GOLDEN) % 1.0)]


def finite_paced(job, s, row: dict, point):
    """A run of ``prompts`` requests sent at ``request_rate`` with no concurrency cap (vllm bench serve, SGLang's
    bench_serving, guidellm at a rate) whose prompts cannot build the steady state the rate model answers: that
    steady state holds the rate x its mean end-to-end latency in flight (Little's law), and a run of n prompts never
    holds more than n; beyond the copies' reach it holds the full scheduler's batch. Such a run is a finite stream
    whose batch grows while its prompts arrive and drains after, simulated over the requests and the rate one copy
    gets (:func:`gpuwise.estimators.serving.burst.burst_run`, ``rate``; every request at the row's mean lengths):
    the benchmark's output over its duration, the first send to the last token. None where no count is stated (an
    MLPerf run), the rate is infinite, the steady state's requests in flight are fewer than the prompts, or the
    simulation does not apply."""
    from gpuwise.estimators.serving import burst as BU

    n, rate = int(row.get("prompts") or 0), row.get("request_rate", "")
    if not n or rate in ("", "inf"):
        return None
    if point.stable and float(rate) * (point.ttft_mean + (int(row["output_tokens"]) - 1) * point.tpot_mean) < n:
        return None
    return BU.burst_run(job, s.engine, s.replica, run_lengths(row, s), rate=float(rate) / s.layout.replicas)


def dataset_burst(kb, job, s, row: dict):
    """The burst of a row whose prompts came from a dataset sent at once (``length_distribution``: its requests'
    lengths spread as the dataset's, serving.yaml ``length_distributions``; ``benchmark_latency`` in its metric),
    simulated over the requests one copy gets (:func:`gpuwise.estimators.serving.burst.burst_run`); None for any
    other row, or where the simulation does not apply."""
    from gpuwise.estimators.serving import burst as BU

    name = row.get("length_distribution") or ""
    if not name or "benchmark_latency" not in row.get("metric", ""):
        return None
    n = max(1, round(int(row["concurrency"]) / s.layout.replicas))
    lengths = BU.dataset_lengths(kb.serving.length_distributions[name], float(row["prompt_tokens"]),
                                 float(row["output_tokens"]), n)
    return BU.burst_run(job, s.engine, s.replica, lengths)


def dataset_paced(kb, job, s, row: dict):
    """The run of a row whose client sent ``prompts`` requests drawn from a dataset at a request rate with no
    concurrency cap (``length_distribution`` and ``request_rate`` stated, no ``benchmark_latency`` in its metric:
    SGLang's bench_serving --request-rate 8 --num-prompts 300 over ShareGPT, rows DN01-DN02), simulated over the
    requests and the rate one copy gets (:func:`gpuwise.estimators.serving.burst.burst_run`, ``rate``): the
    benchmark's output over its duration, the first send to the last token. Offered beyond what the copy serves,
    such a run is a finite stream whose batch grows while the prompts arrive and drains after, which a closed loop
    at its mean concurrency does not build. The run is the mean of :data:`PLACEMENTS` rotations of the arrival order
    (its throughput averaged, as each run reports its own); its latencies the mean of theirs. None for any other
    row."""
    from gpuwise.estimators.serving import burst as BU

    name = row.get("length_distribution") or ""
    rate = row.get("request_rate", "")
    prompts = int(row.get("prompts") or 0)
    if not name or not prompts or rate in ("", "inf") or "benchmark_latency" in row.get("metric", ""):
        return None
    reps = s.layout.replicas
    n = max(1, round(prompts / reps))
    lengths = BU.dataset_lengths(kb.serving.length_distributions[name], float(row["prompt_tokens"]),
                                 float(row["output_tokens"]), n)
    runs = []
    for j in range(PLACEMENTS):  # the same requests, the sequence rotated: the longest land early, mid-run and late
        k = j * n // PLACEMENTS
        run = BU.burst_run(job, s.engine, s.replica, lengths[k:] + lengths[:k], rate=float(rate) / reps)
        if run is None:
            return None
        runs.append(run)
    m = len(runs)
    # the benchmark reports each run's output over its own duration: the mean of that ratio over the placements
    rate_out = sum(r.throughput for r in runs) / m
    return BU.BurstRun(seconds=runs[0].output_tokens / rate_out if rate_out > 0 else 0.0,
                       output_tokens=runs[0].output_tokens,
                       ttft=sum(r.ttft for r in runs) / m, tpot=sum(r.tpot for r in runs) / m,
                       most_running=max(r.most_running for r in runs), e2e=sum(r.e2e for r in runs) / m)


PLACEMENTS = 8
"""How many places in a paced run's arrivals :func:`dataset_paced` puts its longest requests, the mean taken: a
client that shuffles its dataset sends the longest answers anywhere in the run, and a run at a rate ends with its
last-sent long answer, so one fixed order (burst.GOLDEN puts the longest of 200 at the 198th send) prices the
longest tail a shuffle can give rather than its mean."""


LOOP_SHARES = (1, 0.875, 0.75, 0.625, 0.5, 0.375, 0.25, 0.1875, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125)
"""The in-flight counts, as shares of the clients, at which :func:`dataset_loop` prices a copy's steady state."""


def dataset_loop(kb, job, s, row: dict, conc: int) -> float | None:
    """Output tok/s of a closed loop of ``conc`` clients over ``prompts`` requests drawn from a dataset
    (``length_distribution``, serving.yaml ``length_distributions``; not a burst: no ``benchmark_latency`` in its
    metric, no request rate). The benchmark divides the output by the run, which ends when its last request does:
    once the last request is sent, the dataset's long outputs finish with ever fewer requests in flight, each at a
    faster pace but the copy's throughput falling, where the steady state keeps ``conc`` in flight throughout.
    Fluid, processor sharing: with b requests in flight each makes the steady state's throughput at b over b tokens
    a second (:func:`gpuwise.estimators.serving.load.point`, at the next count of :data:`LOOP_SHARES` up), the
    requests' outputs drawn as a burst's are (burst.dataset_lengths), in its arrival order, shared evenly over the
    copies. None for any other row."""
    from gpuwise.estimators import serving as SV
    from gpuwise.estimators.serving import burst as BU

    name = row.get("length_distribution") or ""
    prompts = int(row.get("prompts") or 0)
    if (not name or prompts <= conc or "benchmark_latency" in row.get("metric", "")
            or row.get("request_rate", "") not in ("", "inf")):
        return None
    reps = s.layout.replicas
    per, n = max(1, round(conc / reps)), max(1, round(prompts / reps))
    outs = [o for _, o in BU.dataset_lengths(kb.serving.length_distributions[name], float(row["prompt_tokens"]),
                                            float(row["output_tokens"]), n)]
    grid = sorted({max(1, round(per * f)) for f in LOOP_SHARES})
    pace: dict[int, float] = {}

    def each(b: int) -> float:
        k = next(g for g in grid if g >= b)
        if k not in pace:
            pace[k] = SV.point(job, s.engine, s.replica, float(k), pure_decode=False).throughput / k
        return pace[k]

    t, nxt, running = 0.0, min(per, n), [float(o) for o in outs[:per]]
    while running:
        m = min(running)
        t += m / each(len(running))
        running = [r - m for r in running if r > m]
        while len(running) < per and nxt < n:
            running.append(float(outs[nxt]))
            nxt += 1
    return sum(outs) * reps / t if t > 0 else None


def burst_run_ttft(job, s, row: dict) -> float:
    """The mean TTFT of a burst row (``benchmark_latency`` in its metric: every prompt sent at once), timed as
    its throughput is: a copy holds ``running`` sequences (its memory's limit), so the burst runs in waves of
    that many (the last one what is left); each wave's prompts get their first tokens as their chunks are
    prefilled (``burst_ttft`` of the wave's size) after the waves before it have prefilled and decoded their
    output (:func:`burst_waves`, as :func:`serving_cases` times the run). The steady state's TTFT (``got.ttft``)
    is not a burst's."""
    from gpuwise.estimators import serving as SV

    n = max(1, round(int(row["concurrency"]) / s.layout.replicas))
    running = min(n, max(s.replica.max_seqs, 1))
    sizes = wave_sizes(n, running, True)
    ran = [0.0, *itertools.accumulate(burst_waves(job, s, n, running, int(row["output_tokens"])))]
    # a prompt of wave k waits for the k waves before it, then its own wave's chunks
    return sum(size * (ran[k] + SV.burst_ttft(job, s.engine, s.replica, size)) for k, size in enumerate(sizes)) / n


def burst_waves(job, s, sent: int, running: int, output: int) -> list[float]:
    """Seconds of each wave of a burst of ``sent`` requests of the job's lengths at a copy whose memory holds
    ``running`` sequences: the scheduler admits what the pool holds, the requests of a wave (their lengths the same)
    end together, and the queued ones fill the freed pool as the next wave (:func:`wave_sizes`: full waves, then
    the rest). Each wave is its own size's prefill (the last of its prompts) and ``output`` decode steps at its own
    batch. Priced as a full wave, the last one would make a pool that leaves few requests to it read slower than a
    smaller pool cutting ``sent`` into as many waves, more evenly."""
    from gpuwise.estimators import serving as SV

    return [SV.burst_last_ttft(job, s.engine, s.replica, k) + output * SV.burst_decode_step(job, s.engine, s.replica, k)
            for k in wave_sizes(sent, running, True)]


def run_ttft(job, s, got, row: dict) -> float:
    """The mean TTFT a benchmark run reports. A closed loop of ``prompts`` requests at concurrency c starts with
    its first c requests at once (InferenceX's client: --num-prompts 10 x CONC --max-concurrency CONC
    --request-rate inf; a run of no more prompts than c is that first wave alone), so they see the first wave's
    prefill (``burst_ttft``) and the rest the steady state. Rows without ``prompts`` are steady-state figures. A
    row whose client paced its requests (``request_rate``: requests/s offered, as bench_serving's
    ``--request-rate 10`` with ``--max-concurrency``) sent no first wave at once: its prompts reach the server one
    at a time, and its first c queue only where one prefill outlasts the gap between them (:func:`paced_ttft`).

    A row with ``fixed_lengths`` (every request of the same prompt and output length: SGLang's bench_serving
    --random-range-ratio 1, vLLM's random dataset at its default range ratio 0 with --ignore-eos) stays in waves
    (:func:`wave_sizes`): the c requests of a wave start together, decode the same number of tokens and end within
    a few steps of each other, so the next c are sent together again and every wave is a burst."""
    from gpuwise.estimators import serving as SV

    prompts = int(row.get("prompts") or 0)
    conc = int(row["concurrency"])
    if not prompts:
        return got.ttft
    if row.get("request_rate", "") not in ("", "inf"):
        return paced_ttft(job, s, got, prompts, conc, float(row["request_rate"]))
    reps = s.layout.replicas

    def wave(k: int) -> float:
        """Mean TTFT of ``k`` prompts sent at once, spread over the copies: the prompts a copy's KV cache admits
        at once see the burst's prefill, the rest wait for a sequence to end, as in the steady state (its
        Little's-law wait for a slot)."""
        n = max(1, round(k / reps))
        running = min(n, max(s.replica.max_seqs, 1))
        return (running * SV.burst_ttft(job, s.engine, s.replica, running) + (n - running) * got.ttft) / n

    # a wave stays together only where the copy admits it whole; one that holds fewer runs the steady state's
    # queue for a slot (its Little's-law wait, in ``got.ttft``), and only its first wave is a burst
    fixed = row.get("fixed_lengths") == "1" and round(conc / reps) <= max(s.replica.max_seqs, 1)
    sizes = wave_sizes(prompts, conc, fixed)
    return (sum(k * wave(k) for k in sizes) + (prompts - sum(sizes)) * got.ttft) / prompts


#: Poisson send schedules the ramp of :func:`paced_ttft` is averaged over (a fixed seed: the same figure every run)
RAMP_DRAWS = 256


def paced_ttft(job, s, got, prompts: int, conc: int, rate: float, draws: int = RAMP_DRAWS) -> float:
    """The mean TTFT of a closed loop at ``conc`` whose client paces its requests (vllm bench serve / bench_serving
    ``--request-rate`` with ``--max-concurrency``, whose rate exceeds what the cap serves): its first ``conc``
    requests reach an idle server one by one, not at once, and where a prompt's prefill takes longer than the gap
    before the next they queue for the prefill of those before them (a ramp the steady state never sees); every later
    request is sent as another ends (the steady state, ``got.ttft``). The ramp, per copy: request i's prefill ends
    when its own chunks do, after the earlier ones' (the chunks of a burst, ``burst_last_ttft``: the i-th prompt's
    prefill ends where the first i + 1 prompts' does); its TTFT is that wait and its prefill, never less than the
    steady state's. The client draws the gaps between sends from a gamma distribution of shape ``burstiness`` (1 by
    default: exponential, a Poisson stream; vllm/benchmarks/serve.py ``get_request``, sglang's bench_serving
    likewise), so the ramp is averaged over ``draws`` such schedules; ``draws`` 0 takes each send at its expected time
    (i / rate), a lower bound. The ramp's prefills are priced as if no decode rode with them."""
    from gpuwise.estimators import serving as SV

    reps = s.layout.replicas
    first = min(prompts, conc)
    n = min(max(1, round(first / reps)), max(s.replica.max_seqs, 1))
    per = rate / reps
    services, before = [], 0.0
    for i in range(n):
        upto = SV.burst_last_ttft(job, s.engine, s.replica, i + 1)
        services.append(upto - before)
        before = upto
    rng = random.Random(0)
    beyond = 0.0  # what the ramp's TTFTs add to the steady state's, over every schedule
    for _ in range(max(draws, 1)):
        arrive = ended = 0.0
        for i, service in enumerate(services):
            if i:
                arrive += rng.expovariate(per) if draws else 1.0 / per
            ended = max(arrive, ended) + service
            beyond += max(ended - arrive - got.ttft, 0.0)
    return got.ttft + first * beyond / (n * max(draws, 1)) / prompts


def wave_sizes(prompts: int, conc: int, fixed: bool) -> list[int]:
    """The sizes of the waves of prompts a closed-loop run sends at once: its first ``min(prompts, conc)``, and
    where every request has the same lengths (``fixed``) each later wave of ``conc`` too (the last one what is
    left), since the requests of a wave end together and are replaced together."""
    if not fixed:
        return [min(prompts, conc)]
    full, rest = divmod(prompts, conc)
    return [conc] * full + ([rest] if rest else [])
