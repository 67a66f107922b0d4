"""SGLang's ROCm build on CDNA 4 folds an MLA layer's FP8 activation quantization into its RMSNorm kernels (knowledge/
serving.yaml sglang architecture_overrides.cdna4 ``mla_norm_quant_fused_kernels`` from 0.5.5.post2;
fusion.mla_norm_quant_fused; step._extra_kernels).

Read in the sglang wheels from PyPI. With SGLANG_USE_AITER on a gfx950 build:
- layers/communicator.py LayerCommunicator.prepare_attn calls aiter's fused_rms_fp8_group_quant for the input RMSNorm
  when the layer's quant_format is fp8, so the q/kv down-projection gets FP8 input and block scales from the norm.
- deepseek_v2.py forward_absorb_prepare (forward_mla.py in 0.5.12) runs q_a_layernorm, kv_a_layernorm and the q_b
  input's quantization as one call when q_b_proj's weight is float8_e4m3fn.
That is three kernels fewer a decode layer. 0.5.5.post1 has no such call; 0.5.5.post2, 0.5.5.post3 and 0.5.12 do."""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from gpuwise.estimators import serving as SV

ST = importlib.import_module("gpuwise.estimators.serving.step")


def _engine(kb, accuracy, model: str, precision: str, gpu: str, version: str | None, framework: str = "sglang",
            options: str = ""):
    job = accuracy.serving_job(kb, model, precision, framework, 922, 922, tp=8, framework_version=version,
                               options=options)
    return SV.choose(job, kb.gpus[gpu], 8).engine


@pytest.mark.parametrize(("model", "precision", "gpu", "version", "framework", "options", "fewer"), [
    ("deepseek-r1", "fp8", "mi355x", "0.5.12", "sglang", "", 3),            # rows NB05 / NB06
    ("deepseek-r1", "fp8", "mi355x", "0.5.5.post2", "sglang", "", 3),       # the first wheel with the call
    ("deepseek-r1", "fp8", "mi355x", "0.5.5.post1", "sglang", "", 0),       # none in its wheel
    ("deepseek-r1", "fp8", "mi355x", None, "sglang", "", 3),                # no release stated: the current build
    ("deepseek-r1", "fp8", "mi350x", "0.5.12", "sglang", "", 3),            # gfx950 too
    ("deepseek-r1", "fp8", "mi355x", "0.5.12", "sglang", "rocm_aiter=false", 0),  # aiter's kernel: AITER off
    ("deepseek-r1", "fp8", "mi300x", "0.5.12", "sglang", "", 0),            # gfx942: the gfx95 gates
    ("deepseek-r1", "fp4", "mi355x", "0.5.12", "sglang", "", 0),            # MXFP4: its own path, not counted
    ("deepseek-r1", "fp8", "mi355x", "0.5.12", "vllm", "", 0),              # SGLang's code, not vLLM's
])
def test_which_jobs_fold_the_quantization(kb, accuracy, model, precision, gpu, version, framework, options, fewer):
    assert _engine(kb, accuracy, model, precision, gpu, version, framework, options).mla_norm_quant == fewer


def test_deepseek_step_by_hand(kb, accuracy):
    """DeepSeek-R1 FP8 at TP 8 on MI355X, SGLang 0.5.12: 1,080 small kernels a forward before (4 W8A8 quantizations
    and 6 + 2 MLA kernels in each of 61 layers, 4 router and 2 quantization kernels in each of 58 MoE layers:
    244 + 488 + 348), 3 x 61 = 183 fewer with the fused norms: 897."""
    on = _engine(kb, accuracy, "deepseek-r1", "fp8", "mi355x", "0.5.12")
    off = dataclasses.replace(on, mla_norm_quant=0)
    assert 4 * 61 + (6 + 2) * 61 + (4 + 2) * 58 == 1080
    assert ST._extra_kernels(off)[0] == 1080
    assert ST._extra_kernels(on)[0] == 1080 - 3 * 61
    saved = ST.floor_per_step(off) - ST.floor_per_step(on)
    assert saved == pytest.approx(183 * on.kernel_floor, rel=1e-9)
