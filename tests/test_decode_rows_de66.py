"""Rows DE66-DE67 of validation/decode_independent.csv (the decodeblind25 round, blind figures in the validation
README): single-stream decode of 2025 MoE models on L40S under vLLM 0.10.2 with expert parallel, one streaming
request at a time, speculative decoding off. Each row must be estimated by the accuracy report, and each figure
must be what its source prints:
- DE66: tim-roethig/ai-platform platform/docs/ollama_vs_vllm.md @ 8fc2c9be (Qwen3-30B-A3B-Instruct-2507-FP8 on
  2 x L40S, TP 2 with --enable-expert-parallel: one request, 1655 tokens in 14.278 s, 115.915 tokens/sec, the
  request's wall time, so TTFT in it);
- DE67: the same repository's platform/docs/qwen3_235b_on_8xl40s.md @ 8fc2c9be (Qwen3-235B-A22B-Instruct-2507-FP8 on
  8 x L40S, TP 8 with expert parallel: vLLM's 'Avg generation throughput' of 39.0 / 39.7 / 38.7 / 38.5 / 39.4
  tokens/s in the five 10 s windows wholly inside the one request's decode)."""

from __future__ import annotations

import pytest

from tests import decode_rounds

IDS = ["DE66", "DE67"]

BASE = "https://github.com/tim-roethig/ai-platform/blob/8fc2c9bebee839944ff094745156629c0b40d637/platform/docs/"
# id -> (source, the model name the source uses, catalog id, precision, GPU, count, TP, EP, figure)
SOURCES = {
    "DE66": (BASE + "ollama_vs_vllm.md", "Qwen/Qwen3-30B-A3B-Instruct-2507", "qwen3-30b-a3b", "fp8", "l40s", 2, 2,
             2, 115.915),
    "DE67": (BASE + "qwen3_235b_on_8xl40s.md", "Qwen/Qwen3-235B-A22B-Instruct-2507", "qwen3-235b-a22b", "fp8",
             "l40s", 8, 8, 8, 39.06),
}


def _rows() -> dict[str, dict]:
    # DE68 on are sparkblind57's (tests/test_decode_rows_de68.py)
    return {k: r for k, r in decode_rounds.rows("DE").items() if 66 <= int(k[2:]) <= 67}


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
    source, name, model, precision, gpu, count, tp, ep, figure = SOURCES[row_id]
    row = _rows()[row_id]
    assert row["source"] == source
    assert kb.model(name).id == model == row["model"]  # the 2507 update resolves to the catalog entry of its shapes
    assert (row["precision"], row["weight_format"], row["gpu"], int(row["count"])) == (precision, "", gpu, count)
    assert (int(row["tp"]), int(row["ep"]), row["framework"], row["framework_version"]) == (tp, ep, "vllm", "0.10.2")
    assert float(row["decode_tok_s"]) == figure
    assert row["speculative"] == ""  # one request at a time, no draft tokens


def test_the_derived_figures_follow_from_the_printed_cells():
    rows = _rows()
    # DE66: the client's tokens over the request's seconds, as it prints them
    assert int(rows["DE66"]["output_tokens"]) == 1655
    assert float(rows["DE66"]["decode_tok_s"]) == pytest.approx(1655 / 14.278, rel=1e-4)
    # DE67: the mean of the five logger windows that lie inside the decode; the client's end-to-end 2227 / 57.335 s
    # (38.84 tokens/sec) sits just under it, as a rate with the prefill in it must
    windows = (39.0, 39.7, 38.7, 38.5, 39.4)
    assert float(rows["DE67"]["decode_tok_s"]) == pytest.approx(sum(windows) / len(windows), abs=0.005)
    assert float(rows["DE67"]["decode_tok_s"]) > 2227 / 57.335


def test_whole_request_rates_are_scored_end_to_end():
    # 'benchmark_latency' in the metric makes the accuracy report score output / (TTFT + output x step)
    rows = _rows()
    assert "benchmark_latency" in rows["DE66"]["metric"]
    assert "benchmark_latency" not in rows["DE67"]["metric"]
