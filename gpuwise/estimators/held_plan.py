"""What the plan gives up, and in what order, where no layout of the file's settings holds its stated micro-batch.

The planner honours what a file states: its pins (tensor / pipeline / expert / context parallel, ZeRO stage,
checkpointing, offload) and its micro-batch (workload.batch_size). Where no layout of the pins holds the stated
micro-batch, the estimate takes, in this order:

1. the largest smaller micro-batch of the same tokens a step under the same pins (branch planner65), weighed by
   GPU-hours against the free layout at the stated micro-batch (any settings, but a stated ``offload: none``);
2. where neither fits, the largest smaller micro-batch of the free layout (branch leftovers66: the free search kept
   the stated micro-batch, so a file stating nothing but the micro-batch, or stating pins that do not fit, was told
   nothing fits on GPUs that hold the same step at a smaller one -- Llama 3.1 8B at 8 x 8,192 on one A100 40GB
   fitted with ``zero_stage: 1`` stated and did not without it);
3. a stated ``offload: none`` only where nothing without offload fits at any micro-batch (branch leftovers66: the
   free layout dropped every pin, so a file stating none could be shown an offloaded plan where a layout without
   offload fits), first at the stated micro-batch, then smaller.

A smaller micro-batch holds the same tokens an optimizer step in less activation memory (Korthikanti et al. 2022,
arXiv:2205.05198 section 4: a layer's activations are proportional to the micro-batch). The count search's quick
fit check (:func:`fits_at_all`, :func:`least_need`) asks :func:`held_smaller`, the estimate's own function, so that
no count the estimate holds is skipped and the server's need is the estimate's (branch planner66).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from . import planner as P
from .training_layout import NO_PINS, Pins

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..knowledge.schema import Gpu
    from . import interconnect as I
    from .planner import Plan
    from .training_layout import Layout, TrainingJob


def kept_pins(pins: Pins) -> Pins:
    """The file's settings the free layout keeps where its pins hold nothing: a stated ``offload: none`` (the other
    pins give way, and the changes column says which); none where offload was left open or asked for."""
    return Pins(offload="none") if pins.offload == "none" else NO_PINS


def free_plan(tj: TrainingJob, gpu: Gpu, n: int, topo: I.Topology, usable: float, pins: Pins,
              req: Plan) -> Plan:
    """The free layout at the stated micro-batch: the fastest with any settings but a stated offload none
    (:func:`kept_pins`); ``req`` itself where nothing is pinned (the free search is the pinned one)."""
    return P.plan(tj, gpu, n, topo, usable, kept_pins(pins)) if pins.any else req


def held_smaller(tj: TrainingJob, gpu: Gpu, n: int, topo: I.Topology, usable: float, pins: Pins, stated: bool,
                 req: Plan | None = None, free: Plan | None = None) -> Plan | None:
    """The largest micro-batch below a stated one that no layout of the file's pins holds, of the same tokens an
    optimizer step, in the module's order: under the pins; where nothing smaller fits under them and the free layout
    (``free``, :func:`free_plan`) does not fit either, under the free layout's settings; where nothing fits without
    offload and the file stated none, with any settings (the free layout with offload first: an offloaded plan at the
    stated micro-batch that fits is taken before a smaller one, :func:`relaxed`). None where the micro-batch was not
    stated, the pinned layout (``req``, planned here where not given) fits, or no smaller micro-batch fits; before any
    layout is timed, where the smallest micro-batch's least memory with any settings is over ``usable`` (activations
    grow with the micro-batch, so nothing smaller fits then)."""
    if not stated:
        return None
    tj = tj.on(n)
    if P._least_under(at_micro(tj, 1), n, topo, P._host_pins(topo, NO_PINS)) > usable:
        return None
    req = req or P.plan(tj, gpu, n, topo, usable, pins)
    if req.fits or req.layout.micro_batch <= 1:
        return None
    got = _smaller(tj, gpu, n, topo, usable, pins, req) if pins.any else None
    if got is not None:
        return got
    free = free or free_plan(tj, gpu, n, topo, usable, pins, req)
    if free.fits:  # the free layout holds the stated micro-batch: relaxed takes it
        return None
    keep = kept_pins(pins)
    got = _smaller(tj, gpu, n, topo, usable, keep, free)
    if got is not None or not keep.any:
        return got
    loose = P.plan(tj, gpu, n, topo, usable, NO_PINS)  # nothing holds it without offload: the stated none gives way
    return None if loose.fits else _smaller(tj, gpu, n, topo, usable, NO_PINS, loose)


def _smaller(tj: TrainingJob, gpu: Gpu, n: int, topo: I.Topology, usable: float, pins: Pins, ref: Plan
             ) -> Plan | None:
    """:func:`largest_smaller` below ``ref``'s micro-batch under ``pins``, where the smallest micro-batch's least
    memory under them fits (memory alone, before any layout is timed)."""
    if ref.layout.micro_batch <= 1 or P._least_under(at_micro(tj, 1), n, topo, P._host_pins(topo, pins)) > usable:
        return None
    return largest_smaller(tj, gpu, n, topo, usable, pins, ref.layout)


def relaxed(tj: TrainingJob, gpu: Gpu, n: int, topo: I.Topology, usable: float, pins: Pins, stated: bool,
            req: Plan) -> Plan:
    """The plan where the pinned layout at the stated micro-batch (``req``) does not fit, in the module's order:
    of :func:`held_smaller`'s plan and the free layout, the one that fits with fewer GPU-hours; where neither fits
    and the file stated ``offload: none``, the free layout with offload; where nothing fits, the one of these that
    needs the least memory (``req`` on a tie)."""
    free = free_plan(tj, gpu, n, topo, usable, pins, req)
    held = held_smaller(tj, gpu, n, topo, usable, pins, stated, req, free)
    shown = [req, free]
    if held is None and not free.fits and kept_pins(pins).any:
        shown.append(P.plan(tj, gpu, n, topo, usable, NO_PINS))
    fitting = [p for p in (free, held, *shown[2:]) if p is not None and p.fits]
    if fitting:
        return min(fitting, key=lambda p: p.gpu_hours)
    return min(shown, key=lambda p: p.per_gpu_bytes)


def largest_smaller(tj: TrainingJob, gpu: Gpu, n: int, topo: I.Topology, usable: float, pins: Pins,
                    lay: Layout) -> Plan | None:
    """The largest micro-batch below ``lay``'s that fits under ``pins`` and holds the same tokens an optimizer step."""
    # the same tokens a step on the same replicas: a micro-batch that divides the sequences a replica takes a step;
    # the largest that fits, by bisection (activations, the part a micro-batch moves, shrink with it)
    seqs = lay.micro_batch * lay.grad_accum
    best = _bisect(tj, gpu, n, topo, usable, pins, [m for m in range(1, lay.micro_batch) if seqs % m == 0],
                   lambda tokens: tokens == lay.global_batch_tokens)
    if best is None:
        # a stated micro-batch that does not divide the step's sequences rounded the step up (63 of a 64-sequence
        # step: 2 x 63 = 126 sequences); a smaller one that divides the step's own sequences holds the step asked
        # for (32 x 2 = 64), never more tokens than the stated layout took
        step = round(tj.batch_tokens(n) / tj.seq)
        best = _bisect(tj, gpu, n, topo, usable, pins, [m for m in range(1, lay.micro_batch) if step % m == 0],
                       lambda tokens: tokens <= lay.global_batch_tokens)
    return best


