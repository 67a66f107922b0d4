"""Held-out H841-H849 (branch trainblind36), scored blind on main ae835c35, from cards and configs no row had cited:
BigCode's SantaCoder (96 V100, 6.2 days, 236B tokens), StarCoderBase-1B (128 A100, 11 days, 1T tokens) and
TinyStarCoderPy (32 A100, 18 hours, 100B tokens) cards; TII's Falcon-RW-1B card (32 A100 40GB, about six days, 350B
tokens); Microsoft's Phi-4-mini-reasoning card (128 H100-80G, 2 days, 150B tokens); Hugging Face's Cosmo-1B card (160
H100, 15 hours, 180B tokens); OpenCSG's csg-wukong-1B card (16 H800, 43 days, 1T tokens); karpathy/nanoGPT's README
and config (one 8 x A100 40GB node, about 4 days, 600,000 steps of 491,520 tokens); and ai-forever's mGPT card (256
V100, around 12 days, 440B tokens). Each row's tokens, hours, shape and layout are checked here by hand against its
card or config; no figure of the model was set from them."""

from __future__ import annotations

import json

import pytest

from .test_heldout_trainblind11 import _rows

IDS = ("H841", "H842", "H843", "H844", "H845", "H846", "H847", "H848", "H849")


def _gelu_as_gated(ffn: int) -> int:
    """A two-matrix GELU MLP of width ffn held as the three-matrix MLP of the same weights (as H180 / H814)."""
    return round(2 * ffn / 3)


def _mqa_params(layers: int, h: int, ffn: int, vocab: int, positions: int, head: int) -> int:
    """gpt_bigcode weights: tied embeddings, learned positions, per layer q and o (h x h each), one shared key and
    value head (2 x h x head), and the two-matrix MLP; no biases or norms."""
    return vocab * h + positions * h + layers * (2 * h * h + 2 * h * head + 2 * h * ffn)


def _arch(rid: str) -> dict:
    return json.loads(_rows("training_heldout.csv")[rid]["architecture_json"])


def test_santacoder_by_hand():
    r, c = _rows("training_heldout.csv")["H841"], _rows("training_conditions.csv")["H841"]
    a = _arch("H841")
    assert (a["layers"], a["hidden_size"], a["heads"], a["kv_heads"], a["vocab_size"]) == (24, 2048, 16, 1, 49280)
    assert a["ffn_size"] == _gelu_as_gated(8192) == 5461
    assert float(r["params_b"]) == pytest.approx(_mqa_params(24, 2048, 8192, 49280, 2048, 128) / 1e9, abs=1e-3)
    # 600K steps x 192 x 2,048 = the card's 236 billion; 96 GPUs x 6.2 days
    assert 600_000 * int(r["global_batch_tokens"]) / 1e9 == pytest.approx(236, abs=0.1)
    assert int(r["global_batch_tokens"]) == 192 * 2048
    assert float(r["gpu_hours"]) == pytest.approx(96 * 6.2 * 24)
    assert (r["gpu"], r["precision"], c["stack"], c["hours_basis"]) == ("v100-32gb-sxm2", "fp16", "megatron", "whole")
    assert "Training time: 6.2 days" in r["source"] and "ASSUMPTION (part)" in r["notes"]


def test_starcoderbase_1b_by_hand():
    r, c = _rows("training_heldout.csv")["H842"], _rows("training_conditions.csv")["H842"]
    a = _arch("H842")
    assert (a["layers"], a["hidden_size"], a["heads"], a["kv_heads"], a["vocab_size"]) == (24, 2048, 16, 1, 49152)
    assert float(r["params_b"]) == pytest.approx(_mqa_params(24, 2048, 8192, 49152, 8192, 128) / 1e9, abs=1e-3)
    # 500k steps of 256 x 8,192 = 1.049T (the card's '1 trillion'); 128 GPUs x 11 days
    assert int(r["global_batch_tokens"]) == 256 * 8192 and int(r["seq_len"]) == 8192
    assert abs(500_000 * 256 * 8192 / 1e12 - 1.0) <= 0.05
    assert float(r["gpu_hours"]) == 128 * 11 * 24 == 33792
    assert (c["stack"], c["hours_basis"], r["precision"]) == ("megatron", "whole", "bf16")


