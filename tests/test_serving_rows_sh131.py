"""Rows SH131-SH152 and RT96-RT109 (serveblind32): serving at load from sources no serving row had cited, scored blind.

Three sources (validation README, 'Rows SH131-SH152 and RT96-RT109'):
- SH131-SH135: sgl-project/sglang pull request #30812, GLM-5.1-FP8 on 8 x MI300X under SGLang 0.5.13.post1 (TP 8, DSA
  TileLang backends, BF16 KV), random 1000 / 1000 at concurrency 16-4,096: the printed tok/s a GPU x 8, TTFT and TPOT;
- SH136-SH138: MLPerf Inference v6.0 Offline logs serveblind31 left free (gbeezybez/inference_results_v6.0 at ab33b214);
- RT96-RT109 and SH139-SH152: MLPerf Inference v5.1 Server logs (and the same systems' Offline logs) of submitter
  systems no row had cited, the first in path order for each GPU, GPU count and benchmark on NVIDIA's harness
  (mlcommons/inference_results_v5.1 at 965182b0).
The figures below are copied from the pull request's table and the logs' summaries; the checks redo the arithmetic and
hold the harness to the blind reading recorded in the README.
"""

from __future__ import annotations

import pytest

from .validation_rows import (
    V51,
    assert_logs_read_once,
    assert_rate_rows_within,
    assert_server_log_row,
    rows_in,
    serving_ratios,
)

PR = "https://github.com/sgl-project/sglang/pull/30812"
# row -> (concurrency, prompts, TTFT ms, TPOT ms, output tok/s a GPU), the pull request's speed table
GLM = {"SH131": (16, 256, 338, 51.63, 37), "SH132": (64, 512, 634, 87.27, 85), "SH133": (256, 1024, 2017, 169.96, 169),
       "SH134": (1024, 2048, 104260, 437.72, 179), "SH135": (4096, 4096, 570017, 437.19, 188)}