def _bisect(tj: TrainingJob, gpu: Gpu, n: int, topo: I.Topology, usable: float, pins: Pins, sizes: list[int],
            holds: Callable[[int], bool]) -> Plan | None:
    """The plan at the largest of ``sizes`` that fits under ``pins`` with a step ``holds`` accepts, by bisection
    (activations, the part a micro-batch moves, shrink with it)."""
    best: Plan | None = None
    lo, hi = 0, len(sizes) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        alt = P.plan(at_micro(tj, sizes[mid]), gpu, n, topo, usable, pins)
        if alt.fits and holds(alt.layout.global_batch_tokens):
            best, lo = alt, mid + 1
        else:
            hi = mid - 1
    return best


def at_micro(tj: TrainingJob, micro: int) -> TrainingJob:
    """The job at ``micro`` sequences a micro-batch (kept in ``tj.memo``: its layouts' memory does not depend on the
    GPU, so every candidate of a search shares them)."""
    key = ("micro_batch_job", micro)
    other = tj.memo.get(key)
    if other is None:
        other = tj.memo[key] = dataclasses.replace(tj, micro_batch=micro, stack_local_batch=0, memo={})
    return other


def fits_at_all(tj: TrainingJob, n: int, topo: I.Topology, usable: float, pins: Pins = NO_PINS, *,
                gpu: Gpu, stated: bool) -> bool:
    """Whether any layout of ``n`` GPUs, with any settings (offload included), needs at most
    ``usable`` bytes on its busiest GPU: what :func:`planner.plan` calls fitting, without timing a layout,
    under the user's ``pins`` or with none (a candidate fits either way: a pinned ZeRO-3 on one GPU
    may offload parameters the unpinned search does not try). The layouts' memory does not depend
    on the GPU type, so across a catalog this costs one comparison per GPU type after the first.
    Where nothing holds the micro-batch the user ``stated``, the full estimate plans the largest smaller one
    (:func:`held_smaller`); so does this, through the same function (timed on ``gpu``: which layout the
    smaller micro-batch takes, and so whether it keeps the step's tokens, depends on the GPU's speed)."""
    return least_need(tj, n, topo, usable, pins, gpu=gpu, stated=stated) <= usable


def least_need(tj: TrainingJob, n: int, topo: I.Topology, usable: float, pins: Pins = NO_PINS, *,
               gpu: Gpu, stated: bool) -> float:
    """What the busiest GPU of ``n`` needs as the estimate would plan it with no more than ``usable`` bytes, without
    estimating: :func:`planner.least_per_gpu` where some layout of the stated micro-batch fits or none smaller does,
    else the busiest GPU of :func:`held_smaller`'s plan. :func:`fits_at_all` compares it with ``usable``; the count
    search gives it as a server's need where that count was not estimated (count_search.CountSearch.server)."""
    tj = tj.on(n)  # one GPU: a full fine-tune's state in the compute dtype where its user left it open
    least = P.least_per_gpu(tj, n, topo, pins)
    if least <= usable:
        return least
    held = held_smaller(tj, gpu, n, topo, usable, pins, stated)
    return held.per_gpu_bytes if held is not None else least
