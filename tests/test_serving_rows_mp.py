"""Rows MP01-MP34 (branch mlperfinf2): MLPerf Inference results not used by the ML rows, as serving rows. Each figure
must agree with the submission's mlperf_log_summary.txt: mlcommons/inference_results_v4.1 at 198fc467, v5.1 at
965182b0, and v6.0 as MLCommons published it (commit ab33b214, read from the stored fork
gbeezybez/inference_results_v6.0). Offline rows: 'Tokens per second' and 'Samples per second'; Server rows:
'Completed tokens per second', 'Completed samples per second', 'Scheduled samples per second' and the latencies in
ns. A figure copied wrong fails here, not in the accuracy report."""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"

# mlperf_log_summary.txt, Offline: row -> (tokens/s, samples/s)
OFFLINE = {"MP01": (112954.0, 413.714), "MP02": (1951.6, 3.067), "MP03": (70325.7, 18.7489),
           "MP04": (150707.0, 1177.4), "MP05": (103480.0, 365.738), "MP06": (78988.6, 276.929),
           "MP07": (29908.4, 110.025), "MP08": (49580.2, 387.346), "MP09": (32738.8, 226.575),
           "MP10": (1642.22, 12.8299), "MP11": (26318.8, 90.3972), "MP12": (31383.2, 107.643),
           "MP13": (22819.6, 77.6951), "MP14": (18558.9, 62.6401), "MP15": (8858.78, 30.5175),
           "MP16": (3717.74, 12.6843), "MP17": (52415.9, 359.173)}

# mlperfinf2 Server logs: row -> (completed tokens/s, completed samples/s, scheduled samples/s)
SERVER = {"MP18": (107317.80, 393.11, 399.62), "MP19": (1460.25, 2.29, 2.31), "MP20": (42721.39, 11.39, 11.53),
          "MP21": (141483.72, 1096.77, 1099.03), "MP22": (100282.36, 354.41, 359.71),
          "MP23": (77377.90, 275.04, 287.19), "MP24": (28727.84, 105.29, 109.43), "MP25": (48794.30, 378.25, 380.17),
          "MP26": (30134.33, 207.15, 207.73), "MP27": (1207.14, 9.36, 9.37), "MP28": (25627.92, 88.02, 90.43),
          "MP29": (30304.02, 103.94, 106.51), "MP30": (21433.25, 72.97, 75.48), "MP31": (15863.67, 53.56, 55.35),
          "MP32": (6927.80, 23.86, 24.01), "MP33": (3218.55, 10.97, 11.02), "MP34": (50795.57, 348.06, 348.37)}

# closed/NVIDIA/results/B300-SXM-270GBx8_TRT/llama2-70b-99/Server (v6.0): Mean First Token latency 327,482,428 ns,
# Mean Time per Output Token 123,937,588 ns, 99.00 percentile time to output token 154,875,532 ns (TPOT bound 200 ms)
MP18_LATENCY_NS = (327_482_428, 123_937_588, 154_875_532)

# each dataset's prompt tokens summed over its samples (openshift-psap/performance-dashboard
# mlperf-data/summaries/<dataset>.csv at 71007029; the Llama 2 set also HBFSim's protocol file): (sum, samples)
PROMPTS = {"llama-2-70b": (5_463_976, 24_576), "mixtral-8x7b": (6_410_905, 15_000),
           "llama-3.1-405b": (78_380_323, 8_313), "llama-3.1-8b": (11_639_915, 13_368),
           "deepseek-r1": (3_527_036, 4_388), "llama-3.1-70b": (5_463_976, 24_576)}


def _rows(name: str, prefix: str = "MP") -> dict[str, dict]:
    with (DATA / name).open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"].startswith(prefix)}


def test_seventeen_offline_rows_and_their_seventeen_server_twins():
    off, srv = _rows("serving_independent.csv"), _rows("serving_rate.csv")
    assert sorted(off) == sorted(OFFLINE) and sorted(srv) == sorted(SERVER)
    assert {r["concurrency"] for r in off.values()} == {"max"}
    # MPn's Server twin is MP(n+17): the same system, model and layout
    for n in range(1, 18):
        a, b = off[f"MP{n:02d}"], srv[f"MP{n + 17:02d}"]
        assert [a[k] for k in ("model", "precision", "gpu", "count", "framework", "tp", "pp", "ep")] == \
               [b[k] for k in ("model", "precision", "gpu", "count", "framework", "tp", "pp", "ep")]


@pytest.mark.parametrize("row_id", sorted(OFFLINE))
def test_an_offline_row_keeps_its_logs_throughput_and_output_per_sample(row_id):
    row, (tps, sps) = _rows("serving_independent.csv")[row_id], OFFLINE[row_id]
    assert float(row["output_tokens_per_s"]) == tps
    assert int(row["output_tokens"]) == round(tps / sps)  # output tokens only, as the SUT reports them to loadgen
    assert re.search(r"inference_results_v(4\.1|5\.1|6\.0)/blob/[0-9a-f]{40}/", row["source"])
    assert row["source"].lower().endswith("/offline/performance/run_1/mlperf_log_summary.txt")


