"""An MoE model's pretraining with no micro-batch given, on a stack whose recipes set it per system (branch bare57):
the per-expert host launches of an MoE layer (runtime.yaml training.moe_dispatch) are paid once a micro-batch, so at one
sequence a micro-step the host can outrun a fast GPU's work, and Megatron-Bridge's recipes raise the micro-batch
there: Qwen3-30B-A3B in MXFP8 on 8 GB200 at micro_batch_size 4 (NVIDIA-NeMo/Megatron-Bridge
src/megatron/bridge/recipes/qwen/gb200/qwen3_moe.py at 487f5639; held-out H691, its verification card's step 12.362 s
at 512 sequences of 4,096 tokens), 1 on 16 H100 in BF16 (recipes/qwen/h100/qwen3_moe.py at 5b9d9cf5). megatron and
nemo list moe_micro_batches [2, 4, 8]: the planner also tries those where the user gives no batch_size, and keeps the
fastest that fits."""

from __future__ import annotations

import pytest

from gpuwise import estimate, knowledge

SEQ = 4096
H691 = {"task": "pretrain", "model": "qwen3-30b-a3b", "train_tokens": 100 * 512 * SEQ, "seq_len": SEQ,
        "precision": "fp8", "global_batch_tokens": 512 * SEQ}


def _train(**extra):
    return estimate({"workload": {**H691, **extra}}, gpu="gb200", gpus=8)


def test_the_megatron_core_stacks_list_the_micro_batches_and_no_other_does():
    stacks = knowledge.load().runtime.training_stacks
    assert {k for k, s in stacks.items() if s.moe_micro_batches} == {"megatron", "nemo"}
    assert stacks["nemo"].moe_micro_batches == [2, 4, 8]


def test_the_kept_micro_batch_is_the_fastest_of_those_tried():
    """FP8 assumes Megatron-Core (training_job.default_stack). At one sequence a micro-step the layers wait on the host;
    on layouts without pipeline stages (where the micro-batches are tried) the estimate without a batch_size is the
    fastest of the estimates stating 1, 2, 4 and 8, and hides the host."""
    flat = {"parallelism": {"pp": 1}}
    bare = _train(**flat)
    pinned = {mb: _train(batch_size=mb, **flat) for mb in (1, 2, 4, 8)}
    steps = {mb: e.gpu.training.step_terms.step_s for mb, e in pinned.items()}
    assert pinned[1].gpu.training.step_terms.moe_host_wait_s > 0
    assert bare.gpu.layout.micro_batch in (2, 4, 8)
    assert bare.gpu.training.step_terms.step_s == pytest.approx(min(steps.values()), rel=1e-9)
    assert bare.gpu.training.step_terms.moe_host_wait_s == 0
    # against the card's 12.362 s a step: one sequence a micro-step reads past 2x, the recipe's micro-batch does not
    assert steps[1] / 12.362 > 2 and 0.5 < _train().gpu.training.step_terms.step_s / 12.362 < 2


def test_said_as_the_assumption():
    said = [a for a in _train().assumptions if a.field == "workload.batch_size"]
    assert [a.message_id for a in said] == ["assume.default.workload.batch_size.moe"]
    assert said[0].values["sizes"] == "2, 4, 8"


def test_one_sequence_for_a_fine_tune_a_given_batch_the_middle_stack_and_a_dense_model():
    """The SFT and LoRA cards keep micro_batch_size 1 (Megatron-Bridge's verification cards, held-out H676-H683);
    the middle names no micro-batches; a dense model's step does not wait on expert launches."""
    assert _train(task="finetune", method="full").gpu.layout.micro_batch == 1
    assert _train(batch_size=1).gpu.layout.micro_batch == 1
    assert _train(precision="bf16").gpu.layout.micro_batch == 1
    dense = estimate({"workload": {**H691, "model": "llama-3.1-8b"}}, gpu="gb200", gpus=8)
    assert dense.gpu.layout.micro_batch == 1
