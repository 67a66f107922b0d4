"""Why gpuwise reads the NeMo 25.04 Blackwell training rows fast (issue 22 items 3 and 6, branch trainmech): what it
charges a BF16 MoE step on GB200 against an FP8 one, checked by hand and against NVIDIA's own BF16 / FP8 pairs of one
model on Blackwell. The held-out rows H379-H386 set nothing here."""

from __future__ import annotations

import pytest

from gpuwise import estimate
from gpuwise.estimators.compute import fp8_speedup, training_flops, width_for_mfu
from gpuwise.inputs.shape import from_catalog


def test_deepseek_v3_fp8_speed_up_on_gb200_by_hand(kb):
    """FP8 speeds only the matmuls: (1 + x) / (1 / 1.6 + x), x = k r / width (runtime.yaml training.fp8_speedup).
    DeepSeek-V3 (config.json: hidden 7,168, experts 2,048 wide, 8 routed + 1 shared a token, MLA ranks 1,536 / 512)
    has 187,105,280 attention weights a layer and 3 x 7,168 x 2,048 x 9 = 396,361,728 expert weights a token; the
    experts' harmonic width 2 x 7,168 x 2,048 / 9,216 = 3,185.8, so the FLOP-weighted width is 3,876.4. On GB200
    (NVIDIA GB200 NVL72 spec table: 2,500 TFLOPS dense BF16, 8 TB/s) r = 312.5 FLOP a byte, x = 7.5 x 312.5 /
    3,876.4 = 0.605 and the speed-up 1.605 / 1.230 = 1.305: an FP8 step of this model is about 1.3x a BF16 one, not
    the peaks' 2x."""
    s = from_catalog(kb.models["deepseek-v3"])
    attn, experts = 187_105_280, 3 * 7168 * 2048 * 9
    assert s.attn_params_per_layer() == attn
    share = experts / (attn + experts)
    h_moe = 2 * 7168 * 2048 / (7168 + 2048)
    width = 1 / ((1 - share) / 7168 + share / h_moe)
    assert width == pytest.approx(3876.4, abs=0.1)
    assert width_for_mfu(s) == pytest.approx(width)
    x = 7.5 * (2500e12 / 8000e9) / width
    assert x == pytest.approx(0.6046, abs=1e-4)
    f = kb.runtime.training
    got = fp8_speedup(s, kb.gpus["gb200"], 2500, gemm_speedup=f.fp8_gemm_speedup.value, k=f.mfu_memory_bound_k.value)
    assert got.value == pytest.approx((1 + x) / (1 / 1.6 + x)) == pytest.approx(1.305, abs=0.001)


def test_h386_flops_count_is_nvidias(kb):
    """The NeMo 25.04.01 DeepSeek-V3 recipe's own log on 128 GB200 (NVIDIA/dgxc-benchmarking
    deepseek_v3/pretrain/README.md at 856bfc4, release 25.07, same container as H386): 34.229 s a step at GBS 1,024
    x 4,096 and 248.85 TFLOP/s a GPU, so NVIDIA counts 248.85e12 / (4,194,304 / 34.229 / 128) = 2.60e11 FLOPs a token;
    gpuwise's count (6 x 36.6B matmul weights plus causal MLA attention, 3.07e10) is 2.50e11, 3.7% under: the run's
    multi-token-prediction module, 1.02e10, makes up the rest to 0.3%. The run
    held 248.85 / 2,450 = 10.2% of the BF16 peak NVIDIA divides by, where gpuwise's step (3,793 tokens/s a GPU)
    holds four times that: the gap is the run's time, not a FLOP count."""
    tokens_s_gpu = 1024 * 4096 / 34.229 / 128
    nvidia = 248.85e12 / tokens_s_gpu
    assert tokens_s_gpu == pytest.approx(957.3, abs=0.1)
    assert nvidia == pytest.approx(2.60e11, rel=0.005)
    ours = training_flops(from_catalog(kb.models["deepseek-v3"]), 1.0, 4096, "full", False)
    assert ours.inputs["attention_flops_per_token"] == pytest.approx(6 * 61 * 4096 * 128 * (128 + 64 + 128) / 2)
    assert ours.value / nvidia == pytest.approx(0.963, abs=0.003)
    # the recipe trains one multi-token-prediction module (nemo/collections/llm/recipes/deepseek_v3.py at 7a8f1cc7:
    # pretrain_recipe use_mtp=True, mtp_num_layers=1), which NVIDIA counts and gpuwise has no input for: one more MoE
    # layer (187,105,280 attention + 9 x 3 x 7,168 x 2,048 expert + 7,168 x 256 router weights, and its attention),
    # the 2 x 7,168 -> 7,168 projection and another pass through the 7,168 x 129,280 output head, 6 FLOPs a weight
    layer = 6 * (187_105_280 + 9 * 3 * 7168 * 2048 + 7168 * 256) + 6 * 4096 * 20480
    mtp = layer + 6 * (2 * 7168 * 7168 + 7168 * 129280)
    assert mtp == pytest.approx(1.019e10, rel=1e-3)
    assert (ours.value + mtp) / nvidia == pytest.approx(1.0, abs=0.005)


def _tokens_s_gpu(gpu: str, precision: str, pp: int, ep: int, n: int = 256) -> float:
    w = {"task": "pretrain", "model": "deepseek-v3", "precision": precision, "seq_len": 4096,
         "global_batch_tokens": 4096.0 * 4096, "batch_size": 1, "stack": "nemo", "stack_version": "25.11",
         "parallelism": {"tp": 1, "pp": pp, "vpp": 4, "ep": ep}, "train_tokens": 1e10}
    t = estimate({"workload": w, "constraints": {"max_gpus": n}}, gpu=gpu, gpus=n).gpu.training
    return t.global_batch_tokens / t.step_terms.step_s / n


