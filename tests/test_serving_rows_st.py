"""Rows ST01-ST19 (serveblind38): MLPerf Inference v5.0 Offline and Server logs of submitters no row had cited, read
from ntuhpc/mlperf_inference_results_v5.0 at cf354115 (a copy of mlcommons/inference_results_v5.0), and three vLLM
printouts on 4 x MI100 (btbtyler09/mi100-llm-testing), scored blind.

The rule (validation README, 'Rows ST01-ST19'): every performance log in that copy of AMD's, ASUSTeK's, Supermicro's
and Dell's closed submissions for llama2-70b and llama3_1-405b on a catalogued card, one a system-benchmark-scenario:
the three 8 x MI325X systems on AMD's vLLM 0.6.5 harness, ASUSTeK's 8 x H200 SXM, ASUSTeK's and Dell's 8 x H200 NVL on
NVIDIA's harness. The figures below are copied from each log's mlperf_log_summary.txt; the checks redo the logs'
arithmetic (output tokens a sample = tokens/s over samples/s), hold each valid Server run to its benchmark's p99
constraints, and hold the harness to the blind reading recorded in the README.
"""

from __future__ import annotations

import pytest

from .validation_rows import assert_logs_read_once, assert_rate_rows_within, assert_server_log, rows_in, serving_ratios

V50 = "https://github.com/ntuhpc/mlperf_inference_results_v5.0/blob/cf354115915ea369f05db424b051da8c5bf957dc/closed/"
MI325X = ("AMD/results/8xMI325X_2xEPYC_9575F", "ASUSTeK/results/ESC_A8A_MI325X_256GBx8",
          "Supermicro/results/8xMI325X_2xEPYC_9575F")
H200 = "ASUSTeK/results/H200-SXM-141GBx8_TRT"
NVL_ASUS, NVL_DELL = "ASUSTeK/results/ESC8000_H200_NVLx8_NVLink_TRT", "Dell/results/XE7745_H200_NVL_141GBx8_TRT"
# row -> (results folder, benchmark, gpu, tp, pp, samples/s, tokens/s, samples_per_query, workload_options)
OFFLINE = {
    "ST01": (MI325X[0], "llama2-70b-99.9", "mi325x", 1, 1, 114.262, 33928.1, 1805760, ""),
    "ST02": (MI325X[1], "llama2-70b-99.9", "mi325x", 1, 1, 113.04, 33366.5, 316800, ""),
    "ST03": (MI325X[2], "llama2-70b-99.9", "mi325x", 1, 1, 112.029, 33069.1, 475200, ""),
    "ST04": (H200, "llama2-70b-99", "h200-141gb-sxm", 1, 1, 119.387, 34807.1, 304128,
             "max_batch_size=2048;prefill_chunk_tokens=1536"),
    "ST05": (NVL_ASUS, "llama2-70b-99", "h200-nvl-141gb", 1, 1, 95.2595, 27765.3, 274560,
             "max_batch_size=2048;prefill_chunk_tokens=1536"),
    "ST06": (NVL_DELL, "llama2-70b-99.9", "h200-nvl-141gb", 1, 1, 106.842, 31149.9, 422400,
             "max_batch_size=2048;prefill_chunk_tokens=1536"),
    "ST07": (H200, "llama3_1-405b", "h200-141gb-sxm", 4, 2, 0.863815, 557.097, 8313, "max_batch_size=512"),
}
# row -> (results folder, benchmark, gpu, tp, scheduled /s, completed /s, tokens/s, TTFT mean / p50 / p95 / p99 ms,
#         TPOT mean / p50 / p95 / p99 ms, the log's target_qps, workload_options)
SERVER = {
    "ST08": (MI325X[0], "llama2-70b-99.9", "mi325x", 1, 104.31, 103.83, 30724.51, (1060.3, 1035.5, 1718.2, 1936.5),
             (160.0, 162.0, 177.7, 199.4), 104.2, "api_servers=0"),
    "ST09": (MI325X[1], "llama2-70b-99.9", "mi325x", 1, 103.24, 101.88, 30086.52, (1021.8, 1015.0, 1625.8, 1848.6),
             (142.3, 144.8, 159.6, 180.0), 103, "api_servers=0"),
    "ST10": (MI325X[2], "llama2-70b-99.9", "mi325x", 1, 98.16, 97.39, 28770.18, (1025.7, 1044.4, 1590.6, 1821.8),
             (132.7, 134.4, 143.0, 152.1), 98, "api_servers=0"),
    "ST11": (H200, "llama2-70b-99", "h200-141gb-sxm", 1, 114.56, 112.92, 33037.22, (517.3, 444.4, 971.3, 1364.5),
             (184.6, 187.5, 191.9, 193.7), 114.24, "max_batch_size=2048;prefill_chunk_tokens=1536;api_servers=0"),
    "ST12": (H200, "llama2-70b-interactive-99", "h200-141gb-sxm", 1, 67.50, 66.48, 19418.47,
             (125.7, 102.6, 273.9, 382.4), (34.38, 34.39, 35.70, 36.57), 67.2,
             "max_batch_size=512;prefill_chunk_tokens=256;api_servers=0"),
    "ST13": (NVL_ASUS, "llama2-70b-99", "h200-nvl-141gb", 1, 95.24, 93.72, 27417.30, (348.9, 331.6, 594.3, 707.9),
             (169.8, 172.9, 180.5, 184.8), 95, "max_batch_size=2048;prefill_chunk_tokens=1536;api_servers=0"),
    "ST14": (NVL_DELL, "llama2-70b-99", "h200-nvl-141gb", 1, 100.08, 98.61, 28848.40, (384.6, 358.7, 632.6, 833.9),
             (178.6, 182.7, 189.9, 193.6), 99.825, "max_batch_size=2048;prefill_chunk_tokens=1536;api_servers=0"),
    "ST15": (NVL_DELL, "llama2-70b-interactive-99.9", "h200-nvl-141gb", 1, 56.08, 55.16, 16134.35,
             (131.6, 107.4, 283.2, 397.0), (37.16, 37.22, 38.72, 39.79), 56,
             "max_batch_size=512;prefill_chunk_tokens=256;api_servers=0"),
    "ST16": (H200, "llama3_1-405b", "h200-141gb-sxm", 8, 0.45, 0.45, 291.18, (1855.0, 1543.1, 4150.7, 5701.0),
             (56.7, 53.6, 86.0, 106.4), 0.45, "max_batch_size=512;api_servers=0"),
}
# the benchmarks' p99 constraints in the logs' test parameters (ttft_latency, tpot_latency), ms
CAPS = {"llama2-70b": (2000, 200), "llama2-70b-interactive": (450, 40), "llama3_1-405b": (6000, 175)}
# blind est / published (README): Offline 0.780 (ST01) to 0.970 (ST05); Server 0.522 (ST12) to 1.000 (ST16)
OFFLINE_BAND, SERVER_BAND = (0.77, 0.98), (0.51, 1.01)


