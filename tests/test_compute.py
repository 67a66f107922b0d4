"""Compute estimator: hand-calculated FLOPs, dense peaks, and published training GPU-hours and
decode speeds (tests/data/validation, sources per row)."""

from __future__ import annotations

import statistics

import pytest

from engine.estimators.compute import decode_speed, peak_for, training_flops, training_time
from engine.estimators.memory import weight_bytes
from engine.inputs.shape import from_catalog

from .conftest import DATA


def test_six_n_d_by_hand(kb):
    """Llama-2-7B on 2T tokens: 6 x matmul params x D + causal attention 6 x L x s x h x D."""
    shape = from_catalog(kb.models["llama-2-7b"])
    n = 6_738_415_616 - 32000 * 4096  # the input embedding is a lookup, not a matmul
    t = training_flops(shape, 2e12, 4096, "full", False)
    assert t.value == pytest.approx((6 * n + 6 * 32 * 4096 * 4096) * 2e12)
    lora = training_flops(shape, 2e12, 4096, "lora", False).value
    ckpt = training_flops(shape, 2e12, 4096, "full", True).value
    assert lora == pytest.approx(t.value * 4 / 6)
    assert ckpt == pytest.approx(t.value * 8 / 6)


def test_dense_peaks_not_sparse(kb):
    """Datasheet headlines are 2:4-sparse for Hopper/Ada; dense is half (reference gpus.md)."""
    assert peak_for(kb.gpus["h100-80gb-sxm"], "bf16").tflops == 989.5
    assert peak_for(kb.gpus["h100-80gb-sxm"], "fp8").tflops == 1979
    assert peak_for(kb.gpus["a100-80gb-sxm"], "bf16").tflops == 312
    assert peak_for(kb.gpus["rtx-4090"], "bf16").tflops == pytest.approx(165.2)  # FP32 accumulate
    assert peak_for(kb.gpus["l4"], "bf16").tflops == pytest.approx(121)


def test_peak_fallbacks_for_old_architectures(kb):
    v100 = peak_for(kb.gpus["v100-32gb-sxm2"], "bf16")
    assert v100.tflops == kb.gpus["v100-32gb-sxm2"].peaks.fp32 and "emulated" in v100.kind
    p100 = peak_for(kb.gpus["p100-16gb-pcie"], "fp16")
    assert p100.tflops == pytest.approx(18.7) and "no tensor cores" in p100.kind


def test_training_time_arithmetic():
    hours, wall = training_time(1e21, 8, 312, 0.4, 0.9)
    per_gpu = 312e12 * 0.4 * 0.9
    assert wall.value == pytest.approx(1e21 / (8 * per_gpu) / 3600)
    assert hours.value == pytest.approx(wall.value * 8)


def _errors(cases: list[tuple[str, float, float]]) -> list[float]:
    return [abs(est / measured - 1) for _, est, measured in cases]


def test_gpu_hours_of_published_pretraining_runs(kb, accuracy):
    """Median error within 25% over the published runs in training_compute.csv (LLaMA: Touvron et al.
    2023 Table 15; Pythia: Biderman et al. 2023 Table 5; Phi model cards; SmolLM3 blog)."""
    errors = _errors(accuracy.training_cases(kb, DATA / "validation"))
    assert len(errors) >= 15
    assert statistics.median(errors) < 0.25


def test_single_stream_decode_against_published_measurements(kb, accuracy):
    """Median error within 30% against llama.cpp, MLC LLM and ExLlama single-stream decode
    (XiongjieDai/GPU-Benchmarks-on-LLM-Inference; llama.cpp discussions; MLC blog; ExLlama README)."""
    errors = _errors(accuracy.decode_cases(kb, DATA / "validation"))
    assert len(errors) >= 15
    assert statistics.median(errors) < 0.30


def test_decode_is_bandwidth_bound_at_batch_one(kb):
    """Llama-2-7B bf16 on an H100 SXM: ~13.2 GB read per token at 3350 GB/s x 0.8 -> ~4.9 ms + overhead."""
    shape = from_catalog(kb.models["llama-2-7b"])
    rt = kb.runtime
    w = weight_bytes(shape, "bf16", rt.quantization).value
    one, total = decode_speed(shape, kb.gpus["h100-80gb-sxm"], weight_bytes=w, kv_bytes_per_seq=0, batch=1, tp=1,
                              precision="bf16", bw_eff=0.8, layer_overhead_us=0, util=0.5)
    read = w - 32000 * 4096 * 2
    assert one.value == pytest.approx(3350e9 * 0.8 / read, rel=1e-6)
    big, big_total = decode_speed(shape, kb.gpus["h100-80gb-sxm"], weight_bytes=w, kv_bytes_per_seq=0, batch=512,
                                  tp=1, precision="bf16", bw_eff=0.8, layer_overhead_us=0, util=0.5)
    assert big.note == "compute-bound" and big_total.value > 50 * total.value
