"""Hybrids whose blocks each hold one kind: Nemotron 3 Nano's 52 blocks are Mamba-2 ('M'), attention ('*') or MoE ('E')
with no dense MLP anywhere, so its MoE blocks are counted apart from its mixers (catalog ``moe.blocks``).

Shapes: NVIDIA-NeMo/Megatron-Bridge src/megatron/bridge/models/nemotronh/nemotron_h_provider.py @ 160ccccb
Nemotron3NanoProvider (hybrid_layer_pattern MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME, hidden 2688, 32 heads
of 128 over 2 query groups, 64 Mamba heads of 64, d_state 128, 8 Mamba groups from the base provider, 128 experts of
1856, top-6, a shared expert of 3712, squared-ReLU MLPs); vocabulary 131072, untied, conv kernel 4 with bias and the
float32 SSM cache from transformers configuration_nemotron_h.py @ cfeb552e; the state a sequence as vLLM sizes it
(mamba_utils.py @ 2afe1e85 mamba2_state_shape), as knowledge/models.yaml cites them. NVIDIA's model card
(nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16) names 31.6B total and 3.2B active (3.6B with the embeddings).
"""

from __future__ import annotations

import math

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.engine import moe_layers, router_params
from gpuwise.estimators.serving.step import step
from gpuwise.inputs.shape import from_catalog
from gpuwise.knowledge.schema.models import Model

NANO3 = "nvidia-nemotron-3-nano-30b-a3b"
PATTERN = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME"
H, VOCAB, EXPERT = 2688, 131072, 2 * 2688 * 1856  # one routed expert: squared-ReLU up and down, no gate
# 23 Mamba-2 blocks: 64 heads x 64 x d_state 128 in float32, 3 x (4,096 + 2 x 8 x 128) convolution elements in BF16
STATE = 23 * (64 * 64 * 128 * 4 + 3 * (64 * 64 + 2 * 8 * 128) * 2)
KV_TOKEN = 6 * 2 * 2 * 128 * 2  # 6 attention blocks, K and V of 2 KV heads of 128, BF16


def _params() -> tuple[int, int]:
    groups, heads, head_dim, state = 8, 64, 64, 128
    inner = heads * head_dim
    conv = inner + 2 * groups * state
    # in_proj (z, x, B, C, dt), depthwise conv and its bias, dt_bias / A_log / D, gated norm, out_proj, block norm
    mamba = H * (2 * inner + 2 * groups * state + heads) + conv * 4 + conv + 3 * heads + inner + inner * H + H
    attn = H * 32 * 128 + 2 * H * 2 * 128 + 32 * 128 * H + H  # q, k, v, o (no bias), block norm
    # 128 routed experts, the shared expert of 3712, router and its score-correction bias, block norm
    moe = 128 * EXPERT + 2 * H * 3712 + 128 * H + 128 + H
    total = 2 * VOCAB * H + PATTERN.count("M") * mamba + PATTERN.count("*") * attn + PATTERN.count("E") * moe + H
    return total, total - PATTERN.count("E") * (128 - 6) * EXPERT


def test_nemotron_3_nano_params_follow_from_its_pattern(kb):
    """52 blocks: 23 Mamba-2, 23 MoE, 6 attention. 31,577,940,288 parameters (31.6B, as NVIDIA names it) and
    3,580,076,352 a token touches (3.6B with the embeddings; 3,227,754,816 = 3.2B without the input embedding);
    the shared expert of 3712 is two experts of the routed width 1856: shared_experts 2 holds its weights and work."""
    assert (len(PATTERN), PATTERN.count("M"), PATTERN.count("E"), PATTERN.count("*")) == (52, 23, 23, 6)
    total, active = _params()
    assert (total, active) == (31_577_940_288, 3_580_076_352)
    assert total == pytest.approx(31.6e9, rel=0.02)
    assert active == pytest.approx(3.6e9, rel=0.02) and active - VOCAB * H == pytest.approx(3.2e9, rel=0.02)
    m = kb.models[NANO3]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert m.active_params_b * 1e9 == pytest.approx(active, abs=0.5)
    assert (m.layers, m.attention_layers, m.recurrent.layers, m.moe.blocks) == (
        len(PATTERN), PATTERN.count("*"), PATTERN.count("M"), PATTERN.count("E"))
    assert 2 * 1856 == 3712 and m.moe.shared_experts == 2


