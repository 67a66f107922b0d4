"""Rows SX01-SX10 of validation/decode_independent.csv (the decodeblind14 round, blind figures in the validation
README). Each row must be estimated by the accuracy report (a row the serving model refuses, or a model or GPU the
catalog lost, would drop out of the file's median silently), and each figure must be what its source prints:
1 / TPOT for SGLang pull request #31216, 1 / mean TPOT of the sglang.bench_serving runs on the SGLang cookbook pages
(Gemma 4, GLM-4.7-Flash, Ministral-3 in sgl-project/sglang docs_new; Kimi-K2 in sgl-project/sgl-cookbook), with the
prompt and output lengths the means of the run's printed token totals over its 10 requests."""

from __future__ import annotations

import pytest

from tests import decode_rounds

IDS = [f"SX{i:02d}" for i in range(1, 11)]

# row -> the TPOT (ms) its source prints: TPOT for sglang #31216 (SX01), mean TPOT for the cookbook runs
TPOT_MS = {"SX01": 21.49, "SX02": 8.75, "SX03": 10.94, "SX04": 12.63, "SX05": 6.63, "SX06": 12.32, "SX07": 5.60,
           "SX08": 24.13, "SX09": 9.78, "SX10": 40.41}
# row -> (total input tokens, total output tokens) printed for its 10 requests (sglang.bench_serving without
# --random-range-ratio draws the lengths below the nominal ones); SX01 prints no totals and keeps 1000 / 1000
TOTALS = {"SX02": (6101, 4220), "SX03": (6101, 44462), "SX04": (41941, 4220), "SX05": (6101, 4220),
          "SX06": (6101, 4220), "SX07": (6101, 4220), "SX08": (6101, 4220), "SX09": (6101, 4220),
          "SX10": (6101, 4220)}


def _sx_rows() -> dict[str, dict]:
    return decode_rounds.rows("SX")


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "SX")


def test_the_round_has_its_ten_rows():
    assert sorted(_sx_rows()) == IDS
    assert sorted(TPOT_MS) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _sx_rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", IDS)
def test_a_row_is_one_over_its_printed_tpot(row_id):
    # e.g. SX02: mean TPOT 8.75 ms -> 114.29 t/s
    assert float(_sx_rows()[row_id]["decode_tok_s"]) == pytest.approx(1000 / TPOT_MS[row_id], abs=0.01)


@pytest.mark.parametrize("row_id", sorted(TOTALS))
def test_lengths_are_the_runs_means(row_id):
    # e.g. SX04: 41,941 input and 4,220 output tokens over 10 requests -> 4,194 / 422
    row = _sx_rows()[row_id]
    ins, outs = TOTALS[row_id]
    assert int(row["prompt_tokens"]) == round(ins / 10)
    assert int(row["output_tokens"]) == round(outs / 10)


def test_no_row_of_the_round_is_speculative():
    assert [r for r, row in _sx_rows().items() if row["speculative"]] == []


def test_every_row_names_its_source_and_release():
    for row_id, row in _sx_rows().items():
        assert row["source"].startswith("https://github.com/sgl-project/"), row_id
        assert row["framework_version"], row_id
