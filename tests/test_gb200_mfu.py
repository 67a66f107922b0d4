"""runtime.yaml training.mfu_by_gpu gb200 (branch gb200eff, issue 22 items 3 and 6): the GB200 holds less of its
datasheet peak than the B200, read from NVIDIA's own tables of one recipe on both parts. The held-out runs set
nothing here (tests/data/validation/README.md, 'GB200 against B200')."""

from __future__ import annotations

import statistics

import pytest

from benchmarks import accuracy as A

# NVIDIA-NeMo/Megatron-Bridge docs/performance-summary-archive.md, DGX-GB200 and DGX-B200, Llama 3 8B in FP8 on 8 GPUs
# (TP1 PP1, global batch 128, micro-batch 2, 8,192 tokens), tokens/s per GPU: 25.09 current scaling and MXFP8,
# 25.11 current scaling and MXFP8
PAIRS = ((31357, 29994), (29925, 29388), (31508, 30624), (29789, 29521))
LLAMA3_8B = {"task": "pretrain", "model": "llama-3-8b", "precision": "fp8", "seq_len": 8192,
             "global_batch_tokens": 128 * 8192.0, "batch_size": 2, "stack": "nemo", "stack_version": "25.11",
             "parallelism": {"tp": 1, "pp": 1, "cp": 1}, "train_tokens": 1e10}


def _ratio() -> float:
    gb200 = A._step_tokens_per_gpu(LLAMA3_8B, "gb200", 8)[1]
    b200 = A._step_tokens_per_gpu(LLAMA3_8B, "b200", 8)[1]
    return gb200 / b200


def test_published_pairs_by_hand_sit_below_the_peaks_ratio(kb):
    """GB200 / B200 in the four pairs: 1.0454, 1.0183, 1.0289, 1.0091 (median 1.0236), every one under the datasheet
    peaks' 2,500 / 2,250 = 1.111 (gpus.yaml gb200 and b200, dense BF16) that one architecture figure gives both."""
    ratios = [g / b for g, b in PAIRS]
    assert ratios == pytest.approx([1.0454, 1.0183, 1.0289, 1.0091], abs=1e-4)
    assert statistics.median(ratios) == pytest.approx(1.0236, abs=1e-4)
    peaks = kb.gpus["gb200"].peaks.bf16 / kb.gpus["b200"].peaks.bf16
    assert peaks == pytest.approx(2500 / 2250)
    assert max(ratios) < peaks


def test_gpuwise_gives_the_published_ratio_on_the_recipe(kb):
    """With the B200 at runtime.mfu blackwell (0.60) and the GB200 at its own 0.555, gpuwise's step on the recipe
    gives GB200 / B200 = the published median (1.0236) within 0.5%, inside the four pairs' range (1.009-1.045) and
    under the peaks' 1.111; the architecture figure alone gave 1.095."""
    f = kb.runtime.training
    assert "b200" not in f.mfu_by_gpu and kb.runtime.mfu["blackwell"].value == 0.60
    assert f.mfu_by_gpu["gb200"].value == 0.555
    ratio = _ratio()
    assert ratio == pytest.approx(1.0236, rel=0.005)
    assert min(g / b for g, b in PAIRS) < ratio < max(g / b for g, b in PAIRS)
