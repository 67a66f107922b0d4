"""Planner / estimator inconsistencies left by session 51's branches (branch leftovers66), worked by hand.

Sources:
- marin-community/marin experiments/grug/moe_hero_fsdp/train.py at 020b7dc3 (knowledge/runtime.yaml training_stacks
  levanter offload_update device): the optimizer state lives in memory kind 'pinned_host', the jitted step moves it
  to 'device' for optimizer.update and back; no host core computes.
- stabilityai/stable-diffusion-xl-base-1.0: the UNet's 2,567,463,684 parameters (knowledge/models.yaml sdxl).
- PCI-SIG PCIe 5.0 x16: 63 GB/s a direction (knowledge/runtime.yaml pcie_gb_s), the H100 SXM's host link.
"""

from __future__ import annotations

import pytest

from gpuwise.estimators.candidate import evaluate
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

SDXL_UNET = 2_567_463_684


def _sdxl(kb, stack: str):
    """A full fine-tune of SDXL's UNet offloaded to the CPU on one H100: a diffusion model has no plan, so the
    estimate's own step prices it (candidate._compute_step's path without a plan)."""
    q = {"workload": {"task": "finetune", "model": "sdxl", "method": "full", "stack": stack, "offload": "cpu",
                      "batch_size": 1, "seq_len": 1024, "train_tokens": 1e7}}
    return evaluate(resolve(Requirements.model_validate(q), kb), kb.gpus["h100-80gb-sxm"], 1)


def test_levanter_without_a_plan_moves_the_moments_both_ways(kb):
    """Levanter updates on the GPU: the step pays the fp32 moments (8 B a parameter, Adam's m and v) to the GPU and
    back over PCIe 5.0: 2 x 8 x 2,567,463,684 B / 63 GB/s = 0.6521 s, not host Adam."""
    ev = _sdxl(kb, "levanter")
    assert ev.plan is None
    off = ev.terms["offload"]
    assert off.inputs["state_bytes"] == pytest.approx(8 * SDXL_UNET)
    assert off.inputs["link_gb_s_per_gpu"] == pytest.approx(63.0)
    assert off.value == pytest.approx(2 * 8 * SDXL_UNET / 63e9, rel=1e-12)  # 0.6521 s
    assert off.value == pytest.approx(0.6521, abs=1e-4)
    assert [p[1] for p in off.formula_phrases] == ["formula.offload_state_both_ways"]
    assert ev.speed.slowdown > 1


def test_deepspeed_without_a_plan_keeps_host_adam(kb):
    """DeepSpeed's CPU Adam on the same job: 4 B a parameter over PCIe (0.1630 s) and 28 B a parameter through the
    host's memory at the GPU's share of runtime.yaml host_memory_gb_s (compute.offload_step_seconds)."""
    ev = _sdxl(kb, "deepspeed")
    off = ev.terms["offload"]
    host = kb.runtime.host_memory_gb_s.value / ev.topology.per_node
    assert off.inputs["pcie_s"] == pytest.approx(SDXL_UNET * 4 / 63e9)
    assert off.value == pytest.approx(SDXL_UNET * 4 / 63e9 + SDXL_UNET * 28 / (host * 1e9))
    assert off.value > _sdxl(kb, "levanter").terms["offload"].value


# ---------------------------------------------------------------- the layout given up where the pins hold nothing
VOCAB = 128_256  # Llama 3.1's vocabulary (meta-llama/Llama-3.1-8B config.json)


def _job(kb, **w):
    base = {"task": "finetune", "model": "llama-3.1-8b", "method": "full", "train_tokens": 1e8}
    return resolve(Requirements.model_validate({"workload": {**base, **w}}), kb)


@pytest.mark.parametrize("pins", [{}, {"zero_stage": 1}])
def test_a_stated_micro_batch_alone_gives_way_as_under_pins(kb, pins):
    """Llama 3.1 8B, micro-batch 8 x 8,192 on one A100 40GB (40.80 GB usable): Hugging Face's loss alone holds 12 B
    a vocabulary entry a token, 12 x 128,256 x 65,536 = 100.9 GB at micro-batch 8, so no layout holds it; at 1 it
    is 12.6 GB. With ZeRO-1 stated the plan was 1 x 64 (planner66); stating nothing but the micro-batch, the free
    search kept 8 and the GPU 'did not fit'. Now both plan 1 x 64 accumulation steps, the same 8 x 8 x 8,192 =
    524,288 tokens a step, and the count search's quick check agrees with the estimate."""
    from gpuwise.estimators import held_plan as H
    from gpuwise.estimators import interconnect as I
    from gpuwise.estimators.candidate import requested_pins, training_job, usable_bytes

    job, g = _job(kb, batch_size=8, seq_len=8192, **pins), kb.gpus["a100-40gb-pcie"]
    usable = usable_bytes(job, g)
    assert 12 * VOCAB * 8 * 8192 > usable > 12 * VOCAB * 8192
    ev = evaluate(job, g, 1)
    lay = ev.plan.layout
    assert not ev.requested_plan.fits and ev.plan.fits
    assert (lay.micro_batch, lay.grad_accum) == (1, 64)
    assert lay.global_batch_tokens == ev.requested_plan.layout.global_batch_tokens == 524_288
    topo = I.topology(g, 1, kb.runtime)
    tj, p = training_job(job), requested_pins(job)
    assert H.fits_at_all(tj, 1, topo, usable, p, gpu=g, stated=True)
    assert H.least_need(tj, 1, topo, usable, p, gpu=g, stated=True) == pytest.approx(ev.memory.per_gpu, rel=1e-12)


