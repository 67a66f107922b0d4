"""Catalog entries added for 2025-26 releases (branch catalog26): each new entry's parameter count follows from its
config.json shapes by hand and lands within 2% of the total its publisher states; releases that keep an existing
entry's shapes resolve to that entry.

Published totals (the model cards and reports named in each case): OLMo 2 7B / 13B / 32B: 7.3B / 13.7B / 32.2B
(allenai/OLMo-2-1124-7B, -13B, OLMo-2-0325-32B cards); Phi-3.5-MoE: 41.9B total, 6.6B active (microsoft/
Phi-3.5-MoE-instruct card: 16x3.8B, 6.6B active with 2 experts); Hunyuan-A13B: 80B total, 13B active
(tencent/Hunyuan-A13B-Instruct card)."""

from __future__ import annotations

import pytest

from gpuwise import knowledge
from gpuwise.estimators.memory_serving import kv_cache_bytes
from gpuwise.inputs.shape import from_catalog


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _attn(h: int, heads: int, kv: int, d: int) -> int:
    return h * heads * d + 2 * h * kv * d + heads * d * h  # q, k, v, o


def _olmo_total(layers: int, h: int, heads: int, kv: int, f: int, vocab: int, d: int = 128) -> int:
    """OLMo 2 / Olmo 3 by hand: no biases; q_norm over heads x d and k_norm over kv x d (the whole projection), two
    RMSNorms a layer (after attention, after the MLP), untied embeddings and the final norm."""
    per_layer = _attn(h, heads, kv, d) + 3 * h * f + heads * d + kv * d + 2 * h
    return layers * per_layer + 2 * vocab * h + h


@pytest.mark.parametrize("mid,layers,h,heads,kv,f,total,published", [
    # allenai OLMo 2 config.json (mlc-llm model_preset.py 'olmo2_7b' / '_13b' / '_32b'): vocab 100352, untied
    ("olmo-2-7b", 32, 4096, 32, 32, 11008, 7_298_617_344, 7.3e9),
    ("olmo-2-13b", 40, 5120, 40, 40, 13824, 13_716_198_400, 13.7e9),
    ("olmo-2-32b", 64, 5120, 40, 8, 27648, 32_234_279_936, 32.2e9),
])
def test_olmo2_counts(kb, mid, layers, h, heads, kv, f, total, published):
    d = 128
    assert _olmo_total(layers, h, heads, kv, f, 100352) == total
    m = kb.models[mid]
    assert m.params_b * 1e9 == pytest.approx(total, rel=1e-12)
    assert total == pytest.approx(published, rel=0.02)
    assert m.qk_norm_all_heads  # the norm spans all heads: one more exchange a layer under tensor parallelism
    # 2 (K and V) x layers x kv heads x 128 x 2 B a token: 512 KiB for the 7B, 256 KiB for the 32B
    assert kv_cache_bytes(from_catalog(m), 1000).value == pytest.approx(2 * layers * kv * d * 2 * 1000)


def test_phi35_moe_counts(kb):
    # microsoft/Phi-3.5-MoE-instruct config.json: 32 layers, hidden 4096, 32 heads of 128, 8 KV heads, 16 experts
    # of 6400, top 2, vocab 32064, untied; attention_bias (q, k, v, o), LayerNorm with bias (2 a layer + final),
    # lm_head_bias
    layers, h, experts, k, f, vocab = 32, 4096, 16, 2, 6400, 32064
    attn = _attn(h, 32, 8, 128) + (32 + 16) * 128 + h
    shared = attn + 4 * h + h * experts  # attention, two LayerNorms, router
    embed = 2 * vocab * h + vocab + 2 * h  # embedding, LM head and its bias, final LayerNorm
    total = layers * (shared + experts * 3 * h * f) + embed
    active = layers * (shared + k * 3 * h * f) + embed
    assert (total, active) == (41_873_153_344, 6_640_999_744)
    assert total == pytest.approx(41.9e9, rel=0.02)  # model card: 41.9B
    assert active == pytest.approx(6.6e9, rel=0.02)  # 6.6B active
    m = kb.models["phi-3.5-moe"]
    assert m.params_b * 1e9 == pytest.approx(total, rel=1e-12)
    assert m.active_params_b * 1e9 == pytest.approx(active, rel=1e-12)
    assert from_catalog(m).moe_layers == 32


