"""Rows SX01-SX16 and RY01-RY20 (serveblind41): MLPerf Inference v5.1 logs no row had cited, scored blind.

The logs are read from mlcommons/inference_results_v5.1 at 965182b0 (the commit the ML / RV rows read): llama2-70b-99
Interactive on NVIDIA's harness over 8 x B200 (NVIDIA's, Dell's, GigaComputing's, Google's, Nebius's, Supermicro's),
8 and 4 x H200 NVL (Dell's, Quanta's) and HPE's 8 x H200, on AMD's harness over Vultr's, GigaComputing's and Quanta's
8 x MI325X and Dell's 8 x MI300X; llama2-70b-99 Server on Nebius's GB200 x 4, HPE's 8 x RTX PRO 6000, Dell and
Broadcom's virtualised 8 x H200 and four partners' 8 x MI325X (AMD's harness); Offline: Llama 2 70B on four of those
systems, Llama 3.1 405B on nine partners' 8 x B200, the virtualised 8 x H200 and NVIDIA's GB200 / GB300 NVL72 racks.
The figures below are copied from each log's mlperf_log_summary.txt; the checks redo the log's arithmetic (output
tokens a sample = tokens/s over samples/s: loadgen counts generated tokens only), hold each VALID run to its
benchmark's p99 constraints, and hold the harness's estimates to the bands the blind reading set (validation README,
'Rows SX01-SX16 and RY01-RY20').
"""

from __future__ import annotations

import pytest

from .validation_rows import V51, assert_logs_read_once, assert_rate_rows_within, rows_in, serving_ratios

