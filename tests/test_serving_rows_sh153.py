"""Rows RT110-RT120 and SH153-SH167 (serveblind33): MLPerf Inference v5.1 Server logs and their Offline twins from
submitter systems no row had cited, scored blind.

The rule (validation README, 'Rows RT110-RT120 and SH153-SH167'): closed-division Server logs of llama2-70b-99,
llama3.1-8b, llama3.1-405b, mixtral-8x7b and deepseek-r1 on one node of catalog GPUs, from a submitter system no row
cited, with its Server config in the repository (NVIDIA's harness: configs/<system>/Server; AMD's vLLM harness: the
server yaml in the submitter's code folder); of each GPU, GPU count and benchmark the first such system in the
repository's path order. RT(110+i) is a Server log, SH(153+i) the same system's Offline log
(mlcommons/inference_results_v5.1 at 965182b0). A second pass, fixed before its figures were read, took the next such
system of each group: the first two groups' Server logs RT119 / RT120 (twins SH162 / SH163), the other four groups'
Offline logs alone (SH164-SH167). The figures below are copied from the logs' summaries; the checks redo
the arithmetic and hold the harness to the blind reading recorded in the README.
"""

from __future__ import annotations

import csv

import pytest

from .validation_rows import DATA, V51, assert_rate_rows_within, assert_server_log_row, log_key, rows_in, serving_ratios

CISCO, GOOGLE = "Cisco/results/C885_H200x8_TRT", "Google/results/B200-SXM-180GBx8_TRT"
ASUS, DELL = "ASUSTeK/results/ESC_A8A_MI325X_256GBx8", "Dell/results/XE9680_MI300X_192GBx8"
DELL_H200, LAMBDA = "Dell/results/XE9680L_H200_SXM_141GBx8_TRT", "Lambda/results/B200-SXM-180GBx8_TRT"
LENOVO, GIGA = "Lenovo/results/SR780a_V3_B200SXMx8_TRT", "GigaComputing/results/8xMI325X_2xEPYC_9575F"
# Server row -> (results folder, benchmark, gpu, framework, scheduled /s, completed /s, tokens/s, TTFT mean / p50 / p95
#                / p99 ms, TPOT mean / p50 / p95 / p99 ms, the config's batch cap: gpu_batch_size or max_num_seqs)
SERVER = {
    "RT110": (CISCO, "llama2-70b-99", "h200-141gb-sxm", "tensorrt-llm", 114.23, 113.29, 33163.34,
              (397.7, 358.6, 729.9, 947.8), (169.7, 172.9, 179.6, 183.0), 2048),
    "RT111": (GOOGLE, "deepseek-r1", "b200", "tensorrt-llm", 4.01, 3.98, 14630.74,
              (582.4, 508.5, 1289.7, 1803.0), (61.3, 62.3, 63.8, 65.0), 512),
    "RT112": (GOOGLE, "llama2-70b-99", "b200", "tensorrt-llm", 363.79, 361.51, 99169.78,
              (248.8, 246.9, 384.9, 440.6), (126.1, 129.2, 133.7, 135.5), 2048),
    "RT113": (GOOGLE, "llama3.1-405b", "b200", "tensorrt-llm", 1.90, 1.90, 1246.79,
              (1580.1, 1326.3, 3512.4, 4908.3), (99.6, 98.9, 121.0, 133.7), 256),
    "RT114": (GOOGLE, "llama3.1-8b", "b200", "tensorrt-llm", 929.05, 927.43, 119628.05,
              (595.7, 514.4, 1280.9, 1534.1), (22.7, 21.1, 36.8, 41.2), 6000),
    "RT115": (ASUS, "llama2-70b-99", "mi325x", "vllm", 107.51, 103.75, 31241.01,
              (872.6, 815.2, 1529.8, 1752.9), (146.4, 158.0, 175.3, 194.3), 1024),
    "RT116": (ASUS, "mixtral-8x7b", "mi325x", "vllm", 391.43, 387.96, 55800.33,
              (847.5, 861.1, 1391.7, 1654.9), (124.4, 128.5, 145.8, 159.7), 2560),
    "RT117": (DELL, "llama2-70b-99", "mi300x", "vllm", 83.09, 82.24, 24747.58,
              (924.3, 889.9, 1565.5, 1904.4), (145.8, 146.7, 167.0, 189.9), 650),
    "RT118": (DELL, "mixtral-8x7b", "mi300x", "vllm", 334.53, 332.90, 47801.88,
              (820.7, 822.2, 1376.5, 1626.2), (139.1, 141.4, 158.6, 170.2), 4096),
    "RT119": (DELL_H200, "llama2-70b-99", "h200-141gb-sxm", "tensorrt-llm", 114.23, 113.28, 33161.44,
              (405.8, 361.4, 742.9, 950.9), (170.3, 173.4, 180.3, 184.2), 2048),
    "RT120": (LAMBDA, "llama2-70b-99", "b200", "tensorrt-llm", 363.79, 361.56, 99993.91,
              (243.6, 242.1, 369.3, 434.1), (123.8, 126.7, 131.3, 133.1), 2048),
}
# Offline row -> (tensor and pipeline parallelism, tokens/s, samples/s, the Offline config's batch cap)
OFFLINE = {
    "SH153": (1, 1, 34548.2, 118.429, 2048),
    "SH154": (8, 1, 31920.3, 8.52471, 512),
    "SH155": (1, 1, 78463.5, 286.15, 2048),
    "SH156": (2, 2, 1655.36, 2.53447, 128),
    "SH157": (1, 1, 141138.0, 1094.23, 6000),
    "SH158": (1, 1, 33987.4, 112.869, 2700),
    "SH159": (1, 1, 68121.2, 474.27, 4736),
    "SH160": (1, 1, 27325.9, 90.5808, 1792),
    "SH161": (1, 1, 53333.9, 371.628, 5000),
    "SH162": (1, 1, 34588.3, 118.567, 2048),
    "SH163": (1, 1, 102725.0, 372.781, 2048),
}
# Offline row with no Server row -> (results folder, benchmark, gpu, framework, tensor and pipeline parallelism,
#                                     tokens/s, samples/s, the Offline config's batch cap)
OFFLINE_ONLY = {
    "SH164": (LAMBDA, "llama3.1-405b", "b200", "tensorrt-llm", 2, 2, 1648.6, 2.49619, 128),
    "SH165": (LENOVO, "llama3.1-8b", "b200", "tensorrt-llm", 1, 1, 146960.0, 1148.12, 6000),
    "SH166": (GIGA, "llama2-70b-99", "mi325x", "vllm", 1, 1, 34483.2, 114.578, 2700),
    "SH167": (GIGA, "mixtral-8x7b", "mi325x", "vllm", 1, 1, 69692.0, 486.178, 4736),
}
MODEL = {"llama2-70b-99": ("llama-2-70b", 222), "mixtral-8x7b": ("mixtral-8x7b", 427),
         "llama3.1-8b": ("llama-3.1-8b", 871), "llama3.1-405b": ("llama-3.1-405b", 9429),
         "deepseek-r1": ("deepseek-r1", 804)}
