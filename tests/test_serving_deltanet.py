"""The serving step of a hybrid gated-DeltaNet model (gpuwise/estimators/serving/recurrent.py), by hand.

Shapes: Qwen3-Next-80B-A3B has 48 layers, 12 of them gated attention (16 query heads of 256) and 36 gated DeltaNet
with 32 value heads of 128 (key heads of 128): NVIDIA-NeMo/Megatron-Bridge qwen_provider.py @ fb8a4d6b, as
knowledge/models.yaml cites it. Qwen3.5-397B-A17B: 60 layers, 15 attention, 45 DeltaNet with 64 value heads of 128
(NVIDIA/Megatron-LM examples/mimo/configs/qwen35_vlm.py @ 1e38b879).

Chunked prefill: fla-org/flash-linear-attention fla/ops/gated_delta_rule/chunk.py chunk_gated_delta_rule_fwd, chunks of
64 tokens; per chunk and value head K K^T, A K, A V, w S, K^T V_new, Q S and the masked (Q K^T) V_new.
Decode: SGLang's Qwen3GatedDeltaNet.forward (python/sglang/srt/models/qwen3_next.py @ 0201bc80) and
GDNAttnBackend.forward_decode (python/sglang/srt/layers/attention/linear/gdn_backend.py @ 0051ebfc).
"""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs import shape as SH

RC = importlib.import_module("gpuwise.estimators.serving.recurrent")
ST = importlib.import_module("gpuwise.estimators.serving.step")

C, D = 64, 128  # FLA's chunk; a DeltaNet key / value head


def _per_value_head() -> int:
    """A prompt token's FLOPs in one value head of the chunked rule: each product of a chunk over its C tokens."""
    kkt = C * C * D           # K K^T within the chunk (chunk_scaled_dot_kkt_fwd)
    w_u = C * C * D + C * C * D  # w = A (beta K exp g), u = A (beta V) (recompute_w_u_fwd)
    h = C * D * D + D * C * D  # V_new = u - w S, then S + K^T V_new (chunk_gated_delta_rule_fwd_h)
    o = C * D * D + C * C * D + C * C * D  # Q S, (Q K^T masked), its product with V_new (chunk_fwd_o)
    return 2 * (kkt + w_u + h + o) // C  # two FLOPs a multiply-add, per token of the chunk


def test_the_chunked_rule_by_hand():
    assert _per_value_head() == 180_224  # 2 x 64 x (3 x 128 + 2 x 128) + 6 x 128 x 128
    assert RC.chunk_flops("gated_deltanet", 32 * D * D, D) == 32 * 180_224 == 5_767_168  # Qwen3-Next
    assert RC.chunk_flops("gated_deltanet", 64 * D * D, D) == 64 * 180_224  # Qwen3.5-397B
    assert RC.chunk_flops("gated_deltanet", 32 * D * D, 0) == 6 * 32 * D * D  # head width not stated: the state term
    assert RC.chunk_flops("mamba2", 32 * D * D, D) == 0.0  # Mamba-2's scan is not counted


@pytest.mark.parametrize(("model", "expected"), [
    ("qwen3-next-80b-a3b", (12, "gated_deltanet", 36, 5_767_168.0, 32.0)),  # 32 value heads of 128
    ("qwen3.5-397b-a17b", (15, "gated_deltanet", 45, 11_534_336.0, 64.0)),
    ("nvidia-nemotron-nano-9b-v2", (4, "mamba2", 27, 0.0, 0.0)),  # 4 attention blocks of 56 (Megatron-Bridge pattern)
    ("llama-3.1-8b", None),
])
def test_the_shape_constants(kb, model, expected):
    assert RC.hybrid_consts(SH.from_catalog(kb.models[model])) == expected


