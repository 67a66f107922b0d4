"""Rows SO16-SO39 and RX08-RX20 (serveblind40): MLPerf Inference v5.1 logs no row had cited, scored blind.

The logs are read from mlcommons/inference_results_v5.1 at 965182b0 (the commit the ML / RV rows read): DeepSeek-R1
Offline and Server on NVIDIA's GB200 and GB300 NVL72 racks, Mixtral 8x7B Offline and Server on MiTAC's, Quanta's,
Vultr's and GigaComputing's 8 x MI325X (AMD's vLLM harness), and llama2-70b-99 Interactive on AMD's, ASUSTeK's and
MiTAC's MI300X / MI325X systems (AMD's harness) and Dell's, Google's and Nebius's 8 x H200 (NVIDIA's harness); a
second batch (SO21-SO39) of Offline logs: Llama 3.1 8B on partners' 8 x B200 and 8 x RTX PRO 6000, Llama 2 70B on
8 x MI325X (AMD's harness), 8 x H200 and 8 x B200 (NVIDIA's). The
figures below are copied from each log's mlperf_log_summary.txt; the checks redo the log's arithmetic (output tokens
a sample = tokens/s over samples/s: loadgen counts generated tokens only), hold each VALID run to its benchmark's p99
constraints, and hold the harness's estimates to the bands the blind reading set (validation README, 'Rows SO16-SO39
and RX08-RX20').
"""

from __future__ import annotations

import pytest

from .validation_rows import V51, assert_logs_read_once, assert_rate_rows_within, rows_in, serving_ratios