# the benchmarks' p99 constraints (TTFT ms, TPOT ms): a valid Server run keeps inside them
CAPS = {"llama2-70b-99": (2000, 200), "mixtral-8x7b": (2000, 200), "llama3.1-8b": (2000, 100),
        "llama3.1-405b": (6000, 175), "deepseek-r1": (2000, 80)}
# blind est / published: Offline 0.795 (SH166, GigaComputing's MI325X Llama 2 70B) to 1.253 (SH155, Google's B200
# Llama 2 70B, whose figure the README printed before: not blind); Server 0.848 (RT115) to 1.010 (RT116)
BAND_OFFLINE, BAND_RATE = (0.79, 1.26), (0.84, 1.02)


def _sh() -> dict[str, dict]:
    return rows_in("serving_independent.csv", "SH", 153, 170)


def _rt() -> dict[str, dict]:
    return rows_in("serving_rate.csv", "RT", 110, 120)


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_sh()) == sorted([*OFFLINE, *OFFLINE_ONLY])
    assert sorted(_rt()) == sorted(SERVER)


@pytest.mark.parametrize("row_id", sorted(SERVER))
def test_a_server_row_is_its_log(row_id):
    folder, bench, gpu, framework, sched, done, tps, ttft, tpot, batch = SERVER[row_id]
    model, prompt = MODEL[bench]
    r = _rt()[row_id]
    assert_server_log_row(r, folder, bench, model, gpu, 8, prompt, framework, (sched, done, tps), ttft, tpot, batch)
    # AMD's harness is vLLM 0.9.0.2.dev108 (its scheduler's rocm/vllm 71faa188), as ML16 / ML17 / ML33 / ML34 enter it
    assert r["framework_version"] == {"vllm": "0.9.0", "tensorrt-llm": "1.0" if bench == "deepseek-r1" else ""}[
        framework]
    # Mixtral runs one copy a GPU holding all eight experts; DeepSeek-R1 attention data parallel, experts over eight
    assert r["ep"] == {"mixtral-8x7b": "1", "deepseek-r1": "8"}.get(bench, "")
    cap_ttft, cap_tpot = CAPS[bench]
    assert ttft[3] <= cap_ttft and tpot[3] <= cap_tpot