def _sq(kb, accuracy, framework="sglang", version="0.5.2"):
    """SQ01's job: Qwen3-Next-80B-A3B BF16 on 2 x H200 at TP 2 (tests/data/validation, SGLang pull request #10404)."""
    job = accuracy.serving_job(kb, "qwen3-next-80b-a3b", "bf16", framework, 1000, 2000, 8, tp=2,
                               framework_version=version)
    return job, SV.choose(job, kb.gpus["h200-141gb-sxm"], 2)


def test_sglang_decode_launches_one_more_kernel_a_deltanet_layer(kb, accuracy):
    """In a row on the decode step's stream: in_proj_qkvz, fused_qkvzba_split_reshape_cat, causal_conv1d_update, the
    fused gating + delta-rule update, the gated RMSNorm, out_proj (in_proj_ba runs beside in_proj_qkvz on the
    alternate stream): 6, against an attention mixer's 5; at 0.5.2's 6 us kernel floor 36 x 6 us = 0.216 ms a step."""
    chain = ["in_proj_qkvz", "fused_qkvzba_split_reshape_cat", "causal_conv1d_update",
             "fused_sigmoid_gating_delta_rule_update", "RMSNormGated", "out_proj"]
    assert kb.framework("sglang").recurrent_mixer_kernels.decode["gated_deltanet"] == len(chain)
    job, s = _sq(kb, accuracy)
    eng = s.engine
    assert RC.recurrent_extra_kernels(eng) == 36 * (len(chain) - 5)
    assert eng.kernel_floor == pytest.approx(6e-6)
    none = dataclasses.replace(eng, fw=eng.fw.model_copy(update={"recurrent_mixer_kernels": None}))
    kv = 1000 + 1000
    longer = (ST.seconds_of(ST.consts(job, eng, s.replica), 8.0, 0.0, kv, 0.0)
              - ST.seconds_of(ST.consts(job, none, s.replica), 8.0, 0.0, kv, 0.0))
    assert longer == pytest.approx(36 * 6e-6, rel=1e-9)


def test_vllm_states_no_count(kb, accuracy):
    """vLLM's count was not read: its DeltaNet layers cost as many kernels as attention layers."""
    _, s = _sq(kb, accuracy, "vllm", "0.11.0")
    assert RC.recurrent_extra_kernels(s.engine) == 0.0


def test_a_prefill_steps_attention_by_hand(kb, accuracy):
    """A prompt chunk of 1,000 tokens attending 500 positions on average, TP 2: quadratic attention in the 12
    attention layers only (4 x 16 x 256 FLOPs a token, position and layer) and the chunked rule in the 36 DeltaNet
    layers, split over the two GPUs' heads, at the 16-bit rate."""
    job, s = _sq(kb, accuracy)
    eng = s.engine
    tokens, ctx = 1000.0, 500.0
    by_hand = (12 * 4 * 16 * 256 * ctx * tokens + 36 * 5_767_168 * tokens) / 2
    got = ST.step(job, eng, s.replica, 0.0, tokens, 0.0, ctx)
    assert got.attention == pytest.approx(by_hand / eng.peak_attn, rel=1e-12)
    every_layer = 48 * 4 * 16 * 256 * ctx * tokens / 2  # what the step counted before: every layer quadratic
    assert got.attention < every_layer / eng.peak_attn


# flash-linear-attention's Triton chunk kernels as vLLM runs them on SM12x (serving.yaml vllm fla_gdn_prefill):
# flashinfer-ai/flashinfer pull request #3659, RTX PRO 6000 Blackwell Workstation Edition, 8 x 8,192 tokens with 16
# value heads of 128 in 3.527 ms on the FLA/Triton path; vllm-project/vllm pull request #55715: vLLM routes SM12x GDN
# prefill to that path (FlashInfer there only from the change, after the 0.28 builds).
FLA_PER_HEAD_TOKEN = 3.527e-3 / (8 * 8192 * 16)  # 3.3636 ns a prompt token and value head on the 1,792 GB/s card


