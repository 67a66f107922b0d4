"""DSA with shared indexers (catalog ``sparse_attention.indexer_layers``, GLM-5.2's IndexShare): only the layers that
keep an indexer cache its key, score the context and launch its kernels; the others attend the top-k the last such
layer picked.

Sources. Which layers: GlmMoeDsaConfig in huggingface/transformers
src/transformers/models/glm_moe_dsa/configuration_glm_moe_dsa.py @ 008e574391258935f3ecc3035c882e73bbcac419
(indexer_types: layer i is 'full' where max(i - index_skip_topk_offset + 1, 0) % index_topk_freq == 0, defaults
freq 1 and offset 2); GLM-5.2 / 5.3 state index_topk_freq 4 and index_skip_topk_offset 3 (ROCm/ATOM pull request
#2291). The count as vLLM caches it: vllm-project/recipes pull request #893 (GLM-5.3, GLM-5.2's architecture, FP8 on
8 x H200 at TP 8, vLLM 0.28.0, FP8 KV) offloads 19,111,157,760 B for a 44,498-token prompt and 59,763,793,920 B for
a 138,615-token one, whole blocks of 256 tokens only (173 and 541 blocks). GLM-5.2's entry does not set the block
(validation README, branch glm52dsa49): it is laid on here as an overlay would lay it.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gpuwise import knowledge
from gpuwise.estimators import compute as C
from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.engine import kv_per_token
from gpuwise.estimators.serving.step import consts, step
from gpuwise.inputs.shape import from_catalog
from gpuwise.knowledge.schema.models import Model

LAYERS, LATENT, KEY = 78, 576, 132
BLOCK = """models:
  - id: glm-5.2
    sparse_attention:
      kind: dsa
      index_heads: 32
      index_head_dim: 128
      top_k: 2048
      index_key_bytes: 132
      indexer_layers: 21
      source: "test: GlmMoeDsaConfig's schedule at index_topk_freq 4, index_skip_topk_offset 3"
"""


def full_layers(layers: int, freq: int, offset: int) -> list[int]:
    """transformers' GlmMoeDsaConfig.__post_init__ rule for indexer_types 'full'."""
    return [i for i in range(layers) if max(i - offset + 1, 0) % max(freq, 1) == 0]


@pytest.fixture(scope="module")
def kb52(tmp_path_factory):
    d = tmp_path_factory.mktemp("overlay")
    (d / "models.yaml").write_text(BLOCK)
    return knowledge.load(d)


def test_the_schedule_keeps_21_indexers_of_78():
    full = full_layers(LAYERS, 4, 3)
    assert full == [0, 1, 2, *range(6, 75, 4)] and len(full) == 21
    assert len(full_layers(LAYERS, 1, 2)) == 78  # GLM-5's defaults: an indexer on every layer


def test_vllm_caches_the_key_on_21_layers():
    # a token over the 8 ranks (MLA's latent whole on each): 8 x (78 x 656 B fp8_ds_mla + 21 x 132 B) = 431,520 B
    per_token = 8 * (LAYERS * 656 + 21 * KEY)
    assert per_token == 431_520
    assert 173 * 256 * per_token == 19_111_157_760 and 541 * 256 * per_token == 59_763_793_920
    assert 173 * 256 * 8 * (LAYERS * 656 + LAYERS * KEY) != 19_111_157_760  # a key on every layer does not close


def test_the_field_is_checked(kb):
    data = kb.models["glm-5"].model_dump()
    data["sparse_attention"]["indexer_layers"] = 79
    with pytest.raises(ValidationError, match="indexer_layers"):
        Model(**data)
    assert kb.models["glm-5"].sparse_attention.indexer_layers is None
    assert kb.models["deepseek-v3.2-exp"].sparse_attention.indexer_layers is None


def test_the_cache_holds_the_key_on_the_indexer_layers_only(kb, kb52):
    # BF16: 78 x 1,152 + 21 x 132 = 92,628 B a token (GLM-5, a key on every layer: 78 x 1,284 = 100,152; dense MLA
    # 78 x 1,152 = 89,856); an FP8 latent: 78 x 576 + 21 x 132 = 47,700
    s = from_catalog(kb52.models["glm-5.2"])
    assert (s.indexer_layers, s.attn_layers) == (21, 78)
    assert kv_per_token(s, 2.0) == LAYERS * LATENT * 2 + 21 * KEY == 92_628
    assert kv_per_token(s, 1.0) == LAYERS * LATENT + 21 * KEY == 47_700
    assert kv_per_token(from_catalog(kb.models["glm-5"]), 2.0) == 100_152
    assert kv_per_token(from_catalog(kb.models["glm-5.2"]), 2.0) == 89_856


