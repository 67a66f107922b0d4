"""Held-out H636-H654 (branch trainblind26), scored blind on main d672653e, no MLPerf: steady step times of two training
stacks at their 2025-26 releases. KempnerForge's MFU scaling report (KempnerInstitute/KempnerForge
benchmarks/mfu_scaling/mfu_scaling.md, 2026-04-05, and its reproduction script mfu_bench.sh): Llama-3-shaped 7B / 13B /
70B with FSDP2 and tensor parallelism on 1-32 H200 in nodes of four; and five ms-swift example scripts whose headers
give the GPUs and seconds an iteration (examples/train/packing/liger_kernel.sh, examples/train/flash_attention_3/
mcore.sh, examples/megatron/fp8/benchmark.sh). Each row's tokens, hours, batch, layout and shape are checked here by
hand against its source; no figure of the model was set from them."""

from __future__ import annotations

import json

import pytest

from .test_heldout_trainblind11 import _rows
from .test_heldout_trainblind23 import _llama_params

IDS = [f"H{i}" for i in range(636, 655)]

# the report's table and the script's run lines: experiment, GPUs, nodes, model, tp, dp_shard, micro-batch,
# accumulation, compile, tok/s, step seconds
KEMPNER = {
    "H636": (1, 1, 1, "7B", 1, 1, 2, 4, True, 10_471, 3.13),
    "H637": (2, 2, 1, "7B", 1, 2, 2, 4, True, 18_728, 3.50),
    "H638": (3, 2, 1, "7B", 2, 1, 4, 2, True, 13_163, 2.49),
    "H639": (4, 4, 1, "7B", 1, 4, 4, 2, True, 38_983, 3.36),
    "H640": (5, 4, 1, "7B", 4, 1, 4, 2, True, 25_135, 1.30),
    "H641": (6, 4, 1, "7B", 2, 2, 4, 2, True, 25_980, 2.52),
    "H642": (7, 8, 2, "7B", 4, 2, 4, 2, True, 44_299, 1.48),
    "H643": (8, 8, 2, "13B", 1, 8, 4, 4, False, 35_405, 14.81),
    "H644": (9, 8, 2, "13B", 4, 2, 4, 4, True, 27_345, 4.79),
    "H645": (10, 16, 4, "7B", 4, 4, 4, 2, True, 82_988, 1.58),
    "H646": (11, 16, 4, "13B", 4, 4, 4, 4, True, 53_814, 4.87),
    "H647": (12, 32, 8, "7B", 4, 8, 4, 2, True, 155_917, 1.68),
    "H648": (13, 32, 8, "13B", 4, 8, 4, 4, True, 104_309, 5.03),
    "H649": (14, 32, 8, "70B", 4, 8, 2, 4, True, 17_657, 14.85),
}


def test_the_rows_and_their_conditions_are_entered():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid in IDS:
        assert rid in rows and rid in conds, rid
        assert rows[rid]["use"] == "1" and "trainblind26" in rows[rid]["notes"], rid
        assert "MLPerf" not in rows[rid]["source"] and conds[rid]["hours_basis"] == "steady", rid