# Offline: row -> (results folder, benchmark, model, precision, gpu, GPUs, tp, pp, mean prompt, samples/s, tokens/s,
#          the config's settings as entered)
OFFLINE = {
    "SX01": ("Nebius/results/GB200-NVL72_GB200-186GB_aarch64x4_TRT",
             "llama2-70b-99", "llama-2-70b", "fp4", "gb200", 4, "1", "1", 222,
             181.78, 49683.5, "max_batch_size=2048"),
    "SX02": ("Dell_Broadcom/results/vXE9680_H200-SXM-141GBx8_TRT",
             "llama2-70b-99", "llama-2-70b", "fp8", "h200-141gb-sxm", 8, "1", "1", 222,
             116.915, 34301.9, "max_batch_size=2048"),
    "SX03": ("HPE/results/HPE_PROLIANT_DL380A_RTX_PRO_6000_PCIE_96GBx8_TRT_TRT",
             "llama2-70b-99", "llama-2-70b", "fp4", "rtx-pro-6000-blackwell-server", 8, "1", "1", 222,
             96.1302, 26205.8, "max_batch_size=2048"),
    "SX04": ("Supermicro/results/SYS-422GS-NBRT-LCC_B200-SXM-180GBx8_TRT",
             "llama2-70b-99", "llama-2-70b", "fp4", "b200", 8, "1", "1", 222,
             375.007, 102498.0, "max_batch_size=2048"),
    "SX05": ("Dell/results/XE9685L_B200_SXM_180GBx8_TRT",
             "llama3.1-405b", "llama-3.1-405b", "fp4", "b200", 8, "2", "2", 9429,
             2.54266, 1660.71, "max_batch_size=128"),
    "SX06": ("GigaComputing/results/G894-SD1_B200-SXM-180GBx8_TRT",
             "llama3.1-405b", "llama-3.1-405b", "fp4", "b200", 8, "2", "2", 9429,
             2.48901, 1625.66, "max_batch_size=128"),
    "SX07": ("Lenovo/results/SR780a_V3_B200SXMx8_TRT",
             "llama3.1-405b", "llama-3.1-405b", "fp4", "b200", 8, "2", "2", 9429,
             2.50422, 1637.11, "max_batch_size=128"),
    "SX08": ("Nebius/results/B200-SXM-180GBx8_TRT", "llama3.1-405b", "llama-3.1-405b", "fp4", "b200", 8, "2", "2", 9429,
             2.54066, 1659.5, "max_batch_size=128"),
    "SX09": ("Oracle/results/B200-SXM-180GBx8_TRT", "llama3.1-405b", "llama-3.1-405b", "fp4", "b200", 8, "2", "2", 9429,
             2.47846, 1615.85, "max_batch_size=128"),
    "SX10": ("Supermicro/results/SYS-422GA-NBRT-LCC_B200-SXM-180GBx8_TRT",
             "llama3.1-405b", "llama-3.1-405b", "fp4", "b200", 8, "2", "2", 9429,
             2.51068, 1641.34, "max_batch_size=128"),
    "SX11": ("Supermicro/results/SYS-422GS-NBRT-LCC_B200-SXM-180GBx8_TRT",
             "llama3.1-405b", "llama-3.1-405b", "fp4", "b200", 8, "2", "2", 9429,
             2.5247, 1650.51, "max_batch_size=128"),
    "SX12": ("Supermicro/results/SYS-A21GE-NBRT_B200-SXM-180GBx8_TRT",
             "llama3.1-405b", "llama-3.1-405b", "fp4", "b200", 8, "2", "2", 9429,
             2.47911, 1621.72, "max_batch_size=128"),
    "SX13": ("Broadcom_Supermicro/results/vSYS-422GA-NBRT-B200-SXM-180GBx8_TRT",
             "llama3.1-405b", "llama-3.1-405b", "fp4", "b200", 8, "2", "2", 9429,
             2.52694, 1650.43, "max_batch_size=128"),
    "SX14": ("Dell_Broadcom/results/vXE9680_H200-SXM-141GBx8_TRT",
             "llama3.1-405b", "llama-3.1-405b", "fp8", "h200-141gb-sxm", 8, "4", "2", 9429,
             0.84408, 547.261, "max_batch_size=512"),
    "SX15": ("NVIDIA/results/GB200-NVL72_GB200-186GB_aarch64x72_TRT",
             "llama3.1-405b", "llama-3.1-405b", "fp4", "gb200", 72, "2", "2", 9429,
             22.6462, 14774.3, "max_batch_size=2048"),
    "SX16": ("NVIDIA/results/GB300-NVL72_GB300-288GB_aarch64x72_TRT",
             "llama3.1-405b", "llama-3.1-405b", "fp4", "gb300", 72, "2", "1", 9429,
             25.5809, 16104.1, "max_batch_size=2048"),
}
# Server / Interactive: row -> (results folder, scenario, gpu, GPUs, framework release, scheduled /s, completed /s,
#   tokens/s, TTFT mean / p50 / p95 / p99 ms, TPOT mean / p50 / p95 / p99 ms, the log's target_qps, the config's
#   settings as entered); every one llama2-70b-99, FP8 KV cache, one engine copy a GPU (tp 1), OpenOrca's 222-token
#   mean prompt
RATE = {
    "RY01": ("NVIDIA/results/B200-SXM-180GBx8_TRT", "Interactive", "b200", 8, "", 220.11, 218.82, 59545.45,
             (69.0, 63.3, 116.2, 140.4),
             (34.2, 34.5, 37.2, 38.1), "220", "max_batch_size=768;prefill_chunk_tokens=768;api_servers=0"),
    "RY02": ("Dell/results/XE9680L_B200_SXM_180GBx8_TRT", "Interactive", "b200", 8, "", 220.11, 219.24, 60137.55,
             (57.6, 52.7, 99.5, 118.4),
             (32.3, 32.1, 35.1, 35.9), "220", "max_batch_size=768;prefill_chunk_tokens=768;api_servers=0"),
    "RY03": ("GigaComputing/results/G894-SD1_B200-SXM-180GBx8_TRT",
             "Interactive", "b200", 8, "", 229.99, 229.11, 62851.2,
             (108.8, 89.2, 244.0, 353.3),
             (31.5, 31.6, 32.8, 33.1), "230", "max_batch_size=768;prefill_chunk_tokens=512;api_servers=0"),
    "RY04": ("Google/results/B200-SXM-180GBx8_TRT", "Interactive", "b200", 8, "", 193.82, 193.04, 52140.68,
             (62.0, 57.0, 107.1, 126.6),
             (35.2, 35.2, 37.5, 39.3), "193.6", "max_batch_size=768;prefill_chunk_tokens=768;api_servers=0"),
    "RY05": ("Nebius/results/B200-SXM-180GBx8_TRT", "Interactive", "b200", 8, "", 217.8, 217.36, 59622.73,
             (67.3, 59.9, 119.1, 147.4),
             (35.5, 35.8, 38.6, 39.8), "218", "max_batch_size=768;prefill_chunk_tokens=768;api_servers=0"),
    "RY06": ("Supermicro/results/SYS-422GS-NBRT-LCC_B200-SXM-180GBx8_TRT",
             "Interactive", "b200", 8, "", 220.11, 219.21, 60131.05,
             (57.9, 52.9, 100.4, 119.0),
             (32.3, 32.1, 34.8, 35.7), "220", "max_batch_size=768;prefill_chunk_tokens=768;api_servers=0"),
    "RY07": ("Nebius/results/GB200-NVL72_GB200-186GB_aarch64x4_TRT", "Server", "gb200", 4, "", 183.04, 179.41, 49215.88,
             (218.3, 217.3, 312.5, 395.3), (109.8, 116.8, 123.9, 125.6), "183", "max_batch_size=2048;api_servers=0"),
    "RY08": ("Dell/results/XE7745_H200_NVL_141GBx8_TRT", "Interactive", "h200-nvl-141gb", 8, "", 56.27, 56.0, 16419.18,
             (106.3, 85.2, 221.3, 295.2),
             (37.4, 37.5, 38.9, 39.7), "56", "max_batch_size=256;prefill_chunk_tokens=256;api_servers=0"),
    "RY09": ("Quanta_Cloud_Technology/results/D75E-4U_H200-NVL-141GBx4_TRT",
             "Interactive", "h200-nvl-141gb", 4, "", 23.15, 23.04, 6709.74,
             (93.6, 74.4, 199.9, 254.3),
             (33.3, 32.7, 38.0, 39.3), "23", "max_batch_size=512;prefill_chunk_tokens=256;api_servers=0"),
    "RY10": ("Vultr/results/8xMI325X_2xEPYC_9554", "Interactive", "mi325x", 8, "0.9.0", 59.38, 58.87, 17709.62,
             (112.9, 95.8, 236.6, 323.2),
             (34.6, 34.7, 36.9, 38.9), "59", "max_batch_size=3840;prefill_chunk_tokens=43008;api_servers=0"),
    "RY11": ("Vultr/results/8xMI325X_2xEPYC_9554", "Server", "mi325x", 8, "0.9.0", 103.49, 101.0, 30339.4,
             (932.7, 941.9, 1444.4, 1678.8), (113.3, 120.0, 129.8, 135.7), "103", "max_batch_size=1024;api_servers=0"),
    "RY12": ("GigaComputing/results/8xMI325X_2xEPYC_9575F", "Interactive", "mi325x", 8, "0.9.0", 63.4, 62.68, 18825.92,
             (117.7, 101.5, 243.0, 341.7),
             (34.9, 34.9, 37.5, 39.6), "63", "max_batch_size=3840;prefill_chunk_tokens=43008;api_servers=0"),
    "RY13": ("Quanta_Cloud_Technology/results/D75T-7U_8xMI325X",
             "Interactive", "mi325x", 8, "0.9.0", 59.38, 58.73, 17632.98,
             (115.6, 100.3, 233.5, 321.3),
             (35.1, 35.1, 37.5, 39.6), "59", "max_batch_size=3840;prefill_chunk_tokens=43008;api_servers=0"),
    "RY14": ("Dell/results/XE9680_MI300X_192GBx8", "Interactive", "mi300x", 8, "0.9.0", 28.42, 28.13, 8455.14,
             (199.9, 196.6, 352.2, 430.8), (32.3, 32.1, 35.6, 39.1), "28.3", "max_batch_size=600;api_servers=0"),
    "RY15": ("HPE/results/HPE_PROLIANT_DL380A_RTX_PRO_6000_PCIE_96GBx8_TRT_TRT",
             "Server", "rtx-pro-6000-blackwell-server", 8, "", 96.11, 94.98, 26005.9,
             (343.4, 339.0, 489.0, 607.4), (176.7, 180.4, 187.2, 191.3), "96", "max_batch_size=2048;api_servers=0"),
    "RY16": ("Dell_Broadcom/results/vXE9680_H200-SXM-141GBx8_TRT",
             "Server", "h200-141gb-sxm", 8, "", 114.23, 113.4, 33384.69,
             (395.9, 354.1, 741.0, 960.2), (168.8, 172.1, 180.2, 183.3), "114.24", "max_batch_size=2048;api_servers=0"),
    "RY17": ("GigaComputing/results/8xMI325X_2xEPYC_9575F", "Server", "mi325x", 8, "0.9.0", 110.03, 106.98, 32139.41,
             (857.9, 793.6, 1523.0, 1742.1),
             (144.6, 157.2, 175.5, 193.7), "109.5", "max_batch_size=1024;api_servers=0"),
    "RY18": ("MiTAC/results/8xMI325X_2xEPYC_9755", "Server", "mi325x", 8, "0.9.0", 108.27, 105.47, 31755.66,
             (868.4, 803.6, 1527.1, 1733.8), (148.8, 158.4, 176.4, 194.8), "108", "max_batch_size=1024;api_servers=0"),
    "RY19": ("Quanta_Cloud_Technology/results/D75T-7U_8xMI325X",
             "Server", "mi325x", 8, "0.9.0", 108.52, 104.43, 31401.37,
             (864.3, 801.6, 1516.2, 1722.7), (144.5, 156.4, 174.0, 191.7), "108", "max_batch_size=1024;api_servers=0"),
    "RY20": ("HPE/results/HPE_Cray_XD670_H200_SXM_141GBx8_TRT",
             "Interactive", "h200-141gb-sxm", 8, "", 70.17, 69.79, 20432.07,
             (102.5, 85.4, 218.1, 291.1),
             (35.2, 35.2, 36.6, 37.4), "70", "max_batch_size=512;prefill_chunk_tokens=256;api_servers=0"),
}
# the scenarios' p99 constraints (TTFT ms, TPOT ms), MLPerf Inference v5.1 rules as each log's test parameters print
# them (ttft_latency / tpot_latency)
CAPS = {"Server": (2000, 200), "Interactive": (450, 40)}
# est / published as the rows stand (README, 'Rows SX01-SX16 and RY01-RY20'): the Offline rows 0.90 (SX02, Llama 2 70B
# FP8 on the virtualised 8 x H200) to 1.28 (SX16, Llama 3.1 405B on the GB300 rack); the rate rows 0.42 (RY03,
# GigaComputing's B200 Interactive at a 512-token step budget, priced as the PyTorch backend's eager prompt steps) to
# 1.02 (RY07)
OFFLINE_BAND = (0.89, 1.29)
RATE_BAND = (0.42, 1.03)
_405B = {"llama-3.1-405b"}


