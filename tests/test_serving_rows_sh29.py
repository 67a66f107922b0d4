"""Rows RT41-RT60 (serveblind29): MLPerf Inference v6.0 Server logs of systems no row cited, scored blind.

The logs are read from gbeezybez/inference_results_v6.0 at ab33b214 (MLCommons' 'Publishing Results' commit of
mlcommons/inference_results_v6.0, the copy the MP and RT15.. rows read). Each row is one Server run (loadgen's Poisson
arrivals at the scheduled rate) of a submitter-system pair no row had cited: partners' B300 / B200 runs of NVIDIA's
harness (Llama 2 70B, Llama 3.1 8B and 405B, DeepSeek-R1), HPE's 2 x RTX PRO 6000 Server Edition (Llama 2 70B, Llama
3.1 8B, Mixtral 8x7B), Dell's 8 x RTX PRO 6000 and 8 x H200 NVL, Dell's and HPE's 8 x MI355X and Cisco's 8 x MI350X
on AMD's vLLM harness. The figures below are copied from each log's summary; the checks redo the log's arithmetic
(output tokens a sample = tokens/s over completed samples/s) and that the harness estimates every row inside the band
the blind reading set (validation README, 'Rows RT41-RT60').
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .validation_rows import assert_logs_read_once, assert_rate_rows_within, rows_in

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
V60 = "https://github.com/gbeezybez/inference_results_v6.0/blob/ab33b2144a9f822f69d24f78569f993d195ee7e5/closed/"
# row -> (results folder, benchmark, model, precision, gpu, GPUs, tp, mean prompt, scheduled /s, completed /s,
#         tokens/s, TTFT mean / p50 / p95 / p99 ms, TPOT mean / p50 / p95 / p99 ms, the config's settings as entered)
LOGS = {
    "RT41": ("Dell/results/XE9780L-B300-SXM-270GBx8_TRT",
             "llama2-70b-99", "llama-2-70b", "fp4", "b300", 8, 1, 222, 399.76, 396.85, 108392.26,
             (286.3, 263.1, 464.2, 575.3), (129.0, 131.8, 136.2, 138.3),
             "max_batch_size=2048;api_servers=0"),
    "RT42": ("Dell/results/XE9780L-B300-SXM-270GBx8_TRT",
             "deepseek-r1", "deepseek-r1", "fp4", "b300", 8, 1, 804, 12.53, 12.37, 46510.56,
             (467.8, 462.9, 711.1, 750.2), (57.6, 58.9, 59.7, 60.2),
             "max_batch_size=640"),
    "RT43": ("GigaComputing/results/G894-SD3-AAX7_B300-SXM-270GBx8_TRT",
             "llama3.1-405b", "llama-3.1-405b", "fp4", "b300", 8, 4, 9429, 2.11, 2.1, 1340.51,
             (1531.0, 1258.0, 3601.5, 4757.5), (94.0, 93.6, 116.2, 129.1),
             "max_batch_size=256;api_servers=0"),
    "RT44": ("ASUSTeK/results/XA_NB3I-E12_B300x8_TRT",
             "llama3.1-8b", "llama-3.1-8b", "fp4", "b300", 8, 1, 871, 1149.08, 1147.95, 148066.66,
             (336.4, 223.2, 995.5, 1456.5), (21.9, 21.6, 29.5, 32.5),
             "max_batch_size=6000;prefill_cuda_graphs=true"),
    "RT45": ("ASUSTeK/results/XA_NB3I-E12_B300x8_TRT",
             "llama2-70b-99", "llama-2-70b", "fp4", "b300", 8, 1, 222, 379.69, 374.83, 102185.73,
             (234.6, 232.2, 308.6, 336.9), (85.7, 83.8, 105.6, 108.0),
             "max_batch_size=3072;prefill_cuda_graphs=true"),
    "RT46": ("Google/results/B200-SXM-180GBx8_TRT",
             "llama3.1-405b", "llama-3.1-405b", "fp4", "b200", 8, 4, 9429, 1.53, 1.52, 983.63,
             (1878.0, 1595.9, 4242.1, 5473.2), (133.5, 134.8, 154.5, 163.1),
             "max_batch_size=256;api_servers=0"),
    "RT47": ("Nebius/results/nebius_b300_n1",
             "deepseek-r1", "deepseek-r1", "fp4", "b300", 8, 1, 804, 16.29, 16.05, 60413.44,
             (616.6, 593.8, 996.6, 1171.4), (69.3, 74.5, 78.8, 79.7),
             "max_batch_size=640"),
    "RT48": ("Supermicro/results/SYS-822GS-NBRT_B200-SXM-180GB_TRT",
             "llama2-70b-99", "llama-2-70b", "fp4", "b200", 8, 1, 222, 363.66, 361.99, 99301.48,
             (224.9, 224.7, 299.7, 398.5), (114.5, 116.9, 121.7, 123.7),
             "max_batch_size=2048;api_servers=0"),
    "RT49": ("Lambda_SIT/results/B200-SXM-180GBx8_TRT",
             "llama3.1-8b", "llama-3.1-8b", "fp4", "b200", 8, 1, 871, 1009.39, 1007.85, 130007.69,
             (242.0, 179.3, 701.4, 966.4), (17.0, 17.2, 20.6, 23.5),
             "max_batch_size=6000;prefill_cuda_graphs=true"),
    "RT50": ("HPE/results/HPE_ProLiant_XD685_B200_SXM_192GBx8_TRT",
             "llama2-70b-99", "llama-2-70b", "fp4", "b200", 8, 1, 222, 379.69, 377.78, 103635.32,
             (267.3, 257.6, 426.6, 524.1), (129.1, 131.8, 136.7, 138.7),
             "max_batch_size=2048;api_servers=0"),
    "RT51": ("HPE/results/HPE_Proliant_DL385_RTX_PRO_6000_PCIe_96GBx2_TRT_10_14_1_48_TRT",
             "llama2-70b-99", "llama-2-70b", "fp4", "rtx-pro-6000-blackwell-server", 2, 1, 222, 26.16, 25.48, 6952.97,
             (404.9, 341.0, 832.5, 1124.8), (162.8, 170.1, 177.0, 179.2),
             "max_batch_size=768;api_servers=0"),
    "RT52": ("HPE/results/HPE_Proliant_DL385_RTX_PRO_6000_PCIe_96GBx2_TRT_10_14_1_48_TRT",
             "llama3.1-8b", "llama-3.1-8b", "fp4", "rtx-pro-6000-blackwell-server", 2, 1, 871, 92.48, 92.24, 11899.72,
             (194.0, 144.8, 517.3, 742.3), (46.9, 47.3, 53.2, 53.7),
             "max_batch_size=1280;api_servers=0"),
    "RT53": ("HPE/results/HPE_Proliant_DL385_RTX_PRO_6000_PCIe_96GBx2_TRT_10_11_0_33_TRT",
             "mixtral-8x7b", "mixtral-8x7b", "fp8", "rtx-pro-6000-blackwell-server", 2, 1, 427, 53.09, 52.95, 7742.84,
             (293.5, 282.2, 470.6, 575.2), (160.7, 162.1, 181.9, 192.5),
             "max_batch_size=1840;api_servers=0"),
    "RT54": ("Dell/results/XE7745_RTXPro6000_PCIe_96GBx8_TRT",
             "llama3.1-8b", "llama-3.1-8b", "fp4", "rtx-pro-6000-blackwell-server", 8, 1, 871, 350.15, 348.9, 45008.59,
             (464.9, 372.0, 1238.1, 1880.9), (39.6, 37.8, 53.4, 57.2),
             "max_batch_size=4096;prefill_cuda_graphs=true"),
    "RT55": ("Cisco/results/C880A_M8_B300_288GBx8_TRT",
             "llama3.1-405b", "llama-3.1-405b", "fp4", "b300", 8, 4, 9429, 2.21, 2.2, 1445.70,
             (1721.3, 1441.1, 4007.8, 5301.0), (113.4, 113.4, 127.1, 135.2),
             "max_batch_size=256;prefill_cuda_graphs=true"),
    "RT56": ("Dell/results/XE7740_H200_NVL_141GBx8_TRT",
             "llama2-70b-99", "llama-2-70b", "fp8", "h200-nvl-141gb", 8, 1, 222, 99.9, 98.81, 29084.87,
             (310.9, 299.4, 524.2, 620.7), (153.9, 157.1, 163.9, 167.2),
             "max_batch_size=2048;api_servers=0"),
    "RT57": ("Dell/results/XE7740_H200_NVL_141GBx8_TRT",
             "llama3.1-8b", "llama-3.1-8b", "fp8", "h200-nvl-141gb", 8, 1, 871, 350.15, 349.43, 45075.81,
             (539.3, 453.1, 1299.0, 1709.7), (16.3, 16.6, 22.4, 24.7),
             "max_batch_size=2048;prefill_cuda_graphs=true"),
    "RT58": ("Dell/results/8xMI355X_2xEPYC_9655",
             "llama2-70b-99", "llama-2-70b", "fp4", "mi355x", 8, 1, 222, 345.8, 341.8, 96734.37,
             (629.5, 649.5, 917.7, 1058.5), (147.1, 156.1, 161.7, 164.0),
             "max_batch_size=3096;rocm_aiter=true;api_servers=0;rocm_fp4_asm_gemm=true"
             ";prefill_admission_steps=2;prefill_admission_floor=1216"),  # its server yaml (amdcadence66)
    "RT59": ("HPE/results/HPE_ProLiant_XD685_MI355X_288GBx8",
             "llama2-70b-99", "llama-2-70b", "fp4", "mi355x", 8, 1, 222, 341.8, 337.56, 95544.29,
             (571.6, 590.1, 833.5, 969.2), (133.7, 141.0, 145.8, 147.8),
             "max_batch_size=3096;rocm_aiter=true;api_servers=0;rocm_fp4_asm_gemm=true"
             ";prefill_admission_steps=2;prefill_admission_floor=1216"),  # its server yaml (amdcadence66)
    "RT60": ("Cisco/results/Cisco_UCS_8xMI350x",
             "llama2-70b-99", "llama-2-70b", "fp4", "mi350x", 8, 1, 222, 281.68, 272.51, 76617.44,
             (443.8, 408.9, 743.4, 859.2), (115.6, 124.1, 136.2, 138.6),
             "max_batch_size=3096;rocm_aiter=true;api_servers=0;rocm_fp4_asm_gemm=true"
             ";prefill_admission_steps=2;prefill_admission_floor=1216"),  # its server yaml (amdcadence66)
}
# the scenario's p99 constraints (TTFT ms, TPOT ms) by benchmark, MLPerf Inference v6.0 rules
CAPS = {"llama2-70b": (2000, 200), "llama3.1-8b": (2000, 100), "deepseek-r1": (2000, 80), "mixtral-8x7b": (2000, 200),
        "llama3.1-405b": (6000, 175)}
# ratios est / published, blind (README, 'Rows RT41-RT60'): 0.50 (RT44, Llama 3.1 8B over HTTP on 8 x B300) to 1.01
BAND = (0.5, 1.05)


def _rows() -> dict[str, dict]:
    return rows_in("serving_rate.csv", "RT", 41, 60)


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows()) == sorted(LOGS)


@pytest.mark.parametrize("row_id", sorted(LOGS))
def test_a_row_is_its_log(row_id):
    row = _rows()[row_id]
    folder, bench, model, precision, gpu, n, tp, prompt, sched, done, tput, ttft, tpot, options = LOGS[row_id]
    assert row["source"] == f"{V60}{folder}/{bench}/Server/performance/run_1/mlperf_log_summary.txt"
    amd = gpu.startswith("mi3")
    stated = (row["model"], row["precision"], row["gpu"], row["count"], row["tp"], row["pp"], row["prompt_tokens"],
              row["framework"], row["kv_precision"])
    assert stated == (model, precision, gpu, str(n), str(tp), "1", str(prompt), "vllm" if amd else "tensorrt-llm",
                      "fp8")
    # AMD's harness pins vLLM 11b6af528 (0.14.0, as MP22 / MP23); NVIDIA's names no TensorRT-LLM build
    assert row["framework_version"] == ("0.14.0" if amd else "")
    # DeepSeek-R1 runs attention data parallel over 8 ranks with the experts split 8 ways (as RT01)
    assert row["ep"] == ("8" if model == "deepseek-r1" else "1" if model == "mixtral-8x7b" else "")
    assert (float(row["request_rate"]), float(row["served_requests_per_s"])) == (sched, done)
    assert float(row["output_tokens_per_s"]) == tput
    # loadgen counts only generated tokens: tokens/s over completed samples/s is the mean output a sample
    assert int(row["output_tokens"]) == round(tput / done)
    assert (float(row["ttft_ms"]), float(row["ttft_p50_ms"]), float(row["ttft_p95_ms"]),
            float(row["ttft_p99_ms"])) == ttft
    assert (float(row["tpot_ms"]), float(row["tpot_p50_ms"]), float(row["tpot_p95_ms"]),
            float(row["tpot_p99_ms"])) == tpot
    assert row["workload_options"] == options
    # a valid Server run keeps its p99 latencies inside the benchmark's constraints
    ttft_cap, tpot_cap = CAPS[re.sub(r"-99(\.9)?$", "", bench)]
    assert ttft[3] <= ttft_cap and tpot[3] <= tpot_cap


def test_no_log_is_read_twice():
    assert_logs_read_once(_rows(), LOGS)


def test_the_harness_estimates_every_row_within_the_blind_band():
    assert_rate_rows_within(_rows(), LOGS, BAND)