def _model(bench: str) -> tuple[str, int]:
    return ("llama-3.1-405b", 9429) if bench.startswith("llama3_1") else ("llama-2-70b", 222)


def _engine(gpu: str) -> tuple[str, str]:
    # AMD's v5.0 harness names vLLM 0.6.5.dev964 in its systems json; NVIDIA's names no TensorRT-LLM build (blank)
    return ("vllm", "0.6.5") if gpu == "mi325x" else ("tensorrt-llm", "")


MI100_SRC = ("https://github.com/btbtyler09/mi100-llm-testing/blob/3e46add426158c2fbf8c427c4e0397afc4a3fe05/"
             "VLLM%20Benchmarks.md")
# row -> (model, vLLM, concurrency or request rate, prompts, input tokens, generated tokens, output tok/s,
#         TTFT mean, TPOT mean): the printouts' own figures
MI100 = {
    "ST17": ("qwen3-32b", "0.8.5", 5, 100, 102400, 11961, 58.32, 632.53, 83.03),
    "ST18": ("qwen3-30b-a3b", "0.8.5", 16, 250, 256000, 32000, 324.07, 340.43, 46.07),
    "ST19": ("qwen3-32b", "0.11.0", 0.5, 100, 102400, 12094, 58.50, 97.81, 53.45),
}
# blind est / published (README): ST17 1.548, ST18 1.444 (closed loop), ST19 1.007 (within reach at 0.5/s); since
# branch gfx908_62 priced vLLM 0.8.5's gfx908 decode attention (serving.yaml vllm rocm_paged_decode_walk: one Triton
# program a sequence's KV head), ST17 1.269 and ST18 1.133; ST19 (0.11.0, the unified walk already) unchanged
MI100_BAND, MI100_RATE_BAND = (1.10, 1.30), (0.99, 1.02)


def test_the_round_has_its_rows_and_no_more():
    assert sorted(rows_in("serving_independent.csv", "ST", 1, 19)) == sorted([*OFFLINE, "ST17", "ST18"])
    assert sorted(rows_in("serving_rate.csv", "ST", 1, 19)) == sorted([*SERVER, "ST19"])


