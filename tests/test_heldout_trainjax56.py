"""Held-out H655-H670 (branch trainjax56), scored blind on main 82636a27: steady step times of JAX / XLA training stacks
on H100. MaxText Llama 2 70B and Llama 3 70B in NVIDIA's DGX Cloud Benchmarking recipes (NVIDIA/dgxc-benchmarking
maxtext/README_70b.md at 35a9aec, v24.11.1, and at 8f5cbb3, v25.02), MaxText Llama 2 7B on one DGX H100
(NVIDIA/JAX-Toolbox rosetta/rosetta/projects/maxtext/README.md at db096881) and Paxml GPT3 5B / 175B (dgxc-benchmarking
paxml/README_5b.md, README_175b.md at 35a9aec). Each row's tokens, hours, batch and layout are checked here by hand
against its table, and each published MFU from the step time by the README's own FLOPs a sequence."""

from __future__ import annotations

import json

import pytest

from .test_heldout_trainblind11 import _rows

IDS = [f"H{i}" for i in range(655, 671)]

# id: (GPUs, GBS in sequences, sequence length, published s a step, README FLOPs a sequence, peak TFLOP/s, MFU %)
TABLES = {
    "H655": (64, 128, 4096, 6.999, 1.82e15, 989, 52.59), "H656": (512, 1024, 4096, 7.091, 1.82e15, 989, 51.90),
    "H657": (2048, 4096, 4096, 7.066, 1.82e15, 989, 52.09), "H658": (64, 128, 4096, 4.324, 1.82e15, 1979, 42.54),
    "H659": (512, 1024, 4096, 5.043, 1.82e15, 1979, 36.47), "H660": (2048, 4096, 4096, 4.93, 1.82e15, 1979, 37.31),
    "H661": (128, 256, 8192, 15.563, 3.94e15, 989, 51.20), "H662": (2048, 4096, 8192, 15.898, 3.94e15, 989, 50.12),
    "H663": (128, 256, 8192, 9.074, 3.94e15, 1979, 43.88), "H664": (2048, 4096, 8192, 9.339, 3.94e15, 1979, 42.64),
    "H666": (16, 64, 2048, 0.634, 6.69e13, 989, 42.68), "H667": (128, 512, 2048, 0.651, 6.69e13, 989, 41.56),
    "H668": (16, 64, 2048, 0.47, 6.69e13, 1979, 28.77), "H669": (128, 256, 2048, 7.47, 2.20e15, 1979, 29.76),
    "H670": (2048, 4096, 2048, 8.02, 2.20e15, 1979, 27.72),
}


def test_the_rows_and_their_conditions_are_entered():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid in IDS:
        assert rid in rows and rid in conds, rid
        assert rows[rid]["use"] == "1" and "trainjax56" in rows[rid]["notes"], rid
        assert rows[rid]["gpu"] == "h100-80gb-sxm" and conds[rid]["hours_basis"] == "steady", rid
        assert (conds[rid]["tp"], conds[rid]["pp"], conds[rid]["zero"]) == ("1", "1", "3"), rid


def test_step_times_tokens_and_mfu_by_hand():
    """Hours = steps x the published step time x GPUs; tokens = steps x GBS x sequence; the README's MFU = GBS x its
    FLOPs a sequence / step time / GPUs / the H100's dense peak (989 TFLOP/s BF16, 1,979 FP8), to the table's 0.01%."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (n, gbs, seq, secs, flops, peak, mfu) in TABLES.items():
        r, c = rows[rid], conds[rid]
        steps = int(r["hours_kind"].split()[1].lstrip("("))
        assert float(r["gpu_hours"]) == pytest.approx(steps * secs * n / 3600, abs=1e-5), rid
        assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(steps * gbs * seq, abs=1), rid
        assert int(r["gpus"]) == n and int(c["global_batch_tokens"]) == gbs * seq == int(r["global_batch_tokens"]), rid
        assert int(c["micro_batch"]) * n == gbs, rid  # gradient accumulation 1 in every table
        assert 100 * gbs * flops / secs / n / (peak * 1e12) == pytest.approx(mfu, abs=0.02), rid
        assert r["precision"] == ("fp8" if peak == 1979 else "bf16"), rid


def test_sharding_groups_follow_the_recipes():
    """MaxText: ici_fsdp 8 x dcn_fsdp (the node count, 16 from 64 nodes on), the rest data parallel; Paxml 5B: DCN mesh
    [nodes, 1, 1] over ICI [1, 8, 1] (FSDP inside a node); 175B: DCN [nodes / 16, 16, 1] (FSDP over 128 GPUs)."""
    conds = _rows("training_conditions.csv")
    for rid, (n, *_rest) in TABLES.items():
        group = 8 if rid in ("H666", "H667", "H668") else (n if n < 512 else 128)
        assert conds[rid]["dp_shard"] == ("" if group == n else str(group)), rid


def test_paxml_gpt_shapes():
    """google/paxml paxml/contrib/gpu/scripts_gpu/configs.py: GPT5B 24 x 4,096, 32 heads of 128, GELU MLP 16,384,
    vocabulary 50,304; GPT175B 96 x 12,288, 96 heads, MLP 4 x 12,288, vocabulary 50,257; the GELU MLP entered as the
    three-matrix width of equal parameters (2/3 of it)."""
    rows = _rows("training_heldout.csv")
    for rid, (layers, hidden, heads, mlp, vocab) in {"H666": (24, 4096, 32, 16384, 50304),
                                                     "H669": (96, 12288, 96, 49152, 50257)}.items():
        a = json.loads(rows[rid]["architecture_json"])
        assert (a["layers"], a["hidden_size"], a["heads"], a["vocab_size"]) == (layers, hidden, heads, vocab)
        assert 3 * a["ffn_size"] == pytest.approx(2 * mlp, abs=2) and a["tied_embeddings"] is True
        per_layer = 4 * hidden * hidden + 3 * hidden * a["ffn_size"]
        assert float(rows[rid]["params_b"]) == pytest.approx((layers * per_layer + vocab * hidden) / 1e9, abs=1e-4)
