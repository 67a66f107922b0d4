"""A pinned expert-parallel degree with tensor-parallel attention (TensorRT-LLM's moe_expert_parallel_size
without enable_attention_dp) is the layout estimated, not silently dropped for a plain tensor-parallel one."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.step import consts, ep_imbalance, max_normal, step
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def _job(kb, **par):
    # TensorRT-LLM pull request #11612: Qwen3-235B-A22B FP4 on 4 x GB200, config 1k1k_tp4_conc1.yaml = TP4 EP4
    w = {"task": "inference", "model": "qwen3-235b-a22b", "precision": "fp4", "framework": "tensorrt-llm",
         "prompt_tokens": 1024, "output_tokens": 1024, "kv_precision": "fp8"}
    if par:
        w["parallelism"] = {"pp": 1, **par}
    return resolve(Requirements.model_validate({"workload": w}), kb)


def test_tp4_ep4_pin_is_honoured(kb):
    s = SV.choose(_job(kb, tp=4, ep=4), kb.gpus["gb200"], 4)
    lay = s.replica.layout
    assert (lay.tp, lay.ep, lay.dp_attention) == (4, 4, 1)
    assert "4" in lay.label() and lay.label() != SV.choose(_job(kb, tp=4), kb.gpus["gb200"], 4).replica.layout.label()


@pytest.mark.parametrize("ep", [2, 4])
def test_expert_parallel_inside_tensor_parallel_costs_what_tensor_parallel_does_but_its_busiest_group(kb, ep):
    """TensorRT-LLM docs, Expert Parallelism: moe_tp_size x moe_ep_size = tp_size, and with tensor-parallel
    attention every rank holds every token. So each GPU streams 1/tp of the experts' weights on average whatever
    the split (EP 4: a quarter of the experts whole; EP 2 x TP 2: half of them halved), and the MoE output is
    combined by the layer's all-reduce: no all-to-all. At a batch of one the step is the plain TP4 step but for
    the busiest expert-parallel group, which reads ep_imbalance's factor times the mean of the routed experts
    (Qwen3-235B-A22B: 8 of 128 experts a token; EP 4, one token: binomial(32, 1/16), 1 + z4 sqrt(15/16 / 2))."""
    gpu = kb.gpus["gb200"]
    pinned = _job(kb, tp=4, ep=ep)
    s = SV.choose(pinned, gpu, 4)
    assert s.replica.layout.ep == ep
    plain = _job(kb, tp=4)
    p = SV.choose(plain, gpu, 4)
    a = step(pinned, s.engine, s.replica, 1.0, 0.0, 1536.0, 0.0)
    b = step(plain, p.engine, p.replica, 1.0, 0.0, 1536.0, 0.0)
    cb = consts(plain, p.engine, p.replica)
    experts_read = cb.w_experts * cb.k_over_e  # the mean GPU's routed-expert bytes at one token
    f_w, _ = ep_imbalance(128, 8, ep, 1)
    if ep == 4:
        assert f_w == pytest.approx(1 + max_normal(4) * (15 / 16 / 2) ** 0.5)
    assert a.weight_bytes_gpu == pytest.approx(b.weight_bytes_gpu + (f_w - 1) * experts_read)
    assert a.comm == pytest.approx(b.comm) and a.seconds > b.seconds
    assert not consts(pinned, s.engine, s.replica).ep_comm


def test_ep_pin_without_expert_parallel_framework_keeps_every_layout(kb):
    """llama.cpp has no expert parallelism: an ep pin matches nothing and every layout stays on offer."""
    w = {"task": "inference", "model": "qwen3-30b-a3b", "precision": "int4", "framework": "llama.cpp",
         "prompt_tokens": 512, "output_tokens": 128, "parallelism": {"tp": 1, "pp": 1, "ep": 2}}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    assert SV.choose(job, kb.gpus["rtx-4090"], 2).replica.layout.ep == 1
