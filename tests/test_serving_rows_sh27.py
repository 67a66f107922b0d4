"""Rows RT23.. (serveblind27): MLPerf Inference v5.0 Server logs, a round no row cited before, scored blind.

The logs are read from ntuhpc/mlperf_inference_results_v5.0 at cf354115 (a copy of mlcommons/inference_results_v5.0;
the stored mlcommons copy holds five NVIDIA files and no logs). Each row is one Server run of NVIDIA's (loadgen's
Poisson arrivals at the scheduled rate): llama2-70b on 8 x H200, 8 x B200, a DGX H100, one B200 and one GH200, the
llama2-70b-interactive benchmark (its 450 ms / 40 ms targets) on 8 x H200 and 8 x B200, Mixtral 8x7B on 8 x H200
and 8 x B200, and Llama 3.1 405B on a GB200 NVL72's 72 GPUs. The figures below are copied from each log (the GH200
run from its detail log's result_* entries, its summary not being in the copy); the checks redo the log's arithmetic
(output tokens a sample = tokens/s over completed samples/s) and that the harness estimates every row inside the band
the blind reading set (validation README, 'Rows RT23..').
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from .validation_rows import assert_rate_rows_within, rows_in

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
V50 = "https://github.com/ntuhpc/mlperf_inference_results_v5.0/blob/cf354115915ea369f05db424b051da8c5bf957dc/closed/"
# row -> (results folder, benchmark, model, precision, gpu, GPUs, tp, pp, mean prompt, scheduled /s, completed /s,
#         tokens/s, TTFT mean / p50 / p95 / p99 ms, TPOT mean / p50 / p95 / p99 ms)
LOGS = {
    "RT23": ("NVIDIA/results/H200-SXM-141GBx8_TRT", "llama2-70b-99.9", "llama-2-70b", "fp8", "h200-141gb-sxm", 8, 1,
             1, 222, 114.56, 113.04, 33071.46, (397.8, 358.6, 730.5, 937.6), (170.0, 173.27, 179.05, 181.93)),
    "RT24": ("NVIDIA/results/H200-SXM-141GBx8_TRT", "llama2-70b-interactive-99.9", "llama-2-70b", "fp8",
             "h200-141gb-sxm", 8, 1, 1, 222, 67.50, 66.50, 19424.25, (119.4, 97.5, 260.3, 363.3),
             (33.7, 33.75, 34.91, 35.68)),
    "RT25": ("NVIDIA/results/B200-SXM-180GBx8_TRT", "llama2-70b-99.9", "llama-2-70b", "fp4", "b200", 8, 1, 1, 222,
             364.33, 361.04, 98443.30, (525.8, 457.5, 1105.9, 1567.2), (150.2, 154.71, 158.14, 159.12)),
    "RT26": ("NVIDIA/results/B200-SXM-180GBx8_TRT", "llama2-70b-interactive-99", "llama-2-70b", "fp4", "b200", 8, 1,
             1, 222, 220.51, 217.93, 59409.25, (85.6, 74.0, 161.1, 212.3), (36.1, 36.45, 38.07, 39.12)),
    "RT27": ("NVIDIA/results/H200-SXM-141GBx8_TRT", "mixtral-8x7b", "mixtral-8x7b", "fp8", "h200-141gb-sxm", 8, 1, 1,
             427, 428.23, 427.58, 61801.95, (326.0, 324.9, 460.9, 560.5), (170.4, 172.87, 185.23, 191.52)),
    "RT28": ("NVIDIA/results/B200-SXM-180GBx8_TRT", "mixtral-8x7b", "mixtral-8x7b", "fp8", "b200", 8, 1, 1, 427,
             871.95, 870.82, 126844.55, (209.7, 210.0, 283.2, 343.2), (110.0, 110.94, 118.20, 121.28)),
    "RT29": ("NVIDIA/results/DGX-H100_H100-SXM-80GBx8_TRT", "llama2-70b-99.9", "llama-2-70b", "fp8", "h100-80gb-sxm",
             8, 1, 2, 222, 107.19, 106.21, 31106.28, (517.1, 443.2, 1047.1, 1450.7), (139.3, 140.02, 141.06, 141.40)),
    "RT30": ("NVIDIA/results/B200-SXM-180GBx1_TRT", "llama2-70b-99", "llama-2-70b", "fp4", "b200", 1, 1, 1, 222,
             44.62, 44.30, 12078.40, (365.1, 291.9, 826.6, 1292.9), (145.3, 149.92, 158.01, 159.01)),
    "RT31": ("NVIDIA/results/GH200-GraceHopper-Superchip_GH200-144GB_aarch64x1_TRT", "llama2-70b-99", "llama-2-70b",
             "fp8", "gh200-144gb", 1, 1, 1, 222, 15.0076, 14.8692, 4350.26, (369.5, 312.8, 742.8, 1101.2),
             (158.7, 162.48, 175.73, 178.54)),
    "RT32": ("NVIDIA/results/GB200-NVL72_GB200-186GB_aarch64x72_TRT_Triton", "llama3_1-405b", "llama-3.1-405b", "fp4",
             "gb200", 72, 4, 1, 9429, 13.51, 13.46, 8850.10, (1647.9, 1715.4, 2741.8, 3307.9),
             (110.0, 109.83, 124.46, 133.56)),
}
# the scenario's p99 constraints (TTFT ms, TPOT ms) by benchmark, MLPerf Inference v5.0 rules
CAPS = {"llama2-70b": (2000, 200), "llama2-70b-interactive": (450, 40), "mixtral-8x7b": (2000, 200),
        "llama3_1-405b": (6000, 175)}
# the configs' layouts (closed/Broadcom_Supermicro/configs/<benchmark>/Server/__init__.py, NVIDIA's v5.0 classes):
# batch a copy, and the runtime max_num_tokens entered as a chunk where the config turns chunked context on
OPTIONS = {"RT23": "max_batch_size=2048;api_servers=0",
           "RT24": "max_batch_size=512;prefill_chunk_tokens=256;api_servers=0",
           "RT25": "max_batch_size=2048;api_servers=0",
           "RT26": "max_batch_size=768;prefill_chunk_tokens=768;api_servers=0",
           "RT27": "max_batch_size=3072;prefill_chunk_tokens=8192;api_servers=0",
           "RT28": "max_batch_size=6144;api_servers=0",
           "RT29": "max_batch_size=1024;api_servers=0",
           "RT30": "max_batch_size=2048;api_servers=0",
           "RT31": "max_batch_size=2048;api_servers=0",
           "RT32": ""}  # Triton harness: loadgen's frontends reach the servers over gRPC (a front end is priced)
# ratios est / published, blind (README, 'Rows RT23..'): 0.52 (RT24) to 1.01 (RT30)
BAND = (0.5, 1.05)


def _rows() -> dict[str, dict]:
    return rows_in("serving_rate.csv", "RT", 23, 32)


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows()) == sorted(LOGS)


@pytest.mark.parametrize("row_id", sorted(LOGS))
def test_a_row_is_its_log(row_id):
    row = _rows()[row_id]
    folder, bench, model, precision, gpu, n, tp, pp, prompt, sched, done, tput, ttft, tpot = LOGS[row_id]
    log = "detail" if gpu == "gh200-144gb" else "summary"
    assert row["source"] == f"{V50}{folder}/{bench}/Server/performance/run_1/mlperf_log_{log}.txt"
    stated = (row["model"], row["precision"], row["gpu"], row["count"], row["tp"], row["pp"], row["prompt_tokens"],
              row["framework"], row["framework_version"], row["kv_precision"])
    # no TensorRT-LLM build is named in the copy: framework_version blank, as for the ML rows
    assert stated == (model, precision, gpu, str(n), str(tp), str(pp), str(prompt), "tensorrt-llm", "", "fp8")
    assert (float(row["request_rate"]), float(row["served_requests_per_s"])) == (sched, done)
    assert float(row["output_tokens_per_s"]) == tput
    # loadgen counts only generated tokens: tokens/s over completed samples/s is the mean output a sample
    assert int(row["output_tokens"]) == round(tput / done)
    assert (float(row["ttft_ms"]), float(row["ttft_p50_ms"]), float(row["ttft_p95_ms"]),
            float(row["ttft_p99_ms"])) == ttft
    assert float(row["tpot_ms"]) == tpot[0]
    assert (float(row["tpot_p50_ms"]), float(row["tpot_p95_ms"]), float(row["tpot_p99_ms"])) == tpot[1:]
    assert row["workload_options"] == OPTIONS[row_id]
    # a valid Server run keeps its p99 latencies inside the benchmark's constraints
    ttft_cap, tpot_cap = CAPS[re.sub(r"-99(\.9)?$", "", bench)]
    assert ttft[3] <= ttft_cap and tpot[3] <= tpot_cap
    assert ("Interactive" in row["metric"]) is ("interactive" in bench)


def test_no_v50_log_is_read_twice_and_the_round_is_new():
    sources = [r["source"] for r in _rows().values()]
    assert len(set(sources)) == len(sources)
    others: list[str] = []
    for name in ("serving_independent.csv", "serving_rate.csv", "decode_independent.csv"):
        with (DATA / name).open(newline="") as fh:
            others += [r["source"] for r in csv.DictReader(fh) if r["id"] not in LOGS]
    # the same systems' Offline logs are rows RT33.. of branch capacity56 (tests/test_serving_rows_capacity56.py);
    # serveblind38's ST08-ST16 read other submitters' v5.0 Server logs: no other row reads one of these
    assert not set(sources) & set(others)
    assert not any("closed/NVIDIA/" in s and "inference_results_v5.0" in s and "/Offline/" not in s for s in others)


def test_the_harness_estimates_every_row_within_the_blind_band():
    assert_rate_rows_within(_rows(), LOGS, BAND)
