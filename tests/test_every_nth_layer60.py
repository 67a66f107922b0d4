"""Every N-th layer recomputed (workload.checkpoint_every_n_layers): torchtitan's per-layer selective activation
checkpointing, selective_ac_option 'N', which wraps block k of those it is handed when k % N == 0
(pytorch/torchtitan _apply_ac_to_transformer_block; torchtitan/parallelisms/parallelize_llama.py in 2024)."""

from __future__ import annotations

import pytest

from gpuwise import estimate
from gpuwise.errors import UserError
from gpuwise.estimators.planner import every_nth_share

# H767's job (pytorch/torchtitan docs/performance.md, 2024-04): Llama 3 8B on 64 A100 80GB, FSDP2 over all 64, local
# batch 1 x 8,192, selective per-layer checkpointing (option '2' of the time), uncompiled
H767 = {"task": "pretrain", "model": "llama-3-8b", "precision": "bf16", "seq_len": 8192, "batch_size": 1,
        "zero_stage": 3, "global_batch_tokens": 64 * 8192.0, "train_tokens": 1e9, "stack": "torchtitan",
        "torch_compile": False, "parallelism": {"tp": 1, "pp": 1, "cp": 1}}


def _est(**w):
    return estimate({"workload": {**H767, **w}, "constraints": {}}, gpu="a100-80gb-sxm", gpus=64)


def test_share_by_hand():
    """floor(L / N) of a stage's L layers: 32 layers every 2nd 16 (0.5); Llama 2 13B's 40 every 2nd 20; every 3rd of
    32 is blocks 3, 6, ..., 30: 10; 30 layers over 4 stages are 8 a stage (the planner's ceil), every 2nd 4 of them;
    1 every block; N above a stage's layers none."""
    assert every_nth_share(32, 1, 2) == 0.5
    assert every_nth_share(40, 1, 2) == 0.5
    assert every_nth_share(32, 1, 3) == pytest.approx(10 / 32)
    assert every_nth_share(30, 4, 2) == 0.5
    assert every_nth_share(32, 1, 1) == 1.0
    assert every_nth_share(32, 4, 9) == 0.0


def test_layout_recomputes_half_the_layers_and_half_the_extra_forward():
    """Stated as 2, the 8B's layout recomputes 16 of its 32 layers (notation 'ckpt 50%'), in place of the stack's
    per-op default for a dense model up to 10B; the step's FLOPs a token lie halfway between none and every layer
    recomputed (a recomputed layer repeats its forward: plain + share x (full - plain))."""
    half = _est(checkpoint_every_n_layers=2).gpu.training
    assert half.layout_notation.endswith("ckpt 50%")
    assert half.requested_layout.recompute_share == 0.5
    none = _est(gradient_checkpointing=False).gpu.training
    full = _est(gradient_checkpointing=True).gpu.training
    c0, c5, c1 = (t.step_terms.compute_s for t in (none, half, full))
    assert c0 < c5 < c1
    assert c5 == pytest.approx((c0 + c1) / 2, rel=0.02)


def test_contradicting_settings_refused():
    """false (nothing recomputed) or selective_op (every layer, per op) beside it says two things."""
    for ck in (False, "selective_op"):
        with pytest.raises(UserError, match="checkpoint_every_n_layers"):
            _est(checkpoint_every_n_layers=2, gradient_checkpointing=ck)
    assert _est(checkpoint_every_n_layers=2, gradient_checkpointing=True).gpu.training.layout_notation.endswith(
        "ckpt 50%")


def test_inference_refuses_it():
    with pytest.raises(UserError, match="checkpoint_every_n_layers"):
        estimate({"workload": {"task": "inference", "model": "llama-3-8b", "checkpoint_every_n_layers": 2},
                  "constraints": {}}, gpu="a100-80gb-sxm", gpus=1)


