"""Training layouts on N GPUs and the fastest one that fits.

A layout splits N GPUs as tensor parallel x pipeline parallel x data parallel (``tp x pp x dp =
N``); expert parallelism (MoE) and context parallelism (long sequences) are carved out of the
data-parallel GPUs, as Megatron-Core does. On top of the split come the ZeRO stage (Megatron's
distributed optimizer is ZeRO-1), activation checkpointing, offload, the micro-batch and the
gradient accumulation that make up the global batch (``workload.global_batch_tokens``).

For every layout the planner computes the busiest GPU's memory (memory.py: weights, gradients and
optimizer state sharded by tp x pp (x ep for experts) and ZeRO; activations split by tp with
sequence parallelism and by cp; the first pipeline stage holding up to ``pp`` micro-batches under
1F1B) and the time of one optimizer step:

    step = (compute + TP collectives + EP all-to-all + CP ring + PP sends) x (1 + bubble)
           + exposed data-parallel traffic + optimizer step (+ offload)
    bubble = (pp - 1) / (micro-batches x interleave)           (Narayanan et al. SC'21, eq. 1-2)

Compute runs at the GPU's dense BF16 peak x an MFU for its generation and the model's width
(compute.training_mfu), x the FP8 speed-up for FP8 on GPUs with FP8 units. TP costs 4
collectives per layer per micro-batch (2 forward, 2 backward, 2 more when the forward is
recomputed) over the intra-node link, not overlapped unless runtime.yaml says so; data-parallel
gradients are reduce-scattered (ZeRO-0: all-reduced) once per optimizer step and hide behind the
last micro-batch's backward; ZeRO-2 moves gradients every micro-batch and hides them behind every
micro-batch; ZeRO-3 (FSDP FULL_SHARD) gathers the weights in every micro-batch's forward and again
in its backward and reduce-scatters its gradients, on flat rings over all the data-parallel GPUs
(interconnect.ring_seconds), hidden behind that micro-batch's forward and backward. Buckets hide
them: all but the last bucket of gradients (one layer's collective under ZeRO-3) is reduced while the
backward still runs (data_parallel._hidden; the stack's bucket, runtime.yaml training_stacks). Hiding is not
free: the compute beside the hidden fast-link part of ZeRO-0/1/2's traffic runs slower by runtime.yaml
training.overlap_compute_slowdown (data_parallel.dp_contention), charged in the data-parallel term. Wall time =
steps x step / goodput (restarts grow with the GPU count). The planner chooses the fastest layout
whose busiest GPU fits in the usable memory; pins (the user's explicit settings) restrict the search.
Everything here is numbers and short notations; the words are the reports' business.

Where the parts live: the job, its layouts and their GPU-independent figures in training_layout.py;
a layout's step time on a GPU type in step_time.py; the search, the plan and its terms here.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..frozen import frozen
from ..messages import formula
from . import Term
from . import compute as C
from . import interconnect as I
from . import memory as M
from .data_parallel import DpTraffic, _replica_in_fabric, dp_traffic
from .stage_split import expert_split
from .step_rates import GpuRates
from .step_time import (
    StepTime,
    backward_seconds,
    gpu_rates,
    gpu_speed,
    offload_parts,
    step_parts,
    step_time,
)
from .training_layout import ACT_BYTES, AUTO_SHARD, NO_PINS, Layout, Pins, Static, TrainingJob, figures

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ..knowledge.schema import Gpu


@frozen
class Plan:
    """The chosen layout for one GPU type x count, with its memory, step time and totals."""

    layout: Layout
    memory: M.MemoryEstimate
    step: StepTime
    fits: bool
    per_gpu_bytes: float
    steps: float
    wall_hours: float
    gpu_hours: float
    scaling_efficiency: float
    goodput: float
    mfu: Term
    rate_flops: float  # achieved FLOP/s per GPU in compute
    tried: int  # layouts whose step time was computed
    dp_traffic: DpTraffic  # all of it, hidden, exposed
    offload_split: tuple[float, float, float] = (0.0, 0.0, 0.0)  # step_time.offload_parts: PCIe, host Adam, NVMe
    # what host Adam's seconds come from: parameters a GPU updates, host cores serving it, a core's rate, the host's
    # memory bandwidth a GPU (GB/s), whether the job stated its host's cores
    offload_host: tuple[float, float, float, float, bool] = (0.0, 0.0, 0.0, 0.0, False)
    # an offload that updates on the GPU (GpuRates.offload_on_gpu): (the state's bytes a GPU keeps on the host, the
    # host link's GB/s a direction); empty: the host runs the update
    offload_state: tuple[float, ...] = ()

    @property
    def exposed_comm_share(self) -> float:
        """Share of a step spent waiting on communication or the pipeline bubble."""
        s = self.step
        return (s.tp + s.pp + s.bubble + s.dp + s.ep + s.cp) / s.total if s.total > 0 else 0.0


# ---------------------------------------------------------------------------- the search
def _powers(limit: int) -> list[int]:
    out, v = [], 1
    while v <= limit:
        out.append(v)
        v *= 2
    return out


def _divisors(n: int, limit: int) -> list[int]:
    return [d for d in range(1, min(n, limit) + 1) if n % d == 0]


def splits(tj: TrainingJob, n: int, per_node: int, tp_domain: int, pins: Pins) -> list[tuple[int, int, int, int]]:
    """(tp, pp, cp, ep) splits of ``n`` GPUs worth trying: tensor parallel only inside the fast-link
    domain and when the heads divide, pipeline stages no more than layers, expert parallel over
    powers of two that divide the data-parallel GPUs (on Megatron-Core stacks, the tensor x data-parallel
    GPUs: MoE parallel folding) and the experts, context parallel for long sequences (2-64 GPUs a sequence while
    each keeps at least 4,096 of its tokens: a ring spans servers, as Llama 3's CP16 at 131,072 tokens did,
    arXiv:2407.21783 Table 4). Only the kinds the job's stack runs (``stack_parallelism``: litgpt none, FSDP with
    the Hugging Face Trainer tensor and context); the others stay at 1, pinned or not. Pinned parts are taken as
    given."""
    key = ("splits", n, per_node, tp_domain, pins)
    if key in tj.memo:
        return tj.memo[key]
    shape = tj.shape
    runs = tj.stack_parallelism  # a stack is offered only the parallelism it runs (runtime.yaml training_stacks)
    tps = [1] if "tensor" not in runs else [pins.tp] if pins.tp else [
        t for t in I.powers_of_two(max(1, min(tp_domain, per_node))) if shape.heads % t == 0]
    cps = [1] if "context" not in runs else [pins.cp] if pins.cp else [1] + [
        c for c in (2, 4, 8, 16, 32, 64) if tj.seq // c >= 4096]
    out = []
    for tp in tps:
        if n % tp:
            continue
        for cp in cps:
            if (n // tp) % cp:
                continue
            pps = [1] if "pipeline" not in runs else [pins.pp] if pins.pp else _divisors(
                n // (tp * cp), min(shape.layers, 64))
            for pp in pps:
                if (n // tp) % (pp * cp):
                    continue
                dp = n // (tp * pp)
                # Megatron-Core folds expert parallelism over the tensor-parallel GPUs too (memory.expert_split)
                span = tp * dp if tj.stack_te else dp
                if shape.moe and "expert" in runs:
                    eps = [pins.ep] if pins.ep else [e for e in _powers(min(shape.experts, span)) if span % e == 0
                                                     and shape.experts % e == 0]
                else:
                    eps = [1]
                for ep in eps:
                    if span % ep:
                        continue
                    out.append((tp, pp, cp, ep))
    # a stated etp is taken as given where some split holds it (expert_split: ep > 1 and ep x etp dividing the stage's
    # GPUs), as a pinned tp is: etp 2 on 8 GPUs had ep 8 chosen and the pin dropped where ep 4 x etp 2 holds it
    # (hostile round 39); where none does, the splits stay and the layout says the pin was not kept
    held = [s for s in out if pins.etp and shape.moe and s[3] > 1 and (n // s[1]) % (s[3] * pins.etp) == 0]
    out = held or out
    tj.memo[key] = out
    return out


# shares of a stage's layers a Megatron-Core stack may recompute short of all of them (recompute_method 'block',
# recompute_num_layers: NVIDIA's Llama 3 8B FP8 recipe on 8 H100 recomputes 5 of 32 layers, Megatron-Bridge
# scripts/performance/configs/llama3/workload_base_configs.py LLAMA3_8B_H100_FP8_CS_BASE_CONFIG)
PARTIAL_RECOMPUTE = (0.125, 0.25, 0.5)
# a rung's share recomputed that stands for per-op selective checkpointing (Layout.sac_op): only a job stating it
# (workload.gradient_checkpointing 'selective_op') or naming a stack that runs it by default
# (TrainingJob.stack_recompute) runs it
SAC_OP = -1.0


Rung = tuple[int, float, str, int]  # (ZeRO stage, share recomputed, offload, data-parallel ranks a ZeRO group spans)


def every_nth_share(layers: int, pp: int, n: int) -> float:
    """The share of a stage's layers recomputed where every ``n``-th block is checkpointed: torchtitan's per-layer
    selective checkpointing counts the blocks it is handed and wraps block k when k % n == 0 (pytorch/torchtitan
    _apply_ac_to_transformer_block, selective_ac_option a digit: torchtitan/parallelisms/parallelize_llama.py in 2024,
    its JobConfig default '2'; 1 is every block, as mode 'full'), so a stage of L layers recomputes floor(L / n) of
    them, the others keeping what their forward saves."""
    per_stage = math.ceil(layers / pp)
    k = per_stage // n
    return 1.0 if k >= per_stage else k / per_stage


def shard_groups(n: int, tp: int, pp: int, cp: int, ep: int, per_node: int, etp: int = 0) -> list[int]:
    """Hybrid-sharding groups (data-parallel ranks, :attr:`Layout.dp_shard`) the planner tries for a job that asks
    for hybrid sharding without a size (workload.parallelism.dp_shard 'auto'), without pipeline stages, smallest
    first: a group's GPUs fill one fast-link domain (a server, an NVL rack) or 2, 4, ... of them, hold whole
    expert-parallel groups and divide the replicas; the other ranks replicate it (PyTorch FSDP2's HSDP, OLMo-core's
    default of one server a group, DeepSpeed MiCS). A job that asks for nothing keeps one group of every rank: tried
    as the planner's own choice it read the held-out runs worse (validation README, branch hsdp)."""
    dp = n // (tp * pp)
    if pp > 1 or dp <= 1:
        return []
    etp = expert_split(tp, dp, ep, etp)[0]
    out, size = [], max(1, per_node // tp)  # the group's GPUs (cp ones included), from one domain's
    while size < dp:
        if size % cp == 0 and dp % size == 0 and (tp * size) % (ep * etp) == 0:
            out.append(size // cp)
        size *= 2
    return out


def _rungs(tj: TrainingJob, dp: int, pp: int, pins: Pins, shards: list[int] | tuple[int, ...] = ()
           ) -> tuple[list[Rung], list[Rung]]:
    """Memory-saving steps in order of cost: ZeRO stages, then recomputation with them (a share of the
    layers: 0 none, 1 all; between, on Megatron-Core stacks, a block of whole layers); and apart, offload
    (ZeRO-Offload / FSDP CPU offload), which :func:`plan` times beside them. A pinned ``dp_shard`` is every
    sharded rung's group; ``shards`` (workload.parallelism.dp_shard 'auto') the groups every sharded rung is tried
    over, smallest first, ZeRO-3 over all ranks last."""
    if pins.zero is not None:
        zeros = [pins.zero]
        if pp > 1 and pins.zero >= 2:  # ZeRO-2/3 shard what pipeline stages keep: only FSDP2 stacks combine them,
            if tj.stack_pipeline_zero is None:  # and run them as a distributed optimizer (runtime.yaml pipeline_zero)
                return [], []
            zeros = [tj.stack_pipeline_zero]
    elif dp <= 1 and pins.offload in ("cpu", "nvme"):  # offload runs under ZeRO (1 the optimizer, 3 the weights
        zeros = [1, 3] if pp == 1 else [1]  # too): at ZeRO 0 it would move nothing, the layout saying it does
    elif dp <= 1:
        zeros = [0]
    elif pp > 1:  # Megatron's distributed optimizer (ZeRO-1) is what pipelines run with
        zeros = [1]
    else:  # ZeRO-1 moves what plain data parallelism moves and holds less: it replaces ZeRO-0
        zeros = [1, 2, 3]
    if pins.zero is None and dp > 1 and tj.stack_zero_stages is not None:  # the stages the stack runs (llm.c: 0, 1)
        zeros = [z for z in zeros if z in tj.stack_zero_stages] or [max(tj.stack_zero_stages)]
    if pins.sac_op:
        ckpts = [SAC_OP]
    elif pins.every_n:  # torchtitan's selective_ac_option N: each stage wraps its N-th, 2N-th, ... block
        ckpts = [every_nth_share(tj.shape.layers, pp, pins.every_n)]
    elif pins.checkpointing is not None:
        ckpts = [float(pins.checkpointing)]
    elif tj.stack_recompute:  # the named stack's own default (training_job.stack_recompute)
        ckpts = list(tj.stack_recompute)
    elif tj.stack_te:  # Megatron-Core recomputes as few whole layers of each stage as it takes to fit (block method)
        ckpts = [0.0, *PARTIAL_RECOMPUTE, 1.0]
    else:
        ckpts = [0.0, 1.0]
    pin = max(0, pins.dp_shard or 0)
    hybrid = [] if pin else list(shards)

    def groups(z: int) -> list[int]:  # ZeRO-3 falls back to all the ranks (FSDP's one group) where no group fits
        if not z or pin:
            return [pin if z else 0]
        return [*hybrid, 0] if z >= 3 or not hybrid else hybrid

    plain = [(z, ck, pins.offload or "none", s) for ck in ckpts for z in zeros for s in groups(z)]
    off: list[Rung] = []
    if pins.offload is None and pins.zero != 0 and tj.stack_offload:  # offload needs ZeRO
        # the same rungs for a LoRA / QLoRA job as for full training: ZeRO-3 moves its frozen base's shard to the host
        # (memory_lora: offload_param), ZeRO-1 its adapters' optimizer state and gradients
        z_off = [pins.zero] if pins.zero is not None else ([1, 3] if pp == 1 and dp > 1 else [1])
        if pins.zero is None and tj.stack_zero_stages is not None:
            z_off = [z for z in z_off if z in tj.stack_zero_stages]
        off = [(z, ck, "cpu", pin if z else 0) for ck in ckpts if ck in (0.0, 1.0, SAC_OP) for z in z_off]
    return plain, off


def _layout(tj: TrainingJob, n: int, tp: int, pp: int, cp: int, ep: int, v: int,
            rung: Rung | tuple[int, float, str], micro: int = 0) -> Layout:
    dp = n // (tp * pp)
    replicas = dp // cp
    micro = micro or tj.micro_batch
    per_step = micro * tj.seq * replicas
    ga = max(1, math.ceil(tj.batch_tokens(n) / per_step))
    if v > 1 and ga % pp:  # the interleaved schedule runs micro-batches in groups of pp
        ga = math.ceil(ga / pp) * pp
    zero, ck, off, *group = rung  # a rung of three: no hybrid sharding
    shard = group[0] if group else 0
    share = 0.0
    if 0.0 < ck < 1.0:  # whole layers of the stage: at least one
        per_stage = math.ceil(tj.shape.layers / pp)
        share = math.ceil(round(ck * per_stage, 6)) / per_stage
    etp = expert_split(tp, dp, ep, tj.etp)[0] if tj.shape.moe else 0  # the job's, where the layout holds it
    return Layout(tp, pp, dp, ep, cp, micro, ga, int(ga * per_step), zero, ck >= 1.0 or share >= 1.0, off,
                  v, share if share < 1.0 else 0.0, shard, ck == SAC_OP, etp)


def interleaves(layers: int, pp: int) -> list[int]:
    """Virtual stages per pipeline rank the planner tries on a stack with an interleaved schedule: the powers of two
    up to one layer a virtual stage, and one layer a virtual stage itself where the stages share the layers evenly.
    Megatron-Core recipes run deeper schedules than 2 or 4 (NVIDIA dgxc-benchmarking v25.02 at 8f5cbb3: Nemotron-4
    340B PP8 VP12 over 96 layers, nemotron/README_340b.md; Llama 3.1 405B PP9 VP7 over 126, llama3.1/README_405b.md).
    A deeper interleave cuts the bubble (p - 1) / (m v) and sends v times the activations between stages
    (Narayanan et al. SC'21, section 2.2.2); the step model weighs the two, the search's bounds keep the extra
    candidates cheap."""
    if pp <= 1:
        return []
    per_rank = layers // pp
    out = {v for v in _powers(per_rank) if v > 1}
    if layers % pp == 0 and per_rank > 1:
        out.add(per_rank)
    return sorted(out)


class _Group:
    """One split (tp, pp, cp, ep, interleave) and its rungs. ``bound`` is the FLOPs per training token of
    its cheapest rung x (1 + bubble) / GPUs: no layout of the group can take less than bound / FLOP-rate
    seconds per token; ``rung_bounds`` the same for each rung's recomputation, and ``sends`` the pipeline sends a
    token costs (their count and bytes, with the bubble), which step_time.step_parts adds whatever else the layout
    does. The layouts' memory and traffic are built the first time a GPU needs them (they do not depend on the
    GPU), and only for rungs those bounds leave in the running."""

    __slots__ = ("_statics", "bound", "lay", "micro", "n", "rung_bounds", "rungs", "sends", "split", "tj")

    def __init__(self, tj: TrainingJob, n: int, split: tuple[int, int, int, int, int],
                 rungs: list[Rung], micro: int = 0):
        self.tj, self.n, self.split, self.rungs, self.micro = tj, n, split, rungs, micro
        tp, pp, cp, ep, v = split
        lay = self.lay = _layout(tj, n, tp, pp, cp, ep, v, rungs[0], micro)
        bubble = (pp - 1) / (lay.grad_accum * v) if pp > 1 else 0.0
        self.bound = tj.flops_per_token(max(0.0, rungs[0][1])) / n * (1 + bubble)
        # each rung's own bound: its recomputation's FLOPs (a partial share is rounded up to whole layers, so this is
        # at most what the layout computes)
        self.rung_bounds = [tj.flops_per_token(max(0.0, r[1])) / n * (1 + bubble) for r in rungs]
        # a GPU's pipeline sends per training token (Static.pp_count and pp_bytes over Static.tokens): (sends, bytes),
        # with the bubble they run in; an interleaved schedule sends v times as often as 1F1B
        tokens = lay.replicas * lay.micro_batch * tj.seq * lay.grad_accum
        sends = 2.0 * lay.grad_accum * v / tokens if pp > 1 else 0.0
        self.sends = (sends * (1 + bubble), sends * lay.micro_batch * tj.seq / cp * tj.shape.hidden * ACT_BYTES / tp
                      * (1 + bubble))
        self._statics: list[Static | None] = [None] * len(rungs)

    def static(self, i: int) -> Static:
        st = self._statics[i]
        if st is None:
            tp, pp, cp, ep, v = self.split
            st = self._statics[i] = figures(self.tj, _layout(self.tj, self.n, tp, pp, cp, ep, v, self.rungs[i],
                                                             self.micro))
        return st

    @property
    def statics(self) -> list[Static]:
        return [self.static(i) for i in range(len(self.rungs))]

    def most_frugal(self) -> Static:
        """The rung needing the least memory: the last one (most sharding, checkpointing on)."""
        return self.static(len(self.rungs) - 1)


class _Search:
    """The layouts of ``n`` GPUs worth trying, in order of their lower bound, with and without
    offload, and (built on first use) the layouts needing the least memory of each kind."""

    __slots__ = ("_frugal", "groups", "offload")

    def __init__(self, groups: list[_Group], offload: list[_Group]):
        self.groups = tuple(sorted(groups, key=lambda g: g.bound))
        self.offload = tuple(sorted(offload, key=lambda g: g.bound))
        self._frugal: dict[bool, Static | None] = {}

    def frugal(self, offload: bool) -> Static | None:
        """The least memory is among the most sharded layouts: per tensor-parallel width the deepest
        pipeline and no pipeline (ZeRO-3), with the widest expert and context splits."""
        if offload not in self._frugal:
            deepest: dict[int, _Group] = {}
            flat: dict[int, _Group] = {}
            pool = self.offload if offload else self.groups
            plain = [g for g in pool if g.split[4] == 1] or pool  # a pinned interleave has no plain schedule
            for g in plain:
                tp, pp, cp, ep, _v = g.split
                if tp not in deepest or (pp, cp, ep) > deepest[tp].split[1:4]:
                    deepest[tp] = g
                if pp == 1 and (tp not in flat or (cp, ep) > flat[tp].split[2:4]):
                    flat[tp] = g
            cands = [g.most_frugal() for g in (*deepest.values(), *flat.values())]
            self._frugal[offload] = min(cands, key=lambda st: st.per_gpu) if cands else None
        return self._frugal[offload]


def _local_batch(tj: TrainingJob, n: int, tp: int, pp: int, cp: int, local: int = 0) -> int:
    """The stack's default per-GPU batch (runtime.yaml training_stacks local_batch), or ``local`` sequences (one of
    its moe_micro_batches), on an unpipelined layout whose
    global batch it divides into whole micro-steps of every replica (torchtitan asserts global_batch_size %
    (local_batch_size x data-parallel degree) == 0); 0 where it does not apply (a pipeline splits the local batch
    into its own micro-batches of one sequence: torchtitan's pipeline_parallel_microbatch_size)."""
    local = local or tj.stack_local_batch
    if local <= max(1, tj.micro_batch) or pp > 1:
        return 0
    replicas = n // (tp * pp * cp)
    seqs = tj.batch_tokens(n) / tj.seq
    per_step = local * replicas
    return local if seqs >= per_step and abs(seqs / per_step - round(seqs / per_step)) < 1e-9 else 0


def _search(tj: TrainingJob, n: int, per_node: int, tp_domain: int, pins: Pins) -> _Search:
    key = ("search", n, per_node, tp_domain, pins)
    got = tj.memo.get(key)
    if got is not None:
        return got
    groups: list[_Group] = []
    offload: list[_Group] = []
    # a layout whose replicas hold more tokens at once than the batch (replicas x micro-batch x sequence) would run
    # a batch nobody chose, and an interleaved schedule needs at least pp micro-batches in the batch (Megatron-LM
    # runs it in groups of pp): such layouts stay only where no other exists
    ceiling, batch = tj.batch_ceiling(n), tj.batch_tokens(n)
    over: list[_Group] = []
    over_off: list[_Group] = []
    for tp, pp, cp, ep in splits(tj, n, per_node, tp_domain, pins):
        dp = n // (tp * pp)
        if pins.dp_shard and pins.dp_shard > 0 and ((dp // cp) % pins.dp_shard or (pins.dp_shard * cp * tp) % ep):
            continue  # the pinned group does not divide this split's replicas or hold its expert groups
        hybrid = shard_groups(n, tp, pp, cp, ep, per_node, tj.etp) if pins.dp_shard == AUTO_SHARD else []
        plain, off = _rungs(tj, dp, pp, pins, hybrid)
        if tp > 1 and tj.stack_tp_max_zero is not None:  # DeepSpeed's AutoTP trains with ZeRO 0-2 only
            plain = [r for r in plain if r[0] <= tj.stack_tp_max_zero]
            off = [r for r in off if r[0] <= tj.stack_tp_max_zero]
        if not plain and not off:
            continue
        if pins.vpp == 1:  # the user's plain 1F1B schedule (or no pipeline)
            vs = [1]
        elif pins.vpp:  # the user's interleaved schedule: only on pipelines whose ranks hold vpp stages of layers
            # (with the embedding and the loss as a stage's layer each on a stack that splits them so)
            if pp == 1 or tj.shape.layers + tj.stack_pipeline_slots < pp * pins.vpp:
                continue
            vs = [pins.vpp]
        elif not tj.stack_interleaves:  # a pipeline engine with one 1F1B schedule (DeepSpeed's): no interleave
            vs = [1]
        else:
            vs = [1, *interleaves(tj.shape.layers, pp)]
        for v in vs:
            if v == 2 and not pins.vpp:  # interleaving only pays where the 1F1B bubble is worth cutting
                ga = _layout(tj, n, tp, pp, cp, ep, 1, plain[0] if plain else off[0]).grad_accum
                if (pp - 1) / ga < 0.05:
                    break
            per_step = n // (tp * pp * cp) * tj.micro_batch * tj.seq
            fits_batch = per_step <= ceiling and (v == 1 or batch >= (pp - 1) * per_step + 1)
            if plain:
                (groups if fits_batch else over).append(_Group(tj, n, (tp, pp, cp, ep, v), plain))
            if off:
                (offload if fits_batch else over_off).append(_Group(tj, n, (tp, pp, cp, ep, v), off))
            # the stack's own per-GPU batch, and the MoE micro-batches it tries, beside one sequence (where they fit)
            for local in sorted({_local_batch(tj, n, tp, pp, cp, m) for m in (0, *tj.micro_batch_tries)} - {0}):
                if fits_batch:
                    groups.extend(_Group(tj, n, (tp, pp, cp, ep, v), rungs, local) for rungs in (plain, off) if rungs)
    if not groups and not offload:
        groups, offload = over, over_off
    # the pins may rule everything out (a pinned copy wider than n GPUs, ZeRO-3 with pipeline stages): then the
    # layout's degrees are dropped first, keeping the memory settings (ZeRO stage, checkpointing, offload), then
    # every pin; what was not kept is the rules' to say (training_job.pins_not_kept)
    if groups or offload:
        got = _Search(groups, offload)
    else:
        kept = Pins(zero=pins.zero, checkpointing=pins.checkpointing, offload=pins.offload, sac_op=pins.sac_op)
        got = _search(tj, n, per_node, tp_domain, kept if kept != pins else Pins())
    tj.memo[key] = got
    return got


def memory_level(st: Static) -> tuple[bool, float, bool]:
    """The memory-saving level a static layout sits at: full recomputation, or the share of layers recomputed, and
    hybrid sharding apart; the search times the first layout of each level that fits (the cheapest to hold)."""
    return (st.ckpt, st.layout.recompute, st.layout.shard_group < st.layout.dp)


def _best(tj: TrainingJob, groups: tuple[_Group, ...], rates: GpuRates, usable: float, beat: float = math.inf,
          skip: Callable[[_Group], bool] | None = None) -> tuple[tuple[Static, StepTime] | None, int]:
    """The fitting layout of ``groups`` (in order of their lower bound) that trains fastest: the least
    seconds per token, not per step, since layouts hold different batches (a layout with more replicas
    than the batch has sequences runs one sequence per replica: a larger step, fewer steps). Within a
    group only the first fitting rung of each recomputation level (none, each partial share, all) can win:
    at one level a later rung only shards more (more traffic), but more sharding at a lower level may cost
    more than recomputing a block of layers (ZeRO-3 gathers a LoRA run's whole frozen base every micro-batch).
    ``beat``: seconds per token a layout must undercut (another pool's best); inf where none does. ``skip``: groups
    left out, asked only of those the bounds leave in the running."""
    best_t = beat  # seconds per token of the best layout so far
    best: tuple[Static, tuple[float, ...]] | None = None
    tried = 0
    rate = rates.flops
    intra, mesh, tp_exposed = rates.intra, rates.mesh, rates.tp_exposed
    if tj.stack_tp_overlap:  # a lower bound: the stack may hide this much of TP inside an NVLink domain
        tp_exposed = min(tp_exposed, 1 - tj.stack_tp_overlap)
    per_node = rates.topo.fabric
    topo = rates.topo
    for group in groups:
        if group.bound / rate >= best_t:
            break  # every later group is bounded above this one
        if group.sends[0]:  # its pipeline sends as step_time.step_parts times them (deeper interleaves send more)
            if topo.nodes > 1 and not _replica_in_fabric(group.lay, topo):
                sends = group.sends[0] * rates.net_lat + group.sends[1] / rates.net_bw
            else:
                sends = group.sends[0] * rates.intra_lat + group.sends[1] / (rates.mesh or rates.intra)
            if group.bound / rate + sends >= best_t:
                continue
        else:
            sends = 0.0
        if skip is not None and skip(group):
            continue
        seen: set[tuple[bool, float]] = set()
        built, rung_bounds = group._statics, group.rung_bounds
        for i in range(len(built)):
            if rung_bounds[i] / rate + sends >= best_t:
                continue  # its FLOPs alone put it above the best so far: it is not built
            st = built[i] or group.static(i)
            if st.per_gpu > usable:
                continue
            level = memory_level(st)
            if level in seen:
                continue
            seen.add(level)
            bound = st.flops / rate
            k = min(st.layout.tp, per_node)
            if st.tp_count and k > 1:  # a ring all-reduce moves at least its bytes once per GPU
                bound += st.tp_count * st.tp_bytes / (mesh * (k - 1) if mesh else intra) * tp_exposed
            if bound * (1 + st.bubble) / st.tokens >= best_t:
                continue
            parts = step_parts(tj, st, rates)
            tried += 1
            total = sum(parts[:9]) / st.tokens  # seconds per token (the MoE parts are inside compute)
            if total < best_t:
                best_t, best = total, (st, parts)
    if best is None:
        return None, tried
    return (best[0], StepTime(*best[1])), tried


def _pins_stageless(tj: TrainingJob, pins: Pins) -> bool:
    """Whether a pinned ZeRO-2/3 is kept only without pipeline stages (the stack runs its ``pipeline_zero`` there)."""
    return (pins.zero is not None and pins.zero >= 2 and tj.stack_pipeline_zero is not None
            and tj.stack_pipeline_zero != pins.zero)


def _pin_first(tj: TrainingJob, groups: tuple[_Group, ...], rates: GpuRates, usable: float, pins: Pins,
               beat: float = math.inf, skip: Callable[[_Group], bool] | None = None
               ) -> tuple[tuple[Static, StepTime] | None, int]:
    """:func:`_best`, the layouts that keep a pinned ZeRO-2/3 first: a stack that shards across pipeline stages runs
    such a pin as its ``pipeline_zero`` there (torchtitan's FSDP under a pipeline: ZeRO-1), which does not keep it,
    so a pipelined layout is taken only where no layout without stages fits."""
    if not _pins_stageless(tj, pins):
        return _best(tj, groups, rates, usable, beat, skip)
    best, tried = _best(tj, tuple(g for g in groups if g.split[1] == 1), rates, usable, beat, skip)
    if best is None:
        best, more = _best(tj, tuple(g for g in groups if g.split[1] > 1), rates, usable, beat, skip)
        tried += more
    return best, tried


def fewest_gpus_in_time(tj: TrainingJob, gpu: Gpu, hours: float) -> float:
    """A lower bound on how many GPUs of this type can finish the job within ``hours``: the model's
    FLOPs (no recomputation) at the GPU's full training rate, with nothing else in a step (no
    communication, bubble, optimizer or offload time) and no failures. Every layout's wall time is
    at least that, so fewer GPUs are certainly late. inf when no time is left, 0 when unknown."""
    if hours <= 0:
        return math.inf
    rate, _mfu = gpu_speed(tj, gpu)
    if rate <= 0:
        return 0.0
    return tj.flops_per_token(False) * tj.tokens / rate / 3600 / hours


def _host_pins(topo: I.Topology, pins: Pins) -> Pins:
    """``pins`` with offload pinned off where the host has no memory apart from the GPUs' (``topo.host_offload``
    False: a DGX Spark's GB10), unless the user pinned it: :func:`plan` and :func:`least_per_gpu` alike."""
    if topo.host_offload or pins.offload is not None:
        return pins
    return dataclasses.replace(pins, offload="none")


def least_per_gpu(tj: TrainingJob, n: int, topo: I.Topology, pins: Pins = NO_PINS) -> float:
    """The least memory the busiest GPU of any layout of ``n`` GPUs needs, with any settings
    (offload included), under the user's ``pins`` or with none (inf when no layout exists): the
    raw figure held_plan.fits_at_all compares and the memory rules judge (a server's worth of GPUs
    in the job fact)."""
    tj = tj.on(n)  # one GPU: a full fine-tune's state in the compute dtype where its user left it open
    free = _least_under(tj, n, topo, _host_pins(topo, Pins()))
    return min(free, _least_under(tj, n, topo, _host_pins(topo, pins))) if pins.any else free


def _least_under(tj: TrainingJob, n: int, topo: I.Topology, pins: Pins) -> float:
    search = _search(tj, n, topo.fabric, topo.tp_domain, pins)
    return min((st.per_gpu for st in (search.frugal(False), search.frugal(True)) if st is not None), default=math.inf)


def plan(tj: TrainingJob, gpu: Gpu, n: int, topo: I.Topology, usable: float, pins: Pins = NO_PINS) -> Plan:
    """The fastest layout of ``n`` GPUs whose busiest GPU needs at most ``usable`` bytes (or, when
    none fits, the one needing the least memory), honouring ``pins``; offload is each split's last rung, tried on
    the splits nothing else fits and kept where one trains faster than every layout without it. A GPU whose memory
    is the system's only memory (``memory.shared_with_host``: the GB10 of a DGX Spark) has no host memory apart to
    offload to, so no layout offloads there unless the user pinned it."""
    tj = tj.on(n)  # one GPU: a full fine-tune's state in the compute dtype where its user left it open
    pins = _host_pins(topo, pins)
    search = _search(tj, n, topo.fabric, topo.tp_domain, pins)
    rates = gpu_rates(tj, gpu, topo)
    best, tried = None, 0
    frugal_plain = search.frugal(False)
    if frugal_plain is not None and frugal_plain.per_gpu <= usable:
        best, tried = _pin_first(tj, search.groups, rates, usable, pins)
    # offload is the last memory-saving rung of each split (tp, pp, cp, ep, interleave), tried on the splits none of
    # whose other rungs fit, and kept where such a split trains faster than every layout that fits without offload:
    # 64 RTX 5090s training 70B over 25 Gb/s Ethernet fit without it only as ZeRO-3 over all 64 (2,853 s a step),
    # where 8 pipeline stages with the optimizer on the host take 359 s
    frugal_off = search.frugal(True) if best is None else None
    if best is not None and search.offload:
        plain = {(g.split, g.micro): g for g in search.groups}

        def held(g: _Group) -> bool:  # a split some rung of which fits without offload
            twin = plain.get((g.split, g.micro))
            return twin is not None and twin.most_frugal().per_gpu <= usable

        pool = search.offload
        if _pins_stageless(tj, pins) and best[0].layout.pp == 1:  # a kept ZeRO-2/3 pin is not traded for speed
            pool = tuple(g for g in pool if g.split[1] == 1)
        off, more = _pin_first(tj, pool, rates, usable, pins, best[1].total / best[0].tokens, held)
        tried += more
        best = off or best
    elif frugal_off is not None and frugal_off.per_gpu <= usable:
        best, more = _pin_first(tj, search.offload, rates, usable, pins)
        tried += more
    fits = best is not None
    if best is None:
        frugal = min((st for st in (frugal_plain, frugal_off) if st is not None), key=lambda st: st.per_gpu)
        best = (frugal, step_time(tj, frugal, rates))
    st, t = best
    return _finish(tj, gpu, n, st, t, rates, fits, tried)


def _finish(tj: TrainingJob, gpu: Gpu, n: int, st: Static, t: StepTime, rates: GpuRates, fits: bool,
            tried: int) -> Plan:
    f = tj.runtime.training
    steps = tj.tokens / st.tokens if st.tokens else 0.0
    key = ("goodput", n)
    gp = tj.memo.get(key)
    if gp is None:
        gp = tj.memo[key] = C.goodput(n, f.failures_per_gpu_hour.value, f.hours_lost_per_failure.value,
                                      f.whole_run_efficiency.value).value
    wall_h = steps * t.total / gp / 3600
    eff = t.ideal / t.total if t.total > 0 else 1.0
    split = (offload_parts(st.opt_params, st.layout, rates, t.compute, st.fetched, st.host) if t.offload
             else (0.0, 0.0, 0.0))
    host = ((st.opt_params, rates.host_cores_per_gpu, rates.cpu_adam_params_per_s_per_core, rates.host_gb_s_per_gpu,
             rates.host_cores_stated) if t.offload else (0.0, 0.0, 0.0, 0.0, False))
    on_gpu = (st.host, rates.pcie_gb_s) if t.offload and C.updates_on_gpu(rates.offload_on_gpu, st.layout.offload) \
        else ()
    return Plan(st.layout, tj.memory(st.layout), t, fits, st.per_gpu, steps, wall_h, wall_h * n, eff, gp,
                rates.mfu, rates.flops, tried, dp_traffic(tj, st, rates, t.compute), split, host, on_gpu)


def evaluate_layout(tj: TrainingJob, gpu: Gpu, n: int, topo: I.Topology, usable: float, lay: Layout) -> Plan:
    """One given layout (no search): its memory, step time and totals."""
    tj = tj.on(n)  # one GPU: a full fine-tune's state in the compute dtype where its user left it open
    rates = gpu_rates(tj, gpu, topo)
    st = figures(tj, lay)
    t = step_time(tj, st, rates)
    return _finish(tj, gpu, n, st, t, rates, st.per_gpu <= usable, 1)


def _goodput_term(gpus: int, tj: TrainingJob) -> Term:
    """The plan's goodput with the formula that gives it: the whole-run efficiency over the failure term,
    with every input (the report's arithmetic must come out at the value it shows)."""
    f = tj.runtime.training
    return C.goodput(gpus, f.failures_per_gpu_hour.value, f.hours_lost_per_failure.value, f.whole_run_efficiency.value)


def terms(plan_: Plan, tj: TrainingJob) -> dict[str, Term]:
    """The plan's figures as Terms for the report: step time by cause, totals, efficiency."""
    lay, s = plan_.layout, plan_.step
    inputs = {**lay.as_dict(), **{k: v for k, v in s.as_dict().items()}}
    out = {
        "mfu": plan_.mfu,
        "step_time": Term("step_seconds", s.total, "s", formula("formula.step_time")
                          + (formula("formula.step_time_moe", "; ") if s.moe_passes else ()), inputs),
        "pp_bubble": Term("pp_bubble_fraction", (lay.pp - 1) / (lay.grad_accum * lay.interleave) if lay.pp > 1
                          else 0.0, "", formula("formula.pp_bubble"),
                          {"pp": lay.pp, "micro_batches": lay.grad_accum, "interleave": lay.interleave}),
        "scaling_efficiency": Term("scaling_efficiency", plan_.scaling_efficiency, "",
                                   formula("formula.step_efficiency"), inputs),
        "dp_traffic": _dp_term(plan_, tj.method),
        **({"offload": _offload_term(plan_)} if s.offload else {}),
        "goodput": _goodput_term(lay.gpus, tj),
        "steps": Term("optimizer_steps", plan_.steps, "", formula("formula.optimizer_steps"),
                      {"train_tokens": tj.tokens, "tokens_per_step": lay.global_batch_tokens}),
        "wall_hours": Term("wall_hours", plan_.wall_hours, "h", formula("formula.wall_hours_steps"),
                           {"steps": plan_.steps, "step_s": s.total, "goodput": plan_.goodput}),
        "gpu_hours": Term("gpu_hours", plan_.gpu_hours, "GPU-h", formula("formula.gpu_hours"),
                          {"wall_hours": plan_.wall_hours, "gpus": lay.gpus}),
    }
    return out


def _offload_term(plan_: Plan) -> Term:
    """An offloaded step's own seconds by cause (step_time.offload_parts): the PCIe traffic of gradients and
    (ZeRO-3) weights, Adam on the host's cores, and the NVMe reads and writes of ZeRO-Infinity."""
    lay, (pcie, adam, nvme) = plan_.layout, plan_.offload_split
    if plan_.offload_state:  # the state to the GPU for the update and back (step_time.offload_parts)
        state, link = plan_.offload_state
        return Term("offload_seconds", plan_.step.offload, "s", formula("formula.offload_state_both_ways"),
                    {"state_bytes": state, "link_gb_s_per_gpu": link, "offload": lay.offload, "zero": lay.zero,
                     "share_of_step": plan_.step.offload / plan_.step.total})
    params, cores, per_core, host_gb_s, stated = plan_.offload_host
    said = (("", "note.offload_host_stated" if stated else "note.offload_host_default",
             {"cores": cores, "rate_m": per_core / 1e6}),)
    return Term("offload_seconds", plan_.step.offload, "s",
                formula("formula.offload_parts") + (formula("formula.offload_nvme_part", " + ") if nvme else ()),
                {"pcie_s": pcie, "host_adam_s": adam, "nvme_s": nvme, "offload": lay.offload, "zero": lay.zero,
                 "params_per_gpu": params, "host_cores_per_gpu": cores, "cpu_adam_params_per_s_per_core": per_core,
                 "host_gb_s_per_gpu": host_gb_s, "host_cores_stated": stated,
                 "host_adam_params_per_s": min(cores * per_core, host_gb_s * 1e9 / C.HOST_ADAM_BYTES_PER_PARAM)
                 if cores else 0.0,
                 "micro_batches": lay.grad_accum, "backward_s": backward_seconds(plan_.step.compute),
                 "share_of_step": plan_.step.offload / plan_.step.total},
                note_phrases=said)


def _dp_term(plan_: Plan, method: str) -> Term:
    """The data-parallel traffic of a step as a Term: all of it, with the hidden and exposed parts."""
    d, lay = plan_.dp_traffic, plan_.layout
    if lay.dp <= 1:
        said = "formula.dp_none"
    elif lay.zero >= 3:
        said = "formula.dp_zero3"
    elif lay.zero == 0 or method != "full":
        said = "formula.dp_allreduce"
    elif lay.zero == 2:
        said = "formula.dp_zero2"
    else:
        said = "formula.dp_zero1"
    if d.replicas > 1 and lay.zero >= 1:  # hybrid sharding: the group's gradient share across its replicas
        said += "_hsdp"
    # cp beside the ZeRO-3 group's dp where that group is the layout's DP x CP GPUs: the report names it so
    joint = lay.cp > 1 and d.zero3 is not None and d.zero3.dp == lay.dp
    return Term("dp_traffic_seconds", d.traffic_s, "s", formula(said), d.as_dict() | ({"cp": lay.cp} if joint else {}))
