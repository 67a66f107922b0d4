"""Catalog entries added for the Mistral 3 family (Dec 2025) and the names buyers type for quantized re-releases
(branch catalog32). Each new entry's parameter count is computed by hand from the shapes knowledge/models.yaml cites
and checked against the figure its publisher states; one estimate per family (the KV cache a token) by hand.

Published figures: Mistral Large 3: 675B total, 41B active, vision encoder included (Mistral 3 announcement, 2 Dec
2025); Ministral 3: a 3.4B / 8.4B / 13.5B language model + a 0.4B vision encoder (the docstrings of
NVIDIA-NeMo/Megatron-Bridge Ministral3ModelProvider3B / 8B / 14B @ 2018704a, quoting Mistral's model cards)."""

from __future__ import annotations

import pytest

from gpuwise import knowledge
from gpuwise.estimators.memory_serving import kv_cache_bytes
from gpuwise.inputs.shape import from_catalog


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_mistral_large_3_counts(kb):
    # params.json of mistralai/Mistral-Large-3-675B-Instruct-2512 (vllm-project/vllm tests/transformers_utils/
    # test_config.py @ 05f5d7d3): 61 layers of 7168, 128 heads; MLA q_lora 1536, kv_lora 512, qk_nope 128, qk_rope 64,
    # v 128; layers 0-2 dense of 16384, then 128 experts of 4096 + 1 shared, top-4, a router without a correction
    # bias; vocab 131072, untied.
    h, heads, experts, expert = 7168, 128, 128, 3 * 7168 * 4096
    attn = (h * 1536 + 1536 + 1536 * heads * (128 + 64)  # q down, its norm, q up
            + h * (512 + 64) + 512 + 512 * heads * (128 + 128) + heads * 128 * h)  # kv down, norm, kv up, o
    layer = attn + 2 * h
    moe_common = layer + h * experts + expert  # router and the shared expert
    embed = 2 * 131072 * h + h
    total = 3 * (layer + 3 * h * 16384) + 58 * (moe_common + experts * expert) + embed
    active = 3 * (layer + 3 * h * 16384) + 58 * (moe_common + 4 * expert) + embed
    assert (total, active) == (673_421_089_792, 39_946_968_064)
    # the 675B / 41B Mistral states hold the vision encoder (48 blocks of 1664 with an 8192 MLP: about 2.5B)
    vision = 48 * (4 * 1664 * 1664 + 3 * 1664 * 8192)
    assert total + vision == pytest.approx(675e9, rel=0.005)
    assert active == pytest.approx(41e9, rel=0.05)
    m = kb.models["mistral-large-3"]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert m.active_params_b * 1e9 == pytest.approx(active, abs=0.5)
    shape = from_catalog(m)
    assert shape.moe_layers == 58
    # MLA caches the 512-wide latent and the 64-wide RoPE key: 61 x 576 x 2 B = 70,272 B a token at 16 bit, the same
    # cache as DeepSeek-V3 (whose attention this is), not 2 x 128 heads x 128 x 61 layers x 2 B = 3.9 MB
    assert kv_cache_bytes(shape, 1000).value == pytest.approx(61 * 576 * 2 * 1000)
    assert kv_cache_bytes(shape, 1000).value == kv_cache_bytes(from_catalog(kb.models["deepseek-v3"]), 1000).value


def _dense(layers: int, h: int, f: int, tied: bool, heads: int = 32, kv: int = 8, d: int = 128,
           vocab: int = 131072) -> int:
    """A Mistral decoder by hand: q, k, v, o without bias, a SwiGLU MLP, two RMSNorms a layer, the final norm."""
    layer = h * heads * d + 2 * h * kv * d + heads * d * h + 3 * h * f + 2 * h
    return layers * layer + vocab * h * (1 if tied else 2) + h


