"""XTuner as a training stack (knowledge/runtime.yaml training_stacks xtuner).

XTuner's full-SFT speed benchmark (held-out H460-H474: InternLM/xtuner docs/zh_cn/legacy/acceleration/benchmark.rst at
b934f462; Llama 2 7B / 70B and Yi-34B on 8-64 A100 at 8K-1M tokens, DeepSpeed ZeRO with sequence parallelism) was
scored blind as `deepspeed`, whose 0.70 describes eager transformers code (DeepSpeed issue #3901's Falcon-7B): +32.4%
median, every short-sequence 7B row ~+60% slow. XTuner does not train eager code: dispatch_modules
(xtuner/model/modules/dispatch/__init__.py @ f956b2ea) swaps a Llama's attention for flash-attention (varlen over
packed sequences) and its RMSNorm for a Triton kernel. As its own stack of the middle's class: 12.5% median."""

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
    assert (s.efficiency, ds.efficiency) == (1.0, 0.70)
    assert s.devices is None  # flash-attention and Triton: any GPU those build for
    assert (s.grad_bucket_params, s.overlap_comm, s.interleaved_pipeline, s.tensor_parallel_max_zero, s.parallelism) \
        == (ds.grad_bucket_params, ds.overlap_comm, ds.interleaved_pipeline, ds.tensor_parallel_max_zero,
            ds.parallelism)
    assert "dispatch_modules" in s.source and "f956b2ea" in s.source


def test_h460s_step_is_the_middles_not_eager_codes():
    # H460: Llama 2 7B, 8K, 8 x A100, one 8K sequence a GPU a step: XTuner logged 3,028.3 tokens/s a GPU, a
    # 2.705 s step (8,192 / 3,028.3); compute is nearly all of the step, so deepspeed's is about 1 / 0.70 of it
    xt, ds = _step("xtuner"), _step("deepspeed")
    assert ds / xt == pytest.approx(1 / 0.70, rel=0.03)
    assert xt == pytest.approx(8192 / 3028.3, rel=0.15)  # within 15% of the published step (+12.5%)
