"""Held-out H628-H635 (branch trainblind25), scored blind on main 46feaaf0, no MLPerf: whole runs of 2024-25 with a
published GPU count. Marin's two GPU speedruns on H200 (marin-community/marin experiments/speedrun results files: a
Llama 1.4B on 8 H200 and a 50M on one, Levanter on JAX), the STRING paper's two 1.3B pretraining runs of 1T tokens on
16 A100 80GB (arXiv:2410.18745 Appendix A.2), LongRoPE's LLaMA2-7B fine-tunes at 128k and 256k tokens a sequence
(arXiv:2402.13753 Appendix A.2) and OpenCoder's 1.5B and 8B pretraining (arXiv:2411.04905 section 3.2). Each row's
tokens, hours, batch and shape are checked here by hand against its source; no figure of the model was set from them."""

from __future__ import annotations

import json

import pytest

from .test_heldout_trainblind11 import _rows
from .test_heldout_trainblind23 import _llama_params

IDS = [f"H{i}" for i in range(628, 636)]


def _arch(rid: str) -> dict:
    return json.loads(_rows("training_heldout.csv")[rid]["architecture_json"])


def test_the_rows_and_their_conditions_are_entered():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid in IDS:
        assert rid in rows and rid in conds, rid
        assert rows[rid]["use"] == "1" and "trainblind25" in rows[rid]["notes"], rid
        assert "MLPerf" not in rows[rid]["source"] and conds[rid]["hours_basis"] == "whole", rid


def test_marin_speedruns_by_hand():
    """Tokens = steps x batch x sequence (19,073 x 256 x 2,048 is 5,120 tokens under the file's total_tokens, which
    counts what the loader served; 7,600 x 128 x 1,024 exactly); hours = training_time x GPUs, whose unit is the
    second: the file's training_hardware_flops is training_time x GPUs x the H200's 989.5 dense BF16 TFLOP/s. The
    files' model_size is the shape's count with untied 128,256-entry embeddings plus the RMSNorm weights."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    cases = {  # id: (steps, batch, seq, GPUs, training_time s, training_hardware_flops, total_tokens, model_size)
        "H628": (19_073, 256, 2048, 8, 50_947.15530548012, 4.032976813981806e20, 9_999_745_024, 2_136_049_664),
        "H629": (7_600, 128, 1024, 1, 1_556.5628195246245, 1.540218909919616e18, 996_147_200, 50_874_048),
    }
    for rid, (steps, batch, seq, n, secs, hw_flops, total, size) in cases.items():
        r, c = rows[rid], conds[rid]
        assert steps * batch * seq == pytest.approx(total, abs=6_000), rid
        assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(total, abs=1), rid
        assert hw_flops == pytest.approx(secs * n * 989.5e12, rel=1e-3), rid
        assert float(r["gpu_hours"]) == pytest.approx(secs * n / 3600, abs=1e-4), rid
        assert (r["gpu"], r["gpus"], r["seq_len"]) == ("h200-141gb-sxm", str(n), str(seq)), rid
        assert int(r["global_batch_tokens"]) == int(c["global_batch_tokens"]) == batch * seq, rid
        assert (c["checkpointing"], c["stack"], c["torch_compile"]) == ("true", "levanter", ""), rid
        a = _arch(rid)
        norms = a["layers"] * 2 * a["hidden_size"] + a["hidden_size"]
        assert _llama_params(a) + norms == size, rid
        assert float(r["params_b"]) == pytest.approx(_llama_params(a) / 1e9, abs=1e-4), rid
    assert (_arch("H628")["layers"], _arch("H628")["ffn_size"], _arch("H629")["hidden_size"]) == (24, 8192, 192)


def test_string_pretraining_runs_by_hand():
    """16 A100 80GB for about 28 and 32 days on 1T tokens each; TinyLlama 1.1B's block (22 layers, 2,048 wide, 32
    heads over 4 KV heads, SwiGLU 5,632) with the Llama 3 tokenizer's 128,256 entries untied is 1.494B; the batch of
    4M tokens is 2^22 at both lengths."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, seq, days in (("H630", 2048, 28), ("H631", 4096, 32)):
        r, c = rows[rid], conds[rid]
        assert (r["gpu"], r["gpus"], float(r["gpu_hours"]), float(r["training_tokens_b"])) == (
            "a100-80gb-sxm", "16", 16 * days * 24.0, 1000.0), rid
        assert r["seq_len"] == c["seq_len"] == str(seq) and int(c["global_batch_tokens"]) == 2**22, rid
        assert c["stack"] == "litgpt" and c["micro_batch"] == "" and c["checkpointing"] == "", rid
        a = _arch(rid)
        assert (a["layers"], a["hidden_size"], a["heads"], a["kv_heads"], a["ffn_size"]) == (22, 2048, 32, 4, 5632)
        assert (a["vocab_size"], a["tied_embeddings"]) == (128_256, False)
        assert float(r["params_b"]) == pytest.approx(_llama_params(a) / 1e9, abs=1e-4) == pytest.approx(1.494, abs=1e-3)


