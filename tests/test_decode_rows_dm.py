"""Rows DM01-DM12 of validation/decode_independent.csv (the decodeblind19 round, blind figures in the validation
README). Each row must be estimated by the accuracy report (a row the serving model refuses, or a model or GPU the
catalog lost, would drop out of the file's median silently), and each figure must be what its source prints:
TensorRT-LLM pull request #11612's Gen TPS/User (DM01), the Hugging Face report's sustained decode (DM02), InferenceX
pull request #1737's STP tok/s/user (DM03), fak's median llama-server decode (DM04), and Visual-Synthesizer/rtx6kpro's
per-request C=1 cells (DM05-DM12)."""

from __future__ import annotations

import pytest

from tests import decode_rounds

IDS = [f"DM{i:02d}" for i in range(1, 13)]

RTX6KPRO = "https://github.com/Visual-Synthesizer/rtx6kpro/blob/"

# rtx6kpro inference-throughput README at e799ce2d, per-request decode at C=1 with MTP off (tok/s):
# row -> (checkpoint, framework, context tokens, figure)
FOUR_CARD = {"DM05": ("nvidia/Qwen3.5-397B-A17B-NVFP4", "vllm", 0, 79.0),
             "DM06": ("nvidia/Qwen3.5-397B-A17B-NVFP4", "vllm", 131072, 75.0),
             "DM07": ("lukealonso", "sglang", 0, 74.0), "DM08": ("lukealonso", "sglang", 131072, 35.0),
             "DM09": ("QuantTrio/Qwen3.5-397B-A17B-AWQ", "vllm", 0, 104.0)}
README_AT = "e799ce2de2890dce8eb3c1403b2fb8fcf3be5a2c/benchmarks/inference-throughput/README.md"


def _dm_rows() -> dict[str, dict]:
    return decode_rounds.rows("DM")


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DM")


def test_the_round_has_its_twelve_rows():
    assert sorted(_dm_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _dm_rows()[row_id], row_id)


def test_dm01_is_the_pareto_tables_concurrency_one_point_in_its_stored_layout():
    # TensorRT-LLM #11612, qwen3-235b-A22b FP4 on GB200, 1k/1k, concurrency 1: Gen TPS/User 247.1619, whose config
    # 1k1k_tp4_conc1.yaml runs TP 4, EP 4 and an FP8 KV cache
    row = _dm_rows()["DM01"]
    assert row["source"] == "https://github.com/NVIDIA/TensorRT-LLM/pull/11612"
    assert float(row["decode_tok_s"]) == pytest.approx(247.1619)
    assert (row["gpu"], row["count"], row["tp"], row["ep"], row["kv_precision"]) == ("gb200", "4", "4", "4", "fp8")
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (1024, 1024)


def test_dm02_is_the_workstation_report_without_mtp():
    row = _dm_rows()["DM02"]
    assert row["source"] == "https://huggingface.co/nvidia/Qwen3.5-397B-A17B-NVFP4/discussions/7"
    assert float(row["decode_tok_s"]) == pytest.approx(50.5)
    assert row["gpu"] == "rtx-pro-6000-blackwell"  # the Workstation Edition, not the Server cards of DM05-DM09
    assert "no MTP" in row["metric"]


def test_dm03_is_the_stp_column_not_the_mtp_one():
    # InferenceX #1737 'MTP vs STP': isl 1k, tp 4, conc 1: STP 55.2, MTP 131.7
    row = _dm_rows()["DM03"]
    assert row["source"] == "https://github.com/SemiAnalysisAI/InferenceX/pull/1737"
    assert float(row["decode_tok_s"]) == pytest.approx(55.2)
    assert "131.7" in row["notes"] and float(row["decode_tok_s"]) < 131.7


def test_dm04_is_the_layer_split_median_of_128_token_calls():
    row = _dm_rows()["DM04"]
    assert "anthony-chaudhary/fak" in row["source"] and "glm52-l1-rowsplit-ab" in row["source"]
    assert float(row["decode_tok_s"]) == pytest.approx(23.38)
    assert int(row["output_tokens"]) == 128 and "-sm layer" in row["metric"]
    assert (row["framework"], row["gpu"], row["count"], row["weight_format"]) == (
        "llama.cpp", "a100-80gb-sxm", "8", "gguf-q4_k_m")


