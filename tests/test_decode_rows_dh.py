"""Rows DH01-DH05 of validation/decode_independent.csv (the decodeblind17 round, blind figures in the validation
README). Each row must be estimated by the accuracy report (a row the serving model refuses, or a model or GPU the
catalog lost, would drop out of the file's median silently), and each figure must be what its source prints:
the 'Tput User' column of tenstorrent/tt-inference-server issue #521's A100 sweep of gemma-3-4b-it (DH01-DH03),
1 / mean TPOT of vllm-project/vllm pull request #33680's MAIN run on B200 (DH04), and the output token throughput
of pull request #34265's MAIN run (generated tokens over the benchmark's duration, TTFT inside: DH05)."""

from __future__ import annotations

import pytest

from tests import decode_rounds

IDS = [f"DH{i:02d}" for i in range(1, 6)]

# tt-inference-server #521, 'Performance Benchmark Sweeps for gemma-3-4b-it on A100' at concurrency 1:
# row -> (ISL, OSL, mean TPOT ms, Tput User tok/s)
TT_SWEEP = {"DH01": (128, 128, 8.4, 118.72), "DH02": (128, 1024, 9.6, 104.71), "DH03": (4096, 128, 10.1, 99.19)}


def _dh_rows() -> dict[str, dict]:
    return decode_rounds.rows("DH")


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DH")


def test_the_round_has_its_five_rows():
    assert sorted(_dh_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _dh_rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", sorted(TT_SWEEP))
def test_tt_rows_are_the_sweeps_tput_user(row_id):
    # e.g. DH01: 128 in / 128 out, Tput User 118.72 tok/s, within the printed TPOT's rounding (1000 / 8.4 = 119.05)
    row = _dh_rows()[row_id]
    isl, osl, tpot_ms, tput_user = TT_SWEEP[row_id]
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (isl, osl)
    assert float(row["decode_tok_s"]) == pytest.approx(tput_user)
    # TPOT is printed to 0.1 ms: 1 / (TPOT +- 0.05 ms) brackets the per-user rate
    assert 1000 / (tpot_ms + 0.05) <= tput_user <= 1000 / (tpot_ms - 0.05)
    assert row["source"] == "https://github.com/tenstorrent/tt-inference-server/issues/521"


def test_dh04_is_one_over_the_main_runs_tpot():
    # vllm #33680, NVIDIA B200 MAIN: 131,072 in, 2,048 out, mean TPOT 15.28 ms -> 65.45 tok/s
    row = _dh_rows()["DH04"]
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (131072, 2048)
    assert float(row["decode_tok_s"]) == pytest.approx(1000 / 15.28, abs=0.01)


def test_dh05_is_generated_tokens_over_the_runs_duration_and_scored_end_to_end():
    # vllm #34265, MAIN: 4,096 generated tokens in 59.15 s -> 69.24 tok/s, TTFT inside, so the row is scored as
    # output / (TTFT + output x step) through a server (the metric names 'bench serve', not an offline engine)
    row = _dh_rows()["DH05"]
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (128000, 4096)
    assert float(row["decode_tok_s"]) == pytest.approx(4096 / 59.15, abs=0.01)
    assert "benchmark_latency" in row["metric"] and "bench serve" in row["metric"]


def test_deepseek_rows_name_their_layout_and_no_row_is_speculative():
    rows = _dh_rows()
    for row_id in ("DH04", "DH05"):
        assert (rows[row_id]["gpu"], rows[row_id]["count"], rows[row_id]["tp"]) == ("b200", "4", "4"), row_id
        assert rows[row_id]["source"].startswith("https://github.com/vllm-project/vllm/pull/"), row_id
    assert [r for r, row in rows.items() if row["speculative"]] == []
