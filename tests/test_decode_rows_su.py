"""Rows SU01-SU22 of validation/decode_independent.csv (the decodeblind13 round, blind figures in the validation
README). Each row must be estimated by the accuracy report (a row the serving model refuses, or a model or GPU the
catalog lost, would drop out of the file's median silently), and each figure must be what its source prints:
1 / median TPOT for AlexGS74/glm47-nvfp4-sm120's vllm bench serve runs, 1 / TPOT for SGLang pull request #30812,
1 / mean inter-token latency for waynehacking8/trtllm-triton-serving's results/*.json, and llama-bench's tg128 on
master for llama.cpp pull request #19365 (and SU22, the
AWQ page's whole-number 'System tok/s')."""

from __future__ import annotations

import pytest

from tests import decode_rounds

IDS = [f"SU{i:02d}" for i in range(1, 23)]

# row -> the TPOT (ms) its source prints (median TPOT for AlexGS74's runs, TPOT for sglang #30812)
TPOT_MS = {"SU01": 12.57, "SU02": 18.63, "SU03": 17.61, "SU04": 9.00, "SU07": 28.38}
# row -> mean inter-token latency (ms) in waynehacking8/trtllm-triton-serving's results files
ITL_MS = {"SU08": 6.81, "SU09": 6.51, "SU10": 4.43, "SU11": 3.45, "SU12": 11.53, "SU13": 6.69, "SU14": 7.06,
          "SU15": 2.57, "SU16": 6.19, "SU17": 4.18, "SU18": 4.27, "SU19": 3.13, "SU20": 8.60, "SU21": 8.66}
# row -> the figure as printed: llama-bench tg128 on master in llama.cpp #19365 (A100, A100 x 4); AlexGS74's
# docs/awq-benchmark.md 'System tok/s' at concurrency 1 (1000 / TPOT, printed as a whole number)
PRINTED = {"SU05": 58.25, "SU06": 55.73, "SU22": 68.0}


def _su_rows() -> dict[str, dict]:
    return decode_rounds.rows("SU")


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "SU")


def test_the_round_has_its_twenty_two_rows():
    assert sorted(_su_rows()) == IDS
    assert sorted([*TPOT_MS, *ITL_MS, *PRINTED]) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _su_rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", sorted({**TPOT_MS, **ITL_MS}))
def test_a_latency_row_is_one_over_its_latency(row_id):
    # e.g. SU01: median TPOT 12.57 ms -> 79.55 t/s
    ms = TPOT_MS.get(row_id) or ITL_MS[row_id]
    assert float(_su_rows()[row_id]["decode_tok_s"]) == pytest.approx(1000 / ms, abs=0.01)


@pytest.mark.parametrize("row_id", sorted(PRINTED))
def test_a_llama_bench_row_keeps_the_printed_figure(row_id):
    assert float(_su_rows()[row_id]["decode_tok_s"]) == PRINTED[row_id]


def test_only_the_mtp_row_is_speculative():
    # SU03 ran GLM-4.7's MTP layer with one draft token; its acceptance (0.763) is assumed, not printed
    rows = _su_rows()
    assert rows["SU03"]["speculative"].startswith("mtp:")
    assert [r for r in IDS if r != "SU03" and rows[r]["speculative"]] == []
