"""Rows SA01-SA07 and RZ01-RZ26 (serveblind42): MLPerf Inference logs no row had cited, scored blind.

v6.0 logs from gbeezybez/inference_results_v6.0 at ab33b214 (MLCommons' 'Publishing Results' commit, as the MP / SH01
/ RT15 rows read it): DeepSeek-R1 Offline on CoreWeave's 64 x GB200 and 8 x GB300, Google's GB200 NVL72, NVIDIA's four
GB300 NVL72 racks and Nebius's GB300 NVL72 and 8 x GB300, Mixtral 8x7B Offline on HPE's 8 x B200; DeepSeek-R1 Server on
Dell's 8 x B300 and four of those racks and trays; Llama 3.1 405B on 8 x B300 (Quanta's Server, GigaComputing's
Interactive); Llama 3.1 8B Interactive on ASUSTeK's, HPE's and Lambda's 8 / 10 / 2 x RTX PRO 6000, 8 x B200 and
8 x B300. v5.1 logs from mlcommons/inference_results_v5.1 at 965182b0: every closed llama3.1-405b Interactive log no
row had cited (ten partners' 8 x B200, Nebius's 8 x H200, NVIDIA's GB200 NVL72). The figures below are copied from
each log's mlperf_log_summary.txt; the checks redo the log's arithmetic (output tokens a sample = tokens/s over
samples/s: loadgen counts generated tokens only), hold each VALID run to its benchmark's p99 constraints, and hold the
harness's estimates to the bands the blind reading set (validation README, 'Rows SA01-SA07 and RZ01-RZ26').
"""

from __future__ import annotations

import pytest

from .validation_rows import V51, assert_logs_read_once, assert_rate_rows_within, rows_in, serving_ratios

V6 = "https://github.com/gbeezybez/inference_results_v6.0/blob/ab33b2144a9f822f69d24f78569f993d195ee7e5/closed/"