def test_falcon_rw_1b_by_hand():
    r, c = _rows("training_heldout.csv")["H843"], _rows("training_conditions.csv")["H843"]
    a = _arch("H843")
    # d_model 2,048 with head_dim 64: 32 heads; GPT-3's 4 x d_model GELU MLP
    assert (a["layers"], a["hidden_size"], a["heads"], a["vocab_size"]) == (24, 2048, 2048 // 64, 50304)
    assert a["ffn_size"] == _gelu_as_gated(4 * 2048)
    assert float(r["params_b"]) == pytest.approx((50304 * 2048 + 24 * (4 * 2048**2 + 2 * 2048 * 8192)) / 1e9,
                                                 abs=1e-3)
    assert int(r["global_batch_tokens"]) == 512 * 2048 and float(r["training_tokens_b"]) == 350
    assert float(r["gpu_hours"]) == 32 * 6 * 24 == 4608
    assert (r["gpu"], c["tp"], c["pp"], c["stack"]) == ("a100-40gb-sxm", "1", "1", "")
    assert "took about six days" in r["hours_kind"]


def test_phi4_mini_reasoning_by_hand():
    r, c = _rows("training_heldout.csv")["H844"], _rows("training_conditions.csv")["H844"]
    a = _arch("H844")
    assert (a["layers"], a["hidden_size"], a["heads"], a["kv_heads"], a["ffn_size"], a["vocab_size"]) == (
        32, 3072, 24, 8, 8192, 200064)
    kv = 3072 // 24 * 8
    own = 200064 * 3072 + 32 * (2 * 3072**2 + 2 * 3072 * kv + 3 * 3072 * 8192)
    assert float(r["params_b"]) == pytest.approx(own / 1e9, abs=1e-3) and a["tied_embeddings"] is True
    assert float(r["gpu_hours"]) == 128 * 2 * 24 == 6144 and float(r["training_tokens_b"]) == 150
    assert (r["method"], r["seq_len"], c["hours_basis"]) == ("full", "32768", "whole")
    assert "ASSUMPTION (sequence)" in r["notes"]


def test_tiny_starcoder_by_hand():
    r, c = _rows("training_heldout.csv")["H845"], _rows("training_conditions.csv")["H845"]
    a = _arch("H845")
    assert (a["layers"], a["hidden_size"], a["heads"], a["kv_heads"], a["vocab_size"]) == (20, 768, 12, 1, 49152)
    assert a["ffn_size"] == _gelu_as_gated(3072)
    # the shape's weights are the card's 164M
    assert _mqa_params(20, 768, 3072, 49152, 8192, 64) == pytest.approx(164e6, rel=0.005)
    assert 50_000 * int(r["global_batch_tokens"]) / 1e9 == pytest.approx(100, rel=0.05)
    assert float(r["gpu_hours"]) == 32 * 18 == 576 and c["stack"] == "megatron"


def test_cosmo_1b_by_hand():
    r, c = _rows("training_heldout.csv")["H846"], _rows("training_conditions.csv")["H846"]
    a = _arch("H846")
    assert (a["layers"], a["hidden_size"], a["heads"], a["kv_heads"], a["ffn_size"], a["vocab_size"]) == (
        24, 2048, 16, 16, 8192, 32000)
    own = 2 * 32000 * 2048 + 24 * (4 * 2048**2 + 3 * 2048 * 8192)
    assert float(r["params_b"]) == pytest.approx(own / 1e9, abs=1e-3)
    # the card's 1.3M-token batch as 640 sequences of 2,048; 160 GPUs x 15 hours
    assert int(r["global_batch_tokens"]) == 640 * 2048 and abs(640 * 2048 / 1.3e6 - 1) < 0.01
    assert float(r["gpu_hours"]) == 160 * 15 == 2400 and float(r["training_tokens_b"]) == 180
    assert (c["stack"], c["hours_basis"]) == ("", "whole")


def test_wukong_by_hand():
    r, c = _rows("training_heldout.csv")["H847"], _rows("training_conditions.csv")["H847"]
    a = _arch("H847")
    assert (a["layers"], a["hidden_size"], a["heads"], a["kv_heads"], a["ffn_size"], a["vocab_size"]) == (
        22, 2048, 32, 4, 5632, 32000)
    own = 2 * 32000 * 2048 + 22 * (2 * 2048**2 + 2 * 2048 * 256 + 3 * 2048 * 5632)
    assert float(r["params_b"]) == pytest.approx(own / 1e9, abs=1e-3)
    assert float(r["gpu_hours"]) == 16 * 43 * 24 == 16512 and r["gpu"] == "h800-80gb-sxm"
    assert (c["stack"], c["hours_basis"]) == ("deepspeed", "whole") and "'Training time: 34'" in r["notes"]


def test_nanogpt_by_hand():
    r, c = _rows("training_heldout.csv")["H848"], _rows("training_conditions.csv")["H848"]
    a = _arch("H848")
    assert (a["layers"], a["hidden_size"], a["heads"], a["vocab_size"]) == (12, 768, 12, 50304)
    assert a["ffn_size"] == _gelu_as_gated(3072)
    # 12 x 1,024 x 5 accumulation x 8 GPUs = 491,520 a step; 600,000 steps
    assert int(r["global_batch_tokens"]) == 12 * 1024 * 5 * 8 == 491_520
    assert float(r["training_tokens_b"]) == pytest.approx(600_000 * 491_520 / 1e9)
    assert float(r["gpu_hours"]) == 8 * 4 * 24 == 768
    assert (c["micro_batch"], c["zero"], c["torch_compile"], c["stack"]) == ("12", "0", "true", "")
    assert "~5 days" in r["notes"]


def test_mgpt_by_hand():
    r, c = _rows("training_heldout.csv")["H849"], _rows("training_conditions.csv")["H849"]
    a = _arch("H849")
    assert (a["layers"], a["hidden_size"], a["heads"], a["vocab_size"]) == (24, 2048, 16, 100000)
    own = 100000 * 2048 + 2048 * 2048 + 24 * (4 * 2048**2 + 2 * 2048 * 8192)
    assert float(r["params_b"]) == pytest.approx(own / 1e9, abs=1e-3)
    assert float(r["gpu_hours"]) == 256 * 12 * 24 == 73728 and float(r["training_tokens_b"]) == 440
    assert (r["seq_len"], r["precision"], c["stack"]) == ("512", "fp16", "megatron-deepspeed")
    assert "ASSUMPTION (vocabulary)" in r["notes"]


def test_rows_are_blind_and_in_use():
    rows = _rows("training_heldout.csv")
    for rid in IDS:
        assert "trainblind36" in rows[rid]["notes"] and "ae835c35" in rows[rid]["notes"], rid
        assert rows[rid]["use"] == "1" and rows[rid]["criterion"] == "", rid
        assert rows[rid]["hours_kind"].startswith("derived"), rid
