"""The training stack assumed when none is named (issue 22): the middle, or Megatron-Core for FP8/FP4 training."""

from __future__ import annotations

import pytest

from gpuwise import estimate

W = {"task": "pretrain", "model": "llama-3.1-8b", "train_tokens": 1e9, "seq_len": 8192,
     "global_batch_tokens": 64 * 8192}


def _attention(kb, gemm_over_peak: float, util: float) -> float:
    """Compute time over what it takes with attention at the GEMMs' rate (runtime.yaml training.attention_kernels):
    the attention share a = 6 x 32 x 8,192 x 4,096 / (6 x matmul params + that) of Llama 3.1 8B at 8,192 tokens runs
    at ``util`` of the H100's BF16 peak where that is below the GEMMs' ``gemm_over_peak``; ``util`` is a rate of
    FlashAttention's count, whose backward is 2.5 forwards to gpuwise's 2, so in gpuwise's count it is util / (3.5 / 3)
    (runtime.yaml attention_kernels benchmark_count_ratio)."""
    from gpuwise.inputs.shape import from_catalog

    shape = from_catalog(kb.models["llama-3.1-8b"])
    attn = 6 * 32 * 8192 * 4096
    a = attn / (6 * shape.matmul_params_active + attn)
    util = util / kb.runtime.training.attention_kernels.benchmark_count_ratio
    assert kb.runtime.training.attention_kernels.benchmark_count_ratio == pytest.approx(3.5 / 3, abs=1e-4)
    return 1 - a + a * gemm_over_peak / min(gemm_over_peak, util)


def _mfu(**extra) -> float:
    from gpuwise.estimators.candidate import training_job
    from gpuwise.estimators.step_time import gpu_speed
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements
    from gpuwise.knowledge import load

    kb = load()
    job = resolve(Requirements.model_validate({"workload": {**W, **extra}}), kb)
    return gpu_speed(training_job(job), kb.gpus["h100-80gb-sxm"])[1].value


def _run(**extra):
    e = estimate({"workload": {**W, **extra}}, gpu="h100-80gb-sxm", gpus=8)
    said = {a.field: a.value for a in e.assumptions}
    return e.gpu.training.step_terms.compute_s, said.get("workload.stack")


def test_bf16_without_a_stack_runs_at_the_middle():
    """runtime.yaml training_stacks: on Hopper runtime.mfu is Megatron-Core's own figure (calibrated_on), so
    the middle runs at 1 / 1.10 of it: its compute takes 1.10 x Megatron's, and the assumption says so."""
    from gpuwise.knowledge import load

    kb = load()
    middle, said = _run(precision="bf16")
    megatron, _ = _run(precision="bf16", stack="megatron")
    assert said == "middle"
    # and the middle trains with FlashAttention-2 (35% of the peak), Megatron-Core with fused kernels (0.525)
    mfu = _mfu(precision="bf16")
    assert middle / megatron == pytest.approx(
        1.10 * _attention(kb, mfu / 1.10, 0.35) / _attention(kb, mfu, 0.525), rel=1e-6)


def test_fp8_training_without_a_stack_assumes_megatron():
    """FP8 GEMMs in training come from Transformer Engine, which Megatron-Core and NeMo build their layers
    from: an FP8 run with no stack named is costed as Megatron-Core, said as an assumption. Evidence
    (tests/data/training_heldout.csv, MLPerf FP8 submissions scored without their layouts): H17-H29 41.2% ->
    24.4% median, DeepSeek-V3 (training_runs.csv R08, FP8, no stack given) +31% -> +20%."""
    fp8, said = _run(precision="fp8")
    named, _ = _run(precision="fp8", stack="megatron")
    assert said == "megatron"
    assert fp8 == pytest.approx(named, rel=1e-9)
    other, said_other = _run(precision="fp8", stack="megatron-deepspeed")
    # FP8 GEMMs at peak x MFU x the FP8 speed-up ((1 + x) / (1 / 1.6 + x), x = 7.5 r / 4,096); attention in 16 bits,
    # Megatron-DeepSpeed's FlashAttention-2 at 0.35 of the BF16 peak, Megatron-Core's fused kernels at 0.525
    from gpuwise.knowledge import load

    kb = load()
    gpu = kb.gpus["h100-80gb-sxm"]
    x = 7.5 * gpu.peaks.bf16 * 1e12 / (gpu.memory.bandwidth_gb_s * 1e9) / 4096
    gemm = _mfu(precision="fp8") * (1 + x) / (1 / 1.6 + x)
    assert said_other is None and other / named == pytest.approx(
        1.10 / 0.95 * _attention(kb, gemm * 0.95 / 1.10, 0.35) / _attention(kb, gemm, 0.525), rel=1e-6)


def test_fp8_lora_without_a_stack_assumes_megatron():
    """A LoRA fine-tune in FP8 runs on Transformer Engine's FP8 GEMMs as full training does: the MLPerf Training
    v5.1 Llama 2 70B LoRA submissions (mlcommons/training_results_v5.1, tests/data/training_heldout.csv H102-H118)
    ran NVIDIA's NeMo recipe or AMD's NeMo port, MangoBoost's LLMBoost apart. With no stack named it is costed as
    Megatron-Core and said so; in BF16 the middle stays, and QLoRA's 4-bit base is no FP8 run."""
    lora = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "train_tokens": 1e8, "seq_len": 8192,
            "global_batch_tokens": 8 * 8192}

    def said(**extra):
        e = estimate({"workload": {**lora, **extra}}, gpu="h100-80gb-sxm", gpus=8)
        return {a.field: a.value for a in e.assumptions}.get("workload.stack"), e.gpu.training.step_terms.compute_s

    fp8, t8 = said(precision="fp8")
    named, tn = said(precision="fp8", stack="megatron")
    assert fp8 == "megatron" and named is None and t8 == pytest.approx(tn, rel=1e-9)
    assert said(precision="bf16")[0] == "middle"
