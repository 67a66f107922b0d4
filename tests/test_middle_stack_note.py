"""The assumption a training estimate lists when no stack is named (branch smalltrain52): the middle's speed with its
norms, activations and loss unfused, and the other stacks' figures as knowledge/runtime.yaml gives them (they were
written into the sentence by hand before, and had drifted: 'DeepSpeed 0.95' after DeepSpeed on a transformers model
became the fsdp-hf class, then at 0.70, with 0.95 Megatron-DeepSpeed's; the class is the middle, 1.0, since branch
hfmiddle60). On 1-8 GPUs the held-out runs read 17.6% median
without their stated stack against 14.1% with it (benchmarks/bare_attribution.py; tests/data/validation/README.md,
branch smalltrain52): small models on fused trainers, which the note tells the user to state."""

from __future__ import annotations

import pytest

from gpuwise import estimate


def _stack_note(workload: dict):
    est = estimate({"workload": {"task": "pretrain", "train_tokens": 1e9, **workload}}, gpu="h100", gpus=4)
    return [a for a in est.assumptions if a.field == "workload.stack"]


def test_the_middle_note_carries_the_stacks_figures(kb):
    (a,) = _stack_note({"model": "qwen3-0.6b"})
    assert a.value == "middle" and a.message_id == "assume.default.workload.stack"
    st = kb.runtime.training_stacks
    assert a.values == {"megatron": 1.10, "megatron_deepspeed": 0.95, "hf": 1.0, "unsloth": 1.2, "fused": 0.4}
    assert (st["megatron"].efficiency, st["megatron-deepspeed"].efficiency, st["fsdp-hf"].efficiency,
            st["unsloth"].efficiency, kb.runtime.training.compiled_memory_bound_scale.value) == (
        pytest.approx(1.10), pytest.approx(0.95), pytest.approx(1.0), pytest.approx(1.2), pytest.approx(0.4))
    assert "Megatron-DeepSpeed 0.95" in a.reason and "Axolotl 1," in a.reason and "pays 0.4 of" in a.reason


def test_much_of_a_narrow_models_step_is_memory_bound(kb):
    """The note's 'much of a narrow model's step', by hand from the MFU model (runtime.yaml training.mfu_memory_bound_k
    7.5, r = the H100's 989.5 TFLOP/s over 3.35 TB/s = 295 FLOP/B): the memory-bound share of a step is x / (1 + x),
    x = k r / width: Qwen3-0.6B (1,024 wide) 0.68, a 4,096-wide model 0.35."""
    k = kb.runtime.training.mfu_memory_bound_k.value
    r = 989.5e12 / 3.35e12
    share = {w: k * r / w / (1 + k * r / w) for w in (1024, 4096)}
    assert share[1024] == pytest.approx(0.684, abs=0.002) and share[4096] == pytest.approx(0.351, abs=0.002)


def test_a_named_stack_or_fp8_says_no_middle_note():
    assert _stack_note({"model": "qwen3-0.6b", "stack": "nanochat"}) == []
    (a,) = _stack_note({"model": "qwen3-0.6b", "precision": "fp8"})
    assert a.value == "megatron" and a.message_id == "assume.stack.low_precision_pretraining"