def test_hunyuan_a13b_counts(kb):
    # tencent/Hunyuan-A13B-Instruct config.json: 32 layers, hidden 4096, 32 heads of 128, 8 KV heads, per-head q/k
    # RMSNorm, 64 experts of 3072, top 8, one shared MLP of 3072, no biases, tied 128,167-token embedding
    layers, h, experts, k, f, vocab = 32, 4096, 64, 8, 3072, 128167
    shared = _attn(h, 32, 8, 128) + 2 * 128 + 2 * h + h * experts + 3 * h * f  # ... router, shared expert
    total = layers * (shared + experts * 3 * h * f) + vocab * h + h
    active = layers * (shared + k * 3 * h * f) + vocab * h + h
    assert (total, active) == (80_393_183_232, 12_747_448_320)
    assert total == pytest.approx(80e9, rel=0.02)  # model card: 80B total
    assert active == pytest.approx(13e9, rel=0.02)  # 13B active
    m = kb.models["hunyuan-a13b"]
    assert m.params_b * 1e9 == pytest.approx(total, rel=1e-12)
    assert m.active_params_b * 1e9 == pytest.approx(active, rel=1e-12)
    assert m.moe.shared_experts == 1 and m.tied_embeddings


@pytest.mark.parametrize("name,model_id", [
    ("allenai/OLMo-2-1124-7B-Instruct", "olmo-2-7b"), ("olmo2:13b", "olmo-2-13b"),
    ("allenai/OLMo-2-0325-32B-Instruct", "olmo-2-32b"),
    ("microsoft/Phi-3.5-MoE-instruct", "phi-3.5-moe"), ("tencent/Hunyuan-A13B-Instruct", "hunyuan-a13b"),
    ("allenai/Olmo-3-1025-7B", "olmo-3-7b"), ("allenai/Olmo-3.1-32B-Think", "olmo-3-32b"),
    ("inclusionAI/Ling-mini-2.0", "ling-mini-2.0"), ("inclusionAI/Ring-mini-2.0", "ling-mini-2.0"),
    ("Qwen/Qwen2.5-Coder-32B-Instruct", "qwen2.5-32b"), ("Qwen/Qwen2.5-Coder-14B-Instruct", "qwen2.5-14b"),
    ("qwen2.5-coder:7b", "qwen2.5-7b"), ("Qwen/Qwen2.5-Coder-3B", "qwen2.5-3b"),
    ("Qwen/Qwen2.5-Coder-0.5B-Instruct", "qwen2.5-0.5b"),
    ("Qwen/Qwen2.5-VL-7B-Instruct", "qwen2.5-7b"), ("Qwen/Qwen2.5-VL-72B-Instruct", "qwen2.5-72b"),
    ("qwen2.5-vl-3b-instruct", "qwen2.5-3b"),
    ("Qwen/Qwen3-VL-30B-A3B-Instruct", "qwen3-30b-a3b"), ("Qwen/Qwen3-VL-235B-A22B-Thinking", "qwen3-235b-a22b"),
    ("openai/gpt-oss-safeguard-20b", "gpt-oss-20b"), ("openai/gpt-oss-safeguard-120b", "gpt-oss-120b"),
    ("nvidia/Llama-3.1-Nemotron-70B-Instruct-HF", "llama-3.1-70b"),
    ("nvidia/Llama-3.1-Nemotron-Nano-8B-v1", "llama-3.1-8b"),
    ("PrimeIntellect/INTELLECT-3", "glm-4.5-air"), ("zai-org/GLM-4.5V", "glm-4.5-air"),
    ("microsoft/Phi-4-reasoning", "phi-4"), ("microsoft/Phi-4-reasoning-plus", "phi-4"),
    ("mistralai/Devstral-Small-2505", "mistral-small-24b"), ("Devstral-Small-2507", "mistral-small-24b"),
    ("mistralai/Magistral-Small-2506", "mistral-small-24b"),
])
def test_2026_names_resolve(kb, name, model_id):
    assert kb.model(name).id == model_id


@pytest.mark.parametrize("model_id,shape", [
    # Qwen2.5-Coder report Table 1: hidden, layers, query heads, KV heads, intermediate
    ("qwen2.5-7b", (3584, 28, 28, 4, 18944)), ("qwen2.5-32b", (5120, 64, 40, 8, 27648)),
    ("qwen2.5-14b", (5120, 48, 40, 8, 13824)), ("qwen2.5-3b", (2048, 36, 16, 2, 11008)),
    ("qwen2.5-0.5b", (896, 24, 14, 2, 4864)),
    # Mistral Small 3.1 text model kept by Devstral Small and Magistral Small: 40 x 5120, 32/8 heads, vocab 131072
    ("mistral-small-24b", (5120, 40, 32, 8, 32768)),
])
def test_alias_targets_have_the_published_shapes(kb, model_id, shape):
    m = kb.models[model_id]
    assert (m.hidden_size, m.layers, m.heads, m.kv_heads, m.ffn_size) == shape


