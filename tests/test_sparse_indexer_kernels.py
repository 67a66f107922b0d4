"""A DSA model's lightning-indexer kernels on SGLang's decode step (step.py ``sparse_indexer_kernels``), by hand.

Kernels read in sgl-project/sglang python/sglang/srt/layers/attention/nsa/nsa_indexer.py @ 005e8bf8,
Indexer.forward_cuda at a decode batch inside a CUDA graph (the dual-stream path). Layers: GLM-5 78 (transformers
GlmMoeDsaConfig @ 008e5743), DeepSeek-V3.2-Exp 61 (its config.json), each with an indexer. Row figures: SS07
(tests/data/validation/decode_independent.csv: sgl-cookbook GLM-5.md @ f0d5bb8, 8 x H200, SGLang commit 947927bdb,
MTP accept length 3.48, TPOT 7.54 ms) and SU07 (sgl-project/sglang pull request #30812, 8 x MI300X, v0.5.13.post1,
TPOT 28.38 ms).
"""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from gpuwise.estimators import serving as SV

ST = importlib.import_module("gpuwise.estimators.serving.step")

# the critical path at decode: the side stream's chain (longer than the main stream's two head-gate kernels), then
# the kernels after the streams join
SIDE = ["wq_b act quant", "wq_b block-FP8 GEMM", "wk act quant", "wk block-FP8 GEMM", "k_norm LayerNorm",
        "rotary embedding", "Hadamard q", "Hadamard k", "act_quant q", "act_quant k"]
JOINED = ["gates x q_scale", "x softmax_scale", "set_index_k_scale_buffer", "fp8_paged_mqa_logits", "topk_transform"]


def _glm5(kb, accuracy, gpu="h200-141gb-sxm", version="0.5.9", framework="sglang", speculative=""):
    job = accuracy.serving_job(kb, "glm-5", "fp8", framework, 610, 422, tp=8, framework_version=version,
                               speculative=speculative)
    return job, SV.choose(job, kb.gpus[gpu], 8)


def _without(eng):
    return dataclasses.replace(eng, fw=eng.fw.model_copy(update={"sparse_indexer_kernels": None}))


def test_sglang_counts_the_indexer_chain(kb):
    assert len(SIDE) + len(JOINED) == 15
    assert kb.framework("sglang").sparse_indexer_kernels.decode["dsa"] == len(SIDE) + len(JOINED)


def test_a_glm5_decode_step_pays_78_layers_of_them(kb, accuracy):
    """SS07's engine: 15 x 78 = 1,170 kernels at SGLang 0.5.9's 6 us floor (GLM-5 joins the fused-kernel list only
    at 0.5.11): 7.02 ms more a step, at every batch; the eager prefill's host time does not count them."""
    job, s = _glm5(kb, accuracy)
    eng = s.engine
    assert ST.sparse_indexer_kernels(eng) == 15 * 78
    assert eng.kernel_floor == pytest.approx(6e-6)
    plain = _without(eng)
    assert ST.floor_per_step(eng) - ST.floor_per_step(plain) == pytest.approx(1170 * 6e-6, rel=1e-9)
    assert ST.prefill_host(eng) == ST.prefill_host(plain)
    for batch in (1.0, 32.0):
        longer = (ST.seconds_of(ST.consts(job, eng, s.replica), batch, 0.0, 821.0, 0.0)
                  - ST.seconds_of(ST.consts(job, plain, s.replica), batch, 0.0, 821.0, 0.0))
        assert longer == pytest.approx(1170 * 6e-6, rel=1e-9)


def test_the_rows_read_within_a_fifth(kb, accuracy):
    """SS07 (MTP, 3 drafts at 0.91) 132.63 t/s and SU07 35.24 t/s: without the indexer's kernels gpuwise read them
    +48% and +59% (196.4 and 56.0 t/s); with them within 20%."""
    job, s = _glm5(kb, accuracy, speculative="mtp:0.91:3")
    assert 1 / SV.point(job, s.engine, s.replica, 1.0).decode_step == pytest.approx(132.63, rel=0.20)
    job = accuracy.serving_job(kb, "glm-5", "fp8", "sglang", 1000, 1000, tp=8, kv_precision="bf16",
                               framework_version="0.5.13")
    s = SV.choose(job, kb.gpus["mi300x"], 8)
    assert 1 / SV.point(job, s.engine, s.replica, 1.0).decode_step == pytest.approx(35.24, rel=0.20)


def test_none_counted_for_dense_attention_or_an_unread_framework(kb, accuracy):
    job = accuracy.serving_job(kb, "deepseek-v3", "fp8", "sglang", 610, 422, tp=8, framework_version="0.5.9")
    assert ST.sparse_indexer_kernels(SV.choose(job, kb.gpus["h200-141gb-sxm"], 8).engine) == 0.0
    _, s = _glm5(kb, accuracy, framework="vllm", version="0.19.0")
    assert s.engine.fw.sparse_indexer_kernels is None
    assert ST.sparse_indexer_kernels(s.engine) == 0.0