def test_the_moe_blocks_are_the_shapes_moe_layers(kb):
    """The shape counts 23 MoE layers, not 52: the router is 23 x 128 x 2,688 = 7,913,472 weights, the routed experts
    23 x 128 x 9,977,856 = 29,374,808,064, and a token multiplies through 3,580,076,352 less the 352,321,536 input
    embedding (its output head is the same size)."""
    shape = from_catalog(kb.models[NANO3])
    assert shape.moe_layers == moe_layers(shape) == 23
    assert router_params(shape) == 23 * 128 * H == 7_913_472
    assert shape.routed_expert_params == 23 * 128 * EXPERT == 29_374_808_064
    assert shape.matmul_params_active == 3_580_076_352 - VOCAB * H == 3_227_754_816
    # every other MoE entry keeps its layout: Qwen3-Next's 48 layers, DeepSeek-V3's 61 less 3 dense ones
    assert from_catalog(kb.models["qwen3-next-80b-a3b"]).moe_layers == 48
    assert from_catalog(kb.models["deepseek-v3"]).moe_layers == 58


def test_nemotron_3_nano_state_and_kv_by_hand(kb):
    """The 23 Mamba-2 blocks hold 23 x (524,288 x 4 B + 18,432 x 2 B) = 49,082,368 B a sequence whatever its length;
    the 6 attention blocks alone keep a KV cache, 6 x 2 x 2 x 128 x 2 B = 6,144 B a token."""
    assert STATE == 23 * (2_097_152 + 36_864) == 49_082_368 and KV_TOKEN == 6144
    shape = from_catalog(kb.models[NANO3])
    assert shape.state_bytes_per_sequence == STATE
    assert shape.attn_layers == 6 and shape.ssm == "mamba2"
    assert shape.kv_dim * 2 * 2 * shape.attn_layers == KV_TOKEN


def test_nemotron_3_nano_bf16_on_one_h100(kb, accuracy):
    """BF16 on one H100: the weights are 31,577,940,288 x 2 B = 63,155,880,576 B and fit. A request of 1,000 + 1,000
    tokens is admitted on 1,504 tokens (its prompt and half its output, blocks of 16): 6,144 x 1,504 = 9,240,576 B
    of KV beside 49,082,368 B of state, 58,322,944 B a sequence, so 130 sequences fit where the KV cache alone would
    admit 824: the state sets the count. vLLM's pool is 0.9 of the card less the weights, the context and the start-up
    profile's sampler pass, 37.7 B x 131,072 x 1,024 = 5.06 GB where the forward's working set is 1.26 GB
    (serving.yaml vllm profile_sampler): 3.80 GB less than without it (195 and 1,235 then). FP8 (experts,
    attention and Mamba projections at 1 B, the embedding, head and the 23 routers at 2 B: 30,873,297,216 +
    1,409,286,144 + 7,913,472 = 32,290,496,832 B) fits too."""
    job = accuracy.serving_job(kb, NANO3, "bf16", "vllm", 1000, 1000, 64, 1, 1)
    r = SV.choose(job, kb.gpus["h100-80gb-sxm"], 1).replica
    assert r.fits and r.weights_gpu == 31_577_940_288 * 2
    assert r.kv_token_gpu == KV_TOKEN and r.state_gpu == STATE and r.seq_tokens == 1504
    assert r.per_seq_gpu == KV_TOKEN * 1504 + STATE == 58_322_944
    assert r.max_seqs == math.floor(r.free_gpu / 58_322_944) == 130
    assert r.profile_gpu == pytest.approx(37.7 * 131_072 * 1_024 - r.act_gpu)
    assert math.floor(r.free_gpu / (KV_TOKEN * 1504)) == 824  # the KV cache alone
    fp8 = SV.choose(accuracy.serving_job(kb, NANO3, "fp8", "vllm", 1000, 1000, 64, 1, 1),
                    kb.gpus["h100-80gb-sxm"], 1).replica
    linear = 31_577_940_288 - 2 * VOCAB * H
    assert fp8.fits and fp8.weights_gpu == linear + 2 * (2 * VOCAB * H) + 7_913_472 == 32_290_496_832