V60 = "https://github.com/gbeezybez/inference_results_v6.0/blob/ab33b2144a9f822f69d24f78569f993d195ee7e5/closed/"
# row -> (log under V60, model, precision, gpu, GPUs, mean prompt, tokens/s, samples/s, the config's settings, HTTP)
V60_LOGS = {
    "SH136": ("Nebius/results/nebius_b300_n1/deepseek-r1/Offline/performance/run_1/mlperf_log_detail.txt",
              "deepseek-r1", "fp4", "b300", 8, 804, 69318.9, 18.4607, "max_batch_size=1024", True),
    "SH137": ("Quanta_Cloud_Technology/results/D75H-10U_B300-270GBx8_TRT/llama3.1-405b/Offline/performance/run_1/"
              "mlperf_log_summary.txt", "llama-3.1-405b", "fp4", "b300", 8, 9429, 1953.77, 3.01483,
              "max_batch_size=128", False),
    "SH138": ("ORACLE/results/8xMI355X_2xEPYC_9575F/llama2-70b-99/Offline/performance/run_1/mlperf_log_summary.txt",
              "llama-2-70b", "fp4", "mi355x", 8, 222, 99874.3, 352.94,
              "max_batch_size=3392;rocm_aiter=true;rocm_fp4_asm_gemm=true", False),
}
# Server row -> (results folder, benchmark, gpu, GPUs, scheduled /s, completed /s, tokens/s, TTFT mean / p50 / p95 / p99
#                ms, TPOT mean / p50 / p95 / p99 ms, the config's gpu_batch_size)
# Offline row -> (results folder, benchmark, tensor and pipeline parallelism, tokens/s, samples/s, gpu_batch_size)
SERVER = {
    "RT96": ("ASUSTeK/results/ESC8000_H200_NVLx8_TRT", "llama2-70b-99", "h200-nvl-141gb", 8, 88.1, 87.5, 25614.68,
             (290.8, 239.7, 401.3, 665.6), (120.3, 124.1, 132.8, 136.9), 2048),
    "RT97": ("ASUSTeK/results/ESC_N8_H200-SXM-141GBx8_TRT",
             "llama2-70b-99", "h200-141gb-sxm", 8, 117.99, 116.81, 34193.81,
             (588.6, 526.6, 1248.0, 1715.1), (183.3, 187.0, 191.5, 193.3), 2048),
    "RT98": ("ASUSTeK/results/ESC_N8_H200-SXM-141GBx8_TRT",
             "mixtral-8x7b", "h200-141gb-sxm", 8, 409.87, 408.81, 59992.81,
             (320.7, 319.3, 456.7, 518.1), (166.6, 168.7, 182.1, 187.2), 3072),
    "RT99": ("Azure/results/ND_GB200_v6", "llama2-70b-99", "gb200", 4, 170.04, 167.73, 46016.49,
             (159.1, 150.3, 261.5, 407.1), (77.9, 80.1, 85.9, 88.1), 2048),
    "RT100": ("Azure/results/ND_GB200_v6", "llama3.1-405b", "gb200", 4, 0.89, 0.89, 584.01,
             (1515.7, 1238.7, 3447.0, 5119.0), (90.2, 89.6, 112.1, 123.6), 2048),
    "RT101": ("Cisco/results/C845A_H200_NVLx8_TRT", "llama3.1-8b", "h200-nvl-141gb", 8, 300.35, 299.97, 38696.9,
             (49.5, 43.3, 96.9, 129.5), (13.4, 13.4, 15.4, 16.5), 2048),
    "RT102": ("Dell/results/XE9680L_B200_SXM_180GBx8_TRT", "deepseek-r1", "b200", 8, 3.81, 3.78, 13913.33,
             (556.5, 495.3, 1159.4, 1631.1), (61.0, 62.0, 63.6, 64.9), 512),
    "RT103": ("Dell/results/XE9680L_B200_SXM_180GBx8_TRT", "llama2-70b-99", "b200", 8, 363.79, 361.39, 99139.18,
             (257.2, 253.1, 408.5, 452.1), (128.6, 131.7, 137.2, 139.3), 2048),
    "RT104": ("Dell/results/XE9680L_B200_SXM_180GBx8_TRT", "llama3.1-405b", "b200", 8, 1.9, 1.9, 1243.17,
             (1597.4, 1356.2, 3516.2, 4739.0), (99.3, 98.8, 121.5, 134.1), 256),
    "RT105": ("Dell/results/XE9680L_B200_SXM_180GBx8_TRT", "llama3.1-8b", "b200", 8, 999.47, 998.43, 128786.8,
             (512.5, 430.5, 1190.4, 1569.5), (27.0, 28.1, 37.7, 40.1), 6000),
    "RT106": ("Quanta_Cloud_Technology/results/D74U-7U_H200-SXM-141GBx8_TRT",
             "llama3.1-405b", "h200-141gb-sxm", 8, 0.45, 0.45, 295.52,
             (1791.6, 1510.0, 3907.1, 5513.1), (55.7, 53.2, 80.5, 101.8), 512),
    "RT107": ("Quanta_Cloud_Technology/results/D74U-7U_H200-SXM-141GBx8_TRT",
             "llama3.1-8b", "h200-141gb-sxm", 8, 450.16, 449.38, 57970.37,
             (111.4, 95.2, 254.1, 362.7), (24.2, 24.4, 26.0, 26.3), 2048),
    "RT108": ("Quanta_Cloud_Technology/results/D75E-4U_H200-NVL-141GBx4_TRT",
             "llama2-70b-99", "h200-nvl-141gb", 4, 47.01, 46.66, 13736.12,
             (331.5, 318.1, 563.4, 665.3), (167.6, 170.0, 186.4, 190.3), 2048),
    "RT109": ("Quanta_Cloud_Technology/results/D75E-4U_H200-NVL-141GBx4_TRT",
             "llama3.1-8b", "h200-nvl-141gb", 4, 200.11, 199.64, 25753.8,
             (321.1, 219.1, 985.4, 1223.2), (28.7, 29.4, 30.1, 30.2), 2048),
}
OFFLINE = {
    "SH139": ("ASUSTeK/results/ESC8000_H200_NVLx8_TRT", "llama2-70b-99", 1, 1, 30487.0, 104.507, 2048),
    "SH140": ("ASUSTeK/results/ESC_N8_H200-SXM-141GBx8_TRT", "llama2-70b-99", 1, 1, 35075.1, 120.235, 2048),
    "SH141": ("ASUSTeK/results/ESC_N8_H200-SXM-141GBx8_TRT", "mixtral-8x7b", 1, 1, 61372.4, 421.086, 3072),
    "SH142": ("Azure/results/ND_GB200_v6", "llama2-70b-99", 1, 1, 52061.6, 190.476, 2048),
    "SH143": ("Azure/results/ND_GB200_v6", "llama3.1-405b", 2, 2, 847.233, 1.29825, 2048),
    "SH144": ("Cisco/results/C845A_H200_NVLx8_TRT", "llama3.1-8b", 1, 1, 50776.8, 396.694, 2048),
    "SH145": ("Dell/results/XE9680L_B200_SXM_180GBx8_TRT", "deepseek-r1", 8, 1, 30493.3, 8.35339, 512),
    "SH146": ("Dell/results/XE9680L_B200_SXM_180GBx8_TRT", "llama2-70b-99", 1, 1, 101253.0, 370.449, 2048),
    "SH147": ("Dell/results/XE9680L_B200_SXM_180GBx8_TRT", "llama3.1-405b", 2, 2, 1648.03, 2.52326, 128),
    "SH148": ("Dell/results/XE9680L_B200_SXM_180GBx8_TRT", "llama3.1-8b", 1, 1, 143309.0, 1111.06, 6000),
    "SH149": ("Quanta_Cloud_Technology/results/D74U-7U_H200-SXM-141GBx8_TRT",
              "llama3.1-405b", 4, 2, 550.106, 0.86817, 512),
    "SH150": ("Quanta_Cloud_Technology/results/D74U-7U_H200-SXM-141GBx8_TRT",
              "llama3.1-8b", 1, 1, 56917.3, 444.667, 2048),
    "SH151": ("Quanta_Cloud_Technology/results/D75E-4U_H200-NVL-141GBx4_TRT",
              "llama2-70b-99", 1, 1, 15057.6, 51.3258, 2048),
    "SH152": ("Quanta_Cloud_Technology/results/D75E-4U_H200-NVL-141GBx4_TRT",
              "llama3.1-8b", 1, 1, 25180.8, 196.725, 2048),
}

