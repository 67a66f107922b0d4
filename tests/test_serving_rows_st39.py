"""Rows ST20-ST38 (serveblind39): MLPerf Inference v5.0 Offline and Server logs of three Dell systems and one Lenovo
system no row had cited, read with their own config classes from ntuhpc/mlperf_inference_results_v5.0 at cf354115, and
one sweep of vLLM on 4 x MI100 (btbtyler09/mi100-llm-testing 'vLLM Concurrency.md'), scored blind.

The rule (validation README, 'Rows ST20-ST38'): every Offline and Server performance log of Dell's XE9680L (8 x H200
SXM), XE7745 (8 x L40S) and XE9680 (8 x H100 SXM) for llama2-70b, mixtral-8x7b and llama3_1-405b whose summary is in the
copy and whose layout Dell's stored config class states (the H100's Interactive class overwrites its own layout, so its
log is left); then Lenovo's 4 x H100 NVL Mixtral pair (ST37 / ST38), whose classes and NVIDIA's parents are stored. The
figures below are copied from each log's mlperf_log_summary.txt and from the MI100 file's tables; the checks redo
their arithmetic, hold each valid Server run to its benchmark's p99 constraints, show that the MI100 sweep's first
tokens cannot be whole 1,024-token prefills, and hold the harness to the blind reading recorded in the README.
"""

from __future__ import annotations

import pytest

from .validation_rows import assert_logs_read_once, assert_rate_rows_within, assert_server_log, rows_in, serving_ratios

V50 = "https://github.com/ntuhpc/mlperf_inference_results_v5.0/blob/cf354115915ea369f05db424b051da8c5bf957dc/closed/"
H200, L40S, H100 = (f"Dell/results/{s}" for s in (
    "XE9680L_H200_SXM_141GBx8_TRT", "XE7745_L40Sx8_TRT", "XE9680_H100_SXM_80GBx8_TRT"))
NVL = "Lenovo/results/H100-NVL-94GBx4_TRT"
COUNT = {H200: 8, L40S: 8, H100: 8, NVL: 4}
# row -> (system, benchmark, model, gpu, tp, pp, samples/s, tokens/s, samples_per_query, workload_options)
OFFLINE = {
    "ST20": (H200, "llama2-70b-99.9", "llama-2-70b", "h200-141gb-sxm", 1, 1, 119.236, 34763.2, 304128,
             "max_batch_size=2048;prefill_chunk_tokens=1536"),
    "ST21": (H200, "mixtral-8x7b", "mixtral-8x7b", "h200-141gb-sxm", 1, 1, 426.975, 62042.2, 1147238,
             "max_batch_size=3072;prefill_chunk_tokens=16384"),
    "ST22": (L40S, "llama2-70b-99.9", "llama-2-70b", "l40s", 2, 1, 11.8941, 3481.53, 39600,
             "max_batch_size=1024;prefill_chunk_tokens=2048"),
    "ST23": (H100, "llama2-70b-99", "llama-2-70b", "h100-80gb-sxm", 1, 2, 106.952, 31216.8, 290400,
             "max_batch_size=1024;prefill_chunk_tokens=1024"),
    "ST24": (H100, "llama3_1-405b", "llama-3.1-405b", "h100-80gb-sxm", 8, 1, 0.614247, 397.31, 8313,
             "max_batch_size=512"),
    "ST37": (NVL, "mixtral-8x7b", "mixtral-8x7b", "h100-nvl-94gb", 1, 1, 134.071, 19500.9, 380160,
             "max_batch_size=3072;prefill_chunk_tokens=16384"),
}
# row -> (system, benchmark, model, gpu, tp, pp, scheduled /s, completed /s, tokens/s, TTFT mean / p50 / p95 / p99 ms,
#         TPOT mean / p50 / p95 / p99 ms, the log's target_qps, workload_options)
SERVER = {
    "ST25": (H200, "llama2-70b-99", "llama-2-70b", "h200-141gb-sxm", 1, 1, 114.56, 112.88, 33023.50,
             (461.6, 387.9, 885.9, 1157.7), (179.2, 182.1, 188.8, 191.1), 114.24,
             "max_batch_size=2048;prefill_chunk_tokens=1536;api_servers=0"),
    "ST26": (H200, "mixtral-8x7b", "mixtral-8x7b", "h200-141gb-sxm", 1, 1, 404.30, 403.80, 58972.61,
             (247.7, 244.8, 362.6, 416.3), (128.0, 129.3, 139.2, 143.5), 404,
             "max_batch_size=3072;prefill_chunk_tokens=8192;api_servers=0"),
    "ST27": (L40S, "llama2-70b-99", "llama-2-70b", "l40s", 2, 1, 11.01, 10.91, 3201.13,
             (208.4, 187.3, 360.7, 469.2), (98.7, 100.2, 106.9, 110.3), 11,
             "max_batch_size=1024;prefill_chunk_tokens=2048;api_servers=0"),
    "ST28": (H100, "llama2-70b-99.9", "llama-2-70b", "h100-80gb-sxm", 1, 2, 106.69, 105.52, 30903.64,
             (665.4, 559.3, 1455.0, 1938.8), (142.0, 142.1, 145.7, 146.0), 106.5,
             "max_batch_size=1024;prefill_chunk_tokens=1024;api_servers=0"),
    "ST29": (H100, "llama3_1-405b", "llama-3.1-405b", "h100-80gb-sxm", 4, 2, 0.43, 0.43, 277.12,
             (1868.8, 1556.5, 4146.9, 5730.6), (62.1, 58.9, 91.0, 111.2), 0.43, "max_batch_size=64;api_servers=0"),
    "ST38": (NVL, "mixtral-8x7b", "mixtral-8x7b", "h100-nvl-94gb", 1, 1, 132.22, 132.02, 19334.92,
             (277.1, 268.8, 436.8, 522.5), (147.0, 148.5, 163.1, 169.7), 132, "max_batch_size=3072;api_servers=0"),
}
PROMPT = {"llama-2-70b": 222, "mixtral-8x7b": 427, "llama-3.1-405b": 9429}  # the sets' mean prompts (README)
# the benchmarks' p99 constraints in the logs' test parameters (ttft_latency, tpot_latency), ms
CAPS = {"llama2-70b": (2000, 200), "mixtral-8x7b": (2000, 200), "llama3_1-405b": (6000, 175)}

