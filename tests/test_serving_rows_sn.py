"""Rows SN01-SN17 (serveblind19): serving at maximum load from parties other than the engine's authors.

SN01-SN16: shaamil101-etched/trtllm-benchmarks results/result_<ISL>_<OSL>_<requests>.txt at aeec9f29, an independent
user's TensorRT-LLM 0.16.0 sweep of Llama-3.1-70B-Instruct (FP8 weights, FP8 KV cache) at TP 8 on 8 x H100 80GB,
trtllm-bench throughput (all requests queued at once), the 16 cells with ISL and OSL each in {128, 512, 2048, 8192}.
SN17: Google Cloud's AI-Hypercomputer/gpu-recipes A3 Ultra TensorRT-LLM README at d77b3d4c, Llama-3.1-405B FP8 / FP8
KV at TP 8 on 8 x H200, 128/128 over 30,000 requests.

Each log prints 'Token Throughput (tokens/sec)' with its 'Request Throughput' and 'Total Latency'; the row keeps the
first, and the figures must agree: output tok/s = requests x OSL / total latency = request throughput x OSL. A figure
copied wrong fails here; the last test checks that the harness estimates every row within the band its reading (the
validation README, 'Rows SN01-SN17') sets."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
SWEEP = "https://github.com/shaamil101-etched/trtllm-benchmarks/blob/aeec9f291501c26fe34b773c7a157f3bb1fbce24/results/"
GOOGLE = ("https://github.com/AI-Hypercomputer/gpu-recipes/blob/d77b3d4c85da0a0d05cfe302504674f6080c2451/"
          "inference/a3ultra/single-host-serving/trtllm/README.md")

# row -> (ISL, OSL, requests, Token Throughput tokens/s, Request Throughput req/s, Total Latency ms), as the logs print
CELLS = {
    "SN01": (128, 128, 30000, 14389.7989, 112.4203, 266855.7100),
    "SN02": (128, 512, 15000, 19327.0773, 37.7482, 397369.9631),
    "SN03": (128, 2048, 3000, 16901.8790, 8.2529, 363509.8785),
    "SN04": (128, 8192, 750, 7944.3036, 0.9698, 773384.3421),
    "SN05": (512, 128, 15000, 6393.6937, 49.9507, 300295.9008),
    "SN06": (512, 512, 7500, 13240.2682, 25.8599, 290024.3372),
    "SN07": (512, 2048, 2000, 14769.9081, 7.2119, 277320.6148),
    "SN08": (512, 8192, 500, 7689.5655, 0.9387, 532669.8877),
    "SN09": (2048, 128, 3000, 1899.9652, 14.8435, 202108.9671),
    "SN10": (2048, 512, 2000, 5476.9319, 10.6971, 186965.9893),
    "SN11": (2048, 2048, 1500, 8686.7633, 4.2416, 353641.4981),
    "SN12": (2048, 8192, 400, 5877.8341, 0.7175, 557484.2653),
    "SN13": (8192, 128, 750, 476.9840, 3.7264, 201264.5916),
    "SN14": (8192, 512, 500, 1565.9897, 3.0586, 163474.8891),
    "SN15": (8192, 2048, 400, 3259.0559, 1.5913, 251361.1344),
    "SN16": (8192, 8192, 150, 3565.5170, 0.4352, 344634.4570),
    "SN17": (128, 128, 30000, 3914.4509, 30.5816, 980980.5121),
}
# est / published after branch serveblind19's chunk packing (README): 0.88-1.47; blind 0.90-1.55
BAND = (0.8, 1.6)


def _rows() -> dict[str, dict]:
    with (DATA / "serving_independent.csv").open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"].startswith("SN")}


def test_the_rule_gives_each_cell_once():
    """The sweep's 16 cells of {128, 512, 2048, 8192}^2 and Google's one log, no cell twice."""
    assert sorted(_rows()) == sorted(CELLS)
    sweep = {(i, o) for r, (i, o, *_) in CELLS.items() if r != "SN17"}
    assert sweep == {(i, o) for i in (128, 512, 2048, 8192) for o in (128, 512, 2048, 8192)}


@pytest.mark.parametrize("row_id", sorted(CELLS))
def test_a_row_keeps_the_logs_figure_and_conditions(row_id):
    row = _rows()[row_id]
    isl, osl, n, tok, req, latency_ms = CELLS[row_id]
    if row_id == "SN17":
        assert row["source"] == GOOGLE
        assert (row["model"], row["gpu"], row["framework_version"]) == ("llama-3.1-405b", "h200-141gb-sxm", "0.17.0")
        assert row["workload_options"] == "max_batch_size=4096;prefill_chunk_tokens=8192;memory_fraction=0.95"
    else:
        assert row["source"] == f"{SWEEP}result_{isl}_{osl}_{n}.txt"
        assert (row["model"], row["gpu"], row["framework_version"]) == ("llama-3.1-70b", "h100-80gb-sxm", "0.16.0")
        assert row["workload_options"] == "max_batch_size=2048;prefill_chunk_tokens=8192;memory_fraction=0.9"
    assert (row["precision"], row["kv_precision"], row["count"], row["framework"], row["tp"], row["pp"]) == (
        "fp8", "fp8", "8", "tensorrt-llm", "8", "1")
    assert (row["prompt_tokens"], row["output_tokens"], row["concurrency"], row["prompts"], row["fixed_lengths"]) == (
        str(isl), str(osl), "max", str(n), "1")
    assert float(row["output_tokens_per_s"]) == tok
    # the log's own figures agree: output tokens over the run's latency, and requests/s x OSL
    assert n * osl / (latency_ms / 1e3) == pytest.approx(tok, rel=1e-6)
    assert req * osl == pytest.approx(tok, abs=osl * 5e-5)  # requests/s printed to four decimals


def test_the_harness_estimates_every_row_within_the_band():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    cases = {c[0].split()[0]: c for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT) if c[0].startswith("SN")}
    assert sorted(cases) == sorted(CELLS)  # none refused, none without a figure
    for row_id, (label, est, published) in cases.items():
        assert published == CELLS[row_id][3], label
        assert BAND[0] <= est / published <= BAND[1], label


def test_a_prompt_past_the_budget_shares_its_step():
    """SN13, 8,192-token prompts at max_num_tokens 8,192: TensorRT-LLM's FIRST_COME_FIRST_SERVED chunking fills each
    step's budget with the next prompt's chunk, so the copy prefills at most ~8,192 prompt tokens a step and serves
    at most (its prefill rate) / 8,192 requests a second. The log: 750 requests x 8,192 in 201.3 s, 30.5k prompt
    tokens/s. gpuwise's step prices 8,192 prompt tokens at about 30k/s, so the closed loop cannot pass 128 x 30k /
    8,192 = ~470 output tok/s; before the packing it read 739 (+55%), a step carrying one 4,096-token chunk while the
    loop needed two."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    est = {c[0].split()[0]: c[1] for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT) if c[0].startswith("SN1")}
    assert 128 * 30000 / 8192 * 0.85 <= est["SN13"] <= 128 * 32400 / 8192