# Offline: row -> (results folder, benchmark, model, precision, gpu, GPUs, ep, mean prompt, samples/s, tokens/s,
#          the config's settings as entered)
OFFLINE = {
    "SO16": ("NVIDIA/results/GB200-NVL72_GB200-186GB_aarch64x72_TRT", "deepseek-r1", "deepseek-r1", "fp4", "gb200",
             72, "8", 804, 77.995, 289712.0, "max_batch_size=512"),
    "SO17": ("NVIDIA/results/GB300-NVL72_GB300-288GB_aarch64x72_TRT", "deepseek-r1", "deepseek-r1", "fp4", "gb300",
             72, "8", 804, 115.017, 420659.0, "max_batch_size=1536"),
    "SO18": ("MiTAC/results/8xMI325X_2xEPYC_9755", "mixtral-8x7b", "mixtral-8x7b", "fp8", "mi325x", 8, "1", 427,
             474.238, 67964.4, "max_batch_size=4736"),
    "SO19": ("Quanta_Cloud_Technology/results/D75T-7U_8xMI325X", "mixtral-8x7b", "mixtral-8x7b", "fp8", "mi325x", 8,
             "1", 427, 475.837, 68218.7, "max_batch_size=4736"),
    "SO20": ("Vultr/results/8xMI325X_2xEPYC_9575F", "mixtral-8x7b", "mixtral-8x7b", "fp8", "mi325x", 8, "1", 427,
             487.512, 70035.6, "max_batch_size=4736"),
    # second batch: Llama 3.1 8B, then Llama 2 70B on AMD's harness (MI325X) and NVIDIA's (H200, B200)
    "SO21": ("Dell/results/XE9685L_B200_SXM_180GBx8_TRT", "llama3.1-8b", "llama-3.1-8b", "fp4",
             "b200", 8, "", 871, 1115.68, 143904.0, "max_batch_size=6000"),
    "SO22": ("GigaComputing/results/G894-SD1_B200-SXM-180GBx8_TRT", "llama3.1-8b", "llama-3.1-8b", "fp4",
             "b200", 8, "", 871, 1110.44, 142136.0, "max_batch_size=6000"),
    "SO23": ("HPE/results/HPE_PROLIANT_DL380A_RTX_PRO_6000_PCIE_96GBx8_TRT_TRT", "llama3.1-8b", "llama-3.1-8b", "fp4",
             "rtx-pro-6000-blackwell-server", 8, "", 871, 365.952, 46841.8, "max_batch_size=2048"),
    "SO24": ("Oracle/results/B200-SXM-180GBx8_TRT", "llama3.1-8b", "llama-3.1-8b", "fp4",
             "b200", 8, "", 871, 1138.98, 145789.0, "max_batch_size=6000"),
    "SO25": ("Supermicro/results/AS-4126GS-NBR-LCC_B200-SXM-180GBx8_TRT", "llama3.1-8b", "llama-3.1-8b", "fp4",
             "b200", 8, "", 871, 1108.32, 142955.0, "max_batch_size=6000"),
    "SO26": ("Supermicro/results/SYS-422GS-NBRT-LCC_B200-SXM-180GBx8_TRT", "llama3.1-8b", "llama-3.1-8b", "fp4",
             "b200", 8, "", 871, 1093.6, 141056.0, "max_batch_size=6000"),
    "SO27": ("AMD/results/8xMI325X_2xEPYC_9575F_2", "llama2-70b-99", "llama-2-70b", "fp8",
             "mi325x", 8, "", 222, 114.852, 34555.0, "max_batch_size=2700"),
    "SO28": ("MiTAC/results/8xMI325X_2xEPYC_9755", "llama2-70b-99", "llama-2-70b", "fp8",
             "mi325x", 8, "", 222, 111.994, 33703.0, "max_batch_size=2700"),
    "SO29": ("Quanta_Cloud_Technology/results/D75T-7U_8xMI325X", "llama2-70b-99", "llama-2-70b", "fp8",
             "mi325x", 8, "", 222, 108.888, 32760.5, "max_batch_size=2700"),
    "SO30": ("Vultr/results/8xMI325X_2xEPYC_9554", "llama2-70b-99", "llama-2-70b", "fp8",
             "mi325x", 8, "", 222, 112.148, 33762.5, "max_batch_size=2700"),
    "SO31": ("Dell/results/XE9680_H200_SXM_141GBx8_TRT", "llama2-70b-99", "llama-2-70b", "fp8",
             "h200-141gb-sxm", 8, "", 222, 120.831, 35316.7, "max_batch_size=2048"),
    "SO32": ("Google/results/H200-SXM-141GBx8_TRT", "llama2-70b-99", "llama-2-70b", "fp8",
             "h200-141gb-sxm", 8, "", 222, 119.442, 35043.7, "max_batch_size=2048"),
    "SO33": ("HPE/results/HPE_Cray_XD670_H200_SXM_141GBx8_TRT", "llama2-70b-99", "llama-2-70b", "fp8",
             "h200-141gb-sxm", 8, "", 222, 119.856, 34964.6, "max_batch_size=2506"),
    "SO34": ("Quanta_Cloud_Technology/results/D74U-7U_H200-SXM-141GBx8_TRT", "llama2-70b-99", "llama-2-70b", "fp8",
             "h200-141gb-sxm", 8, "", 222, 119.605, 35091.5, "max_batch_size=2048"),
    "SO35": ("Dell/results/XE9685L_B200_SXM_180GBx8_TRT", "llama2-70b-99", "llama-2-70b", "fp4",
             "b200", 8, "", 222, 373.663, 102131.0, "max_batch_size=2048"),
    "SO36": ("GigaComputing/results/G894-SD1_B200-SXM-180GBx8_TRT", "llama2-70b-99", "llama-2-70b", "fp4",
             "b200", 8, "", 222, 360.772, 98607.7, "max_batch_size=2048"),
    "SO37": ("Lenovo/results/SR680a_V3_B200SXMx8_TRT", "llama2-70b-99", "llama-2-70b", "fp4",
             "b200", 8, "", 222, 376.512, 102909.0, "max_batch_size=2048"),
    "SO38": ("Nebius/results/B200-SXM-180GBx8_TRT", "llama2-70b-99", "llama-2-70b", "fp4",
             "b200", 8, "", 222, 370.425, 101246.0, "max_batch_size=2048"),
    "SO39": ("Supermicro/results/AS-4126GS-NBR-LCC_B200-SXM-180GBx8_TRT", "llama2-70b-99", "llama-2-70b", "fp4",
             "b200", 8, "", 222, 371.415, 101516.0, "max_batch_size=2048"),
}
# Server / Interactive: row -> (results folder, benchmark, scenario, model, gpu, GPUs, ep, mean prompt, framework
#   release, scheduled /s, completed /s, tokens/s, TTFT mean / p50 / p95 / p99 ms, TPOT mean / p50 / p95 / p99 ms,
#   the log's target_qps, the config's settings as entered)
_MIX = "max_batch_size=2560;api_servers=0"
_I325 = "max_batch_size=3840;prefill_chunk_tokens=43008;api_servers=0"
_NVI = "max_batch_size=512;prefill_chunk_tokens=256;api_servers=0"
RATE = {
    "RX08": ("NVIDIA/results/GB200-NVL72_GB200-186GB_aarch64x72_TRT", "deepseek-r1", "Server", "deepseek-r1", "gb200",
             72, "8", 804, "1.0", 45.06, 44.76, 167578.06, (658.7, 641.4, 1060.9, 1246.0), (69.6, 61.3, 63.1, 64.5),
             "45", "max_batch_size=512;api_servers=0"),
    "RX09": ("NVIDIA/results/GB300-NVL72_GB300-288GB_aarch64x72_TRT", "deepseek-r1", "Server", "deepseek-r1", "gb300",
             72, "8", 804, "1.0", 60.08, 56.95, 209327.68, (780.2, 746.3, 1361.5, 1939.7), (63.7, 66.1, 69.1, 70.8),
             "60", "max_batch_size=512;api_servers=0"),
    "RX10": ("MiTAC/results/8xMI325X_2xEPYC_9755", "mixtral-8x7b", "Server", "mixtral-8x7b", "mi325x", 8, "1", 427,
             "0.9.0", 399.89, 397.31, 57087.13, (805.8, 818.2, 1312.4, 1584.8), (116.0, 118.1, 135.0, 147.9), "400",
             _MIX),
    "RX11": ("Quanta_Cloud_Technology/results/D75T-7U_8xMI325X", "mixtral-8x7b", "Server", "mixtral-8x7b", "mi325x",
             8, "1", 427, "0.9.0", 415.15, 410.95, 59040.80, (991.2, 1023.8, 1601.3, 1987.5),
             (147.7, 150.4, 179.4, 195.1), "415", _MIX),
    "RX12": ("Vultr/results/8xMI325X_2xEPYC_9575F", "mixtral-8x7b", "Server", "mixtral-8x7b", "mi325x", 8, "1", 427,
             "0.9.0", 394.43, 390.85, 56653.68, (849.5, 832.1, 1430.0, 1661.5), (123.0, 127.2, 140.0, 145.9), "394",
             _MIX),
    "RX13": ("GigaComputing/results/8xMI325X_2xEPYC_9575F", "mixtral-8x7b", "Server", "mixtral-8x7b", "mi325x", 8,
             "1", 427, "0.9.0", 405.15, 401.48, 58242.65, (981.8, 1003.1, 1626.9, 1975.4),
             (144.7, 145.7, 177.3, 192.7), "405", _MIX),
    "RX14": ("AMD/results/8xMI300X_2xEPYC_9575F", "llama2-70b-99", "Interactive", "llama-2-70b", "mi300x", 8, "", 222,
             "0.9.0", 29.62, 29.41, 8840.42, (201.3, 198.6, 354.0, 436.0), (32.1, 31.9, 35.5, 39.5), "29.5",
             "max_batch_size=600;api_servers=0"),
    "RX15": ("AMD/results/8xMI325X_2xEPYC_9575F_2", "llama2-70b-99", "Interactive", "llama-2-70b", "mi325x", 8, "",
             222, "0.9.0", 61.89, 61.24, 18407.20, (117.9, 101.6, 242.6, 334.0), (35.3, 35.3, 37.9, 39.8), "61.5",
             _I325),
    "RX16": ("ASUSTeK/results/ESC_A8A_MI325X_256GBx8", "llama2-70b-99", "Interactive", "llama-2-70b", "mi325x", 8, "",
             222, "0.9.0", 52.33, 51.85, 15566.18, (111.1, 95.8, 221.7, 303.7), (35.0, 34.9, 37.4, 39.4), "52", _I325),
    "RX17": ("MiTAC/results/8xMI325X_2xEPYC_9755", "llama2-70b-99", "Interactive", "llama-2-70b", "mi325x", 8, "",
             222, "0.9.0", 63.40, 62.80, 18846.10, (118.5, 102.0, 247.7, 343.9), (34.3, 34.3, 36.9, 39.0), "63", _I325),
    "RX18": ("Dell/results/XE9680_H200_SXM_141GBx8_TRT", "llama2-70b-99", "Interactive", "llama-2-70b",
             "h200-141gb-sxm", 8, "", 222, "", 75.19, 74.73, 21915.57, (124.9, 103.9, 269.7, 367.1),
             (37.2, 37.2, 38.2, 38.8), "75", _NVI),
    "RX19": ("Google/results/H200-SXM-141GBx8_TRT", "llama2-70b-99", "Interactive", "llama-2-70b", "h200-141gb-sxm", 8,
             "", 222, "", 67.37, 67.06, 19554.66, (93.6, 76.4, 193.3, 252.2), (34.0, 34.0, 35.1, 35.8), "67.2", _NVI),
    "RX20": ("Nebius/results/H200-SXM-141GBx8_TRT", "llama2-70b-99", "Interactive", "llama-2-70b", "h200-141gb-sxm", 8,
             "", 222, "", 79.39, 79.16, 23079.95, (137.9, 111.2, 309.8, 431.5), (37.1, 37.1, 38.7, 39.6), "79.3", _NVI),
}
# the scenarios' p99 constraints (TTFT ms, TPOT ms), MLPerf Inference v5.1 rules as each log's test parameters print
# them (ttft_latency / tpot_latency)
CAPS = {("deepseek-r1", "Server"): (2000, 80), ("mixtral-8x7b", "Server"): (2000, 200),
        ("llama2-70b-99", "Interactive"): (450, 40)}
