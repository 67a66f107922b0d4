"""Multi-head latent attention in the model shape, and what a decode step reads of it (issue 22).

MLA's ranks come from the models' config.json (deepseek-ai/DeepSeek-V3, DeepSeek-R1, moonshotai/Kimi-K2-Instruct:
q_lora_rank 1536, kv_lora_rank 512, qk_rope_head_dim 64, qk_nope_head_dim 128, v_head_dim 128). Its down-projections
are not split by tensor parallelism (vLLM and SGLang build q_a_proj / kv_a_proj_with_mqa as replicated linear layers;
TensorRT-LLM tech blog 1 runs them data-parallel as its Fuse_A GEMM, and its RouterGEMM likewise, in BF16), and
NVIDIA's NVFP4 DeepSeek-R1 checkpoints leave the attention projections in BF16 (blog 1's Precision Strategy table;
the -v2 model cards: 'additionally quantizes the wo module'). Each figure by hand."""

from __future__ import annotations

import pytest

from gpuwise.estimators.serving.engine import checkpoint_keeps, model_bytes, quant_formats
from gpuwise.inputs.shape import from_catalog


def _mla_layer(h: int, heads: int) -> int:
    """One MLA layer's projections by hand: q_a 7168 x 1536, q_b 1536 x heads x 192, kv_a 7168 x 576,
    kv_b 512 x heads x 256, o heads x 128 x 7168."""
    return h * 1536 + 1536 * heads * 192 + h * 576 + 512 * heads * 256 + heads * 128 * h


@pytest.mark.parametrize(("model", "heads"), [("deepseek-v3", 128), ("deepseek-r1", 128), ("kimi-k2", 64)])
def test_mla_projections_recompute_the_published_parameter_count(kb, model, heads):
    """With the MLA projections counted, the config's shapes add up to params_b exactly: embeddings and head,
    61 layers of attention and norms (two RMSNorms of 7,168 plus the q and kv latent norms of 1,536 and 512),
    the dense MLPs of the first layers, and in every MoE layer the routed and shared experts of 3 x 7,168 x 2,048
    and the gate (experts x 7,168 weights and a bias per expert). DeepSeek-V3/R1 671,026,419,200; Kimi K2
    1,026,408,232,448 (the counts models.yaml cites). A GQA-shaped count (q, k, v, o at 128 heads x 128) would
    charge 470M per layer instead of 187M."""
    s = from_catalog(kb.models[model])
    h = s.hidden
    assert s.attn_params_per_layer() == _mla_layer(h, heads)
    moe_layers = s.layers - s.first_dense_layers
    total = (2 * s.vocab * h + h + s.layers * (_mla_layer(h, heads) + 2 * h + 1536 + 512)
             + s.first_dense_layers * 3 * h * s.dense_ffn
             + moe_layers * ((s.experts + s.shared_experts) * 3 * h * s.ffn + s.experts * h + s.experts))
    assert total == pytest.approx(s.params, rel=1e-12)


def test_dense_attention_keeps_its_gqa_count(kb):
    """Llama 3.1 8B (no MLA): q and o 4,096 x 4,096, k and v 4,096 x 1,024 per layer, nothing replicated."""
    s = from_catalog(kb.models["llama-3.1-8b"])
    assert s.attn_params_per_layer() == 2 * 4096 * 4096 + 2 * 4096 * 1024
    assert s.replicated_attn_params_per_layer() == 0