MODEL = {"llama2-70b-99": ("llama-2-70b", 222), "mixtral-8x7b": ("mixtral-8x7b", 427),
         "llama3.1-8b": ("llama-3.1-8b", 871), "llama3.1-405b": ("llama-3.1-405b", 9429),
         "deepseek-r1": ("deepseek-r1", 804)}
# the benchmarks' p99 constraints (TTFT ms, TPOT ms): a valid Server run keeps inside them
CAPS = {"llama2-70b-99": (2000, 200), "mixtral-8x7b": (2000, 200), "llama3.1-8b": (2000, 100),
        "llama3.1-405b": (6000, 175), "deepseek-r1": (2000, 80)}
# blind est / published: the MLPerf Offline rows 0.704 (SH136) to 1.150 (SH141); the GLM rows 1.373 (SH131) to 3.958
# (SH134), the miss the README reads (TileLang DSA kernels on gfx942, not priced); the v5.1 Server rows 0.913 (RT97) to
# 1.013 (RT99)
BAND_MLPERF, BAND_GLM, BAND_RATE = (0.70, 1.16), (1.35, 4.0), (0.90, 1.02)


def _sh() -> dict[str, dict]:
    return rows_in("serving_independent.csv", "SH", 131, 152)  # SH153.. are serveblind33's


def _rt() -> dict[str, dict]:
    return rows_in("serving_rate.csv", "RT", 96, 109)  # RT110.. are serveblind33's


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_sh()) == sorted([*GLM, *V60_LOGS, *OFFLINE])
    assert sorted(_rt()) == sorted(SERVER)


