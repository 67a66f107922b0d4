"""The training stack assumed when none is named (issue 22): the middle, or Megatron-Core for FP8/FP4 training."""

from __future__ import annotations

import pytest

from gpuwise import estimate

W = {"task": "pretrain", "model": "llama-3.1-8b", "train_tokens": 1e9, "seq_len": 8192,
     "global_batch_tokens": 64 * 8192}


def _run(**extra):
    e = estimate({"workload": {**W, **extra}}, gpu="h100-80gb-sxm", gpus=8)
    said = {a.field: a.value for a in e.assumptions}
    return e.gpu.training.step_terms.compute_s, said.get("workload.stack")


def test_bf16_without_a_stack_runs_at_the_middle():
    """runtime.yaml training_stacks: on Hopper runtime.mfu is Megatron-Core's own figure (calibrated_on), so
    the middle runs at 1 / 1.10 of it: its compute takes 1.10 x Megatron's, and the assumption says so."""
    middle, said = _run(precision="bf16")
    megatron, _ = _run(precision="bf16", stack="megatron")
    assert said == "middle"
    assert middle / megatron == pytest.approx(1.10, rel=1e-6)


def test_fp8_training_without_a_stack_assumes_megatron():
    """FP8 GEMMs in training come from Transformer Engine, which Megatron-Core and NeMo build their layers
    from: an FP8 run with no stack named is costed as Megatron-Core, said as an assumption. Evidence
    (tests/data/training_heldout.csv, MLPerf FP8 submissions scored without their layouts): H17-H29 41.2% ->
    24.4% median, DeepSeek-V3 (training_runs.csv R08, FP8, no stack given) +31% -> +20%."""
    fp8, said = _run(precision="fp8")
    named, _ = _run(precision="fp8", stack="megatron")
    assert said == "megatron"
    assert fp8 == pytest.approx(named, rel=1e-9)
    other, said_other = _run(precision="fp8", stack="deepspeed")
    assert said_other is None and other / named == pytest.approx(1.10 / 0.95, rel=1e-6)
