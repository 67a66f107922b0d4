"""DeepSeek Sparse Attention (DSA, catalog ``sparse_attention``): DeepSeek-V3.2 and GLM-5 priced as they attend.

Sources. DeepSeek-V3.2-Exp config.json (model card and technical report, Sep 2025): index_n_heads 64,
index_head_dim 128, index_topk 2048; the lightning indexer scores every earlier token with FP8 heads and each query
attends the top 2,048. GLM-5: GlmMoeDsaConfig in huggingface/transformers
src/transformers/models/glm_moe_dsa/configuration_glm_moe_dsa.py @ 008e5743 (index_n_heads 32, index_head_dim 128,
index_topk 2048). The indexer key's cache entry: vllm-project/vllm vllm/model_executor/models/deepseek_v2.py
@ 002d6073 (DeepseekV32IndexerCache of head_dim + head_dim // quant_block_size x 4 uint8, quant_block_size 128: 128
FP8 values and one FP32 scale, 132 bytes a token and layer; the indexer's projections ReplicatedLinear). Sparse MLA
runs in the absorbed 576 / 512 MQA form for prefill and decode alike (vllm v1/attention/backends/mla/
flashmla_sparse.py @ 60191e18, forward_mqa). Training: the technical report, section 2.1 (DSA on MLA's MQA mode)
and 2.2 (dense warm-up of 2.1B tokens, then 943.7B sparse).
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gpuwise.estimators import compute as C
from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.engine import kv_per_token
from gpuwise.estimators.serving.step import consts, step
from gpuwise.inputs.shape import from_catalog
from gpuwise.knowledge.schema.models import Model

V32, GLM5 = "deepseek-v3.2-exp", "glm-5"
LAYERS_V32, LAYERS_GLM5 = 61, 78
LATENT = 576  # kv_lora_rank 512 + qk_rope_head_dim 64
KEY = 128 + 128 // 128 * 4  # the indexer key: 128 FP8 bytes + one FP32 scale = 132


def test_both_entries_carry_their_indexer(kb):
    a, b = kb.models[V32].sparse_attention, kb.models[GLM5].sparse_attention
    assert (a.kind, a.index_heads, a.index_head_dim, a.top_k, a.index_key_bytes) == ("dsa", 64, 128, 2048, KEY)
    assert (b.kind, b.index_heads, b.index_head_dim, b.top_k, b.index_key_bytes) == ("dsa", 32, 128, 2048, KEY)
    assert KEY == 132
    assert kb.models["deepseek-v3"].sparse_attention is None  # dense MLA stays dense


def test_sparse_attention_needs_mla(kb):
    data = kb.models["llama-3.1-8b"].model_dump()
    data["sparse_attention"] = {"kind": "dsa", "index_heads": 64, "index_head_dim": 128, "top_k": 2048,
                                "index_key_bytes": 132, "source": "test"}
    with pytest.raises(ValidationError, match="sparse_attention"):
        Model(**data)


def test_the_cache_holds_the_indexer_key_beside_each_mla_entry(kb):
    # BF16 cache: 61 x (576 x 2 + 132) = 78,324 B a token (dense MLA, DeepSeek-V3: 61 x 1,152 = 70,272);
    # FP8 cache: the latent at 1 B, the key as it is: 61 x (576 + 132) = 43,188; GLM-5: 78 x 1,284 = 100,152
    v32 = from_catalog(kb.models[V32])
    assert kv_per_token(v32, 2.0) == LAYERS_V32 * (LATENT * 2 + KEY) == 78_324
    assert kv_per_token(v32, 1.0) == LAYERS_V32 * (LATENT + KEY) == 43_188
    assert kv_per_token(from_catalog(kb.models[GLM5]), 2.0) == LAYERS_GLM5 * (LATENT * 2 + KEY) == 100_152
    assert kv_per_token(from_catalog(kb.models["deepseek-v3"]), 2.0) == LAYERS_V32 * LATENT * 2 == 70_272


@pytest.fixture(scope="module")
def dh04(kb, accuracy):
    """Row DH04's setting: DeepSeek-V3.2 NVFP4 on 4 x B200 at TP 4 under vLLM, one request of 131,072 in."""
    job = accuracy.serving_job(kb, V32, "fp4", "vllm", 131072, 2048, 1, 4, 1)
    s = SV.choose(job, kb.gpus["b200"], 4)
    assert s.replica.layout.tp == 4 and s.engine.kv_bytes == 2.0  # a 16-bit cache, MLA's latent not split by TP
    return job, s.engine, s.replica


def test_a_decode_step_at_128k_reads_the_top_k_entries_and_every_indexer_key(dh04):
    # context 131,072 + 2,048 / 2 = 132,096: 61 x (132 x 132,096 + 1,152 x 2,048) = 1,207,554,048 B a GPU, where the
    # whole cache (61 x 1,152 x 132,096 = 9,282,650,112 B) was read as dense MLA
    job, eng, rep = dh04
    ctx = 131072 + 2048 / 2
    d = step(job, eng, rep, 1, 0.0, ctx, 0.0)
    assert d.kv_bytes_gpu == pytest.approx(LAYERS_V32 * (KEY * ctx + LATENT * 2 * 2048), rel=1e-12)
    assert d.kv_bytes_gpu == pytest.approx(1_207_554_048, rel=1e-12)
    assert d.kv_bytes_gpu < LAYERS_V32 * LATENT * 2 * ctx / 7.6
    # the indexer's share of a cached token: 132 of 1,284 bytes
    assert consts(job, eng, rep).idx_share == pytest.approx(132 / 1284, rel=1e-12)