# est / published as the rows stand (README, 'Rows SO16-SO39 and RX08-RX20'): the Offline rows 0.79 (SO27, Llama 2 70B
# on AMD's 8 x MI325X) to 1.15 (SO26, Llama 3.1 8B on 8 x B200); the rate rows 0.44 (RX20, llama2-70b Interactive on
# NVIDIA's harness with a 256-token step budget) to 1.06
OFFLINE_BAND = (0.78, 1.16)
RATE_BAND = (0.43, 1.07)


def _offline() -> dict[str, dict]:
    return rows_in("serving_independent.csv", "SO", 16, 40)


def _rate() -> dict[str, dict]:
    return rows_in("serving_rate.csv", "RX", 8, 20)


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_offline()) == sorted(OFFLINE)
    assert sorted(_rate()) == sorted(RATE)


@pytest.mark.parametrize("row_id", sorted(OFFLINE))
def test_an_offline_row_is_its_log(row_id):
    r = _offline()[row_id]
    folder, bench, model, precision, gpu, n, ep, prompt, sps, tps, options = OFFLINE[row_id]
    assert r["source"] == f"{V51}{folder}/{bench}/Offline/performance/run_1/mlperf_log_summary.txt"
    assert (r["model"], r["precision"], r["gpu"], int(r["count"]), r["tp"], r["pp"], r["ep"], int(r["prompt_tokens"]),
            r["concurrency"], r["kv_precision"]) == (model, precision, gpu, n, "1", "1", ep, prompt, "max", "fp8")
    assert float(r["output_tokens_per_s"]) == tps
    assert int(r["output_tokens"]) == round(tps / sps)  # e.g. SO16: 289,712 / 77.995 = 3,714.5 -> 3,714
    assert r["workload_options"] == options
    # NVIDIA's harness at TRTLLM_HASH 18c0333e ('1.0-mlpinf side branch', entered for DeepSeek-R1 as ML31; the
    # llama rows name no release, as SH144 / SH162); AMD's harness code is vLLM 0.9.0.2.dev108
    amd = gpu.startswith("mi3")
    assert r["framework"] == ("vllm" if amd else "tensorrt-llm")
    assert r["framework_version"] == ("0.9.0" if amd else "1.0" if model == "deepseek-r1" else "")


