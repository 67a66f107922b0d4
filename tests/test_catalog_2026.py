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


# ------------------------------------------------------------------ catalog31: 2026 Qwen3.5 sizes, GLM-5, aliases
def _qwen35_total(layers: int, h: int, heads: int, kv: int, vocab: int, value_heads: int, *, mlp: int,
                  active_mlp: int | None = None) -> tuple[int, int]:
    """Qwen3.5 by hand (as tests/test_catalog_qwen35.py counts the 397B): every 4th layer gated attention of head
    width 256 (q_proj twice the heads for the output gate, q/k RMSNorm of 256), the others gated DeltaNet of 16 key
    heads and ``value_heads`` value heads of 128 (in_proj_qkvz, in_proj_ba, a depthwise conv of kernel 4 without
    bias, dt_bias and A_log a value head, a gated norm of 128, out_proj); ``mlp`` weights a layer, two RMSNorms a
    layer, untied embeddings and the final norm."""
    d, key, value = 256, 16 * 128, value_heads * 128
    attn = h * heads * d * 2 + 2 * h * kv * d + heads * d * h + 2 * d
    deltanet = h * (2 * key + 2 * value) + h * 2 * value_heads + (2 * key + value) * 4 + 2 * value_heads + 128 \
        + value * h
    full = layers // 4
    rest = 2 * vocab * h + full * attn + (layers - full) * deltanet + h

    def count(m: int) -> int:
        return rest + layers * (m + 2 * h)
    return count(mlp), count(mlp if active_mlp is None else active_mlp)


def test_qwen35_35b_a3b_counts(kb):
    # Qwen/Qwen3.5-35B-A3B config.json (alibaba/InferSim hf_configs/qwen3.5-35B-A3B_config.json @ 7ed3db76): 40
    # layers of 2048, 16 heads over 2 KV heads, 32 DeltaNet value heads, 256 experts of 512, top-8, a gated shared
    # expert of 512, vocab 248320. The name says 35B total and 3B active.
    h, experts, expert = 2048, 256, 3 * 2048 * 512
    common = h * experts + expert + h  # router, shared expert, its gate
    total, active = _qwen35_total(40, h, 16, 2, 248320, 32, mlp=experts * expert + common,
                                  active_mlp=8 * expert + common)
    assert (total, active) == (34_660_610_688, 3_454_988_928)
    assert total == pytest.approx(35e9, rel=0.02)
    assert active - 248320 * h == pytest.approx(3e9, rel=0.02)  # without the input embedding: 2.95B
    m = kb.models["qwen3.5-35b-a3b"]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert m.active_params_b * 1e9 == pytest.approx(active, abs=0.5)
    shape = from_catalog(m)
    # 30 DeltaNet layers x (32 x 128 x 128 x 4 B (float32: config mamba_ssm_dtype) + 3 x (2 x 16 x 128 + 32 x 128) x
    # 2 B) a sequence (tests/test_qwen35_state.py); 10 x 2 x 2 x 256 x 2 B of KV cache a token
    assert shape.state_bytes_per_sequence == 30 * (524_288 * 4 + 24_576 * 2)
    assert kv_cache_bytes(shape, 1000).value == pytest.approx(10 * 2 * 2 * 256 * 2 * 1000)


def test_qwen35_27b_counts(kb):
    # Qwen3.5-27B config.json values (NVIDIA-NeMo/Megatron-Bridge tests/unit_tests/models/qwen/test_qwen35_bridge.py
    # @ 0be1d58b, qwen3_5_27b_config_dict): 64 layers of 5120, 24 heads over 4 KV heads, 48 DeltaNet value heads, a
    # SwiGLU MLP of 17408, vocab 248320, untied. The name says 27B.
    total, _ = _qwen35_total(64, 5120, 24, 4, 248320, 48, mlp=3 * 5120 * 17408)
    assert total == 26_895_998_464
    assert total == pytest.approx(27e9, rel=0.02)
    m = kb.models["qwen3.5-27b"]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    shape = from_catalog(m)
    assert shape.attn_layers == 16
    # float32 recurrent state, bf16 convolution state (tests/test_qwen35_state.py)
    assert shape.state_bytes_per_sequence == 48 * (48 * 128 * 128 * 4 + 3 * (2 * 16 * 128 + 48 * 128) * 2)