@pytest.mark.parametrize("row_id", sorted(SERVER))
def test_a_server_row_keeps_its_logs_rate_and_completions(row_id):
    row, (tps, sps, sched) = _rows("serving_rate.csv")[row_id], SERVER[row_id]
    assert float(row["output_tokens_per_s"]) == tps
    assert float(row["served_requests_per_s"]) == sps
    assert float(row["request_rate"]) == sched
    assert int(row["output_tokens"]) == round(tps / sps)
    assert sps <= sched
    assert row["source"].lower().endswith("/server/performance/run_1/mlperf_log_summary.txt")


def test_the_server_latencies_are_the_logs_ns_in_ms():
    row = _rows("serving_rate.csv")["MP18"]
    ttft, tpot, tpot_p99 = (ns / 1e6 for ns in MP18_LATENCY_NS)
    assert float(row["ttft_ms"]) == round(ttft, 1) == 327.5
    assert float(row["tpot_ms"]) == round(tpot, 1) == 123.9
    assert float(row["tpot_p99_ms"]) == round(tpot_p99, 1) == 154.9


def test_the_mean_prompt_is_the_datasets_own():
    for r in [*_rows("serving_independent.csv").values(), *_rows("serving_rate.csv").values()]:
        total, n = PROMPTS[r["model"]]
        assert int(r["prompt_tokens"]) == round(total / n)  # 222, 427, 9,429, 871, 804


def test_no_result_log_is_used_twice():
    # every MP source is a log no other row of the validation set cites (the ML rows included)
    cited: list[str] = []
    for name in ("serving_independent.csv", "serving_rate.csv"):
        cited += [r["source"] for r in _rows(name, "").values()]
    logs = [s for s in cited if "/results/" in s and "inference_results_v" in s]
    # one result is one (round, path) pair, whichever copy or commit of the round's repository is cited
    keys = [(re.search(r"inference_results_(v[0-9.]+)/", s).group(1), s.split("/blob/")[1].split("/", 1)[1])
            for s in logs]
    assert len(keys) == len(set(keys))
    # MP01-MP08 and their Server twins, serveblind24's six v6.0 DeepSeek-R1 systems (SH01-SH06, RT01-RT06) and
    # serveblind26's eight Server / Interactive logs (RT15-RT22), serveblind29's twenty Server logs (RT41-RT60) and
    # decodeblind26's fifteen (RT81-RT95), serveblind31's thirty-two Offline logs (SH99-SH130) and serveblind32's three
    # (SH136-SH138), serveblind42's twenty-one (SA01-SA07, RZ01-RZ07, RZ20-RZ26)
    assert sum(k[0] == "v6.0" for k in keys) == 16 + 12 + 8 + 20 + 15 + 32 + 3 + 21


def test_the_runs_over_http_are_priced_with_a_front_end():
    # Krai's KISS and NVIDIA's v6.0 trtllm_endpoint core send every request over HTTP: their all-at-once rows must not
    # read as an in-process offline run (accuracy.py prices those with api_servers 0)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from accuracy import offline_metric

    off, srv = _rows("serving_independent.csv"), _rows("serving_rate.csv")
    http = {"MP01", "MP02", "MP03", "MP04", "MP11", "MP12", "MP13", "MP14"}
    for rid, r in off.items():
        assert offline_metric(r["metric"]) is (rid not in http), rid
    for rid, r in srv.items():
        in_process = "api_servers=0" in r["workload_options"]
        assert in_process is (f"MP{int(rid[2:]) - 17:02d}" not in http | {"MP10"}), rid


# configs whose torch_compile_config sets enable_piecewise_cuda_graph True (inference_results_v6.0 at ab33b214):
# closed/NVIDIA/configs/B300-SXM-270GBx1/<scenario>/llama2-70b.py, B300-SXM-270GBx2/<scenario>/llama3_1-405b.py and
# closed/GigaComputing/configs/G894-SD3-AAX7_B300-SXM-270GBx8/<scenario>/llama3_1-8b.py; the B300 DeepSeek-R1 config
# sets none (its prompt-carrying iterations run eagerly)
PIECEWISE = {"MP01", "MP02", "MP04", "MP18", "MP19", "MP21"}


def test_the_rows_whose_configs_capture_prompt_steps_say_so():
    rows = {**_rows("serving_independent.csv"), **_rows("serving_rate.csv")}
    for rid, r in rows.items():
        assert ("prefill_cuda_graphs=true" in r["workload_options"]) is (rid in PIECEWISE), rid
