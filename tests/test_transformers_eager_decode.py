"""transformers' eager decode step from the ops its model code launches (serving.yaml transformers ``eager_decode``;
gpuwise/estimators/serving/eager.py; step.py ``_parts``). Counted at a batch of one in the PyPI wheels:
- a decoder layer @ v4.53.2 (models/qwen2/modeling_qwen2.py, models/llama/modeling_llama.py, flash_attention_2): two
  RMSNorms of 8 ops, q/k/v/o 4, apply_rotary_pos_emb 10, DynamicCache.update's 2 torch.cat, attention 2, 2 residual
  adds, the MLP 5 = 41; @ v4.39.3 LlamaAttention builds the rotary tables itself (8 more: 49), @ v4.45.0 the model
  does so once a step;
- a step's ops outside the layers: ~23 of the model's (embedding, mask, rotary tables, final norm, lm_head) and ~45
  of GenerationMixin._sample @ v4.53.2 (logits copy, processors, sampling, stopping criteria, next inputs) = 68;
- Qwen3MoeSparseMoeBlock.forward @ v4.53.2: 11 ops before the expert loop, 12 for each expert hit (two host syncs
  each: Tensor.__index__ of the ModuleList index and torch.where's nonzero), in place of the dense MLP's 5;
- 15 us an op: the middle of flagos-ai/Torch-FL PR #27 (~8 us submitting an add on an A100 host), bitsandbytes
  issue #347 (~20 us: 32.89 ms a token of LLaMA-7B on an RTX 3090 over ~1,650 launches) and the 'GPT, Fast' blog
  (~24 us: eager Llama-7B at 25.5 tok/s on an A100, ~50 launches a layer).
Rows: DE33 (Qwen2.5-7B, H100 NVL, 18.82 ms a token end to end), DE36 (Qwen3-30B-A3B, 94.16 ms), DE39 (Llama 2 7B FP16,
A100, transformers 4.39.3, 29.24 ms)."""

from __future__ import annotations

import importlib

import pytest

from benchmarks import accuracy as A
from gpuwise import knowledge
from gpuwise.estimators import serving as SV

ST = importlib.import_module("gpuwise.estimators.serving.step")
OP = 15e-6


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _step(kb, model, precision, gpu, prompt, output, version=None):
    job = A.serving_job(kb, model, precision, "transformers", prompt, output, concurrency=1,
                        framework_version=version)
    s = SV.choose(job, kb.gpus[gpu], 1)
    c = ST.consts(job, s.engine, s.replica)
    return s.engine, ST._parts(c, 1.0, 0.0, prompt + output / 2, 0.0)


def test_the_counts_are_the_codes(kb):
    e = kb.framework("transformers").eager_decode
    assert (e.layer_ops, e.norm_ops, e.mlp_ops, e.rotary_table_ops, e.rotary_once_from) == (41, 8, 5, 8, "4.45.0")
    assert e.layer_ops == 2 * 8 + 4 + 10 + 2 + 2 + 2 + 5  # norms, q/k/v/o, rotary, cache, attention, adds, MLP
    assert (e.step_ops, e.router_ops, e.expert_ops) == (68, 11, 12)
    assert e.host_op_us == 15 and 8 < e.host_op_us < 24


def test_dense_token_is_the_launches_when_they_outlast_the_weights(kb):
    """DE33: Qwen2.5-7B BF16 on one H100 NVL, 28 layers. The weights (~15 GB) take ~4.6 ms at 80% of 3.9 TB/s; the
    28 x 41 launches take 17.22 ms, so the layers last as long as the launches; generate()'s 68 ops add 1.02 ms:
    18.24 ms a token (54.8 tok/s) against the row's 18.82 ms (53.14 tok/s, prefill included)."""
    eng, parts = _step(kb, "qwen2.5-7b", "bf16", "h100-nvl-94gb", 81, 550)
    seconds, gemm, attention, comm, over, host = parts[:6]
    assert eng.eager is not None and eng.kernel_floor == 0.0 and eng.grouped_floor == 0.0
    assert host == pytest.approx(68 * OP)
    assert gemm + attention + comm < 28 * 41 * OP  # the GPU's work hides under the launches
    assert gemm + attention + comm + over == pytest.approx(28 * 41 * OP)
    assert seconds == pytest.approx((28 * 41 + 68) * OP)  # 18.24 ms


