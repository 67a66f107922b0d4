"""Rows SS01-SS14 of validation/decode_independent.csv (the decodeblind12 round, blind figures in the validation
README). Each row must be estimated by the accuracy report (a row the serving model refuses, or a model or GPU the
catalog lost, would drop out of the file's median silently), and each figure must be what its source prints:
1 / mean TPOT for the SGLang cookbook rows (sgl-project/sgl-cookbook, sglang.bench_serving at --max-concurrency 1),
1 / TPOT for vLLM issue #37113, the reports' medians for somAzzz/llms_local_test, llmfit's avgTps for its GB10 file
(pull request #872) and its RTX 4090 pull request #1046 (300 tokens in 5.1 s)."""

from __future__ import annotations

import pytest

from tests import decode_rounds

IDS = [f"SS{i:02d}" for i in range(1, 15)]

# row -> mean TPOT in ms the source prints (sgl-cookbook Qwen3-Next.md, Qwen3-Coder-Next.md, GLM-5.md; vLLM #37113)
TPOT_MS = {"SS04": 6.19, "SS05": 6.19, "SS06": 6.24, "SS07": 7.54, "SS14": 48.0}
# row -> the figure as printed (the reports' median over ten requests; llmfit's avgTps over three runs)
PRINTED = {"SS01": 147.6, "SS02": 168.2, "SS03": 166.3, "SS08": 65.6, "SS09": 58.14, "SS10": 71.63, "SS11": 11.28,
           "SS12": 35.22, "SS13": 58.7}
# the cookbook runs' token totals over 10 (or 100) prompts -> the rows' mean lengths
TOTALS = {"SS04": (33839, 21640, 100), "SS05": (6101, 4220, 10), "SS06": (6101, 44462, 10), "SS07": (6101, 4220, 10)}


def _ss_rows() -> dict[str, dict]:
    return decode_rounds.rows("SS")


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "SS")


def test_the_round_has_its_fourteen_rows():
    assert sorted(_ss_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _ss_rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", sorted(TPOT_MS))
def test_a_tpot_row_is_one_over_its_tpot(row_id):
    # e.g. SS04: mean TPOT 6.19 ms -> 161.55 t/s
    assert float(_ss_rows()[row_id]["decode_tok_s"]) == pytest.approx(1000 / TPOT_MS[row_id], abs=0.01)


@pytest.mark.parametrize("row_id", sorted(PRINTED))
def test_a_wall_clock_row_keeps_the_printed_figure(row_id):
    assert float(_ss_rows()[row_id]["decode_tok_s"]) == PRINTED[row_id]


@pytest.mark.parametrize("row_id", sorted(TOTALS))
def test_a_cookbook_row_carries_the_runs_mean_lengths(row_id):
    # e.g. SS06: 6,101 input and 44,462 generated tokens over 10 prompts -> 610 in, 4,446 out
    prompt, output, n = TOTALS[row_id]
    row = _ss_rows()[row_id]
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (prompt // n, output // n)


def test_the_speculative_row_states_its_acceptance():
    """SS07: EAGLE over GLM-5's MTP layer, 3 steps and 4 draft tokens; the run's output prints 'Accept length:
    3.48' (sgl-cookbook GLM/GLM-5.md): a per-draft acceptance a with 1 + a + a^2 + a^3 = 3.48 is 0.91."""
    method, alpha, k = _ss_rows()["SS07"]["speculative"].split(":")
    assert (method, int(k)) == ("mtp", 3)
    assert sum(float(alpha) ** i for i in range(4)) == pytest.approx(3.48, abs=0.02)
    assert all(not _ss_rows()[i]["speculative"] for i in IDS if i != "SS07")


def test_llmfit_rows_are_its_tokens_over_its_request_time():
    # llmfit's avgTps is 300 tokens over the mean request time: SS08 300 / 4.57295 s = 65.6 t/s (file 65.6)
    for row_id, ms in {"SS08": 4572.95, "SS09": 5160.45, "SS10": 4187.95, "SS11": 26596.03, "SS12": 8516.73}.items():
        assert float(_ss_rows()[row_id]["decode_tok_s"]) == pytest.approx(300 / (ms / 1000), rel=2e-3)
    # SS13: "300 tokens in 5.1 s", the seconds rounded
    assert float(_ss_rows()["SS13"]["decode_tok_s"]) == pytest.approx(300 / 5.1, rel=5e-3)
