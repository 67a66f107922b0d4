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


# ------------------------------------------------------------------ Qwen3.5 0.8B / 2B / 4B and 122B-A10B

def _qwen35_mixers(h: int, heads: int, kv: int, key_heads: int, value_heads: int) -> tuple[int, int]:
    """One Qwen3.5 gated-attention layer's weights (q_proj to queries and their gate, k, v, o; q and k RMSNorm of 256)
    and one gated DeltaNet layer's (in_proj_qkvz, in_proj_ba, a depthwise convolution of kernel 4, dt_bias and A_log,
    a gated RMSNorm of 128, out_proj), heads of 256 and DeltaNet heads of 128 (pytorch/torchtitan
    torchtitan/models/qwen3_5/__init__.py @ b5bcd76c)."""
    attn = h * 2 * heads * 256 + 2 * h * kv * 256 + heads * 256 * h + 2 * 256
    conv = 2 * key_heads * 128 + value_heads * 128
    deltanet = (h * (2 * key_heads * 128 + 2 * value_heads * 128) + h * 2 * value_heads + conv * 4
                + 2 * value_heads + 128 + value_heads * 128 * h)
    return attn, deltanet


def _qwen35_dense(h: int, layers: int, heads: int, kv: int, ffn: int, key_heads: int, value_heads: int) -> int:
    """Every 4th layer attention, the rest DeltaNet; a SwiGLU MLP and two RMSNorms a layer; tied 248,320-token
    embedding and the final norm."""
    attn, deltanet = _qwen35_mixers(h, heads, kv, key_heads, value_heads)
    full = layers // 4
    return full * attn + (layers - full) * deltanet + layers * (3 * h * ffn + 2 * h) + 248320 * h + h


@pytest.mark.parametrize("mid,args,checkpoint_text", [
    # the language-model tensors of the published checkpoints, as third-party inspections record them (the rest of
    # each checkpoint is its vision tower and MTP layer: 0.8B 873,438,784 in all, 2B 2,274,069,824, 4B 4,659,865,088)
    ("qwen3.5-0.8b", (1024, 24, 8, 2, 3584, 16, 16), 752_393_024),
    ("qwen3.5-2b", (2048, 24, 8, 2, 6144, 16, 16), 1_881_825_088),
    ("qwen3.5-4b", (2560, 32, 16, 4, 9216, 16, 32), 4_205_751_296),
])
def test_qwen35_small_counts(kb, mid, args, checkpoint_text):
    total = _qwen35_dense(*args)
    assert total == checkpoint_text
    m = kb.models[mid]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert m.tied_embeddings
    # the same formula, with the 9B's untied head added, gives that entry's count (8,953,803,264), read before
    assert _qwen35_dense(4096, 32, 16, 4, 12288, 16, 32) + 248320 * 4096 == pytest.approx(
        kb.models["qwen3.5-9b"].params_b * 1e9, abs=0.5)


def test_qwen35_4b_state_and_kv_cache_by_hand(kb):
    """24 DeltaNet layers x (32 x 128 x 128 x 4 B + 3 x (2 x 16 x 128 + 32 x 128) x 2 B) = 51,511,296 B a sequence
    whatever its length; 8 attention layers x 2 x 4 KV heads x 256 x 2 B = 32,768 B of KV cache a token."""
    shape = from_catalog(kb.models["qwen3.5-4b"])
    state = 24 * (32 * 128 * 128 * 4 + 3 * (2 * 16 * 128 + 32 * 128) * 2)
    assert shape.state_bytes_per_sequence == state == 51_511_296
    assert shape.attn_layers == 8
    assert kv_cache_bytes(shape, 1000).value == pytest.approx(8 * 2 * 4 * 256 * 2 * 1000)
    # the 0.8B: 16 value heads, 18 DeltaNet layers: 18 x (16 x 128 x 128 x 4 + 3 x 6,144 x 2) = 19,538,688 B
    small = from_catalog(kb.models["qwen3.5-0.8b"])
    assert small.state_bytes_per_sequence == 18 * (16 * 128 * 128 * 4 + 3 * (2 * 16 * 128 + 16 * 128) * 2)


def test_qwen35_122b_counts_state_and_kv_cache(kb):
    h, experts, top_k, width = 3072, 256, 8, 1024
    attn, deltanet = _qwen35_mixers(h, 32, 2, 16, 64)
    common = 2 * h + h * experts + 3 * h * width + h  # norms, router, shared expert and its 3072 x 1 gate
    embed = 2 * 248320 * h + h  # untied embedding and head, final norm
    total = 12 * attn + 36 * deltanet + 48 * (common + experts * 3 * h * width) + embed
    active = 12 * attn + 36 * deltanet + 48 * (common + top_k * 3 * h * width) + embed
    assert (total, active) == (122_111_526_912, 9_771_288_576)
    assert total == pytest.approx(122e9, rel=0.002)  # 122B
    assert active == pytest.approx(10e9, rel=0.025)  # A10B (Qwen counts the embedding and head in it)
    m = kb.models["qwen3.5-122b-a10b"]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert m.active_params_b * 1e9 == pytest.approx(active, abs=0.5)
    shape = from_catalog(m)
    assert shape.state_bytes_per_sequence == 36 * (64 * 128 * 128 * 4 + 3 * (2 * 16 * 128 + 64 * 128) * 2)
    assert kv_cache_bytes(shape, 1000).value == pytest.approx(12 * 2 * 2 * 256 * 2 * 1000)  # 24 KiB a token


