"""Held-out H814-H818 (branch trainblind33), scored blind on main 9219d574, from sources no row had cited:
stanford-crfm/BioMedLM (a GPT-2 2.7B pretrained from scratch on PubMed with MosaicML Composer and PyTorch FSDP on
128 A100-40GB in ~6.25 days, 300B tokens at batch 1,024 x 1,024) and DiscoResearch/Llama3-German-8B (Llama 3 8B
continued on 65B German tokens, 'trained on 128 GPUs on hessian.Ai 42 for ~60 hours', 15,500 steps of 512 x 8,192,
micro-batch 4 x 8,192), projecte-aina/aguila-7b (Falcon-7B continued on 26B tokens, '320 hours on 8 NVIDIA H100
GPUs') and EleutherAI/math-lm's Llemma 7B / 34B (GPT-NeoX configs at 8b4f3bc3; 23,000 / 47,000 A100 hours on 256
A100 40GB). Each row's tokens, hours, shape and batch are checked here by hand against its card; no
figure of the model was set from them."""

from __future__ import annotations

import json

import pytest

from .test_heldout_trainblind11 import _rows


def _params(layers: int, h: int, ffn: int, vocab: int, tied: bool) -> int:
    """Weights of the entered shape: embeddings (once if tied) + layers x (3 h f + 4 h^2); no biases, no
    learned positions."""
    return vocab * h * (1 if tied else 2) + layers * (3 * h * ffn + 4 * h * h)


def test_biomedlm_by_hand():
    r, c = _rows("training_heldout.csv")["H814"], _rows("training_conditions.csv")["H814"]
    arch = json.loads(r["architecture_json"])
    # GPT-2's two 4 x d_model matrices held as a three-matrix MLP of the same weights: 3 x 6,827 ~ 2 x 10,240
    assert arch == {"layers": 32, "hidden_size": 2560, "heads": 20, "kv_heads": 20, "ffn_size": 6827,
                    "vocab_size": 28896, "tied_embeddings": True}
    assert abs(3 * 6827 - 2 * 4 * 2560) <= 1
    assert _params(32, 2560, 6827, 28896, True) == 2_590_638_080
    assert float(r["params_b"]) == pytest.approx(2.591, abs=1e-3)
    # 128 A100-40GB x ~6.25 days x 24 h
    assert float(r["gpu_hours"]) == pytest.approx(128 * 6.25 * 24) == 19_200
    assert (r["gpu"], int(r["gpus"]), int(r["seq_len"]), int(r["global_batch_tokens"])) == (
        "a100-40gb-sxm", 128, 1024, 1024 * 1024)
    assert float(r["training_tokens_b"]) == 300
    assert "6.25 days" in r["source"] and "128 A100-40GB" in r["source"]
    assert (c["stack"], c["zero"], c["hours_basis"], c["micro_batch"], c["checkpointing"]) == (
        "fsdp-hf", "3", "whole", "", "")


def test_llama3_german_by_hand():
    r, c = _rows("training_heldout.csv")["H815"], _rows("training_conditions.csv")["H815"]
    # 15,500 steps x 512 x 8,192 tokens = the card's '65 billion'
    assert 15_500 * 512 * 8192 == 65_011_712_000
    assert float(r["training_tokens_b"]) == pytest.approx(65.012, abs=1e-3)
    assert float(r["gpu_hours"]) == 128 * 60
    assert (r["catalog_model"], int(r["gpus"]), int(r["seq_len"]), int(r["global_batch_tokens"])) == (
        "llama-3-8b", 128, 8192, 512 * 8192)
    # the GPU type is the row's stated assumption: fortytwo's ~8 PFLOP/s LINPACK over 632 GPUs is A100-class
    per_gpu_tflops = 8e15 / 632 / 1e12
    assert per_gpu_tflops == pytest.approx(12.7, abs=0.05)
    assert r["gpu"] == "a100-80gb-sxm" and "ASSUMPTION (GPU type" in r["notes"]
    assert (c["micro_batch"], c["hours_basis"], c["stack"]) == ("4", "whole", "")
    assert "~60 hours" in r["source"]