@pytest.mark.parametrize("row_id", sorted(OFFLINE))
def test_an_offline_row_is_its_servers_twin(row_id):
    tp, pp, tps, sps, batch = OFFLINE[row_id]
    twin = f"RT{int(row_id[2:]) - 43}"
    folder, bench = SERVER[twin][:2]
    r, s = _sh()[row_id], _rt()[twin]
    assert r["source"] == f"{V51}{folder}/{bench}/Offline/performance/run_1/mlperf_log_summary.txt"
    assert (r["model"], r["gpu"], r["count"], r["prompt_tokens"], r["precision"], r["framework"], r["ep"]) == (
        s["model"], s["gpu"], s["count"], s["prompt_tokens"], s["precision"], s["framework"], s["ep"])
    expert = bench == "deepseek-r1"  # attention data parallel with the experts over 8 ranks: tp 1, ep 8
    assert (int(r["tp"]), int(r["pp"])) == ((1 if expert else tp), pp)
    stated = (r["concurrency"], float(r["output_tokens_per_s"]), r["workload_options"])
    assert stated == ("max", tps, f"max_batch_size={batch}")
    assert int(r["output_tokens"]) == round(tps / sps)


@pytest.mark.parametrize("row_id", sorted(OFFLINE_ONLY))
def test_an_offline_only_row_is_its_log(row_id):
    folder, bench, gpu, framework, tp, pp, tps, sps, batch = OFFLINE_ONLY[row_id]
    model, prompt = MODEL[bench]
    r = _sh()[row_id]
    assert r["source"] == f"{V51}{folder}/{bench}/Offline/performance/run_1/mlperf_log_summary.txt"
    assert (r["model"], r["gpu"], int(r["count"]), int(r["prompt_tokens"]), r["framework"], r["kv_precision"]) == (
        model, gpu, 8, prompt, framework, "fp8")
    assert (int(r["tp"]), int(r["pp"]), r["ep"]) == (tp, pp, "1" if bench == "mixtral-8x7b" else "")
    assert r["framework_version"] == ("0.9.0" if framework == "vllm" else "")
    stated = (r["concurrency"], float(r["output_tokens_per_s"]), r["workload_options"])
    assert stated == ("max", tps, f"max_batch_size={batch}")
    assert int(r["output_tokens"]) == round(tps / sps)


def test_no_log_is_read_twice():
    # Google's DGX B200 is cited by v6.0 rows (SH03, RT03, SH121, RT46): the same results path a round later, other runs
    ours = {*OFFLINE, *OFFLINE_ONLY, *SERVER}
    mine = {log_key(r["source"]) for r in [*_sh().values(), *_rt().values()]}
    assert len(mine) == len(ours)
    for name in ("serving_independent.csv", "serving_rate.csv", "decode_independent.csv"):
        with (DATA / name).open(newline="") as fh:
            others = {log_key(r["source"]) for r in csv.DictReader(fh) if r["id"] not in ours}
        assert not mine & others, name


def test_the_harness_estimates_every_row_within_the_blind_band(kb, tmp_path):
    got = serving_ratios(kb, tmp_path, _sh())
    assert sorted(got) == sorted(_sh())  # none refused
    for rid, ratio in got.items():
        assert BAND_OFFLINE[0] <= ratio <= BAND_OFFLINE[1], (rid, ratio)
    assert_rate_rows_within(_rt(), SERVER, BAND_RATE)
