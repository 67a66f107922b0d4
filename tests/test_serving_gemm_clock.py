"""The ROCm builds' compute efficiency follows the clock a part holds through dense GEMMs (gpus.yaml ``clocks``;
serving.yaml vllm / sglang ``vendor_overrides.amd.efficiency_read_on``; support.clock_factor).

Source: AMD's ROCm blog 'Measuring Max-Achievable FLOPs - Part 2' (28 Feb 2025; ROCm/rocm-blogs
blogs/software-tools-optimization/measuring-max-achievable-flops-part2/README.md), Table 1: hipBLASLt dense GEMMs of
trig_float data, thermally settled, the lowest chiplet's median engine clock - MI300X (750 W) FP16 1,115, BF16 1,207,
FP8 1,230 MHz; MI325X (1,000 W) 1,354 / 1,447 / 1,464 MHz; both from a 2,100 MHz peak (footnote 3), the same 304 CUs
and the same dense peaks (1,307.4 BF16, 2,614.9 FP8 TFLOP/s). The ROCm efficiency, 0.30 of the FP8 peak, was read on
MI300X runs (vLLM 0.10.2 on 8 x MI300X, serving.yaml vllm amd), so on an MI325X the same kernels reach
0.30 x 1,464 / 1,230 = 0.3571 of it: 933.7 TFLOP/s where 784.5 was counted."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.support import clock_factor


def _engine(kb, accuracy, gpu: str, framework: str = "vllm", precision: str = "fp8", model: str = "llama-2-70b"):
    job = accuracy.serving_job(kb, model, precision, framework, 222, 301, tp=1)
    return SV.choose(job, kb.gpus[gpu], 1).engine


def test_catalog_clocks_are_the_tables(kb):
    """The figures as AMD's Table 1 prints them, and the peak clock the catalog's peaks imply: footnote 2's per-clock
    BF16 rate, 751 TFLOP/s at 1,207 MHz, puts the catalog's BF16 peak at 2,100 MHz."""
    a, b = kb.gpus["mi300x"].clocks, kb.gpus["mi325x"].clocks
    assert (a.peak_mhz, b.peak_mhz) == (2100, 2100)
    assert a.dense_gemm_mhz == {"fp16": 1115, "bf16": 1207, "fp8": 1230}
    assert b.dense_gemm_mhz == {"fp16": 1354, "bf16": 1447, "fp8": 1464}
    for gpu in ("mi300x", "mi325x"):
        assert kb.gpus[gpu].peaks.bf16 / (751 / 1207) == pytest.approx(2100, rel=0.002)


@pytest.mark.parametrize("framework", ["vllm", "sglang"])
def test_mi325x_gemm_rate_by_hand(kb, accuracy, framework):
    """0.30 x 2,614.9 TFLOP/s x 1,464 / 1,230 = 933.7 TFLOP/s on MI325X; MI300X keeps 0.30 x 2,614.9 = 784.5."""
    e300, e325 = _engine(kb, accuracy, "mi300x", framework), _engine(kb, accuracy, "mi325x", framework)
    assert e300.peak_gemm == pytest.approx(0.30 * 2614.9e12, rel=1e-6)
    assert e325.peak_gemm == pytest.approx(0.30 * 2614.9e12 * 1464 / 1230, rel=1e-6)
    assert e325.peak_gemm / 1e12 == pytest.approx(933.7, abs=0.1)
    assert e325.compute_eff == pytest.approx(0.3571, abs=1e-4)


def test_bf16_takes_its_own_clock(kb, accuracy):
    """A BF16 job's GEMMs run at the BF16 clocks: 0.30 x 1,307.4 x 1,447 / 1,207 = 470.2 TFLOP/s on MI325X."""
    e = _engine(kb, accuracy, "mi325x", precision="bf16")
    assert e.peak_gemm / 1e12 == pytest.approx(0.30 * 1307.4 * 1447 / 1207, rel=1e-6)


def test_parts_without_a_clock_reading_keep_the_efficiency(kb, accuracy):
    """MI355X (no dense-GEMM clock read) keeps 0.30 of its FP8 peak; an NVIDIA part (no override naming a part the
    efficiency was read on) keeps the framework's 0.50."""
    e = _engine(kb, accuracy, "mi355x")
    assert e.peak_gemm == pytest.approx(0.30 * 5033.2e12, rel=1e-6)
    assert _engine(kb, accuracy, "h200-141gb-sxm").compute_eff == pytest.approx(0.50)


def test_the_held_clock_counts_as_a_share_of_the_peaks_clock(kb):
    """The peaks are counted at ``peak_mhz``, so the factor is the held clock's share of it over the reading part's:
    a CDNA 4 part whose peaks are counted at 2,400 MHz (MI355X: 256 CUs x 8,192 FP8 FLOPs a clock x 2.4 GHz =
    5,033 TFLOP/s) holding, say, 1,600 MHz in FP8 GEMMs reaches (1,600 / 2,400) / (1,230 / 2,100) = 1.138 x the
    efficiency read on the MI300X, not 1,600 / 1,230 = 1.301 x, which would count its higher peak clock twice. The
    clocks here are for the arithmetic only (no MI350-series reading is in gpus.yaml); MI300X and MI325X share the
    2,100 MHz peak, so their ratio stays 1,464 / 1,230."""
    gpus = kb.gpus
    amd = SimpleNamespace(compute_efficiency=0.30, efficiency_read_on="mi300x")
    held = gpus["mi300x"].clocks.model_copy(update={"peak_mhz": 2400, "dense_gemm_mhz": {"fp8": 1600}})
    part = gpus["mi355x"].model_copy(update={"clocks": held})
    assert clock_factor(gpus, part, (amd,), "fp8") == pytest.approx((1600 / 2400) / (1230 / 2100), rel=1e-12)
    assert clock_factor(gpus, part, (amd,), "fp8") == pytest.approx(1.1382, abs=1e-4)
    assert clock_factor(gpus, gpus["mi325x"], (amd,), "fp8") == pytest.approx(1464 / 1230, rel=1e-12)
    assert clock_factor(gpus, part, (amd,), "bf16") == 1.0  # no BF16 clock given for the part