def test_a_nemotron_3_nano_decode_step_reads_and_writes_the_state(kb, accuracy):
    """64 sequences at a mean 1,500 tokens: 6,144 x 1,500 x 64 B of KV read, each sequence's 49,082,368 B of state
    read and written back: 589,824,000 + 6,282,543,104 = 6,872,367,104 B."""
    job = accuracy.serving_job(kb, NANO3, "bf16", "vllm", 1000, 1000, 64, 1, 1)
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 1)
    got = step(job, s.engine, s.replica, 64, 0.0, 1500, 0.0)
    assert got.kv_bytes_gpu == KV_TOKEN * 1500 * 64 + 2 * STATE * 64 == 6_872_367_104


def test_the_names_resolve(kb):
    for name in ("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-FP8",
                 "Nemotron-3-Nano", "nemotron-3-nano-30b-a3b"):
        assert kb.model(name).id == NANO3


BASE = {"id": "x", "name": "x", "kind": "moe", "params_b": 1.0, "active_params_b": 0.5, "layers": 6,
        "hidden_size": 64, "heads": 4, "kv_heads": 4, "ffn_size": 32, "vocab_size": 100, "source": "test",
        "attention_layers": 1, "recurrent": {"kind": "mamba2", "layers": 2, "state_elements": 10, "conv_elements": 3}}


def test_moe_blocks_are_checked():
    """moe.blocks replaces the layout fields, and the three kinds of block fit in the layers."""
    ok = Model.model_validate({**BASE, "moe": {"experts": 4, "experts_per_token": 2, "blocks": 3}})
    assert ok.moe.blocks == 3
    with pytest.raises(ValueError, match="leave first_dense_layers"):
        Model.model_validate({**BASE, "moe": {"experts": 4, "experts_per_token": 2, "blocks": 3,
                                              "first_dense_layers": 1, "dense_ffn_size": 8}})
    with pytest.raises(ValueError, match="exceed layers"):
        Model.model_validate({**BASE, "moe": {"experts": 4, "experts_per_token": 2, "blocks": 4}})


# ------------------------------------------------------------------ Falcon-H1: attention and Mamba-2 side by side
# Megatron-Bridge falcon_h1/falconh1_provider.py @ 070c45b7 FalconH1ModelProvider34B (72 layers of 5120, SwiGLU 21504,
# 20 heads over 4 KV heads, 32 Mamba heads, 2 groups, d_state 256, vocabulary 261120, untied); head widths 128 / 128
# from the transformers docs table (docs/source/en/model_doc/falcon_h1.md @ 0b3473ad).
FH = "falcon-h1-34b"
FH_STATE = 72 * (32 * 128 * 256 * 2 + 3 * (32 * 128 + 2 * 2 * 256) * 2)  # BF16 state and convolution, every layer
FH_KV = 72 * 2 * 4 * 128 * 2


def _falcon_h1_params(h: int, layers: int, ffn: int, heads: int, kv: int, m_heads: int, groups: int, state: int,
                      vocab: int, head_dim: int = 128, m_head_dim: int = 128) -> int:
    inner = m_heads * m_head_dim  # mamba_d_ssm
    conv = inner + 2 * groups * state
    # in_proj, conv and its bias, dt_bias / A_log / D, gated norm, out_proj
    mamba = h * (2 * inner + 2 * groups * state + m_heads) + conv * 4 + conv + 3 * m_heads + inner + inner * h
    attn = h * heads * head_dim * 2 + 2 * h * kv * head_dim
    mlp = 3 * h * ffn
    return layers * (mamba + attn + mlp + 2 * h) + 2 * vocab * h + h