def test_glm5_counts(kb):
    # GlmMoeDsaConfig defaults for zai-org/GLM-5 (huggingface/transformers configuration_glm_moe_dsa.py @ 008e5743):
    # 78 layers of 6144, 64 heads; MLA q_lora 2048, kv_lora 512, qk_nope 192, qk_rope 64, v 256; layers 0-2 dense of
    # 12288, then 256 experts of 2048 + 1 shared, top-8, a router with a 256-wide correction bias; DSA indexer of 32
    # heads of 128 (wq_b from the q latent, wk, a LayerNorm of weight and bias, weights_proj); vocab 154880, untied.
    # GLM-5 README: 744B total, 40B active.
    h, heads, experts, expert = 6144, 64, 256, 3 * 6144 * 2048
    attn = (h * 2048 + 2048 + 2048 * heads * 256  # q down, its norm, q up (nope 192 + rope 64)
            + h * (512 + 64) + 512 + 512 * heads * (192 + 256) + heads * 256 * h)  # kv down, norm, kv up, o
    indexer = 2048 * 32 * 128 + h * 128 + 2 * 128 + h * 32
    layer = attn + indexer + 2 * h
    moe_common = layer + h * experts + experts + expert
    embed = 2 * 154880 * h + h
    total = 3 * (layer + 3 * h * 12288) + 75 * (moe_common + experts * expert) + embed
    active = 3 * (layer + 3 * h * 12288) + 75 * (moe_common + 8 * expert) + embed
    assert (total, active) == (743_911_218_432, 41_784_728_832)
    assert total == pytest.approx(744e9, rel=0.02) and active == pytest.approx(40e9, rel=0.05)
    m = kb.models["glm-5"]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert m.active_params_b * 1e9 == pytest.approx(active, abs=0.5)
    assert m.kv_elements_per_token_layer == 512 + 64
    assert from_catalog(m).moe_layers == 75


@pytest.mark.parametrize("name,model_id", [
    ("Qwen/Qwen3.5-35B-A3B", "qwen3.5-35b-a3b"), ("qwen3.5-35b-a3b-fp8", "qwen3.5-35b-a3b"),
    # THUDM/slime scripts/models/qwen36-35B-A3B.sh @ 40d418ab: the Qwen3.5-35B-A3B language/MoE topology
    ("Qwen/Qwen3.6-35B-A3B", "qwen3.5-35b-a3b"), ("Qwen/Qwen3.6-35B-A3B-FP8", "qwen3.5-35b-a3b"),
    ("Qwen/Qwen3.5-27B", "qwen3.5-27b"), ("qwen3.5-27b-fp8", "qwen3.5-27b"),
    ("zai-org/GLM-5", "glm-5"), ("zai-org/GLM-5-FP8", "glm-5"), ("glm5", "glm-5"),
    # docker/model-runner ai/qwen3-coder-next-vllm.md @ 21974987 (the model card's table): 48 layers of 2048 as
    # 12 x (3 gated DeltaNet + 1 gated attention), 16 Q / 2 KV heads of 256, 32 V / 16 QK linear heads of 128, 512
    # experts, 10 active + 1 shared, 80B total / 3B active, 262,144 context: Qwen3-Next-80B-A3B's shapes
    ("Qwen/Qwen3-Coder-Next", "qwen3-next-80b-a3b"), ("Qwen/Qwen3-Coder-Next-FP8", "qwen3-next-80b-a3b"),
    # Kimi-K2.5's config.json wraps a kimi_k2 / DeepseekV3 text_config of K2's shapes (7168 x 61 layers, 64 heads,
    # 384 + 1 experts of 2048, top-8, one dense layer of 18432, MLA 1536 / 512 / 128 / 64 / 128)
    ("moonshotai/Kimi-K2.5", "kimi-k2"), ("kimi-k2.5", "kimi-k2"),
])
def test_catalog31_names_resolve(kb, name, model_id):
    assert kb.model(name).id == model_id


def test_qwen3_coder_next_target_has_the_model_card_shapes(kb):
    m = kb.models["qwen3-next-80b-a3b"]
    assert (m.layers, m.hidden_size, m.heads, m.kv_heads, m.head_dim) == (48, 2048, 16, 2, 256)
    assert (m.moe.experts, m.moe.experts_per_token, m.moe.shared_experts) == (512, 10, 1)
    assert (m.attention_layers, m.recurrent.layers, m.max_context) == (12, 36, 262144)
    assert m.recurrent.state_elements == 32 * 128 * 128  # 32 value heads of 128


def test_qwen35_9b_counts(kb):
    # THUDM/slime scripts/models/qwen3.5-9B.sh @ 624b824a: 32 layers of 4096, 16 heads over 4 KV heads, SwiGLU of
    # 12288, vocab 248320, untied; DeltaNet 16 key / 32 value heads (transformers Qwen3_5TextConfig defaults, the
    # 'Qwen3.5-9B style' configuration). The name says 9B.
    total, _ = _qwen35_total(32, 4096, 16, 4, 248320, 32, mlp=3 * 4096 * 12288)
    assert total == 8_953_803_264
    assert total == pytest.approx(9e9, rel=0.02)
    m = kb.models["qwen3.5-9b"]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert kb.model("Qwen/Qwen3.5-9B").id == "qwen3.5-9b"
    assert from_catalog(m).attn_layers == 8