@pytest.mark.parametrize("row_id", sorted(RATE))
def test_a_rate_row_is_its_log(row_id):
    r = _rate()[row_id]
    (folder, bench, scenario, model, gpu, n, ep, prompt, release, sched, done, tps, ttft, tpot, target,
     options) = RATE[row_id]
    assert r["source"] == f"{V51}{folder}/{bench}/{scenario}/performance/run_1/mlperf_log_summary.txt"
    assert (r["model"], r["gpu"], int(r["count"]), r["tp"], r["ep"], int(r["prompt_tokens"]), r["kv_precision"],
            r["framework_version"]) == (model, gpu, n, "1", ep, prompt, "fp8", release)
    assert (float(r["request_rate"]), float(r["served_requests_per_s"]), float(r["output_tokens_per_s"])) == (
        sched, done, tps)
    assert int(r["output_tokens"]) == round(tps / done)
    assert (float(r["ttft_ms"]), float(r["ttft_p50_ms"]), float(r["ttft_p95_ms"]), float(r["ttft_p99_ms"])) == ttft
    assert (float(r["tpot_ms"]), float(r["tpot_p50_ms"]), float(r["tpot_p95_ms"]), float(r["tpot_p99_ms"])) == tpot
    assert r["workload_options"] == options and f"target_qps {target} in the log" in r["notes"]
    # a VALID run keeps its p99 latencies inside the scenario's constraints
    cap_ttft, cap_tpot = CAPS[(bench, scenario)]
    assert ttft[3] <= cap_ttft and tpot[3] <= cap_tpot
    # the racks' DeepSeek-R1 runs complete 1-5% under their scheduled rate (GB300: 56.95 of 60.08 a second)
    assert 0.94 * sched <= done <= sched


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
