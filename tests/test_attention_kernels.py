"""Attention at its kernel's rate (runtime.yaml training.attention_kernels, step_time.gpu_speed).

Causal attention's FLOPs run at the attention kernel's rate where that is below the GEMMs': FlashAttention-2
reaches 35% of an H100's dense peak (Shah et al. 2024, FlashAttention-3, arXiv:2407.08608, abstract); kernels
written for Hopper (FlashAttention-3, cuDNN's) 1.5x that (the low end of FlashAttention-3's 1.5-2.0x); on B200
cuDNN 9.13 reaches 1,605 / 1.3 TFLOP/s of 2,250 (Together AI, FlashAttention-4, 2026); FlashAttention-2 on a B200
(compute capability 10.0) 345.80 TFLOP/s forward and backward at best (Dao-AILab/flash-attention issue #1589), while
the RTX 50 parts (12.0), whose native tensor-core instruction is the mma.sync FlashAttention-2 issues, keep the GEMM
rate. Attention stays in 16 bits under FP8 GEMMs. The figures are rates of FlashAttention's own FLOPs count, whose
backward is 2.5 forwards (it recomputes the scores: benchmarks/benchmark_flash_attention.py), where gpuwise counts 2:
attention's time at a figure is 3.5 / 3 of gpuwise's count over the figure's rate (K below). Each test computes the
expected rate by hand from the model's shape.
"""

from __future__ import annotations

import pytest

# Phi-4 (microsoft/phi-4 config.json: 40 layers, hidden 5,120, 40 heads of 128, 10 KV heads, intermediate 17,920,
# vocabulary 100,352, untied), the shape of held-out row H98 (Phi-4-reasoning, 32k-token sequences)
PHI4 = {"layers": 40, "hidden_size": 5120, "heads": 40, "kv_heads": 10, "ffn_size": 17920, "vocab_size": 100352,
        "tied_embeddings": False}
# matmul parameters a token passes through: per layer q and o 5,120^2 each, k and v 5,120 x 1,280 each, three
# 5,120 x 17,920 MLP matrices; plus the 5,120 x 100,352 output head (the input embedding is a lookup); gpuwise's
# shape counts 0.006% more (compared with rel=1e-4 below)
PHI4_MATMUL = 40 * (2 * 5120 * 5120 + 2 * 5120 * 1280 + 3 * 5120 * 17920) + 5120 * 100352
# forward and backward of attention in FlashAttention's count (1 + 2.5 forwards) over gpuwise's (1 + 2): the kernels'
# figures are rates of the first (runtime.yaml attention_kernels benchmark_count_ratio, 1.1667 there)
K = 3.5 / 3


def _rate(kb, workload: dict, gpu: str) -> tuple[float, float]:
    from gpuwise.estimators.candidate import training_job
    from gpuwise.estimators.step_time import gpu_speed
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    job = resolve(Requirements.model_validate({"workload": workload}), kb)
    rate, mfu = gpu_speed(training_job(job), kb.gpus[gpu])
    return rate, mfu.value


def _phi4(seq: int, **extra) -> dict:
    return {"task": "pretrain", "params_b": 14.66, "architecture": PHI4, "train_tokens": 16e9, "seq_len": seq,
            **extra}


def test_flashattention2_on_hopper_slows_a_32k_fine_tune_by_its_attention_share(kb):
    """Phi-4 at 32,768 tokens on an H100 with no stack named (the middle, FlashAttention-2): attention is
    6 x 40 x 32,768 x 5,120 = 4.03e10 FLOPs per token against 6 x 14.15e9 = 8.49e10 for the matmuls, a = 0.322
    of the step; the GEMMs run at peak x MFU / 1.10 (the middle under Megatron-Core's calibrated figure), above
    FlashAttention-2's 0.35 x 989.5 TFLOP/s / K, so the step's rate is R / (1 - a + a R K / (0.35 peak))."""
    assert PHI4_MATMUL == 14_145_290_240
    attn = 6 * 40 * 32768 * 5120
    a = attn / (6 * PHI4_MATMUL + attn)
    assert a == pytest.approx(0.3218, abs=1e-4)
    rate, mfu = _rate(kb, _phi4(32768), "h100-80gb-sxm")
    peak = kb.gpus["h100-80gb-sxm"].peaks.bf16 * 1e12
    gemm = peak * mfu / 1.10
    assert gemm > 0.35 * peak
    assert rate == pytest.approx(gemm / (1 - a + a * gemm * K / (0.35 * peak)), rel=1e-4)
    assert rate / gemm == pytest.approx(0.835, abs=0.01)  # 16% slower than attention at the GEMMs' rate