def test_a_decode_step_at_128k_reads_21_layers_of_keys(kb52, accuracy):
    # one request of 131,072 in / 2,048 out on 8 x H200 at TP 8 (vLLM), context 131,072 + 1,024 = 132,096:
    # 21 x 132 x 132,096 + 78 x 1,152 x 2,048 = 366,170,112 + 184,025,088 = 550,195,200 B a GPU (the latent whole on
    # every rank); with a key on every layer 78 x 132 x 132,096 + 184,025,088 = 1,544,085,504; dense MLA
    # 78 x 1,152 x 132,096 = 11,869,650,944
    job = accuracy.serving_job(kb52, "glm-5.2", "fp8", "vllm", 131072, 2048, 1, 8, 1)
    s = SV.choose(job, kb52.gpus["h200-141gb-sxm"], 8)
    eng, rep = s.engine, s.replica
    assert rep.layout.tp == 8 and eng.kv_bytes == 2.0
    ctx = 131072 + 2048 / 2
    d = step(job, eng, rep, 1, 0.0, ctx, 0.0)
    assert d.kv_bytes_gpu == pytest.approx(21 * KEY * ctx + LAYERS * LATENT * 2 * 2048, rel=1e-12)
    assert d.kv_bytes_gpu == pytest.approx(550_195_200, rel=1e-12)
    c = consts(job, eng, rep)
    assert c.idx_share == pytest.approx(21 * KEY / 92_628, rel=1e-12)
    # the indexer's logits on 21 layers: 4 x 21 x (32 x 128 / 2) FLOPs a query and earlier token
    assert c.idx_4 == pytest.approx(4 * 21 * 32 * 128 / 2, rel=1e-12)


def test_the_indexer_kernels_count_the_indexer_layers(kb52, accuracy):
    # SGLang's 15 indexer kernels a layer (serving.yaml sparse_indexer_kernels) on 21 layers: 315 a forward
    from gpuwise.estimators.serving.step import sparse_indexer_kernels

    job = accuracy.serving_job(kb52, "glm-5.2", "fp8", "sglang", 8192, 1024, 32, 8, 1)
    eng = SV.choose(job, kb52.gpus["h200-141gb-sxm"], 8).engine
    assert sparse_indexer_kernels(eng) == pytest.approx(15 * 21, rel=1e-12)


def test_training_prices_the_indexer_on_its_layers(kb, kb52):
    # seq 131,072: span 4,064; MQA width 64 x (512 + 64 + 512) / 2 = 34,816; indexer 32 x 128 / 2 = 2,048 on 21
    # layers: 6 x (78 x 4,064 x 34,816 + 21 x 131,072 x 2,048) = 6 x (11,036,393,472 + 5,637,144,576)
    # = 100,041,228,288 FLOPs a token (GLM-5, an indexer on every layer: 6 x (11,036,393,472 + 78 x 268,435,456)
    # = 191,846,154,240)
    s = from_catalog(kb52.models["glm-5.2"])
    t = C.training_flops(s, 1.0, 131072, "full", False)
    assert t.inputs["attended_span"] == 4064.0 and t.inputs["indexer_layers"] == 21
    (_, mid, values), = t.input_phrases["attention_formula"]  # the report's formula names the 21 layers
    assert mid == "formula.attention_per_token_sparse_shared" and values["indexer_layers"] == 21
    assert t.inputs["attention_flops_per_token"] == pytest.approx(100_041_228_288, rel=1e-12)
    assert 6 * (78 * 4064 * 34816 + 21 * 131072 * 2048) == 100_041_228_288
    g5 = C.training_flops(from_catalog(kb.models["glm-5"]), 1.0, 131072, "full", False)
    assert g5.inputs["attention_flops_per_token"] == pytest.approx(191_846_154_240, rel=1e-12)
    assert "indexer_layers" not in g5.inputs


def test_the_report_says_which_layers_keep_an_indexer(kb52, accuracy):
    job = accuracy.serving_job(kb52, "glm-5.2", "fp8", "vllm", 4096, 512, 1)
    notes = [a for a in job.assumptions if a.message_id == "assume.sparse_attention_shared"]
    assert len(notes) == 1 and notes[0].values["indexer_layers"] == 21 and notes[0].values["layers"] == 78
    assert "21 of its 78 layers" in notes[0].reason


def test_the_new_sentences_are_translated():
    from gpuwise import messages
    from gpuwise.render import fmt

    zh = fmt.translations("zh")
    for mid, field in (("assume.sparse_attention_shared", "{indexer_layers:int}"),
                       ("formula.kv_cache_dsa_shared", "{indexer_layers}"),
                       ("formula.attention_per_token_sparse_shared", "{indexer_layers}")):
        template = messages.template(mid)
        assert zh.gettext(template) != template and field in zh.gettext(template)
