"""What a Gemma layer runs a token beyond a pre-norm (Llama) layer (branch gemma45, issue 22 items 1, 6, 7).

Norms: vllm-project/vllm vllm/model_executor/models/gemma3.py @ 004dc924965cf24a4ade341394c45290169dd2ba and
sgl-project/sglang python/sglang/srt/models/gemma3_causal.py @ 038c87d490581565bd08d24a46cf6333bfc5462d
(Gemma3DecoderLayer.forward): input_layernorm (with the residual add), post_attention_layernorm,
pre_feedforward_layernorm (with the residual add), post_feedforward_layernorm: four norm kernels against a Llama
layer's two, so two more a layer (models.yaml layer_norm_kernels 4). Gemma 4 26B-A4B in sglang gemma4_causal.py @
03826cdd9594dba59282dd0411841506ff3a26ad: input, post-attention, pre-feedforward (add), the router's norm and its
scaling, pre_feedforward_layernorm_2 and the fused dual post-feedforward norm: seven, five more. vLLM from 0.8.0
compiles the layer with Inductor (serving.yaml compiled_norms_from), which generates what lies between two GEMMs as
one kernel: no extra kernel there.
"""

from __future__ import annotations

import importlib

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

ST = importlib.import_module("gpuwise.estimators.serving.step")


def _choice(kb, model, framework, gpu="h200-141gb-sxm", precision="bf16", version=None, weight_format=None):
    w = {"task": "inference", "model": model, "precision": precision, "framework": framework,
         "prompt_tokens": 128, "output_tokens": 128}
    if version:
        w["framework_version"] = version
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    return job, SV.choose(job, kb.gpus[gpu], 1, weight_format=weight_format)


def test_gemma3_layer_runs_two_norm_kernels_more_on_sglang(kb):
    """gemma-3-4b: 34 layers x (4 - 2) = 68 kernels beyond the dense layer's, nothing else counted (dense, BF16)."""
    _, s = _choice(kb, "gemma-3-4b", "sglang")
    assert kb.models["gemma-3-4b"].layer_norm_kernels == 4
    assert ST._extra_kernels(s.engine) == (68, 0)


def test_llama_layer_runs_none_more(kb):
    """A pre-norm layer's two norms are in DENSE_LAYER_KERNELS: Llama-2-7B on SGLang counts no extra kernel."""
    _, s = _choice(kb, "llama-2-7b", "sglang")
    assert ST._extra_kernels(s.engine) == (0, 0)


@pytest.mark.parametrize("version, fused", [(None, True), ("0.10.1.1", True), ("0.8.0", True), ("0.7.3", False)])
def test_vllm_compile_fuses_the_extra_norms_from_the_v1_default(kb, version, fused):
    """vLLM's V1 compile (the default from 0.8.0) puts Gemma's post-attention norm, residual add and pre-feedforward
    norm between o_proj and gate_up_proj into one generated kernel, as a Llama layer's residual-add + RMSNorm: 0 extra
    kernels; an earlier (V0) release launches each norm: 68."""
    _, s = _choice(kb, "gemma-3-4b", "vllm", gpu="a100-80gb-sxm", version=version)
    assert s.engine.norms_fused is fused
    assert ST._extra_kernels(s.engine) == ((0 if fused else 68), 0)


def test_llamacpp_gemma3_layer_runs_two_norm_ops_more(kb):
    """llama.cpp's graph has the two output norms too (attn_post_norm, ffn_post_norm): gemma-3-12b, 48 x 2 = 96."""
    _, s = _choice(kb, "gemma-3-12b", "llama.cpp", gpu="rtx-5090", precision="int4", weight_format="gguf-q4_k_m")
    assert ST._extra_kernels(s.engine) == (96, 0)


def test_gemma4_moe_layer_runs_five_norm_kernels_more(kb):
    """gemma-4-26b-a4b on SGLang: 30 MoE layers, each the router's 4 kernels, the dense MLP written as shared experts
    (3 kernels unless the build fuses them) and 7 - 2 = 5 norm kernels; 2 grouped expert GEMMs a layer."""
    _, s = _choice(kb, "gemma-4-26b-a4b", "sglang")
    shared = 0 if s.engine.fuses_shared else ST.SHARED_EXPERT_KERNELS
    assert ST._extra_kernels(s.engine) == (30 * (ST.ROUTER_KERNELS + shared + 5), 60)


def test_sx07_step_pays_the_norms_at_sglangs_own_floor(kb):
    """SX07 (SGLang cookbook, gemma-4-26b-a4b BF16 on one H200, no release stated): Gemma is not on SGLang's fused
    kernel list, so a counted kernel costs the framework's 6 us (serving.yaml sglang kernel_floor_us): the 30 x 5 = 150
    norm kernels add 0.90 ms to a step the blind round put at 4.25 ms (235.3 tok/s against 178.6 measured)."""
    _, s = _choice(kb, "gemma-4-26b-a4b", "sglang")
    eng = s.engine
    assert eng.kernel_floor == pytest.approx(6e-6)
    norms = 30 * (7 - ST.PRE_NORM_KERNELS)
    moe, grouped = ST._extra_kernels(eng)
    assert ST.floor_per_step(eng) - (moe - norms) * eng.kernel_floor - grouped * eng.grouped_floor == pytest.approx(
        0.90e-3)