def test_aguila_by_hand():
    r, c = _rows("training_heldout.csv")["H816"], _rows("training_conditions.csv")["H816"]
    arch = json.loads(r["architecture_json"])
    # Falcon-7B: 32 x 4,544, 71 query heads of 64 and one key/value head; MLP 4 x 4,544 held as three matrices
    assert (arch["layers"], arch["hidden_size"], arch["heads"], arch["kv_heads"], arch["vocab_size"]) == (
        32, 4544, 71, 1, 50257)
    assert abs(3 * arch["ffn_size"] - 2 * 4 * 4544) <= 2 and 4544 // 71 == 64
    per_layer = 3 * 4544 * 12117 + 2 * 4544 * 4544 + 2 * 4544 * 64
    assert float(r["params_b"]) == pytest.approx((32 * per_layer + 50257 * 4544) / 1e9, abs=1e-3)
    assert float(r["gpu_hours"]) == 8 * 320 and int(r["gpus"]) == 8 and r["gpu"] == "h100-80gb-sxm"
    assert float(r["training_tokens_b"]) == 26 and int(r["global_batch_tokens"]) == 8 * 1 * 2048
    assert "320 hours on 8 NVIDIA H100" in r["source"] and "ASSUMPTION (sequence" in r["notes"]
    assert (c["stack"], c["micro_batch"], c["zero"], c["hours_basis"]) == ("deepspeed", "1", "", "whole")


LLEMMA = {  # id: (TP, micro-batch, accumulation, steps, A100-hours, layers, hidden, heads, kv heads, MLP, vocabulary)
    "H817": (2, 4, 2, 42_000, 23_000, 32, 4096, 32, 32, 11008, 32016),
    "H818": (8, 2, 16, 12_000, 47_000, 48, 8192, 64, 8, 22016, 32000),
}


def test_llemma_by_hand():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (tp, mbs, gas, steps, hours, layers, h, heads, kv, ffn, vocab) in LLEMMA.items():
        r, c = rows[rid], conds[rid]
        dp = 256 // tp
        assert dp * mbs * gas == 1024, rid  # the configs' 1,024 sequences of 4,096: 'a batch size of 4M tokens'
        assert int(r["global_batch_tokens"]) == 1024 * 4096 == 4_194_304, rid
        assert float(r["training_tokens_b"]) == pytest.approx(steps * 4_194_304 / 1e9, abs=1e-3), rid
        assert float(r["gpu_hours"]) == hours and int(r["gpus"]) == 256 and r["gpu"] == "a100-40gb-sxm", rid
        # NeoX's mlp_type llama: int(2 x 4h / 3) rounded up to a multiple of 256
        assert -(-int(8 * h / 3) // 256) * 256 == ffn, rid
        arch = json.loads(r["architecture_json"])
        assert (arch["layers"], arch["hidden_size"], arch["heads"], arch["kv_heads"], arch["ffn_size"],
                arch["vocab_size"], arch["tied_embeddings"]) == (layers, h, heads, kv, ffn, vocab, False), rid
        assert (c["stack"], int(c["tp"]), int(c["pp"]), int(c["micro_batch"]), int(c["zero"]),
                c["checkpointing"], c["hours_basis"]) == ("megatron-deepspeed", tp, 1, mbs, 1, "true", "whole"), rid
        assert "8b4f3bc3" in r["source"] and f"{hours:,} A100 hours" in r["source"], rid
    # the blog's '200B tokens' for the 7B is the config's planned 48,000 iterations, not the 42,000 run
    planned = 48_000 * 4_194_304 / 1e9
    assert planned == pytest.approx(201.3, abs=0.1)


def test_rows_are_blind_and_in_use():
    rows = _rows("training_heldout.csv")
    for rid in ("H814", "H815", "H816", "H817", "H818"):
        assert "trainblind33" in rows[rid]["notes"] and "9219d574" in rows[rid]["notes"], rid
        assert rows[rid]["use"] == "1" and rows[rid]["criterion"] == "", rid
