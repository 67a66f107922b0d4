"""SGLang's early-2025 DeepSeek builds (0.4.0-0.4.5: knowledge/serving.yaml sglang `releases`, entry 0.4.0) ran the
shared expert beside the routed experts (fused only by sgl-project/sglang pull request #5571, Apr 2025) and more,
slower small kernels (PyTorch-native rotary embedding until pull request #4764; Triton block-FP8 GEMMs and MoE): 14 us
a counted small kernel, set from the SGLang team's v0.4.1.post2 release benchmark (pull request #2643: DeepSeek-V3 FP8
on 8 x H200 at batch 1, 30.29 tok/s). From 0.4.6 the mid-2025 constants (6 us, the shared expert fused) hold."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.step import SHARED_EXPERT_KERNELS
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def _step(kb, version: str) -> float:
    w = {"task": "inference", "model": "deepseek-r1", "precision": "fp8", "framework": "sglang",
         "framework_version": version, "prompt_tokens": 1024, "output_tokens": 1024, "concurrent_requests": 1,
         "parallelism": {"tp": 8, "pp": 1}}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(job, kb.gpus["h200-141gb-sxm"], 8)
    return SV.point(job, s.engine, s.replica, 1.0).decode_step


def test_the_early_builds_step_by_their_kernels(kb):
    """By hand, DeepSeek-R1 FP8 TP 8 on 8 x H200 at batch 1: the counted small kernels of a forward are
    61 x (MLA 6 + W8A8 quantization 4 + 2) + 58 x (routing 4 + quantization 2) = 1,080 (step.py), each 14 - 6 = 8 us
    longer in 0.4.3 than in 0.4.6, and the unfused shared expert adds 3 kernels on each of the 58 MoE layers at 14 us:
    1,080 x 8 us + 174 x 14 us = 11.076 ms a step more. Nothing else differs between the two releases."""
    early, mid = _step(kb, "0.4.3.post4"), _step(kb, "0.4.6")
    assert SHARED_EXPERT_KERNELS == 3
    assert early - mid == pytest.approx(1080 * 8e-6 + 58 * 3 * 14e-6, rel=1e-9)
    assert _step(kb, "0.4.5") == early and _step(kb, "0.5.6") == mid


def test_the_release_benchmark_it_was_set_from(kb):
    """sgl-project/sglang pull request #2643 (v0.4.1.post2, Dec 2024): DeepSeek-V3 FP8, --tp 8 --enable-dp-attention on
    8 x H200, batch 1, 128 in / 256 out: 30.29 tok/s (the row V01 of tests/data/validation/serving_independent.csv,
    no longer a check); the mid-2025 constants gave it 46.6. Held within 10%."""
    w = {"task": "inference", "model": "deepseek-v3", "precision": "fp8", "framework": "sglang",
         "framework_version": "0.4.1.post2", "prompt_tokens": 128, "output_tokens": 256, "concurrent_requests": 1,
         "parallelism": {"tp": 1, "pp": 1, "ep": 8}}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(job, kb.gpus["h200-141gb-sxm"], 8)
    assert s.load.throughput == pytest.approx(30.29, rel=0.10)
