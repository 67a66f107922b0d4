"""Rows SC01-SC04 (serveblind46): serving at a stated concurrency from a report no serving row had cited, blind.

TheTom/atlas's single-H100 rental report (docs/campaigns/hopper-atlas-vs-vllm-2026-09/RENTAL-H100-REPORT.md at
d1e8df80): its vLLM 0.28.0 control serving Qwen/Qwen3.8-27B-FP8 on one H100 80GB HBM3, the frozen ladder's latency
workload (1,193 prompt / 256 output tokens a request) and agent workload (4,593 / 512) at C1 and C16, three timed
repetitions a rung (48 requests at C16: one wave of 16 a repetition). The figures below are copied from the report's
two tables; the checks redo their arithmetic and hold the harness's estimates to the band the blind reading set
(validation README, 'Rows SC01-SC04').
"""

from __future__ import annotations

import csv

import pytest

from .validation_rows import DATA, rows_in, serving_ratios

SOURCE = ("https://github.com/TheTom/atlas/blob/d1e8df8062eb5dbcff398ae30249d5c588f3afc5/docs/campaigns/"
          "hopper-atlas-vs-vllm-2026-09/RENTAL-H100-REPORT.md")
CONDITIONS = ("qwen3.5-27b", "fp8", "h100-80gb-sxm", "1", "vllm", "0.28.0", "1", "bf16", "1",
              "max_batch_size=512;prefill_chunk_tokens=8192;kv_cache_tokens=622688")
# row -> (prompt tokens, output tokens, C, timed requests over the three repetitions, output tok/s,
#         TTFT p50 ms, TPOT p50 ms), each a mean of the three repetitions' figures
RUNS = {
    "SC01": (1193, 256, 1, 3, 76.928, 285.632, 11.928),
    "SC02": (1193, 256, 16, 48, 790.507, 1324.001, 15.056),
    "SC03": (4593, 512, 1, 3, 78.451, 387.335, 12.011),
    "SC04": (4593, 512, 16, 48, 638.758, 3457.176, 18.225),
}
# est / published output tok/s blind, on the code at 0a2ccfe1: 1.007 (SC03) to 1.053 (SC01)
BAND = (0.95, 1.10)


def _rows() -> dict[str, dict]:
    return rows_in("serving_independent.csv", "SC", 1, 20)


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows()) == sorted(RUNS)


@pytest.mark.parametrize("row_id", sorted(RUNS))
def test_a_row_is_its_table_line(row_id):
    # the launch (the campaign's capacity note, qwen38-vllm-capacity/REPORT.md): --max-num-seqs 512, a batch-token
    # budget of 8192 and a KV pool of 622,688 tokens
    p, o, c, timed, tps, ttft, tpot = RUNS[row_id]
    r = _rows()[row_id]
    assert r["source"] == SOURCE
    assert (r["model"], r["precision"], r["gpu"], r["count"], r["framework"], r["framework_version"], r["tp"],
            r["kv_precision"], r["fixed_lengths"], r["workload_options"]) == CONDITIONS
    # three timed repetitions a rung, each a closed loop of C requests sent together: the row's prompts
    assert timed == 3 * c
    assert (int(r["prompt_tokens"]), int(r["output_tokens"]), int(r["concurrency"]), int(r["prompts"])) == (
        p, o, c, timed // 3)
    assert (float(r["output_tokens_per_s"]), float(r["ttft_ms"]), float(r["tpot_ms"])) == (tps, ttft, tpot)
    # the report's own arithmetic: a repetition is one wave, so its rate is C x output over the first token and the
    # rest at the TPOT (SC02: 16 x 256 / (1.324 + 255 x 0.015056 s) = 793 against 790.5), within 1% (the medians
    # stand in for the requests' own times)
    assert c * o / (ttft / 1e3 + (o - 1) * tpot / 1e3) == pytest.approx(tps, rel=0.01)


def test_no_other_serving_row_cites_the_report():
    for name in ("serving_independent.csv", "serving_rate.csv", "../serving_published.csv"):
        with (DATA / name).open(newline="") as fh:
            assert not [r["id"] for r in csv.DictReader(fh) if "TheTom/atlas" in r["source"] and r["id"] not in RUNS]


def test_the_rows_are_estimated_within_their_band(tmp_path):
    from gpuwise import knowledge

    ratios = serving_ratios(knowledge.load(), tmp_path, set(_rows()))
    assert sorted(ratios) == sorted(RUNS)
    for row_id, ratio in ratios.items():
        assert BAND[0] <= ratio <= BAND[1], (row_id, ratio)
