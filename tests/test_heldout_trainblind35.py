"""Held-out H837-H840 (branch trainblind35), scored blind on main b64d170f, from sources no row had cited: the
microsoft/phi-1 model card (8 A100, 6 days, 54B tokens, fp16), the GLM-130B paper (Zeng et al. 2022,
arXiv:2210.02414: 96 DGX-A100 of 8 x 40GB between May 6 and July 3, 2022, 400B tokens, TP4 x PP8, batch 4,224 x
2,048, re-materialization), and two Stability AI cards with their gpt-neox configs (StableLM-3B-4E1T: 256 A100 40GB
for ~30 days, 4T tokens; StableLM-Base-Alpha-7B-v2: 384 A100 40GB for 16.33 days, 1.1T tokens). Each row's tokens,
hours, shape and layout are checked here by hand against its card, paper or config; no figure of the model was set
from them."""

from __future__ import annotations

import json

import pytest

from .test_heldout_trainblind11 import _rows


def _params(layers: int, h: int, ffn: int, vocab: int, tied: bool) -> int:
    """Weights of the entered shape: embeddings (once if tied) + layers x (3 h f + 4 h^2); no biases or norms."""
    return vocab * h * (1 if tied else 2) + layers * (3 * h * ffn + 4 * h * h)


def _neox_gated_ffn(h: int) -> int:
    """gpt-neox's mlp_type gated with mlp_multiple_of 256: int(2/3 x 4h) rounded up to a multiple of 256."""
    return -(-int(2 * 4 * h / 3) // 256) * 256


def test_phi1_by_hand():
    r, c = _rows("training_heldout.csv")["H837"], _rows("training_conditions.csv")["H837"]
    arch = json.loads(r["architecture_json"])
    # phi-1's GELU MLP (2 x 2,048 x 8,192) held as a three-matrix MLP of the same weights
    assert abs(3 * arch["ffn_size"] - 2 * 8192) <= 1
    assert (arch["layers"], arch["hidden_size"], arch["heads"], arch["vocab_size"], arch["tied_embeddings"]) == (
        24, 2048, 32, 51200, False)
    assert float(r["params_b"]) == pytest.approx(_params(24, 2048, 5461, 51200, False) / 1e9, abs=1e-3)
    # the card: 8 A100 for 6 days, 54B tokens (7B unique), fp16
    assert float(r["gpu_hours"]) == 8 * 6 * 24 == 1152
    assert (float(r["training_tokens_b"]), int(r["gpus"]), r["precision"]) == (54, 8, "fp16")
    assert "Training time: 6 days" in r["source"] and "ASSUMPTION (GPU part)" in r["notes"]
    assert (c["hours_basis"], c["stack"]) == ("whole", "")


def test_glm130b_by_hand():
    r, c = _rows("training_heldout.csv")["H838"], _rows("training_conditions.csv")["H838"]
    arch = json.loads(r["architecture_json"])
    # 9 x 8 - 2 = 70 layers (the pipeline's two end stages each give a layer's room to the embeddings)
    assert arch["layers"] == 9 * 8 - 2 == 70
    assert (arch["hidden_size"], arch["heads"], arch["ffn_size"]) == (12288, 96, 32768)
    assert float(r["params_b"]) == pytest.approx(_params(70, 12288, 32768, 150528, True) / 1e9, abs=1e-3)
    # May 6 to July 3, 2022 is 58 days; 96 DGX-A100 x 8 GPUs
    assert (31 - 6) + 30 + 3 == 58 and 96 * 8 == 768
    assert float(r["gpu_hours"]) == 768 * 58 * 24
    assert int(r["global_batch_tokens"]) == 4224 * 2048 and float(r["training_tokens_b"]) == 400
    # TP4 x PP8 x DP24 = 768; HFU / MFU = 43.3 / 32.5 ~ 4/3: every forward recomputed
    assert 4 * 8 * 24 == 768 and abs(43.3 / 32.5 - 4 / 3) <= 0.01
    assert (c["stack"], int(c["tp"]), int(c["pp"]), c["checkpointing"], c["hours_basis"]) == (
        "megatron-deepspeed", 4, 8, "true", "whole")
    assert r["gpu"] == "a100-40gb-sxm" and r["precision"] == "fp16"


def test_stablelm_3b_4e1t_by_hand():
    r, c = _rows("training_heldout.csv")["H839"], _rows("training_conditions.csv")["H839"]
    arch = json.loads(r["architecture_json"])
    assert arch["ffn_size"] == _neox_gated_ffn(2560) == 6912
    # the card's 2,795,443,200: the matmuls plus two LayerNorms a layer and the final one, weights and biases
    norms = 32 * 2 * 2 * 2560 + 2 * 2560
    assert _params(32, 2560, 6912, 50304, False) + norms == 2_795_443_200
    # 955,000 iterations x 256 GPUs x micro-batch 4 x 4,096 ~ the card's 4 x 1T
    assert abs(955_000 * 256 * 4 * 4096 / 1e12 - 4.0) <= 0.01
    assert int(r["global_batch_tokens"]) == 256 * 4 * 4096 and float(r["training_tokens_b"]) == 4000
    assert float(r["gpu_hours"]) == 256 * 30 * 24
    assert (c["stack"], int(c["tp"]), int(c["micro_batch"]), int(c["zero"]), c["checkpointing"]) == (
        "megatron-deepspeed", 1, 4, 1, "true")
    assert "approximately 30 days" in r["source"]


def test_stablelm_alpha_7b_v2_by_hand():
    r, c = _rows("training_heldout.csv")["H840"], _rows("training_conditions.csv")["H840"]
    arch = json.loads(r["architecture_json"])
    assert arch["ffn_size"] == _neox_gated_ffn(4096) == 11008
    # the shape's weights within 0.02% of the card's 6,890,209,280 (the rest: norms and padding rows)
    assert _params(32, 4096, 11008, 50432, False) == pytest.approx(6_890_209_280, rel=2e-4)
    # TP2 on 384 GPUs: 192 data-parallel ranks x micro-batch 12 x 2,048
    assert int(r["global_batch_tokens"]) == 384 // 2 * 12 * 2048 == 4_718_592
    assert float(r["training_tokens_b"]) == 1000 + 100
    assert float(r["gpu_hours"]) == pytest.approx(384 * 16.33 * 24)
    assert (c["stack"], int(c["tp"]), int(c["micro_batch"]), int(c["zero"]), c["hours_basis"]) == (
        "megatron-deepspeed", 2, 12, 1, "whole")
    assert "16.33 days" in r["source"] and "ASSUMPTION" in r["notes"]


def test_rows_are_blind_and_in_use():
    rows = _rows("training_heldout.csv")
    for rid in ("H837", "H838", "H839", "H840"):
        assert "trainblind35" in rows[rid]["notes"] and "b64d170f" in rows[rid]["notes"], rid
        assert rows[rid]["use"] == "1" and rows[rid]["criterion"] == "", rid
