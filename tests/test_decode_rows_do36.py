"""Rows DO11-DO22 of validation/decode_independent.csv (branch decodeblind36, issue 22 item 7; blind figures in the
validation README, 'Rows DO11-DO22'): single-stream decode of 2025-26 dense and MoE models.

- DO11-DO19, DO22: 0xBakeer/inference-atlas's serve-single-i256-o256-v1 result files: llama-server on one RTX 3090
  (350 W), 50 requests at concurrency 1 after 3 warm-ups; each row is 1 / the file's mean TPOT, its lengths the
  file's prompt and output totals over the 50 requests;
- DO20-DO21: the vLLM DiffusionGemma post's figure, bar 'Gemma4 no-MTP · FP8' at batch size 1 on one H100 / H200."""

from __future__ import annotations

import pytest

from tests import decode_rounds

_ATLAS = "https://github.com/0xBakeer/inference-atlas/blob/"
_POST = ("https://github.com/vllm-project/vllm-project.github.io/blob/c3a01c4a5807c8d900ae468897e45263373e534e/"
         "assets/figures/2026-06-10-diffusion-gemma/perf.svg")
# atlas id: (model, weight repository in the path, ctx cache type, mean TPOT ms, prompt / output totals of 50)
ATLAS = {
    "DO11": ("gemma-4-26b-a4b", "google/gemma-4-26B-A4B-it", "q4_0", 7.091, 11660, 12800),
    "DO12": ("qwen3-8b", "Qwen/Qwen3-8B", "q8_0", 7.732, 11407, 12800),
    "DO13": ("qwen3.5-27b", "huihui-ai/Qwen3.6-27B-abliterated", "q8_0", 24.052, 11684, 12800),
    "DO14": ("qwen3.5-27b", "Qwen/Qwen3.8-27B", "q8_0", 27.018, 11142, 12800),
    "DO15": ("qwen3.5-27b", "Qwen/Qwen3.8-27B", "q4_0", 24.100, 13742, 12800),
    "DO16": ("seed-oss-36b", "nousresearch/Hermes-4.3-36B", "q8_0", 29.843, 12357, 8703),
    "DO17": ("qwen2.5-32b", "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "q8_0", 27.076, 11175, 12800),
    "DO18": ("mistral-small-24b", "huihui-ai/Huihui-Mistral-Small-3.2-24B-abliterated", "q8_0", 19.312, 38784, 11745),
    "DO19": ("phi-4", "microsoft/phi-4", "q8_0", 12.843, 10625, 11929),
    # added after the first blind scoring, scored blind on the same code: DO18's network and config, another fine-tune
    "DO22": ("mistral-small-24b", "cognitivecomputations/Dolphin3.0-Mistral-24B", "q8_0", 19.122, 11426, 8474),
}
# the post's bars: id -> (card, generation tok/s)
POST = {"DO20": ("h100-80gb-sxm", 197.0), "DO21": ("h200-141gb-sxm", 213.0)}
IDS = sorted(ATLAS | POST)
# blind, on 7d24b25f with the rows added (validation README, 'Rows DO11-DO22'; DO22 scored after the rest, same code)
BLIND = {"DO11": 22.9, "DO12": -0.4, "DO13": -5.6, "DO14": 6.1, "DO15": -5.4, "DO16": -12.4, "DO17": -12.5,
         "DO18": -12.6, "DO19": -7.9, "DO20": -29.9, "DO21": -29.9, "DO22": -13.2}


def _rows() -> dict[str, dict]:
    # this round's ids only: DO01-DO10 are decodeblind35's (tests/test_decode_rows_do.py), DO23 on decodeblind37's
    # (tests/test_decode_rows_do37.py)
    return {k: v for k, v in decode_rounds.rows("DO").items() if 11 <= int(k[2:]) <= 22}


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DO")


def test_the_round_has_its_rows():
    assert sorted(_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", sorted(ATLAS))
def test_each_atlas_row_is_its_files_tpot_on_the_3090(row_id):
    model, repo, cache, tpot, prompt, output = ATLAS[row_id]
    row = _rows()[row_id]
    assert row["source"].startswith(_ATLAS) and f"/results/llamacpp/{repo}/nvidia-rtx-3090/" in row["source"]
    assert row["source"].endswith(".json") and "--serve-single-i256-o256-v1--" in row["source"]
    assert (row["model"], row["precision"], row["weight_format"], row["gpu"], int(row["count"])) == (
        model, "int4", "gguf-q4_k_m", "rtx-3090", 1)
    assert (row["framework"], row["framework_version"]) == ("llama.cpp", "7000")
    # the rate is 1 / the mean TPOT, to the row's two decimals; the lengths are the totals over 50 requests,
    # halves rounded up
    assert float(row["decode_tok_s"]) == pytest.approx(1000.0 / tpot, abs=0.006)
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (int(prompt / 50 + 0.5), int(output / 50 + 0.5))
    assert f"{tpot:.3f} ms" in row["metric"] and f"cache-type-k/v {cache}" in row["notes"]
    # a quantized cache is asked as fp8, the smallest gpuwise takes; one card, no draft
    assert row["kv_precision"] == "fp8"
    assert row["speculative"] == row["tp"] == ""


@pytest.mark.parametrize("row_id", sorted(POST))
def test_each_post_row_is_its_bar(row_id):
    gpu, figure = POST[row_id]
    row = _rows()[row_id]
    assert row["source"] == _POST
    assert (row["model"], row["precision"], row["weight_format"], row["gpu"], int(row["count"])) == (
        "gemma-4-26b-a4b", "fp8", "", gpu, 1)
    assert (row["framework"], row["framework_version"]) == ("vllm", "")  # a June 2026 nightly image: none entered
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (1000, 577)
    assert float(row["decode_tok_s"]) == figure
    assert row["speculative"] == row["kv_precision"] == row["tp"] == ""  # the no-MTP bar


def test_the_same_model_reads_faster_with_the_smaller_cache():
    # DO14 and DO15: Qwen3.8-27B's Q4_K_M on the same card, q8_0 against q4_0 cache (the files' own TPOTs)
    assert ATLAS["DO15"][3] < ATLAS["DO14"][3]


def test_two_fine_tunes_of_one_network_read_alike():
    # DO18 and DO22: Mistral Small 24B's network in two fine-tunes, one card and harness config, TPOTs within 1%
    assert ATLAS["DO22"][3] == pytest.approx(ATLAS["DO18"][3], rel=0.01)


def test_the_h200_bar_is_the_faster_one():
    assert POST["DO21"][1] > POST["DO20"][1]


@pytest.mark.parametrize("row_id", [i for i in IDS if i != "DO11"])
def test_the_blind_band_holds(estimated, row_id):
    # the README's blind figures, within a point while nothing is set for these rows (DO11, Gemma 4 26B-A4B under
    # llama.cpp, moved by branch gemma4cpp63's layer count: tests/test_gemma4_llamacpp_graph63.py holds it)
    est, got = estimated[row_id]
    assert 100.0 * (est / got - 1.0) == pytest.approx(BLIND[row_id], abs=1.0)
