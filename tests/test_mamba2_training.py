"""A Mamba-2 layer's SSD chunks in training (runtime.yaml training.ssd_kernel_utilization; catalog recurrent.kind
mamba2). The SSD's products beyond the projections (Dao and Gu 2024, arXiv:2405.21060: intra-chunk, chunk states and
their read-out, C B^T) are not in the step's matmul count; they are paid at the rate their kernels reach, read from
tile-ai/tilelang benchmark/mamba2/README.md @ be9c08f6fd5899b04b51ec7ba7a067cf6822c3e3 (the chunk-scan forward on one
H800 SXM), never from a held-out row. Numbers below by hand from those sources and the catalog's shapes."""

import sys
from statistics import median

import pytest

from gpuwise import knowledge
from gpuwise.estimators import compute as C
from gpuwise.inputs import shape as S

sys.path.insert(0, "benchmarks")
import accuracy as A


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_the_kernel_rate_is_the_tilelang_table_over_the_h800_bf16_peak(kb):
    """tilelang's table: batch 8, 80 heads of 64, state 128, chunk 256, one group, sequences 1,024-32,768 at 126.477 /
    130.195 / 133.054 / 134.362 / 135.711 / 135.379 TFLOP/s; median 133.708 over the dense BF16 peak of the H800 SXM
    (989.5 TFLOP/s, the H100 SXM's compute) is 0.1351."""
    table = [126.477, 130.195, 133.054, 134.362, 135.711, 135.379]
    assert median(table) == pytest.approx(133.708, abs=0.001)
    assert median(table) / 989.5 == pytest.approx(0.1351, abs=0.0001)
    entry = kb.runtime.training.ssd_kernel_utilization
    assert entry.value == pytest.approx(median(table) / 989.5, abs=0.0005)
    assert "be9c08f6fd5899b04b51ec7ba7a067cf6822c3e3" in entry.source and entry.check == "S"
    assert kb.gpus["h100-80gb-sxm"].peaks.bf16 == pytest.approx(989.5, rel=0.01)


def test_nemotron_h_56b_ssd_multiply_adds_by_hand(kb):
    """Nemotron-H 56B (Megatron-Bridge NemotronHModelProvider56B: hidden 8,192, 256 Mamba heads of 64 = inner 16,384 =
    2 x hidden, state 256, 8 groups; 54 Mamba-2 layers), chunk 256: per token and layer 16,384 x 256 (intra-chunk)
    + 2 x 16,384 x 256 (states, read-out) + 256 x 8 x 256 (C B^T) = 13,107,200 multiply-adds, x 54 = 707,788,800.
    The catalog keeps the state (16,384 x 256) and the cached convolution (3 x (16,384 + 2 x 8 x 256) = 61,440), from
    which the shape reads G N = 2,048. Six FLOPs each are 1.24% of NVIDIA's 2.816e15 FLOPs an 8,192-token sequence
    (nemotronh README), as trainblind12 counted it (tests/test_heldout_trainblind12.py)."""
    shape = S.from_catalog(kb.models["nemotron-h-56b"])
    per_layer = 16384 * 256 + 2 * 16384 * 256 + 256 * 8 * 256
    assert per_layer == 13_107_200
    assert shape.ssd_macs_per_token == pytest.approx(54 * per_layer)
    assert 6 * shape.ssd_macs_per_token * 8192 / 2.816e15 == pytest.approx(0.0124, abs=0.0002)


def test_models_without_a_mamba2_mixer_pay_nothing(kb):
    """Gated DeltaNet (Qwen3-Next) and attention-only models have no SSD: no multiply-adds, a factor of 1."""
    for mid in ("qwen3-next-80b-a3b", "llama-3.1-8b"):
        shape = S.from_catalog(kb.models[mid])
        assert shape.ssd_macs_per_token == 0.0
        assert C.ssd_kernel_factor(shape, 8192, "full", 600e12, 100e12) == 1.0


def test_the_factor_by_hand_for_nemotron_h_56b(kb):
    """1 + s x rate / ssd_rate, s = 6 x SSD multiply-adds over the step's FLOPs a token (matmuls and attention at
    8,192): with GEMMs at 600 TFLOP/s and the SSD at 0.135 x 989.5 = 133.6 TFLOP/s a token's SSD FLOPs take
    4.49x their time at the GEMMs' rate."""
    shape = S.from_catalog(kb.models["nemotron-h-56b"])
    f = C.training_flops(shape, 1.0, 8192, "full", False).value
    s = 6 * 707_788_800 / f
    assert s == pytest.approx(0.0124, abs=0.0004)
    ssd_rate = 0.135 * 989.5e12
    got = C.ssd_kernel_factor(shape, 8192, "full", 600e12, ssd_rate)
    assert got == pytest.approx(1 + s * 600e12 / ssd_rate, rel=1e-9)
    assert 1.05 < got < 1.06