def test_nvfp4_r1_reads_its_bf16_attention_and_replicated_projections(kb):
    """DeepSeek-R1 in NVIDIA's NVFP4 checkpoint (4.5 bits per FP4 weight) at TP8: per layer the attention inputs
    (q_a 11.01M, q_b 37.75M, kv_a 4.13M, kv_b 16.78M = 69.66M) are BF16, the output projection (117.44M) NVFP4;
    the gate (256 x 7,168 in each of 58 MoE layers = 106.4M) BF16. The checkpoint is 69.66M x 61 x (2 - 0.5625)
    + 106.4M x (2 - 0.5625) = 6.26 GB larger than an all-NVFP4 one. Every TP rank holds the down-projections
    (7,168 x 2,112 = 15.14M per layer, BF16: 1.847 GB) and the gate (0.213 GB) whole."""
    s = from_catalog(kb.models["deepseek-r1"])
    quant = quant_formats(kb)
    plain = model_bytes(s, "nvfp4", quant)
    ck = kb.serving.fp4_checkpoints["deepseek-r1"]
    assert ck.format == "nvfp4" and set(ck.keeps_16bit) == {"attention_inputs", "router"}
    kept = model_bytes(s, "nvfp4", quant, tuple(ck.keeps_16bit))
    inputs = 7168 * 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 * 128 * 256
    gate = 58 * 256 * 7168
    assert kept.total - plain.total == pytest.approx(61 * inputs * (2 - 0.5625), rel=1e-9)
    # the router is BF16 in both (serving frameworks never quantize the gate): 1.4375 B per weight above NVFP4
    bare = plain.total - gate * (2 - 0.5625)
    assert kept.total - bare == pytest.approx((61 * inputs + gate) * (2 - 0.5625), rel=1e-9)
    assert kept.replicated == pytest.approx(61 * 7168 * 2112 * 2 + gate * 2, rel=1e-9)
    assert plain.replicated == pytest.approx(61 * 7168 * 2112 * 0.5625 + gate * 2, rel=1e-9)
    # one TP8 rank: an eighth of the split dense weights, all of the replicated ones
    assert kept.per_rank(8) == pytest.approx((kept.non_expert - kept.replicated) / 8 + kept.replicated)


def test_the_checkpoint_applies_only_when_the_job_serves_it(kb):
    """The entry concerns the published FP4 file: an FP8 job, or a named GGUF file, reads no 16-bit attention."""
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    def job(precision: str):
        w = {"task": "inference", "model": "deepseek-r1", "precision": precision, "framework": "tensorrt-llm"}
        return resolve(Requirements.model_validate({"workload": w}), kb)

    assert checkpoint_keeps(job("fp4"), "nvfp4", None) == ("attention_inputs", "router")
    assert checkpoint_keeps(job("fp4"), "nvfp4", "gguf-q4_k_m") == ()
    assert checkpoint_keeps(job("fp8"), "fp8", None) == ()


def test_the_memory_breakdown_holds_what_the_copy_holds(kb):
    """The per-GPU weights a report shows for DeepSeek-R1 NVFP4 served TP8 on 8 x B200 are the serving copy's
    (serving/layout.py): an eighth of the split weights, the replicated down-projections and gate whole, and the
    checkpoint's BF16 attention inputs, where the breakdown used to divide an all-NVFP4 checkpoint by 8
    (understating each GPU's weights by ~2.6 GB). The extra is said in the formula."""
    import importlib

    from gpuwise.estimators import serving as SV
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    report = importlib.import_module("gpuwise.estimators.serving.report")
    w = {"task": "inference", "model": "deepseek-r1", "precision": "fp4", "framework": "tensorrt-llm",
         "parallelism": {"tp": 8}}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(job, kb.gpus["b200"], 8)
    assert (s.layout.tp, s.layout.dp_attention) == (8, 1)
    mb = s.engine.mbytes
    est = report.memory_of(job, s.engine.fw, s.layout, kb.gpus["b200"])
    hand = (mb.non_expert - mb.replicated) / 8 + mb.replicated + mb.experts / 8
    assert est.weights.value == pytest.approx(hand, rel=1e-9)
    assert est.weights.value - mb.total / 8 == pytest.approx(mb.replicated * 7 / 8, rel=1e-9)
    assert est.weights.inputs["held_whole_bytes"] > 2.5e9
    assert any(p[1] == "formula.weights_held_whole" for p in est.weights.formula_phrases)


def test_a_dense_model_breakdown_is_unchanged(kb):
    """Llama 3.1 70B FP8 TP4 (no gate, no MLA, no checkpoint entry): the breakdown divides the weights by 4."""
    import importlib

    from gpuwise.estimators import serving as SV
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    report = importlib.import_module("gpuwise.estimators.serving.report")
    w = {"task": "inference", "model": "llama-3.1-70b", "precision": "fp8", "parallelism": {"tp": 4}}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 4)
    est = report.memory_of(job, s.engine.fw, s.layout, kb.gpus["h100-80gb-sxm"])
    assert "held_whole_bytes" not in est.weights.inputs
    assert est.weights.value == pytest.approx(s.engine.mbytes.total / 4, rel=1e-9)
