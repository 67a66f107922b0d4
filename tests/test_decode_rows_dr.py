"""Rows DR01-DR06 of validation/decode_independent.csv (the decodeblind6 round): AMD's batch-1 latency tables, each
a 128-token prompt and 2,048 generated tokens at TP 8, end to end. The row carries 2,048 over the published latency
(prefill included, as the table times it), so a figure copied wrong fails here; and the rows the model meets, and
the one it misses, are held where the blind scoring found them (tests/data/validation/README.md, 'Rows DR01-DR06').

Sources: ROCm/rocm-blogs blogs/artificial-intelligence/LLM_Inference/README.md (commit 11235ac2), 'Latency Benchmark
Results' (endnote MI300-074: 8 x MI300X on rocm/vllm-dev:20250112, vLLM 0.6.6; 8 x H100 SXM on TensorRT-LLM
0.16.0); ROCm/vllm docs/dev-docker/README.md at 7802e2b7 (the vLLM v0.10.0 image), 'Latency Measurements'."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

ROWS = Path(__file__).parent / "data" / "validation" / "decode_independent.csv"

# id: (model, gpu, framework, release, published end-to-end latency in seconds)
PUBLISHED = {
    "DR01": ("llama-3.1-70b", "mi300x", "vllm", "0.6.6", 19.089),
    "DR02": ("llama-3.1-405b", "mi300x", "vllm", "0.6.6", 51.740),
    "DR03": ("llama-3.1-70b", "h100-80gb-sxm", "tensorrt-llm", "0.16.0", 20.923),
    "DR04": ("llama-3.1-405b", "h100-80gb-sxm", "tensorrt-llm", "0.16.0", 58.916),
    "DR05": ("llama-3.1-70b", "mi300x", "vllm", "0.10.0", 17.188),
    "DR06": ("llama-3.1-405b", "mi300x", "vllm", "0.10.0", 48.824),
}


def _dr_rows() -> dict[str, dict]:
    with ROWS.open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"].startswith("DR")}


def test_the_round_has_its_six_rows():
    assert sorted(_dr_rows()) == sorted(PUBLISHED)


@pytest.mark.parametrize("row_id", sorted(PUBLISHED))
def test_a_row_is_its_output_over_the_published_latency(row_id):
    # e.g. DR01: Llama 3.1 70B FP8 on 8 x MI300X, 19,089 ms for 128 in + 2,048 out: 2,048 / 19.089 s = 107.29 t/s
    model, gpu, framework, release, seconds = PUBLISHED[row_id]
    row = _dr_rows()[row_id]
    assert (row["model"], row["gpu"], row["framework"], row["framework_version"]) == (model, gpu, framework, release)
    assert (row["count"], row["tp"], row["prompt_tokens"], row["output_tokens"]) == ("8", "8", "128", "2048")
    assert float(row["decode_tok_s"]) == pytest.approx(2048 / seconds, abs=0.006)
    assert "benchmark_latency" in row["metric"]  # priced end to end and offline (accuracy.py single_stream_cases)


@pytest.fixture(scope="module")
def rows(kb, accuracy):
    return {label.split()[0]: (est, got) for label, est, got in
            accuracy.single_stream_cases(kb, accuracy.DECODE_INDEPENDENT) if label.startswith("DR")}


@pytest.mark.parametrize(("row", "within"), [("DR01", 0.10), ("DR02", 0.10), ("DR05", 0.15), ("DR06", 0.10)])
def test_rocm_vllm_tp8_rows_stay_met(rows, row, within):
    """vLLM's ROCm build at TP 8 on MI300X: blind -3.4% (DR01), +1.0% (DR02), -13.0% (DR05), -4.7% (DR06)."""
    est, got = rows[row]
    assert abs(est / got - 1) <= within, (row, est, got)


def test_tensorrt_llm_016_tp8_70b_is_a_known_fast_miss(rows):
    """DR03 (TensorRT-LLM 0.16.0, 8 x H100, 70B) reads 1.60x fast blind, 10.2 ms a token measured against 6.4 priced:
    ~48 us a layer beyond gpuwise's 5 us of fixed time and two 8 us all-reduces, where DR04 (405B, 126 layers) reads
    1.16x. Held in the direction measured (validation README: the engine path's CUDA graphs are off unless asked, and
    no measured host time per TensorRT enqueue was found to price it), so that a change that moves it is seen."""
    est, got = rows["DR03"]
    assert 1.4 <= est / got <= 1.8, ("DR03", est, got)
    est, got = rows["DR04"]
    assert 1.0 <= est / got <= 1.3, ("DR04", est, got)
