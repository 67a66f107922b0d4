"""SGLang's ROCm build on CDNA 3 runs DeepSeek's block-FP8 experts on aiter's fused MoE at its own rate on
prompt-sized batches (serving.yaml sglang ``architecture_overrides.cdna3``: moe_gemm_fraction 0.235 for FP8 experts).
Source: ROCm/aiter aiter/configs/tuned_fmoe.csv (rows from pull request #1081, Nov 2025; still there at e4048607),
cu_num 80 (an 80-CU gfx942 part, the MI308X; float8_e4m3fnuz is gfx942's FP8), model_dim 7168, inter_dim 256
(DeepSeek's 2,048 over TP 8), 256 experts, top 8, SiLU, per-1x128 FP8, doweight_stage1 0: stage 1 557.7338 us + stage 2
556.9381 us = 1,114.6719 us at 1,024 tokens, the table's tflops 80.92; at 512 tokens 709.6144 us (63.55). The rows at
2,048-32,768 tokens repeat the 1,024 row's times: copies, not read."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.step import _parts, consts
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

MI300X_BF16 = 1307.4e12  # gpus.yaml mi300x peaks.bf16 (dense); the MI325X's is the same
MI300X_FP8 = 2614.9e12


def _consts(kb, gpu: str = "mi300x", precision: str = "fp8", framework: str = "sglang", model: str = "deepseek-v3",
            aiter: bool | None = None):
    w = {"task": "inference", "model": model, "precision": precision, "framework": framework,
         "framework_version": "0.5.7" if framework == "sglang" else None, "prompt_tokens": 8192, "output_tokens": 1,
         "concurrent_requests": 1, "parallelism": {"tp": 8, "pp": 1}}
    if aiter is not None:
        w["rocm_aiter"] = aiter
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(job, kb.gpus[gpu], 8)
    assert s.replica.layout.tp == 8 and s.replica.layout.ep == 1
    return consts(job, s.engine, s.replica)


def test_the_table_row_by_hand():
    """1,024 tokens x 8 experts x (gate + up 2 x 256 + down 256 columns) x 7,168 deep x 2 FLOPs = 90.19 GFLOP in
    1,114.67 us: 80.92 TFLOP/s, the table's own tflops; on 304 CUs at the same clock 307.5 TFLOP/s, 0.235 of the
    MI300X's 1,307.4 BF16 TFLOP/s. At 512 tokens the table's 63.55 likewise (the rate still rising with the batch)."""
    flop = 1024 * 8 * 2 * 3 * 7168 * 256
    assert flop == 90_194_313_216
    rate = flop / 1114.6719e-6
    assert rate / 1e12 == pytest.approx(80.92, abs=0.01)
    half = 512 * 8 * 2 * 3 * 7168 * 256 / 709.6144e-6
    assert half / 1e12 == pytest.approx(63.55, abs=0.01)
    assert rate * 304 / 80 / MI300X_BF16 == pytest.approx(0.235, abs=0.0005)


@pytest.mark.parametrize("gpu", ["mi300x", "mi325x"])
def test_cdna3_fp8_experts_run_at_the_kernel_rate(kb, gpu):
    """0.235 x 1,307.4 = 307.2 TFLOP/s for the FP8 experts on either part (the same BF16 peak in gpus.yaml); the
    MI300X's dense GEMMs keep 0.30 x 2,614.9 = 784.5 (the MI325X's take its GEMM clock besides: above that)."""
    c = _consts(kb, gpu)
    assert c.moe_rate == pytest.approx(0.235 * MI300X_BF16, rel=1e-6)
    if gpu == "mi300x":
        assert c.peak_dense == pytest.approx(0.30 * MI300X_FP8, rel=1e-6)
    assert c.peak_dense > 2 * c.moe_rate


@pytest.mark.parametrize(("precision", "framework"), [
    ("bf16", "sglang"),  # 16-bit experts: the reading is of the FP8 block-scale kernel only (moe_gemm_formats)
    ("fp8", "vllm"),     # vLLM's ROCm build: AITER off by default (the Triton kernel)
])
def test_others_keep_the_precision_rate(kb, precision, framework):
    assert _consts(kb, "mi300x", precision, framework).moe_rate == float("inf")


def test_an_8192_token_prefill_pays_its_experts_at_the_kernel_rate(kb):
    """One 8,192-token prefill forward at TP 8 on MI300X. DeepSeek-V3's routed experts: 58 MoE layers x 8 experts x
    3 x 7,168 x 2,048 weights = 20.43 B active, 40.86 GFLOP a token, 5.107 a GPU at TP 8, 41.84 TFLOP a GPU for the
    forward. 8,192 x 8 / 256 = 256 rows an expert fill the 16-row tiles whole, so the tiles' FLOPs are the rows'. At
    the dense rate (784.5 TFLOP/s) they took 53.3 ms; at the kernel's 307.2, 136.2 ms: 82.9 ms more, and nothing
    else in the forward moves."""
    c = _consts(kb)
    per_gpu = 58 * 8 * 3 * 7168 * 2048 * 2 / 8
    assert c.f_experts / 8 == pytest.approx(per_gpu, rel=1e-3)
    work = c.f_experts * 8192 / 8
    at_kernel, at_dense = work / (0.235 * MI300X_BF16), work / (0.30 * MI300X_FP8)
    assert at_kernel == pytest.approx(0.1362, abs=0.0005) and at_dense == pytest.approx(0.0533, abs=0.0005)
    with_rate = _parts(c, 0.0, 8192.0, 0.0, 4096.0)
    c.moe_rate = float("inf")  # the copy without the reading: the experts' tiles at the dense rate
    without = _parts(c, 0.0, 8192.0, 0.0, 4096.0)
    assert with_rate[0] - without[0] == pytest.approx(at_kernel - at_dense, rel=1e-6)
    assert with_rate[2:4] == without[2:4]  # attention and communication unchanged


@pytest.mark.parametrize("gpu", ["mi300x", "mi355x"])
def test_aiter_off_keeps_the_precision_rate(kb, gpu):
    """The CDNA 3 and CDNA 4 readings are aiter's fused MoE: a job that states SGLANG_USE_AITER=0 (``rocm_aiter:
    false``) runs SGLang's Triton fused MoE, which neither timed, so its experts keep the precision's rate; stating
    AITER on changes nothing (the image's default)."""
    assert _consts(kb, gpu, aiter=False).moe_rate == float("inf")
    assert _consts(kb, gpu, aiter=True).moe_rate == _consts(kb, gpu).moe_rate < float("inf")
