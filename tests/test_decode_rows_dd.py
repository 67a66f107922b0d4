"""Rows DD01-DD05 of validation/decode_independent.csv (the decodeblind15 round, blind figures in the validation
README). Each row must be estimated by the accuracy report (a row the serving model refuses, or a model or GPU the
catalog lost, would drop out of the file's median silently), and each figure must be what its source prints:
the median of the nine per-request rates of llama.cpp pull request #23398's 'No MTP (Q8)' run, the tg400 rows of
llama.cpp issue #28196 (llama-bench -p 1024 -n 400), and the llama.cpp figure of eugr/spark-vllm-docker #93."""

from __future__ import annotations

import statistics

import pytest

from tests import decode_rounds

IDS = [f"DD{i:02d}" for i in range(1, 6)]

# llama.cpp #23398, aldehir's comment of 2026-05-21: tok/s of the nine 192-token requests, no MTP, Q8_0
DD01_RATES = [39.9, 40.0, 40.0, 40.1, 40.2, 40.2, 40.2, 40.1, 39.5]
# row -> (the t/s its source prints, the source's URL)
PRINTED = {
    "DD02": (71.91, "https://github.com/ggml-org/llama.cpp/issues/28196"),  # Qwen3.5-27B Q4_K_M, graphs on, tg400
    "DD03": (65.35, "https://github.com/ggml-org/llama.cpp/issues/28196"),  # Qwen3-32B Q4_K_M control, tg400
    "DD04": (134.18, "https://github.com/ggml-org/llama.cpp/issues/28196"),  # qwen3moe 30B.A3B control, RTX 5090
    "DD05": (14.43, "https://github.com/eugr/spark-vllm-docker/pull/93"),  # Nemotron-3-Super Q4_K, one Spark
}


def _dd_rows() -> dict[str, dict]:
    return decode_rounds.rows("DD")


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DD")


def test_the_round_has_its_five_rows():
    assert sorted(_dd_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _dd_rows()[row_id], row_id)


def test_dd01_is_the_median_of_the_nine_requests():
    # 39.5, 39.9, 40.0, 40.0, 40.1, 40.1, 40.2, 40.2, 40.2 -> 40.1
    assert float(_dd_rows()["DD01"]["decode_tok_s"]) == pytest.approx(statistics.median(DD01_RATES))
    assert _dd_rows()["DD01"]["source"] == "https://github.com/ggml-org/llama.cpp/pull/23398"


@pytest.mark.parametrize("row_id", sorted(PRINTED))
def test_a_row_is_its_printed_figure(row_id):
    figure, url = PRINTED[row_id]
    row = _dd_rows()[row_id]
    assert float(row["decode_tok_s"]) == pytest.approx(figure)
    assert row["source"] == url


def test_the_tg400_rows_decode_400_tokens_from_an_empty_cache():
    # llama-bench -p 1024 -n 400 runs tg400 as its own test, with no prompt in the cache
    for row_id in ("DD02", "DD03", "DD04"):
        row = _dd_rows()[row_id]
        assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (0, 400), row_id
        assert row["framework_version"] == "10741", row_id  # b10741 (9d81721), the build


def test_no_row_of_the_round_is_speculative():
    assert [r for r, row in _dd_rows().items() if row["speculative"]] == []
