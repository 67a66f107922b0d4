"""The fused training stacks' own memory (runtime.yaml training_stacks llmc, nanochat, litgpt: layer_activations,
loss_bytes_per_vocab, gradient_bytes; issue 22 item 3), against hand calculation from each stack's source and the
figures the stacks publish, and the data parallelism they alone run.

llm.c (karpathy/llm.c train_gpt2.cu at f1e2ace) sizes every activation before training (fill_in_activation_sizes)
and prints the total ('allocating N MiB for activations'); fused_classifier overwrites the bf16 logits with their
gradient. nanochat (karpathy/nanochat at 2c062aa) compiles its whole model; its dev/LOG.md gives d12 at 34 GB a GPU
in bf16 and its d26 FP8 run about 9 GB below bf16. litgpt (Lightning-AI/litgpt at 2685705) chunks its
cross-entropy over bf16 logits under autocast."""

from __future__ import annotations

import pytest

import gpuwise
from gpuwise.estimators import planner as P
from gpuwise.estimators import training_job as TJ
from gpuwise.estimators.training_layout import Layout
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements
from gpuwise.knowledge import load

# GPT-2 350M as tests/data/training_heldout.csv H95 gives it (llm.c scripts/run_gpt2_350M.sh: -b 64 -t 1024 -z 1
# -r 0 on 8 A100 80GB): 24 layers of 1,024, 16 heads, the GELU MLP of 4,096 as a three-matrix width of 2,731, the
# vocabulary padded to 50,304
GPT2_350M = {"layers": 24, "hidden_size": 1024, "heads": 16, "kv_heads": 16, "ffn_size": 2731,
             "vocab_size": 50304, "tied_embeddings": True}


def _estimate(stack: str, arch: dict, params: float, batch: int, seq: int, precision: str = "bf16", zero: int = 1,
              gpu: str = "a100-80gb-sxm", gpus: int = 8, **more):
    w = {"task": "pretrain", "params_b": params / 1e9, "train_tokens": 1e9, "seq_len": seq,
         "precision": precision, "architecture": arch, "batch_size": batch, "zero_stage": zero,
         "gradient_checkpointing": False, "stack": stack, "global_batch_tokens": batch * seq * gpus, **more}
    return gpuwise.estimate({"workload": w}, gpu=gpu, gpus=gpus)


def test_llmc_holds_what_train_gpt2_cu_allocates():
    """Per token and layer llm.c keeps ln1, q, atty, residual2, ln2 and residual3 (12 B x C), k and v (4 B x C) and
    fch / fch_gelu (16 B x C = 6 B x the three-matrix width 2,731, to its rounding): the count of Korthikanti et
    al. (12, 4, 6); the logits buffer 2 B a vocabulary entry; bf16 weights and gradients whole, 12 B of AdamW
    state and master weights sharded over 8 GPUs by ZeRO-1."""
    P_ = 354_823_000
    est = _estimate("llmc", GPT2_350M, P_, 64, 1024)
    b = est.memory.breakdown
    tokens = 64 * 1024
    layers = (12 * 1024 + 4 * 1024 + 6 * 2731) * tokens * 24
    logits = 2 * 50304 * tokens
    other = 2 * 2 * 1024 * tokens  # the embedding output and the final norm's
    assert b["activations"] == pytest.approx(layers + logits + other, abs=1)
    assert b["weights"] == pytest.approx(2 * P_, abs=1)
    assert b["gradients"] == pytest.approx(2 * P_, abs=1)
    assert b["optimizer"] == pytest.approx(12 * P_ / 8, abs=1)
    # train_gpt2.cu fill_in_activation_sizes at B 64, T 1,024, C 1,024, L 24, NH 16, Vp 50,304, recompute 0
    # (bf16 unless marked, the cuDNN build): what llm.c allocates and prints
    B, T, C, L, NH, Vp = 64, 1024, 1024, 24, 16, 50304
    bf16 = (B * T * C + L * B * T * C * 5 + L * B * T * 3 * C + 2 * L * B * T * 4 * C  # encoded; ln1 atty
            + B * T * C + B * T * max(3 * C, NH * T, Vp) + B * T * 4 * C + B * T * C)  # r2 ln2 r3; qkvr; fch(_gelu)
    fp32 = 4 * L * B * T + L * B * NH * T + 3 * B * T  # ln1/ln2 mean, rstd; cuDNN stats; lnf mean, rstd, losses
    allocated = 2 * bf16 + 4 * fp32
    assert allocated == pytest.approx(59.2e9, rel=0.001)
    assert b["activations"] == pytest.approx(allocated, rel=0.02)  # left out: the stats and scratch buffers, 1.4%
    # the whole GPU: 64.4 GB of 80 (the run's A100s), where the Hugging Face layout gave it 121 GB
    assert est.memory.per_gpu_bytes < 80e9 * 0.85