def _offline() -> dict[str, dict]:
    return rows_in("serving_independent.csv", "SX", 1, 20)


def _rate() -> dict[str, dict]:
    return rows_in("serving_rate.csv", "RY", 1, 20)


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_offline()) == sorted(OFFLINE)
    assert sorted(_rate()) == sorted(RATE)


@pytest.mark.parametrize("row_id", sorted(OFFLINE))
def test_an_offline_row_is_its_log(row_id):
    r = _offline()[row_id]
    folder, bench, model, precision, gpu, n, tp, pp, prompt, sps, tps, options = OFFLINE[row_id]
    assert r["source"] == f"{V51}{folder}/{bench}/Offline/performance/run_1/mlperf_log_summary.txt"
    assert (r["model"], r["precision"], r["gpu"], int(r["count"]), r["tp"], r["pp"], r["ep"], int(r["prompt_tokens"]),
            r["concurrency"], r["kv_precision"]) == (model, precision, gpu, n, tp, pp, "", prompt, "max", "fp8")
    assert float(r["output_tokens_per_s"]) == tps
    assert int(r["output_tokens"]) == round(tps / sps)  # e.g. SX05: 1,660.71 / 2.54266 = 653.1 -> 653
    assert r["workload_options"] == options
    # NVIDIA's harness, no TensorRT-LLM release named (as SH147 / RV01); a copy is tp x pp GPUs of the count
    assert (r["framework"], r["framework_version"]) == ("tensorrt-llm", "")
    assert n % (int(tp) * int(pp)) == 0
    # the 405B logs' samples run 9,428.6-token prompts; Llama 2 70B's OpenOrca 222.3
    assert prompt == (9429 if model in _405B else 222)


