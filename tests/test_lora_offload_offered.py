"""smalls58: a LoRA / QLoRA fine-tune is offered CPU offload where nothing else fits, as a full fine-tune is.

The planner's offload rungs (planner._rungs) were built for full training only, so a LoRA job that did not state
``offload`` was never laid out with its frozen base on the host, though loraoffload57 gave that layout its memory
(memory_lora: under ZeRO-3 with offload the GPU keeps the two layers it gathers) and its time (step_time
offload_parts: each micro-batch fetches the GPU's shard of the base for its forward, backward and recomputed
forward). The assumption every training job lists, 'not given: gpuwise offloads to the host where nothing else
fits', did not hold for it. The rungs are full training's: ZeRO-3 offload (the frozen base's shard) over more than
one GPU, ZeRO-1 offload (the adapters' state) on one, where ZeRO-3 offload stays a pin's. Worked case: Llama 3.1
70B, LoRA rank 16 on every linear layer, 4,096-token sequences, on 4 x L40S (48 GB, PCIe 4.0, no NVLink).
"""
from __future__ import annotations

import pytest

from gpuwise.estimators import interconnect as I
from gpuwise.estimators import planner as P
from gpuwise.estimators.candidate import training_job, usable_bytes
from gpuwise.estimators.memory import lora_adapter_params
from gpuwise.estimators.training_layout import figures
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

WORKLOAD = {"task": "finetune", "method": "lora", "model": "llama-3.1-70b", "lora_rank": 16, "seq_len": 4096,
            "train_tokens": 1e8}


def _plan(kb, gpu: str, n: int, pins: P.Pins = P.NO_PINS, **workload):
    job = resolve(Requirements(workload={**WORKLOAD, **workload}), kb)
    tj, g = training_job(job), kb.gpus[gpu]
    topo = I.topology(g, n, kb.runtime)
    usable = usable_bytes(job, g)
    return tj, g, topo, usable, P.plan(tj, g, n, topo, usable, pins)


def test_a_lora_job_that_fits_only_with_its_base_on_the_host_is_offered_offload(kb):
    """4 x L40S: the 16-bit base alone is 70.6e9 x 2 B = 141 GB, 35.3 GB a GPU at ZeRO-3, beside the two layers
    it gathers (2 x 70.6e9 x 2 B / 80 = 3.53 GB), the adapters and the activations: no layout without offload
    fits the 45.9 GB usable (the planner's own search, offload pinned off, finds none). ZeRO-3 with the base on
    the host keeps the two gathered layers on the GPU, and the layout is the one the pinned offload gives."""
    tj, _, _, usable, pl = _plan(kb, "l40s", 4)
    *_, without = _plan(kb, "l40s", 4, P.Pins(offload="none"))
    assert not without.fits and without.memory.per_gpu > usable  # before smalls58 this was the answer
    assert pl.fits and pl.layout.offload == "cpu" and pl.layout.zero == 3
    params = tj.shape.params
    assert pl.memory.weights.value == pytest.approx(2 * params * 2 / 80)  # 3.53 GB
    assert pl.memory.weights.value == pytest.approx(3.53e9, rel=0.01)
    assert pl.memory.per_gpu <= usable
    # the host holds each GPU's shard of the base and of the fp32 adapters, and the adapters' state
    adapters = lora_adapter_params(tj.shape, 16, "all-linear")
    assert pl.memory.host_bytes == pytest.approx((params * 2 + adapters * 4) / 4 + adapters * 12 / 4)
    pinned = _plan(kb, "l40s", 4, P.Pins(offload="cpu"))[-1]
    assert pinned.layout == pl.layout and pinned.step.total == pl.step.total


def test_the_offered_offload_says_the_step_time_it_costs(kb):
    """What the offload costs a step is its own term: the GPU's shard of the base fetched over PCIe for the
    forward, backward and recomputed forward of each micro-batch, (141 GB + adapters) / 4 x 3 x 16 micro-batches
    over the L40S's PCIe 4.0 x16 (runtime.yaml pcie_gb_s), plus the adapters' gradients and Adam on the host
    (a fraction of a second: 51.8e6 adapter parameters a GPU)."""
    tj, g, topo, _, pl = _plan(kb, "l40s", 4)
    st = figures(tj, pl.layout)
    fetch_s = st.fetched * (2 + pl.layout.recompute_share) * pl.layout.grad_accum / (
        I.host_link_gb_s(g, topo.per_node, kb.runtime) * 1e9)
    assert pl.layout.grad_accum == 16 and pl.layout.recompute_share == 1  # 262,144 tokens a step over 4 GPUs
    assert fetch_s == pytest.approx(35.3e9 * 3 * 16 / 31.5e9, rel=0.01)  # 53.8 s
    pcie, adam, nvme = pl.offload_split
    assert pcie == pytest.approx(fetch_s, rel=0.02) and adam < 1.0 and nvme == 0.0
    assert pl.step.offload == pytest.approx(pcie + adam, rel=1e-9)
    assert 0.1 < pl.step.offload / pl.step.total < 0.3  # 54 s of a 268 s step


def test_a_lora_job_that_fits_without_offload_keeps_its_base_on_the_gpus(kb):
    """2 x RTX PRO 6000 (96 GB): ZeRO-3 holds the base at 70.5 GB a GPU without offload; offload would only add
    the fetches over PCIe, so the layout keeps none."""
    *_, pl = _plan(kb, "rtx-pro-6000-blackwell", 2)
    assert pl.fits and pl.layout.offload == "none"
