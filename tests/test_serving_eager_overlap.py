"""TensorRT-LLM's eager mixed steps under its overlap scheduler (branch trtllmeager55, issue 22 items 1 and 6).

From 1.0 the PyTorch backend runs a step that carries a prompt outside CUDA graphs (serving.yaml tensorrt-llm
release 1.0: piecewise graphs off by default), so the step lasts at least its launches, priced as
``prefill_eager_kernel_us`` a counted kernel. PyTorch launches asynchronously, and the overlap loop
(PyExecutor._executor_loop_overlap, tensorrt_llm/_torch/pyexecutor/py_executor.py; on by default from pull request
#4174, taken from 0.20: serving.yaml ``scheduled_ahead``) enqueues step n's forward, then waits on step n-1's sampler
event (_update_requests), samples n, answers n-1 and schedules and launches n+1. So the host launches a step while
the GPU runs the one before it: a mixed step after a decode-only step (a CUDA graph replayed) outlasts that step's
GPU work only by max(its GPU work, its launches - the decode step's GPU time); after another eager step the GPU
waits on the host and the step lasts its whole launch time. The checks redo RT21's terms by hand (HPE ProLiant XD685,
8 x B200, Llama 2 70B NVFP4, MLPerf Inference v6.0 Interactive: tests/data/validation/serving_rate.csv).
"""

from __future__ import annotations

import csv
import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
load = importlib.import_module("gpuwise.estimators.serving.load")
step = importlib.import_module("gpuwise.estimators.serving.step")


@pytest.fixture(scope="module")
def rt21():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge
    from gpuwise.estimators import serving as SV

    kb = knowledge.load()
    with (ROOT / "tests" / "data" / "validation" / "serving_rate.csv").open(newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == "RT21")
    opts = ";".join(filter(None, (row["workload_options"], f"requests_per_s={row['request_rate']}")))
    job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                               int(row["output_tokens"]), None, int(row["tp"]), int(row["pp"]), None,
                               row["kv_precision"] or None, row["framework_version"] or None, opts)
    s = SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))
    return job, s.engine, s.replica


def test_launched_ahead_by_hand():
    class C:  # the two figures of a step's own host time launched_ahead reads (step._host)
        step_overhead, seq_overhead, dpa = 200e-6, 0.0, 1

    # a decode step of 20 ms (0.2 ms of it the host's), a mixed step whose GPU work is 25 ms and launches 80 ms
    pure, gpu_joined, floor = 0.020, 0.025, 0.080
    # every mixed step after a decode step: the launches overlap the decode step's 19.8 ms of GPU work
    assert load.launched_ahead(C, 1.0, pure, gpu_joined, floor, 0.0) == pytest.approx(0.080 - 0.0198)
    # every step mixed: the GPU waits on the host, the whole launch time
    assert load.launched_ahead(C, 1.0, pure, gpu_joined, floor, 1.0) == pytest.approx(0.080)
    # a quarter of the steps mixed: a mixed step follows another at that chance
    assert load.launched_ahead(C, 1.0, pure, gpu_joined, floor, 0.25) == pytest.approx(
        0.75 * 0.0602 + 0.25 * 0.080)
    # GPU work longer than the launches less the decode step: the GPU's
    assert load.launched_ahead(C, 1.0, pure, 0.070, floor, 0.0) == pytest.approx(0.070)


