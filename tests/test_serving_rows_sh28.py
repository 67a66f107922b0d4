"""Rows SH37.. (serveblind28): serving at a stated concurrency from sources no row cited, scored blind.

SH37-SH48: llm-d/llm-d docs/accelerators/amd-mi355x-perf.md (pull request #1233): Llama-3.3-70B-Instruct-FP8-KV at
TP 8 on 8 x MI355X, vLLM 0.15.1 (ghcr.io/llm-d/llm-d-rocm:v0.6.0), vllm bench serve random at --max-concurrency c.
SH49-SH50: AMD's ROCm blog 'Benchmarking Reasoning Models' (Qwen3-8B BF16 on one MI300X, vLLM 0.9.1, 128 prompts at
once). SH51: xinyuwei-david/david-share's Azure MI300X handbook (Qwen3-235B-A22B BF16 at TP 8, vLLM 0.8.3, evalscope
at 256 in flight). The figures below are copied from each source; the checks redo the arithmetic the rows rest on
(validation README, 'Rows SH37-SH51') and that the harness estimates every row inside the band the blind reading set.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from .validation_rows import rows_in

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
LLMD = "https://github.com/llm-d/llm-d/blob/a974157bb1230897f6e9e629b4419cb71f952b2c/docs/accelerators/amd-mi355x-perf.md"
# row -> (input, output, concurrency, output tok/s, total tok/s, mean TTFT ms, median TPOT / ITL ms or None);
# SH38-SH40's input is their cell's Total column's (branch conc2x65), not the table header's 1024
HEADER_INPUT = {"SH38": 1024, "SH39": 1024, "SH40": 1024}
LLMD_CELLS = {
    "SH37": (1024, 256, 16, 1320.8, 6598.8, 343, 10.3), "SH38": (4096, 256, 64, 1519.2, 25820.6, 2440, 37.3),
    "SH39": (2048, 256, 128, 2985.0, 26853.0, 1505, 39.2), "SH40": (2048, 256, 256, 3347.9, 30118.4, 2296, 72.5),
    "SH41": (4096, 4096, 4, 353.6, 707.1, 369, 11.3), "SH42": (4096, 4096, 16, 1233.0, 2466, 871, 12.8),
    "SH43": (4096, 4096, 32, 2230.0, 4459, 1204, 14.1), "SH44": (16384, 2048, 4, 246.8, 2221, 1770, 21.0),
    "SH45": (16384, 2048, 16, 717.1, 6454, 3100, 21.2), "SH46": (16384, 2048, 32, 1112.6, 10013, 4440, 27.7),
    "SH47": (32768, 128, 4, 48.8, 12533, 4290, None), "SH48": (65536, 128, 2, 15.5, 7959, 9090, None),
}
# the ROCm blog's summary table: (tokens generated, token throughput = input + output, request throughput)
BLOG = {"SH49": (113621, 7997.95, 7.87), "SH50": (131072, 7243.86, 6.4)}
# ratios est / published, blind (README, 'Rows SH37-SH51'): SH37-SH48 1.51-2.89, SH49-SH50 1.13-1.21, SH51 2.49;
# since branch rocmattn56 priced vLLM 0.15.1's ROCm decode attention (serving.yaml vllm rocm_unified_attention_walk):
# SH37-SH40 (1k/256) 1.34-2.78, SH41-SH48 0.68-1.18; SH38-SH40 with their Total column's prompts (conc2x65)
# 0.96-1.19
BAND = {"SH37": (1.3, 1.4), "SH38": (0.9, 1.25), "SH41": (0.65, 1.25), "SH49": (1.05, 1.3), "SH51": (2.2, 2.8)}


def _band(row_id: str) -> tuple[float, float]:
    n = int(row_id[2:])
    return (BAND["SH37"] if n == 37 else BAND["SH38"] if n <= 40 else BAND["SH41"] if n <= 48
            else BAND["SH49"] if n <= 50 else BAND["SH51"])


def _rows() -> dict[str, dict]:
    return rows_in("serving_independent.csv", "SH", 37, 51)  # SH52 on: sparkblind57's (test_serving_rows_sh52.py)


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows()) == sorted([*LLMD_CELLS, *BLOG, "SH51"])


@pytest.mark.parametrize("row_id", sorted(LLMD_CELLS))
def test_an_llmd_row_is_its_table_cell(row_id):
    row = _rows()[row_id]
    prompt, output, conc, out_tps, total_tps, ttft, tpot = LLMD_CELLS[row_id]
    assert row["source"] == LLMD
    stated = (row["model"], row["precision"], row["gpu"], row["count"], row["framework"], row["framework_version"],
              row["tp"], row["kv_precision"])
    assert stated == ("llama-3.1-70b", "fp8", "mi355x", "8", "vllm", "0.15.1", "8", "")  # no --kv-cache-dtype
    assert (int(row["prompt_tokens"]), int(row["output_tokens"]), int(row["concurrency"])) == (prompt, output, conc)
    assert float(row["output_tokens_per_s"]) == out_tps and float(row["ttft_ms"]) == ttft
    assert row["tpot_ms"] == ""  # the page gives TPOT / ITL as a median only
    assert row["workload_options"] == "memory_fraction=0.85"  # the page's --gpu-memory-utilization
    # every cell's Total column is output x (in + out) / out within 0.1%: SH38-SH40's input is read off it
    assert total_tps / out_tps == pytest.approx((prompt + output) / output, rel=0.001)
    if row_id in HEADER_INPUT:
        # the table's header (1024 in) does not give their Total: 25,820.6 / 1,519.2 = 17.0 = (4,096 + 256) / 256,
        # 26,853.0 / 2,985.0 = 9.0 = (2,048 + 256) / 256
        assert total_tps / out_tps > 1.7 * (HEADER_INPUT[row_id] + output) / output
    if tpot is not None and prompt <= 4096 and output == 256:
        # and the latencies fit 256 outputs a request: c requests each lasting TTFT + 255 x TPOT give the
        # published output rate within 11% (Little's law), where 1,024 in over 64 / 128 outputs (the other
        # way to reach the Total's ratio) misses by 18-78%
        # (the request time the latencies give over the one the rate gives: +5 to +11% here)
        little_s = conc * output / out_tps
        assert (ttft + (output - 1) * tpot) / 1e3 / little_s == pytest.approx(1.0, abs=0.11)
        if row_id in HEADER_INPUT:
            short = HEADER_INPUT[row_id] * output // prompt  # 64 at SH38, 128 at SH39 / SH40
            little_short_s = conc * short / out_tps
            assert (ttft + (short - 1) * tpot) / 1e3 / little_short_s > 1.17  # +18% (SH39 / SH40), +78% (SH38)


@pytest.mark.parametrize("row_id", sorted(BLOG))
def test_a_blog_row_is_derived_from_its_summary_line(row_id):
    row = _rows()[row_id]
    generated, total_tps, req_s = BLOG[row_id]
    assert (row["model"], row["gpu"], row["count"], row["framework_version"]) == ("qwen3-8b", "mi300x", "1", "0.9.1")
    assert (int(row["concurrency"]), int(row["prompts"])) == (128, 128)  # 128 prompts at once on 128 slots
    assert row["workload_options"] == "max_batch_size=128" and "benchmark_latency" in row["metric"]
    if row_id == "SH49":  # random 128-token prompts: the total fixes the duration
        duration = (128 * 128 + generated) / total_tps
        assert 128 / duration == pytest.approx(req_s, abs=0.005)  # the table's request throughput
        assert int(row["prompt_tokens"]) == 128 and int(row["output_tokens"]) == round(generated / 128)
    else:  # AIME prompts of unstated length: the request throughput fixes the duration, the total the prompt
        duration = 128 / req_s
        assert generated == 128 * 1024 and int(row["output_tokens"]) == 1024
        assert int(row["prompt_tokens"]) == round((total_tps * duration - generated) / 128)
    assert float(row["output_tokens_per_s"]) == pytest.approx(generated / duration, abs=0.05)


def test_the_qwen3_235b_row_is_its_evalscope_summary():
    row = _rows()["SH51"]
    stated = (row["model"], row["precision"], row["gpu"], row["count"], row["tp"], row["framework_version"])
    assert stated == ("qwen3-235b-a22b", "bf16", "mi300x", "8", "8", "0.8.3")
    assert (int(row["concurrency"]), int(row["prompts"])) == (256, 1024)
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (round(67.2363), round(127.3506))
    assert (float(row["ttft_ms"]), float(row["tpot_ms"])) == (5743.5, 91.1)  # 5.7435 s, 0.0911 s
    # the summary's output rate, 1,865.85, is its request throughput (14.6513/s) x its mean output
    assert float(row["output_tokens_per_s"]) == 1865.85 == pytest.approx(14.6513 * 127.3506, rel=0.001)


def test_the_harness_estimates_every_row_within_the_blind_band():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    rows = _rows()
    cases = {c[0].split()[0]: c for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT) if c[0].split()[0] in rows}
    assert sorted(cases) == sorted(rows)  # none refused, none without a figure
    for row_id, (label, est, published) in cases.items():
        assert published == float(rows[row_id]["output_tokens_per_s"]), label
        lo, hi = _band(row_id)
        assert lo <= est / published <= hi, label
