"""Rows DO23-DO37 of validation/decode_independent.csv (branch decodeblind37, issue 22 item 7; blind figures in the
validation README, 'Rows DO23-DO37'): single-stream decode of Qwen3.8-27B (asked as qwen3.5-27b, its shapes), the
spec-off arm of sudoingX/qwen38-mtp's community table.

- DO23-DO35: the README's Baseline column, probe.py against llama-server (DO27: vLLM 0.27.1 NVFP4, the PRO 6000 row's
  footnote), one request at a time, 3 prompts x 3 runs, max_tokens 400, the time after the first token;
- DO36-DO37: the V100 row and its sweep (sweeps/workstation.md), llama-server's own predicted_per_second at
  n_predict 400 after a short prompt and 200 after a 30,906-token one."""

from __future__ import annotations

import pytest

from tests import decode_rounds

_README = "https://github.com/sudoingX/qwen38-mtp/blob/01b319c93001d3ce977e8bb960cdbeb47a305a95/README.md"
_SWEEP = ("https://github.com/sudoingX/qwen38-mtp/blob/c7bc415309766b98ce9ecb2c01744ec5223ee483/"
          "sweeps/workstation.md")
# id: (card, framework, weight format, build or release ('' where the row states none), baseline tok/s)
TABLE = {
    "DO23": ("rtx-3090", "llama.cpp", "gguf-q4_k_m", "", 31.0),
    "DO24": ("rtx-4090", "llama.cpp", "gguf-q4_k_m", "", 47.7),
    "DO25": ("rx-7900-xtx", "llama.cpp", "gguf-q4_k_m", "", 30.7),
    "DO26": ("rtx-pro-6000-blackwell", "llama.cpp", "gguf-q4_k_m", "10335", 63.8),
    "DO27": ("rtx-pro-6000-blackwell", "vllm", "nvfp4", "0.27.1", 63.3),
    "DO28": ("rtx-3090-ti", "llama.cpp", "gguf-q4_k_m", "", 42.0),
    "DO29": ("rtx-3090-ti", "llama.cpp", "gguf-q4_k_m", "", 41.2),
    "DO30": ("rtx-3090", "llama.cpp", "gguf-q4_k_m", "10450", 41.3),
    "DO31": ("rtx-5090", "llama.cpp", "gguf-q4_k_m", "", 76.9),
    "DO32": ("rtx-pro-6000-blackwell-max-q", "llama.cpp", "gguf-q8_0", "10454", 45.7),
    "DO33": ("rx-7900-xtx", "llama.cpp", "gguf-q4_k_m", "", 28.8),
    "DO34": ("rtx-3090", "llama.cpp", "gguf-q4_k_m", "10473", 31.9),
    "DO35": ("rtx-4090", "llama.cpp", "gguf-q4_k_m", "", 47.0),
}
# the V100 rows: id -> (prompt tokens, generated tokens, tok/s)
V100 = {"DO36": (30, 400, 33.3), "DO37": (30906, 200, 27.87)}
IDS = sorted(TABLE | V100)
# blind, on e9d34e74 with the rows added (validation README, 'Rows DO23-DO37'; /tmp/decodeblind37_blind.txt)
BLIND = {"DO23": 26.7, "DO24": -1.6, "DO25": 26.7, "DO26": 24.8, "DO27": 2.2, "DO28": 0.4, "DO29": 2.3,
         "DO30": -4.9, "DO31": 3.3, "DO32": 6.0, "DO33": 35.1, "DO34": 23.1, "DO35": -0.1, "DO36": -13.6,
         "DO37": -37.2}


def _rows() -> dict[str, dict]:
    # this round's ids only: DO01-DO22 are decodeblind35's and decodeblind36's, DO38-DO40 decodeblind38's
    return {k: v for k, v in decode_rounds.rows("DO").items() if 23 <= int(k[2:]) <= 37}


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DO")


def test_the_round_has_its_rows():
    assert sorted(_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", sorted(TABLE))
def test_each_table_row_is_its_baseline_cell(row_id):
    gpu, framework, fmt, version, figure = TABLE[row_id]
    row = _rows()[row_id]
    assert row["source"] == _README
    assert (row["model"], row["weight_format"], row["gpu"], int(row["count"])) == ("qwen3.5-27b", fmt, gpu, 1)
    assert (row["framework"], row["framework_version"]) == (framework, version)
    assert float(row["decode_tok_s"]) == figure
    # probe.py: ~30 prompt tokens with the chat template, max_tokens 400; the time after the first token
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (30, 400)
    assert "prefill excluded" in row["metric"] and "spec-off" in row["metric"]
    # the spec-off arm: no draft, one card
    assert row["speculative"] == row["tp"] == row["ep"] == ""


@pytest.mark.parametrize("row_id", sorted(V100))
def test_each_v100_row_is_its_sweep_cell(row_id):
    prompt, output, figure = V100[row_id]
    row = _rows()[row_id]
    assert row["source"] == (_README if row_id == "DO36" else _SWEEP)
    assert (row["gpu"], row["weight_format"], row["framework_version"]) == ("v100-32gb-pcie", "gguf-q4_k_m", "10358")
    assert (int(row["prompt_tokens"]), int(row["output_tokens"]), float(row["decode_tok_s"])) == (
        prompt, output, figure)
    assert row["kv_precision"] == "fp16"  # the row's f16 cache
    assert f"n_predict {output}" in row["metric"]


def test_the_v100_row_is_the_mean_of_its_two_prompts():
    # the footnote's medians of five: prose 33.6, code 33.0; the table prints 33.3
    assert float(_rows()["DO36"]["decode_tok_s"]) == pytest.approx((33.6 + 33.0) / 2, abs=0.01)


def test_a_quantized_cache_is_asked_as_fp8():
    # q4_0 / q8_0 caches, the smallest gpuwise takes; vLLM's default cache left to the engine (DO27)
    assert all(_rows()[i]["kv_precision"] == ("" if i == "DO27" else "fp8") for i in TABLE)


def test_the_later_build_reads_faster_on_the_same_card():
    # the table's own note: the b10450 baseline on a 3090 (41.3) equals the day-one run's with-flag figure (41.3)
    rows = _rows()
    assert float(rows["DO30"]["decode_tok_s"]) > float(rows["DO23"]["decode_tok_s"])


@pytest.mark.parametrize("row_id", IDS)
def test_the_blind_band_holds(estimated, row_id):
    # the README's blind figures, within a point while nothing is set for these rows
    est, got = estimated[row_id]
    assert 100.0 * (est / got - 1.0) == pytest.approx(BLIND[row_id], abs=1.0)
