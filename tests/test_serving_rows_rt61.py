"""Rows RT61-RT80 (branch sparkrate57): djangodevreng/dgx-spark-benchmarks' open-loop Poisson tests at 56365367, one
DGX Spark (GB10) under vLLM 0.26.0: each checkpoint's 09-reasoning test (vllm bench serve, random 1k / 4k at
--random-range-ratio 0.9, 50 prompts at 0.2/s Poisson, no concurrency cap) and Qwen3.5-0.8B's 10-monday-peak (300
prompts at 1.5/s, its cap of 25 never reached). The figures below are copied from each test's JSON; the checks redo
the arithmetic the rows rest on and the entry rules (validation README, 'Rows RT61-RT80'), and that the harness
estimates every row inside the band the blind reading set."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from .validation_rows import rows_in

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
URL = "https://github.com/djangodevreng/dgx-spark-benchmarks/blob/56365367/results/"
# id -> (run folder, test, prompts, total input, total output, duration s, output tok/s, completed requests/s,
#        TTFT mean / p50 / p95 / p99 ms, TPOT mean / p50 / p95 / p99 ms, peak requests in flight)
RUNS = {
    "RT61": ("qwen-3.5/qwen-3.5-0.8b/bf16", "10-monday-peak", 300, 1201770, 150317, 208.86, 719.69,
             1.4363, (256.1, 251.9, 447.7, 558.5), (14.13, 14.12, 17.94, 20.61),
             22),
    "RT62": ("qwen-3.5/qwen-3.5-0.8b/bf16", "09-reasoning", 50, 55622, 209303, 300.93, 695.53,
             0.1662, (80.4, 82.1, 115.0, 116.6), (10.31, 10.44, 11.22, 11.39),
             14),
    "RT63": ("qwen-3.5/qwen-3.5-2b/bf16", "09-reasoning", 50, 55622, 209303, 394.54, 530.50,
             0.1267, (143.6, 141.8, 194.4, 210.9), (24.78, 25.52, 27.17, 27.26),
             24),
    "RT64": ("qwen-3.5/qwen-3.5-4b/bf16", "09-reasoning", 50, 55522, 209303, 650.79, 321.61,
             0.0768, (319.4, 317.7, 460.1, 508.8), (65.72, 66.51, 73.70, 76.04),
             43),
    "RT65": ("qwen-3.5/qwen-3.5-9b/bf16", "09-reasoning", 50, 55522, 209303, 944.90, 221.51,
             0.0529, (524.1, 530.5, 719.2, 836.0), (110.87, 111.57, 118.77, 120.44),
             46),
    "RT66": ("qwen-3.6/qwen-3.6-27b/bf16", "09-reasoning", 50, 55522, 209303, 2611.07, 80.16,
             0.0191, (1873.1, 1777.0, 2865.7, 3200.7), (365.54, 371.09, 385.90, 390.82),
             50),
    "RT67": ("qwen-3.6/qwen-3.6-27b/fp8", "09-reasoning", 50, 55522, 209303, 1520.84, 137.62,
             0.0329, (3300.5, 2946.8, 5989.0, 8211.4), (211.51, 213.10, 241.60, 254.04),
             49),
    "RT68": ("qwen-3.6/qwen-3.6-35b-a3b/bf16", "09-reasoning", 50, 55522, 209303, 1386.75, 150.93,
             0.0361, (710.1, 698.4, 929.7, 1105.0), (194.46, 194.99, 219.79, 223.49),
             49),
    "RT69": ("qwen-3.6/qwen-3.6-35b-a3b/fp8", "09-reasoning", 50, 55522, 209303, 866.86, 241.45,
             0.0577, (502.3, 493.4, 760.2, 799.8), (108.10, 109.34, 125.81, 129.39),
             46),
    "RT70": ("qwen-3.6/qwen-3.6-35b-a3b/nvfp4", "09-reasoning", 50, 55522, 209303, 710.36, 294.64,
             0.0704, (388.7, 379.5, 588.6, 616.4), (80.60, 82.27, 93.41, 97.65),
             44),
    "RT71": ("gemma-4/gemma-4-26b-a4b-it/bf16", "09-reasoning", 50, 55684, 209303, 1134.75, 184.45,
             0.0441, (589.5, 601.7, 784.2, 871.8), (150.80, 150.81, 167.84, 171.72),
             49),
    "RT72": ("gemma-4/gemma-4-26b-a4b-it/nvfp4", "09-reasoning", 50, 55684, 209303, 676.39, 309.44,
             0.0739, (345.7, 342.9, 492.3, 550.7), (73.84, 74.86, 83.67, 87.58),
             44),
    "RT73": ("gemma-4/gemma-4-31b-it/bf16", "09-reasoning", 50, 55684, 209303, 3138.08, 66.70,
             0.0159, (2099.6, 2091.2, 3206.9, 3597.4), (443.13, 449.68, 467.94, 471.08),
             50),
    "RT74": ("gemma-4/gemma-4-31b-it/nvfp4", "09-reasoning", 50, 55684, 209303, 1966.42, 106.44,
             0.0254, (2207.0, 2147.3, 3880.7, 4730.4), (280.20, 285.71, 306.94, 312.09),
             49),
    "RT75": ("gpt-oss/gpt-oss-20b/mxfp4", "09-reasoning", 50, 57819, 177938, 540.36, 329.30,
             0.0925, (260.9, 256.3, 367.0, 400.3), (59.35, 54.92, 80.12, 168.50),
             34),
    "RT76": ("ministral-3/ministral-3-3b-instruct/bf16", "09-reasoning", 50, 55108, 209303, 624.58, 335.11,
             0.0801, (424.1, 422.7, 679.5, 761.8), (56.77, 60.92, 70.26, 70.89),
             37),
    "RT77": ("ministral-3/ministral-3-8b-instruct/bf16", "09-reasoning", 50, 55108, 209303, 696.47, 300.52,
             0.0718, (528.8, 591.8, 751.8, 997.7), (68.84, 70.66, 78.18, 78.99),
             43),
    "RT78": ("nemotron-3/nemotron-3-nano-30b-a3b/bf16", "09-reasoning", 50, 55805, 209303, 927.90, 225.57,
             0.0539, (646.8, 662.5, 843.0, 885.2), (135.20, 134.42, 181.30, 184.43),
             49),
    "RT79": ("nemotron-3/nemotron-3-nano-30b-a3b/fp8", "09-reasoning", 50, 55805, 209303, 642.86, 325.58,
             0.0778, (598.1, 620.0, 842.9, 1033.8), (82.73, 81.57, 105.16, 109.75),
             46),
    "RT80": ("nemotron-3/nemotron-3-nano-30b-a3b/nvfp4", "09-reasoning", 50, 55805, 209303, 498.14, 420.17,
             0.1004, (481.2, 454.9, 768.4, 1488.9), (52.62, 53.25, 64.28, 66.57),
             42),
}
# est / published output tok/s, blind (README): 0.29 (RT69, a steady state the 50 prompts never build) to 3.82 (RT71,
# the full scheduler's rate, which 50 prompts never fill); with the finite run simulated where the prompts cannot build
# the steady state (accuracy_serving.finite_paced): 0.65 (RT78) to 1.48 (RT66); with the outputs spread as the client's
# --random-range-ratio 0.9 draws them (accuracy_serving.run_lengths): 0.51 (RT78, Nemotron 3 Nano BF16) to 1.17 (RT75)
BAND = (0.45, 1.25)


def _rows(name: str = "serving_rate.csv", lo: int = 61, hi: int = 80, prefix: str = "RT") -> dict[str, dict]:
    return rows_in(name, prefix, lo, hi)


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows()) == sorted(RUNS)


@pytest.mark.parametrize("row_id", sorted(RUNS))
def test_a_row_is_its_tests_json(row_id):
    run, test, n, tin, tout, seconds, out_tps, req_s, ttft, tpot, peak = RUNS[row_id]
    row = _rows()[row_id]
    assert row["source"] == f"{URL}{run}/{test}.md"
    stated = (row["gpu"], row["count"], row["framework"], row["framework_version"], row["tp"], row["pp"])
    assert stated == ("gb10", "1", "vllm", "0.26.0", "1", "1")
    rate = 1.5 if test == "10-monday-peak" else 0.2
    assert (float(row["request_rate"]), int(row["prompts"]), row["concurrency"]) == (rate, n, "")
    assert row["fixed_lengths"] == ""  # --random-range-ratio 0.9: lengths drawn about the stated means
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (round(tin / n), round(tout / n))
    assert float(row["output_tokens_per_s"]) == out_tps
    assert float(row["served_requests_per_s"]) == req_s
    assert (float(row["ttft_ms"]), float(row["ttft_p50_ms"]), float(row["ttft_p95_ms"]),
            float(row["ttft_p99_ms"])) == ttft
    assert (float(row["tpot_ms"]), float(row["tpot_p50_ms"]), float(row["tpot_p95_ms"]),
            float(row["tpot_p99_ms"])) == tpot
    # the JSON's output rate is its output tokens over its duration, its request rate the prompts over it
    assert tout / seconds == pytest.approx(out_tps, abs=0.02)  # duration copied to 0.01 s
    assert n / seconds == pytest.approx(req_s, abs=1e-4)
    # the rule: no cap binds (09-reasoning sets none; the 0.8B's 10-monday-peak never reached its 25)
    assert peak < 25 if test == "10-monday-peak" else peak <= n


@pytest.mark.parametrize("row_id", sorted(RUNS))
def test_the_conditions_are_the_same_runs_sh_row(row_id):
    """The server is the one the same folder's 10-monday-peak row (SH52-SH73) states; Qwen3.5-0.8B has none."""
    row = _rows()[row_id]
    folder = RUNS[row_id][0]
    sh = {r["source"].split("/results/")[1].rsplit("/", 1)[0]: r for r in _rows("serving_independent.csv", 52, 73,
                                                                                  "SH").values()}
    want = sh.get(folder)
    if want is None:
        assert folder == "qwen-3.5/qwen-3.5-0.8b/bf16"
        assert (row["model"], row["precision"], row["kv_precision"], row["workload_options"]) == (
            "qwen3.5-0.8b", "bf16", "fp8", "memory_fraction=0.9")
        return
    for key in ("model", "precision", "kv_precision", "workload_options"):
        assert row[key] == want[key], key