@pytest.mark.parametrize("row_id", sorted(FOUR_CARD))
def test_four_card_rows_are_the_readmes_mtp_off_cells(row_id):
    checkpoint, framework, context, figure = FOUR_CARD[row_id]
    row = _dm_rows()[row_id]
    assert row["source"] == RTX6KPRO + README_AT and checkpoint in row["notes"]
    assert float(row["decode_tok_s"]) == pytest.approx(figure)
    assert (row["framework"], row["gpu"], row["count"], row["tp"]) == (
        framework, "rtx-pro-6000-blackwell-server", "4", "4")
    # ctx=0 is the bench's short prompt alone; 128k a document of 131,072 tokens before it
    assert int(row["prompt_tokens"]) == (context or 70) and int(row["output_tokens"]) == 512
    assert "MTP off" in row["metric"]


def test_dm08_is_the_sglang_long_context_cell_vllm_holds():
    # the README's engine table, lukealonso NVFP4 without MTP at 128k: SGLang 35, vLLM 77 (0.46x)
    rows = _dm_rows()
    assert float(rows["DM08"]["decode_tok_s"]) / float(rows["DM07"]["decode_tok_s"]) == pytest.approx(35 / 74)
    assert "vLLM 77" in rows["DM08"]["notes"]


def test_two_card_rows_are_the_runs_files():
    rows = _dm_rows()
    # DM11: one request of 687 generated tokens at 105.12 tok/s; DM12: 3,426 tokens in the 30 s window at 113.53
    assert (int(rows["DM11"]["output_tokens"]), float(rows["DM11"]["decode_tok_s"])) == (687, pytest.approx(105.12))
    assert (int(rows["DM12"]["output_tokens"]), float(rows["DM12"]["decode_tok_s"])) == (3426, pytest.approx(113.53))
    assert float(rows["DM10"]["decode_tok_s"]) == pytest.approx(127.7)
    for row_id in ("DM10", "DM11", "DM12"):
        assert rows[row_id]["source"].startswith(RTX6KPRO), row_id
        assert (rows[row_id]["gpu"], rows[row_id]["count"], rows[row_id]["tp"]) == (
            "rtx-pro-6000-blackwell-server", "2", "2"), row_id


def test_no_row_of_the_round_is_speculative():
    assert [r for r, row in _dm_rows().items() if row["speculative"]] == []


def test_dm07_dm08_state_the_sglang_setup_of_the_engine_comparison_page():
    # rtx6kpro benchmarks/inference-throughput/vllm-vs-sglang.md at e799ce2d (the README's commit), Setup table:
    # SGLang 'Version 0.5.9', 'Attention triton', 'KV cache fp8_e4m3', 'GPU mem ... 0.90 (no-MTP)'; vLLM 'KV cache auto'
    rows = _dm_rows()
    for row_id in ("DM07", "DM08"):
        row = rows[row_id]
        assert (row["framework_version"], row["kv_precision"]) == ("0.5.9", "fp8"), row_id
        assert row["workload_options"] == "attention_backend=triton;memory_fraction=0.9", row_id
    assert rows["DM06"]["kv_precision"] == ""  # vLLM's KV cache 'auto': the model's BF16


def test_dm08_at_128k_is_the_triton_walk_of_the_fp8_cache(estimated):
    # By hand (serving.yaml sglang triton_decode_walk: at most 8 programs a KV head at 5.25 GB/s = 42 GB/s): 15
    # full-attention layers, Qwen3.5's 2 KV heads over TP 4 = one head a GPU, K and V of 256 at 1 byte (FP8) = 512 B a
    # token a layer; 131,072 + 70 + 256 (the mean context) tokens: 15 x 512 x 131,398 = 1.009 GB at 42 GB/s = 24.0 ms.
    # The rest of the step at ctx 0 with the same cache (DM07's estimate less its ~0.0 ms of cache) is ~10.9 ms, so
    # ~34.9 ms a token, 28.7 tok/s against the page's 35 (the BF16 cache at the card's rate gave 81.6, 2.33x).
    walk = 15 * 512 * (131072 + 70 + 256) / 42e9
    est_dm07, _ = estimated["DM07"]
    est_dm08, got = estimated["DM08"]
    assert walk == pytest.approx(0.0240, rel=0.01)
    assert 1 / est_dm08 == pytest.approx(1 / est_dm07 + walk, rel=0.05)
    assert est_dm08 / got == pytest.approx(28.7 / 35, rel=0.03)