def test_nemotron_h_rows_before_and_after(kb):
    """H391-H393 (dgxc-benchmarking nemotronh, 128 / 512 / 2,048 H100 FP8) read -18.1 / -18.3 / -18.9% with the SSD
    unpriced (trainblind12's blind figures); with it they read -13.3 / -13.5 / -14.1%: still fast, by about what
    the kernel rate being a ceiling (a tuned forward kernel; the backward at the same rate) leaves. H390 (32 H100,
    DP4 ZeRO-2) moves +6.1 -> +6.2%: its added compute hides data-parallel traffic that was exposed."""
    details: dict = {}
    cases = A.published_run_cases(kb, A.HELDOUT_RUNS, details=details)
    err = {label.split()[0]: e / m - 1 for label, e, m in cases}
    assert err["H390"] == pytest.approx(0.062, abs=0.01)
    for rid, after in (("H391", -0.133), ("H392", -0.135), ("H393", -0.141)):
        assert err[rid] == pytest.approx(after, abs=0.01)


def test_the_blackwell_rate_is_the_h200_rate_at_the_triton_kernels_gb200_gain(kb):
    """state-spaces/mamba issue #904 times one model on one H200 and one GB200 (self CUDA time, 10 iterations): the
    Triton chunked forward mamba3_siso_fwd_kernel 602 -> 450 ms, cuBLAS aten::mm 1,324 -> 543 ms. The GEMMs gain about
    the peaks' ratio (2.44x against 2,500 / 989.5 = 2.53x); the chunked kernel 1.34x. 0.135 x 989.5 TFLOP/s x 602 / 450
    = 178.7 TFLOP/s, 0.0715 of the GB200's 2,500. Compute capability 10.3 (B300 / GB300) has no measurement and keeps
    the Hopper share."""
    entry = kb.runtime.training.ssd_kernel_utilization
    gemm_gain, peak_gain = 1324 / 543, 2500 / 989.5
    assert gemm_gain == pytest.approx(2.44, abs=0.01)
    assert peak_gain == pytest.approx(2.53, abs=0.01)
    rate = 0.135 * 989.5 * 602 / 450
    assert rate == pytest.approx(178.7, abs=0.1)
    assert kb.gpus["gb200"].peaks.bf16 == pytest.approx(2500) and kb.gpus["gb200"].compute_capability == "10.0"
    assert entry.by_compute_capability == {"10.0": pytest.approx(rate / 2500, abs=0.0002)}
    assert "issue #904" in entry.source
    assert kb.gpus["gb300"].compute_capability == "10.3"


def test_nemotron_3_super_blackwell_rows_before_and_after(kb):
    """Megatron-Bridge's Nemotron_3_Super rows (training_throughput_published.csv, 64 GPUs): with the SSD at 0.135 of
    every part's peak the GB200 rows read M55 / M56 / M58 / M62 +33.4 / +35.1 / +42.9 / +40.7% (latentmoe34's
    figures) and the B200 rows M60 / M64 +4.1 / -26.0%; at the GB200's measured 0.0715 they read +31.5 / +33.1 /
    +40.8 / +38.7% and +2.2 / -27.2%. The GB300 rows (10.3) are unchanged (M53 +19.0%). With the GB200's own GEMM
    share (runtime.yaml training.mfu_by_gpu gb200, branch gb200eff46) the GB200 rows read +27.9 / +30.0 / +37.5 /
    +34.9%; with the MoE host wait's per-layer part (runtime.yaml training.moe_dispatch layer_host_ops, branch
    moehost56: 8 local experts at EP64 wait on the host longer than their GPU work) +23.6 / +25.5 / +32.7 / +30.4%."""
    err = {label.split()[0]: est / pub - 1 for label, est, pub in A.throughput_cases(kb, moe=True)}
    after = {"M55": 0.236, "M56": 0.255, "M58": 0.327, "M62": 0.304, "M60": 0.021, "M64": -0.272, "M53": 0.190}
    for rid, want in after.items():
        assert err[rid] == pytest.approx(want, abs=0.005), rid
