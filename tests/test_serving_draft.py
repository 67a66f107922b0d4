"""A speculative drafter's weights and KV cache are counted in serving memory, sized from its parameters
(gpuwise/estimators/serving/draft.py): checked by hand against published shapes and sizes."""

from __future__ import annotations

import math

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

H100 = "h100-80gb-sxm"


def job_of(kb, **w):
    w = {"task": "inference", "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 64, **w}
    return resolve(Requirements.model_validate({"workload": w}), kb)


def test_eagle3_head_of_llama_3_1_8b_by_hand(kb):
    """Llama-3.1-8B (config.json: hidden 4096, 32 heads, 8 KV heads of 128, MLP 14336, vocab 128256).
    One decoder layer: attention 2 x 4096 x 4096 + 2 x 4096 x 1024 = 41,943,040; MLP 3 x 4096 x 14336
    = 176,160,768. EAGLE-3 adds a 3h x h projection (50,331,648) and its own head over a 32,000-token
    draft vocabulary (131,072,000): 399,507,456 parameters, x 2 B in BF16 = 799,014,912 B on one GPU
    (the released EAGLE3-LLaMA3.1-Instruct-8B head is ~0.42B: its first layer reads 2h wide).
    Its KV cache is one layer's: 2 x 8 x 128 x 2 B = 4,096 B per token."""
    s = SV.choose(job_of(kb, model="llama-3.1-8b", precision="bf16", speculative={"method": "eagle3"}),
                  kb.gpus[H100], 1)
    d = s.engine.drafter
    assert d.params == 399_507_456
    assert s.replica.draft_gpu == 799_014_912
    assert s.replica.draft_kv_token_gpu == 4096
    assert d.params == pytest.approx(0.42e9, rel=0.06)


def test_eagle_shares_the_targets_head(kb):
    """EAGLE (-1/-2) reuses the target's embedding and LM head: one layer + a 2h x h projection
    = 218,103,808 + 33,554,432 = 251,658,240 parameters."""
    s = SV.choose(job_of(kb, model="llama-3.1-8b", precision="bf16", speculative={"method": "eagle"}),
                  kb.gpus[H100], 1)
    assert s.engine.drafter.params == 251_658_240


def test_deepseek_mtp_module_is_its_published_size(kb):
    """DeepSeek-V3's MTP module is one MoE layer plus its 2h x h projection: 11.5B unique parameters
    (deepseek-ai/DeepSeek-V3 README_WEIGHTS.md). In FP8 at TP 8 each GPU holds 1/8 of it, ~1.45 GB;
    its KV cache is one layer's latent, 576 x 1 B per token (FP8 KV), on every rank (MLA)."""
    s = SV.choose(job_of(kb, model="deepseek-v3", precision="fp8", speculative={"method": "mtp"},
                         parallelism={"tp": 8}), kb.gpus["h200-141gb-sxm"], 8)
    d = s.engine.drafter
    assert d.params == pytest.approx(11.5e9, rel=0.02)
    assert s.replica.draft_gpu == pytest.approx(d.params * 1.0 / 8)
    kv_b = s.engine.kv_bytes
    assert s.replica.draft_kv_token_gpu == 576 * kv_b


def test_draft_model_weights_and_kv_cut_the_batch_by_hand(kb):
    """A 1.2B draft model beside Llama-3.1-70B BF16 on 4 H100 (TP 4): 1.2e9 x 2 B / 4 = 0.6 GB per GPU
    of weights, and its own KV cache per token (its fitted shape's). The copy then holds
    floor((free - 0.6 GB) / (KV per sequence + the drafter's KV per sequence)) sequences."""
    plain = SV.choose(job_of(kb, model="llama-3.1-70b", precision="bf16", parallelism={"tp": 4}),
                      kb.gpus[H100], 4)
    spec = SV.choose(job_of(kb, model="llama-3.1-70b", precision="bf16", parallelism={"tp": 4},
                            speculative={"method": "draft-model", "draft_params_b": 1.2}), kb.gpus[H100], 4)
    r0, r1 = plain.replica, spec.replica
    assert r1.draft_gpu == pytest.approx(0.6e9)
    assert r1.weights_gpu == pytest.approx(r0.weights_gpu + 0.6e9)
    d = spec.engine.drafter
    assert r1.draft_kv_token_gpu == d.kv_bytes_per_token / min(4, d.kv_heads)
    assert d.kv_bytes_per_token > 0
    per_seq = r0.kv_token_gpu * r0.seq_tokens + r1.draft_kv_token_gpu * 1504  # prompt + output / 2 in 16-token blocks
    assert r1.max_seqs == min(math.floor((r0.free_gpu - 0.6e9) / per_seq), spec.engine.batch_cap)
    assert r1.max_seqs < r0.max_seqs


def test_memory_breakdown_shows_the_drafter(kb):
    """The report's weights term grows by exactly the drafter's share and says so; n-gram lookup holds nothing."""
    w = {"model": "llama-3.1-8b", "precision": "bf16"}
    plain = job_of(kb, **w)
    eagle = job_of(kb, speculative={"method": "eagle3"}, **w)
    s0, s1 = SV.choose(plain, kb.gpus[H100], 1), SV.choose(eagle, kb.gpus[H100], 1)
    m0, m1 = SV.memory_of(plain, s0.engine.fw, s0.layout), SV.memory_of(eagle, s1.engine.fw, s1.layout)
    assert m1.weights.value - m0.weights.value == pytest.approx(799_014_912)
    assert "eagle3 drafter" in m1.weights.formula
    assert m1.kv_cache.value > m0.kv_cache.value
    ngram = SV.choose(job_of(kb, speculative={"method": "ngram"}, **w), kb.gpus[H100], 1)
    assert ngram.engine.drafter is None and ngram.replica.draft_gpu == 0.0