@pytest.mark.parametrize("row_id", sorted(RATE))
def test_a_rate_row_is_its_log(row_id):
    r = _rate()[row_id]
    folder, scenario, gpu, n, release, sched, done, tps, ttft, tpot, target, options = RATE[row_id]
    assert r["source"] == f"{V51}{folder}/llama2-70b-99/{scenario}/performance/run_1/mlperf_log_summary.txt"
    assert (r["model"], r["gpu"], int(r["count"]), r["tp"], r["ep"], int(r["prompt_tokens"]), r["kv_precision"],
            r["framework_version"]) == ("llama-2-70b", gpu, n, "1", "", 222, "fp8", release)
    assert r["framework"] == ("vllm" if gpu.startswith("mi3") else "tensorrt-llm")
    assert (float(r["request_rate"]), float(r["served_requests_per_s"]), float(r["output_tokens_per_s"])) == (
        sched, done, tps)
    assert int(r["output_tokens"]) == round(tps / done)
    assert (float(r["ttft_ms"]), float(r["ttft_p50_ms"]), float(r["ttft_p95_ms"]), float(r["ttft_p99_ms"])) == ttft
    assert (float(r["tpot_ms"]), float(r["tpot_p50_ms"]), float(r["tpot_p95_ms"]), float(r["tpot_p99_ms"])) == tpot
    assert r["workload_options"] == options and f"target_qps {target} in the log" in r["notes"]
    # a VALID run keeps its p99 latencies inside the scenario's constraints, and serves within 4% of its schedule
    # (Quanta's MI325X Server: 104.43 of 108.52 a second, Vultr's 101.00 of 103.49)
    cap_ttft, cap_tpot = CAPS[scenario]
    assert ttft[3] <= cap_ttft and tpot[3] <= cap_tpot
    assert 0.96 * sched <= done <= sched


def test_no_log_is_read_twice():
    assert_logs_read_once({**_offline(), **_rate()}, {**OFFLINE, **RATE})


def test_the_offline_rows_are_estimated_within_their_band(tmp_path):
    from gpuwise import knowledge

    ratios = serving_ratios(knowledge.load(), tmp_path, set(OFFLINE))
    assert sorted(ratios) == sorted(OFFLINE)
    for row_id, ratio in ratios.items():
        assert OFFLINE_BAND[0] <= ratio <= OFFLINE_BAND[1], (row_id, ratio)


def test_the_rate_rows_are_estimated_within_their_band():
    assert_rate_rows_within(_rate(), RATE, RATE_BAND)
