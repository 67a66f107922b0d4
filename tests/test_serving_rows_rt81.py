"""Rows RT81-RT100 (decodeblind26): MLPerf Inference v6.0 Server logs no row had cited, scored blind.

Read from gbeezybez/inference_results_v6.0 at ab33b214, the copy of MLCommons' 'Publishing Results' commit the MP,
RT15.. and RT41.. rows read; the same rules as serveblind29's round (validation README, 'Rows RT41-RT60'):
closed-division Server logs only, the submitter's config in the repository and matched to the log's target_qps, a
catalog part, model and engine, a dataset whose mean prompt is stored. Fifteen logs: ASUSTeK's two 8 x RTX PRO 6000
Server Edition systems, Dell's XE7740 / XE7745 (8 x RTX PRO 6000), HPE's DL380a (10 x and 8 x RTX PRO 6000), Cisco's
4 x H200 NVL and C880A 8 x B300, GIGABYTE's G894 8 x B300, and GIGABYTE's and Oracle's 8 x MI355X on AMD's vLLM
harness. The figures below are copied from each log's summary; the checks redo the log's arithmetic and hold the
harness to the band the blind reading set (validation README, 'Rows DE89-DE90 and RT81-RT95').
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .validation_rows import assert_logs_read_once, assert_rate_rows_within, rows_in

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
V60 = "https://github.com/gbeezybez/inference_results_v6.0/blob/ab33b2144a9f822f69d24f78569f993d195ee7e5/closed/"
# row -> (results folder, benchmark, model, precision, gpu, GPUs, mean prompt, scheduled /s, completed /s, tokens/s,
#         TTFT mean / p50 / p95 / p99 ms, TPOT mean / p50 / p95 / p99 ms, the config's settings as entered)
LOGS = {
    "RT81": ("ASUSTeK/results/ESC8000A_E13P_RTX_PRO_6000_PCIE_96GBx8_TRT",
             "llama2-70b-99", "llama-2-70b", "fp4", "rtx-pro-6000-blackwell-server", 8, 222, 105.41, 102.3, 28038.48,
             (544.1, 523.8, 927.7, 1265.3), (166.3, 178.5, 191.4, 195.6),
             "max_batch_size=4096"),
    "RT82": ("ASUSTeK/results/ESC8000A_E13P_RTX_PRO_6000_PCIE_96GBx8_TRT",
             "llama3.1-8b", "llama-3.1-8b", "fp4", "rtx-pro-6000-blackwell-server", 8, 871, 376.91, 376.22, 48531.3,
             (601.5, 514.0, 1267.8, 1555.7), (77.0, 77.5, 85.6, 88.2),
             "max_batch_size=2048;prefill_cuda_graphs=true"),
    "RT83": ("ASUSTeK/results/ESC8000_E12P_RTX_PRO_6000_PCIE_96GBx8_TRT",
             "llama2-70b-99", "llama-2-70b", "fp4", "rtx-pro-6000-blackwell-server", 8, 222, 101.16, 98.94, 27113.8,
             (637.7, 575.9, 1279.2, 1680.5), (133.0, 136.1, 142.9, 147.5),
             "max_batch_size=2048"),
    "RT84": ("ASUSTeK/results/ESC8000_E12P_RTX_PRO_6000_PCIE_96GBx8_TRT",
             "llama3.1-8b", "llama-3.1-8b", "fp4", "rtx-pro-6000-blackwell-server", 8, 871, 370.16, 368.85, 47580.97,
             (477.1, 330.6, 1375.6, 1881.8), (57.9, 57.8, 70.5, 73.8),
             "max_batch_size=2048;prefill_cuda_graphs=true"),
    "RT85": ("Cisco/results/C880A_M8_B300_288GBx8_TRT",
             "llama2-70b-99", "llama-2-70b", "fp4", "b300", 8, 222, 424.73, 419.49, 114503.71,
             (427.7, 418.9, 597.6, 846.0), (157.9, 161.1, 170.6, 172.7),
             "max_batch_size=3072"),
    "RT86": ("Cisco/results/X210M8_X580P_H200NVL_141GBx4_TRT",
             "llama3.1-8b", "llama-3.1-8b", "fp8", "h200-nvl-141gb", 4, 871, 200.21, 199.47, 25731.63,
             (869.6, 885.4, 1628.4, 1849.7), (78.6, 79.8, 83.5, 84.0),
             "max_batch_size=4068;api_servers=0"),
    "RT87": ("Dell/results/XE7740_RTXPro6000_PCIe_96GBx8_TRT",
             "llama2-70b-99", "llama-2-70b", "fp4", "rtx-pro-6000-blackwell-server", 8, 222, 96.37, 93.53, 25524.06,
             (291.1, 288.4, 432.9, 509.9), (153.4, 162.5, 173.0, 176.5),
             "max_batch_size=2048;api_servers=0"),
    "RT88": ("Dell/results/XE7745_RTXPro6000_PCIe_96GBx8_TRT",
             "llama2-70b-99", "llama-2-70b", "fp4", "rtx-pro-6000-blackwell-server", 8, 222, 96.37, 93.59, 25536.06,
             (291.3, 288.8, 430.9, 502.6), (153.3, 162.1, 173.3, 177.0),
             "max_batch_size=2048;api_servers=0"),
    "RT89": ("GigaComputing/results/G894-SD3-AAX7_B300-SXM-270GBx8_TRT",
             "llama2-70b-99", "llama-2-70b", "fp4", "b300", 8, 222, 379.69, 377.25, 104623.11,
             (233.4, 232.3, 356.9, 412.4), (119.6, 122.4, 126.4, 128.2),
             "max_batch_size=2048;api_servers=0"),
    "RT90": ("HPE/results/HPE_PROLIANT_DL380A_RTX_PRO_6000_PCIE_96GBx10_TRT_10_14_1_48_TRT",
             "llama2-70b-99", "llama-2-70b", "fp4", "rtx-pro-6000-blackwell-server", 10, 222, 135.14, 130.44, 35590.84,
             (543.4, 483.2, 1207.1, 1614.6), (168.2, 176.2, 181.1, 183.3),
             "max_batch_size=768;api_servers=0"),
    "RT91": ("HPE/results/HPE_PROLIANT_DL380A_RTX_PRO_6000_PCIE_96GBx10_TRT_10_14_1_48_TRT",
             "llama3.1-8b", "llama-3.1-8b", "fp4", "rtx-pro-6000-blackwell-server", 10, 871, 463.99, 462.27, 59632.68,
             (357.7, 317.7, 771.3, 971.0), (53.2, 54.0, 54.6, 54.8),
             "max_batch_size=1280;api_servers=0"),
    "RT92": ("HPE/results/HPE_PROLIANT_DL380A_RTX_PRO_6000_PCIE_96GBx10_TRT_10_11_0_33_TRT",
             "mixtral-8x7b", "mixtral-8x7b", "fp8", "rtx-pro-6000-blackwell-server", 10, 427, 269.8, 269.0, 39234.11,
             (350.4, 344.4, 511.6, 593.2), (175.1, 176.5, 188.6, 194.5),
             "max_batch_size=2048;api_servers=0"),
    "RT93": ("HPE/results/HPE_PROLIANT_DL380A_RTX_PRO_6000_PCIE_96GBx8_TRT_10_11_0_33_TRT",
             "mixtral-8x7b", "mixtral-8x7b", "fp8", "rtx-pro-6000-blackwell-server", 8, 427, 220.95, 220.34, 32151.05,
             (333.4, 327.5, 496.7, 577.0), (172.7, 173.9, 186.9, 193.2),
             "max_batch_size=2048;api_servers=0"),
    "RT94": ("GigaComputing/results/8xMI355X_2xEPYC-9575F",
             "llama2-70b-99", "llama-2-70b", "fp4", "mi355x", 8, 222, 351.0, 346.98, 98157.19,
             (625.2, 646.2, 910.8, 1044.3), (146.8, 155.2, 161.5, 163.5),
             "max_batch_size=3096;rocm_aiter=true;api_servers=0;rocm_fp4_asm_gemm=true"
             ";prefill_admission_steps=2;prefill_admission_floor=1216"),  # its server yaml (amdcadence66)
    "RT95": ("ORACLE/results/8xMI355X_2xEPYC_9575F",
             "llama2-70b-99", "llama-2-70b", "fp4", "mi355x", 8, 222, 351.8, 347.04, 98239.11,
             (626.1, 646.5, 912.5, 1045.3), (146.2, 155.0, 161.4, 163.5),
             "max_batch_size=3096;rocm_aiter=true;api_servers=0;rocm_fp4_asm_gemm=true"
             ";prefill_admission_steps=2;prefill_admission_floor=1216"),  # its server yaml (amdcadence66)
}
# the scenario's p99 constraints (TTFT ms, TPOT ms) by benchmark, MLPerf Inference v6.0 rules
CAPS = {"llama2-70b": (2000, 200), "llama3.1-8b": (2000, 100), "mixtral-8x7b": (2000, 200)}
# ratios est / published, blind: 0.873 (RT90, Llama 2 70B on 10 x RTX PRO 6000) to 1.013 (RT95)
BAND = (0.85, 1.05)
# the runs whose configs carry the trtllm_endpoint core's flags (max_concurrency, workers_per_core,
# num_postprocess_workers): trtllm-serve over HTTP, priced with a front end (no api_servers=0)
HTTP = {"RT81", "RT82", "RT83", "RT84", "RT85"}


def _rows() -> dict[str, dict]:
    return rows_in("serving_rate.csv", "RT", 81, 95)  # RT96.. are serveblind32's v5.1 Server rows


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows()) == sorted(LOGS)


@pytest.mark.parametrize("row_id", sorted(LOGS))
def test_a_row_is_its_log(row_id):
    row = _rows()[row_id]
    folder, bench, model, precision, gpu, n, prompt, sched, done, tput, ttft, tpot, options = LOGS[row_id]
    assert row["source"] == f"{V60}{folder}/{bench}/Server/performance/run_1/mlperf_log_summary.txt"
    amd = gpu.startswith("mi3")
    stated = (row["model"], row["precision"], row["gpu"], row["count"], row["tp"], row["pp"], row["prompt_tokens"],
              row["framework"], row["kv_precision"])
    assert stated == (model, precision, gpu, str(n), "1", "1", str(prompt), "vllm" if amd else "tensorrt-llm", "fp8")
    # AMD's harness pins vLLM 11b6af528 (0.14.0, as MP22 / RT58); NVIDIA's names no TensorRT-LLM build
    assert row["framework_version"] == ("0.14.0" if amd else "")
    assert (float(row["request_rate"]), float(row["served_requests_per_s"])) == (sched, done)
    assert float(row["output_tokens_per_s"]) == tput
    # loadgen counts only generated tokens: tokens/s over completed samples/s is the mean output a sample
    assert int(row["output_tokens"]) == round(tput / done)
    assert (float(row["ttft_ms"]), float(row["ttft_p50_ms"]), float(row["ttft_p95_ms"]),
            float(row["ttft_p99_ms"])) == ttft
    assert (float(row["tpot_ms"]), float(row["tpot_p50_ms"]), float(row["tpot_p95_ms"]),
            float(row["tpot_p99_ms"])) == tpot
    assert row["workload_options"] == options
    assert ("api_servers=0" in options) is (row_id not in HTTP)
    # a valid Server run keeps its p99 latencies inside the benchmark's constraints
    ttft_cap, tpot_cap = CAPS[re.sub(r"-99(\.9)?$", "", bench)]
    assert ttft[3] <= ttft_cap and tpot[3] <= tpot_cap


def test_no_log_is_read_twice():
    assert_logs_read_once(_rows(), LOGS)


def test_the_harness_estimates_every_row_within_the_blind_band():
    assert_rate_rows_within(_rows(), LOGS, BAND)