MI100_SRC = ("https://github.com/btbtyler09/mi100-llm-testing/blob/af0f77fae15975569b6db6f158b18cbe190e9466/"
             "vLLM%20Concurrency.md")
# row -> (max-concurrency, output tok/s, total tok/s, mean TTFT ms): the file's three tables
MI100 = {"ST30": (1, 28.7, 273.5, 63), "ST31": (2, 53, 505.3, 110), "ST32": (6, 114.5, 1088.7, 169),
         "ST33": (8, 162.3, 1542.5, 190.1), "ST34": (10, 172, 1638, 213), "ST35": (50, 377, 3583, 750.5),
         "ST36": (100, 488, 4654, 1145)}
# blind est / published (README): Offline 0.665 (ST23) to 1.440 (ST37); Server 0.668 (ST28) to 1.008 (ST27);
# MI100 0.266 (ST36) to 2.006 (ST30); since branch gfx908_62's gfx908 decode walk 0.265 (ST36) to 1.131 (ST30)
OFFLINE_BAND, SERVER_BAND, MI100_BAND = (0.66, 1.45), (0.66, 1.01), (0.26, 1.15)


def test_the_round_has_its_rows_and_no_more():
    assert sorted(rows_in("serving_independent.csv", "ST", 20, 40)) == sorted([*OFFLINE, *MI100])
    assert sorted(rows_in("serving_rate.csv", "ST", 20, 40)) == sorted(SERVER)


@pytest.mark.parametrize("row_id", sorted(OFFLINE))
def test_an_offline_row_is_its_log(row_id):
    system, bench, model, gpu, tp, pp, sps, tps, spq, options = OFFLINE[row_id]
    r = {**rows_in("serving_independent.csv", "ST", 20, 24), **rows_in("serving_independent.csv", "ST", 37, 37)}[row_id]
    assert r["source"] == f"{V50}{system}/{bench}/Offline/performance/run_1/mlperf_log_summary.txt"
    stated = (r["model"], r["precision"], r["gpu"], int(r["count"]), int(r["tp"]), int(r["pp"]),
              int(r["prompt_tokens"]), r["framework"], r["framework_version"], r["kv_precision"], r["concurrency"])
    assert stated == (model, "fp8", gpu, COUNT[system], tp, pp, PROMPT[model], "tensorrt-llm", "", "fp8", "max")
    assert float(r["output_tokens_per_s"]) == tps
    # loadgen counts generated tokens only: 34,763.2 / 119.236 = 291.5 -> 292 (ST20); 397.31 / 0.614247 = 646.8 (ST24)
    assert int(r["output_tokens"]) == round(tps / sps)
    assert f"{spq:,}" in r["notes"] and r["workload_options"] == options
    assert r["ep"] == ("1" if model == "mixtral-8x7b" else "")


@pytest.mark.parametrize("row_id", sorted(SERVER))
def test_a_server_row_is_its_log(row_id):
    system, bench, model, gpu, tp, pp, sched, done, tps, ttft, tpot, target, options = SERVER[row_id]
    r = {**rows_in("serving_rate.csv", "ST", 25, 29), **rows_in("serving_rate.csv", "ST", 38, 38)}[row_id]
    assert r["source"] == f"{V50}{system}/{bench}/Server/performance/run_1/mlperf_log_summary.txt"
    assert (r["model"], r["gpu"], int(r["count"]), int(r["tp"]), int(r["pp"]), int(r["prompt_tokens"])) == (
        model, gpu, COUNT[system], tp, pp, PROMPT[model])
    assert (r["framework"], r["framework_version"], r["kv_precision"]) == ("tensorrt-llm", "", "fp8")
    assert (float(r["request_rate"]), float(r["served_requests_per_s"]), float(r["output_tokens_per_s"])) == (
        sched, done, tps)
    assert int(r["output_tokens"]) == round(tps / done)  # 33,023.50 / 112.88 = 292.6 -> 293 (ST25)
    assert_server_log(r, sched, done, ttft, tpot, target, options, CAPS[bench.rsplit("-99", 1)[0]])


