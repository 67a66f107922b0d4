"""Held-out H569-H585 (branch trainblind21), scored blind on main 13eea6f4: Scicom's published runs of Qwen3 0.6B /
1.7B on one to four GPUs (Scicom-AI-Enterprise-Organization/small-ablation how-fast-5090 at 0c7398b1 and
simple-throughput-multigpus at 9d564630; Scicom-AI-Enterprise-Organization/small-malaysian-lm at a0af01f5), Yan
Desbiens' ForgeLM 120M on one RTX 4090 (yandesbiens.com/blog/forgelm-4090-cost, 2026-06-29), and eight MLPerf
Training Llama 2 70B LoRA folders no row had used (mlcommons/training_results_v5.1 at 441d65f4,
training_results_v5.0 at 0fdc28f). Each row's tokens, GPU-hours and batch are checked here by hand against the
published figures; no figure of the model was set from them."""

from __future__ import annotations

import pytest

from .test_heldout_trainblind11 import _rows

IDS = [f"H{i}" for i in range(569, 586)]


def test_the_rows_and_their_conditions_are_entered():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid in IDS:
        assert rid in rows and rid in conds, rid
        assert rows[rid]["use"] == "1", rid
    assert {rid for rid in IDS if conds[rid]["hours_basis"] == "whole"} == {"H569", "H570"}


def test_how_fast_5090_is_one_epoch_at_the_readmes_times():
    """prepare-dataset.ipynb packs '(13298, (4096,))' blocks: 13,298 x 4,096 = 54,468,608 tokens, one epoch; 20 rows
    of 4,096 a step (the README's '81920 tokens batch size'; the RTX 5090 as 5 x 4 accumulation steps); the cost
    table's 'H100 SXM | 47 min' and 'RTX 5090 | 96 min' on one GPU each, whole run; weights, gradients and AdamW
    state in bf16."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, gpu, minutes, mb in (("H569", "h100-80gb-sxm", 47, "20"), ("H570", "rtx-5090", 96, "5")):
        r, c = rows[rid], conds[rid]
        assert (r["catalog_model"], r["gpu"], r["gpus"], r["method"]) == ("qwen3-1.7b", gpu, "1", "full"), rid
        assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(13_298 * 4_096)
        assert int(r["global_batch_tokens"]) == 20 * 4_096 == 81_920
        assert float(r["gpu_hours"]) == pytest.approx(minutes / 60, abs=5e-5), rid
        assert (c["micro_batch"], c["mixed_precision"], c["checkpointing"]) == (mb, "false", "true"), rid


def test_simple_throughput_hours_are_the_readmes_average_rates():
    """150 steps x 128 sequences of 4,096 (4 GPUs x 8 x 4, 32 x 1 or 16 x 2) = 78,643,200 tokens; GPU-hours = tokens
    over the README's average tokens/s of all four GPUs (the Trainer's num_input_tokens_seen is gathered over
    processes) x 4 GPUs."""
    rows = _rows("training_heldout.csv")
    published = (("H571", "h100-80gb-sxm", 292_000), ("H572", "h200-141gb-sxm", 300_000), ("H573", "l40s", 90_000))
    for rid, gpu, tps in published:
        r = rows[rid]
        assert (r["catalog_model"], r["gpu"], r["gpus"]) == ("qwen3-0.6b", gpu, "4"), rid
        assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(150 * 128 * 4_096)
        assert int(r["global_batch_tokens"]) == 128 * 4_096
        assert float(r["gpu_hours"]) == pytest.approx(150 * 128 * 4_096 / tps * 4 / 3600, abs=5e-5), rid


def test_small_malaysian_lm_hours_are_the_tables_rates():
    """90,955,776 tokens (the README's Malay Wikipedia count) over the 'Final results' tokens/s of configurations 1-3
    on one B200; 8 x 4,096 x 4 accumulation steps = 131,072 tokens a step; config 3 is FP8 (Transformer Engine
    DelayedScaling)."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, tps, prec, mixed in (("H574", 71_851.17, "bf16", "true"), ("H575", 76_380.13, "bf16", "false"),
                                  ("H576", 79_174.49, "fp8", "true")):
        r = rows[rid]
        assert (r["catalog_model"], r["gpu"], r["gpus"], r["precision"]) == ("qwen3-1.7b", "b200", "1", prec), rid
        assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(90_955_776)
        assert int(r["global_batch_tokens"]) == 8 * 4_096 * 4
        assert float(r["gpu_hours"]) == pytest.approx(90_955_776 / tps / 3600, abs=5e-5), rid
        assert conds[rid]["mixed_precision"] == mixed, rid
    assert 90_955_776 == 22_206 * 4_096


