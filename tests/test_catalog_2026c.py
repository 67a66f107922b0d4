"""Catalog entries and names added for 2025-26 releases a buyer types (branch catalog36). Each new entry's parameter
count is computed by hand from the shapes knowledge/models.yaml cites and checked against the figure its publisher
states; one estimate per family (the KV cache a token) by hand; releases that keep an existing entry's network resolve
to that entry.

Published figures: GLM-4.7-Flash: "a 30B-A3B MoE model" (zai-org/GLM-4.7-Flash model card, as copied in
nerdpudding/llama_cpp models/documentation/README_modelcard_GLM-4.7-Flash.md @ 2a76e8e8); QwQ-32B: 32.5B
parameters, 64 layers, 40 query / 8 KV heads (QwQ-32B model card, copied in akash-network/awesome-akash
QwQ-32B/README.md @ ab2cd01d); Hermes 4 405B / 70B / 14B: post-trains of Llama 3.1 405B / 70B and Qwen3 14B
(Hermes 4 Technical Report, arXiv:2508.18255)."""

from __future__ import annotations

import pytest

from gpuwise import knowledge
from gpuwise.estimators.memory_serving import kv_cache_bytes
from gpuwise.inputs.shape import from_catalog


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _glm47_flash() -> tuple[int, int]:
    """GLM-4.7-Flash by hand (transformers Glm4MoeLiteConfig @ 008e5743; THUDM/slime glm4.7-30B-A3B.sh @ 624b824a):
    47 layers of 2048, 20 heads; MLA q_lora 768, kv_lora 512, qk_nope 192, qk_rope 64, v 256, no attention bias;
    layer 0 dense of 10240, layers 1-46 MoE: 64 experts of 1536, top-4, one shared expert of 1536, a sigmoid router
    with a 64-wide correction bias; vocab 154880, untied; the MTP layer left out."""
    h, heads, vocab = 2048, 20, 154880
    attn = (h * 768 + 768 + 768 * heads * (192 + 64)  # q down, its norm, q up
            + h * (512 + 64) + 512 + 512 * heads * (192 + 256)  # kv down (latent + RoPE key), its norm, kv up
            + heads * 256 * h)  # o
    layer = attn + 2 * h  # two RMSNorms
    expert = 3 * h * 1536
    moe_common = layer + h * 64 + 64 + expert  # router, its correction bias, the shared expert
    embed = 2 * vocab * h + h  # embedding, head, final norm
    dense = layer + 3 * h * 10240
    total = dense + 46 * (moe_common + 64 * expert) + embed
    active = dense + 46 * (moe_common + 4 * expert) + embed
    return total, active


def test_glm47_flash_counts(kb):
    total, active = _glm47_flash()
    assert (total, active) == (29_943_393_920, 3_896_766_080)
    assert total == pytest.approx(30e9, rel=0.02)  # "30B-A3B"
    # A3B leaves out the embedding and the head (2 x 154,880 x 2,048 = 0.63B); the catalog counts them, as for
    # every MoE entry
    assert active - 2 * 154880 * 2048 == pytest.approx(3.26e9, rel=0.01)
    m = kb.models["glm-4.7-flash"]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert m.active_params_b * 1e9 == pytest.approx(active, abs=0.5)
    shape = from_catalog(m)
    assert shape.moe_layers == 46
    # MLA caches the 512-wide latent and the 64-wide RoPE key once a layer: 47 x 576 x 2 B = 54,144 B a token, not
    # 2 x 20 heads x 256 x 47 layers x 2 B = 962,560 B
    assert kv_cache_bytes(shape, 1000).value == pytest.approx(47 * 576 * 2 * 1000)
    # the attention weights the shape counts a layer are the ones by hand (less the two norms of the ranks)
    assert shape.attn_params_per_layer() == (
        2048 * 768 + 768 * 20 * 256 + 2048 * 576 + 512 * 20 * 448 + 20 * 256 * 2048)


@pytest.mark.parametrize("name,mid", [
    ("zai-org/GLM-4.7-Flash", "glm-4.7-flash"),
    ("glm-4.7-flash", "glm-4.7-flash"),
    ("Qwen/QwQ-32B", "qwen2.5-32b"),
    ("qwq-32b", "qwen2.5-32b"),
    ("mistral-small-3.1-24b", "mistral-small-24b"),
    ("mistral-small-3.2-24b", "mistral-small-24b"),
    ("olmo-3.1-32b", "olmo-3-32b"),
    ("NousResearch/Hermes-4-70B", "llama-3.1-70b"),
    ("NousResearch/Hermes-4-405B", "llama-3.1-405b"),
    ("NousResearch/Hermes-4-14B", "qwen3-14b"),
])
def test_the_names_resolve(kb, name, mid):
    assert kb.model(name).id == mid


