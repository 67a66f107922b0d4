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
    32,768 MiB x 0.95 = 32.64 GB (it read 34.8 GB of 30.4 before)."""
    q = yaml.safe_load(Q.read_text())
    assert q["workload"]["stack"] == "megatron-deepspeed"
    r = estimate(q, gpu="v100-32gb-sxm2", gpus=1)
    hf = yaml.safe_load(Q.read_text())
    del hf["workload"]["stack"]
    h = estimate(hf, gpu="v100-32gb-sxm2", gpus=1)
    assert h.memory.breakdown["activations"] - r.memory.breakdown["activations"] == 6 * 50_257 * 10_240
    assert r.memory.capacity_per_gpu_bytes == 32_768 * 2**20
    assert r.memory.usable_per_gpu_bytes == pytest.approx(0.95 * 32_768 * 2**20)
    assert r.gpu.fits and not h.gpu.fits