def test_kempnerforge_rows_by_hand():
    """An iteration is dp_shard x micro-batch x accumulation x 4,096 tokens (the report's 'tokens/step/GPU' is a
    data-parallel rank's); its tok/s agree with the step seconds within their rounding; a row is 100 iterations at
    the published tok/s on every GPU. Weights, gradients and AdamW moments are bf16 (the model is kept at
    param_dtype): mixed_precision false."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (_n, g, nodes, m, tp, dp, mbs, acc, comp, toks, step) in KEMPNER.items():
        r, c = rows[rid], conds[rid]
        assert tp * dp == g, rid
        tokens = dp * mbs * acc * 4096
        assert tokens / step == pytest.approx(toks, rel=0.005), rid
        assert int(r["global_batch_tokens"]) == int(c["global_batch_tokens"]) == tokens, rid
        assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(100 * tokens, abs=1), rid
        assert float(r["gpu_hours"]) == pytest.approx(100 * tokens / toks * g / 3600, rel=1e-5), rid
        assert (r["gpu"], r["gpus"], r["seq_len"], r["precision"]) == ("h200-141gb-sxm", str(g), "4096", "bf16"), rid
        assert (c["tp"], c["pp"], c["cp"], c["micro_batch"]) == (str(tp), "1", "1", str(mbs)), rid
        assert c["zero"] == ("3" if dp > 1 else "0") and c["checkpointing"] == "true", rid
        assert c["torch_compile"] == ("true" if comp else "false") and c["mixed_precision"] == "false", rid
        assert c["network"] == ("infiniband-400" if nodes > 1 else "") and c["stack"] == "torchtitan", rid
        assert r["catalog_model"] == {"7B": "llama-3.1-8b", "13B": "", "70B": "llama-3.1-70b"}[m], rid


def test_kempnerforge_13b_shape_by_hand():
    """dim 5,120, 40 layers, 40 heads over 8 KV heads, ffn 4 x 5,120 x 2/3 x 1.3 = 17,749 rounded up to a multiple of
    256 = 17,920, 128,256-entry untied embeddings: the report's 14.84B."""
    rows = _rows("training_heldout.csv")
    assert -(-int(4 * 5120 * 2 / 3 * 1.3) // 256) * 256 == 17_920
    assert -(-int(4 * 4096 * 2 / 3 * 1.3) // 256) * 256 == 14_336  # the 7B: Llama 3 8B's width
    for rid in ("H643", "H644", "H646", "H648"):
        a = json.loads(rows[rid]["architecture_json"])
        assert (a["layers"], a["hidden_size"], a["heads"], a["kv_heads"], a["ffn_size"]) == (40, 5120, 40, 8, 17_920)
        assert (a["vocab_size"], a["tied_embeddings"]) == (128_256, False)
        assert _llama_params(a) / 1e9 == pytest.approx(14.84, abs=0.005) == pytest.approx(float(rows[rid]["params_b"]))


def test_ms_swift_rows_by_hand():
    """100 iterations at the header's s/it on its GPUs; an iteration's tokens: swift sft's GPUs x accumulation x one
    packed sequence, megatron sft's global batch of 16 packed sequences."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    cases = {  # id: (GPU, GPUs, s/it, sequence, sequences an iteration, precision, method, stack, tp, ep)
        "H650": ("a100-80gb-sxm", 4, 10.0, 16_384, 4 * 2, "bf16", "full", "deepspeed", "1", ""),
        "H651": ("h20-96gb-sxm", 4, 17.2, 8192, 16, "bf16", "lora", "megatron", "1", "4"),
        "H652": ("h20-96gb-sxm", 4, 15.2, 8192, 16, "bf16", "lora", "megatron", "1", "4"),
        "H653": ("h20-96gb-sxm", 8, 13.0, 8192, 16, "bf16", "full", "megatron", "4", ""),
        "H654": ("h20-96gb-sxm", 8, 8.0, 8192, 16, "fp8", "full", "megatron", "4", ""),
    }
    for rid, (gpu, n, secs, seq, seqs, prec, method, stack, tp, ep) in cases.items():
        r, c = rows[rid], conds[rid]
        assert (r["gpu"], r["gpus"], r["precision"], r["method"]) == (gpu, str(n), prec, method), rid
        assert float(r["gpu_hours"]) == pytest.approx(100 * secs * n / 3600, rel=1e-5), rid
        assert int(r["global_batch_tokens"]) == int(c["global_batch_tokens"]) == seqs * seq, rid
        assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(100 * seqs * seq, abs=1), rid
        assert r["seq_len"] == c["seq_len"] == str(seq), rid
        assert (c["stack"], c["tp"], c["ep"], c["micro_batch"]) == (stack, tp, ep, "1"), rid
    assert conds["H650"]["zero"] == "3" and conds["H650"]["liger_kernel"] == "true"
    # selective recomputation (attention's core only) is not full checkpointing
    assert conds["H653"]["checkpointing"] == conds["H654"]["checkpointing"] == "false"
    assert rows["H651"]["lora_targets"] == rows["H652"]["lora_targets"] == "all-linear"
    assert (rows["H651"]["moe"], rows["H651"]["catalog_model"], rows["H653"]["catalog_model"]) == (
        "1", "qwen3-30b-a3b", "qwen3-14b")
