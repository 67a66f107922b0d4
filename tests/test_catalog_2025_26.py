"""2025-26 models in the catalog: the new entries' parameter counts follow from their config.json shapes by hand,
and checkpoints whose config has the shapes of an existing entry resolve to it.

Totals cross-checked against a published count: Gemma 3 1B and 270M against keras-team/keras-hub
keras_hub/src/models/gemma3/gemma3_presets.py (999,885,952 and 268,098,176 parameters); Qwen3-Coder-480B-A35B
and Seed-OSS-36B against their model cards (480B total / 35B activated; 36B)."""

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


def test_qwen3_coder_480b_counts(kb):
    # Qwen/Qwen3-Coder-480B-A35B-Instruct config.json: 62 layers, hidden 6144, 96 heads of 128, 8 KV heads,
    # QK-norm, 160 experts of 2560, top 8, vocab 151936, untied
    layers, h, d, experts, k, f, vocab = 62, 6144, 128, 160, 8, 2560, 151936
    shared = _attn(h, 96, 8, d) + 2 * h + 2 * d + h * experts  # attention, 2 RMSNorms, q/k norms, router
    expert = 3 * h * f
    embed = 2 * vocab * h + h  # input embedding, LM head, final norm
    total = layers * (shared + experts * expert) + embed
    active = layers * (shared + k * expert) + embed
    assert total == 480_154_875_392  # model card: 480B total
    assert active == 35_474_765_312  # model card: 35B activated
    m = kb.models["qwen3-coder-480b-a35b"]
    assert m.params_b * 1e9 == pytest.approx(total, rel=1e-12)
    assert m.active_params_b * 1e9 == pytest.approx(active, rel=1e-12)
    assert from_catalog(m).moe_layers == 62


def test_seed_oss_36b_counts_its_qkv_biases(kb):
    # ByteDance-Seed/Seed-OSS-36B-Instruct config.json: attention_bias true (q, k, v), attention_out_bias false
    layers, h, heads, kv, d, f, vocab = 64, 5120, 80, 8, 128, 27648, 155136
    per_layer = _attn(h, heads, kv, d) + (heads + 2 * kv) * d + 3 * h * f + 2 * h
    total = layers * per_layer + 2 * vocab * h + h
    assert total == 36_151_104_512  # 36.2B; the README calls it 36B
    assert kb.models["seed-oss-36b"].params_b * 1e9 == pytest.approx(total, rel=1e-12)
    # 2 (K and V) x 64 layers x 8 KV heads x 128 x 2 B = 262,144 B = 256 KiB a token
    kv_term = kv_cache_bytes(from_catalog(kb.models["seed-oss-36b"]), 1000)
    assert kv_term.value == pytest.approx(262_144 * 1000)


def test_ernie_45_21b_counts(kb):
    # baidu/ERNIE-4.5-21B-A3B-PT config.json: 28 layers, hidden 2560, 20 heads of 128, 4 KV heads, layer 0 dense
    # (12288), layers 1-27 MoE: 64 experts of 1536, top 6, a shared MLP of 2 x 1536; router with a correction
    # bias; no biases elsewhere; tied 103,424-token embedding (counted once)
    h, vocab = 2560, 103424
    attn = _attn(h, 20, 4, 128) + 2 * h
    dense = attn + 3 * h * 12288
    expert, shared, router = 3 * h * 1536, 3 * h * 2 * 1536, h * 64 + 64
    total = vocab * h + dense + 27 * (attn + 64 * expert + shared + router) + h
    active = vocab * h + dense + 27 * (attn + 6 * expert + shared + router) + h
    assert total == 21_825_437_888  # transformers docs: 21B total
    assert active == 3_352_150_208  # 3B active (with the 0.26B embedding)
    m = kb.models["ernie-4.5-21b-a3b"]
    assert m.params_b * 1e9 == pytest.approx(total, rel=1e-12)
    assert m.active_params_b * 1e9 == pytest.approx(active, rel=1e-12)
    assert from_catalog(m).moe_layers == 27


@pytest.mark.parametrize("mid,layers,h,f,total,global_layers", [
    ("gemma-3-1b", 26, 1152, 6912, 999_885_952, 4),   # keras-hub gemma3_1b
    ("gemma-3-270m", 18, 640, 2048, 268_098_176, 3),  # keras-hub gemma3_270m
])
def test_small_gemma3_counts_and_windows(kb, mid, layers, h, f, total, global_layers):
    # gemma3_text: 4 heads, 1 KV head of 256, GeGLU, QK-norm, 4 RMSNorms a layer, tied 262,144-token embedding
    d, vocab = 256, 262144
    per_layer = _attn(h, 4, 1, d) + 3 * h * f + 4 * h + 2 * d
    assert layers * per_layer + vocab * h + h == total
    m = kb.models[mid]
    assert m.params_b * 1e9 == pytest.approx(total, rel=1e-12)
    # one global layer in six: at a 32,768-token context the windowed layers keep 512 tokens
    local = layers - global_layers
    shape = from_catalog(m)
    expected = (global_layers * 32768 + local * 512) / layers
    assert shape.kv_cached_tokens(32768) == pytest.approx(expected, rel=1e-3)


