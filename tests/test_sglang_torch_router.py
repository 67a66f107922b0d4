"""SGLang's router for GLM-4.5's 160 experts (knowledge/serving.yaml sglang ``torch_router``): the fused gates of
python/sglang/srt/layers/moe/topk.py biased_grouped_topk_gpu (FlashInfer's fused_topk_deepseek, moe_fused_gate)
take only a power-of-two expert count and kimi_k2_moe_fused_gate only 384 in one group (the sglang 0.4.10.post1 and
0.5.8.post1 wheels, sgl-project/sglang at 000328a8), so each MoE layer runs the torch.compile'd
biased_grouped_topk_impl. Its cost beyond a fused gate: sgl-project/sglang pull request #13374's 'main branch'
benchmark (384 experts, topk 6), 'Torch Compile' against 'Fused Kernel' microseconds by sequence length."""

from __future__ import annotations

import copy
import importlib

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.fusion import router_seconds

ST = importlib.import_module("gpuwise.estimators.serving.step")


def _job(kb, accuracy, model="glm-4.5", framework="sglang", ep=None):
    return accuracy.serving_job(kb, model, "bf16", framework, 1024, 1024, tp=8, ep=ep,
                                framework_version="0.5.8.post1" if framework == "sglang" else None)


def _steps(kb, accuracy, gpu="b200", tokens=1.0, ep=None):
    """The decode step of ``tokens`` sequences on 8 GPUs with the router priced and with it taken out."""
    job = _job(kb, accuracy, ep=ep)
    s = SV.choose(job, kb.gpus[gpu], 8)
    bare = copy.copy(s.engine)
    object.__setattr__(bare, "router", ())
    priced = ST._parts(ST.StepConsts(s.engine, s.replica, job.w), tokens, 0.0, 1536.0, 0.0)[0]
    plain = ST._parts(ST.StepConsts(bare, s.replica, job.w), tokens, 0.0, 1536.0, 0.0)[0]
    return priced, plain


def test_the_figures_are_the_sources(kb):
    router = next(f for f in kb.serving.frameworks if f.id == "sglang").torch_router
    assert router.models == ["glm-4.5"] and router.vendors == ["nvidia"]
    first = min(router.points, key=lambda p: p.tokens)
    # '1.0  10.743260  7.970363': 2.772897 us a call more than the fused gate at one token
    assert (first.tokens, first.torch_us, first.fused_us) == (1, 10.743260, 7.970363)
    assert len(router.points) == 18


def test_one_sequence_pays_the_difference_in_each_moe_layer(kb, accuracy):
    # GLM-4.5: 92 layers, the first 3 dense, so 89 MoE layers x (10.743260 - 7.970363) us = 0.2468 ms a step
    priced, plain = _steps(kb, accuracy)
    assert priced - plain == pytest.approx(89 * 2.772897e-6, rel=1e-9)
    assert priced - plain == pytest.approx(0.2468e-3, rel=1e-3)


def test_more_tokens_never_cost_less_and_lie_on_the_line_between_points(kb, accuracy):
    points = SV.choose(_job(kb, accuracy), kb.gpus["b200"], 8).engine.router
    # 8 tokens: 14.742248 - 8.290619 = 6.451629 us; 16 tokens read 5.746898 in the source, held at 6.451629
    assert router_seconds(points, 8) == pytest.approx(6.451629e-6)
    assert router_seconds(points, 16) == pytest.approx(6.451629e-6)
    # 4 tokens: 3/7 of the way from 2.772897 to 6.451629
    assert router_seconds(points, 4) == pytest.approx((2.772897 + 3 / 7 * (6.451629 - 2.772897)) * 1e-6)
    # 1,024 tokens: 30.477449 - 16.441642 = 14.035807 us; beyond 40,000 the last segment's slope
    assert router_seconds(points, 1024) == pytest.approx(14.035807e-6)
    last = (777.463036 - 110.211498) * 1e-6
    slope = (last - (679.665702 - 95.846292) * 1e-6) / 5000
    assert router_seconds(points, 45000) == pytest.approx(last + 5000 * slope)
    priced, plain = _steps(kb, accuracy, tokens=8.0)
    assert priced - plain == pytest.approx(89 * 6.451629e-6, rel=1e-9)


def test_other_models_frameworks_vendors_and_expert_parallel_are_unchanged(kb, accuracy):
    # Qwen3-Coder-480B also has 160 experts, but soft-max scores: fused_topk takes any count
    coder = _job(kb, accuracy, model="qwen3-coder-480b-a35b")
    assert SV.choose(coder, kb.gpus["b200"], 8).engine.router == ()
    vllm = _job(kb, accuracy, framework="vllm")
    assert SV.choose(vllm, kb.gpus["b200"], 8).engine.router == ()
    # ROCm takes aiter_biased_grouped_topk where SGLANG_USE_AITER is set: not read, not priced
    amd = _job(kb, accuracy)
    assert SV.choose(amd, kb.gpus["mi300x"], 8).engine.router == ()
    # with expert parallelism shared-expert fusion is off and a later release's JIT grouped_topk takes the layer
    priced, plain = _steps(kb, accuracy, ep=8)
    assert priced == plain
