"""SGLang's ROCm build on CDNA4 runs DeepSeek's block-FP8 experts on aiter's fused MoE at its own rate on
prompt-sized batches (serving.yaml sglang ``architecture_overrides.cdna4``: moe_gemm_fraction 0.24 for FP8 experts,
``moe_gemm_formats``). Source: ROCm/aiter aiter/configs/model_configs/a8w8_blockscale_tuned_fmoe_ds_v3.csv (commit
0b1924d9), cu_num 256 (MI355X), model_dim 7168, inter_dim 256 (DeepSeek's 2,048 over TP 8), 257 experts, top 9,
per-1x128 FP8: 1,342.4516 us at 8,192 tokens (fmoe_bf16_blockscaleFp8_g1u1_vs_ps_silu_64x256), the table's
tflops 604.68."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV


def _engine(kb, accuracy, precision: str, gpu: str = "mi355x", framework: str = "sglang"):
    job = accuracy.serving_job(kb, "deepseek-r1", precision, framework, 7373, 922, concurrency=8, tp=8, ep=1,
                               kv_precision="fp8", framework_version="0.5.12")
    return SV.choose(job, kb.gpus[gpu], 8).engine


def test_the_table_row_by_hand():
    """8,192 tokens x 9 experts x (gate + up 2 x 256 + down 256 columns) x 7,168 deep x 2 FLOPs in 1,342.45 us:
    604.7 TFLOP/s, the table's own tflops; over the MI355X's 2,516.6 BF16 TFLOP/s, 0.240."""
    rate = 8192 * 9 * 2 * 3 * 7168 * 256 / 1342.4516e-6 / 1e12
    assert rate == pytest.approx(604.68, abs=0.05)
    assert rate / 2516.6 == pytest.approx(0.24, abs=0.001)


def test_mi355x_fp8_experts_run_at_the_kernel_rate(kb, accuracy):
    """0.24 x 2,516.6 = 604.0 TFLOP/s for the FP8 experts; the dense GEMMs keep 0.30 x 5,033.2 = 1,510.0."""
    e = _engine(kb, accuracy, "fp8")
    assert e.moe_rate / 1e12 == pytest.approx(0.24 * 2516.6, rel=1e-6)
    assert e.peak_gemm / 1e12 == pytest.approx(0.30 * 5033.2, rel=1e-6)


@pytest.mark.parametrize(("precision", "gpu", "framework"), [
    ("fp4", "mi355x", "sglang"),   # MXFP4 experts: aiter's FP4 MoE kernels, not read
    ("fp8", "mi300x", "vllm"),     # CDNA3 under vLLM (its own entry: tests/test_serving_aiter_moe_rate_cdna3.py)
    ("fp8", "mi355x", "vllm"),     # vLLM's ROCm build: AITER off by default (the Triton kernel)
])
def test_others_keep_the_precision_rate(kb, accuracy, precision, gpu, framework):
    assert _engine(kb, accuracy, precision, gpu, framework).moe_rate == float("inf")


@pytest.mark.parametrize(("version", "gpu", "latency_us"), [
    ("0.5.12", "mi355x", 6.3),        # aiter's custom all-reduce, SGLang's ROCm default from #13102
    ("0.5.6", "mi355x", 6.3),
    ("0.5.5.post3", "mi355x", 6.3),   # the first wheel on PyPI whose custom_all_reduce.py dispatches to aiter's
    ("0.5.5.post2", "mi355x", 25.0),  # before: no dispatch in the wheel; the ROCm build's whole-step figure
    ("0.5.5", "mi355x", 25.0),        # (sgl-kernel's all-reduce)
    ("0.5.1.post3", "mi350x", 25.0),  # K03 / K06's release
    (None, "mi355x", 6.3),            # no release stated: the newest
    ("0.5.12", "mi300x", 25.0),       # CDNA3: no kernel reading of its own here
])
def test_sglang_cdna4_allreduce_from_its_release(kb, accuracy, version, gpu, latency_us):
    """vllm-project/vllm pull request #39080's TP 8 table on 8 x MI355X: 6.3 us for a 24 KB all-reduce (the kernel's
    latency; the two-stage aiter algorithm 6.4), where the ROCm build's framework figure is 25 us."""
    job = accuracy.serving_job(kb, "deepseek-r1", "fp8", "sglang", 922, 922, concurrency=8, tp=8, ep=1,
                               kv_precision="fp8", framework_version=version)
    e = SV.choose(job, kb.gpus[gpu], 8).engine
    assert e.allreduce_latency * 1e6 == pytest.approx(latency_us)
