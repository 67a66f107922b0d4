"""The loss's memory is the stack's: Megatron's vocabulary-parallel cross-entropy works in place on one fp32 copy
of the 16-bit logits (NVIDIA/Megatron-LM megatron/mpu/cross_entropy.py, _VocabParallelCrossEntropy: the max is
subtracted, exponentiated and divided in place, that tensor is saved as the softmax and the backward computes the
gradient in it), 4 B + the 16-bit logits' 2 B = 6 B a vocabulary entry a token, where Hugging Face's loss keeps the
fp32 log-softmax and its backward's two temporaries (12 B). And a V100 32GB is nvidia-smi's 32,768 MiB.

The question that found both: the ZeRO-Offload tutorial's 10B GPT-2 on one V100 (tests/data/buyer_questions)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpuwise import estimate
from gpuwise.estimators.memory import TrainSetup, logits_bytes_per_token

Q = Path(__file__).parent / "data" / "buyer_questions" / "gpt2-10b-zero-offload-1xv100.yaml"


def test_the_stacks_that_run_megatrons_loss_hold_six_bytes(kb):
    stacks = kb.runtime.training_stacks
    # Megatron's three, and the fused stacks' own losses (tests/test_stack_memory.py): litgpt's chunked
    # cross-entropy 6, llm.c's in-place classifier 2, nanochat's compiled loss 4, Fast-LLM's Triton loss 4
    own = {"megatron": 6, "nemo": 6, "megatron-deepspeed": 6, "litgpt": 6, "llmc": 2, "nanochat": 4,
           "fast-llm": 4}
    assert {n: s.loss_bytes_per_vocab for n, s in stacks.items() if s.loss_bytes_per_vocab is not None} == own
    plain = TrainSetup("full", "fp16", True, "adamw", 10, 1024, True, "sdpa", 2, "cpu", 1)
    assert logits_bytes_per_token(plain) == 12
    assert logits_bytes_per_token(TrainSetup("full", "fp16", True, "adamw", 10, 1024, True, "sdpa", 2, "cpu", 1,
                                             loss_bytes=6.0)) == 6


def test_the_tutorials_gpt2_on_megatron_saves_six_bytes_a_vocabulary_entry_a_token():
    """10 sequences x 1,024 tokens, GPT-2's 50,257 entries: (12 - 6) x 50,257 x 10,240 = 3,087,790,080 B fewer
    activations than the same job on the Hugging Face loss, and the whole need, 31.5 GB, within the V100's
    32,768 MiB x 0.95 = 32.64 GB (it read 34.8 GB of 30.4 before).

    The Hugging Face job's micro-batch of 10 fits in no layout of the file's settings (34.8 GB), so since planner66
    it is planned at 5 with 2 accumulation steps (held_plan.held_smaller; MEM-MICRO-BATCH-HELD says so): the loss is
    compared at the micro-batch asked, the stated layout's memory (training.requested_memory_breakdown), and at 5 the
    activations are half of those at 10 (a layer's activations and the logits are linear in the micro-batch:
    Korthikanti et al. 2022, arXiv:2205.05198, section 4)."""
    q = yaml.safe_load(Q.read_text())
    assert q["workload"]["stack"] == "megatron-deepspeed"
    r = estimate(q, gpu="v100-32gb-sxm2", gpus=1)
    hf = yaml.safe_load(Q.read_text())
    del hf["workload"]["stack"]
    h = estimate(hf, gpu="v100-32gb-sxm2", gpus=1)
    asked_h, asked_r = h.gpu.training.requested_memory_breakdown, r.gpu.training.requested_memory_breakdown
    assert asked_r == r.memory.breakdown  # Megatron's loss: planned as asked
    assert asked_h["activations"] - asked_r["activations"] == 6 * 50_257 * 10_240
    assert sum(asked_h.values()) == h.gpu.training.requested_memory_per_gpu_bytes > h.memory.usable_per_gpu_bytes
    assert r.memory.capacity_per_gpu_bytes == 32_768 * 2**20
    assert r.memory.usable_per_gpu_bytes == pytest.approx(0.95 * 32_768 * 2**20)
    assert r.gpu.fits and r.gpu.fits_as_requested and not h.gpu.fits_as_requested
    assert (h.gpu.layout.micro_batch, h.gpu.layout.grad_accum) == (5, 2)
    assert 2 * h.memory.breakdown["activations"] == asked_h["activations"]
