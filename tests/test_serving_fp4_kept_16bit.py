"""The dense GEMMs of a W4A4 FP4 engine at two rates (gpuwise/estimators/serving/step.py ``dense_math_seconds``):
FP4 GEMMs run only on the weights the checkpoint stores in FP4; the ones it keeps in 16 bits run 16-bit GEMMs at the
16-bit rate. ModelOpt's NVFP4 checkpoints exclude the output head (hf_quant_config.json ``exclude_modules``:
``lm_head``; knowledge/serving.yaml formats.nvfp4 ``keeps_16bit``), and gpt-oss keeps every non-expert linear in BF16
(openai/gpt-oss-20b config.json ``modules_to_not_convert``: ``self_attn``, ``mlp.router``, ``embed_tokens``,
``lm_head``; serving.yaml ``fp4_checkpoints``). B200: 9,000 dense FP4 and 2,250 dense BF16 TFLOP/s (NVIDIA HGX B200
datasheet), each at the framework's compute efficiency (TensorRT-LLM 0.55, vLLM 0.50); the FP4 GEMMs capped at the
NVFP4 kernel's measured share of the FP4 peak (serving.yaml ``nvfp4_large_batch``, 0.444: 3,996 TFLOP/s) where lower."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.step import consts, dense_math_seconds
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def job_of(kb, **w):
    w.setdefault("task", "inference")
    return resolve(Requirements.model_validate({"workload": w}), kb)


def test_llama_8b_nvfp4_head_at_bf16_by_hand(kb):
    """Llama 3.1 8B NVFP4 on one B200, TensorRT-LLM: 32 layers x (4,096 x (4,096 + 2 x 1,024) + 4,096 x 4,096
    + 3 x 4,096 x 14,336) = 6,979,321,856 linear weights (+ 266,240 norm weights the active count carries) in FP4, the
    head 128,256 x 4,096 = 525,336,576 in BF16. Seconds a token: 2 x 6,979,588,096 / 3,996e12 + 2 x 525,336,576 /
    1,237.5e12 = 3.493 + 0.849 = 4.342 us, where all at the FP4 rate would be 3.756 us: +16%."""
    job = job_of(kb, model="llama-3.1-8b", precision="fp4", framework="tensorrt-llm")
    s = SV.choose(job, kb.gpus["b200"], 1)
    eng = s.engine
    assert eng.compute == "fp4" and eng.weight_format == "nvfp4"
    assert eng.peak_dense == pytest.approx(9000e12 * 0.444) and eng.peak_attn == pytest.approx(2250e12 * 0.55)
    body = 32 * (4096 * (4096 + 2 * 1024) + 4096 * 4096 + 3 * 4096 * 14336) + 266_240
    head = 128_256 * 4096
    hand = 2 * body / 3996e12 + 2 * head / 1237.5e12
    assert dense_math_seconds(eng, eng.peak_dense) == pytest.approx(hand, rel=1e-6)
    assert hand == pytest.approx(4.342e-6, rel=1e-3)
    assert consts(job, eng, s.replica).t_tok == pytest.approx(hand, rel=1e-6)
    all_fp4 = 2 * (body + head) / 3996e12
    assert hand / all_fp4 == pytest.approx(1.16, abs=0.01)


def test_gpt_oss_dense_all_bf16(kb):
    """gpt-oss-20b MXFP4 on one B200: only the routed experts are MXFP4, so every dense FLOP (attention, router,
    head) runs at the BF16 rate: 2 x (active - active experts) / 1,237.5e12, to 2e-4 (the ~0.26 M norm and sink
    weights the byte split leaves outside the kept modules are taken at the FP4 rate; no GEMM multiplies them)."""
    job = job_of(kb, model="gpt-oss-20b", precision="fp4", framework="tensorrt-llm")
    eng = SV.choose(job, kb.gpus["b200"], 1).engine
    assert eng.weight_format == "mxfp4"
    dense = 2 * (eng.sc.n_active - eng.sc.n_experts_active)
    assert dense_math_seconds(eng, eng.peak_dense) == pytest.approx(dense / eng.peak_attn, rel=2e-4)


def test_fp8_unchanged(kb):
    """An FP8 engine (W8A8 on H100) keeps one rate for every dense FLOP, the head included."""
    job = job_of(kb, model="llama-3.1-8b", precision="fp8", framework="tensorrt-llm")
    eng = SV.choose(job, kb.gpus["h100-80gb-sxm"], 1).engine
    dense = 2 * (eng.sc.n_active - eng.sc.n_experts_active)
    assert dense_math_seconds(eng, eng.peak_dense) == dense / eng.peak_dense