def test_fused_kernels_at_the_gemm_rate_cost_next_to_nothing(kb):
    """Megatron-Core on an H100 in BF16 (attention_kernel fused, 0.525 of the peak in FlashAttention's count, 0.45
    in gpuwise's): its GEMMs on this shape run at peak x MFU = 0.532 peak, above the kernel, so the 32k step is slower
    by a x (0.532 K / 0.525 - 1), about 6%, where FlashAttention-2 costs the middle 16%; at 2,048 tokens a
    llama-2-7b's GEMMs (MFU 0.495) are above 0.45 too, and attention's small share there (6 x 32 x 2,048 x 4,096 /
    (6 x 6.48e9 + that) = 0.04) costs under 0.5%."""
    rate, mfu = _rate(kb, _phi4(32768, stack="megatron"), "h100-80gb-sxm")
    peak = kb.gpus["h100-80gb-sxm"].peaks.bf16 * 1e12
    attn = 6 * 40 * 32768 * 5120
    a = attn / (6 * PHI4_MATMUL + attn)
    gemm = peak * mfu
    assert rate == pytest.approx(gemm / (1 - a + a * gemm / min(gemm, 0.525 * peak / K)), rel=1e-4)
    assert 0.93 < rate / gemm < 0.96
    rate7, mfu7 = _rate(kb, {"task": "pretrain", "model": "llama-2-7b", "train_tokens": 1e9, "stack": "megatron"},
                        "h100-80gb-sxm")
    assert 0.525 / K < mfu7 < 0.525
    assert 0.995 < rate7 / (peak * mfu7) < 1.0


def test_attention_stays_in_16_bits_under_fp8_gemms(kb):
    """Megatron-Core in FP8 on an H100 at 8,192 tokens: the GEMMs run at peak x MFU x the FP8 speed-up
    ((1 + x) / (1 / 1.6 + x), x = 7.5 x r / 5,120, r = 989.5e12 / 3.35e12), above the fused attention kernel's
    0.525 x the BF16 peak / K, so attention's share a = 6 x 40 x 8,192 x 5,120 / (6 x 14.15e9 + that) runs at it."""
    gpu = kb.gpus["h100-80gb-sxm"]
    rate, mfu = _rate(kb, _phi4(8192, stack="megatron", precision="fp8"), "h100-80gb-sxm")
    peak = gpu.peaks.bf16 * 1e12
    x = 7.5 * peak / (gpu.memory.bandwidth_gb_s * 1e9) / 5120
    gemm = peak * mfu * (1 + x) / (1 / 1.6 + x)
    assert gemm > 0.525 * peak
    attn = 6 * 40 * 8192 * 5120
    a = attn / (6 * PHI4_MATMUL + attn)
    assert rate == pytest.approx(gemm / (1 - a + a * gemm * K / (0.525 * peak)), rel=1e-4)


def test_ampere_keeps_attention_at_the_gemm_rate(kb):
    """FlashAttention-2 reaches 50-73% of an A100's peak (Dao 2023, arXiv:2307.08691), no slower than the GEMMs
    runtime.mfu implies there: no figure for Ampere, the rate is peak x MFU whatever the sequence."""
    rate, mfu = _rate(kb, _phi4(32768), "a100-80gb-sxm")
    assert rate == pytest.approx(kb.gpus["a100-80gb-sxm"].peaks.bf16 * 1e12 * mfu, rel=1e-9)


def test_flashattention2_on_b200_runs_at_the_h100s_rate(kb):
    """Phi-4 at 32,768 tokens on a B200 with no stack named (FlashAttention-2): the GEMMs run at peak x MFU / 1.10,
    above FlashAttention-2's 0.15 x 2,250 TFLOP/s (its mma.sync kernels reach about what they reach on an H100,
    345.80 TFLOP/s in flash-attn's own benchmark on a B200, in its count), so the step's rate is
    R / (1 - a + a R K / (0.15 peak)) with a = 0.322 as on the H100: 0.256 of the peak, where attention at the GEMMs'
    rate would give 0.484."""
    rate, mfu = _rate(kb, _phi4(32768), "b200")
    peak = kb.gpus["b200"].peaks.bf16 * 1e12
    assert peak == 2250e12
    attn = 6 * 40 * 32768 * 5120
    a = attn / (6 * PHI4_MATMUL + attn)
    gemm = peak * mfu / 1.10
    assert gemm > 0.15 * peak
    assert rate == pytest.approx(gemm / (1 - a + a * gemm * K / (0.15 * peak)), rel=1e-4)
    assert rate / peak == pytest.approx(0.256, abs=0.001)
    assert gemm / peak == pytest.approx(0.484, abs=0.001)


