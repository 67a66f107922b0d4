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