def test_qwq_keeps_the_qwen25_32b_network(kb):
    # the card's 64 layers and 40/8 heads, and the QwQ-32B-Preview config's 5120 / 27648 / 152,064 untied head
    m = kb.models[kb.model("Qwen/QwQ-32B").id]
    assert (m.layers, m.heads, m.kv_heads, m.hidden_size, m.ffn_size, m.vocab_size, m.tied_embeddings) == (
        64, 40, 8, 5120, 27648, 152064, False)
    assert m.params_b == pytest.approx(32.5, rel=0.02)  # the card's 32.5B


# ------------------------------------------------------------------ Gemma 4 (global layers of their own width)

def _gemma4(h: int, layers: int, ff: int, heads: int, kv: int, g_kv: int, moe: tuple[int, int, int] | None = None
            ) -> tuple[int, int]:
    """Gemma 4 by hand (transformers convert_gemma4_weights.py @ 0f3f0632 variants; modeling_gemma4.py): five
    sliding layers (heads and kv heads of 256) then one global layer (heads of 512, k of g_kv x 512 and no v_proj:
    attention_k_eq_v); per-head q and k norms of the layer's head width; four RMSNorms and a layer scalar a layer;
    a GeGLU MLP of ``ff``; with ``moe`` (experts, top-k, width) also the router (proj, a hidden-wide scale, a
    per-expert scale), the branch's three RMSNorms and the GeGLU experts; tied 262,144-token embedding, final norm."""
    n_global = layers // 6
    n_sliding = layers - n_global
    sliding = 2 * h * heads * 256 + 2 * h * kv * 256 + 2 * 256
    global_ = 2 * h * heads * 512 + h * g_kv * 512 + 2 * 512
    common = 4 * h + 1 + 3 * h * ff
    embed = 262144 * h + h
    if moe is None:
        total = n_sliding * sliding + n_global * global_ + layers * common + embed
        return total, total
    experts, k, width = moe
    common += 3 * h + h * experts + h + experts
    attn = n_sliding * sliding + n_global * global_
    total = attn + layers * (common + experts * 3 * h * width) + embed
    active = attn + layers * (common + k * 3 * h * width) + embed
    return total, active


VISION = 27 * (4 * 1152 * 1152 + 3 * 1152 * 4304)  # the large variants' vision tower (27 blocks of 1152), about 0.55B


def test_gemma4_31b_counts_and_kv_cache(kb):
    total, _ = _gemma4(5376, 60, 21504, 32, 16, 4)
    assert total == 30_697_345_340
    assert total + VISION == pytest.approx(31e9, rel=0.02)  # the 31B of the name holds the vision tower
    m = kb.models["gemma-4-31b"]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    shape = from_catalog(m)
    # 131,072 tokens of one sequence: 10 global layers keep all of 2 x 4 x 512 elements a token, 50 sliding layers
    # 1,024 tokens of 2 x 16 x 256, at 2 B: 10 x 8,192 x 131,072 + 50 x 16,384 x 1,024 = 11,576,279,040 B; the
    # sliding layers' width everywhere would give 60 x 16,384 x (131,072 / 6 + 1,024 x 5 / 6) = 22.3 GB
    ctx = 131072
    by_hand = 10 * 2 * 4 * 512 * 2 * ctx + 50 * 2 * 16 * 256 * 2 * 1024
    assert by_hand == 11_576_279_040
    assert kv_cache_bytes(shape, ctx, per_sequence=ctx).value == pytest.approx(by_hand, rel=1e-12)
    # under the window every layer keeps every token: 50 x 16,384 + 10 x 8,192 = 901,120 B a token
    assert kv_cache_bytes(shape, 1000, per_sequence=1000).value == pytest.approx(901_120 * 1000, rel=1e-12)
    # a token's attention multiplies through 32 x 256 in the sliding layers and 32 x 512 in the global ones
    assert shape.q_width_mean * 60 == pytest.approx(50 * 32 * 256 + 10 * 32 * 512)
    # the attention projections the shape counts, averaged over the layers, are the ones by hand
    assert shape.attn_params_per_layer() * 60 == pytest.approx(
        50 * (2 * 5376 * 32 * 256 + 2 * 5376 * 16 * 256) + 10 * (2 * 5376 * 32 * 512 + 5376 * 4 * 512))


def test_gemma4_26b_a4b_counts_and_kv_cache(kb):
    total, active = _gemma4(2816, 30, 2112, 16, 8, 2, moe=(128, 8, 704))
    assert (total, active) == (25_233_141_790, 3_822_530_590)
    assert total + VISION == pytest.approx(26e9, rel=0.02)  # Megatron-Bridge's doc: 26B total with the vision tower
    assert active == pytest.approx(4e9, rel=0.05)  # A4B
    m = kb.models["gemma-4-26b-a4b"]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert m.active_params_b * 1e9 == pytest.approx(active, abs=0.5)
    shape = from_catalog(m)
    # the dense MLP of 2112 beside the experts: 3 shared experts of the routed 704, the same GeGLU weights
    assert shape.shared_experts * shape.ffn == 2112
    assert shape.moe_layers == 30
    ctx = 262144
    by_hand = 5 * 2 * 2 * 512 * 2 * ctx + 25 * 2 * 8 * 256 * 2 * 1024
    assert kv_cache_bytes(shape, ctx, per_sequence=ctx).value == pytest.approx(by_hand, rel=1e-12)


