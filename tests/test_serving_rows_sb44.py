"""Rows RW18-RW20 (serveblind44): serving at a stated request rate from a source no row had cited, scored blind.

ovg-project/kvcached's 'kvcached overhead benchmark' (benchmarks/bench_kvcached_overhead/README.md at f5330bc9, its pull
request #59 of 2025-08-06), the 'without kvcached' column only: meta-llama/Llama-3.2-3B (BF16) on one A100 80GB ('GCP-
a100-80G'), SGLang 0.4.6.post2 launched with --disable-radix-cache, sglang.bench_serving --backend sglang-oai random
1913/162 at --request-rate 8, 16 and 32 over 60 s of prompts. The figures below are copied from the printouts; the
checks redo their arithmetic and hold the harness's estimates to the band the blind reading set (validation README,
'Rows RW18-RW20').
"""

from __future__ import annotations

import csv

import pytest

from .validation_rows import DATA, assert_rate_rows_within, rows_in

KVCACHED = ("https://github.com/ovg-project/kvcached/blob/f5330bc9eaf8eb117ea7e4fda109bfd53763e329/benchmarks/"
            "bench_kvcached_overhead/README.md")

# row -> (requests/s offered, prompts, total input, total generated, duration s, served /s, output tok/s, the
#         printout's Concurrency, mean E2E ms, TTFT mean / p50 / p99 ms, mean ITL ms)
RUNS = {
    "RW18": (8, 480, 468878, 39948, 59.48, 8.07, 671.60, 6.97, 864.32, (65.48, 61.78, 156.96), 9.76),
    "RW19": (16, 960, 931890, 76078, 64.54, 14.87, 1178.78, 20.95, 1408.25, (91.67, 75.73, 416.68), 16.93),
    "RW20": (32, 1920, 1843657, 157031, 71.62, 26.81, 2192.53, 514.76, 19201.86, (2187.97, 2308.73, 5356.42), 216.53),
}
# est / published output tok/s as the rows stand, blind (README): 0.976 (RW18) and 1.021 (RW19) while the card keeps
# up; 0.720 at 32/s (RW20), where gpuwise's copy tops out near 19 requests/s against the 26.81 served: its prefill on
# the A100 (a 977-token prompt 46 ms, 137 TFLOP/s) is the class of the GPUStack A100 rows TA01-TA11
# after a100prefill65 (vLLM's and SGLang's efficiency on sm80 scaled by the A100's BF16 GEMM ceiling over the H100's,
# serving.yaml architecture_overrides.sm80): 0.976 / 1.033 / 0.763, the prompt 43.0 ms (146 TFLOP/s)
RATE_BAND = (0.75, 1.04)


def _rate() -> dict[str, dict]:
    return rows_in("serving_rate.csv", "RW", 18, 30)


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rate()) == sorted(RUNS)


def test_no_other_row_cites_the_source():
    for name in ("serving_independent.csv", "serving_rate.csv", "decode_independent.csv"):
        with (DATA / name).open(newline="") as fh:
            assert not [r["id"] for r in csv.DictReader(fh)
                        if "bench_kvcached_overhead" in r["source"] and r["id"] not in RUNS], name


@pytest.mark.parametrize("row_id", sorted(RUNS))
def test_a_row_is_its_printout(row_id):
    rate, n, tin, tout, secs, served, tps, in_flight, e2e, ttft, itl = RUNS[row_id]
    r = _rate()[row_id]
    assert r["source"] == KVCACHED
    assert (r["model"], r["precision"], r["gpu"], r["count"], r["framework"], r["framework_version"], r["tp"],
            r["length_distribution"], r["range_ratio"]) == (
        "llama-3.2-3b", "bf16", "a100-80gb-sxm", "1", "sglang", "0.4.6.post2", "1", "", "1")
    # 60 s of prompts at the rate (start_client.sh: NUM_PROMPTS = REQUEST_RATE x 60); the lengths are the run's means
    # (SGLang's default range ratio 0 draws each uniformly from 1 to the stated length: 1,913 / 2 ~ 957, 162 / 2 ~ 81)
    assert n == rate * 60
    assert (float(r["request_rate"]), int(r["prompts"]), int(r["prompt_tokens"]), int(r["output_tokens"])) == (
        rate, n, round(tin / n), round(tout / n))
    assert (float(r["output_tokens_per_s"]), float(r["served_requests_per_s"])) == (tps, served)
    assert (float(r["ttft_ms"]), float(r["ttft_p50_ms"]), float(r["ttft_p99_ms"])) == ttft
    assert float(r["tpot_ms"]) == itl
    # the printout's own arithmetic: output and requests over the run's duration
    assert tout / secs == pytest.approx(tps, rel=2e-3)
    assert n / secs == pytest.approx(served, abs=0.01)
    # Little's law: SGLang's Concurrency is the requests' summed latency over the duration, served x mean E2E
    assert served * e2e / 1e3 == pytest.approx(in_flight, rel=5e-3)
    # the printed mean ITL is the request's per-token time: (E2E - TTFT) over the output less its first token
    assert (e2e - ttft[0]) / (tout / n - 1) == pytest.approx(itl, rel=0.03)


def test_only_the_32_per_s_run_fell_behind():
    """At 8 and 16/s the card kept up (the run lasts the 60 s of arrivals and the few in flight); at 32/s it served
    26.81/s with 515 in flight: the row beyond the card's reach."""
    for row_id, (rate, _n, _, _, secs, served, _, in_flight, *_rest) in RUNS.items():
        behind = served < 0.9 * rate
        assert behind == (row_id == "RW20")
        assert (in_flight > 100) == behind
        assert (secs > 1.1 * 60) == behind  # a run that keeps up ends soon after its 60 s of arrivals


def test_the_rate_rows_are_estimated_within_their_band():
    assert_rate_rows_within(_rate(), RUNS, RATE_BAND)
