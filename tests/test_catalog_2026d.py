"""Catalog entries and names added for models a buyer types that gpuwise refused (branch catalog39). Each new entry's
parameter count is computed by hand from the shapes knowledge/models.yaml cites and checked against the figure its
publisher (or its checkpoint) states; one estimate per new family (the KV cache a token) by hand; releases that keep an
existing entry's network resolve to that entry; a mistyped name is still refused with a close match.

Published figures: Qwen2.5-1.5B: 1.54B parameters, 1.31B without the embedding, tied embeddings (model card, copied in
ZHUI/paddlenlp_model_readme Qwen/Qwen2.5-1.5B/index.md @ ffc26950); DeepSeek-R1-Distill-Qwen-1.5B: 1,777,088,000
parameters in its safetensors (third-party loads of deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B @ ad9f0ae0), fine-tuned
from Qwen2.5-Math-1.5B (instill-ai/models deepseek-r1-distill-qwen-1.5b/README.md @ 81472641); Mistral NeMo: a 12B
model, 40 layers of 5,120, 32 heads of 128 over 8 KV heads, vocabulary 2^17 (Mistral-Nemo-Instruct-2407 card, copied in
sassoftware/sas-agentic-ai-accelerator LLM-Definitions/mistral_nemo/Model-Card.md @ f123b7a9);
DeepSeek-R1-0528-Qwen3-8B: "identical to that of Qwen3-8B" (its model card); Hermes 4.3 36B: a post-train of
ByteDance-Seed/Seed-OSS-36B-Base (its Hugging Face repository's base_model)."""

from __future__ import annotations

import pytest

from gpuwise import knowledge
from gpuwise.errors import UserError
from gpuwise.estimators.memory_serving import kv_cache_bytes
from gpuwise.inputs.shape import from_catalog


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _dense(h: int, layers: int, heads: int, kv: int, head_dim: int, ffn: int, vocab: int, *, qkv_bias: bool,
           tied: bool) -> int:
    """A GQA decoder by hand: q, k, v, o projections (biases on q, k, v where the config says so), a SwiGLU MLP, two
    RMSNorms a layer; the embedding, an untied head, the final norm."""
    q, k = heads * head_dim, kv * head_dim
    attn = h * q + 2 * h * k + q * h + ((q + 2 * k) if qkv_bias else 0)
    layer = attn + 3 * h * ffn + 2 * h
    return layers * layer + vocab * h * (1 if tied else 2) + h


def test_qwen25_15b_counts_and_kv_cache(kb):
    total = _dense(1536, 28, 12, 2, 128, 8960, 151936, qkv_bias=True, tied=True)
    assert total == 1_543_714_304
    assert total == pytest.approx(1.54e9, rel=0.005)  # the card's 1.54B
    assert total - 151936 * 1536 - 1536 == pytest.approx(1.31e9, rel=0.005)  # 1.31B without the embedding
    m = kb.models["qwen2.5-1.5b"]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    # 2 (K and V) x 2 KV heads x 128 x 28 layers x 2 B = 28,672 B a token of 16-bit cache
    shape = from_catalog(m)
    assert kv_cache_bytes(shape, 1000).value == pytest.approx(2 * 2 * 128 * 28 * 2 * 1000)


def test_r1_distill_qwen_15b_is_the_qwen25_15b_network_with_its_own_head(kb):
    tied = _dense(1536, 28, 12, 2, 128, 8960, 151936, qkv_bias=True, tied=True)
    untied = _dense(1536, 28, 12, 2, 128, 8960, 151936, qkv_bias=True, tied=False)
    assert untied == 1_777_088_000  # the checkpoint's safetensors total
    assert untied - tied == 151936 * 1536  # exactly one more vocabulary x hidden matrix: the head
    m = kb.models["deepseek-r1-distill-qwen-1.5b"]
    assert m.params_b * 1e9 == pytest.approx(untied, abs=0.5)
    assert not m.tied_embeddings
    base = kb.models["qwen2.5-1.5b"]
    assert (m.layers, m.hidden_size, m.heads, m.kv_heads, m.ffn_size, m.vocab_size) == (
        base.layers, base.hidden_size, base.heads, base.kv_heads, base.ffn_size, base.vocab_size)
    # the same KV cache a token as Qwen2.5-1.5B; 0.47 GB more bf16 weights (the head)
    assert kv_cache_bytes(from_catalog(m), 1).value == kv_cache_bytes(from_catalog(base), 1).value
    assert (m.params_b - base.params_b) * 1e9 * 2 == pytest.approx(0.4667e9, rel=1e-3)


def test_mistral_nemo_counts_and_kv_cache(kb):
    total = _dense(5120, 40, 32, 8, 128, 14336, 131072, qkv_bias=False, tied=False)
    assert total == 12_247_782_400
    assert total == pytest.approx(12e9, rel=0.025)  # the 12B of the name: 2.1 % over
    m = kb.models["mistral-nemo-12b"]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert m.head_dim == 128 and m.hidden_size // m.heads == 160  # head_dim is not hidden / heads
    shape = from_catalog(m)
    # no sliding window: every layer keeps every token, 2 x 8 x 128 x 40 x 2 B = 163,840 B a token
    assert kv_cache_bytes(shape, 32768, per_sequence=32768).value == pytest.approx(163_840 * 32768)
    # the query projection is 5120 -> 4096 (32 x 128), not 5120 -> 5120
    assert shape.attn_params_per_layer() == 5120 * 4096 * 2 + 5120 * 1024 * 2


@pytest.mark.parametrize("name,mid", [
    ("Qwen/Qwen2.5-1.5B", "qwen2.5-1.5b"),
    ("Qwen/Qwen2.5-1.5B-Instruct", "qwen2.5-1.5b"),
    ("qwen2.5:1.5b", "qwen2.5-1.5b"),
    ("Qwen/Qwen2.5-Coder-1.5B-Instruct", "qwen2.5-1.5b"),
    ("Qwen/Qwen2.5-1.5B-Instruct-AWQ", "qwen2.5-1.5b"),  # a quantized release of the network (rule 5)
    ("deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "deepseek-r1-distill-qwen-1.5b"),
    ("deepseek-r1:1.5b", "deepseek-r1-distill-qwen-1.5b"),
    ("mistralai/Mistral-Nemo-Instruct-2407", "mistral-nemo-12b"),
    ("mistralai/Mistral-Nemo-Base-2407", "mistral-nemo-12b"),
    ("mistral-nemo", "mistral-nemo-12b"),
    ("deepseek-ai/DeepSeek-R1-0528-Qwen3-8B", "qwen3-8b"),
    ("NousResearch/Hermes-4.3-36B", "seed-oss-36b"),
])
def test_the_names_resolve(kb, name, mid):
    assert kb.model(name).id == mid


@pytest.mark.parametrize("typo,close", [
    ("mistral-nemo-12bb", "mistral-nemo-12b"),
    ("qwen2.5-1.5bb", "qwen2.5-1.5b"),
])
def test_a_typo_is_still_refused_with_a_close_match(kb, typo, close):
    with pytest.raises(UserError) as err:
        kb.model(typo)
    assert close in str(err.value)