@pytest.mark.parametrize("name,mid", [
    ("Qwen/Qwen3.5-0.8B", "qwen3.5-0.8b"),
    ("Qwen/Qwen3.5-2B", "qwen3.5-2b"),
    ("Qwen/Qwen3.5-4B", "qwen3.5-4b"),
    ("Qwen/Qwen3.5-4B-Base", "qwen3.5-4b"),
    ("Qwen/Qwen3.5-122B-A10B", "qwen3.5-122b-a10b"),
    ("Qwen/Qwen3.5-122B-A10B-FP8", "qwen3.5-122b-a10b"),
    # Qwen3-VL 8B / 4B: InternLM/xtuner builds their text models from its Qwen3 8B / 4B configs
    ("Qwen/Qwen3-VL-8B-Instruct", "qwen3-8b"),
    ("Qwen/Qwen3-VL-8B-Thinking", "qwen3-8b"),
    ("Qwen/Qwen3-VL-4B-Instruct", "qwen3-4b"),
    ("Qwen/Qwen3-VL-2B-Instruct", "qwen3-1.7b"),  # a slime fork's qwen3-vl-2b.sh: the Qwen3 1.7B shapes
    # miles' qwen3.6-27B.sh and Relax's qwen36-27B.sh / qwen38-27B.sh: the Qwen3.5-27B decoder ('same architecture')
    ("Qwen/Qwen3.6-27B", "qwen3.5-27b"),
    ("Qwen/Qwen3.6-27B-FP8", "qwen3.5-27b"),
    ("Qwen/Qwen3.8-27B", "qwen3.5-27b"),
    # Qwen2.5-VL-32B: NVIDIA/NeMo builds its language model from its Qwen2.5 32B config
    ("Qwen/Qwen2.5-VL-32B-Instruct", "qwen2.5-32b"),
])
def test_more_names_resolve(kb, name, mid):
    assert kb.model(name).id == mid


def test_qwen3_vl_8b_keeps_the_qwen3_8b_text_network(kb):
    # xtuner's Qwen3 8B dense config, which its Qwen3VLTextDense8BConfig takes: 36 x 4096, FFN 12288, 32 / 8 heads of
    # 128, vocab 151936, untied; the 4B: 36 x 2560, FFN 9728, tied
    m = kb.models[kb.model("Qwen/Qwen3-VL-8B-Instruct").id]
    assert (m.layers, m.hidden_size, m.ffn_size, m.heads, m.kv_heads, m.vocab_size, m.tied_embeddings) == (
        36, 4096, 12288, 32, 8, 151936, False)
    m = kb.models[kb.model("Qwen/Qwen3-VL-4B-Instruct").id]
    assert (m.layers, m.hidden_size, m.ffn_size, m.heads, m.kv_heads, m.tied_embeddings) == (
        36, 2560, 9728, 32, 8, True)


# ------------------------------------------------------------------ Apertus 8B (a two-matrix xIELU MLP)

def test_apertus_8b_counts_and_kv_cache(kb):
    """swiss-ai/Megatron-LM launcher_sft_apertus_8b.sh @ 7c540a6e: 32 layers of 4096, FFN 21504 with xIELU (up and
    down, no gate), 32 / 8 heads of 128, QK norm, untied; a 131,072-token vocabulary gives the 8,053,338,176
    parameters a load of swiss-ai/Apertus-8B-Instruct-2509 reports."""
    h, ffn, vocab = 4096, 21504, 131072
    attn = h * 4096 + 2 * h * 1024 + 4096 * h + 2 * 128
    layer = attn + 2 * h * ffn + 2 + 2 * h  # two matrices, xIELU's alpha_p and alpha_n, two RMSNorms
    total = 32 * layer + 2 * vocab * h + h
    assert total == 8_053_338_176
    m = kb.models["apertus-8b"]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert m.mlp_matrices == 2
    # 32 x 2 x 8 x 128 x 2 B = 131,072 B of KV cache a token
    assert kv_cache_bytes(from_catalog(m), 1000).value == pytest.approx(131_072 * 1000)
    assert kb.model("swiss-ai/Apertus-8B-Instruct-2509").id == "apertus-8b"