@pytest.mark.parametrize("name,model_id", [
    ("zai-org/GLM-4.6", "glm-4.5"), ("GLM-4.7", "glm-4.5"),
    ("moonshotai/Kimi-K2-Thinking", "kimi-k2"), ("Kimi-K2-Instruct-0905", "kimi-k2"),
    ("Qwen/Qwen3-Coder-30B-A3B-Instruct", "qwen3-30b-a3b"), ("qwen3-30b-a3b-thinking-2507", "qwen3-30b-a3b"),
    ("Qwen/Qwen3-235B-A22B-Instruct-2507", "qwen3-235b-a22b"), ("Qwen/Qwen3-4B-Instruct-2507", "qwen3-4b"),
    ("deepseek-ai/DeepSeek-V3.1-Terminus", "deepseek-v3.1"), ("deepseek-ai/DeepSeek-V3.2", "deepseek-v3.2-exp"),
    ("deepseek-ai/DeepSeek-R1-Distill-Llama-8B", "llama-3.1-8b"),
    ("deepseek-ai/DeepSeek-R1-Distill-Llama-70B", "llama-3.1-70b"), ("Llama-3.3-70B-Instruct", "llama-3.1-70b"),
    ("deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", "qwen2.5-7b"),
    ("deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", "qwen2.5-14b"),
    ("deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "qwen2.5-32b"),
    ("Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8", "qwen3-coder-480b-a35b"),
    ("ByteDance-Seed/Seed-OSS-36B-Instruct", "seed-oss-36b"),
    ("microsoft/Phi-4-mini-instruct", "phi-4-mini"), ("baidu/ERNIE-4.5-21B-A3B-PT", "ernie-4.5-21b-a3b"),
    ("google/gemma-3-1b-it", "gemma-3-1b"), ("gemma3:270m", "gemma-3-270m"), ("gemma3:12b", "gemma-3-12b"),
    ("HuggingFaceTB/SmolLM3-3B", "smollm3-3b"), ("SmolLM3-3B-Base", "smollm3-3b"),
])
def test_2025_26_names_resolve(kb, name, model_id):
    assert kb.model(name).id == model_id


def test_same_shape_aliases_keep_the_base_entry_shapes(kb):
    """GLM-4.6/4.7 have GLM-4.5's config shapes (202752 context aside); Qwen3-Coder-30B-A3B has Qwen3-30B-A3B's."""
    glm = kb.models["glm-4.5"]
    assert (glm.layers, glm.hidden_size, glm.heads, glm.kv_heads, glm.moe.experts, glm.ffn_size) == (
        92, 5120, 96, 8, 160, 1536)
    q = kb.models["qwen3-30b-a3b"]
    assert (q.layers, q.hidden_size, q.heads, q.kv_heads, q.moe.experts, q.ffn_size) == (48, 2048, 32, 4, 128, 768)


@pytest.mark.parametrize("mid,layers,h,heads,kv,f,vocab,total", [
    # microsoft/Phi-4-mini-instruct config.json (Phi3: fused qkv and gate_up, no biases, tied): 3.8B on the card
    ("phi-4-mini", 32, 3072, 24, 8, 8192, 200064, 3_836_021_760),
])
def test_phi4_mini_counts(kb, mid, layers, h, heads, kv, f, vocab, total):
    d = h // heads  # 128 for both
    per_layer = _attn(h, heads, kv, d) + 3 * h * f + 2 * h
    assert layers * per_layer + vocab * h + h == total
    assert kb.models[mid].params_b * 1e9 == pytest.approx(total, rel=1e-12)


def test_smollm3_3b_counts(kb):
    # HuggingFaceTB/SmolLM3-3B config.json: 36 layers, hidden 2048, 16 heads of 128, 4 KV heads, intermediate
    # 11008, no biases, tied 128,256-token embedding; total cross-checked against H162's 3.075B (smollm README)
    layers, h, f, vocab = 36, 2048, 11008, 128256
    per_layer = _attn(h, 16, 4, 128) + 3 * h * f + 2 * h
    total = layers * per_layer + vocab * h + h
    assert total == 3_075_098_624
    m = kb.models["smollm3-3b"]
    assert m.params_b * 1e9 == pytest.approx(total, rel=1e-12)
    # 2 (K and V) x 36 layers x 4 KV heads x 128 x 2 B = 73,728 B a token
    assert kv_cache_bytes(from_catalog(m), 1000).value == pytest.approx(73_728 * 1000)
