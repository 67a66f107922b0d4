"""Rows TR01-TR16 of validation/serving_independent.csv (the serveblind6 round): TensorRT-LLM's performance overview
at maximum load, its 0.20.0 edition (nvidia.github.io/TensorRT-LLM/0.20.0/performance/perf-overview.html: total
output tokens/s of the system) and its release 1.2 edition (nvidia.github.io/TensorRT-LLM/1.2.0/developer-guide/
perf-overview.html: output tokens/s per GPU). Each figure below is the published one, read off its table; the blind
scores and the before -> after figures are in the validation README ('Rows TR01-TR16')."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

ROWS = Path(__file__).parent / "data" / "validation" / "serving_independent.csv"


def _rows() -> dict[str, dict]:
    with ROWS.open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"].startswith("TR")}


def test_the_round_has_its_sixteen_rows():
    assert sorted(_rows()) == [f"TR{i:02d}" for i in range(1, 17)]


def test_the_0_20_rows_are_the_tables_totals():
    """The 0.20.0 edition prints the system's total output tokens/s, e.g. 'Llama 3.3 70B FP4', B200, TP 4, ISL/OSL
    1000/1000: 16,413.04; 'Llama 4 Maverick FP8', H200, TP 8, 500/2000: 21,117.34; its request counts are the
    edition's '$num_requests' table (3,000 at 1000/1000, 500/2000, 2048/128; 1,500 at 5000/500, 1000/2000,
    128/4096; 1,000 at 20000/2000)."""
    rows = _rows()
    printed = {"TR01": 16413.04, "TR02": 5182.96, "TR03": 9031.21, "TR04": 11018.81, "TR05": 903.66,
               "TR06": 7582.97, "TR07": 21117.34, "TR08": 11163.12, "TR09": 5128.60, "TR10": 3832.38}
    requests = {(1000, 1000): 3000, (500, 2000): 3000, (2048, 128): 3000, (5000, 500): 1500, (1000, 2000): 1500,
                (128, 4096): 1500, (20000, 2000): 1000}
    for rid, total in printed.items():
        r = rows[rid]
        assert float(r["output_tokens_per_s"]) == total, rid
        assert int(r["prompts"]) == requests[(int(r["prompt_tokens"]), int(r["output_tokens"]))], rid
        assert r["framework_version"] == "0.20" and r["tp"] == r["count"], rid


def test_the_1_2_rows_are_per_gpu_figures_times_the_gpus():
    """The release 1.2 edition prints output tokens/s per GPU: DeepSeek R1 0528 B300 DEP4 1024/1024 6,046 (x 4 =
    24,184); GPT-OSS 120B B300 TP1 1024/1024 34,737; Qwen3 235B A22B H200 DEP4 1024/8192 1,677 (x 4 = 6,708) and
    B300 DEP4 4,938 (x 4 = 19,752); LLaMA v3.3 70B H200 TP2 1024/8192 1,995 (x 2 = 3,990); Qwen3 30B A3B B300 TP1
    8192/1024 6,374."""
    rows = _rows()
    per_gpu = {"TR11": 6046, "TR12": 34737, "TR13": 1677, "TR14": 4938, "TR15": 1995, "TR16": 6374}
    for rid, each in per_gpu.items():
        r = rows[rid]
        assert float(r["output_tokens_per_s"]) == each * int(r["count"]), rid
        assert f"{each:,} tok/s per GPU" in r["notes"], rid


def test_a_stated_eager_prefill_on_a_pre_1_0_release_takes_the_pytorch_backends_figure(kb):
    """TensorRT-LLM before 1.0 is priced as its compiled engine (no host time per kernel); its PyTorch backend of
    0.19-0.21, which the 0.20.0 overview ran (use_cuda_graph: graphs for generation-only batches, llmapi/llm_args.py
    and _torch/pyexecutor/config.py of those releases), launches a forward that carries a prompt from Python. A job
    that states so (prefill_cuda_graphs: false) takes the 85 us a kernel of serving.yaml's 1.0 release entry; one
    that states nothing keeps the engine's 0, and one that states graphs 0."""
    import importlib

    E = importlib.import_module("gpuwise.estimators.serving.engine")  # the package exports a function of that name
    fw = next(f for f in kb.serving.frameworks if f.id == "tensorrt-llm")
    rel = E.release(fw, "0.20", "nvidia")
    assert E.eager_kernel_seconds(fw, rel, False) == pytest.approx(85e-6)
    assert E.eager_kernel_seconds(fw, rel, None) == 0.0
    assert E.eager_kernel_seconds(fw, rel, True) == 0.0
    assert E.eager_kernel_seconds(fw, E.release(fw, "1.1", "nvidia"), None) == pytest.approx(85e-6)


def test_tr07_reads_the_eager_prompt_steps(kb, accuracy):
    """Llama 4 Maverick FP8 TP 8 on 8 x H200, 500/2000, 3,000 requests (21,117.34 tok/s): read as the compiled engine
    the estimate is 39,914 tok/s (+89%, blind); with the run's eager prompt iterations it is at least 15% lower, and
    within 2x of the table."""
    from gpuwise.estimators import serving as SV

    def est(options: str) -> float:
        job = accuracy.serving_job(kb, "llama-4-maverick-17b-128e", "fp8", "tensorrt-llm", 500, 2000, 3000, 8, 1,
                                   None, None, "0.20", options, offline=True)
        return SV.choose(job, kb.gpus["h200-141gb-sxm"], 8).load.throughput

    engine_path, eager = est(""), est("prefill_cuda_graphs=false")
    assert eager < 0.85 * engine_path
    assert 21117.34 / 2 < eager < 21117.34 * 2