@pytest.mark.parametrize("row_id", sorted(GLM))
def test_a_glm_row_is_its_cell(row_id):
    conc, prompts, ttft, tpot, per_gpu = GLM[row_id]
    r = _sh()[row_id]
    assert (r["source"], r["model"], r["precision"], r["gpu"], r["count"], r["framework"]) == (
        PR, "glm-5", "fp8", "mi300x", "8", "sglang")
    stated = (r["tp"], r["pp"], r["prompt_tokens"], r["output_tokens"], r["concurrency"])
    assert stated == ("8", "1", "1000", "1000", str(conc))
    # the cookbook's tokens_per_sec_per_gpu is output tok/s over tp x nodes: the row is it times the eight GPUs
    assert float(r["output_tokens_per_s"]) == per_gpu * 8
    assert (float(r["ttft_ms"]), float(r["tpot_ms"]), int(r["prompts"])) == (ttft, tpot, prompts)
    assert (r["kv_precision"], r["framework_version"], r["fixed_lengths"]) == ("bf16", "0.5.13", "1")
    assert r["workload_options"] == "prefill_chunk_tokens=131072"


@pytest.mark.parametrize("row_id", sorted(V60_LOGS))
def test_a_v60_offline_row_is_its_log(row_id):
    path, model, prec, gpu, n, prompt, tps, sps, opts, http = V60_LOGS[row_id]
    r = _sh()[row_id]
    assert r["source"] == V60 + path
    stated = (r["model"], r["precision"], r["gpu"], int(r["count"]), int(r["prompt_tokens"]))
    assert stated == (model, prec, gpu, n, prompt)
    assert (r["concurrency"], r["workload_options"], float(r["output_tokens_per_s"])) == ("max", opts, tps)
    assert int(r["output_tokens"]) == round(tps / sps)  # output tokens a sample, as the SUT reports them
    assert ("over HTTP" in r["metric"]) is http


@pytest.mark.parametrize("row_id", sorted(SERVER))
def test_a_v51_server_row_is_its_log(row_id):
    folder, bench, gpu, n, sched, done, tps, ttft, tpot, batch = SERVER[row_id]
    model, prompt = MODEL[bench]
    r = _rt()[row_id]
    assert_server_log_row(r, folder, bench, model, gpu, n, prompt, "tensorrt-llm", (sched, done, tps), ttft, tpot,
                          batch)
    cap_ttft, cap_tpot = CAPS[bench]
    assert ttft[3] <= cap_ttft and tpot[3] <= cap_tpot


@pytest.mark.parametrize("row_id", sorted(OFFLINE))
def test_a_v51_offline_row_is_its_servers_twin(row_id):
    folder, bench, tp, pp, tps, sps, batch = OFFLINE[row_id]
    twin = SERVER[f"RT{int(row_id[2:]) - 43}"]
    assert (twin[0], twin[1]) == (folder, bench)  # the same system and benchmark as its Server row
    r, s = _sh()[row_id], _rt()[f"RT{int(row_id[2:]) - 43}"]
    assert r["source"] == f"{V51}{folder}/{bench}/Offline/performance/run_1/mlperf_log_summary.txt"
    assert (r["model"], r["gpu"], r["count"], r["prompt_tokens"], r["precision"]) == (
        s["model"], s["gpu"], s["count"], s["prompt_tokens"], s["precision"])
    expert = bench == "deepseek-r1"  # attention data parallel with the experts over 8 ranks: tp 1, ep 8
    assert (int(r["tp"]), int(r["pp"])) == ((1 if expert else tp), pp)
    stated = (r["concurrency"], float(r["output_tokens_per_s"]), r["workload_options"])
    assert stated == ("max", tps, f"max_batch_size={batch}")
    assert int(r["output_tokens"]) == round(tps / sps)


def test_no_log_is_read_twice():
    assert_logs_read_once({k: v for k, v in _sh().items() if k not in GLM}, {**V60_LOGS, **OFFLINE})
    assert_logs_read_once(_rt(), SERVER)


def test_the_harness_estimates_every_row_within_the_blind_band(kb, tmp_path):
    got = serving_ratios(kb, tmp_path, _sh())
    assert sorted(got) == sorted(_sh())  # none refused
    for rid, ratio in got.items():
        lo, hi = BAND_GLM if rid in GLM else BAND_MLPERF
        assert lo <= ratio <= hi, (rid, ratio)
    assert_rate_rows_within(_rt(), SERVER, BAND_RATE)
