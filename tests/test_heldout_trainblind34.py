"""Held-out H819-H828 and H830-H836 (branch trainblind34), scored blind on main 66f6fccb, from sources no row had
cited: the SFT and LoRA tables of NVIDIA-NeMo/Megatron-Bridge's performance summary for the NeMo 26.06 container
(docs/performance-summary-archive.md at 067f987d; no release's SFT or LoRA table had been read), six pretraining
lines of the same 26.06 tables whose system, batch and layout no cited release holds, and Olmo Hybrid 7B's B200 phase
(Lambda's model page: ~3T tokens in 6.19 days on 512 B200; allenai/OLMo-core's pretraining script at 138b1fca for
the sequence, batch and shape). Each row's tokens and hours are checked here by hand against the table's tokens/s a
GPU or the stated days; no figure of the model was set from them."""

from __future__ import annotations

import json

import pytest

from .test_heldout_trainblind11 import _rows

# id: (kind, gpu, GPUs, precision, TP, PP, VP, published tokens/s a GPU) -- the 26.06 SFT / LoRA table lines
FINETUNES = {
    "H819": ("full", "gb300", 32, "fp8", 1, 2, 20, 4819),
    "H820": ("full", "gb300", 32, "fp8", 1, 2, 20, 4312),  # MXFP8
    "H821": ("full", "gb200", 32, "fp8", 1, 8, 10, 3864),
    "H822": ("full", "gb200", 32, "fp8", 1, 8, 10, 3593),  # MXFP8
    "H823": ("full", "h100-80gb-sxm", 32, "fp8", 4, 4, 5, 1638),
    "H824": ("lora", "gb300", 8, "fp8", 1, 2, 20, 7481),
    "H825": ("lora", "gb300", 8, "fp8", 1, 2, 20, 7447),  # MXFP8
    "H826": ("lora", "gb200", 8, "fp8", 1, 2, 20, 6206),
    "H827": ("lora", "gb200", 8, "fp8", 1, 4, 20, 5958),  # MXFP8
    "H828": ("lora", "h100-80gb-sxm", 8, "fp8", 2, 4, 20, 2643),
}

# id: (catalog model, gpu, GPUs, precision, GBS, MBS, sequence, TP, PP, VP, EP, tokens/s a GPU) -- 26.06 pretraining
PRETRAIN = {
    "H830": ("llama-3.1-405b", "gb200", 256, "fp8", 1536, 1, 8192, 4, 16, 8, None, 783),  # MXFP8
    "H831": ("llama-3.1-405b", "gb200", 256, "fp4", 1536, 1, 8192, 4, 16, 8, None, 1166),  # NVFP4
    "H832": ("deepseek-v3", "gb300", 256, "fp8", 15360, 1, 4096, 1, 2, 8, 32, 6422),
    "H833": ("deepseek-v3", "b300", 256, "fp8", 4096, 2, 4096, 1, 8, None, 8, 3541),
    "H834": ("gpt-oss-120b", "b300", 64, "fp8", 1280, 4, 4096, 1, 1, None, 8, 18534),
    "H835": ("kimi-k2", "gb300", 256, "fp8", 4096, 2, 4096, 1, 4, 4, 64, 5372),
}