def test_one_row_a_checkpoint():
    # '-v23' (memory 0.85) and Qwen3.8-27B (the qwen3.5-27b entry again) left out: one 09-reasoning row a checkpoint
    folders = [RUNS[r][0] for r in RUNS if RUNS[r][1] == "09-reasoning"]
    assert len(folders) == len(set(folders)) == 19
    assert not any(f.endswith("-v23") or "qwen-3.8" in f for f in folders)


def test_the_harness_estimates_every_row_within_the_blind_band():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    rows = _rows()
    cases = {c[0].split()[0]: c for c in accuracy.rate_cases(kb) if c[0].split()[0] in rows and "out tok" in c[0]}
    assert sorted(cases) == sorted(RUNS)  # none refused, none without a figure
    for row_id, (label, est, published) in cases.items():
        assert published == float(rows[row_id]["output_tokens_per_s"]), label
        assert BAND[0] <= est / published <= BAND[1], label


def test_a_run_its_prompts_cannot_fill_is_simulated_as_the_finite_stream_it_is():
    """Little's law: the steady state at rate r holds r x (TTFT + (output - 1) x TPOT) in flight; a run of 50 prompts
    holds at most 50. RT62 (Qwen3.5-0.8B, 0.2/s x 4,185 tokens at ~10 ms: ~9 in flight) keeps the steady state with
    its finite-run share; RT65 (Qwen3.5-9B, whose steady state the rate model puts at hundreds in flight) and RT71
    (beyond the copy's reach) are simulated, and the simulation never runs more than the run's 50 prompts."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy_serving as A

    from gpuwise import knowledge

    kb = knowledge.load()
    rows = _rows()
    for row_id, simulated in (("RT62", False), ("RT65", True), ("RT71", True)):
        row = rows[row_id]
        job, s = A.rate_row_served(kb, row)
        at = s.rate.at_rate
        run = A.finite_paced(job, s, row, at)
        assert (run is not None) == simulated, row_id
        if at.stable:
            held = 0.2 * (at.ttft_mean + (int(row["output_tokens"]) - 1) * at.tpot_mean)
            assert (held >= 50) == simulated, (row_id, held)
        if run is not None:
            assert run.most_running <= 50
            assert run.seconds >= 49 / 0.2  # the arrivals alone (49 gaps of 5 s at their mean)
    # an MLPerf Server row states no prompt count: never simulated
    mlperf = _rows("serving_rate.csv", 41, 41)["RT41"]
    job, s = A.rate_row_served(kb, mlperf)
    assert A.finite_paced(job, s, mlperf, s.rate.at_rate) is None


def test_the_outputs_spread_as_the_clients_range_ratio_draws_them():
    """vllm bench serve's random dataset draws each output uniformly over mean x [1 - r, 1 + r] (--random-range-ratio
    0.9: 410-7,782 tokens about 4,096); the harness lays 50 requests on that uniform's grid (i + 0.5) / 50, scaled
    to the row's mean of 4,186: the shortest 4,186 x (0.1 + 1.8 x 0.5 / 50) = 494, the longest 4,186 x (1.9 - 0.018)
    = 7,878, the mean the row's. gpt-oss-20b's row (its outputs ended at EOS) states no ratio: every request at the
    mean."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy_serving as A

    class One:  # one copy
        class layout:
            replicas = 1

    rows = _rows()
    assert all(rows[r]["range_ratio"] == ("" if r == "RT75" else "0.9") for r in RUNS)
    got = A.run_lengths(rows["RT65"], One)
    outs = sorted(o for _, o in got)
    assert len(got) == 50 and {p for p, _ in got} == {1110}
    assert (outs[0], outs[-1]) == (round(4186 * 0.118), round(4186 * 1.882))
    assert sum(outs) / 50 == pytest.approx(4186, abs=1)
    assert set(A.run_lengths(rows["RT75"], One)) == {(1156, 3559)}