def test_bf16_over_fp8_is_nvidias_own_ratio_on_blackwell():
    """gpuwise prices a BF16 DeepSeek-V3 step on Blackwell at about 0.83 of the FP8 one (the BF16 peak, no FP8
    factor; the FP8 step's matmuls 1.6x faster, its quantization passes paid). NVIDIA's own pairs of the model in
    one release (NVIDIA-NeMo/Megatron-Bridge docs/performance-summary-archive.md, 25.11 NeMo container, DeepSeekV3
    without MTP, 256 GPUs, GBS 4,096, MBS 1, TP1 VP4): DGX-GB300 at PP2 EP32, BF16 3,848 and FP8-MX 4,357 tokens/s a
    GPU, 0.883 on one layout; DGX-GB200, BF16 3,139 at PP4 EP64 and FP8-MX 4,018 at PP8 EP32, 0.781. A BF16 step
    priced at the BF16 peak's share of the FP8 one (0.5) would miss both by 40%; gpuwise sits between them."""
    gb300 = _tokens_s_gpu("gb300", "bf16", 2, 32) / _tokens_s_gpu("gb300", "fp8", 2, 32)
    gb200 = _tokens_s_gpu("gb200", "bf16", 4, 64) / _tokens_s_gpu("gb200", "fp8", 8, 32)
    assert gb300 == pytest.approx(3848 / 4357, abs=0.07)  # 0.883
    assert gb200 == pytest.approx(3139 / 4018, abs=0.07)  # 0.781


def test_unfused_attention_rate_by_hand(kb):
    """Transformer Engine before 2.5 runs DeepSeek-V3's MLA (query/key 192, value 128 wide) unfused on Blackwell
    (runtime.yaml training.attention_kernels unfused_mla_before): 22 B of 16-bit score traffic for each of the s x s
    scores a head computes (compute.UNFUSED_SCORE_BYTES: forward 2 + 2 + 2 + 2, backward 2 + 6 + 2 + 2 + 2). Counted
    as gpuwise counts causal attention (6 x s x width a token and layer, width 128 x (128 + 64 + 128) / 2 = 20,480)
    over the time its 128 x s scores a token and layer take at GB200's 8 TB/s x 0.80: 6 x 20,480 x 6.4e12 / (128 x
    22) = 2.79e14 FLOP/s, 11% of the 2,500 TFLOPS BF16 peak."""
    from gpuwise.estimators.compute import UNFUSED_SCORE_BYTES, unfused_attention_rate

    assert UNFUSED_SCORE_BYTES == (2 + 2 + 2 + 2) + (2 + 6 + 2 + 2 + 2)
    s = from_catalog(kb.models["deepseek-v3"])
    got = unfused_attention_rate(s, 8000e9 * kb.runtime.decode_bandwidth_efficiency.value)
    assert got == pytest.approx(6 * 20480 * 6.4e12 / (128 * 22)) == pytest.approx(2.793e14, rel=1e-3)


def _h386(release: str | None, gpu: str = "gb200"):
    w = {"task": "pretrain", "model": "deepseek-v3", "precision": "bf16", "seq_len": 4096,
         "global_batch_tokens": 1024.0 * 4096, "batch_size": 1, "stack": "nemo",
         "parallelism": {"tp": 2, "pp": 4, "ep": 32}, "train_tokens": 1e10}
    if release:
        w["stack_version"] = release
    return estimate({"workload": w, "constraints": {"max_gpus": 128}}, gpu=gpu, gpus=128).gpu.training.step_terms


def test_nemo_2504_trains_mla_unfused_on_blackwell_by_hand(kb):
    """H386's job (DeepSeek-V3 BF16, 128 GPUs, TP2 PP4 EP32, GBS 1,024 x 4,096) stated as NeMo 25.04: the step's GEMM
    work keeps its time and attention's share a of the FLOPs (3.07e10 of 2.50e11 a token) runs at the unfused rate
    instead: compute = (1 - a) t + a F / 2.79e14, F = 2.50e11 x 4,194,304 / 128 FLOPs a GPU. From NeMo 25.07 (the
    release that builds Transformer Engine 2.5), with no release stated (the newest) and on Hopper (cuDNN's kernel)
    the step is as before."""
    from gpuwise.estimators.compute import unfused_attention_rate

    old, new, none = _h386("25.07"), _h386("25.04"), _h386(None)
    assert none.step_s == old.step_s
    f = training_flops(from_catalog(kb.models["deepseek-v3"]), 1.0, 4096, "full", False)
    a = f.inputs["attention_flops_per_token"] / f.value
    assert a == pytest.approx(0.1226, abs=1e-4)
    flops_gpu = f.value * 1024 * 4096 / 128
    t = old.compute_s - old.moe_passes_s
    rate = unfused_attention_rate(from_catalog(kb.models["deepseek-v3"]), 8000e9 * 0.80)
    assert new.compute_s - new.moe_passes_s == pytest.approx((1 - a) * t + a * flops_gpu / rate, rel=0.002)
    # 9.21 -> 12.03 s a step (published 34.17); 8.64 -> 11.54 before the GB200's own GEMM share (branch gb200eff46)
    assert new.step_s / old.step_s == pytest.approx(1.307, abs=0.01)
    assert _h386("25.04", "h100-80gb-sxm").step_s == _h386("25.07", "h100-80gb-sxm").step_s
