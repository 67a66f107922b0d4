"""Rows DA18-DA20 of validation/decode_independent.csv (branch decodeblind39, issue 22 item 7; blind figures in the
validation README, 'Rows DA18-DA20'): single-stream decode of 2025-26 models on data-centre and workstation cards
under SGLang.

- DA18: GLM-5.2 FP8 on 8 x MI355X, TP 8, batch 1 at 8K in / 1K out: sgl-project/sglang pull request #32570's own
  nightly run (image rocm/sgl-dev:v0.5.17-rocm720-mi35x-20260819);
- DA19-DA20: Qwen3.8-27B (the catalog's qwen3.5-27b) at concurrency 1 after 130,048 tokens of prompt, FP8 on one
  MI300X (SGLang 0.5.18.dev ROCm image, aiter attention, 16-bit cache) and NVFP4 on one RTX PRO 6000 Blackwell Server
  (SGLang dev-cu13 image, FP8 cache, flashinfer): 0xSero/local-ai-registry's speed sweeps.

DA21-DA22 went to branch decodeblind40 (tests/test_decode_rows_da40.py), DA23-DA40 to branch decodeblind42
(tests/test_decode_rows_da42.py), DJ18-DJ40 to branch decodeblind41 (tests/test_decode_rows_dj41.py)."""

from __future__ import annotations

import pytest

from tests import decode_rounds

_PR = "https://github.com/sgl-project/sglang/pull/32570"
_REG = "https://github.com/0xSero/local-ai-registry/blob/"
_MI300X = (_REG + "0f47fbfe9fb8cf1eca72d342093baf2754ec7b41/registry/speed-sweep/"
           "qwen38-27b-fp8-mi300x-sglang-tp1-sweep.json")
_PRO = (_REG + "8f920a5ae91f2db7580afd09007193916e6bea37/registry/speed-sweep/"
        "qwen38-27b-nvfp4-rtxpro6000-sglang-tp1-sweep.json")
# id: (source, model, precision, weight_format, gpu, count, framework_version, tp, prompt, output, tok/s, kv, options)
ROWS = {
    "DA18": (_PR, "glm-5.2", "fp8", "", "mi355x", 8, "0.5.17", "8", 8192, 1024, 78.20, "", ""),
    "DA19": (_MI300X, "qwen3.5-27b", "fp8", "", "mi300x", 1, "0.5.18", "1", 130048, 512, 25.3, "",
             "attention_backend=aiter"),
    "DA20": (_PRO, "qwen3.5-27b", "fp4", "nvfp4", "rtx-pro-6000-blackwell-server", 1, "", "1", 130048, 512, 56.9,
             "fp8", ""),
}
IDS = sorted(ROWS)
# blind, on 3381ed2b with the rows added (validation README, 'Rows DA18-DA20'): estimate / measured - 1, in %
BLIND = {"DA18": -1.5, "DA19": 215.3, "DA20": -3.2}


def _rows() -> dict[str, dict]:
    # this round's ids only: DA01-DA17 are earlier rounds', DA21.. decodeblind40's, DJ18.. decodeblind41's
    return {k: v for k, v in decode_rounds.rows("DA").items() if 18 <= int(k[2:]) <= 20}


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
    source, model, precision, fmt, gpu, count, version, tp, prompt, output, figure, kv, options = ROWS[row_id]
    row = _rows()[row_id]
    assert row["source"] == source
    assert (row["model"], row["precision"], row["weight_format"], row["gpu"], int(row["count"])) == (
        model, precision, fmt, gpu, count)
    assert (row["framework"], row["framework_version"], row["tp"]) == ("sglang", version, tp)
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (prompt, output)
    assert float(row["decode_tok_s"]) == figure
    assert (row["kv_precision"], row["workload_options"], row["speculative"]) == (kv, options, "")
    assert "Blind round of branch decodeblind39" in row["notes"]


def test_the_mi355x_batch_1_cell_is_its_own_timing():
    # #32570's batch-1 line: latency 13.65 s, input 14,632.70 tok/s over 8,192 tokens, ITL 12.79 ms; by hand the
    # prefill takes 0.56 s, the 13.09 s left hold 1,024 tokens at 78.2 tok/s, and 1 / 12.79 ms is 78.19 tok/s
    decode_s = 13.65 - 8192 / 14632.70
    assert decode_s == pytest.approx(13.09, abs=0.005)
    assert 1024 / decode_s == pytest.approx(78.20, abs=0.05)
    inverse_itl = 1000 / 12.79
    assert inverse_itl == pytest.approx(float(_rows()["DA18"]["decode_tok_s"]), abs=0.05)


def test_the_sweeps_prompt_is_their_context_less_the_output():
    # both sweeps record context_tokens 130,560 for a 512-token generation (the README's reading)
    for row_id in ("DA19", "DA20"):
        row = _rows()[row_id]
        assert int(row["prompt_tokens"]) + int(row["output_tokens"]) == 130_560


def test_the_mi300x_step_is_six_times_its_bandwidth_floor():
    # by hand (models.yaml qwen3.5-27b: 26.896e9 parameters, 16 attention layers x 2 x 4 KV heads x 256 x 2 B = 64 KiB
    # of cache a token; gpus.yaml mi300x 5,300 GB/s): FP8 weights 26.9 GB plus 130,304 tokens of cache (the prompt and
    # half the output) 8.54 GB stream in 6.69 ms; the measured 25.3 tok/s is a 39.5 ms step, 5.9 times that
    cache_gb = 130_304 * 16 * 2 * 4 * 256 * 2 / 1e9
    floor_ms = (26.896 + cache_gb) / 5300 * 1e3
    step_ms = 1e3 / float(_rows()["DA19"]["decode_tok_s"])
    assert cache_gb == pytest.approx(8.54, abs=0.01)
    assert floor_ms == pytest.approx(6.69, abs=0.01)
    assert step_ms / floor_ms == pytest.approx(5.9, abs=0.05)


def test_the_mi300x_sweeps_extra_streams_cost_about_their_cache():
    # the same sweep at concurrency 4 (21.3 tok/s a stream, not entered): the step grows from 39.5 to 46.9 ms for three
    # more 8.54 GB caches, 4.8 ms at 5,300 GB/s: the added cache reads near the bandwidth, the fixed 33 ms does not
    step_1, step_4 = 1e3 / 25.3, 1e3 / 21.3
    extra_floor_ms = 3 * 8.54 / 5300 * 1e3
    assert step_4 - step_1 == pytest.approx(7.42, abs=0.01)
    assert extra_floor_ms == pytest.approx(4.83, abs=0.01)
    assert step_1 - 6.69 == pytest.approx(32.8, abs=0.1)


def test_the_rows_keep_their_blind_figures(estimated):
    # nothing set this round (no source times SGLang's ROCm decode of this model at 130K): the README's figures hold
    for row_id, figure in BLIND.items():
        est, got = estimated[row_id]
        assert 100.0 * (est / got - 1.0) == pytest.approx(figure, abs=1.0), row_id


def test_the_worst_row_is_the_mi300x_one(estimated):
    # DA19 reads 3.15 times its measurement, beyond the 2x the issue allows; DA18 and DA20 inside 5%
    ratios = {row_id: estimated[row_id][0] / estimated[row_id][1] for row_id in IDS}
    assert max(ratios, key=lambda k: abs(ratios[k] - 1)) == "DA19"
    assert ratios["DA19"] == pytest.approx(3.153, abs=0.01)
    assert all(abs(ratios[i] - 1) < 0.05 for i in ("DA18", "DA20"))