@pytest.mark.parametrize("row_id", sorted(MI100))
def test_an_mi100_row_is_its_printout(row_id):
    model, version, load, prompts, isl_total, osl_total, tps, ttft, tpot = MI100[row_id]
    name = "serving_rate.csv" if row_id == "ST19" else "serving_independent.csv"
    r = rows_in(name, "ST", 17, 19)[row_id]
    assert (r["source"], r["model"], r["precision"], r["gpu"], int(r["count"]), int(r["tp"])) == (
        MI100_SRC, model, "bf16", "mi100", 4, 4)
    assert (r["framework"], r["framework_version"], int(r["prompts"])) == ("vllm", version, prompts)
    # the random dataset's prompts: 102,400 input tokens over 100 requests = 1,024 each
    assert int(r["prompt_tokens"]) == isl_total / prompts == 1024
    assert int(r["output_tokens"]) == round(osl_total / prompts)  # 11,961 / 100 = 119.6 -> 120 (ST17)
    assert (float(r["output_tokens_per_s"]), float(r["ttft_ms"]), float(r["tpot_ms"])) == (tps, ttft, tpot)
    assert r["workload_options"] == "memory_fraction=0.98"  # the file's --gpu-memory-utilization 0.98
    if row_id == "ST19":
        assert float(r["request_rate"]) == load and r["concurrency"] == ""
    else:
        assert int(r["concurrency"]) == load


def test_the_harness_estimates_the_mi100_rows_within_the_blind_band(tmp_path):
    from gpuwise import knowledge

    ratios = serving_ratios(knowledge.load(), tmp_path, {"ST17", "ST18"})
    assert sorted(ratios) == ["ST17", "ST18"]
    assert all(MI100_BAND[0] <= v <= MI100_BAND[1] for v in ratios.values()), ratios
    assert_rate_rows_within(rows_in("serving_rate.csv", "ST", 19, 19), {"ST19": MI100["ST19"]}, MI100_RATE_BAND)


@pytest.mark.parametrize("row_id", sorted(OFFLINE))
def test_an_offline_row_is_its_log(row_id):
    folder, bench, gpu, tp, pp, sps, tps, spq, options = OFFLINE[row_id]
    r = rows_in("serving_independent.csv", "ST", 1, 7)[row_id]
    assert r["source"] == f"{V50}{folder}/{bench}/Offline/performance/run_1/mlperf_log_summary.txt"
    model, prompt = _model(bench)
    stated = (r["model"], r["precision"], r["gpu"], int(r["count"]), int(r["tp"]), int(r["pp"]),
              int(r["prompt_tokens"]), (r["framework"], r["framework_version"]), r["kv_precision"], r["concurrency"])
    assert stated == (model, "fp8", gpu, 8, tp, pp, prompt, _engine(gpu), "fp8", "max")
    assert float(r["output_tokens_per_s"]) == tps
    # loadgen counts generated tokens only: 33,928.1 / 114.262 = 296.9 -> 297 (ST01); 557.097 / 0.863815 = 644.9
    assert int(r["output_tokens"]) == round(tps / sps)
    assert f"{spq:,}" in r["notes"] and r["workload_options"] == options


@pytest.mark.parametrize("row_id", sorted(SERVER))
def test_a_server_row_is_its_log(row_id):
    folder, bench, gpu, tp, sched, done, tps, ttft, tpot, target, options = SERVER[row_id]
    r = rows_in("serving_rate.csv", "ST", 8, 16)[row_id]
    assert r["source"] == f"{V50}{folder}/{bench}/Server/performance/run_1/mlperf_log_summary.txt"
    model, prompt = _model(bench)
    assert (r["model"], r["gpu"], int(r["count"]), int(r["tp"]), int(r["prompt_tokens"])) == (model, gpu, 8, tp, prompt)
    assert ((r["framework"], r["framework_version"]), r["kv_precision"]) == (_engine(gpu), "fp8")
    assert (float(r["request_rate"]), float(r["served_requests_per_s"]), float(r["output_tokens_per_s"])) == (
        sched, done, tps)
    assert int(r["output_tokens"]) == round(tps / done)  # 30,724.51 / 103.83 = 295.9 -> 296 (ST08)
    assert_server_log(r, sched, done, ttft, tpot, target, options, CAPS[bench.rsplit("-99", 1)[0]])


def test_no_log_is_read_twice():
    logs = {**OFFLINE, **SERVER}
    rows = {**rows_in("serving_independent.csv", "ST", 1, 7), **rows_in("serving_rate.csv", "ST", 8, 16)}
    assert_logs_read_once(rows, logs)


def test_the_harness_estimates_the_offline_rows_within_the_blind_band(tmp_path):
    from gpuwise import knowledge

    ratios = serving_ratios(knowledge.load(), tmp_path, set(OFFLINE))
    assert sorted(ratios) == sorted(OFFLINE)  # none refused
    assert all(OFFLINE_BAND[0] <= v <= OFFLINE_BAND[1] for v in ratios.values()), ratios


def test_the_harness_estimates_the_server_rows_within_the_blind_band():
    assert_rate_rows_within(rows_in("serving_rate.csv", "ST", 8, 16), SERVER, SERVER_BAND)
