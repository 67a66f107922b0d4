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
