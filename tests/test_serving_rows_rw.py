"""Rows RW01-RW12 (serveblind36): vLLM's upstream serving suite at a stated request rate outside MLPerf, scored blind.

The rule (validation README, 'Rows RW01-RW12'): every finite-rate result (1, 4 and 16 requests/s) of the four result
folders of surajssd/llm-k8s at 58b61c59 ('Add results', 2025-04-15): Llama 3.3 70B Instruct BF16 under vLLM 0.8.3 on
Azure Standard_ND96asr_v4 (8 x A100-SXM4-40GB), TP 8 on one node and TP 4 PP 2 over two nodes (pod network,
InfiniBand, InfiniBand with GPUDirect RDMA), benchmark_serving.py with 200 ShareGPT prompts, Poisson arrivals and no
concurrency cap. The figures below are copied from each run's result JSON; the checks redo the rows' arithmetic and
hold the harness to the blind reading recorded in the README.
"""

from __future__ import annotations

import pytest

from .validation_rows import assert_logs_read_once, assert_rate_rows_within, rows_in

REPO = ("https://github.com/surajssd/llm-k8s/blob/58b61c59450e06073120a8ad166c1e9c333851a7/"
        "results_serving_meta-llama-Llama-3.3-70B-Instruct/")
TAG = {8: "tp8_pp1", 4: "tp4_pp2"}
# row -> (folder, tp, pp, request rate /s, duration s, output tokens, output tok/s, requests/s,
#         TTFT mean / median / p99 ms, TPOT mean / median / p99 ms)
RUNS = {
    "RW01": ("01_tp8_pp1", 8, 1, 1, 205.22, 42722, 208.18, 0.975,
             (65.26, 56.37, 143.80), (24.56, 24.54, 28.03)),
    "RW02": ("01_tp8_pp1", 8, 1, 4, 62.99, 42449, 673.92, 3.175,
             (50.33, 49.50, 67.56), (27.08, 27.35, 27.91)),
    "RW03": ("01_tp8_pp1", 8, 1, 16, 31.58, 42770, 1354.37, 6.333,
             (59.58, 58.10, 120.34), (31.58, 31.68, 36.51)),
    "RW04": ("02_tp4_pp2_no_IB", 4, 2, 1, 215.73, 42706, 197.96, 0.927,
             (112.55, 97.29, 224.11), (44.15, 44.04, 52.42)),
    "RW05": ("02_tp4_pp2_no_IB", 4, 2, 4, 78.88, 42604, 540.12, 2.536,
             (114.26, 103.23, 244.96), (58.11, 59.54, 71.10)),
    "RW06": ("02_tp4_pp2_no_IB", 4, 2, 16, 53.54, 42855, 800.41, 3.735,
             (139.73, 122.40, 395.34), (70.70, 70.15, 105.13)),
    "RW07": ("03_tp4_pp2_IB", 4, 2, 1, 216.15, 42776, 197.90, 0.925,
             (109.87, 97.49, 220.93), (43.89, 43.69, 51.17)),
    "RW08": ("03_tp4_pp2_IB", 4, 2, 4, 78.97, 42481, 537.93, 2.533,
             (115.73, 104.93, 248.54), (57.67, 58.66, 70.70)),
    "RW09": ("03_tp4_pp2_IB", 4, 2, 16, 52.72, 42773, 811.34, 3.794,
             (124.25, 111.79, 259.59), (68.38, 67.86, 90.75)),
    "RW10": ("04_tp4_pp2_IB", 4, 2, 1, 216.28, 42727, 197.55, 0.925,
             (110.09, 97.15, 229.35), (44.04, 43.83, 51.30)),
    "RW11": ("04_tp4_pp2_IB", 4, 2, 4, 78.69, 42736, 543.11, 2.542,
             (114.88, 103.09, 243.35), (57.82, 59.10, 70.05)),
    "RW12": ("04_tp4_pp2_IB", 4, 2, 16, 52.71, 42764, 811.30, 3.794,
             (127.48, 115.77, 241.93), (67.74, 67.24, 96.70)),
}
PROMPTS, PROMPT_TOKENS = 200, 42659  # the same 200 ShareGPT prompts in every run
# est / published: blind on the code at 246386d7, 1.008 (RW01, 1 request/s) to 1.987 (RW06, TP 4 PP 2 at 16/s), every
# run priced at the mean lengths; with the rows' ShareGPT lengths (length_distribution, the harness's dataset_paced
# over PLACEMENTS placements of the longest answers) 0.836 (RW03, TP 8 at 16/s) to 0.991 (RW10)
BAND = (0.83, 1.0)


def _rw() -> dict[str, dict]:
    return rows_in("serving_rate.csv", "RW", 1, 12)  # RW13.. are serveblind43's


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rw()) == sorted(RUNS)


