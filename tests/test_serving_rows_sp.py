"""Rows SP01-SP14 and RP01-RP03 (serveblind20): serving at load and at a stated rate from pages and logs no row cited.

- SP01-SP04: Lambda's model pages for GLM-4.7-Flash (1 x B200, 1 x H100), Qwen3.5-397B-A17B (8 x B200) and GLM-5
  (8 x B200), 'TL;DR: token throughput (SGLang)': vllm bench serve, random 8192 in / 1024 out at --max-concurrency 32.
  Each table prints generation and total tok/s; with every request at 8,192 / 1,024 the total is the generation x 9.
- SP05 / RP01: MLPerf Inference v6.1 DeepSeek-R1 on NVIDIA's 8 x B300 (intel-ai-tce/inference_results_v6.1 at
  5174fca8), Offline and Server mlperf_log_summary.txt: tokens/s over samples/s is the output length a sample.
- SP06-SP14 / RP02-RP03: GPUStack's performance-lab pages for Qwen3.5-35B-A3B (one H200, at 3d853b45) and Qwen3.5-9B
  (one H100, at 6ceec5b8), guidellm through GPUStack's runner, printed in vllm bench serve's format. guidellm's
  duration is not the one its rates divide by (281,412 tokens / 70.72 s is 3,979, not 4,347.55), but its total and
  output rates share one: total tok/s = output tok/s x (input + output tokens) / output tokens, checked per row.

A figure copied wrong fails here, not in the accuracy report; the last tests check that the harness estimates every
row, each within the band its blind reading (validation README, 'Rows SP01-SP14') sets."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
V61 = ("https://github.com/intel-ai-tce/inference_results_v6.1/blob/5174fca85775b97127da8e3ff07f1bb776880fc4/closed/"
       "NVIDIA/results/B300-SXM-270GBx8_TRT/deepseek-r1/")
GPS35 = ("https://github.com/gpustack/gpustack/blob/3d853b45af4740d38aa5aec84caced7e24a4509e/docs/performance-lab/"
         "qwen3.5-35b-a3b/h200.md")
GPS9 = ("https://github.com/gpustack/gpustack/blob/6ceec5b8486b263beb6be4533050054e047d3254/docs/performance-lab/"
        "qwen3.5-9b/h100.md")

# Lambda's tables: row -> (page, gpu, count, generation tok/s, total tok/s, mean TTFT ms, prompts)
LAMBDA = {
    "SP01": ("https://lambda.ai/inference-models/zai-org/glm-4.7-flash", "b200", 1, 902.74, 8124.65, 6170.78, 256),
    "SP02": ("https://lambda.ai/inference-models/zai-org/glm-4.7-flash", "h100-80gb-sxm", 1, 660.67, 5946.05,
             20087.41, 256),
    "SP03": ("https://lambda.ai/inference-models/qwen/qwen3.5-397b-a17b", "b200", 8, 1232, 11092, 1825, 512),
    "SP04": ("https://lambda.ai/inference-models/zai-org/glm-5", "b200", 8, 700, 6300, 1662, 256),
}
# GPUStack's printouts: row -> (page, framework, precision, requests, input tokens, output tokens, output tok/s,
# total tok/s, in flight)
GPUSTACK = {
    "SP06": (GPS35, "vllm", "bf16", 1000, 342058, 281412, 4347.55, 9632.01, 512),
    "SP07": (GPS35, "sglang", "bf16", 1000, 342058, 281412, 2254.86, 4995.66, 512),
    "SP08": (GPS35, "vllm", "fp8", 1000, 342058, 281412, 4487.88, 9942.93, 512),
    "SP09": (GPS35, "vllm", "bf16", 1000, 1033932, 128000, 4178.94, 37934.72, 512),
    "SP10": (GPS35, "vllm", "bf16", 100, 3200993, 10000, 140.12, 44993.20, 100),
    "SP11": (GPS35, "vllm", "bf16", 200, 201982, 400000, 6947.30, 10455.38, 200),
    "SP12": (GPS9, "vllm", "bf16", 1000, 342058, 281412, 5202.94, 11527.14, 512),
    "SP13": (GPS9, "sglang", "bf16", 1000, 342058, 281412, 2933.60, 6499.41, 512),
    "SP14": (GPS9, "vllm", "bf16", 1000, 1033932, 128000, 3285.25, 29822.16, 512),
    "RP02": (GPS9, "vllm", "bf16", 100, 3200993, 10000, 100.96, 32416.84, None),
    "RP03": (GPS9, "vllm", "bf16", 200, 201982, 400000, 1975.75, 2973.42, None),
}
# MLPerf v6.1 logs: row -> (scenario, tokens/s, samples/s as the row takes it)
MLPERF = {"SP05": ("Offline", 70132.3, 18.403), "RP01": ("Server", 59867.76, 15.71)}
# blind ratios est / published (README, 'Rows SP01-SP14'): SP 0.54 (SP10) to 2.16 (SP08); RP 0.79-0.93
BAND_SP = (0.5, 2.3)
BAND_RP = (0.7, 1.05)


def _rows(name: str, prefix: str) -> dict[str, dict]:
    with (DATA / name).open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"].startswith(prefix)}


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows("serving_independent.csv", "SP")) == [f"SP{i:02d}" for i in range(1, 15)]
    assert sorted(_rows("serving_rate.csv", "RP")) == ["RP01", "RP02", "RP03"]


@pytest.mark.parametrize("row_id", sorted(LAMBDA))
def test_a_lambda_row_keeps_its_tables_figures(row_id):
    row = _rows("serving_independent.csv", "SP")[row_id]
    page, gpu, count, gen, total, ttft, prompts = LAMBDA[row_id]
    assert (row["source"], row["gpu"], row["count"], row["framework"]) == (page, gpu, str(count), "sglang")
    assert (row["prompt_tokens"], row["output_tokens"], row["concurrency"], row["prompts"], row["fixed_lengths"]) == (
        "8192", "1024", "32", str(prompts), "1")
    assert float(row["output_tokens_per_s"]) == gen and float(row["ttft_ms"]) == ttft
    # every request at its stated lengths: the table's total is the generation x (8,192 + 1,024) / 1,024
    assert gen * 9 == pytest.approx(total, rel=5e-4)


@pytest.mark.parametrize("row_id", sorted(GPUSTACK))
def test_a_gpustack_row_keeps_its_printouts_figures(row_id):
    name = "serving_rate.csv" if row_id.startswith("RP") else "serving_independent.csv"
    row = _rows(name, row_id[:2])[row_id]
    page, fw, precision, n, tin, tout, out, total, flight = GPUSTACK[row_id]
    assert (row["source"], row["framework"], row["precision"], row["prompts"]) == (page, fw, precision, str(n))
    assert row["framework_version"] == ("0.5.9" if fw == "sglang" else "0.17.1")
    assert float(row["output_tokens_per_s"]) == out
    # the row's lengths are the printout's token counts over its requests
    assert int(row["prompt_tokens"]) == round(tin / n) and int(row["output_tokens"]) == round(tout / n)
    if flight is not None:
        assert int(row["concurrency"]) == flight
    # guidellm's total and output rates divide by one duration
    assert out * (tin + tout) / tout == pytest.approx(total, rel=1e-4)


@pytest.mark.parametrize("row_id", sorted(MLPERF))
def test_an_mlperf_row_keeps_its_logs_rate_and_output_per_sample(row_id):
    name = "serving_rate.csv" if row_id.startswith("RP") else "serving_independent.csv"
    row = _rows(name, row_id[:2])[row_id]
    scenario, tokens, samples = MLPERF[row_id]
    assert row["source"] == f"{V61}{scenario}/performance/run_1/mlperf_log_summary.txt"
    assert (row["model"], row["precision"], row["gpu"], row["count"], row["tp"], row["ep"]) == (
        "deepseek-r1", "fp4", "b300", "8", "1", "8")
    assert float(row["output_tokens_per_s"]) == tokens
    assert int(row["output_tokens"]) == round(tokens / samples) == 3811
    assert row["prompt_tokens"] == "804"  # MLPerf's DeepSeek-R1 set, 3,527,036 prompt tokens over 4,388 samples
    if scenario == "Server":
        assert (row["request_rate"], row["served_requests_per_s"]) == ("16.16", "15.71")


def test_the_harness_estimates_every_sp_row_within_the_blind_band():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    cases = {c[0].split()[0]: c for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT) if c[0].startswith("SP")}
    assert sorted(cases) == [f"SP{i:02d}" for i in range(1, 15)]  # none refused, none without a figure
    for row_id, (label, est, published) in cases.items():
        assert published == _published(row_id), label
        assert BAND_SP[0] <= est / published <= BAND_SP[1], label


def test_the_harness_estimates_every_rp_row_within_the_blind_band():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    cases = {c[0].split()[0]: c for c in accuracy.rate_cases(kb) if c[0].startswith("RP")}
    assert sorted(cases) == ["RP01", "RP02", "RP03"]
    for row_id, (label, est, published) in cases.items():
        assert published == _published(row_id), label
        assert BAND_RP[0] <= est / published <= BAND_RP[1], label


def _published(row_id: str) -> float:
    """The source's output (generation) tok/s of any row of the round."""
    if row_id in LAMBDA:
        return LAMBDA[row_id][3]
    if row_id in GPUSTACK:
        return GPUSTACK[row_id][6]
    return MLPERF[row_id][1]
