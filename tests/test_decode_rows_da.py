"""Rows DA01-DA08 of validation/decode_independent.csv (branch decodeblind33, issue 22 item 7; blind figures in the
validation README, 'Rows DA01-DA08'): single-stream decode from people's 2026 posts about their own cards.

- DA01-DA05: Tiancheng Wu's blog post 'Running Qwen-3.5-27B on RTX 4090' (2026-04-05), its 'Generation speed
  (tok/s)' table, line 'llama.cpp Q4_K_M q4_0 KV': each test fills half the context with prompt, then 200 tokens;
- DA06-DA07: Show HN item 47310428 (2026-03-09): Qwen3.5-122B-A10B NVFP4 under vLLM 0.17.0 on one RTX PRO 6000
  Blackwell (31 tok/s), and its comparison, a Q8_0 GGUF under llama.cpp over two cards (54 tok/s);
- DA08: llm-monitor's 'vLLM TP=4 on 4xRTX 3090: 76.9 tok/s' (2026-04-25): Gemma-4-31B-it AWQ, vLLM 0.19.1, TP 4,
  its methodology page's one-sentence prompt and max_tokens 256."""

from __future__ import annotations

import pytest

from tests import decode_rounds

_BLOG = "https://www.tianchengwu.com/2026/04/05/Running-Qwen-3.5-27B-on-RTX-4090"
_HN = "https://news.ycombinator.com/item?id=47310428"
_LW = "https://ollama.linkworksinc.com/posts/vllm-tp4-3090-benchmark"
_PRO = "rtx-pro-6000-blackwell"
# id: (source, model, precision, weight format, GPU, count, framework, release, tp, prompt, output, figure)
ROWS = {
    "DA06": (_HN, "qwen3.5-122b-a10b", "fp4", "nvfp4", _PRO, 1, "vllm", "0.17.0", "1", 100, 512, 31.0),
    "DA07": (_HN, "qwen3.5-122b-a10b", "int8", "gguf-q8_0", _PRO, 2, "llama.cpp", "", "", 100, 512, 54.0),
    "DA08": (_LW, "gemma-4-31b", "int4", "", "rtx-3090", 4, "vllm", "0.19.1", "4", 20, 256, 76.9),
}
# the blog's context sizes -> generation tok/s as printed; the prompt is half the context
BLOG = {"DA01": (2048, 39.3), "DA02": (8192, 37.7), "DA03": (32768, 37.9), "DA04": (65536, 36.4),
        "DA05": (131072, 33.4)}
for _id, (_ctx, _rate) in BLOG.items():
    ROWS[_id] = (_BLOG, "qwen3.5-27b", "int4", "gguf-q4_k_m", "rtx-4090", 1, "llama.cpp", "", "", _ctx // 2, 200,
                 _rate)
IDS = sorted(ROWS)
# blind, on 07d2dbb5 with the rows added (validation README, 'Rows DA01-DA08')
BLIND = {"DA01": 19.2, "DA02": 23.6, "DA03": 20.1, "DA04": 21.4, "DA05": 24.9, "DA06": 165.0, "DA07": 96.5,
         "DA08": 15.7}


def _rows() -> dict[str, dict]:
    # this round's ids only: DA09-DA17 are decodeblind38's, DA18-DA20 decodeblind39's, DA21-DA40 decodeblind40's
    return {k: v for k, v in decode_rounds.rows("DA").items() if int(k[2:]) <= 8}


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DA")


def test_the_round_has_its_rows():
    assert sorted(_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", IDS)
def test_each_row_is_its_posts_figure_on_its_cards_and_engine(row_id):
    source, model, precision, fmt, gpu, count, framework, release, tp, prompt, output, figure = ROWS[row_id]
    row = _rows()[row_id]
    assert row["source"] == source
    assert (row["model"], row["precision"], row["weight_format"], row["gpu"], int(row["count"])) == (
        model, precision, fmt, gpu, count)
    assert (row["framework"], row["framework_version"], row["tp"]) == (framework, release, tp)
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (prompt, output)
    assert float(row["decode_tok_s"]) == figure
    assert row["speculative"] == ""  # no post names a draft model or MTP for these runs


def test_the_blogs_runs_ask_the_smallest_cache_gpuwise_takes():
    # the blog's cache is q4_0 (4.5 bits a value), which gpuwise cannot take: the rows ask fp8, its smallest
    assert {_rows()[i]["kv_precision"] for i in BLOG} == {"fp8"}
    assert {_rows()[i]["kv_precision"] for i in ("DA06", "DA07", "DA08")} == {""}


def test_the_awq_run_names_its_method():
    assert _rows()["DA08"]["workload_options"] == "quantization=awq"


@pytest.mark.parametrize("row_id", IDS)
def test_the_blind_band_holds(estimated, row_id):
    # the README's blind figures, within a point while nothing is set for these rows
    est, got = estimated[row_id]
    assert 100.0 * (est / got - 1.0) == pytest.approx(BLIND[row_id], abs=1.0)