def test_rt21_mixed_step_by_hand(rt21):
    job, eng, rep = rt21
    c = step.consts(job, eng, rep)
    # Llama 2 70B: 80 layers x 12 kernels (step.DENSE_LAYER_KERNELS) at 85 us (serving.yaml tensorrt-llm 1.1, the
    # newest release: the row states none) and the 0.2 ms step overhead
    assert step.kernels_per_forward(eng) == 960
    assert eng.eager_kernel == pytest.approx(85e-6)
    assert c.prefill_floor == pytest.approx(960 * 85e-6 + 200e-6)  # 81.8 ms
    assert load.scheduled_ahead(job, eng)
    prompt, output = 222, 274
    assert eng.chunk == 768  # the config's max_num_tokens
    for b in (128.0, 275.0):
        p = load.point(job, eng, rep, b, open_loop=True)
        # a step decodes a request and the others of the b in service past their first token (load._open)
        d = 1 + (b - 1) * output * p.tpot / (p.ttft + output * p.tpot)
        pure = step.per_token(c, d, prompt + output / 2)
        a = b / output  # prompts arriving a step: one chunk each (222 tokens fit the budget's room)
        room = 768 - b
        k = min(max(a, 1.0), room / prompt)
        gpu_joined = step.per_token(c, d, prompt + output / 2, k * prompt, prompt / 2)
        share = min(a / k, 1.0)
        gpu_decode = pure - (200e-6 + 3e-6 * d)  # the decode step less its own host time (step overhead, sequences)
        joined = (1 - share) * max(gpu_joined, c.prefill_floor - gpu_decode) + share * c.prefill_floor
        assert gpu_joined < c.prefill_floor  # the launches, not the GPU, set the mixed step
        assert p.tpot == pytest.approx(pure + share * (joined - pure), rel=1e-6)
    # at the run's ~275 sequences a GPU (Little's law on the log) a prompt arrives every step, so every step is a
    # mixed one after another and the TPOT is the whole launch time, as before the overlap was priced
    assert load.point(job, eng, rep, 275.0, open_loop=True).tpot == pytest.approx(c.prefill_floor, rel=1e-6)


def test_no_overlap_before_the_overlap_scheduler(rt21):
    """0.19, the PyTorch backend with its prompt steps stated eager but before the overlap loop was on by default:
    the mixed step lasts its whole launch time whatever the step before it."""
    job = rt21[0]
    from gpuwise import knowledge
    from gpuwise.estimators import serving as SV
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    kb = knowledge.load()
    w = job.w.model_dump(exclude_none=True)
    w.update(framework_version="0.19", prefill_cuda_graphs=False)
    old = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(old, kb.gpus["b200"], 8)
    assert not load.scheduled_ahead(old, s.engine)
    c = step.consts(old, s.engine, s.replica)
    b, prompt, output = 128.0, 222, 274
    p = load.point(old, s.engine, s.replica, b, open_loop=True)
    d = 1 + (b - 1) * output * p.tpot / (p.ttft + output * p.tpot)  # decoding in a step (load._open)
    pure = step.per_token(c, d, prompt + output / 2)
    gpu_joined = step.per_token(c, d, prompt + output / 2, prompt, prompt / 2)
    joined = max(gpu_joined, c.prefill_floor)
    assert p.tpot == pytest.approx(pure + b / output * (joined - pure), rel=1e-6)


def test_a_paced_run_steps_the_same_way(rt21):
    """burst.burst_run steps a paced run one step at a time: where the release schedules ahead, a mixed step after a
    decode-only step lasts max(its GPU work, its launches - that step's GPU time), so the run is shorter than the same
    release's run without the overlap (0.19, eager prompt steps stated, the same constants otherwise)."""
    job, eng, rep = rt21
    from gpuwise import knowledge
    from gpuwise.estimators import serving as SV
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    burst = importlib.import_module("gpuwise.estimators.serving.burst")
    kb = knowledge.load()
    w = job.w.model_dump(exclude_none=True)
    w.update(framework_version="0.19", prefill_cuda_graphs=False)
    old = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(old, kb.gpus["b200"], 8)
    assert s.engine.eager_kernel == eng.eager_kernel and s.engine.bw_weights == eng.bw_weights
    lengths = [(222, 274)] * 60
    new_run = burst.burst_run(job, eng, rep, lengths, rate=10.0)
    old_run = burst.burst_run(old, s.engine, s.replica, lengths, rate=10.0)
    # at 10 requests a second most steps are decode-only, so most mixed steps follow one and hide part of 81.8 ms
    assert new_run.seconds < old_run.seconds
    assert new_run.tpot < old_run.tpot