def test_a_128k_prefill_attends_top_k_and_pays_the_indexer_at_fp8(dh04):
    # one forward of the whole 131,072-token prompt, mean attended position 65,536:
    # attention 4 x 61 x (128 heads x 576) x min(65,536, 2,048) x 131,072 = 4,829,055,069,192,192 FLOPs, split by
    # TP 4; the indexer 4 x 61 x (64 x 128 / 2) x 65,536 x 131,072 = 8,584,986,789,675,008 FLOPs on every GPU
    # (replicated), at the FP8 rate. Dense MLA would have been 4 x 61 x (128 x 160) x 65,536 x 131,072
    # = 42,924,933,948,375,040, its 4.3e16 / 4 a GPU at the 16-bit rate.
    job, eng, rep = dh04
    main = 4 * LAYERS_V32 * (128 * LATENT) * 2048 * 131072
    index = 4 * LAYERS_V32 * (64 * 128 / 2) * 65536 * 131072
    assert (main, index) == (4_829_055_069_192_192, 8_584_986_789_675_008)
    assert eng.peak_index == pytest.approx(2 * eng.peak_attn, rel=1e-12)  # B200: FP8 twice BF16, same efficiency
    p = step(job, eng, rep, 0, 131072, 0.0, 65536)
    assert p.attention == pytest.approx(main / 4 / eng.peak_attn + index / eng.peak_index, rel=1e-12)
    dense = 4 * LAYERS_V32 * (128 * 160) * 65536 * 131072
    assert dense == 42_924_933_948_375_040
    # about half the dense figure on B200 (4.9 s against 9.5 s at the same efficiency): the replicated indexer dominates
    assert 0.5 < p.attention / (dense / 4 / eng.peak_attn) < 0.52


def test_short_contexts_attend_every_token(dh04):
    # below top-k a query attends its whole context: a step at 1,000 tokens reads 1,000 x 1,284 B a layer
    job, eng, rep = dh04
    d = step(job, eng, rep, 1, 0.0, 1000, 0.0)
    assert d.kv_bytes_gpu == pytest.approx(LAYERS_V32 * 1000 * (LATENT * 2 + KEY), rel=1e-12)


def test_training_flops_price_the_sparse_stage(kb):
    # seq 131,072: a query at p attends min(p, 2,048): mean span 2 x 2,048 - 2,048^2 / 131,072 = 4,064; MQA-mode
    # width 128 x (512 + 64 + 512) / 2 = 69,632; indexer width 64 x 128 / 2 = 4,096 over the whole causal span:
    # 6 x 61 x (4,064 x 69,632 + 131,072 x 4,096) = 300,067,061,760 FLOPs a token (dense MLA:
    # 6 x 61 x 131,072 x 20,480 = 982,473,768,960)
    v32 = from_catalog(kb.models[V32])
    t = C.training_flops(v32, 1.0, 131072, "full", False)
    assert t.inputs["attended_span"] == 4064.0
    assert t.inputs["attention_flops_per_token"] == 6 * 61 * (4064 * 69632 + 131072 * 4096) == 300_067_061_760
    assert t.value == pytest.approx(6 * t.inputs["matmul_params"] + 300_067_061_760, rel=1e-12)
    v3 = C.training_flops(from_catalog(kb.models["deepseek-v3"]), 1.0, 131072, "full", False)
    assert v3.inputs["attention_flops_per_token"] == 6 * 61 * 131072 * 20480 == 982_473_768_960
    # at or below top-k every earlier token is attended: span = seq
    assert C.training_flops(v32, 1.0, 2048, "full", False).inputs["attended_span"] == 2048


def test_the_report_says_dsa_was_priced(kb, accuracy):
    job = accuracy.serving_job(kb, "deepseek-v3.2", "fp8", "vllm", 4096, 512, 1)
    notes = [a for a in job.assumptions if a.message_id == "assume.sparse_attention"]
    assert len(notes) == 1
    assert notes[0].values == {"model": "DeepSeek-V3.2-Exp", "top_k": 2048, "heads": 64, "dim": 128,
                               "key_bytes": 132.0}
    assert "2,048 earlier tokens" in notes[0].reason and "132 bytes" in notes[0].reason
    dense = accuracy.serving_job(kb, "deepseek-v3", "fp8", "vllm", 4096, 512, 1)
    assert not [a for a in dense.assumptions if a.message_id == "assume.sparse_attention"]


def test_the_assumption_is_translated():
    from gpuwise import messages
    from gpuwise.render import fmt

    template = messages.template("assume.sparse_attention")
    zh = fmt.translations("zh").gettext(template)
    assert zh != template and "{top_k:int}" in zh and "{key_bytes:int}" in zh and "稀疏注意力" in zh
