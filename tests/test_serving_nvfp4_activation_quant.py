"""The activation-quantization kernel before each dense W4A4 NVFP4 GEMM (knowledge/serving.yaml
``nvfp4_activation_quant``; engine.py ``nvfp4_quant_mixer``, step.py ``fp4_quant_kernels``).

Source: vLLM's CutlassNvFp4LinearKernel.apply_weights (vllm/model_executor/kernels/linear/nvfp4/cutlass.py @ 0094a8a1)
calls scaled_fp4_quant on the layer's input and then cutlass_scaled_fp4_mm; SGLang's ModelOptFp4LinearMethod.apply
calls fp4_quantize and then fp4_gemm. One small kernel a quantized dense linear a forward, counted by hand below."""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

ST = importlib.import_module("gpuwise.estimators.serving.step")


def engine_of(kb, gpu, n=1, **w):
    w.setdefault("task", "inference")
    w.update(prompt_tokens=1, output_tokens=128)
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    return job, SV.choose(job, kb.gpus[gpu], n)


def test_the_entry_names_the_frameworks_that_quantize_apart(kb):
    q = kb.serving.nvfp4_activation_quant
    assert sorted(q.frameworks) == ["sglang", "vllm"]  # TensorRT-LLM quantizes inside its norm / activation kernels
    assert "scaled_fp4_quant" in q.source and "fp4_quantize" in q.source


def test_llama_8b_on_vllm_by_hand(kb):
    """SU14's job (Llama-3.1-8B NVFP4, vLLM 0.18.0, one RTX PRO 6000 Max-Q): 32 layers x (qkv, o, gate/up, down) =
    128 quantization kernels a forward, at vLLM's 10 us floor 1.28 ms more a step than without them."""
    job, s = engine_of(kb, "rtx-pro-6000-blackwell-max-q", model="llama-3.1-8b", precision="fp4",
                       framework="vllm", framework_version="0.18.0")
    eng = s.engine
    assert eng.weight_format == "nvfp4" and eng.fp4_quant_attn == 2
    assert ST.fp4_quant_kernels(eng) == 32 * 4
    plain = dataclasses.replace(eng, fp4_quant_attn=-1)
    assert ST.floor_per_step(eng) - ST.floor_per_step(plain) == pytest.approx(128 * 10e-6, rel=1e-6)
    one, one0 = (SV.step(job, e, s.replica, 1.0, 0.0, 64.0, 0.0) for e in (eng, plain))
    assert one.seconds - one0.seconds == pytest.approx(1.28e-3, rel=1e-3)


def test_kept_attention_and_fused_shared_experts_quantize_nothing_apart(kb):
    """DeepSeek-R1 NVFP4 (-v2 checkpoint: q / kv projections BF16, o_proj NVFP4) on SGLang, 8 x B200: the 61 layers'
    o_proj and the 3 dense layers' gate/up and down, 61 + 3 x 2 = 67; SGLang runs the shared expert inside the
    routed experts' fused-MoE kernel, which quantizes its own input."""
    _, s = engine_of(kb, "b200", 8, model="deepseek-r1", precision="fp4", framework="sglang")
    eng = s.engine
    assert eng.fuses_shared and eng.fp4_quant_attn == 1
    assert ST.fp4_quant_kernels(eng) == 61 * 1 + 3 * 2


def test_a_hybrid_whose_mixers_are_layers_of_their_own(kb):
    """Nemotron 3 Super (88 layers: 40 Mamba-2, 8 attention, 40 LatentMoE) NVFP4 on vLLM, one B200: the 48 mixers'
    input and output projections and the 40 shared experts' two GEMMs (vLLM runs them beside the routed experts),
    48 x 2 + 40 x 2 = 176; no dense MLP layer. Priced on a file named (an all-NVFP4 export): NVIDIA's own release
    stores these parts in BF16 and FP8 (fp4_checkpoints; tests/test_serving_fp8_parts.py)."""
    job, _ = engine_of(kb, "b200", model="nvidia-nemotron-3-super-120b-a12b", precision="fp4", framework="vllm")
    eng = SV.engine(job, kb.gpus["b200"], weight_format="nvfp4")
    assert not eng.fuses_shared
    assert ST.fp4_quant_kernels(eng) == 48 * 2 + 40 * 2


@pytest.mark.parametrize("model, precision, framework", [
    ("gpt-oss-120b", "fp4", "vllm"),  # MXFP4 experts, BF16 attention: no dense NVFP4 linear
    ("llama-3.1-8b", "fp4", "tensorrt-llm"),  # quantizes in the preceding norm and activation kernels
    ("llama-3.1-8b", "fp8", "vllm"),  # W8A8: step.py QUANT_KERNELS_DENSE counts those
])
def test_where_none_is_counted(kb, model, precision, framework):
    _, s = engine_of(kb, "b200", model=model, precision=precision, framework=framework)
    assert s.engine.fp4_quant_attn == -1 and ST.fp4_quant_kernels(s.engine) == 0.0