def test_no_log_is_read_twice():
    logs = {**OFFLINE, **SERVER}
    rows = {r: v for name in ("serving_independent.csv", "serving_rate.csv")
            for r, v in rows_in(name, "ST", 20, 38).items() if r in logs}
    assert_logs_read_once(rows, logs)


@pytest.mark.parametrize("row_id", sorted(MI100))
def test_an_mi100_row_is_its_table_column(row_id):
    conc, out_tps, total_tps, ttft = MI100[row_id]
    r = rows_in("serving_independent.csv", "ST", 30, 36)[row_id]
    assert (r["source"], r["model"], r["precision"], r["gpu"], int(r["count"]), int(r["tp"])) == (
        MI100_SRC, "qwen3-32b", "int4", "mi100", 4, 4)
    assert (r["framework"], r["framework_version"], int(r["prompts"]), int(r["concurrency"])) == (
        "vllm", "0.9.0", 100, conc)
    assert r["workload_options"] == "quantization=gptq;memory_fraction=0.98" and r["fixed_lengths"] == ""
    assert (float(r["output_tokens_per_s"]), float(r["ttft_ms"]), r["tpot_ms"]) == (out_tps, ttft, "")
    # random prompts of 1,024 tokens: total / output = (1,024 + o) / o, so o = 1,024 / (total / output - 1): 120.05 at
    # concurrency 1 (273.5 / 28.7), 119.9 at 100 (4,654 / 488); the row's 120 holds for every column within a token
    assert int(r["prompt_tokens"]) == 1024 and int(r["output_tokens"]) == 120
    assert abs(1024 / (total_tps / out_tps - 1) - 120) < 1


def test_the_mi100_first_tokens_are_not_whole_prefills():
    """A 1,024-token prefill of Qwen3-32B is 2 x 32.76e9 x 1,024 = 67.1 TFLOP, 16.8 a GPU at TP 4: at the MI100's FP16
    matrix peak (184.6 TFLOP/s, gpus.yaml) that is 91 ms, at its BF16 peak (92.3) 182 ms. The sweep's 63 ms at one
    in flight is under even the FP16 floor, so the run did not compute its prompts whole (README: the fixed seed's
    same prompts on a server with prefix caching on), and the TTFT cannot settle the compute dtype."""
    from gpuwise import knowledge

    kb = knowledge.load()
    gpu, model = kb.gpus["mi100"], kb.models["qwen3-32b"]
    per_gpu_flop = 2 * model.params_b * 1e9 * 1024 / 4
    fp16_floor_ms = per_gpu_flop / (gpu.peaks.fp16 * 1e12) * 1e3
    assert 90.5 < fp16_floor_ms < 91.5 and 181 < per_gpu_flop / (gpu.peaks.bf16 * 1e12) * 1e3 < 183
    assert MI100["ST30"][3] < fp16_floor_ms


def test_the_harness_estimates_the_offline_rows_within_the_blind_band(tmp_path):
    from gpuwise import knowledge

    ratios = serving_ratios(knowledge.load(), tmp_path, set(OFFLINE))
    assert sorted(ratios) == sorted(OFFLINE)  # none refused
    assert all(OFFLINE_BAND[0] <= v <= OFFLINE_BAND[1] for v in ratios.values()), ratios


def test_the_harness_estimates_the_server_rows_within_the_blind_band():
    assert_rate_rows_within({r: v for r, v in rows_in("serving_rate.csv", "ST", 25, 38).items() if r in SERVER}, SERVER,
                            SERVER_BAND)


def test_the_harness_estimates_the_mi100_rows_within_the_blind_band(tmp_path):
    from gpuwise import knowledge

    ratios = serving_ratios(knowledge.load(), tmp_path, set(MI100))
    assert sorted(ratios) == sorted(MI100)
    assert all(MI100_BAND[0] <= v <= MI100_BAND[1] for v in ratios.values()), ratios
    # the sweep rises 17x from 1 to 100 in flight; the harness's only 2.3x blind (57.6 -> 129.6 tok/s), 4.0x since
    # branch gfx908_62's gfx908 decode walk (serving.yaml vllm rocm_paged_decode_walk: 32.45 -> 129.3 tok/s, ST30
    # 1.13x): the walk lengthens the one-sequence step by 13.5 ms, the long modelled prefills still cap the high loads
    assert 1.05 < ratios["ST30"] < 1.2 and ratios["ST36"] < 0.3
