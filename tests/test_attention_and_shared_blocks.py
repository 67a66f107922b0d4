"""Two mechanisms of a training step's compute that move small and hybrid models (session 20).

1. FlashAttention-2 compiles its kernels for head dims 32, 64, 96, 128, 160, 192 and 256 and runs any other as the
   next one up (Dao-AILab/flash-attention csrc/flash_attn/src/static_switch.h, HEADDIM_SWITCH), so attention's
   rate falls by head_dim / padded head_dim (runtime.yaml training.attention_kernels head_dim_tiles).
2. A block whose weights are shared and applied n times multiplies each token through them n times while memory
   holds them once (Zamba's shared attention block, arXiv:2405.16712; transformers' ZambaConfig and
   modeling_zamba.py): ``architecture.active_params_b`` may exceed ``params_b``; ``attention_layers`` says which
   layers (or applications) run attention and keep a KV cache; ``head_dim`` a head's width where it is not
   hidden / heads.

Every expected figure is computed by hand from the shape and the datasheet rates.
"""

from __future__ import annotations

import pytest


def _job(kb, workload: dict):
    from gpuwise.estimators.candidate import training_job
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    return training_job(resolve(Requirements.model_validate({"workload": workload}), kb))


def _rate(kb, workload: dict, gpu: str) -> tuple[float, object]:
    from gpuwise.estimators.step_time import gpu_speed

    return gpu_speed(_job(kb, workload), kb.gpus[gpu])


def test_a_head_between_the_kernels_widths_pays_for_the_next_one(kb):
    """OpenAI Parameter Golf's 12 x 416 variant (held-out H166) on an H100, the middle stack: 8 heads of 52, which
    FlashAttention-2 runs as 64. The GEMMs of a 416-wide model run at peak x MFU / 1.10 (the middle), below what the
    kernel reaches at the run's 1,024 tokens (its long-sequence 0.35 of the peak over the benchmark's count, 1.1667,
    times (1,024 / (1,024 + 880)) / (16,384 / (16,384 + 880)): runtime.yaml attention_kernels causal_length_tokens
    and utilization_length, branch trainblind31), so attention runs at the kernel's rate there, at 52 / 64 of it for
    the padded head; its share a = 6 x 12 x 1,024 x 416 / (6 x 14.97M + that) = 0.255 takes gemm / attn of the
    GEMMs' time: the step's rate is R / (1 - a + a x R / attn), 5.6% faster than the GEMMs (it was 5.5% slower when
    the GEMM rate capped attention)."""
    arch = {"layers": 12, "hidden_size": 416, "heads": 8, "kv_heads": 4, "ffn_size": 555, "vocab_size": 1024,
            "tied_embeddings": True}
    n = 12 * (2 * 416 * 416 + 2 * 416 * 208 + 3 * 416 * 555) + 1024 * 416
    assert n == 14_967_680
    attn = 6 * 12 * 1024 * 416
    a = attn / (6 * n + attn)
    assert a == pytest.approx(0.2546, abs=1e-4)
    peak = kb.gpus["h100-80gb-sxm"].peaks.bf16 * 1e12
    ak = kb.runtime.training.attention_kernels
    assert (ak.causal_length_tokens, ak.utilization_length) == (880, 16384)
    at_1k = 0.35 / ak.benchmark_count_ratio * (1024 / (1024 + 880)) / (16384 / (16384 + 880))
    assert at_1k == pytest.approx(0.1700, abs=1e-4)  # of the peak
    w = {"task": "pretrain", "params_b": 0.01496, "architecture": arch, "train_tokens": 1e9, "seq_len": 1024}
    rate, mfu = _rate(kb, w, "h100-80gb-sxm")
    gemm = peak * mfu.value / 1.10
    kernel = peak * at_1k * 52 / 64
    assert gemm < kernel
    assert rate == pytest.approx(gemm / (1 - a + a * gemm / kernel), rel=1e-4)
    assert rate / gemm == pytest.approx(1.056, abs=0.001)
    # a 64-wide head runs the kernel at its full rate at that length: 8 heads of 64 on a 512-wide model
    arch64 = {**arch, "hidden_size": 512, "kv_heads": 8}
    a64 = 6 * 12 * 1024 * 512 / (6 * 14.96e6 + 6 * 12 * 1024 * 512)  # the workload's params_b, 14.96M, as given
    rate64, mfu64 = _rate(kb, {**w, "architecture": arch64}, "h100-80gb-sxm")
    gemm64 = peak * mfu64.value / 1.10
    assert gemm64 < peak * at_1k
    assert rate64 == pytest.approx(gemm64 / (1 - a64 + a64 * gemm64 / (peak * at_1k)), rel=1e-4)
    from gpuwise.estimators.step_time import padded_head_dim
    tiles = kb.runtime.training.attention_kernels.head_dim_tiles
    assert tiles == (32, 64, 96, 128, 160, 192, 256)  # HEADDIM_SWITCH's branches
    assert [padded_head_dim(d, tiles) for d in (52, 64, 80, 128, 144, 224, 464)] == [64, 64, 96, 128, 160, 256, 464]


