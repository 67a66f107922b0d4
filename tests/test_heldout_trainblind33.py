"""Held-out H814-H815 (branch trainblind33), scored blind on main 9219d574, from two model cards no row had cited:
stanford-crfm/BioMedLM (a GPT-2 2.7B pretrained from scratch on PubMed with MosaicML Composer and PyTorch FSDP on
128 A100-40GB in ~6.25 days, 300B tokens at batch 1,024 x 1,024) and DiscoResearch/Llama3-German-8B (Llama 3 8B
continued on 65B German tokens, 'trained on 128 GPUs on hessian.Ai 42 for ~60 hours', 15,500 steps of 512 x 8,192,
micro-batch 4 x 8,192). Each row's tokens, hours, shape and batch are checked here by hand against its card; no
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


def test_rows_are_blind_and_in_use():
    rows = _rows("training_heldout.csv")
    for rid in ("H814", "H815"):
        assert "trainblind33" in rows[rid]["notes"] and "9219d574" in rows[rid]["notes"], rid
        assert rows[rid]["use"] == "1" and rows[rid]["criterion"] == "", rid