def _gb10(kb, accuracy, version="0.26.0", gpu="gb10", framework="vllm"):
    """SH64's job: Qwen3.5-2B BF16 on one GB10 under vLLM 0.26.0, 4,006 / 501 at 25 in flight."""
    job = accuracy.serving_job(kb, "qwen3.5-2b", "bf16", framework, 4006, 501, 25, tp=1, framework_version=version)
    return job, SV.choose(job, kb.gpus[gpu], 1)


def test_fla_prefill_rate_by_hand(kb, accuracy):
    """GB10 (SM121, 273 GB/s): 3.3636 ns x 1,792 / 273 = 22.079 ns a token and value head; Qwen3.5-2B has 18 gated
    DeltaNet layers of 16 value heads of 128 (262,144 state elements = 16 x 128^2), so a prompt token costs
    18 x 16 x 22.079 ns = 6.359 us there, where the chunk's FLOPs (16 x 180,224 a layer) are no longer counted."""
    job, s = _gb10(kb, accuracy)
    per = FLA_PER_HEAD_TOKEN * 1792 / 273
    assert per == pytest.approx(22.079e-9, rel=1e-4)
    assert s.engine.fla_prefill == pytest.approx(per, rel=1e-12)
    c = ST.consts(job, s.engine, s.replica)
    assert c.chunk_fl == 0.0
    assert c.fla_s == pytest.approx(18 * 16 * per, rel=1e-12)
    assert c.fla_s == pytest.approx(6.359e-6, rel=1e-3)
    # a step that also prefills 2,048 prompt tokens is longer by their FLA time, less the chunk FLOPs no longer counted
    none = dataclasses.replace(s.engine, fla_prefill=0.0)
    c0 = ST.consts(job, none, s.replica)
    assert c0.fla_s == 0.0 and c0.chunk_fl == 18 * 16 * 180_224
    longer = ST.seconds_of(c, 1.0, 2048.0, 4000.0, 2048.0) - ST.seconds_of(c0, 1.0, 2048.0, 4000.0, 2048.0)
    assert longer == pytest.approx(2048 * (18 * 16 * per - 18 * 16 * 180_224 / none.peak_attn), rel=1e-6)


@pytest.mark.parametrize(("version", "gpu", "framework"), [
    ("0.29.0", "gb10", "vllm"),  # the window ends: the release that may carry FlashInfer's SM12x prefill
    (None, "gb10", "vllm"),  # no release stated: the framework's current kernels
    ("0.26.0", "h100-80gb-sxm", "vllm"),  # SM90: FlashInfer's GDN prefill since vLLM pull request #32846
    ("0.5.16", "gb10", "sglang"),  # SGLang: no such window stated
])
def test_fla_prefill_only_in_its_window(kb, accuracy, version, gpu, framework):
    _, s = _gb10(kb, accuracy, version, gpu, framework)
    assert s.engine.fla_prefill == 0.0


def test_the_report_says_the_fla_time(kb, accuracy):
    """The decode term's formula names the FLA time a token and value head where it is priced (22.08 ns on the GB10,
    16 heads a layer at TP 1), and the chunk's FLOPs where it is not (H100, a release with FlashInfer's kernel)."""
    RP = importlib.import_module("gpuwise.estimators.serving.report")
    job, s = _gb10(kb, accuracy)
    parts = {mid: values for _, mid, values in RP.terms(job, s)["decode"].formula_phrases}
    fla = parts["formula.serving.recurrent_mixer_fla"]
    assert (fla["layers"], fla["heads"]) == (18, 16.0)
    assert fla["ns"] == pytest.approx(FLA_PER_HEAD_TOKEN * 1792 / 273 * 1e9, rel=1e-9)
    assert "formula.serving.recurrent_mixer" not in parts
    job, s = _gb10(kb, accuracy, "0.26.0", "h100-80gb-sxm")
    parts = {mid: values for _, mid, values in RP.terms(job, s)["decode"].formula_phrases}
    assert parts["formula.serving.recurrent_mixer"]["flops"] == 16 * 180_224