@pytest.mark.parametrize("mid,layers,h,f,tied,total,stated", [
    ("ministral-3-3b", 26, 3072, 9216, True, 3_429_006_336, 3.4e9),
    ("ministral-3-8b", 34, 4096, 14336, False, 8_489_553_920, 8.4e9),
    ("ministral-3-14b", 40, 5120, 16384, False, 13_506_073_600, 13.5e9),
])
def test_ministral_3_counts_and_cache(kb, mid, layers, h, f, tied, total, stated):
    assert _dense(layers, h, f, tied) == total
    assert total == pytest.approx(stated, rel=0.02)
    # head_dim 128, not hidden / heads: with 96 the 3B would hold 3.2B, 6 % under Mistral's 3.4B
    if mid == "ministral-3-3b":
        assert _dense(layers, h, f, tied, d=96) < 0.95 * stated
    m = kb.models[mid]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert m.tied_embeddings is tied and m.head_dim == 128
    # 2 (K and V) x layers x 8 KV heads x 128 x 2 B a token: 104 KiB, 136 KiB, 160 KiB
    assert kv_cache_bytes(from_catalog(m), 1000).value == pytest.approx(2 * layers * 8 * 128 * 2 * 1000)


@pytest.mark.parametrize("name,model_id", [
    ("mistralai/Mistral-Large-3-675B-Instruct-2512", "mistral-large-3"),
    ("mistralai/Mistral-Large-3-675B-Instruct-2512-NVFP4", "mistral-large-3"),
    ("Mistral Large 3", "mistral-large-3"),
    ("mistralai/Ministral-3-3B-Instruct-2512", "ministral-3-3b"),
    ("mistralai/Ministral-3-8B-Reasoning-2512", "ministral-3-8b"),
    ("mistralai/Ministral-3-14B-Base-2512", "ministral-3-14b"),
    # quantized re-releases keep the network's shapes (vllm-project/recipes, SGLang and InferenceX name them)
    ("nvidia/DeepSeek-R1-0528-FP4", "deepseek-r1"), ("amd/DeepSeek-R1-0528-MXFP4-Preview", "deepseek-r1"),
    ("deepseek-ai/DeepSeek-V3-0324", "deepseek-v3"),
    ("nvidia/Llama-3.3-70B-Instruct-FP8", "llama-3.1-70b"), ("amd/Llama-3.1-405B-Instruct-FP8-KV", "llama-3.1-405b"),
    ("Qwen/Qwen3-235B-A22B-Instruct-2507-FP8", "qwen3-235b-a22b"), ("Qwen/Qwen3-30B-A3B-FP8", "qwen3-30b-a3b"),
    ("zai-org/GLM-4.6-FP8", "glm-4.5"), ("zai-org/GLM-4.7-FP8", "glm-4.5"), ("zai-org/GLM-4.5-Air-FP8", "glm-4.5-air"),
    ("nvidia/Kimi-K2-Thinking-NVFP4", "kimi-k2"), ("Qwen/Qwen3-Next-80B-A3B-Instruct-FP8", "qwen3-next-80b-a3b"),
    ("mistralai/Mistral-Small-3.2-24B-Instruct-2506", "mistral-small-24b"),
    ("nvidia/DeepSeek-R1-0528-NVFP4-v2", "deepseek-r1"), ("nvidia/DeepSeek-V3.1-NVFP4", "deepseek-v3.1"),
    ("RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8", "llama-3.1-8b"),
    ("amd/Mixtral-8x22B-Instruct-v0.1-FP8-KV", "mixtral-8x22b"),
    ("nvidia/Llama-4-Scout-17B-16E-Instruct-NVFP4", "llama-4-scout-17b-16e"),
    # Megatron-Bridge docs/models/glm/glm5.md @ 46e23c79: GLM-5.1 keeps GLM-5's architecture and mapping shape
    ("zai-org/GLM-5.1", "glm-5"), ("zai-org/GLM-5.1-FP8", "glm-5"),
])
def test_catalog32_names_resolve(kb, name, model_id):
    assert kb.model(name).id == model_id


def test_devstral_small_2_is_not_taken_for_the_first_devstral_small(kb):
    """Devstral Small 2 (2512) is a ministral3 model, left out: its name must not resolve to mistral-small-24b, whose
    aliases hold Devstral Small 2505 / 2507."""
    from gpuwise.errors import UserError

    with pytest.raises(UserError):
        kb.model("mistralai/Devstral-Small-2-24B-Instruct-2512")