def test_gemma4_gemms_by_layer_kind(kb):
    """The decode step's dense GEMMs (engine.block_gemms): 50 sliding layers project q, k, v to 8192 + 2 x 4096,
    10 global layers q and k to 16384 + 2048 (no v_proj), and each kind's output projection from its q width."""
    from gpuwise.estimators.serving.engine import block_gemms

    shape = from_catalog(kb.models["gemma-4-31b"])
    g = block_gemms(shape)
    want = [(16384, 5376, "n", 50), (5376, 8192, "k", 50), (18432, 5376, "n", 10), (5376, 16384, "k", 10)]
    for got, (n, k, split, count) in zip(g[:4], want, strict=True):
        assert got[:3] == (n, k, split) and got[3] == pytest.approx(count)
    assert g[4:] == ((2 * 21504, 5376, "n", 60), (5376, 21504, "k", 60))


def test_a_model_without_global_attention_is_as_before(kb):
    """Gemma 3 27B: the same width in every layer, so the KV share of the windowed layers is their share."""
    shape = from_catalog(kb.models["gemma-3-27b"])
    assert shape.global_attn is None
    assert shape.kv_window_share == shape.q_window_share == shape.window_layers_fraction
    assert shape.kv_elements_layer == 2 * 16 * 128
    assert shape.q_width_mean == shape.q_dim


def test_global_attention_needs_a_window(kb):
    from gpuwise.errors import Said
    from gpuwise.knowledge.schema.models import Model

    base = kb.models["gemma-4-31b"].model_dump()
    base.pop("attention_window")
    base.pop("window_layers_fraction")
    with pytest.raises((Said, ValueError), match="global_attention"):
        Model(**base)


@pytest.mark.parametrize("name,mid", [
    ("google/gemma-4-31B-it", "gemma-4-31b"),
    ("gemma-4-31b", "gemma-4-31b"),
    ("google/gemma-4-26B-A4B-it", "gemma-4-26b-a4b"),
    ("gemma-4-26b-a4b", "gemma-4-26b-a4b"),
])
def test_gemma4_names_resolve(kb, name, mid):
    assert kb.model(name).id == mid


def test_gemma4_training_attention_flops_by_hand(kb):
    """A forward's attention work a token at 8,192 tokens: 50 sliding layers multiply 32 x 256 over a mean span of
    2 x 1,024 - 1,024^2 / 8,192 = 1,920 positions, 10 global layers 32 x 512 over the causal 8,192; the catalog's
    layer mean width times the width-weighted span gives the same sum."""
    from gpuwise.estimators.compute import attended_span, attention_width

    shape = from_catalog(kb.models["gemma-4-31b"])
    by_hand = 50 * 32 * 256 * 1920 + 10 * 32 * 512 * 8192
    assert shape.layers * attention_width(shape) * attended_span(shape, 8192) == pytest.approx(by_hand, rel=1e-12)


def test_gemma4_kv_over_more_gpus_than_global_kv_heads(kb):
    """Tensor parallelism divides a layer's K and V by at most its KV heads: at TP 8, Gemma 4 31B's sliding layers
    (16 KV heads) split 8 ways, its global layers (4 KV heads) only 4 ways, replicated beyond. One 131,072-token
    sequence at 2 B: 50 x 16,384 x 1,024 / 8 + 10 x 8,192 x 131,072 / 4 = 2,789,212,160 B a GPU, not the
    11,576,279,040 / 8 = 1.45 GB an even split gives."""
    from gpuwise.estimators.memory_serving import inference_memory, kv_tp_split

    shape = from_catalog(kb.models["gemma-4-31b"])
    ctx = 131072
    per_gpu = 50 * 2 * 16 * 256 * 2 * 1024 / 8 + 10 * 2 * 4 * 512 * 2 * ctx / 4
    assert per_gpu == 2_789_212_160
    total = kv_cache_bytes(shape, ctx, per_sequence=ctx).value
    assert total / kv_tp_split(shape, 8, ctx) == pytest.approx(per_gpu, rel=1e-12)
    assert kv_tp_split(shape, 4, ctx) == 4  # up to the global layers' 4 KV heads every layer splits evenly
    assert kv_tp_split(from_catalog(kb.models["gemma-3-27b"]), 8, ctx) == 8  # one width: min(tp, KV heads) as before
    rt = kb.runtime
    est = inference_memory(shape, "bf16", ctx, 1, "sdpa", 8, quant=rt.quantization,
                           overhead=(rt.cuda_context_bytes.value, rt.allocator_overhead_fraction.value))
    assert est.kv_cache.value == pytest.approx(per_gpu, rel=1e-9)
