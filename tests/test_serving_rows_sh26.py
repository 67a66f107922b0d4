"""Rows SH32.. and RT15.. (serveblind26): serving at load from sources no row cited, scored blind.

SH32-SH36: SemiAnalysisAI/InferenceX issue #870, the 2026-03-06 comment 'B200 SGLang DeepSeek FP4 - Concurrency Sweep'
(config dsr1-fp4-b200-sglang: DeepSeek-R1-0528 NVFP4, SGLang 0.5.6, TP 8 EP 8 on 8 x B200, 1k/1k at concurrency
4-64); the table gives output tok/s per GPU, so a row is that x 8 (DERIVED), InferenceX's client (10 x c prompts,
range ratio 0.8: 922 / 922).

RT15-RT22: MLPerf Inference v6.0 Server and Interactive logs no row cited (gbeezybez/inference_results_v6.0 at
ab33b214, MLCommons' publishing commit): loadgen's Poisson arrivals at the scheduled rate. The figures below are
copied from each log; the checks redo its arithmetic (output tokens a sample = tokens/s over completed samples/s) and
that the harness estimates each row within the band the blind reading set (validation README, 'Rows SH32.. and
RT15..').
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from .validation_rows import rows_in

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
ISSUE = "https://github.com/SemiAnalysisAI/InferenceX/issues/870"
# row -> (concurrency, output tok/s per GPU, mean TTFT ms), the comment's table
SWEEP = {"SH32": (4, 59.7, 199.6), "SH33": (8, 104.8, 197.2), "SH34": (16, 169.3, 354.9),
         "SH35": (32, 282.4, 394.4), "SH36": (64, 312.5, 5719.0)}
V60 = "https://github.com/gbeezybez/inference_results_v6.0/blob/ab33b2144a9f822f69d24f78569f993d195ee7e5/closed/"
# row -> (submitter folder, model, precision, gpu, GPUs, tp, ep, mean prompt, scheduled /s, completed /s, tokens/s,
#         TTFT mean / p50 / p95 / p99 ms, TPOT mean / p50 / p95 / p99 ms)
LOGS = {
    "RT15": ("AMD", "llama-2-70b", "fp4", "mi355x", 8, 1, "", 222, 263.64, 260.10, 73608.25,
             (242.0, 227.9, 392.3, 447.6), (35.0, 35.97, 38.11, 38.89)),
    "RT16": ("AMD", "llama-2-70b", "fp4", "mi355x", 87, 1, "", 222, 3647.85, 3591.83, 1016375.00,
             (311.8, 302.4, 463.2, 640.1), (95.8, 100.36, 104.34, 106.19)),
    "RT17": ("AMD", "llama-2-70b", "fp4", "mi355x", 87, 1, "", 222, 2797.08, 2776.29, 785521.65,
             (117.8, 113.1, 156.8, 273.8), (36.7, 36.95, 38.51, 39.41)),
    "RT18": ("ASUSTeK", "llama-2-70b", "fp4", "rtx-pro-6000-blackwell-server", 8, 1, "", 222, 23.14, 22.91, 6238.12,
             (112.2, 106.6, 162.7, 183.8), (37.0, 36.98, 38.38, 39.45)),
    "RT19": ("CoreWeave", "deepseek-r1", "fp4", "gb300", 8, 1, "8", 804, 12.0267, 11.8814, 44589.7,
             (492.3, 488.5, 734.2, 776.3), (57.0, 58.10, 59.37, 59.67)),
    "RT20": ("CoreWeave", "deepseek-r1", "fp4", "gb200", 64, 1, "8", 804, 96.0491, 83.0805, 311531.0,
             (519.7, 443.4, 804.8, 974.5), (56.6, 59.32, 65.59, 67.51)),
    "RT21": ("HPE", "llama-2-70b", "fp4", "b200", 8, 1, "", 222, 226.10, 224.73, 61644.72,
             (68.7, 60.4, 120.6, 153.9), (35.4, 35.57, 38.20, 39.65)),
    "RT22": ("HPE", "mixtral-8x7b", "fp8", "b200", 8, 1, "", 427, 871.48, 869.80, 127209.01,
             (273.6, 267.3, 435.3, 475.6), (134.7, 135.84, 146.95, 150.57)),
}
# ratios est / published, blind (README, 'Rows SH32.. and RT15..'): SH32-SH36 0.78-1.24; RT15-RT22 0.65-1.01
BAND_SH = (0.75, 1.3)
BAND_RT = (0.6, 1.05)


def _rows(name: str, prefix: str, first: int) -> dict[str, dict]:
    # this round's ids stop at SH36 / RT22 (serveblind27's RT23.. are tests/test_serving_rows_sh27.py's)
    return rows_in(name, prefix, first, {"SH": 36, "RT": 22}[prefix])


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows("serving_independent.csv", "SH", 32)) == sorted(SWEEP)
    assert sorted(_rows("serving_rate.csv", "RT", 15)) == sorted(LOGS)


@pytest.mark.parametrize("row_id", sorted(SWEEP))
def test_a_sweep_row_is_its_table_times_the_gpus(row_id):
    row = _rows("serving_independent.csv", "SH", 32)[row_id]
    conc, per_gpu, ttft = SWEEP[row_id]
    assert row["source"] == ISSUE
    stated = (row["model"], row["precision"], row["gpu"], row["count"], row["framework"], row["framework_version"])
    assert stated == ("deepseek-r1", "fp4", "b200", "8", "sglang", "0.5.6")
    assert (row["tp"], row["ep"], row["kv_precision"]) == ("8", "8", "fp8")  # --tp 8 --ep-size 8, no DP attention
    assert float(row["output_tokens_per_s"]) == pytest.approx(per_gpu * 8)  # the table is per GPU
    assert (int(row["concurrency"]), int(row["prompts"])) == (conc, 10 * conc)  # InferenceX: 10 x c prompts
    # 1k/1k drawn at InferenceX's range ratio 0.8: each length from 0.8 x to 1 x, mean 0.9 x 1024
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (round(0.9 * 1024), round(0.9 * 1024))
    assert float(row["ttft_ms"]) == ttft and row["tpot_ms"] == ""
    # the launcher's flags: --max-running-requests 256, --mem-fraction-static 0.85, --disable-radix-cache,
    # --chunked-prefill-size 16384, --scheduler-recv-interval 10 below concurrency 16 and 30 from it
    recv = 10 if conc < 16 else 30
    assert row["workload_options"] == ("max_batch_size=256;memory_fraction=0.85;prefix_cache=false;"
                                       f"prefill_chunk_tokens=16384;scheduler_recv_interval={recv}")


@pytest.mark.parametrize("row_id", sorted(LOGS))
def test_a_rate_row_is_its_log(row_id):
    row = _rows("serving_rate.csv", "RT", 15)[row_id]
    who, model, precision, gpu, n, tp, ep, prompt, sched, done, tput, ttft, tpot = LOGS[row_id]
    assert row["source"].startswith(V60 + who + "/results/")
    stated = (row["model"], row["precision"], row["gpu"], row["count"], row["tp"], row["ep"], row["prompt_tokens"])
    assert stated == (model, precision, gpu, str(n), str(tp), ep, str(prompt))
    assert (float(row["request_rate"]), float(row["served_requests_per_s"])) == (sched, done)
    assert float(row["output_tokens_per_s"]) == tput
    # loadgen counts only generated tokens: tokens/s over completed samples/s is the mean output a sample
    assert int(row["output_tokens"]) == round(tput / done)
    assert (float(row["ttft_ms"]), float(row["ttft_p50_ms"]), float(row["ttft_p95_ms"]),
            float(row["ttft_p99_ms"])) == ttft
    assert float(row["tpot_ms"]) == pytest.approx(tpot[0], abs=0.05)
    assert (float(row["tpot_p50_ms"]), float(row["tpot_p95_ms"]), float(row["tpot_p99_ms"])) == tpot[1:]
    # a Server run keeps its latencies inside the scenario's p99 constraints (Interactive: 450 ms / 40 ms)
    interactive = "Interactive" in row["metric"]
    ttft_cap, tpot_cap = (450, 40) if interactive else ((2000, 80) if model == "deepseek-r1" else (2000, 200))
    assert ttft[3] <= ttft_cap and tpot[3] <= tpot_cap


def test_the_harness_estimates_every_row_within_the_blind_band():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    sweep = _rows("serving_independent.csv", "SH", 32)
    cases = {c[0].split()[0]: c for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT) if c[0].split()[0] in sweep}
    assert sorted(cases) == sorted(SWEEP)  # none refused, none without a figure
    for row_id, (label, est, published) in cases.items():
        assert published == float(sweep[row_id]["output_tokens_per_s"]), label
        assert BAND_SH[0] <= est / published <= BAND_SH[1], label
    rates = _rows("serving_rate.csv", "RT", 15)
    rate = {c[0].split()[0]: c for c in accuracy.rate_cases(kb) if c[0].split()[0] in rates and "out tok" in c[0]}
    assert sorted(rate) == sorted(LOGS)
    for row_id, (label, est, published) in rate.items():
        assert published == float(rates[row_id]["output_tokens_per_s"]), label
        assert BAND_RT[0] <= est / published <= BAND_RT[1], label
