"""MiniMax-M2 (and M2.1 / M2.5 / M2.7, the same MiniMaxM2ForCausalLM shapes) in the model catalog: the counts
follow from the config shapes by hand (MiniMaxAI/MiniMax-M2 config.json as carried by GPTQModel's
MiniMaxM2Config defaults: 62 layers, hidden 3072, 48 heads of 128, 8 KV heads, 256 experts of 1536, top 8,
per-layer q/k norms over all heads, a sigmoid router with a correction bias, vocab 200064, untied)."""

from __future__ import annotations

import pytest

from gpuwise import knowledge
from gpuwise.inputs.shape import from_catalog


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _hand_counts() -> tuple[int, int]:
    layers, h, heads, kv, d, experts, k, f, vocab = 62, 3072, 48, 8, 128, 256, 8, 1536, 200064
    attn = h * heads * d + 2 * h * kv * d + heads * d * h  # q, k, v, o
    norms = heads * d + kv * d + 2 * h  # per-layer q_norm (6,144) and k_norm (1,024), two RMSNorms
    router = h * experts + experts  # gate and e_score_correction_bias
    expert = 3 * h * f  # gate, up, down
    embed = 2 * vocab * h + h  # input embedding, LM head, final norm
    total = layers * (attn + norms + router + experts * expert) + embed
    active = layers * (attn + norms + router + k * expert) + embed
    return total, active


def test_params_follow_from_the_config_shapes(kb):
    total, active = _hand_counts()
    assert total == 228_689_764_864  # MiniMax: 230B total (transformers docs model_doc/minimax_m2.md)
    assert active == 11_030_553_088  # MiniMax: 10B active, without the 0.61B input embedding and the head
    m = kb.models["minimax-m2"]
    assert m.params_b * 1e9 == pytest.approx(total, rel=1e-9)
    assert m.active_params_b * 1e9 == pytest.approx(active, rel=1e-9)


def test_every_layer_is_moe_and_the_cache_is_gqa(kb):
    shape = from_catalog(kb.models["minimax-m2"])
    assert shape.moe_layers == 62
    # 8 KV heads of 128 at 16 bits: 2 x 8 x 128 x 2 B = 4 KiB a token a layer, 248 KiB over 62 layers
    assert shape.kv_cached_tokens(32768) == 32768


@pytest.mark.parametrize("name", ["MiniMaxAI/MiniMax-M2", "minimax-m2.5", "MiniMaxAI/MiniMax-M2.7"])
def test_the_m2_family_resolves_to_one_entry(kb, name):
    assert kb.model(name).id == "minimax-m2"
