"""TensorRT-LLM's engine path named by the job (``workload.runtime_backend: tensorrt``; branch trtexec63, issue 22).

NVIDIA's MLPerf Inference v5.1 harness runs llama2-70b (and 405b, mixtral) through its default TRTLLM_EXECUTOR core: a
TensorRT engine built by trtllm-build, run by the C++ executor (mlcommons/inference_results_v5.1 closed/NVIDIA/code/
llama2-70b/tensorrt/__init__.py: DEFAULT_CORE_TYPE = CoreType.TRTLLM_EXECUTOR; code/llmlib/cores/
trtllm_executor_core.py). A job stating no release gets the newest release's PyTorch backend (serving.yaml
tensorrt-llm releases 1.0 / 1.1: bandwidth share 0.75, 5 us a layer, 8 us an all-reduce, 85 us a kernel of a
prompt-carrying step, the overlap loop from 0.20). Naming the engine path skips those entries (their ``backend:
pytorch``): the framework's own constants, read off TensorRT-LLM 0.9.0's engine runs (0.88, 50 us, 16 us), no host
floor on prompt steps, and no step scheduled ahead (Executor::Impl::executionLoop runs forwardSync, answers, fetches
new requests, then forwardAsync). The figures are checked on RX18 (Dell's 8 x H200, Llama 2 70B FP8, MLPerf v5.1
Interactive: tests/data/validation/serving_rate.csv).
"""

from __future__ import annotations

import csv
import importlib
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from .clirun import gpuwise as cli

ROOT = Path(__file__).resolve().parents[1]
load = importlib.import_module("gpuwise.estimators.serving.load")
step = importlib.import_module("gpuwise.estimators.serving.step")


def _rx18(extra: str = "", version: str | None = None):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge
    from gpuwise.estimators import serving as SV

    kb = knowledge.load()
    with (ROOT / "tests" / "data" / "validation" / "serving_rate.csv").open(newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == "RX18")
    opts = ";".join(filter(None, (row["workload_options"], extra, f"requests_per_s={row['request_rate']}")))
    job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                               int(row["output_tokens"]), None, int(row["tp"]), int(row["pp"]), None,
                               row["kv_precision"] or None, version, opts)
    s = SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))
    return job, s.engine, s.replica


@pytest.fixture(scope="module")
def both():
    return _rx18(), _rx18("runtime_backend=tensorrt")


def test_engine_path_constants_by_hand(both):
    (job, pt, _), (tjob, trt, _) = both
    assert pt.release == "1.1" and trt.release is None  # the newest entry is the PyTorch backend's; skipped
    # the weights stream at the engine path's share of the same memory: 0.88 (0.9.0's DLI runs) over 0.75 (NIM)
    assert trt.bw_weights / pt.bw_weights == pytest.approx(0.88 / 0.75)
    assert trt.layer_overhead - pt.layer_overhead == pytest.approx(50e-6 - 5e-6)
    assert trt.allreduce_latency == pytest.approx(16e-6) and pt.allreduce_latency == pytest.approx(8e-6)
    # a prompt-carrying step: 80 layers x (12 kernels, step.DENSE_LAYER_KERNELS, + 4 FP8 activation quantizations
    # before the q/k/v, o, gate/up and down GEMMs) at 85 us from Python on the PyTorch backend, none on the engine
    assert step.kernels_per_forward(pt) == 80 * (12 + 4)
    assert pt.eager_kernel == pytest.approx(85e-6) and trt.eager_kernel == 0.0
    assert step.consts(job, pt, both[0][2]).prefill_floor == pytest.approx(1280 * 85e-6 + 200e-6)  # 109 ms
    assert step.consts(tjob, trt, both[1][2]).prefill_floor == pytest.approx(200e-6)  # the step overhead alone


def test_engine_path_schedules_no_step_ahead(both):
    (job, pt, _), (tjob, trt, _) = both
    assert load.scheduled_ahead(job, pt) and not load.scheduled_ahead(tjob, trt)
    # a closed loop's request sent as another ends waits the scheduled step (20 ms here) only on the overlap loop
    assert load.scheduled_step(job, pt, 0.020, 5) == pytest.approx(0.020)
    assert load.scheduled_step(tjob, trt, 0.020, 5) == 0.0


def test_named_engine_path_prices_as_the_releases_before_the_pytorch_backend(both):
    """The engine path in 1.x prices as 0.16 does (the framework's constants, the only runtime then): the same
    decode step and TPOT at one batch, which the PyTorch backend's 1.1 entry does not give."""
    (_, pt, rep_pt), (tjob, trt, rep) = both
    ojob, old, orep = _rx18(version="0.16")
    for b in (10.0, 100.0):
        p, q = load.point(tjob, trt, rep, b, open_loop=True), load.point(ojob, old, orep, b, open_loop=True)
        assert p.decode_step == pytest.approx(q.decode_step) and p.tpot == pytest.approx(q.tpot)
    assert load.point(tjob, trt, rep, 100.0, open_loop=True).tpot < load.point(
        both[0][0], pt, rep_pt, 100.0, open_loop=True).tpot


def test_backend_refusals():
    from gpuwise.inputs.workload import Workload

    base = {"task": "inference", "model": "llama-3.1-8b"}
    with pytest.raises(ValidationError, match="vllm ships no runtime backend named tensorrt"):
        Workload(**base, framework="vllm", runtime_backend="tensorrt")
    with pytest.raises(ValidationError, match=r"0\.16 came before its pytorch backend \(from 0\.17\)"):
        Workload(**base, framework="tensorrt-llm", framework_version="0.16", runtime_backend="pytorch")
    with pytest.raises(ValidationError, match="leave one of them out"):
        Workload(**base, framework="tensorrt-llm", runtime_backend="tensorrt", prefill_cuda_graphs=False)
    ok = Workload(**base, framework="tensorrt-llm", framework_version="0.16", runtime_backend="tensorrt")
    assert ok.runtime_backend == "tensorrt"
    with pytest.raises(ValidationError, match="runtime_backend"):
        Workload(task="finetune", model="llama-3.1-8b", framework="tensorrt-llm", runtime_backend="tensorrt")


def test_refusal_in_chinese(tmp_path):
    (tmp_path / "r.yaml").write_text("workload: {task: inference, model: llama-3.1-8b, framework: sglang, "
                                     "runtime_backend: pytorch}\n")
    en = cli("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path)
    assert en.returncode == 2 and "sglang ships no runtime backend named pytorch (its backends: none)" in en.stderr
    zh = cli("estimate", "r.yaml", "--gpu", "h100", "--lang", "zh", cwd=tmp_path)
    assert zh.returncode == 2 and "sglang 没有名为 pytorch 的运行后端" in zh.stderr
