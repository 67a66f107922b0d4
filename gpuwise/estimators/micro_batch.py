"""A stated micro-batch that needs offload or recomputation the user did not ask for, beside the largest smaller
micro-batch of the same global batch that does without it (issue 22 item 2).

The planner honours a stated micro-batch (workload.batch_size): where the layout that keeps it fits only by putting
the optimizer state on the host (CPU offload) or by recomputing activations, and neither was asked for, a smaller
micro-batch with more accumulation steps holds the same tokens a step in less activation memory. Activations grow
with the micro-batch while the weights, gradients and optimizer state do not (Korthikanti et al. 2022, arXiv:2205.05198
section 4: activation memory a layer is proportional to the micro-batch size b), so such a micro-batch may fit
without the measure. This module finds the largest one (the same tokens an optimizer step) and times it on the
same GPUs; whether to say so is the rules' (rules/memory.yaml MEM-SMALLER-MICRO-BATCH)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ..frozen import frozen
from . import held_plan as H
from . import interconnect as I
from . import planner as P
from .training_layout import figures

if TYPE_CHECKING:
    from ..knowledge.schema import Gpu


@frozen(slots=True)
class MicroBatchAlternative:
    """The stated micro-batch's layout as planned and as it would be without the measure it takes, and the largest
    smaller micro-batch of the same global batch that fits without it, planned and timed on the same GPUs."""

    measure: str  # "offload" | "recompute": what the stated micro-batch's layout takes that the user did not pin
    micro_batch: int  # as stated
    step_s: float  # the stated micro-batch's step as planned (the measure included)
    need_bytes: float  # its busiest GPU as planned (the measure included)
    plain_need_bytes: float  # the same layout without the measure
    alt_micro_batch: int
    alt_grad_accum: int
    alt_step_s: float
    alt_need_bytes: float
    alt_notation: str
    global_batch_tokens: int


def _measure(req: P.Plan, pins: P.Pins, stack_recomputes: bool = False) -> str | None:
    """What the stated layout takes to fit that the user left to gpuwise: offload first (its host step), else
    recomputation of some or all layers; not recomputation where the named stack recomputes by its own default
    (TrainingJob.stack_recompute): the stack does that whether it is needed to fit or not."""
    lay = req.layout
    if lay.offload != "none" and pins.offload is None:
        return "offload"
    if ((lay.checkpointing or lay.recompute > 0) and pins.checkpointing is None and not pins.sac_op
            and not pins.every_n and not stack_recomputes):
        return "recompute"
    return None


def _without(lay: P.Layout, measure: str) -> P.Layout:
    if measure == "offload":
        return dataclasses.replace(lay, offload="none")
    return dataclasses.replace(lay, checkpointing=False, recompute=0.0)


def _pins_without(pins: P.Pins, measure: str) -> P.Pins:
    """The user's pins, and no offload they did not pin; no recomputation either where that is the measure (a layout
    that offloaded may recompute without it where the user left recomputation open)."""
    free = pins if pins.offload is not None else dataclasses.replace(pins, offload="none")
    return dataclasses.replace(free, checkpointing=False) if measure == "recompute" else free


def smaller_micro_batch(tj: P.TrainingJob, gpu: Gpu, n: int, topo: I.Topology, usable: float, pins: P.Pins,
                        req: P.Plan, stated: bool) -> MicroBatchAlternative | None:
    """The largest micro-batch below the stated one whose layout on ``n`` GPUs, with the user's pins and without the
    measure the stated one takes (:func:`_measure`), fits in ``usable`` bytes and holds the same tokens an optimizer
    step; None where the micro-batch was not stated, the stated layout takes no such measure or does not fit, some
    layout of the stated micro-batch fits without the measure (it was taken for speed, not to fit), or no smaller
    micro-batch fits without it."""
    tj = tj.on(n)  # the job as the planner laid it over n GPUs
    lay = req.layout
    measure = _measure(req, pins, bool(tj.stack_recompute)) if stated and req.fits and lay.micro_batch > 1 else None
    if measure is None:
        return None
    free = _pins_without(pins, measure)
    if P.plan(tj, gpu, n, topo, usable, free).fits:  # the stated micro-batch fits without the measure too: chosen
        return None  # for speed, not needed
    best = H.largest_smaller(tj, gpu, n, topo, usable, free, lay)
    if best is None:
        return None
    return MicroBatchAlternative(
        measure, lay.micro_batch, req.step.total, req.per_gpu_bytes, figures(tj, _without(lay, measure)).per_gpu,
        best.layout.micro_batch, best.layout.grad_accum, best.step.total, best.per_gpu_bytes, best.layout.notation(),
        lay.global_batch_tokens)


def faster_without_offload(tj: P.TrainingJob, gpu: Gpu, n: int, topo: I.Topology, usable: float, pins: P.Pins,
                           req: P.Plan, stated: bool) -> P.Plan | None:
    """The plan to take instead of a stated micro-batch that fits only by an offload the user left open: the largest
    smaller micro-batch of the same global batch, with the user's other pins and no offload, where it trains faster
    (the condition of rules/memory.yaml MEM-MICRO-BATCH-OFFLOAD, which says so). The micro-batch sets how a step's
    sequences are split into accumulation steps, not what the optimizer sees (the same tokens a step), while offload
    is a measure gpuwise took: without this the plan got slower with more memory, the offloaded stated micro-batch
    fitting where on less memory nothing of the pins fit and the free layout was taken (branch fsdpmem64: H961's
    2.7B on 4 GPUs, 72 GB a GPU 2.29 s a step against 0.62 s at 64 GB and 0.58 s at 80 GB)."""
    alt = smaller_micro_batch(tj, gpu, n, topo, usable, pins, req, stated)
    if alt is None or alt.measure != "offload" or alt.alt_step_s >= alt.step_s:
        return None
    return H.largest_smaller(tj.on(n), gpu, n, topo, usable, _pins_without(pins, "offload"), req.layout)


def held(plan: P.Plan, req: P.Plan) -> bool:
    """Whether the plan runs a smaller micro-batch than the file's because no layout of the file's settings holds the
    stated one (held_plan.held_smaller): the user is told
    (rules/memory.yaml MEM-MICRO-BATCH-HELD, the estimate's note.micro_batch_held) and the change is a suggested one."""
    return plan.fits and not req.fits and plan.layout.micro_batch < req.layout.micro_batch

