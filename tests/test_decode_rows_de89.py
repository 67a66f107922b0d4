"""Rows DE89-DE90 of validation/decode_independent.csv (branch decodeblind26, blind figures in the validation README):
single-stream decode of Qwen3.6-27B (the catalog's qwen3.5-27b entry) in Q4_K_M under llama.cpp on consumer cards.
Each row must be estimated by the accuracy report, and each figure must be what its source prints:
- DE89: InsiderLLM's 'Gemma 4 26B-A4B vs Qwen 3.6-27B on RTX 3090' (one RTX 3090, llama.cpp f9cd456ea = b9079):
  Qwen 3.6-27B Q4_K_M decode 41.27 tok/s, the mean over nine prompts of am17an's gist bench;
- DE90: jaigouk's gpumod log 'Qwen3.6 vs Gemma4 Architecture Comparison' (2026-04-24; one RTX 4090, llama.cpp b8838):
  Qwen3.6-27B Q4_K_M, TPS 46.9 over 15 iterations of its coding benchmark.
Neither source states its lengths: both rows carry them as ASSUMPTIONS in their notes."""

from __future__ import annotations

import pytest

from tests import decode_rounds

IDS = ["DE89", "DE90"]

# id -> (source, GPU, llama.cpp build, figure)
SOURCES = {
    "DE89": ("https://insiderllm.com/guides/wicked-fast-gemma-4-26b-a4b-vs-qwen-3-6-27b-rtx-3090/", "rtx-3090", "9079",
             41.27),
    "DE90": ("https://jaigouk.com/gpumod/benchmarks/20260423_qwen36_gemma4_comparison/", "rtx-4090", "8838", 46.9),
}


def _rows() -> dict[str, dict]:
    return {k: r for k, r in decode_rounds.rows("DE").items() if 89 <= int(k[2:]) <= 90}


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DE")


def test_the_round_has_its_two_rows():
    assert sorted(_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", IDS)
def test_each_row_is_its_sources_figure_on_its_hardware(kb, row_id):
    source, gpu, build, figure = SOURCES[row_id]
    row = _rows()[row_id]
    assert row["source"] == source
    assert kb.model("Qwen3.6-27B").id == "qwen3.5-27b" == row["model"]  # the alias the catalog gives Qwen3.6-27B
    assert (row["precision"], row["weight_format"], row["gpu"], int(row["count"])) == (
        "int4", "gguf-q4_k_m", gpu, 1)
    assert (row["framework"], row["framework_version"]) == ("llama.cpp", build)
    assert float(row["decode_tok_s"]) == figure
    assert row["speculative"] == ""  # autoregressive: the sources' MTP / DFlash runs are other rows' business
    assert "ASSUMPTION" in row["notes"]  # the lengths are not in either source's stored text


def test_the_blind_estimates_stay_near_the_sources(estimated):
    # blind (validation README, 'Rows DE89-DE90 and RT81-RT95'): +4.8% and -0.7%
    for row_id in IDS:
        est, got = estimated[row_id]
        assert 0.85 <= est / got <= 1.15, row_id
