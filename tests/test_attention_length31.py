"""Causal attention at its kernel's rate where the kernel outruns a step's GEMMs (branch trainblind31, held-out H779).

TRL's one-million-token example (huggingface/trl examples/sft_qwen3_8b_1m_context, 2026) trains Qwen3-0.6B on one
1,048,576-token sequence a step over 8 H100s with context parallelism 8 in 137 s. Attention is 95% of that step's FLOPs;
gpuwise ran it at the GEMM rate of a 1,024-wide model on the fsdp-hf class (the figure only capped attention from
above), 420 s a step, 3.07x slow. FlashAttention's rate does not carry a narrow model's memory-bound share nor a
stack's efficiency: where the kernel at the run's length is faster than the GEMMs, attention now runs at it. The
kernel's length dependence: s / (s + c) of its unbounded rate, c = 880 (runtime.yaml attention_kernels
causal_length_tokens: the least-squares fit of the causal cuDNN forward tables in Dao-AILab/flash-attention pull request
#2605, c = 910 and 854), the utilization figures read at 16,384 tokens. Every figure below by hand from those."""

from __future__ import annotations

import pytest


def _job(kb, workload: dict):
    from gpuwise.estimators.candidate import training_job
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    return training_job(resolve(Requirements.model_validate({"workload": workload}), kb))


def test_the_length_factor_is_the_fit_by_hand(kb):
    from gpuwise.estimators.compute import attention_rate_at_length

    ak = kb.runtime.training.attention_kernels
    assert (ak.causal_length_tokens, ak.utilization_length) == (880, 16384)
    # the fit: 1 / rate linear in 1 / s over the PR's two cuDNN causal tables (1K..16K, % of the peak)
    for table, c_fit in (((25.1, 33.1, 39.1, 42.8, 44.6), 910), ((22.3, 29.2, 34.2, 37.0, 38.7), 854)):
        xs = [1 / s for s in (1024, 2048, 4096, 8192, 16384)]
        ys = [1 / u for u in table]
        mx, my = sum(xs) / 5, sum(ys) / 5
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
        assert slope / (my - slope * mx) == pytest.approx(c_fit, abs=1)
    assert (910 + 854) / 2 == 882  # 880 taken
    # at the figure's own length the kernel's rate is the figure; at 1K about 57% of it, at 1M 5% above
    assert attention_rate_at_length(1.0, 16384, 880, 16384) == pytest.approx(1.0)
    assert attention_rate_at_length(1.0, 1024, 880, 16384) == pytest.approx((1024 / 1904) / (16384 / 17264))
    assert attention_rate_at_length(1.0, 1024, 880, 16384) == pytest.approx(0.5667, abs=1e-4)
    assert attention_rate_at_length(1.0, 1_048_576, 880, 16384) == pytest.approx(1.0529, abs=1e-4)
    assert attention_rate_at_length(1.0, 1024, 0, 16384) == 1.0  # no length dependence where c is 0


def test_a_narrow_model_at_a_million_tokens_runs_attention_at_the_kernel(kb):
    """Qwen3-0.6B full SFT at 1,048,576 tokens on fsdp-hf, one H100: the step's rate is the GEMMs' R over
    1 - a + a x R / K, K the FlashAttention-2 figure (0.35 of the peak over the benchmark's count 1.1667) at 1M."""
    from gpuwise.estimators.compute import training_flops
    from gpuwise.estimators.step_time import gpu_speed

    w = {"task": "finetune", "method": "full", "model": "qwen3-0.6b", "train_tokens": 1e9, "seq_len": 1_048_576,
         "stack": "fsdp-hf", "gradient_checkpointing": True}
    tj = _job(kb, w)
    gpu = kb.gpus["h100-80gb-sxm"]
    rate, mfu = gpu_speed(tj, gpu)
    peak = gpu.peaks.bf16 * 1e12
    # the GEMMs' rate: the peak x the width's MFU x fsdp-hf's efficiency over the stack Hopper's MFU was read on
    gemm = peak * mfu.value * tj.stack_efficiency / dict(tj.stack_reference)["hopper"]
    assert tj.stack_efficiency == 1.0  # transformers' SDPA / flash code at the middle (runtime.yaml fsdp-hf's sources)
    ak = kb.runtime.training.attention_kernels
    kernel = peak * 0.35 / ak.benchmark_count_ratio * (1_048_576 / (1_048_576 + 880)) / (16384 / (16384 + 880))
    f = training_flops(tj.shape, 1.0, 1_048_576, "full", False)
    attn = 6 * 28 * 1_048_576 * 16 * 128  # 6 x layers x seq x heads x head_dim (causal), a token
    assert f.inputs["attention_flops_per_token"] == attn
    a = attn / (attn + 6 * f.inputs["matmul_params"])
    assert a == pytest.approx(0.990, abs=0.001)  # attention is nearly the whole step at 1M tokens
    assert gemm < kernel  # the narrow model's GEMMs are slower than the kernel
    assert rate == pytest.approx(gemm / (1 - a + a * gemm / kernel), rel=1e-6)
    assert rate == pytest.approx(kernel, rel=0.05)  # the step runs at about the kernel's rate
    # where the GEMM rate capped attention before, the step ran at about the GEMMs': the GEMMs at 0.241 (the width's
    # MFU) / 1.10 (Hopper's figure is Megatron-Core's) = 0.219 of the peak, the kernel at 0.35 / 1.1667 x its 1M
    # length factor = 0.316, so the step runs 1.44x the GEMMs' rate (2.06x while fsdp-hf was 0.70)
    assert rate / gemm > 1.4


def test_a_wide_model_at_8k_keeps_the_figure_as_its_cap(kb):
    """Llama 3.1 8B pretraining at 8,192 tokens on the middle stack, one H100: its GEMMs outrun FlashAttention-2's
    figure, so attention runs at the figure itself, not at its 8K rate (the length factor is not applied to the cap:
    measured, it took the held-out median from 12.45 to 12.58%)."""
    from gpuwise.estimators.compute import attention_kernel_factor
    from gpuwise.estimators.step_time import gpu_speed

    tj = _job(kb, {"task": "pretrain", "model": "llama-3.1-8b", "train_tokens": 1e9, "seq_len": 8192})
    gpu = kb.gpus["h100-80gb-sxm"]
    rate, mfu = gpu_speed(tj, gpu)
    peak = gpu.peaks.bf16 * 1e12
    gemm = peak * mfu.value * tj.stack_efficiency / dict(tj.stack_reference)["hopper"]
    ak = kb.runtime.training.attention_kernels
    kernel = peak * 0.35 / ak.benchmark_count_ratio
    assert gemm > kernel  # the 4,096-wide model's GEMMs outrun FlashAttention-2's figure
    assert rate == pytest.approx(gemm / attention_kernel_factor(tj.shape, 8192, "full", gemm, kernel).value, rel=1e-9)
    at_8k = kernel * (8192 / 9072) / (16384 / 17264)  # what the length factor would have made it: not applied
    assert rate != pytest.approx(gemm / attention_kernel_factor(tj.shape, 8192, "full", gemm, at_8k).value, rel=1e-3)