# Offline: row -> (results folder, benchmark (= model id), gpu, GPUs, mean prompt, ep, samples/s, tokens/s, the
#          config's batch as entered); every one NVIDIA's v6.0 harness, FP8 KV cache, tp 1
OFFLINE = {
    "SA01": ("CoreWeave/results/GB200-NVL72_GB200-186GB_aarch64x64_TRT", "deepseek-r1", "gb200", 64, 804, "8",
             124.763, 468665, "max_batch_size=512"),
    "SA02": ("CoreWeave/results/GB300-NVL72_GB300-288GB_aarch64x8_TRT", "deepseek-r1", "gb300", 8, 804, "8",
             20.9377, 78564, "max_batch_size=1024"),
    "SA03": ("Google/results/GB200-NVL72_GB200-186GB_aarch64x72_TRT", "deepseek-r1", "gb200", 72, 804, "8",
             83.2479, 307874, "max_batch_size=512"),
    "SA04": ("NVIDIA/results/GB300-NVL72_GB300-288GB_aarch64x288_TRT", "deepseek-r1", "gb300", 288, 804, "8",
             664.711, 2494310, "max_batch_size=1536"),
    "SA05": ("Nebius/results/GB300-NVL72_GB300-288GB_aarch64x72_TRT", "deepseek-r1", "gb300", 72, 804, "8",
             179.593, 673936, "max_batch_size=1536"),
    "SA06": ("Nebius/results/GB300-NVL72_GB300-288GB_aarch64x8_TRT", "deepseek-r1", "gb300", 8, 804, "8",
             20.3614, 76346.6, "max_batch_size=1024"),
    "SA07": ("HPE/results/HPE_ProLiant_XD685_B200_SXM_192GBx8_TRT", "mixtral-8x7b", "b200", 8, 427, "1",
             876.067, 126468, "max_batch_size=6144"),
}
# Server / Interactive: row -> (round, results folder, benchmark, scenario, model, precision, gpu, GPUs, tp, ep,
#   scheduled /s, completed /s, tokens/s, TTFT mean / p50 / p95 / p99 ms, TPOT mean / p50 / p95 / p99 ms, the log's
#   target_qps, the config's settings as entered)
_I405 = "max_batch_size=256;prefill_chunk_tokens=1536;api_servers=0"
_H8 = "max_batch_size=6000;prefill_chunk_tokens=12000"
RATE = {
    "RZ01": (V6, "Dell/results/XE9780_x86_B300-SXM-270GBx8_TRT", "deepseek-r1", "Server", "deepseek-r1", "fp4",
             "b300", 8, "1", "8", 12.53, 12.37, 46513.06,
             (448.0, 443.7, 684.6, 724.4), (56.0, 57.3, 58.0, 58.4), "12.5", "max_batch_size=640"),
    "RZ02": (V6, "Google/results/GB200-NVL72_GB200-186GB_aarch64x72_TRT", "deepseek-r1", "Server", "deepseek-r1",
             "fp4", "gb200", 72, "1", "8", 45.02, 42.45, 156781.10,
             (488.2, 450.1, 852.4, 920.5), (51.1, 53.6, 59.2, 60.1), "45", "max_batch_size=512"),
    "RZ03": (V6, "NVIDIA/results/GB300-NVL72_GB300-288GB_aarch64x288_TRT", "deepseek-r1", "Server", "deepseek-r1",
             "fp4", "gb300", 288, "1", "8", 429.73, 414.63, 1555108.58,
             (412.3, 390.8, 699.8, 742.5), (61.5, 55.5, 57.9, 60.6), "430", "max_batch_size=640"),
    "RZ04": (V6, "Nebius/results/GB300-NVL72_GB300-288GB_aarch64x72_TRT", "deepseek-r1", "Server", "deepseek-r1",
             "fp4", "gb300", 72, "1", "8", 165.04, 153.33, 575579.74,
             (556.6, 539.6, 891.1, 1014.8), (62.6, 63.0, 75.7, 77.9), "165", "max_batch_size=640"),
    "RZ05": (V6, "Nebius/results/GB300-NVL72_GB300-288GB_aarch64x8_TRT", "deepseek-r1", "Server", "deepseek-r1",
             "fp4", "gb300", 8, "1", "8", 17.41, 17.18, 64509.99,
             (628.3, 600.5, 967.5, 1427.7), (72.4, 76.0, 77.3, 77.7), "17.37", "max_batch_size=640"),
    "RZ06": (V6, "Quanta_Cloud_Technology/results/D75H-10U_B300-270GBx8_TRT", "llama3.1-405b", "Server",
             "llama-3.1-405b", "fp4", "b300", 8, "2", "", 2.31, 2.29, 1484.40,
             (1892.0, 1652.6, 4046.1, 5614.9), (128.5, 128.3, 150.7, 164.5), "2.3", "max_batch_size=384;api_servers=0"),
    "RZ07": (V6, "GigaComputing/results/G894-SD3-AAX7_B300-SXM-270GBx8_TRT", "llama3.1-405b", "Interactive",
             "llama-3.1-405b", "fp4", "b300", 8, "4", "", 1.21, 1.20, 764.66,
             (874.5, 866.4, 1668.8, 2223.0), (58.0, 57.7, 66.9, 72.3), "1.2", _I405),
    "RZ08": (V51, "Dell/results/XE9680L_B200_SXM_180GBx8_TRT", "llama3.1-405b", "Interactive", "llama-3.1-405b",
             "fp4", "b200", 8, "4", "", 1.15, 1.15, 751.37,
             (986.3, 976.2, 1871.7, 2454.3), (61.7, 61.4, 71.0, 76.9), "1.15", _I405),
    "RZ09": (V51, "Dell/results/XE9685L_B200_SXM_180GBx8_TRT", "llama3.1-405b", "Interactive", "llama-3.1-405b",
             "fp4", "b200", 8, "4", "", 1.15, 1.15, 751.59,
             (989.9, 981.3, 1876.8, 2465.7), (62.6, 62.4, 72.2, 77.8), "1.15", _I405),
    "RZ10": (V51, "GigaComputing/results/G894-SD1_B200-SXM-180GBx8_TRT", "llama3.1-405b", "Interactive",
             "llama-3.1-405b", "fp4", "b200", 8, "4", "", 1.10, 1.10, 719.41,
             (996.4, 995.1, 1885.6, 2471.4), (63.3, 63.1, 72.5, 78.3), "1.1", _I405),
    "RZ11": (V51, "Google/results/B200-SXM-180GBx8_TRT", "llama3.1-405b", "Interactive", "llama-3.1-405b", "fp4",
             "b200", 8, "4", "", 1.15, 1.15, 750.45,
             (988.2, 978.3, 1875.5, 2479.4), (62.0, 61.8, 71.3, 77.1), "1.15", _I405),
    "RZ12": (V51, "Lenovo/results/SR780a_V3_B200SXMx8_TRT", "llama3.1-405b", "Interactive", "llama-3.1-405b", "fp4",
             "b200", 8, "4", "", 1.15, 1.15, 752.62,
             (995.7, 985.1, 1892.7, 2501.2), (62.4, 62.1, 71.8, 77.7), "1.15", _I405),
    "RZ13": (V51, "NVIDIA/results/B200-SXM-180GBx8_TRT", "llama3.1-405b", "Interactive", "llama-3.1-405b", "fp4",
             "b200", 8, "4", "", 1.15, 1.15, 751.37,
             (999.8, 987.6, 1905.6, 2510.6), (62.3, 62.1, 71.8, 77.7), "1.15", _I405),
    "RZ14": (V51, "Nebius/results/B200-SXM-180GBx8_TRT", "llama3.1-405b", "Interactive", "llama-3.1-405b", "fp4",
             "b200", 8, "4", "", 1.18, 1.18, 770.67,
             (1008.6, 991.6, 1925.8, 2568.0), (63.1, 62.9, 72.9, 78.8), "1.18", _I405),
    "RZ15": (V51, "Supermicro/results/SYS-422GA-NBRT-LCC_B200-SXM-180GBx8_TRT", "llama3.1-405b", "Interactive",
             "llama-3.1-405b", "fp4", "b200", 8, "4", "", 1.15, 1.15, 751.38,
             (983.4, 975.8, 1864.2, 2453.1), (62.7, 62.6, 71.8, 77.3), "1.15", _I405),
    "RZ16": (V51, "Supermicro/results/SYS-422GS-NBRT-LCC_B200-SXM-180GBx8_TRT", "llama3.1-405b", "Interactive",
             "llama-3.1-405b", "fp4", "b200", 8, "4", "", 1.15, 1.15, 750.94,
             (984.3, 976.0, 1859.7, 2455.6), (63.7, 63.5, 72.9, 78.2), "1.15", _I405),
    "RZ17": (V51, "Supermicro/results/SYS-A21GE-NBRT_B200-SXM-180GBx8_TRT", "llama3.1-405b", "Interactive",
             "llama-3.1-405b", "fp4", "b200", 8, "4", "", 1.15, 1.15, 750.41,
             (989.3, 977.1, 1876.1, 2491.4), (62.0, 61.7, 71.3, 77.4), "1.15", _I405),
    "RZ18": (V51, "Nebius/results/H200-SXM-141GBx8_TRT", "llama3.1-405b", "Interactive", "llama-3.1-405b", "fp8",
             "h200-141gb-sxm", 8, "8", "", 0.31, 0.31, 202.78,
             (1518.5, 1430.6, 3112.3, 4320.6), (44.3, 42.7, 60.1, 74.4), "0.31",
             "max_batch_size=512;prefill_chunk_tokens=2560;api_servers=0"),
    "RZ19": (V51, "NVIDIA/results/GB200-NVL72_GB200-186GB_aarch64x72_TRT", "llama3.1-405b", "Interactive",
             "llama-3.1-405b", "fp4", "gb200", 72, "4", "", 15.21, 15.18, 9921.02,
             (1365.1, 1257.7, 2611.9, 3413.5), (66.2, 66.6, 71.5, 72.2), "15.2",
             "max_batch_size=2048;prefill_chunk_tokens=1024;api_servers=0"),
    "RZ20": (V6, "ASUSTeK/results/ESC8000A_E13P_RTX_PRO_6000_PCIE_96GBx8_TRT", "llama3.1-8b", "Interactive",
             "llama-3.1-8b", "fp4", "rtx-pro-6000-blackwell-server", 8, "1", "", 265.94, 265.44, 34240.99,
             (62.5, 49.6, 94.4, 482.1), (16.5, 16.5, 19.0, 20.3), "265",
             "max_batch_size=2048;prefill_chunk_tokens=4096;prefill_cuda_graphs=true"),
    "RZ21": (V6, "GigaComputing/results/G894-SD3-AAX7_B300-SXM-270GBx8_TRT", "llama3.1-8b", "Interactive",
             "llama-3.1-8b", "fp4", "b300", 8, "1", "", 999.39, 997.15, 128632.63,
             (32.9, 32.0, 47.7, 54.9), (19.3, 19.4, 21.3, 22.0), "1000", _H8),
    "RZ22": (V6, "HPE/results/HPE_PROLIANT_DL380A_RTX_PRO_6000_PCIE_96GBx10_TRT_10_14_1_48_TRT", "llama3.1-8b",
             "Interactive", "llama-3.1-8b", "fp4", "rtx-pro-6000-blackwell-server", 10, "1", "", 412.29, 411.27,
             53054.68, (130.0, 112.6, 272.2, 390.2), (26.8, 27.0, 29.0, 29.3), "412",
             "max_batch_size=3456;prefill_chunk_tokens=1280;api_servers=0"),
    "RZ23": (V6, "HPE/results/HPE_PROLIANT_DL380A_RTX_PRO_6000_PCIE_96GBx8_TRT_10_14_1_48_TRT", "llama3.1-8b",
             "Interactive", "llama-3.1-8b", "fp4", "rtx-pro-6000-blackwell-server", 8, "1", "", 342.15, 341.76,
             44087.29, (121.0, 98.7, 282.3, 387.5), (27.1, 27.3, 28.5, 28.7), "342",
             "max_batch_size=3456;prefill_chunk_tokens=1280;api_servers=0"),
    "RZ24": (V6, "HPE/results/HPE_ProLiant_XD685_B200_SXM_192GBx8_TRT", "llama3.1-8b", "Interactive", "llama-3.1-8b",
             "fp4", "b200", 8, "1", "", 979.47, 977.85, 126143.15,
             (37.5, 36.2, 54.0, 63.4), (21.9, 22.0, 23.7, 24.4), "980", _H8),
    "RZ25": (V6, "HPE/results/HPE_Proliant_DL385_RTX_PRO_6000_PCIe_96GBx2_TRT_10_14_1_48_TRT", "llama3.1-8b",
             "Interactive", "llama-3.1-8b", "fp4", "rtx-pro-6000-blackwell-server", 2, "1", "", 82.17, 82.09, 10589.32,
             (97.0, 74.6, 236.8, 439.2), (24.1, 24.1, 27.7, 28.4), "82",
             "max_batch_size=3584;prefill_chunk_tokens=1280;api_servers=0"),
    "RZ26": (V6, "Lambda_SIT/results/B200-SXM-180GBx8_TRT", "llama3.1-8b", "Interactive", "llama-3.1-8b", "fp4",
             "b200", 8, "1", "", 999.39, 998.06, 128749.59,
             (30.8, 29.6, 45.9, 56.2), (16.5, 16.5, 18.6, 19.6), "1000",
             "max_batch_size=6000;prefill_chunk_tokens=12000;prefill_cuda_graphs=true"),
}
# each benchmark's p99 constraints (TTFT ms, TPOT ms) as the logs' test parameters print them (ttft_latency /
# tpot_latency): DeepSeek-R1 Server 2 s / 80 ms; Llama 3.1 405B Server 6 s / 175 ms, Interactive 4.5 s / 80 ms; Llama
# 3.1 8B Interactive 0.5 s / 30 ms
CAPS = {("deepseek-r1", "Server"): (2000, 80), ("llama3.1-405b", "Server"): (6000, 175),
        ("llama3.1-405b", "Interactive"): (4500, 80), ("llama3.1-8b", "Interactive"): (500, 30)}
