"""Held-out H603-H609 (branch trainblind23), scored blind on main 0c0e2d0d, no MLPerf: whole-run GPU-hours of small
2024-25 pretraining runs from repositories no row had cited. SmallDoges/small-doge's Doge-20M / 60M / 160M / 320M on
one RTX 4090 (the model cards' 'RTX 4090 GPU hours', the recipes' steps and accumulation), Tongjilibo's
MiniLLM-0.2B pair on 4 x A800 (build_MiniLLM_from_scratch README: 20 h and 3.79 days) and AI-Study-Han's Zero-Chatgpt
0.1B on 2 x A40 (about 2 days). Each row's tokens, hours, batch and shape are checked here by hand against its
source; no figure of the model was set from them."""

from __future__ import annotations

import json

import pytest

from .test_heldout_trainblind11 import _rows

IDS = [f"H{i}" for i in range(603, 610)]

# Doge recipes (recipes/doge/Doge-<size>/config_full.yaml at 2e6530ae): layers, hidden, intermediate, heads, KV heads,
# max_steps, gradient_accumulation_steps (per-device batch 1 of 2,048 tokens on one GPU), the card's GPU hours and
# its rounded token figure in billions
DOGE = {
    "H603": (8, 256, 512, 2, 1, 8000, 256, 14, 4),
    "H604": (16, 512, 1024, 4, 2, 16000, 512, 128, 16),
    "H605": (24, 768, 1536, 6, 3, 24000, 768, 522, 32),
    "H606": (32, 1024, 2048, 8, 4, 32000, 1024, 1856, 64),
}


def _llama_params(a: dict) -> int:
    """Parameters of a Llama-style shape with no biases: q / o (d x d), k / v (d x kv x head_dim), a gated MLP
    (3 x d x ffn) a layer, the embedding, and a separate output layer when untied (norms left out)."""
    d, head = a["hidden_size"], a["hidden_size"] // a["heads"]
    per_layer = 2 * d * d + 2 * d * a["kv_heads"] * head + 3 * d * a["ffn_size"]
    return a["layers"] * per_layer + a["vocab_size"] * d * (1 if a["tied_embeddings"] else 2)


def test_the_rows_and_their_conditions_are_entered():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid in IDS:
        assert rid in rows and rid in conds, rid
        assert rows[rid]["use"] == "1" and conds[rid]["hours_basis"] == "whole", rid
        assert "trainblind23" in rows[rid]["notes"] and "MLPerf" not in rows[rid]["source"], rid


def test_doge_rows_are_the_cards_hours_and_the_recipes_steps():
    """Tokens = max_steps x accumulation x 2,048 (one GPU, one sequence a micro-batch); GPU-hours as the cards print
    them, on one RTX 4090. The cards round the tokens to 4B / 16B / 64B (powers of two, 2^30), and print 32B for the
    160M, whose 24,000 steps of 768 x 2,048 make 37.7B: the recipe's figures are entered."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (layers, d, ffn, heads, kv, steps, acc, hours, card_b) in DOGE.items():
        r, c = rows[rid], conds[rid]
        tokens = steps * acc * 2048
        assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(tokens, abs=1), rid
        assert (r["gpu"], r["gpus"], float(r["gpu_hours"])) == ("rtx-4090", "1", hours), rid
        assert int(r["global_batch_tokens"]) == int(c["global_batch_tokens"]) == acc * 2048, rid
        assert (c["micro_batch"], c["checkpointing"], c["stack"], r["precision"]) == ("1", "true", "", "bf16"), rid
        a = json.loads(r["architecture_json"])
        assert (a["layers"], a["hidden_size"], a["ffn_size"], a["heads"], a["kv_heads"]) == (layers, d, ffn, heads, kv)
        assert a["vocab_size"] == 32768 and a["tied_embeddings"] is True, rid
        assert float(r["params_b"]) == pytest.approx(_llama_params(a) / 1e9, abs=1e-4), rid
        if rid != "H605":
            assert tokens / 2**30 == pytest.approx(card_b, rel=0.05), rid
    # the cards' parameter counts: 13M / 54M / 152M / 335M
    for rid, card_m in zip(DOGE, (13, 54, 152, 335), strict=True):
        assert float(rows[rid]["params_b"]) * 1000 == pytest.approx(card_m, abs=1), rid
    assert DOGE["H605"][5] * DOGE["H605"][6] * 2048 / 1e9 == pytest.approx(37.75, abs=0.01)


def test_minillm_rows_by_hand():
    """4 x A800 for 20 h (14B tokens) and 3.79 days (one epoch of the 63.4B-token corpus); 32 sequences of 1,024 a
    GPU, no accumulation; the 0.2B shape (12 x 1,024, intermediate 2,752, 64,793-token tied vocabulary) is 218.1M.
    The 1.1B row of the same table (64B tokens on 8 x A800 in one day) is not entered: 6 x 1.1B x 64B over 8 GPUs x
    24 h is 611 TFLOP/s a GPU, twice the A800's 312 TFLOPS dense BF16 peak."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, tokens_b, hours in (("H607", 14.0, 4 * 20), ("H608", 63.4, 4 * 3.79 * 24)):
        r, c = rows[rid], conds[rid]
        assert (r["gpu"], r["gpus"], r["precision"], r["seq_len"]) == ("a800-80gb-sxm", "4", "fp16", "1024"), rid
        assert float(r["training_tokens_b"]) == tokens_b and float(r["gpu_hours"]) == pytest.approx(hours), rid
        assert int(r["global_batch_tokens"]) == 32 * 1024 * 4, rid
        assert (c["micro_batch"], c["zero"], c["checkpointing"]) == ("32", "0", "false"), rid
        assert float(r["params_b"]) == pytest.approx(_llama_params(json.loads(r["architecture_json"])) / 1e9,
                                                     abs=1e-4), rid
    per_gpu = 6 * 1.1e9 * 64e9 / (8 * 24 * 3600)  # FLOP/s a GPU the 1.1B row's figures would need
    assert per_gpu > 1.9 * 312e12


def test_zero_chatgpt_row_by_hand():
    """2 x A40 for about 2 days on about 10B tokens; 24 sequences of 1,024 a GPU over 2 GPUs, DeepSpeed ZeRO-2; the
    shape (24 x 512, 16 heads, intermediate 2,752, 32,006-token untied vocabulary) is 159.4M."""
    r, c = _rows("training_heldout.csv")["H609"], _rows("training_conditions.csv")["H609"]
    assert (r["gpu"], r["gpus"], float(r["gpu_hours"]), float(r["training_tokens_b"])) == ("a40", "2", 96.0, 10.0)
    assert int(r["global_batch_tokens"]) == 24 * 1024 * 2
    assert (c["stack"], c["zero"], c["micro_batch"], c["overlap_comm"]) == ("deepspeed", "2", "24", "true")
    assert float(r["params_b"]) == pytest.approx(_llama_params(json.loads(r["architecture_json"])) / 1e9, abs=1e-4)