def test_a_stated_offload_none_is_kept_where_a_layout_without_offload_fits(kb):
    """Llama 2 13B, micro-batch 4 x 4,096, TP1 and offload none stated, 16 RTX 4090 (24 GB): no TP1 layout holds
    micro-batch 4 without offload. The free layout dropped every pin and planned ZeRO-3 with the optimizer on the
    host (the file said none); it now keeps none: a layout without offload of a smaller micro-batch, the same tokens
    a step, fits, and gpuwise plans that."""
    from gpuwise.estimators import planner as P
    from gpuwise.estimators.candidate import training_job, usable_bytes

    job = _job(kb, model="llama-2-13b", batch_size=4, seq_len=4096, offload="none", parallelism={"tp": 1})
    g = kb.gpus["rtx-4090"]
    ev = evaluate(job, g, 16)
    assert not ev.requested_plan.fits
    assert ev.plan.fits and ev.plan.layout.offload == "none"
    assert ev.plan.layout.micro_batch < 4
    assert ev.plan.layout.global_batch_tokens == ev.requested_plan.layout.global_batch_tokens
    # what the free layout took before: with any settings the stated micro-batch fits only offloaded
    loose = P.plan(training_job(job), g, 16, ev.topology, usable_bytes(job, g), P.NO_PINS)
    assert loose.fits and loose.layout.offload != "none"


def test_a_stated_offload_none_gives_way_only_where_nothing_fits_without(kb):
    """Llama 3.1 8B full fine-tune, 8 x 8,192, offload none, on two H100 80GB: the weights, gradients and AdamW state
    alone are 16 B x 8.03B = 128.5 GB, 64.2 GB a GPU even fully sharded, and no layout without offload holds them
    beside the activations at any micro-batch; the plan offloads (the changes column says so) rather than not fit."""
    job = _job(kb, batch_size=8, seq_len=8192, offload="none")
    ev = evaluate(job, kb.gpus["h100-80gb-sxm"], 2)
    assert not ev.requested_plan.fits
    assert ev.plan.fits and ev.plan.layout.offload == "cpu"
    assert ("change.offload", {"target": "cpu"}) in [(mid, kw) for _sep, mid, kw in ev.strategy.changes_from(
        ev.requested)]


# ---------------------------------------------------------------- a micro-batch change in the file's own words
A100_8B = {"workload": {"task": "finetune", "model": "llama-3.1-8b", "method": "full", "batch_size": 8,
                        "seq_len": 8192, "zero_stage": 1, "train_tokens": 1e8},
           "constraints": {"max_gpus": 1, "gpus": ["a100-40gb-pcie"]}}


def test_the_fact_names_the_micro_batch_change_in_the_files_field(kb):
    """The same 8B job on one A100 40GB plans micro-batch 1 with 64 accumulation steps in place of the stated 8
    (8 x 8 = 64 sequences a step, 8 x 64 / 8 = 64 x 1): the job fact's strategy_changes names workload.batch_size
    (docs/formats.md: 'micro-batch per GPU, in sequences') and the accumulation steps, in English and as parts."""
    from gpuwise.decide.subjects import candidate_fact
    from gpuwise.render import words
    from gpuwise.render.fmt import Fmt

    job = resolve(Requirements.model_validate({"workload": A100_8B["workload"]}), kb)
    ev = evaluate(job, kb.gpus["a100-40gb-pcie"], 1)
    fact = candidate_fact(job, ev, "buy")
    assert fact["strategy_changes"] == ("batch_size 8 → 1 (micro-batch 1 with 64 accumulation steps, the same "
                                        "tokens a step)")
    assert words.phrase(fact["strategy_changes_phrases"], Fmt("zh")) == (
        "batch_size 8 → 1（微批次 1 配合 64 步梯度累积，每步词元数不变）")


@pytest.mark.parametrize("fmt", ["text", "md"])
def test_the_recommendation_words_it_in_english_and_chinese(fmt):
    """The rule's message (MEM-FITS-WITH-CHANGES: 'with ... it needs'), the changes column and the Suggested changes
    row all say the file's field and the accumulation steps; no 'batch_size: 8 → 1' or 'batch_size 8 -> 1' alone."""
    import gpuwise
    from gpuwise.render import report

    r = gpuwise.recommend(A100_8B)
    en = " ".join(report.render(r, fmt, lang="en", detail="full").split())
    said = "batch_size 8 → 1 (micro-batch 1 with 64 accumulation steps, the same tokens a step)"
    assert f"with {said} it needs 34.6 GB" in en
    assert f"gpuwise would change {said}" in en
    assert "batch_size: 8 → 1" not in en and "batch_size 8 -> 1" not in en and "-&gt;" not in en
    zh = "".join(report.render(r, fmt, lang="zh", detail="full").split())  # a wrapped CJK line breaks anywhere
    said_zh = "batch_size8→1（微批次1配合64步梯度累积，每步词元数不变）"
    assert f"调整为{said_zh}后需要34.6GB" in zh
    assert f"gpuwise建议调整{said_zh}" in zh
    assert "(micro-batch" not in zh and "micro-batch 1 with" not in zh  # the sources quoted stay as written