def test_nanochat_d12_against_its_log():
    """nanochat dev/LOG.md (2c062aa, 2026-01-13 'FP8 Training for lm_head', Results (d12)): the bf16 baseline at 34
    GB a GPU, base_train's defaults then (scripts/base_train.py at 2398541: --device_batch_size 32, --max_seq_len
    2,048, 8 GPUs). d12: 12 layers of 768, 6 heads of 128, the relu^2 MLP of 3,072 (a three-matrix width of 2,048),
    untied embeddings over 32,768 tokens. Hand: layers (12 x 768 + 4 x 768 + 6 x 2,048) B x 65,536 tokens x 12, the
    compiled loss 4 B x 32,768 x 65,536 (bf16 logits and their bf16 gradient)."""
    params = 12 * (4 * 768 ** 2 + 2 * 768 * 3072) + 2 * 32768 * 768
    arch = {"layers": 12, "hidden_size": 768, "heads": 6, "kv_heads": 6, "ffn_size": 2048, "vocab_size": 32768,
            "tied_embeddings": False}
    est = _estimate("nanochat", arch, params, 32, 2048, zero=2, gpu="h100-80gb-sxm")
    tokens = 32 * 2048
    hand = (12 * 768 + 4 * 768 + 6 * 2048) * tokens * 12 + 4 * 32768 * tokens + 2 * 2 * 768 * tokens
    assert est.memory.breakdown["activations"] == pytest.approx(hand, abs=1)
    assert est.memory.per_gpu_bytes == pytest.approx(34e9, rel=0.15)  # 31.2 GB; the Hugging Face layout: 57.6


def test_nanochat_fp8_saves_the_gemm_inputs_in_fp8():
    """Under --fp8 torchao's Float8Linear keeps the FP8 copies of the GEMM inputs: the QKV and MLP inputs and the
    relu^2 output drop from 2 B to 1 B, the attention output keeps its bf16 copy for the attention backward and adds
    the FP8 one (memory.ACT_COEFF megatron-fp8): (h + f) B a token and layer less. d26 at 16 x 2,048 (the
    leaderboard's Runs 2 and 3): (1,664 + 4,437) x 26 x 32,768 = 5.2 GB; nanochat's dev/LOG.md (2026-02-02 'FP8
    Training with torchao') saw about 9 GB less."""
    arch = {"layers": 26, "hidden_size": 1664, "heads": 13, "kv_heads": 13, "ffn_size": 4437, "vocab_size": 32768,
            "tied_embeddings": False}
    bf16, fp8 = (_estimate("nanochat", arch, 972_947_000, 16, 2048, precision=p, zero=2, gpu="h100-80gb-sxm")
                 for p in ("bf16", "fp8"))
    drop = bf16.memory.breakdown["activations"] - fp8.memory.breakdown["activations"]
    assert drop == pytest.approx((1664 + 4437) * 26 * 16 * 2048, abs=1)
    assert 9e9 / 2 < drop < 9e9


