"""A stack's own per-GPU batch when the workload gives none (branch moetrain37): torchtitan's
Training.local_batch_size defaults to 8 sequences at every release (pytorch/torchtitan torchtitan/config/job_config.py
at v0.1.0 f7084fc7, v0.2.0 29624e37, v0.2.2 73a0e697), its global batch defaults to local x data-parallel degree, and
torchtitan/train.py (v0.2.0) asserts global % (local x dp_degree) == 0 and accumulates global / (local x dp)
micro-steps; a pipeline splits the local batch into micro-batches of pipeline_parallel_microbatch_size, default 1.
Under FSDP each micro-step gathers and reduce-scatters the sharded weights once, so one micro-step of 8 sequences
moves them once where eight micro-steps of one move them eight times. Held-out H224 (Arcee's Trinity Large on
torchtitan: 16,384 sequences of 8,192 tokens a step on 2,048 B300, FSDP groups of 128, arXiv:2602.17004) is 16,384 /
2,048 = 8 sequences a GPU."""

from __future__ import annotations

from gpuwise import estimate, knowledge

SEQ = 4096


def _layout(seqs_per_gpu: int, stack: str | None = "torchtitan", **extra):
    w = {"task": "pretrain", "model": "llama-3.1-8b", "train_tokens": 1e10, "seq_len": SEQ, "precision": "bf16",
         "global_batch_tokens": 16 * seqs_per_gpu * SEQ, "zero_stage": 3, "gradient_checkpointing": True,
         **({"stack": stack} if stack else {}), **extra}
    w.setdefault("parallelism", {"tp": 1, "pp": 1})
    return estimate({"workload": w}, gpu="h100-80gb-sxm", gpus=16).gpu.layout


def test_torchtitan_states_its_local_batch_and_no_other_stack_does():
    stacks = knowledge.load().runtime.training_stacks
    assert {k for k, s in stacks.items() if s.local_batch} == {"torchtitan"}
    assert stacks["torchtitan"].local_batch == 8


def test_zero3_on_torchtitan_runs_its_local_batch_in_whole_micro_steps():
    """16 GPUs x 16 sequences each: 2 micro-steps of 8 (torchtitan's default), not 16 of one."""
    lay = _layout(16)
    assert (lay.micro_batch, lay.grad_accum) == (8, 2)
    assert lay.global_batch_tokens == 16 * 16 * SEQ


def test_one_sequence_where_the_stack_has_no_default_or_the_user_gives_one():
    assert (_layout(16, None).micro_batch, _layout(16, None).grad_accum) == (1, 16)
    assert _layout(16, "megatron").micro_batch == 1
    assert (_layout(16, batch_size=1).micro_batch, _layout(16, batch_size=1).grad_accum) == (1, 16)


def test_not_where_the_local_batch_does_not_divide_the_global_batch():
    """12 sequences a GPU: torchtitan's assert (12 % 8 != 0) refuses local batch 8, so one sequence a micro-step."""
    assert _layout(12).micro_batch == 1


def test_not_on_a_pipeline():
    """A pipeline runs micro-batches of pipeline_parallel_microbatch_size, one sequence by default."""
    lay = _layout(16, parallelism={"tp": 1, "pp": 2}, zero_stage=1)
    assert lay.pp == 2 and lay.micro_batch == 1


def test_the_assumption_names_the_stack_default():
    w = {"task": "pretrain", "model": "llama-3.1-8b", "train_tokens": 1e10, "stack": "torchtitan"}
    said = [a for a in estimate({"workload": w}, gpu="h100-80gb-sxm", gpus=16).assumptions
            if a.field == "workload.batch_size"]
    assert [a.message_id for a in said] == ["assume.default.workload.batch_size.stack"]
    assert said[0].values == {"stack": "TorchTitan", "n": 8}
