"""Held-out H761-H766 (branch trainblind30), scored blind on main 6c7ec1a1: Red Hat's training_hub runtime page
(Red-Hat-AI-Innovation-Team/training_hub examples/docs/runtime_estimates.md, added 0a8febf 2025-11-20): Granite 3.3 8B
Instruct full SFT under instructlab-training on 8 x A100 and 8 x H100 (80 GB), one epoch (the mean of two trials) of
Table-GPT and of Bespoke-Stratos-17k, and the A100's three-epoch single trials. Each row's tokens (samples x the page's
mean token length x epochs), hours (the page's HH:MM:SS x 8 GPUs), attention length (mean + std^2 / mean: the
token-weighted sample length, since padding-free packing keeps each sample's attention within itself) and batch (256
samples x the mean) are checked here by hand against the page's tables; no figure of the model was set from them."""

from __future__ import annotations

import pytest

from .test_heldout_trainblind11 import _rows

# the page's dataset table (Granite 3.3 tokenizer): samples, mean tokens, std
DATASETS = {"Table-GPT": (13222, 931.25, 802.26), "Bespoke-Stratos-17k": (16710, 6023.17, 5354.54)}

# id: GPU, data set, epochs, the page's time (h, min, s)
RUNS = {
    "H761": ("a100-80gb-sxm", "Table-GPT", 1, (0, 10, 1)),
    "H762": ("a100-80gb-sxm", "Bespoke-Stratos-17k", 1, (1, 17, 2)),
    "H763": ("h100-80gb-sxm", "Table-GPT", 1, (0, 4, 35)),
    "H764": ("h100-80gb-sxm", "Bespoke-Stratos-17k", 1, (0, 35, 47)),
    "H765": ("a100-80gb-sxm", "Table-GPT", 3, (0, 32, 42)),
    "H766": ("a100-80gb-sxm", "Bespoke-Stratos-17k", 3, (3, 57, 34)),
}


def test_the_rows_are_the_page_by_hand():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (gpu, data, epochs, (h, m, s)) in RUNS.items():
        r, c = rows[rid], conds[rid]
        n, mean, std = DATASETS[data]
        assert "training_hub examples/docs/runtime_estimates.md" in r["source"], rid
        assert data in r["model"] and r["use"] == "1" and r["method"] == "full", rid
        assert (r["gpu"], int(r["gpus"]), r["precision"]) == (gpu, 8, "bf16"), rid
        assert float(r["training_tokens_b"]) == pytest.approx(n * mean * epochs / 1e9, rel=1e-6), rid
        assert float(r["gpu_hours"]) == pytest.approx(8 * (h * 3600 + m * 60 + s) / 3600, rel=1e-6), rid
        assert int(r["seq_len"]) == round(mean + std * std / mean) == int(c["seq_len"]), rid
        assert int(r["global_batch_tokens"]) == round(256 * mean) == int(c["global_batch_tokens"]), rid
        assert "trainblind30" in r["notes"], rid
        assert (c["stack"], c["zero"], c["checkpointing"], c["hours_basis"]) == ("fsdp-hf", "3", "true", "whole"), rid


def test_granite_shape_is_its_config():
    """ibm-granite/granite-3.3-8b-instruct config.json: 40 layers, hidden 4,096, 32 heads, 8 KV heads, intermediate
    12,800, vocabulary 49,159, tied embeddings; its parameters by hand: 8.171B."""
    import json

    r = _rows("training_heldout.csv")["H761"]
    a = json.loads(r["architecture_json"])
    assert (a["layers"], a["hidden_size"], a["heads"], a["kv_heads"], a["ffn_size"], a["vocab_size"]) == (
        40, 4096, 32, 8, 12800, 49159)
    h, kv_dim = 4096, 8 * 128
    per_layer = h * h * 2 + h * kv_dim * 2 + 3 * h * 12800 + 2 * h  # q, o; k, v; gate, up, down; two norms
    total = 40 * per_layer + 49159 * h + h  # tied embedding, final norm
    assert total / 1e9 == pytest.approx(float(r["params_b"]), abs=5e-4)


def test_a_longer_epoch_reads_longer_in_proportion():
    """The three-epoch single trials against three times the mean first epoch: 1.09x (Table-GPT) and 1.03x
    (Bespoke-Stratos-17k) on the A100s, so the first epoch is not a warm-up-inflated figure."""
    rows = _rows("training_heldout.csv")
    assert float(rows["H765"]["gpu_hours"]) / (3 * float(rows["H761"]["gpu_hours"])) == pytest.approx(1.088, abs=2e-3)
    assert float(rows["H766"]["gpu_hours"]) / (3 * float(rows["H762"]["gpu_hours"])) == pytest.approx(1.028, abs=2e-3)
