"""ServiceNow's Fast-LLM as a training stack (branch trainblind14; knowledge/runtime.yaml training_stacks fast-llm,
read from ServiceNow/Fast-LLM at 7ba5a991): litgpt's fused class, its Triton loss's 4 B a vocabulary entry, tensor and
pipeline parallelism beside ZeRO 1-3, no offload, and below compute capability 8.0 (no FlashAttention-2) attention
through its own unfused path at the rate of its score traffic."""

from __future__ import annotations

import pytest

import gpuwise
from gpuwise.estimators import compute as C
from gpuwise.inputs.shape import from_catalog

# SmolLM2-135M's shape (the catalog's smollm2-135m): 30 layers of 576, 9 heads of 64 over 3, SwiGLU 1,536
SMOLLM2 = {"layers": 30, "hidden_size": 576, "heads": 9, "kv_heads": 3, "ffn_size": 1536, "vocab_size": 49152,
           "tied_embeddings": True}


def _step(stack: str, gpu: str, precision: str = "bf16"):
    w = {"task": "pretrain", "params_b": 0.1345, "train_tokens": 1e9, "seq_len": 1024, "precision": precision,
         "architecture": SMOLLM2, "batch_size": 8, "zero_stage": 1, "gradient_checkpointing": False, "stack": stack,
         "global_batch_tokens": 8 * 1024 * 8, "parallelism": {"tp": 1, "pp": 1}}
    return gpuwise.estimate({"workload": w}, gpu=gpu, gpus=8).gpu.training.step_terms


def test_the_entry_is_the_code_read(kb):
    s = kb.runtime.training_stacks["fast-llm"]
    lit = kb.runtime.training_stacks["litgpt"]
    assert (s.efficiency, s.memory_bound_scale) == (lit.efficiency, lit.memory_bound_scale) == (1.0, 0.4)
    assert s.loss_bytes_per_vocab == 4 and s.layer_activations == "korthikanti" and s.gradient_bytes is None
    assert s.parallelism == ["tensor", "pipeline"] and s.zero_stages == [1, 2, 3] and s.offload is False
    assert s.unfused_attention_below == "8.0" and s.attention_kernel == "fa2"


def test_attention_unfused_below_ampere_only():
    """On an A100 (8.0) Fast-LLM runs FlashAttention-2 and its step is litgpt's (same class, same compute); on a V100
    (7.0) it has none, and its attention at the unfused rate makes the compute longer than litgpt's there."""
    a_fast, a_lit = _step("fast-llm", "a100-80gb-sxm"), _step("litgpt", "a100-80gb-sxm")
    assert a_fast.compute_s == pytest.approx(a_lit.compute_s, rel=1e-9)
    v_fast, v_lit = _step("fast-llm", "v100-32gb-sxm2", "fp16"), _step("litgpt", "v100-32gb-sxm2", "fp16")
    assert v_fast.compute_s > v_lit.compute_s * 1.05


def test_unfused_rate_by_hand(kb):
    """The unfused path's rate, counted as training_flops counts causal attention: 6 x width x bandwidth / (heads x
    22 B of score traffic a score); for SmolLM2-135M's 9 heads of 64 at 900 GB/s, 6 x 576 x 9e11 / (9 x 22) =
    15.7 TFLOP/s, far below a V100's 125 TFLOPS fp16 peak."""
    shape = from_catalog(kb.models["smollm2-135m"])
    assert C.unfused_attention_rate(shape, 9e11) == pytest.approx(6 * 576 * 9e11 / (9 * 22), rel=1e-9)
    assert C.unfused_attention_rate(shape, 9e11) == pytest.approx(15.71e12, rel=0.001)