# the mean prompts: MLPerf's DeepSeek-R1 set 803.8, Mixtral's 427.4, Llama 3.1 405B's 9,428.6, Llama 3.1 8B's 870.7
PROMPT = {"deepseek-r1": 804, "mixtral-8x7b": 427, "llama-3.1-405b": 9429, "llama-3.1-8b": 871}
# the rows run over HTTP through trtllm-serve (DeepSeek-R1's default core; the 8B configs carrying the endpoint core's
# flags); the others hand LoadGen's arrivals to the engine in-process (api_servers=0)
HTTP = {"RZ01", "RZ02", "RZ03", "RZ04", "RZ05", "RZ20", "RZ21", "RZ24", "RZ26"}
# est / published as the rows stand (README, 'Rows SA01-SA07 and RZ01-RZ26'): Offline 0.507 (SA01, CoreWeave's 64 x
# GB200 at the v6.0 build's step) to 1.143 (SA07, Mixtral on 8 x B200); rate 0.575 (RZ05, Nebius's 8 x GB300 beyond
# the copies' modelled reach) to 1.061 (RZ02, Google's GB200 rack)
OFFLINE_BAND = (0.50, 1.15)
RATE_BAND = (0.57, 1.07)


def _offline() -> dict[str, dict]:
    return rows_in("serving_independent.csv", "SA", 1, 7)  # SA08.. are serveblind43's