def test_the_fa2_figure_is_keyed_to_compute_capability_10_0(kb):
    """The RTX 5090 (Blackwell, compute capability 12.0, no tcgen05: mma.sync is its native tensor-core path) and the
    B300 (10.3, no measurement) keep attention at the GEMMs' rate: peak x MFU / 1.10 whatever the sequence."""
    assert kb.gpus["rtx-5090"].architecture == kb.gpus["b200"].architecture == "blackwell"
    assert kb.gpus["b200"].compute_capability == "10.0" and kb.gpus["rtx-5090"].compute_capability == "12.0"
    for gpu in ("rtx-5090", "b300"):
        rate, mfu = _rate(kb, _phi4(32768), gpu)
        assert rate == pytest.approx(kb.gpus[gpu].peaks.bf16 * 1e12 * mfu / 1.10, rel=1e-9)


@pytest.mark.parametrize("gpu", ["rtx-5090", "rtx-pro-6000-blackwell", "gb10", "b300", "gb300"])
def test_the_fused_figure_is_keyed_to_compute_capability_10_0(kb, gpu):
    """The fused class's 0.55 is cuDNN 9.13 on a B200 (10.0): tcgen05 kernels, which the 12.x parts cannot run (cuDNN's
    attention there is 0.88x FlashAttention's on an RTX PRO 6000: huggingface/transformers pull request #48163), and
    which B300 / GB300 (10.3, twice the exponent rate) were not timed on forward and backward. So under Megatron-Core
    (a fused stack, calibrated on Blackwell and Blackwell Ultra: its own speed) attention runs at the GEMMs' rate on
    them however long the sequence: the step's rate is peak x MFU."""
    workload = dict(_phi4(32768), stack="megatron")
    rate, mfu = _rate(kb, workload, gpu)
    assert rate == pytest.approx(kb.gpus[gpu].peaks.bf16 * 1e12 * mfu, rel=1e-9)


def test_the_figures_are_the_sources(kb):
    """0.35 (FlashAttention-2 on H100), 0.35 x 1.5 (FlashAttention-3's lowest stated speed-up), 1,605 / 1.3 / 2,250
    (cuDNN 9.13 on B200); Megatron-Core, NeMo, the fused-kernel class (llm.c, nanochat) and the JAX stacks (Levanter,
    MaxText: Transformer Engine's cuDNN fused attention) run the fused kernels."""
    ak = kb.runtime.training.attention_kernels
    assert ak.utilization["fa2"]["hopper"] == 0.35
    assert ak.utilization["fa2"]["10.0"] == pytest.approx(345.80 / 2250, abs=0.005)
    assert ak.utilization["fused"]["hopper"] == pytest.approx(0.35 * 1.5)
    assert ak.utilization["fused"]["10.0"] == pytest.approx(1605 / 1.3 / 2250, abs=0.005)
    stacks = kb.runtime.training_stacks
    assert {s for s, v in stacks.items() if v.attention_kernel == "fused"} == {"megatron", "nemo", "litgpt", "llmc",
                                                                              "nanochat", "levanter", "maxtext"}


def test_the_figures_are_rates_of_flashattentions_count(kb):
    """FlashAttention's benchmark counts a forward as 4 x batch x seqlen^2 x heads x head_dim (halved if causal) and
    the backward as 2.5 of those (Dao-AILab/flash-attention benchmarks/benchmark_flash_attention.py, flops()), since
    the backward recomputes Q K^T and P before dV, dP, dQ and dK: five products to the forward's two (Dao et al. 2022,
    Algorithm 4). gpuwise counts the backward as two forwards (6 x layers x seq x width a causal token: three
    forwards of 2 x seq x width), so the ratio of the counts is (2 + 5) / (2 + 4) = 3.5 / 3."""
    ak = kb.runtime.training.attention_kernels
    assert ak.benchmark_count_ratio == pytest.approx((2 + 5) / (2 + 4), abs=1e-4)
    assert ak.benchmark_count_ratio == pytest.approx(K, abs=1e-4)