def test_forgelm_hours_are_the_median_rate():
    """'9.04 B tokens (17,250 steps)' at 'sustained 126,078 tok/s (median)' on one RTX 4090; 17,250 x 2^19 = 9.044B,
    the batch entered (the post gives none)."""
    r = _rows("training_heldout.csv")["H577"]
    assert (r["gpu"], r["gpus"], r["catalog_model"]) == ("rtx-4090", "1", "")
    assert float(r["params_b"]) == pytest.approx(112_678_656 / 1e9, abs=5e-5)
    assert float(r["gpu_hours"]) == pytest.approx(9.04e9 / 126_078 / 3600, abs=5e-4)
    assert 17_250 * int(r["global_batch_tokens"]) / 1e9 == pytest.approx(9.04, abs=0.005)


def test_mlperf_lora_rows_are_the_logs_by_hand():
    """10 successful runs each: tokens = the mean run_stop samples_count x 8,192; GPU-hours = 8 x the mean summed
    block_start..block_stop minutes / 60 (Krai's MI300X on AMD's v5.0 code: 3,072 samples, 25.459 min; QCT's
    MI325X: v5.1 3,072 and 18.658 min, v5.0 3,148.8 and 19.750 min; H100 in 2024: NVIDIA's Eos 3,148.8 / 24.653
    min on 8 and 4.465 min on 64 (v4.0), 3,225.6 / 24.766 min (v4.1), Red Hat 28.222 and Supermicro 27.980 min on
    8 (v4.0)); global batch 8 packed sequences of 8,192; the layouts from the configs (TP4 CP1 on 8, TP4 CP2 on
    64; Supermicro's TP_COMM_OVERLAP False)."""
    rows = _rows("training_heldout.csv")
    published = (("H578", "mi300x", 8, 3072.0, 25.459), ("H579", "mi325x", 8, 3072.0, 18.658),
                 ("H580", "mi325x", 8, 3148.8, 19.750), ("H581", "h100-80gb-sxm", 8, 3148.8, 24.653),
                 ("H582", "h100-80gb-sxm", 64, 3148.8, 4.465), ("H583", "h100-80gb-sxm", 8, 3225.6, 24.766),
                 ("H584", "h100-80gb-sxm", 8, 3225.6, 28.222), ("H585", "h100-80gb-sxm", 8, 3225.6, 27.980))
    for rid, gpu, gpus, samples, minutes in published:
        r = rows[rid]
        assert (r["catalog_model"], r["gpu"], r["gpus"], r["method"], r["lora_targets"]) == (
            "llama-2-70b", gpu, str(gpus), "lora", "attention"), rid
        assert float(r["training_tokens_b"]) == pytest.approx(samples * 8192 / 1e9, abs=1e-6), rid
        assert float(r["gpu_hours"]) == pytest.approx(gpus * minutes / 60, abs=5e-4), rid
        assert int(r["global_batch_tokens"]) == 8 * 8192
    conds = _rows("training_conditions.csv")
    for rid, cp in (("H581", "1"), ("H582", "2"), ("H583", "1"), ("H584", "1"), ("H585", "1")):
        assert (conds[rid]["stack"], conds[rid]["tp"], conds[rid]["cp"]) == ("nemo", "4", cp), rid
    assert conds["H585"]["tp_comm_overlap"] == "false"  # Supermicro's config: TP_COMM_OVERLAP=False