def test_longrope_fine_tunes_by_hand():
    """400 steps of 32 x 131,072 tokens on 8 A100 for a week, then 600 steps of 32 x 262,144 on 16 A100 for two
    weeks; every weight trained (a full fine-tune entered as continued pretraining of the catalog's Llama 2 7B)."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, ctx, steps, n, days in (("H632", 131_072, 400, 8, 7), ("H633", 262_144, 600, 16, 14)):
        r, c = rows[rid], conds[rid]
        assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(steps * 32 * ctx, abs=1), rid
        assert (r["catalog_model"], r["method"], r["gpu"]) == ("llama-2-7b", "", "a100-80gb-sxm"), rid
        assert r["gpus"] == str(n), rid
        assert float(r["gpu_hours"]) == n * days * 24, rid
        assert r["seq_len"] == c["seq_len"] == str(ctx) and int(c["global_batch_tokens"]) == 32 * ctx, rid
        assert (c["stack"], c["tp"], c["cp"], c["micro_batch"]) == ("", "", "", ""), rid


def test_opencoder_pretraining_by_hand():
    """1.5B: 2T + 100B annealing tokens on 256 H800 in ~28k GPU hours, micro-batch 4 of a 1,024 x 4,096 batch;
    8B: 2.5T + 100B on 512 H100 in 96k GPU hours, TP 2, micro-batch 1, 8,388,608 tokens a step in both of its phases
    (2,048 x 4,096 for 130k steps, then 1,024 x 8,192). Shapes from the released configs (vocabulary 96,640, untied)."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    r, c = rows["H634"], conds["H634"]
    assert (r["gpu"], r["gpus"], float(r["gpu_hours"]), float(r["training_tokens_b"])) == ("h800-80gb-sxm", "256",
                                                                                         28_000.0, 2_100.0)
    assert (c["micro_batch"], c["tp"], int(c["global_batch_tokens"])) == ("4", "", 1_024 * 4_096)
    r, c = rows["H635"], conds["H635"]
    assert (r["gpu"], r["gpus"], float(r["gpu_hours"]), float(r["training_tokens_b"])) == ("h100-80gb-sxm", "512",
                                                                                         96_000.0, 2_600.0)
    assert (c["micro_batch"], c["tp"], int(c["global_batch_tokens"])) == ("1", "2", 1_024 * 8_192)
    assert 1_024 * 8_192 == 2_048 * 4_096 == int(r["global_batch_tokens"])
    for rid, shape in (("H634", (24, 2240, 14, 14, 6144)), ("H635", (32, 4096, 32, 8, 14336))):
        a = _arch(rid)
        assert (a["layers"], a["hidden_size"], a["heads"], a["kv_heads"], a["ffn_size"]) == shape, rid
        assert (a["vocab_size"], a["tied_embeddings"]) == (96_640, False), rid
        assert float(rows[rid]["params_b"]) == pytest.approx(_llama_params(a) / 1e9, abs=1e-4), rid