@pytest.mark.parametrize("row_id", sorted(RUNS))
def test_a_row_is_its_run(row_id):
    folder, tp, pp, rate, secs, out_tokens, tps, rps, ttft, tpot = RUNS[row_id]
    r = _rw()[row_id]
    assert r["source"] == (f"{REPO}{folder}/serving_meta-llama-Llama-3.3-70B-Instruct_{TAG[tp]}_sharegpt_qps_"
                           f"{rate:02d}.json")
    assert (r["model"], r["precision"], r["gpu"], r["count"], r["framework"], r["framework_version"]) == (
        "llama-3.1-70b", "bf16", "a100-40gb-sxm", "8", "vllm", "0.8.3")
    assert (int(r["tp"]), int(r["pp"]), float(r["request_rate"]), int(r["prompts"])) == (tp, pp, rate, PROMPTS)
    assert (r["concurrency"], r["ttft_p95_ms"], r["tpot_p95_ms"]) == ("", "", "")  # no cap; the suite prints no p95
    assert r["length_distribution"] == "sharegpt"  # vLLM's ShareGPT sampler: each answer's length is its max_tokens
    # the mean lengths: 42,659 prompt tokens and the run's own output over the 200 requests
    assert int(r["prompt_tokens"]) == round(PROMPT_TOKENS / PROMPTS) == 213
    assert int(r["output_tokens"]) == round(out_tokens / PROMPTS)
    # the suite's throughputs are the run's totals over its duration (first send to last token)
    assert float(r["output_tokens_per_s"]) == tps and tps == pytest.approx(out_tokens / secs, rel=1e-4)
    assert float(r["served_requests_per_s"]) == rps and rps == pytest.approx(PROMPTS / secs, rel=1e-3)
    assert (float(r["ttft_ms"]), float(r["ttft_p50_ms"]), float(r["ttft_p99_ms"])) == ttft
    assert (float(r["tpot_ms"]), float(r["tpot_p50_ms"]), float(r["tpot_p99_ms"])) == tpot
    # Poisson arrivals of 200 at the rate take ~200 / rate seconds; the run lasts longer by its last requests' lives
    assert secs > 0.9 * PROMPTS / rate


def test_a_run_is_never_faster_than_its_arrivals_allow():
    # served requests/s stay under the offered rate: a run lasts its arrivals and then its last requests' lives
    for _, _, _, rate, _, _, _, rps, _, _ in RUNS.values():
        assert rps <= 1.0 * rate


def test_no_run_is_read_twice():
    assert_logs_read_once(_rw(), RUNS)


def test_the_harness_estimates_every_row_within_the_blind_band():
    assert_rate_rows_within(_rw(), RUNS, BAND)


def test_a_run_at_a_rate_ends_with_its_longest_answers():
    """RW06 (TP 4 PP 2 at 16/s): its 200 prompts arrive in ~12.5 s, yet the run lasts 53.5 s. At the mean lengths the
    simulated run lasts about the arrivals and one mean request; at ShareGPT's own lengths it lasts until its longest
    answers finish, and the mean over placements of those answers (a shuffled client sends them anywhere in the run)
    is shorter than the one fixed order that sends the longest of 200 198th."""
    import sys

    from gpuwise import knowledge
    from gpuwise.estimators.serving import burst as BU

    from .validation_rows import DATA

    sys.path.insert(0, str(DATA.parents[2]))
    import benchmarks.accuracy_serving as acc

    kb = knowledge.load()
    row = _rw()["RW06"]
    job, s = acc.rate_row_served(kb, row)
    mean_run = BU.burst_run(job, s.engine, s.replica, acc.run_lengths(row, s), rate=16.0)
    lengths = BU.dataset_lengths(kb.serving.length_distributions["sharegpt"], 213.0, 214.0, 200)
    fixed = BU.burst_run(job, s.engine, s.replica, lengths, rate=16.0)
    placed = acc.dataset_paced(kb, job, s, row)
    assert max(o for _, o in lengths) > 4 * 214  # the tail: the longest answer passes 4x the mean
    assert mean_run.seconds < 0.6 * RUNS["RW06"][4] < placed.seconds < fixed.seconds
    assert placed.output_tokens == fixed.output_tokens


def test_the_rate_rows_that_state_sharegpt_are_the_ones_whose_client_drew_its_answers():
    """serving_rate.csv's length_distribution names the dataset whose answers set each request's length (vLLM's
    ShareGPT sampler): DigitalOcean's vllm bench serve rows RQ01-RQ08 and this round's; the GPUStack rows RT09-RT14
    name ShareGPT but Qwen3.5 writes its own answers, so they are left blank."""
    import csv

    from .validation_rows import DATA

    with (DATA / "serving_rate.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    marked = {r["id"] for r in rows if r["length_distribution"]}
    assert marked == {f"RQ{i:02d}" for i in range(1, 9)} | set(RUNS)
    assert all(r["length_distribution"] == "sharegpt" and "ShareGPT" in r["notes"] for r in rows
               if r["id"] in marked)
    assert not any(r["length_distribution"] for r in rows if r["id"] in {f"RT{i:02d}" for i in range(9, 15)})
