"""XTuner as a training stack (knowledge/runtime.yaml training_stacks xtuner).

XTuner's full-SFT speed benchmark (held-out H460-H474: InternLM/xtuner docs/zh_cn/legacy/acceleration/benchmark.rst at
b934f462; Llama 2 7B / 70B and Yi-34B on 8-64 A100 at 8K-1M tokens, DeepSpeed ZeRO with sequence parallelism) was
scored blind as `deepspeed`, then at 0.70: +32.4% median, every short-sequence 7B row ~+60% slow. XTuner's
dispatch_modules (xtuner/model/modules/dispatch/__init__.py @ f956b2ea) swaps a Llama's attention for
flash-attention (varlen over packed sequences) and its RMSNorm for a Triton kernel. As its own stack of the middle's
class: 12.5% median. Since branch hfmiddle60 the plain transformers code on DeepSpeed is the middle's class too
(runtime.yaml fsdp-hf's sources: ms-swift's same-job pair, LLM Foundry's table, SDPA steps on an H200), so the
two entries price a job alike; xtuner keeps its own entry for its recompute default and name."""

from __future__ import annotations

import pytest

import gpuwise

JOB = {"task": "finetune", "method": "full", "model": "llama-2-7b", "precision": "fp16", "train_tokens": 6_553_600,
       "seq_len": 8192, "batch_size": 1, "global_batch_tokens": 8 * 8192, "zero_stage": 3,
       "gradient_checkpointing": True}


def _step(stack: str) -> float:
    r = gpuwise.estimate({"workload": {**JOB, "stack": stack}}, gpu="a100-80gb-sxm", gpus=8)
    return r.gpu.training.step_terms.step_s


def test_the_entry_is_deepspeeds_engine_with_xtuners_kernels(kb):
    s, ds = kb.runtime.training_stacks["xtuner"], kb.runtime.training_stacks["deepspeed"]
    assert (s.efficiency, ds.efficiency) == (1.0, 1.0)
    assert s.devices is None  # flash-attention and Triton: any GPU those build for
    assert (s.grad_bucket_params, s.overlap_comm, s.interleaved_pipeline, s.tensor_parallel_max_zero, s.parallelism) \
        == (ds.grad_bucket_params, ds.overlap_comm, ds.interleaved_pipeline, ds.tensor_parallel_max_zero,
            ds.parallelism)
    assert "dispatch_modules" in s.source and "f956b2ea" in s.source


def test_h460s_step_is_the_middles():
    # H460: Llama 2 7B, 8K, 8 x A100, one 8K sequence a GPU a step: XTuner logged 3,028.3 tokens/s a GPU, a
    # 2.705 s step (8,192 / 3,028.3); the same engine at the same efficiency (1.0), so deepspeed's step is the same
    # (about 1 / 0.70 of it while that class was 0.70)
    xt, ds = _step("xtuner"), _step("deepspeed")
    assert ds / xt == pytest.approx(1.0, rel=1e-9)
    assert xt == pytest.approx(8192 / 3028.3, rel=0.15)  # within 15% of the published step (+12.5%)
