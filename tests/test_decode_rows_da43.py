"""Rows DA31-DA32 of validation/decode_independent.csv (branch decodeblind43, issue 22 item 7; blind figures in the
validation README, 'Rows DA31-DA32'): single-stream decode of a 2025 small MoE over several consumer cards from a
source no row had cited.

- DA31-DA32: gpt-oss-120b MXFP4, llama-bench tg128 at depth 0 and at 65,536 tokens of context on four RTX 4090, the
  '-sm layer' column (llama.cpp's default layer split) of ggml-org/llama.cpp pull request #19378's own table
  'Performance on 4x RTX 4090' (the PR that adds '-sm tensor'; JohannesGaessler, description of 2026-02-05).

Each row is checked against its source's cells and their arithmetic by hand; the blind figures are kept (nothing set).
DA33-DA40 hold no row."""

from __future__ import annotations

import pytest

from tests import decode_rounds

_PR = "https://github.com/ggml-org/llama.cpp/pull/19378"
# id: (model, precision, gpu, count, depth (prompt_tokens), output, t/s -sm layer, t/s -sm tensor, speedup printed)
ROWS = {
    "DA31": ("gpt-oss-120b", "fp4", "rtx-4090", 4, 0, 128, 180.36, 179.79, 1.00),
    "DA32": ("gpt-oss-120b", "fp4", "rtx-4090", 4, 65536, 128, 118.65, 147.89, 1.25),
}
IDS = sorted(ROWS)
# blind, on 0a2ccfe1 with the rows added (validation README, 'Rows DA31-DA32'): estimate / measured - 1, in %
BLIND = {"DA31": -5.8, "DA32": -5.1}


def _rows() -> dict[str, dict]:
    # this round's ids only: DA01-DA30 are earlier rounds'
    return {k: v for k, v in decode_rounds.rows("DA").items() if 31 <= int(k[2:]) <= 40}


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DA")


def test_the_round_has_its_rows():
    assert sorted(_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", IDS)
def test_each_row_is_its_published_cell(row_id):
    model, precision, gpu, count, depth, output, layer, _tensor, _speedup = ROWS[row_id]
    row = _rows()[row_id]
    assert row["source"] == _PR
    assert (row["model"], row["precision"], row["weight_format"], row["gpu"], int(row["count"])) == (
        model, precision, "", gpu, count)
    assert (row["framework"], row["framework_version"], row["tp"], row["ep"]) == ("llama.cpp", "", "", "")
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (depth, output)
    assert float(row["decode_tok_s"]) == layer
    assert (row["kv_precision"], row["workload_options"], row["speculative"]) == ("", "", "")
    # the harness pins the one copy split by layers over the four cards (benchmarks/accuracy_decode.py stated_split)
    assert "layer split over 4 GPUs" in row["metric"]
    assert "Blind round of branch decodeblind43" in row["notes"]


@pytest.mark.parametrize("row_id", IDS)
def test_the_speedup_column_is_tensor_over_layer(row_id):
    # the table's last column is t/s -sm tensor / t/s -sm layer, printed to two decimals
    *_, layer, tensor, speedup = ROWS[row_id]
    assert tensor / layer == pytest.approx(speedup, abs=0.005)


def test_the_step_grows_by_about_one_read_of_the_cache():
    # by hand (models.yaml gpt-oss-120b: 36 layers, half of them full attention, 8 KV heads of 64; the other half keep
    # a 128-token window): an f16 cache holds 18 x 8 x 64 x 2 (K, V) x 2 B = 36,864 B a token of context. After
    # 65,536 tokens a step reads 2.416 GB of it; under a layer split the four cards read their layers in turn, so
    # the time is one card's (gpus.yaml rtx-4090: 1,008 GB/s): 2.40 ms. The step grows from 5.54 ms to 8.43 ms,
    # 2.88 ms: the cache read at the card's peak bandwidth is 83% of the growth
    per_token = 18 * 8 * 64 * 2 * 2
    read_ms = per_token * 65536 / 1008e9 * 1e3
    steps = {k: 1000 / float(r["decode_tok_s"]) for k, r in _rows().items()}
    assert per_token == 36_864
    assert read_ms == pytest.approx(2.397, abs=0.002)
    assert steps["DA31"] == pytest.approx(5.545, abs=0.001)
    assert steps["DA32"] - steps["DA31"] == pytest.approx(2.884, abs=0.001)
    assert read_ms / (steps["DA32"] - steps["DA31"]) == pytest.approx(0.831, abs=0.002)


def test_the_rows_keep_their_blind_figures(estimated):
    # the README's figures hold while no later change moves these rows
    for row_id, figure in BLIND.items():
        est, got = estimated[row_id]
        assert 100.0 * (est / got - 1.0) == pytest.approx(figure, abs=1.0), row_id


def test_gpuwise_reads_both_depths_within_a_tenth(estimated):
    # blind: 169.91 against 180.36 at depth 0 and 112.56 against 118.65 after 65,536 tokens, both a little slow;
    # gpuwise's step grows 3.00 ms with the context where the run's grows 2.88 ms
    ratios = {row_id: estimated[row_id][0] / estimated[row_id][1] for row_id in IDS}
    assert all(0.9 < r < 1.0 for r in ratios.values())
    growth = 1000 / estimated["DA32"][0] - 1000 / estimated["DA31"][0]
    assert growth == pytest.approx(3.0, abs=0.1)
