"""Held-out H501-H507 (branch ecblind42), scored blind on main 857b2d74: EasyContext's README speed table
(jzhang38/EasyContext README.md 'Speed', first commit 9b1e58ec: tokens/s on 8 A100 with Llama-2-7B, ZeRO-3 with CPU
offload, checkpointing, data parallel or zigzag ring attention over all 8 GPUs) and two ms-swift long-text example
scripts whose headers state the GPUs and seconds an iteration (ring_attention/sequence_parallel_256k.sh at de01a836,
megatron/long_text.sh at 15898fee). Each row's figure is checked here by hand against its source; no figure of the
model was set from them."""

from __future__ import annotations

import pytest

from .test_heldout_trainblind11 import _rows

# EasyContext README 'Speed' (9b1e58ec): setup -> tokens/s on 8 A100, with the sequences a step and the sequence
# length entered (the table states neither batch: ~1M tokens a step as train.sh's stages; see the rows' notes)
EASYCONTEXT = {
    "H501": ("64K, data parallel", 10240, 16, 65536, "1"),
    "H502": ("64K, ring attention", 7816, 16, 65536, "8"),
    "H503": ("128K, ring attention", 4266, 8, 131072, "8"),
    "H504": ("512K, ring attention", 2133, 2, 512000, "8"),
    "H505": ("700K, ring attention", 1603, 1, 700000, "8"),
}


def test_easycontext_rows_are_the_table_by_hand():
    """GPU-hours = 100 steps x the step's tokens / the table's tokens/s (all 8 GPUs) x 8 GPUs / 3,600; e.g. the 700K
    row: 100 x 700,000 / 1,603 = 43,668 s, x 8 / 3,600 = 97.04 GPU-hours; ZeRO-3, checkpointing, micro-batch 1."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (setup, tps, seqs, seq, cp) in EASYCONTEXT.items():
        r, c = rows[rid], conds[rid]
        assert setup in r["model"], rid
        assert f"{tps:,} tokens/s" in r["source"], rid
        assert (r["gpu"], r["gpus"], r["catalog_model"], r["precision"], r["method"]) == (
            "a100-80gb-sxm", "8", "llama-2-7b", "bf16", ""), rid  # continued pretraining
        assert (int(r["seq_len"]), int(r["global_batch_tokens"])) == (seq, seqs * seq), rid
        assert float(r["training_tokens_b"]) == pytest.approx(100 * seqs * seq / 1e9, rel=1e-6), rid
        assert float(r["gpu_hours"]) == pytest.approx(100 * seqs * seq / tps * 8 / 3600, rel=1e-5), rid
        assert (c["stack"], c["cp"], c["zero"], c["checkpointing"], c["micro_batch"], c["hours_basis"]) == (
            "deepspeed", cp, "3", "true", "1", "steady"), rid
    assert float(rows["H505"]["gpu_hours"]) == pytest.approx(97.04, abs=0.01)
    # the table's own ratio, ring over data parallel at 64K: 7,816 / 10,240 = 0.763
    assert float(rows["H501"]["gpu_hours"]) / float(rows["H502"]["gpu_hours"]) == pytest.approx(0.763, abs=1e-3)


def test_ms_swift_rows_are_the_headers_by_hand():
    """sequence_parallel_256k.sh: 'Env: 4 * A100', 'Training Speed 43s/it', 2 packed sequences of 256,000 an
    iteration (batch 1 x accumulation 2, the 4 GPUs one ring), LoRA: 100 x 43 s x 4 / 3,600 = 4.778 GPU-hours;
    long_text.sh: 4 A100, 23 s/it, global batch 8 x 32,768 under TP4, full recomputation: 2.556 GPU-hours."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    r, c = rows["H506"], conds["H506"]
    assert "Training Speed 43s/it" in r["source"] and "Env: 4 * A100" in r["source"]
    assert (r["gpus"], r["method"], int(r["seq_len"]), int(r["global_batch_tokens"])) == ("4", "lora", 256000, 512000)
    assert float(r["gpu_hours"]) == pytest.approx(100 * 43 * 4 / 3600, rel=1e-5) == pytest.approx(4.778, abs=1e-3)
    assert (c["stack"], c["cp"], c["zero"], c["liger_kernel"]) == ("deepspeed", "4", "3", "true")
    r, c = rows["H507"], conds["H507"]
    assert "Training Speed 23s/it" in r["source"] and "Env: 4 * A100" in r["source"]
    assert (r["gpus"], r["method"], int(r["seq_len"]), int(r["global_batch_tokens"])) == ("4", "full", 32768, 8 * 32768)
    assert float(r["gpu_hours"]) == pytest.approx(100 * 23 * 4 / 3600, rel=1e-5) == pytest.approx(2.556, abs=1e-3)
    assert (c["stack"], c["tp"], c["checkpointing"]) == ("megatron", "4", "true")


def test_ms_swift_h20_pair_is_the_header_by_hand():
    """flash_attention_3/transformers.sh: 'test_env: 4 * H20', fa2 35.5 s/it and fa3 32.4 s/it, 4 GPUs x 4
    accumulation x one packed 16,384-token sequence = 262,144 tokens an iteration: 100 x 35.5 x 4 / 3,600 = 3.944
    and 100 x 32.4 x 4 / 3,600 = 3.600 GPU-hours. By hand the fa2 step is at least 84 TFLOP/s a GPU (6 x 7.62B a
    token over 65,536 tokens a GPU in 35.5 s, no attention, no recomputation): 0.57 of the H20's 148 dense BF16."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, s, line in (("H508", 35.5, "fa2: 4 * 43GiB; 35.5s/it"), ("H509", 32.4, "fa3: 4 * 43GiB; 32.4s/it")):
        r, c = rows[rid], conds[rid]
        assert line in r["source"] and "test_env: 4 * H20" in r["source"], rid
        assert (r["gpu"], r["gpus"], r["method"], int(r["seq_len"]), int(r["global_batch_tokens"])) == (
            "h20-96gb-sxm", "4", "full", 16384, 4 * 4 * 16384), rid
        assert float(r["gpu_hours"]) == pytest.approx(100 * s * 4 / 3600, rel=1e-5), rid
        assert (c["stack"], c["zero"], c["liger_kernel"], c["transformers_version"]) == (
            "deepspeed", "3", "true", "4.53"), rid
    rate = 6 * 7.62e9 * 65536 / 35.5 / 1e12
    assert rate == pytest.approx(84.4, abs=0.1)
    assert rate / 148 == pytest.approx(0.57, abs=0.005)
