"""vLLM's per-kernel floor by architecture (branch kernelfloor31, issue 22 items 1, 6): nothing set, the counts read.

The validation README's section 'vLLM's per-kernel floor by architecture' reads the DT (GB10 / RTX PRO 6000) and SZ
(2 x B200) misses against the fixed time gpuwise charges. These tests hold the hand arithmetic that section quotes,
so a change of the kernel counts (step.py ROUTER_KERNELS, QUANT_KERNELS_*) or of the floors (serving.yaml vllm
kernel_floor_us 10, read end to end on 8 x H200: GPUStack's performance lab; grouped_gemm_floor_us per architecture:
sm120 5 us from vLLM pull requests #39183 / #45379, blackwell 14 us from #31448) fails here before the README goes
stale. Qwen3-30B-A3B (config.json: 48 layers, every one MoE, 128 experts, 8 routed) counts 4 router kernels a layer
and two grouped expert GEMMs; W8A8 (online FP8) adds 4 activation quantizations a layer around the attention and
dense projections and 2 before the grouped GEMMs. gpt-oss-120b (config.json: 36 layers, every one MoE) counts the
same 4 + 2 a layer.
"""

from __future__ import annotations

import importlib

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

ST = importlib.import_module("gpuwise.estimators.serving.step")


def _engine(kb, model, precision, gpu, count, tp=None, version=None):
    w = {"task": "inference", "model": model, "precision": precision, "framework": "vllm",
         "prompt_tokens": 32, "output_tokens": 400}
    if tp:
        w["parallelism"] = {"tp": tp}
    if version:
        w["framework_version"] = version
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    return SV.choose(job, kb.gpus[gpu], count).engine


@pytest.mark.parametrize("precision, kernels", [
    ("bf16", 48 * 4),            # DT05: the router's 4 kernels a layer
    ("fp8", 48 * (4 + 4 + 2)),   # DT06: + 4 dense and 2 expert activation quantizations a layer (W8A8)
])
def test_qwen3_30b_a3b_on_sm120_counts_its_small_kernels(kb, precision, kernels):
    """RTX PRO 6000 (SM120): 192 / 480 counted kernels at 10 us and 96 grouped GEMMs at sm120's 5 us, i.e. 1.92 + 0.48
    = 2.40 ms (BF16) and 4.80 + 0.48 = 5.28 ms (FP8) a step beside the weights; the FP8 run's extra 2.88 ms is the
    288 quantizations at 10 us, where the published runs (DT05 140.9, DT06 135.7 t/s) differ by ~0.27 ms a token."""
    eng = _engine(kb, "qwen3-30b-a3b", precision, "rtx-pro-6000-blackwell", 1)
    small, grouped = ST._extra_kernels(eng)
    assert (small, grouped) == (kernels, 96)
    assert eng.kernel_floor == pytest.approx(10e-6)
    assert eng.grouped_floor == pytest.approx(5e-6)
    assert ST.floor_per_step(eng) == pytest.approx(kernels * 10e-6 + 96 * 5e-6)


def test_gpt_oss_120b_on_b200_charges_2_45_ms_of_moe_floors(kb):
    """SZ13 (2 x B200, TP 2, vLLM 0.13.0): 36 x 4 = 144 kernels at 10 us and 72 grouped GEMMs at Blackwell's 14 us:
    1.44 + 1.008 = 2.448 ms a step, the '2.45 ms of MoE kernel floors' of the SZ section, against a published TPOT
    of 3.83 ms (InferenceX run 20667906037)."""
    eng = _engine(kb, "gpt-oss-120b", "fp4", "b200", 2, tp=2, version="0.13.0")
    small, grouped = ST._extra_kernels(eng)
    assert (small, grouped) == (144, 72)
    assert eng.kernel_floor == pytest.approx(10e-6)
    assert eng.grouped_floor == pytest.approx(14e-6)
    assert ST.floor_per_step(eng) == pytest.approx(2.448e-3)