def test_litgpt_chunked_loss_and_fused_layers():
    """litgpt's pretrain loop holds the bf16 logits (2 B) and chunked_cross_entropy's fp32 log-softmax (4 B) until
    the backward, which leaves the logits and their bf16 gradient (2 + 2 B): 6 B a vocabulary entry. TinyLlama 1.1B
    (tests/data/training_runs.csv R16: 22 layers of 2,048, 4 KV heads of 64, SwiGLU 5,632, 32,000 tokens) at its
    published 8 x 2,048 a GPU on A100 40GB: 29 GB, within the card, as the run was."""
    arch = {"layers": 22, "hidden_size": 2048, "heads": 32, "kv_heads": 4, "ffn_size": 5632, "vocab_size": 32000,
            "tied_embeddings": False}
    est = _estimate("litgpt", arch, 1_100_048_384, 8, 2048, zero=3, gpu="a100-40gb-sxm")
    tokens = 8 * 2048
    hand = (12 * 2048 + 4 * 256 + 6 * 5632) * tokens * 22 + 6 * 32000 * tokens + 2 * 2 * 2048 * tokens
    assert est.memory.breakdown["activations"] == pytest.approx(hand, abs=1)
    assert est.memory.per_gpu_bytes < 40e9 * 0.85


def test_the_hugging_face_stacks_keep_their_own_count():
    """A stack that names no layer count (fsdp-hf) keeps the Hugging Face modules' 16-bit count (20, 4, 8) and the
    12 B loss: GPT-2 350M at llm.c's micro-batch, DP8 ZeRO-1, holds 2.2x what llm.c holds."""
    tokens = 64 * 1024
    for stack, (ch, ckv, cf, loss) in (("fsdp-hf", (20, 4, 8, 12)), ("llmc", (12, 4, 6, 2))):
        mem = TJ.training_job(_job(stack)).memory(Layout(dp=8, zero=1, micro_batch=64))
        assert mem.activations.value == pytest.approx((ch * 1024 + ckv * 1024 + cf * 2731) * tokens * 24
                                                      + loss * 50304 * tokens + 2 * 2 * 1024 * tokens, abs=1), stack


def _job(stack: str, **par):
    w = {"task": "pretrain", "params_b": 0.354823, "train_tokens": 1e9, "seq_len": 1024, "architecture": GPT2_350M,
         "stack": stack}
    if par:
        w["parallelism"] = par
    return resolve(Requirements(**{"workload": w, "constraints": {"gpus": ["h100-80gb-sxm"], "max_gpus": 16}}),
                   load())


def test_the_fused_stacks_run_data_parallel_only():
    """llm.c (llmc/zero.cuh: one process a GPU, ZeRO 0 or 1), nanochat (torchrun with DistMuonAdamW) and litgpt
    (Fabric's FSDPStrategy) split no model: every split of 16 GPUs is TP1 PP1 CP1 EP1; the middle is offered more."""
    for stack in ("llmc", "nanochat", "litgpt"):
        job = _job(stack)
        assert P.splits(TJ.training_job(job), 16, 8, 8, TJ.requested_pins(job)) == [(1, 1, 1, 1)], stack
    job = resolve(Requirements(**{"workload": {"task": "pretrain", "params_b": 0.354823, "train_tokens": 1e9,
                                               "seq_len": 1024, "architecture": GPT2_350M},
                                  "constraints": {"gpus": ["h100-80gb-sxm"]}}), load())
    assert len(P.splits(TJ.training_job(job), 16, 8, 8, TJ.requested_pins(job))) > 1
    assert TJ.pins_off_stack(_job("llmc", tp=2)) == (("tp", 2),)


def test_an_estimate_without_a_gpu_holds_the_stacks_memory_too():
    """`gpuwise estimate` without a GPU sizes the requested layout outside the planner (candidate.memory_for): it
    holds the stack's own memory as the planner does, so GPT-2 350M on llm.c at -b 64 on 8 GPUs (DP8 ZeRO-1) reads
    the same per GPU with and without an A100 named, not the Hugging Face layout's 121.6 GB."""
    w = {"task": "pretrain", "params_b": 0.354823, "train_tokens": 1e10, "seq_len": 1024, "stack": "llmc",
         "batch_size": 64, "zero_stage": 1, "gradient_checkpointing": False, "architecture": GPT2_350M,
         "global_batch_tokens": 524288}
    bare = gpuwise.estimate({"workload": w}, gpus=8).memory
    named = gpuwise.estimate({"workload": w}, gpu="a100-80gb-sxm", gpus=8).memory
    assert bare.breakdown == named.breakdown
    assert bare.breakdown["activations"] == pytest.approx(
        (12 * 1024 + 4 * 1024 + 6 * 2731) * 65536 * 24 + 2 * 50304 * 65536 + 4 * 1024 * 65536, abs=1)