def _rate() -> dict[str, dict]:
    return rows_in("serving_rate.csv", "RZ", 1, 30)


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_offline()) == sorted(OFFLINE)
    assert sorted(_rate()) == sorted(RATE)


@pytest.mark.parametrize("row_id", sorted(OFFLINE))
def test_an_offline_row_is_its_log(row_id):
    r = _offline()[row_id]
    folder, bench, gpu, n, prompt, ep, sps, tps, options = OFFLINE[row_id]
    assert r["source"] == f"{V6}{folder}/{bench}/Offline/performance/run_1/mlperf_log_summary.txt"
    assert (r["model"], r["gpu"], int(r["count"]), r["tp"], r["pp"], r["ep"], int(r["prompt_tokens"]),
            r["concurrency"], r["kv_precision"]) == (bench, gpu, n, "1", "1", ep, prompt, "max", "fp8")
    assert prompt == PROMPT[bench]
    assert float(r["output_tokens_per_s"]) == tps
    assert int(r["output_tokens"]) == round(tps / sps)  # e.g. SA01: 468,665 / 124.763 = 3,756.4 -> 3,756
    assert r["workload_options"] == options
    assert (r["framework"], r["framework_version"]) == ("tensorrt-llm", "")
    # DeepSeek-R1: NVFP4, attention DP x EP 8 copies of eight GPUs; Mixtral one engine a GPU (ep 1)
    assert r["precision"] == ("fp4" if bench == "deepseek-r1" else "fp8")
    assert n % int(ep) == 0