# H778's job (huggingface/trl examples/sft_qwen3_8b_1m_context): Qwen3-8B full SFT, one 1,048,576-token sequence a step
# on 8 H100, FSDP2 with context parallelism 8, every layer checkpointed
LONG = {"task": "finetune", "method": "full", "model": "qwen3-8b", "seq_len": 1048576, "train_tokens": 1e7,
        "batch_size": 1, "zero_stage": 3, "stack": "fsdp-hf", "gradient_checkpointing": True,
        "parallelism": {"tp": 1, "pp": 1, "cp": 8}}


def _long(**w):
    return estimate({"workload": {**LONG, **w}, "constraints": {}}, gpu="h100-80gb-sxm", gpus=8).gpu.training


def test_attention_kernel_runs_its_class(kb):
    """workload.attention_kernel names the backend the run calls: cudnn runs attention in the fused class (0.525 of the
    H100's dense BF16 peak, runtime.yaml attention_kernels), fa2 in FlashAttention-2's (0.35), which is fsdp-hf's own.
    At 1M tokens a step is nearly all attention, so its compute shrinks towards the two kernels' ratio: by hand the
    attention FLOPs are 6 x 36 layers x 1M x 4,096 (q width) a token against 6 x 8.2B of weights, 0.96 of the step.
    fa2 (0.35) is slower than fsdp-hf's GEMMs, so its figure caps it; cudnn (0.525) outruns them, so it runs at its
    rate at the run's length: s / (s + 880) over the figure's 16,384 / (16,384 + 880) (causal_length_tokens,
    utilization_length; global attention's span is the sequence), 1.054 x 0.525 at 1M."""
    ak = kb.runtime.training.attention_kernels
    assert ak.backends == {"fa2": "fa2", "cudnn": "fused", "fa3": "fused"}  # fa3: product61
    assert kb.runtime.training_stacks["fsdp-hf"].attention_kernel == "fa2"
    base = _long().step_terms.compute_s
    assert _long(attention_kernel="fa2").step_terms.compute_s == base
    cudnn = _long(attention_kernel="cudnn").step_terms.compute_s
    share = 36 * 1048576 * 4096 / (36 * 1048576 * 4096 + 8.19e9)
    s, c, read_at = 1048576, ak.causal_length_tokens, ak.utilization_length
    assert (c, read_at) == (880, 16384)
    at_length = (s / (s + c)) / (read_at / (read_at + c))
    ratio = ak.utilization["fa2"]["hopper"] / (ak.utilization["fused"]["hopper"] * at_length)
    assert cudnn / base == pytest.approx(1 - share + share * ratio, abs=0.03)


def test_attention_kernel_is_a_training_setting():
    with pytest.raises(UserError, match="attention_kernel"):
        estimate({"workload": {"task": "inference", "model": "llama-3-8b", "attention_kernel": "cudnn"},
                  "constraints": {}}, gpu="h100-80gb-sxm", gpus=1)


def test_unstated_kernel_is_said_on_a_named_stack():
    """Left out on a named stack, the kernel the stack's class stands for is listed as an assumption (fsdp-hf: fa2);
    stated, or with no stack named (the middle's own assumption covers it), nothing is added."""
    def said(**w):
        e = estimate({"workload": {**LONG, **w}, "constraints": {}}, gpu="h100-80gb-sxm", gpus=8)
        return [(a.value, a.message_id) for a in e.assumptions if a.field == "workload.attention_kernel"]
    assert said() == [("fa2", "assume.default.workload.attention_kernel")]
    assert said(attention_kernel="cudnn") == []
    assert said(stack="nemo") == [("cudnn", "assume.default.workload.attention_kernel")]
    unnamed = {k: v for k, v in LONG.items() if k != "stack"}
    e = estimate({"workload": unnamed, "constraints": {}}, gpu="h100-80gb-sxm", gpus=8)
    assert not [a for a in e.assumptions if a.field == "workload.attention_kernel"]


def test_a_kernel_beside_eager_attention_is_refused():
    with pytest.raises(UserError, match="attention_kernel"):
        _long(attention_kernel="cudnn", attention="eager")