def test_a_release_before_4_45_builds_the_rotary_tables_in_every_layer(kb):
    """DE39: Llama 2 7B FP16 on one A100 80GB under transformers 4.39.3: 32 x (41 + 8) + 68 = 1,636 launches,
    24.54 ms a token, against the weights' ~8.2 ms; the row measured 29.24 ms (a host ~20% slower than the middle)."""
    eng, parts = _step(kb, "llama-2-7b", "fp16", "a100-80gb-sxm", 20, 512, "4.39.3")
    assert eng.eager.layer_ops == 49
    assert parts[0] == pytest.approx((32 * 49 + 68) * OP)
    _, later = _step(kb, "llama-2-7b", "fp16", "a100-80gb-sxm", 20, 512, "4.53.2")
    assert later[0] == pytest.approx((32 * 41 + 68) * OP)


def test_moe_token_adds_the_python_expert_loop(kb):
    """DE36: Qwen3-30B-A3B BF16 on one H100 NVL, 48 MoE layers of 128 experts, 8 a token. A layer launches 41 - 5 =
    36 ops outside its MoE block and 11 + 8 x 12 = 107 in it; each expert's two syncs leave the loop a stretch of
    its own, whose GEMMs (8 experts x 9.4 MB) are microseconds: 48 x 143 x 15 us = 102.96 ms, plus generate()'s
    1.02 ms = 103.98 ms a token (9.62 tok/s) against the row's 94.16 ms (10.62 tok/s)."""
    eng, parts = _step(kb, "qwen3-30b-a3b", "bf16", "h100-nvl-94gb", 45, 4096)
    seconds, gemm, attention, comm, over, host = parts[:6]
    assert eng.eager.moe_layer_ops == 36
    assert host == pytest.approx(68 * OP)
    assert seconds == pytest.approx((48 * (36 + 11 + 8 * 12) + 68) * OP)  # 103.98 ms
    assert seconds == pytest.approx(gemm + attention + comm + over + host)


def test_bitsandbytes_per_layer_cost_stays_beside_the_launches(kb):
    """DE40: Llama 2 7B in LLM.int8() under 4.39.3: bitsandbytes' measured 3.8 ms a layer (serving.yaml int8
    extra_layer_overhead_us, issue #347) is added to the launches: 24.54 + 32 x 3.8 = 146.14 ms (6.84 tok/s)
    against the row's 144.7 ms (6.91 tok/s)."""
    eng, parts = _step(kb, "llama-2-7b", "int8", "a100-80gb-sxm", 20, 512, "4.39.3")
    assert eng.layer_overhead == pytest.approx(3.8e-3)
    assert parts[0] == pytest.approx((32 * 49 + 68) * OP + 32 * 3.8e-3, rel=1e-3)


def test_the_decode_terms_say_the_launches_set_the_overhead():
    """The TPOT formula sums the layers' overhead; for transformers that overhead is the launches beyond the GPU's
    work, which the term now says with its counts (reports/messages.yaml formula.serving.eager_launches)."""
    from gpuwise import estimate

    w = {"task": "inference", "model": "qwen2.5-7b", "precision": "bf16", "framework": "transformers",
         "prompt_tokens": 81, "output_tokens": 550, "concurrent_requests": 1}
    terms = {t.name: t for t in estimate({"workload": w}, gpu="h100-nvl-94gb", gpus=1).gpu.terms}
    text = terms["tpot_s"].formula
    assert "launches 41 ops a layer" in text and "15 us an op" in text and "68 ops of generate()" in text
    got = terms["tpot_s"].inputs  # the step's overhead: the launches beyond the GPU's work and generate()'s ops
    assert got["overhead_s"] == pytest.approx((28 * 41 + 68) * OP - got["linear_s"] - got["attention_s"])
    vllm = {t.name: t for t in estimate({"workload": {**w, "framework": "vllm"}}, gpu="h100-nvl-94gb",
                                        gpus=1).gpu.terms}
    assert "eager_decode" not in vllm["tpot_s"].formula
