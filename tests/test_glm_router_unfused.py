"""GLM-4.5 / 4.6 / 4.7 under SGLang's fused-kernel releases (branch glmfloor66): SGLang lists Glm4MoeForCausalLM for
its FlashInfer all-reduce fusion from 0.5.7 (serving.yaml ``fused_kernel_models``), but the release entry's 2 us a
counted small kernel was read on DeepSeek-R1, whose routing and top-k run fused. GLM's do not: the 0.5.8.post1
wheel's python/sglang/srt/layers/moe/topk.py biased_grouped_topk_gpu gives FlashInfer's fused_topk_deepseek only
num_fused_shared_experts == 0 and a power-of-two expert count, and moe_fused_gate only a power of two with at most
32 experts a group, so GLM's 160 routed experts (its shared expert fused, top-9) take the torch.compile'd
biased_grouped_topk_impl (``torch_router``), and its gate is a plain F.linear. A GLM-4.5 MoE layer's counted
kernels are its router's four (step.ROUTER_KERNELS: BF16, no MLA, the shared expert fused), so they keep SGLang's
own 6 us (serving.yaml sglang kernel_floor_us)."""

from __future__ import annotations

import copy
import importlib
import json

import pytest
import yaml

from gpuwise.estimators import serving as SV
from tests.clirun import gpuwise

ST = importlib.import_module("gpuwise.estimators.serving.step")


def _engine(kb, accuracy, model="glm-4.5", version="0.5.8.post1", gpu="b200"):
    job = accuracy.serving_job(kb, model, "bf16", "sglang", 1024, 1024, tp=8, framework_version=version)
    s = SV.choose(job, kb.gpus[gpu], 8)
    return job, s


def test_glm_keeps_the_framework_figure_where_qwen3_moe_takes_the_fused_one(kb, accuracy):
    # both are listed from 0.5.7 (Glm4MoeForCausalLM, Qwen3MoeForCausalLM); Qwen3's soft-max top-k is one fused kernel
    assert _engine(kb, accuracy)[1].engine.kernel_floor == pytest.approx(6e-6)
    assert _engine(kb, accuracy, model="qwen3-235b-a22b")[1].engine.kernel_floor == pytest.approx(2e-6)
    # before the list (0.5.6.post1) both pay 6 us, as before this branch
    assert _engine(kb, accuracy, version="0.5.6.post1")[1].engine.kernel_floor == pytest.approx(6e-6)
    # the torch router is read on NVIDIA builds only: ROCm's release entries carry no fused figure to withhold
    sg = next(f for f in kb.serving.frameworks if f.id == "sglang")
    assert sg.torch_router.vendors == ["nvidia"] and "glm-4.5" in sg.fused_kernel_models.releases[-1].models


def test_the_step_pays_four_router_kernels_a_moe_layer_at_4_us_more(kb, accuracy):
    # GLM-4.5: 92 layers, the first 3 dense: 89 MoE layers x 4 router kernels x (6 - 2) us = 1.424 ms a step
    job, s = _engine(kb, accuracy)
    fused = copy.copy(s.engine)
    object.__setattr__(fused, "kernel_floor", 2e-6)
    ours = ST._parts(ST.StepConsts(s.engine, s.replica, job.w), 1.0, 0.0, 1536.0, 0.0)[0]
    then = ST._parts(ST.StepConsts(fused, s.replica, job.w), 1.0, 0.0, 1536.0, 0.0)[0]
    assert ours - then == pytest.approx(89 * 4 * 4e-6, rel=1e-9)
    assert ours - then == pytest.approx(1.424e-3, rel=1e-9)


def test_the_one_stream_step_no_longer_falls_across_0_5_7(kb, accuracy):
    # the cookbook's 14.81 ms (0.5.6.post1) and the B200 sweep's 14.93 ms (0.5.8.post1, row L03): the same step;
    # gpuwise's two releases now give one step for GLM-4.5 (the all-reduce fusion is not priced apart)
    steps = {}
    for version in ("0.5.6.post1", "0.5.8.post1"):
        job, s = _engine(kb, accuracy, version=version)
        steps[version] = ST._parts(ST.StepConsts(s.engine, s.replica, job.w), 1.0, 0.0, 1536.0, 0.0)[0]
    assert steps["0.5.8.post1"] == pytest.approx(steps["0.5.6.post1"], rel=1e-9)


def _decode(tmp_path, model: str) -> dict:
    w = {"task": "inference", "model": model, "precision": "bf16", "framework": "sglang", "prompt_tokens": 1000,
         "output_tokens": 1000, "concurrent_requests": 1, "framework_version": "0.5.8.post1"}
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": w}), encoding="utf-8")
    r = gpuwise("estimate", "r.yaml", "--gpu", "b200", "--gpus", "8", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return next(t for t in json.loads(r.stdout)["gpu"]["terms"] if t["name"] == "decode_tokens_per_s")


def test_the_report_says_why(tmp_path):
    t = _decode(tmp_path, "glm-4.5")
    assert t["inputs"]["kernel_floor_s"] == pytest.approx(6e-6)
    assert "torch top-k function" in t["formula"] and "6 us a small kernel" in t["formula"]
    other = _decode(tmp_path, "qwen3-235b-a22b")
    assert "kernel_floor_s" not in other["inputs"] and "torch top-k" not in other["formula"]
