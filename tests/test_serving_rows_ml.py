"""Rows ML01-ML21 (branch mlperfinf): MLPerf Inference llama2-70b-99 results as serving rows. Each figure must agree
with the submission's mlperf_log_summary.txt (mlcommons/inference_results_v5.1 at 965182b0, v4.1 at 198fc467): the
Offline 'Tokens per second' and 'Samples per second', the Server 'Completed tokens per second', 'Completed samples
per second', 'Scheduled samples per second' and the first-token / time-to-output-token latencies in ns. The mean
prompt is the MLCommons OpenOrca pickle's tok_input_length sum over its rows as FlashLab-MBZUAI/HBFSim's
validation/calibration/h100-llama2-70b-calibration-protocol.json (commit 96cf1b37) records it. A figure copied wrong
fails here, not in the accuracy report."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data" / "validation"

# the HBFSim protocol file: the pickle's 24,576 rows, tok_input_length summed
PROMPT_TOKENS_SUM, SAMPLES = 5_463_976, 24_576

# mlperf_log_summary.txt, Offline: row -> (tokens/s, samples/s)
OFFLINE = {"ML01": (101527.0, 371.423), "ML02": (51736.9, 187.748), "ML03": (34812.1, 118.653),
           "ML04": (31267.4, 106.977), "ML05": (27803.9, 92.1544), "ML06": (34520.4, 114.7),
           "ML07": (93045.8, 333.216), "ML08": (3062.72, 10.4445), "ML09": (24524.9, 84.4792),
           "ML10": (31302.7, 107.477), "ML11": (4067.52, 13.9658)}

# mlperf_log_summary.txt, Server: row -> (completed tokens/s, completed samples/s, scheduled samples/s,
# mean first-token latency ns, mean time to output token ns)
SERVER = {"ML12": (99123.04, 361.3, 363.79), "ML13": (49359.61, 178.48, 182.04), "ML14": (34029.38, 115.59, 116.59),
          "ML15": (29070.31, 99.12, 99.94), "ML16": (24593.77, 81.68, 83.9), "ML17": (32027.57, 106.28, 109.52),
          "ML18": (2520.27, 8.59, 8.62), "ML19": (21605.79, 74.42, 75.1), "ML20": (29228.22, 100.35, 101.25),
          "ML21": (3883.67, 13.33, 13.43)}
# closed/AMD/results/8xMI300X_2xEPYC_9575F/llama2-70b-99/Server: Mean First Token latency 918,456,323 ns, Mean Time
# to Output Token 144,594,078 ns, 99.00 percentile time to output token 193,380,124 ns
ML16_LATENCY_NS = (918_456_323, 144_594_078, 193_380_124)


def _rows(name: str) -> dict[str, dict]:
    with (DATA / name).open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"].startswith("ML")}


def _llama2(rows: dict[str, dict]) -> dict[str, dict]:
    return {k: r for k, r in rows.items() if int(k[2:]) <= 21}


def test_the_first_batch_has_eleven_offline_and_ten_server_rows_of_llama_2_70b():
    off, srv = _llama2(_rows("serving_independent.csv")), _llama2(_rows("serving_rate.csv"))
    assert sorted(off) == sorted(OFFLINE) and sorted(srv) == sorted(SERVER)
    assert {r["model"] for r in [*off.values(), *srv.values()]} == {"llama-2-70b"}
    assert {r["concurrency"] for r in _rows("serving_independent.csv").values()} == {"max"}


def test_the_mean_prompt_is_the_datasets_own():
    # 5,463,976 / 24,576 = 222.33 tokens
    mean = PROMPT_TOKENS_SUM / SAMPLES
    assert mean == pytest.approx(222.33, abs=0.01)
    for r in [*_llama2(_rows("serving_independent.csv")).values(), *_llama2(_rows("serving_rate.csv")).values()]:
        assert int(r["prompt_tokens"]) == round(mean)


# openshift-psap/performance-dashboard mlperf-data/summaries/<dataset>.csv at 71007029: (sum of input_length, samples);
# its llama2-70b-99.csv sums to HBFSim's 5,463,976 over 24,576, the same pickle read twice
PSAP = {"mixtral-8x7b": (6_410_905, 15_000), "llama-3.1-405b": (78_380_323, 8_313),
        "llama-3.1-8b": (11_639_915, 13_368), "deepseek-r1": (3_527_036, 4_388)}


def test_the_second_batch_carries_each_datasets_mean_prompt():
    rows = [r for f in ("serving_independent.csv", "serving_rate.csv") for k, r in _rows(f).items() if int(k[2:]) >= 22]
    assert len(rows) == 22 and {r["model"] for r in rows} == set(PSAP)
    for r in rows:
        total, n = PSAP[r["model"]]
        assert int(r["prompt_tokens"]) == round(total / n)  # 427, 9,429, 871, 804


# mlperf_log_summary.txt of the second batch, Offline and Server: row -> (tokens/s, samples/s)
SECOND = {"ML24": (62108.4, 425.547), "ML28": (136752.0, 1060.23), "ML31": (33379.0, 8.93431),
          "ML36": (1240.42, 1.9), "ML41": (5103.99, 39.56), "ML43": (22545.12, 6.13)}


@pytest.mark.parametrize("row_id", sorted(SECOND))
def test_a_second_batch_row_keeps_its_logs_figures(row_id):
    rows = {**_rows("serving_independent.csv"), **_rows("serving_rate.csv")}
    row, (tps, sps) = rows[row_id], SECOND[row_id]
    assert float(row["output_tokens_per_s"]) == tps
    assert int(row["output_tokens"]) == round(tps / sps)  # 146, 129, 3,736, 653, 129, 3,678


@pytest.mark.parametrize("row_id", sorted(OFFLINE))
def test_an_offline_row_keeps_its_logs_throughput_and_output_per_sample(row_id):
    row, (tps, sps) = _rows("serving_independent.csv")[row_id], OFFLINE[row_id]
    assert float(row["output_tokens_per_s"]) == tps
    # MLPerf counts the tokens each response carries (output only): the mean output is tokens over samples
    assert int(row["output_tokens"]) == round(tps / sps)
    assert "inference_results_v" in row["source"] and row["source"].endswith("/Offline/performance/run_1/"
                                                                              "mlperf_log_summary.txt")


@pytest.mark.parametrize("row_id", sorted(SERVER))
def test_a_server_row_keeps_its_logs_rate_and_completions(row_id):
    row, (tps, sps, sched) = _rows("serving_rate.csv")[row_id], SERVER[row_id]
    assert float(row["output_tokens_per_s"]) == tps
    assert float(row["served_requests_per_s"]) == sps
    assert float(row["request_rate"]) == sched  # loadgen's Poisson rate, what the rate model is asked at
    assert int(row["output_tokens"]) == round(tps / sps)
    assert sps <= sched  # a valid run completes no more than it was sent


def test_the_server_latencies_are_the_logs_ns_in_ms():
    row = _rows("serving_rate.csv")["ML16"]
    ttft, tpot, tpot_p99 = (ns / 1e6 for ns in ML16_LATENCY_NS)
    assert float(row["ttft_ms"]) == round(ttft, 1) == 918.5
    assert float(row["tpot_ms"]) == round(tpot, 1) == 144.6
    assert float(row["tpot_p99_ms"]) == round(tpot_p99, 1) == 193.4  # under the 200 ms TPOT constraint
