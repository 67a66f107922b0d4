"""Rows SH01-SH09 and RT01-RT08 (serveblind24): DeepSeek-R1 at load from MLPerf Inference submitters no row cited.

The rows read each submitter's own mlperf_log_summary.txt (Offline: 'Samples per second' and 'Tokens per second';
Server: 'Scheduled samples per second', 'Completed samples per second', 'Completed tokens per second') and its
configs/<system>/<scenario>/deepseek-r1.py (gpu_batch_size a rank). v6.0 logs are read from
gbeezybez/inference_results_v6.0 at ab33b214 (MLCommons' 'Publishing Results' commit), v5.1 from
mlcommons/inference_results_v5.1 at 965182b0. The figures below are copied from those files; the checks redo each
row's arithmetic (output tokens a sample = tokens/s over samples/s) and that the harness estimates every row within
the band the blind reading set (validation README, 'Rows SH01-SH09 and RT01-RT08')."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
V6 = "https://github.com/gbeezybez/inference_results_v6.0/blob/ab33b2144a9f822f69d24f78569f993d195ee7e5/"
V5 = "https://github.com/mlcommons/inference_results_v5.1/blob/965182b03376a00fcae415c54e560e1c83937932/"

# Offline: row -> (round, division/submitter/results/system, gpu, samples/s, tokens/s, gpu_batch_size a rank)
OFFLINE = {
    "SH01": (V6, "closed/Nebius/results/nebius_b200_n1", "b200", 15.5989, 58581.6, 512),
    "SH02": (V6, "closed/Dell/results/XE9780_x86_B200-SXM-180GBx8_TRT", "b200", 15.5349, 58235.4, 512),
    "SH03": (V6, "closed/Google/results/B200-SXM-180GBx8_TRT", "b200", 15.2288, 57116.9, 512),
    "SH04": (V6, "closed/Cisco/results/C880A_M8_B300_288GBx8_TRT", "b300", 18.4735, 69251.4, 512),
    "SH05": (V6, "closed/Quanta_Cloud_Technology/results/D75H-10U_B300-270GBx8_TRT", "b300", 18.4512, 69263.2, 1024),
    "SH06": (V6, "closed/GigaComputing/results/G894-SD3-AAX7_B300-SXM-270GBx8_TRT", "b300", 18.5571, 69617.4, 1024),
    "SH07": (V5, "closed/Dell/results/XE9685L_B200_SXM_180GBx8_TRT", "b200", 8.41588, 30766.5, 512),
    "SH08": (V5, "closed/GigaComputing/results/G894-SD1_B200-SXM-180GBx8_TRT", "b200", 8.4179, 30873.9, 512),
    "SH09": (V5, "open/HPE/results/HPE_Cray_XD670_H200_SXM_141GBx8_TRT", "h200-141gb-sxm", 2.32632, 8904.83, None),
}
# Server: row -> (round, system path, gpu, scheduled samples/s, completed samples/s, completed tokens/s, batch a rank)
SERVER = {
    "RT01": (V6, "closed/Nebius/results/nebius_b200_n1", "b200", 14.03, 13.81, 51692.89, 640),
    "RT02": (V6, "closed/Dell/results/XE9780_x86_B200-SXM-180GBx8_TRT", "b200", 11.10, 10.95, 40949.45, 512),
    "RT03": (V6, "closed/Google/results/B200-SXM-180GBx8_TRT", "b200", 11.10, 10.96, 41027.93, 512),
    "RT04": (V6, "closed/Cisco/results/C880A_M8_B300_288GBx8_TRT", "b300", 16.04, 15.60, 58553.28, 640),
    "RT05": (V6, "closed/Quanta_Cloud_Technology/results/D75H-10U_B300-270GBx8_TRT", "b300", 9.52, 9.46, 35435.70, 640),
    "RT06": (V6, "closed/GigaComputing/results/G894-SD3-AAX7_B300-SXM-270GBx8_TRT", "b300", 9.52, 9.46, 35552.55, 640),
    "RT07": (V5, "closed/Dell/results/XE9685L_B200_SXM_180GBx8_TRT", "b200", 3.81, 3.79, 13963.01, 512),
    "RT08": (V5, "closed/GigaComputing/results/G894-SD1_B200-SXM-180GBx8_TRT", "b200", 4.31, 4.28, 15977.87, 768),
}
# blind ratios est / published (README): SH 0.43 (SH04) to 1.66 (SH09); RT throughput 0.63 (RT04) to 1.01
BAND_SH = (0.40, 1.75)
BAND_RT = (0.60, 1.05)


def _rows(name: str, prefix: str) -> dict[str, dict]:
    with (DATA / name).open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"][:2] == prefix and r["id"][2:].isdigit()}


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows("serving_independent.csv", "SH")) == sorted(OFFLINE)
    assert sorted(_rows("serving_rate.csv", "RT")) == sorted(SERVER)


@pytest.mark.parametrize("row_id", sorted(OFFLINE))
def test_an_offline_row_is_its_logs_rate(row_id):
    row = _rows("serving_independent.csv", "SH")[row_id]
    base, system, gpu, sps, tps, batch = OFFLINE[row_id]
    assert row["source"] == f"{base}{system}/deepseek-r1/Offline/performance/run_1/mlperf_log_summary.txt"
    assert (row["model"], row["gpu"], row["count"], row["framework"]) == ("deepseek-r1", gpu, "8", "tensorrt-llm")
    assert (row["tp"], row["ep"], row["concurrency"]) == ("1", "8", "max")  # attention DP + EP 8; all at once
    assert float(row["output_tokens_per_s"]) == tps
    assert int(row["output_tokens"]) == round(tps / sps)  # output tokens a sample = tokens/s over samples/s
    assert int(row["prompt_tokens"]) == 804  # 3,527,036 prompt tokens over the set's 4,388 samples
    if batch is None:  # HPE's open-division run: FP8 weights by its measurements file, no config stored
        assert (row["precision"], row["workload_options"]) == ("fp8", "")
    else:  # NVFP4 weights, FP8 KV cache, gpu_batch_size a rank from the submitter's Offline config
        assert (row["precision"], row["kv_precision"]) == ("fp4", "fp8")
        assert row["workload_options"] == f"max_batch_size={batch}"


@pytest.mark.parametrize("row_id", sorted(SERVER))
def test_a_server_row_is_its_logs_rate(row_id):
    row = _rows("serving_rate.csv", "RT")[row_id]
    base, system, gpu, scheduled, completed, tps, batch = SERVER[row_id]
    assert row["source"] == f"{base}{system}/deepseek-r1/Server/performance/run_1/mlperf_log_summary.txt"
    assert (row["model"], row["precision"], row["gpu"], row["count"]) == ("deepseek-r1", "fp4", gpu, "8")
    assert float(row["request_rate"]) == scheduled and float(row["served_requests_per_s"]) == completed
    assert float(row["output_tokens_per_s"]) == tps
    assert int(row["output_tokens"]) == round(tps / completed)
    # v5.1's harness hands loadgen's arrivals to the engine in process (as ML42); v6.0's runs trtllm-serve over HTTP
    options = f"max_batch_size={batch}" + (";api_servers=0" if base == V5 else "")
    assert row["workload_options"] == options
    # the constraints every valid Server run met: p99 TTFT <= 2 s, p99 TPOT <= 80 ms
    assert float(row["ttft_p99_ms"]) <= 2000 and float(row["tpot_p99_ms"]) <= 80


def test_the_harness_estimates_every_row_within_the_blind_band():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    offline = {c[0].split()[0]: c for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT) if c[0].startswith("SH")}
    assert sorted(offline) == sorted(OFFLINE)  # none refused, none without a figure
    for row_id, (label, est, published) in offline.items():
        assert published == OFFLINE[row_id][4], label
        assert BAND_SH[0] <= est / published <= BAND_SH[1], label
    rate = {c[0].split()[0]: c for c in accuracy.rate_cases(kb) if c[0].startswith("RT") and "out tok" in c[0]}
    assert sorted(rate) == sorted(SERVER)
    for row_id, (label, est, published) in rate.items():
        assert published == SERVER[row_id][5], label
        assert BAND_RT[0] <= est / published <= BAND_RT[1], label