def test_finetune_tables_by_hand():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (method, gpu, n, prec, tp, pp, vp, tps) in FINETUNES.items():
        r, c = rows[rid], conds[rid]
        tokens = 100 * 32 * 4096  # 100 steps of GBS 32 packed 4,096-token sequences
        assert float(r["training_tokens_b"]) == pytest.approx(tokens / 1e9), rid
        # GPU-hours = tokens / (tokens/s a GPU) / 3,600, whatever the GPU count
        assert float(r["gpu_hours"]) == pytest.approx(tokens / tps / 3600, rel=1e-5), rid
        assert (r["catalog_model"], r["gpu"], int(r["gpus"]), r["precision"], r["method"]) == (
            "llama-3-70b", gpu, n, prec, method), rid
        assert r["lora_targets"] == ("attention" if method == "lora" else ""), rid
        assert f"{tps:,} tokens/s a GPU" in r["source"] and "26.06 NeMo Container" in r["source"], rid
        assert (c["stack"], int(c["tp"]), int(c["pp"]), int(c["vpp"]), int(c["micro_batch"]), c["checkpointing"],
                c["hours_basis"], c["stack_version"]) == ("nemo", tp, pp, vp, 1, "false", "steady", "26.06"), rid
        # the layout fills the GPUs: TP x PP x data-parallel ranks, and GBS 32 divides into them
        assert n % (tp * pp) == 0 and 32 % (n // (tp * pp)) == 0, rid


def test_pretraining_lines_by_hand():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (cat, gpu, n, prec, gbs, mbs, seq, tp, pp, vp, ep, tps) in PRETRAIN.items():
        r, c = rows[rid], conds[rid]
        tokens = 100 * gbs * seq
        assert float(r["training_tokens_b"]) == pytest.approx(tokens / 1e9), rid
        assert float(r["gpu_hours"]) == pytest.approx(tokens / tps / 3600, rel=1e-5), rid
        assert (r["catalog_model"], r["gpu"], int(r["gpus"]), r["precision"], int(r["global_batch_tokens"])) == (
            cat, gpu, n, prec, gbs * seq), rid
        assert (int(c["tp"]), int(c["pp"]), int(c["micro_batch"])) == (tp, pp, mbs), rid
        assert (int(c["vpp"]) if c["vpp"] else None, int(c["ep"]) if c["ep"] else None) == (vp, ep), rid
        assert c["hours_basis"] == "steady" and c["checkpointing"] == "" and c["stack_version"] == "26.06", rid
        assert f"{tps:,} tokens/s a GPU" in r["source"], rid
    # the 15,360-sequence DeepSeek-V3 line: 256 / (TP1 x PP2) = 128 data-parallel replicas, 120 micro-batches of one
    # sequence each, where the cited 4,096 line (M32) has 32
    assert (15360 // (256 // (1 * 2)), 4096 // (256 // (1 * 2))) == (120, 32)
    assert "120 micro-batches" in rows["H832"]["notes"]


def test_olmo_hybrid_by_hand():
    r, c = _rows("training_heldout.csv")["H836"], _rows("training_conditions.csv")["H836"]
    # 512 B200 x 6.19 days x 24 h
    assert float(r["gpu_hours"]) == pytest.approx(512 * 6.19 * 24, abs=0.1) == 76_062.72
    assert float(r["training_tokens_b"]) == 3000 and int(r["gpus"]) == 512 and r["gpu"] == "b200"
    arch = json.loads(r["architecture_json"])
    # OLMo 3 7B less two 128-wide heads: d_model 4,096 - 256 = 3,840, 30 heads of 128; 3 GDN layers to 1 attention
    assert (arch["hidden_size"], arch["heads"], arch["layers"], arch["attention_layers"]) == (3840, 30, 32, 8)
    assert 3840 // 30 == 128 and 32 // 4 == 8
    key = int(0.75 * 3840 / 30)
    assert (key, 2 * key) == (96, 192)
    gdn = 2 * 3840 * 30 * key + 2 * 3840 * 30 * 2 * key + 30 * 2 * key * 3840 + 2 * 3840 * 30 + 4 * (
        2 * 30 * key + 30 * 2 * key)
    total = 2 * 100352 * 3840 + 32 * 3 * 3840 * 11008 + 8 * 4 * 3840 ** 2 + 24 * gdn
    assert float(r["params_b"]) == pytest.approx(total / 1e9, abs=1e-3)
    # the script: 8,192-token sequences, ~4M-token batch, one sequence a rank, HSDP, compiled, no recomputation
    assert (int(r["seq_len"]), int(r["global_batch_tokens"])) == (8192, 4 * 1024 * 1024)
    assert (c["stack"], int(c["micro_batch"]), int(c["zero"]), int(c["dp_shard"]), c["torch_compile"],
            c["checkpointing"], c["hours_basis"]) == ("torchtitan", 1, 3, 8, "true", "false", "whole")
    assert "6.19 days" in r["source"] and "138b1fca" in r["source"]


def test_rows_are_blind_and_in_use():
    rows = _rows("training_heldout.csv")
    for rid in [*FINETUNES, *PRETRAIN, "H836"]:
        assert "trainblind34" in rows[rid]["notes"] and "66f6fccb" in rows[rid]["notes"], rid
        assert rows[rid]["use"] == "1" and rows[rid]["criterion"] == "", rid