# Zamba-7B-v1 (transformers' ZambaConfig defaults): hidden 3,712, 76 Mamba layers, one shared block (attention on
# the 7,424-wide concatenation of the residual and the input embedding, 16 heads of 464; MLP 14,848) applied at
# layer 2 and at every i % 6 == 4 of the next 73: 13 applications
ZAMBA = {"layers": 76, "hidden_size": 3712, "heads": 16, "kv_heads": 16, "head_dim": 464, "ffn_size": 14848,
         "vocab_size": 32000, "tied_embeddings": True, "attention_layers": 13, "active_params_b": 11.5315}


def test_a_shared_block_is_multiplied_through_once_per_application(kb):
    """Zamba-7B: the shared block holds q, k, v 7,424 x 7,424 and o 7,424 x 3,712 (192.9M) and gate, up, down
    3,712 x 14,848 (165.4M), 358.3M stored once among 7.2325B (76 Mamba layers of 86.5M, 13 unshared 3,712 x 3,712
    linears, the 32,000 x 3,712 tied embedding); a token goes through its matmuls 13 times, 7.2325 + 12 x 0.35825 =
    11.5315B.
    Training FLOPs a token: 6 x 11.5315e9 for the matmuls plus 6 x 13 x 4,096 x 7,424 for attention in the 13
    applications only; the weights and optimizer state count the 7.2325B stored."""
    from gpuwise.estimators.compute import training_flops

    shared = 3 * 7424 * 7424 + 7424 * 3712 + 3 * 3712 * 14848
    assert shared == 358_252_544
    mamba = 3712 * 14848 + 7424 * 5 + 2 * (232 + 32) * 3712 + 2 * 3712 * 232 + 7424 * 18 + 7424 * 3712 + 3712
    stored = 76 * mamba + shared + 7424 + 3712 + 13 * 3712 * 3712 + 32000 * 3712 + 3712
    assert stored / 1e9 == pytest.approx(7.2325, abs=1e-4)
    assert (stored + 12 * shared) / 1e9 == pytest.approx(11.5315, abs=1e-4)
    tj = _job(kb, {"task": "pretrain", "params_b": 7.2325, "architecture": ZAMBA, "train_tokens": 1e9,
                   "seq_len": 4096})
    assert tj.shape.params == pytest.approx(7.2325e9) and tj.shape.active_params == pytest.approx(11.5315e9)
    f = training_flops(tj.shape, 1.0, 4096, "full", False)
    assert f.value == pytest.approx(6 * 11.5315e9 + 6 * 13 * 4096 * 7424, rel=1e-9)


def test_only_the_attention_layers_keep_a_kv_cache(kb):
    """Zamba-7B's KV cache: 2 x 13 applications x 16 heads x 464 x 2 bytes = 386,048 bytes a token, where 76 layers
    of attention would hold 5.8x that; a pure SSM (attention_layers 0) runs no attention and holds none."""
    from gpuwise.estimators.compute import training_flops
    from gpuwise.estimators.memory_serving import kv_cache_bytes

    tj = _job(kb, {"task": "pretrain", "params_b": 7.2325, "architecture": ZAMBA, "train_tokens": 1e9})
    assert kv_cache_bytes(tj.shape, 1.0).value == 2 * 13 * 16 * 464 * 2 == 386_048
    ssm = {"layers": 64, "hidden_size": 4096, "heads": 32, "ffn_size": 8192, "vocab_size": 65024,
           "attention_layers": 0}
    tj = _job(kb, {"task": "pretrain", "params_b": 7.27, "architecture": ssm, "train_tokens": 1e9, "seq_len": 2048})
    assert kv_cache_bytes(tj.shape, 1.0).value == 0
    f = training_flops(tj.shape, 1.0, 2048, "full", False)
    assert f.inputs["attention_flops_per_token"] == 0