def test_the_v6_deepseek_steps_split_by_build_not_by_gpu():
    """The Offline step of one attention-DP copy (8 ranks x the batch a rank over the copy's tokens/s; copies =
    GPUs / 8) as the published figures give it (README): CoreWeave's GB200 copy runs SH01's step (Nebius's 8 x B200,
    v6.0: 8 x 512 / 58,581.6 = 69.9 ms), Google's GB200 rack under the same config runs near NVIDIA's v5.1 rack (SO16:
    8 x 512 / (289,712 / 9) = 127.2 ms)."""
    def step_ms(row_id: str, batch: int) -> float:
        _, _, _, n, _, _, _, tps, _ = OFFLINE[row_id]
        return 8 * batch / (tps / (n // 8)) * 1e3

    assert step_ms("SA01", 512) == pytest.approx(8 * 512 / 58581.6 * 1e3, abs=0.05)  # 69.9 ms both
    assert step_ms("SA03", 512) == pytest.approx(119.7, abs=0.05)
    assert 0.90 < step_ms("SA03", 512) / (8 * 512 / (289712 / 9) * 1e3) < 0.95  # 119.7 / 127.2 = 0.94


@pytest.mark.parametrize("row_id", sorted(RATE))
def test_a_rate_row_is_its_log(row_id):
    r = _rate()[row_id]
    base, folder, bench, scenario, model, precision, gpu, n, tp, ep, sched, done, tps, ttft, tpot, target, options = (
        RATE[row_id])
    assert r["source"] == f"{base}{folder}/{bench}/{scenario}/performance/run_1/mlperf_log_summary.txt"
    assert (r["model"], r["precision"], r["gpu"], int(r["count"]), r["tp"], r["pp"], r["ep"], int(r["prompt_tokens"]),
            r["kv_precision"], r["framework"], r["framework_version"]) == (
        model, precision, gpu, n, tp, "1", ep, PROMPT[model], "fp8", "tensorrt-llm", "")
    assert (float(r["request_rate"]), float(r["served_requests_per_s"]), float(r["output_tokens_per_s"])) == (
        sched, done, tps)
    assert int(r["output_tokens"]) == round(tps / done)  # e.g. RZ01: 46,513.06 / 12.37 = 3,760.2 -> 3,760
    assert (float(r["ttft_ms"]), float(r["ttft_p50_ms"]), float(r["ttft_p95_ms"]), float(r["ttft_p99_ms"])) == ttft
    assert (float(r["tpot_ms"]), float(r["tpot_p50_ms"]), float(r["tpot_p95_ms"]), float(r["tpot_p99_ms"])) == tpot
    assert r["workload_options"] == options and f"target_qps {target} in the log" in r["notes"]
    assert ("api_servers=0" in options) == (row_id not in HTTP)
    # a VALID run keeps its p99 latencies inside the constraints; DeepSeek-R1's runs end with their longest reasoning
    # outputs still in flight, so fewer complete than are scheduled (Nebius's rack 153.33 of 165.04, 7.1% fewer; as
    # RT20's 13.5%), the Llama runs within 1%
    cap_ttft, cap_tpot = CAPS[(bench, scenario)]
    assert ttft[3] <= cap_ttft and tpot[3] <= cap_tpot
    assert (0.92 if model == "deepseek-r1" else 0.99) * sched <= done <= sched


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
