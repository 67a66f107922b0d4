"""Rows SH52-SH73 (branch sparkblind57): serving at 25 requests in flight on one DGX Spark (GB10) under vLLM 0.26.0,
from djangodevreng/dgx-spark-benchmarks at 56365367: each run folder's 10-monday-peak test, vllm bench serve random
4000 / 500 (--random-range-ratio 0.9), 300 prompts at 1.5/s Poisson capped at 25 in flight. The figures below are
copied from each run's 10-monday-peak.json; the checks redo the arithmetic the rows rest on (validation README,
'Rows DE68-DE88 and SH52-SH73') and that the harness estimates every row inside the band the blind reading set."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from .validation_rows import rows_in

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
URL = "https://github.com/djangodevreng/dgx-spark-benchmarks/blob/56365367/results/"
# id -> (run folder, completed, total input, total output, duration s, output tok/s, mean TTFT ms, mean TPOT ms,
# request throughput /s, mean E2E latency ms)
RUNS = {
    "SH52": ("gemma-4/gemma-4-26b-a4b-it/bf16", 300, 1202084, 150317, 1216.87, 123.53, 1521.15, 195.28, 0.24653,
             98016.2),
    "SH53": ("gemma-4/gemma-4-26b-a4b-it/bf16-v23", 300, 1202084, 150317, 1217.64, 123.45, 1508.18, 194.94, 0.24638,
             97912.7),
    "SH54": ("gemma-4/gemma-4-26b-a4b-it/nvfp4", 300, 1202084, 150317, 702.02, 214.12, 1191.29, 111.49, 0.42734,
             56196.4),
    "SH55": ("gemma-4/gemma-4-26b-a4b-it/nvfp4-v23", 300, 1202084, 150317, 701.00, 214.43, 1199.34, 111.58, 0.42796,
             56220.9),
    "SH56": ("gemma-4/gemma-4-31b-it/bf16", 300, 1202084, 150317, 3738.00, 40.21, 9225.60, 591.64, 0.08026, 301175.3),
    "SH57": ("gemma-4/gemma-4-31b-it/nvfp4", 300, 1202084, 150317, 2951.45, 50.93, 10903.12, 466.68, 0.10164,
             239787.7),
    "SH58": ("gpt-oss/gpt-oss-20b/mxfp4", 300, 1216617, 138550, 488.82, 283.44, 903.65, 82.56, 0.61373, 38745.7),
    "SH59": ("ministral-3/ministral-3-3b-instruct/bf16", 300, 1198815, 150317, 598.88, 251.00, 851.22, 94.92, 0.50094,
             47987.4),
    "SH60": ("ministral-3/ministral-3-8b-instruct/bf16", 300, 1198815, 150317, 724.56, 207.46, 1334.40, 114.52,
             0.41405, 58079.3),
    "SH61": ("nemotron-3/nemotron-3-nano-30b-a3b/bf16", 300, 1202858, 150317, 1240.98, 121.13, 1259.28, 199.87,
             0.24174, 100100.5),
    "SH62": ("nemotron-3/nemotron-3-nano-30b-a3b/fp8", 300, 1202858, 150317, 798.86, 188.16, 1078.37, 127.93, 0.37554,
             64328.3),
    "SH63": ("nemotron-3/nemotron-3-nano-30b-a3b/nvfp4", 300, 1202858, 150317, 577.53, 260.28, 1063.46, 91.78,
             0.51945, 46286.3),
    "SH64": ("qwen-3.5/qwen-3.5-2b/bf16", 300, 1201770, 150317, 253.76, 592.36, 438.12, 38.49, 1.18221, 19642.3),
    "SH65": ("qwen-3.5/qwen-3.5-4b/bf16", 300, 1201170, 150317, 577.49, 260.30, 1137.01, 90.54, 0.51949, 45898.7),
    "SH66": ("qwen-3.5/qwen-3.5-9b/bf16", 300, 1201170, 150317, 944.55, 159.14, 2118.73, 148.53, 0.31761, 75454.3),
    "SH67": ("qwen-3.6/qwen-3.6-27b/bf16", 300, 1201170, 150317, 3065.37, 49.04, 8342.20, 483.38, 0.09787, 246904.0),
    "SH68": ("qwen-3.6/qwen-3.6-27b/fp8", 300, 1201170, 150317, 3045.84, 49.35, 14734.12, 479.61, 0.09850, 248686.1),
    "SH69": ("qwen-3.6/qwen-3.6-35b-a3b/bf16", 300, 1201170, 150317, 1321.96, 113.71, 2318.00, 210.62, 0.22694,
             106518.7),
    "SH70": ("qwen-3.6/qwen-3.6-35b-a3b/fp8", 300, 1201170, 150317, 871.43, 172.49, 1928.01, 138.61, 0.34426, 70233.8),
    "SH71": ("qwen-3.6/qwen-3.6-35b-a3b/nvfp4", 300, 1201174, 150317, 667.93, 225.05, 1268.91, 106.03, 0.44915,
             53557.6),
    "SH72": ("qwen-3.8/qwen-3.8-27b/bf16", 300, 1213770, 150317, 3053.07, 49.23, 8348.08, 481.30, 0.09826, 245847.9),
    "SH73": ("qwen-3.8/qwen-3.8-27b/fp8", 300, 1213770, 150317, 3052.62, 49.24, 14826.71, 480.35, 0.09828, 249234.7),
}
FP8_RELEASES = {"SH59", "SH60"}  # the Ministral 3 Instruct 2512 cards: an FP8 release (corrected after scoring)
# est / published throughput: blind (README) 0.80-1.87; after the Ministral correction 0.80-1.87 (SH59 1.19, SH60 1.15)
BAND = (0.78, 1.9)


def _rows() -> dict[str, dict]:
    # SH74 on are serveblind30's
    return rows_in("serving_independent.csv", "SH", 52, 73)


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows()) == sorted(RUNS)


@pytest.mark.parametrize("row_id", sorted(RUNS))
def test_a_row_is_its_runs_summary(row_id):
    run, n, tin, tout, seconds, out_tps, ttft, tpot, req_s, e2e_ms = RUNS[row_id]
    row = _rows()[row_id]
    assert row["source"] == URL + run + "/10-monday-peak.md"
    stated = (row["gpu"], row["count"], row["framework"], row["framework_version"], row["tp"], row["pp"])
    assert stated == ("gb10", "1", "vllm", "0.26.0", "1", "1")
    assert (int(row["concurrency"]), float(row["request_rate"]), int(row["prompts"])) == (25, 1.5, n)
    assert row["fixed_lengths"] == ""  # --random-range-ratio 0.9: lengths drawn about the stated means
    # the row's lengths are the run's own means
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (round(tin / n), round(tout / n))
    assert float(row["output_tokens_per_s"]) == out_tps
    assert float(row["ttft_ms"]) == pytest.approx(ttft, abs=0.06)  # the JSON's mean TTFT to 0.1 ms
    assert float(row["tpot_ms"]) == tpot
    # the summary's output rate is its output tokens over its duration
    assert tout / seconds == pytest.approx(out_tps, abs=0.01)  # both copied to 0.01
    # the rule: the client's cap of 25 binds (Little's law: served rate x mean latency), so the row is the closed loop
    assert req_s * e2e_ms / 1e3 >= 0.9 * 25


@pytest.mark.parametrize("row_id", sorted(RUNS))
def test_the_precision_and_server_settings(row_id):
    row = _rows()[row_id]
    folder = RUNS[row_id][0].rsplit("/", 1)[1].removesuffix("-v23")
    want = "fp8" if row_id in FP8_RELEASES else {"bf16": "bf16", "fp8": "fp8", "nvfp4": "fp4", "mxfp4": "fp4"}[folder]
    assert row["precision"] == want
    # kv-cache-dtype fp8 on every run but the Ministral 3 3B's (auto)
    assert row["kv_precision"] == ("" if row_id == "SH59" else "fp8")
    memory = "0.85" if RUNS[row_id][0].endswith("-v23") else "0.9"
    assert row["workload_options"].split(";")[0] == f"memory_fraction={memory}"


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
        assert BAND[0] <= est / published <= BAND[1], label