@pytest.mark.parametrize("mid,layers,h,heads,kv,f,total,published", [
    # allenai/OLMo-core config.py: olmo3_7B / olmo3_32B = olmo2_7B / olmo2_32B with windows [4096, 4096, 4096, full];
    # the dolma2 vocabulary of 100,278 (tokenizer.py), untied. The 7B total is the one a Hugging Face fine-tune of
    # allenai/Olmo-3-1025-7B declares (7,298,011,136); Allen AI calls them 7B and 32B.
    ("olmo-3-7b", 32, 4096, 32, 32, 11008, 7_298_011_136, 7_298_011_136),
    ("olmo-3-32b", 64, 5120, 40, 8, 27648, 32_233_522_176, 32e9),
])
def test_olmo3_counts_and_windows(kb, mid, layers, h, heads, kv, f, total, published):
    assert _olmo_total(layers, h, heads, kv, f, 100278) == total
    m = kb.models[mid]
    assert m.params_b * 1e9 == pytest.approx(total, rel=1e-12)
    assert total == pytest.approx(published, rel=0.02)
    # one layer in four attends globally: at the 65,536-token context the other three keep 4,096 tokens
    assert from_catalog(m).kv_cached_tokens(65536) == pytest.approx((65536 + 3 * 4096) / 4)


def test_ling_mini_2_counts(kb):
    # inclusionAI/Ling-V2 run_pretrain_32k.sh: 20 layers, hidden 2048, 16 heads of 128, 4 KV heads, QK norm; layer 0
    # dense (5120), layers 1-19: 256 experts of 512 + one shared of 512, top 8, router with an expert bias; vocab
    # 157184, untied. Ling-V2 README: 16B total, 1.4B activated, 789M of them outside the embeddings.
    h, vocab, experts, k = 2048, 157184, 256, 8
    attn = _attn(h, 16, 4, 128) + 2 * 128 + 2 * h
    expert = 3 * h * 512
    moe_shared = attn + expert + h * experts + experts  # attention, shared expert, router and its bias
    embed = 2 * vocab * h + h
    total = attn + 3 * h * 5120 + 19 * (moe_shared + experts * expert) + embed
    active = attn + 3 * h * 5120 + 19 * (moe_shared + k * expert) + embed
    assert (total, active) == (16_255_643_392, 1_432_973_056)
    assert total == pytest.approx(16e9, rel=0.02) and active == pytest.approx(1.4e9, rel=0.03)
    assert active - 2 * vocab * h == pytest.approx(789e6, rel=0.001)  # 789M non-embedding
    m = kb.models["ling-mini-2.0"]
    assert m.params_b * 1e9 == pytest.approx(total, rel=1e-12)
    assert m.active_params_b * 1e9 == pytest.approx(active, rel=1e-12)
    assert from_catalog(m).moe_layers == 19


def test_ernie_45_300b_counts(kb):
    # ERNIE-4.5-300B-A47B: 54 layers, hidden 8192, 64 heads of 128, 8 KV heads; layers 0-2 dense (28672), 3-53 MoE:
    # 64 experts of 3584, top 8, no shared expert; router with a 64-wide correction bias; vocab 103424, untied
    h, vocab, experts, k = 8192, 103424, 64, 8
    attn = _attn(h, 64, 8, 128) + 2 * h
    dense = attn + 3 * h * 28672
    moe_shared = attn + h * experts + experts
    embed = 2 * vocab * h + h
    total = 3 * dense + 51 * (moe_shared + experts * 3 * h * 3584) + embed
    active = 3 * dense + 51 * (moe_shared + k * 3 * h * 3584) + embed
    assert (total, active) == (299_484_163_264, 47_926_586_560)
    assert total == pytest.approx(300e9, rel=0.02) and active == pytest.approx(47e9, rel=0.02)  # 300B / 47B
    m = kb.models["ernie-4.5-300b-a47b"]
    assert m.params_b * 1e9 == pytest.approx(total, rel=1e-12)
    assert m.active_params_b * 1e9 == pytest.approx(active, rel=1e-12)
    assert from_catalog(m).moe_layers == 51
    assert kb.model("baidu/ERNIE-4.5-300B-A47B-PT").id == "ernie-4.5-300b-a47b"
    assert kb.model("baidu/ERNIE-4.5-21B-A3B-PT").id == "ernie-4.5-21b-a3b"  # the smaller sibling is unchanged