def test_falcon_h1_34b_params_follow_from_its_shapes(kb):
    """Each of the 72 layers holds a Mamba-2 mixer, attention and a SwiGLU MLP: 33,642,516,224 parameters, 1.1 % under
    the 34B TII names it by. The 7B's shapes (the same provider file's FalconH1ModelProvider7B: 44 x 3072, SwiGLU 12288,
    12 heads over 2, 24 Mamba heads of 128, 1 group, vocabulary 130049) come out 7.59B, beyond 2 % of its name, which
    is why it is not listed."""
    total = _falcon_h1_params(5120, 72, 21504, 20, 4, 32, 2, 256, 261120)
    assert total == 33_642_516_224 and total == pytest.approx(34e9, rel=0.02)
    m = kb.models[FH]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert _falcon_h1_params(3072, 44, 12288, 12, 2, 24, 1, 256, 130049) == pytest.approx(7.59e9, rel=0.001)
    assert abs(_falcon_h1_params(3072, 44, 12288, 12, 2, 24, 1, 256, 130049) / 7e9 - 1) > 0.02
    assert "falcon-h1-7b" not in kb.models


def test_falcon_h1_keeps_a_kv_cache_and_a_state_in_every_layer(kb):
    """parallel_mixers: the 72 layers all attend (72 x 2 x 4 x 128 x 2 B = 147,456 B of KV a token) and all keep a Mamba
    state (72 x (1,048,576 + 15,360) x 2 B = 153,206,784 B a sequence); a token multiplies through every weight but the
    input embedding, 2 x 32,305,581,824 FLOPs."""
    assert FH_KV == 147_456 and FH_STATE == 153_206_784
    m = kb.models[FH]
    assert m.parallel_mixers and m.attention_layers == m.recurrent.layers == m.layers == 72
    shape = from_catalog(m)
    assert shape.attn_layers == 72 and shape.state_bytes_per_sequence == FH_STATE
    assert shape.kv_dim * 2 * 2 * shape.attn_layers == FH_KV
    assert shape.matmul_params_active == pytest.approx(33_642_516_224 - 261120 * 5120, abs=1)


def test_falcon_h1_34b_bf16_on_one_h100(kb, accuracy):
    """BF16 weights, 33,642,516,224 x 2 B = 67.3 GB, fit one H100, but a sequence of 1,504 tokens then takes
    147,456 x 1,504 = 221,773,824 B of KV and 153,206,784 B of state, 374,980,608 B: 7 sequences of the 64 asked for
    run at once (12 on the KV cache alone). vLLM's start-up profile ends in a sampler pass over 1,024 requests of
    the 261,120-entry vocabulary, 37.7 B x 261,120 x 1,024 = 10.08 GB where the forward's working set is 2.46 GB
    (serving.yaml vllm profile_sampler): at its default 0.9 of the card no request fits, so its operator raises the
    setting to gpuwise's headroom share, where the pool is still 7.62 GB short of that peak (16 and 27 without it)."""
    job = accuracy.serving_job(kb, FH, "bf16", "vllm", 1000, 1000, 64, 1, 1)
    r = SV.choose(job, kb.gpus["h100-80gb-sxm"], 1).replica
    assert r.fits and r.weights_gpu == pytest.approx(33_642_516_224 * 2, abs=1)
    assert r.kv_token_gpu == FH_KV and r.state_gpu == FH_STATE
    assert r.per_seq_gpu == FH_KV * 1504 + FH_STATE == 374_980_608
    assert r.max_seqs == math.floor(r.free_gpu / 374_980_608) == 7
    assert math.floor(r.free_gpu / (FH_KV * 1504)) == 12
    assert r.profile_gpu == pytest.approx(37.7 * 261_120 * 1_024 - r.act_gpu) and not r.pool_share


def test_parallel_mixers_are_checked():
    """Side by side, each mixer may fill every layer; without the flag they share the layers; the flag needs a
    recurrent block."""
    base = {k: v for k, v in BASE.items() if k not in ("kind", "active_params_b")}
    both = {**base, "attention_layers": 6, "recurrent": {**BASE["recurrent"], "layers": 6}}
    assert Model.model_validate({**both, "parallel_mixers": True}).parallel_mixers
    with pytest.raises(ValueError, match="exceed layers"):
        Model.model_validate(both)
    with pytest.raises(ValueError, match="exceed layers"):
        Model.model_validate({**both, "parallel_mixers": True, "attention_layers": 7})
    plain = {k: v for k, v in base.items() if k not in ("attention_layers", "recurrent")}
    with pytest.raises(ValueError, match="parallel_mixers needs"):
        Model.model_validate({**plain, "parallel_mixers": True})
