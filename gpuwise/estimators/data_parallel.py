"""The data-parallel term of a training step (:func:`~gpuwise.estimators.step_time.step_parts`): the gradient and
weight traffic by ZeRO stage, what of it compute hides (bucketing, per-layer collectives, hybrid sharding's groups),
the compute the hidden part slows (:func:`dp_contention`), and the figures a report shows (:func:`dp_traffic`).
Kept apart from step_time.py, which adds this term to the others."""

from __future__ import annotations

import math
from dataclasses import fields
from typing import TYPE_CHECKING

from ..frozen import frozen
from . import interconnect as I
from .collective_time import _allreduce, _allreduce_parts, _ring
from .stage_split import expert_shards, expert_split
from .training_layout import Layout, Static, TrainingJob

if TYPE_CHECKING:  # the rates' record only types the arguments
    from .step_rates import GpuRates


def fast_link_share(st: Static, g: GpuRates) -> float:
    """The share of a step's data-parallel traffic time spent on the fast link (NVLink, Infinity Fabric, an NVL72
    rack's NVLink) rather than across the network, by the all-reduces of the GPU's dense and expert gradients over
    their groups (:func:`_allreduce_parts`)."""
    lay = st.layout
    n, dpe, local, local_e = _group(lay, g.topo)
    dense = _allreduce_parts(g, st.grad_dense, n, local)
    expert = _allreduce_parts(g, st.grad_expert, dpe, local_e)
    cross = _cross_group_parts(st, g, n, dpe)
    total = sum(dense) + sum(expert) + sum(cross)
    return (dense[0] + expert[0] + cross[0]) / total if total > 0 else 0.0


def dp_contention(st: Static, g: GpuRates, hidden: float) -> float:
    """Seconds a step's compute loses to the ``hidden`` seconds of data-parallel traffic it hides: while a
    collective moves bytes over the fast link its kernels hold SMs and memory bandwidth, and the compute beside it
    runs slower by runtime.yaml training.overlap_compute_slowdown (18.9% on average on 4-GPU servers,
    arXiv:2507.03114); the share of the traffic that crosses the network (:func:`fast_link_share`) is not charged.
    Exposed traffic waits with compute stopped and is not charged again. Charged on ZeRO-0/1/2's bucketed
    gradient reduction and weight gather only, not on ZeRO-3 / FSDP's per-layer gathers: the sharded stacks
    (torchtitan's FSDP2, fsdp-hf, deepspeed) had their efficiency read end to end on sharded runs, whose gathers
    overlapped every layer, so the cost is in their figure already (runtime.yaml training_stacks); and the LoRA
    layouts gpuwise falls back to ZeRO-3 for lack of memory gather a frozen base the published runs held whole
    (validation README, session 15), traffic those runs never moved."""
    if hidden <= 0 or not g.overlap_slowdown or st.layout.zero >= 3:
        return 0.0
    return g.overlap_slowdown * hidden * fast_link_share(st, g)


def _replica_in_fabric(lay: Layout, topo: I.Topology) -> bool:
    """A pipelined model replica (tp x cp x pp GPUs) placed inside one rack-scale NVLink domain, as
    NVIDIA's NVL72 recipes place it (their SLURM segment is tp x pp x cp GPUs: mlcommons
    training_results_v5.1 NVIDIA llama31_405b configs, SEGMENT); its stages then talk over NVLink and
    its data-parallel peers sit in other racks."""
    return bool(topo.fabric_gpus) and lay.pp > 1 and lay.tp * lay.cp * lay.pp <= topo.fabric


def _dp_local(lay: Layout, topo: I.Topology) -> int:
    """Data-parallel ranks (context-parallel ones included) of one group that share the fast link:
    they are tp GPUs apart (Megatron's tp-cp-dp-pp order), or, for a replica placed in one rack-scale
    domain, only its cp ranks are and the other replicas sit in other racks."""
    if _replica_in_fabric(lay, topo):
        return min(lay.dp, lay.cp * max(1, topo.fabric // (lay.tp * lay.cp * lay.pp)))
    return min(lay.dp, max(1, topo.fabric // lay.tp))


def _group(lay: Layout, topo: I.Topology) -> tuple[int, int, int, int]:
    """(GPUs of the layout's ZeRO group, its expert data-parallel ranks, the GPUs of each that share the fast link):
    every data-parallel GPU, or under hybrid sharding (:attr:`Layout.shard_group`) the group's, placed innermost
    (the shard dimension of PyTorch's 2-D HSDP mesh, DeepSpeed MiCS's partition group)."""
    n = lay.shard_group
    etp = expert_split(lay.tp, lay.dp, lay.ep, lay.etp)[0]
    dpe = expert_shards(lay.tp, lay.dp, lay.ep, n, lay.etp)
    return n, dpe, min(n, _dp_local(lay, topo)), min(dpe, max(1, topo.fabric // (etp * lay.ep)))


def _cross_group_parts(st: Static, g: GpuRates, n: int, dpe: int) -> tuple[float, float]:
    """Hybrid sharding's all-reduce of a GPU's gradient shard (1/n of its dense gradients, 1/dpe of its experts')
    across the replicas of its group, once a step, by link (:func:`_allreduce_parts`): the peers are n x tp GPUs
    apart, on the fast link only where several groups share one. (0, 0) without hybrid sharding."""
    lay = st.layout
    r = lay.dp // n
    if r <= 1:
        return 0.0, 0.0
    local = min(r, max(1, g.topo.fabric // (n * lay.tp)))
    d = _allreduce_parts(g, st.grad_dense / n, r, local)
    e = _allreduce_parts(g, st.grad_expert / dpe, r, local)
    return d[0] + e[0], d[1] + e[1]


def _dp_seconds(tj: TrainingJob, st: Static, g: GpuRates, compute: float) -> tuple[float, float]:
    """(all data-parallel traffic of a step, the part of it compute does not hide), in seconds.

    DP ranks are tp GPUs apart (cp and dp are both in lay.dp). ZeRO-0 all-reduces gradients once per
    step behind the last micro-batch's backward; ZeRO-1 reduce-scatters gradients and all-gathers
    weights once per step; ZeRO-2 reduce-scatters gradients every micro-batch. ZeRO-3 / FSDP
    FULL_SHARD, every micro-batch: weights all-gathered layer by layer in the forward pass (hidden
    behind the forward's compute) and again in the backward pass with the gradients reduce-scattered
    (hidden behind the backward's, recomputation included), each a flat ring over all the
    data-parallel GPUs (interconnect.ring_seconds). What hides them is bucketing (:func:`_hidden`):
    a bucket is reduced while the backward computes the next one, so all but the last bucket (a
    layer's collective under ZeRO-3) can hide, once the first bucket's gradients are ready.

    Hybrid sharding (a layout's ``shard_group`` below its data-parallel GPUs: PyTorch FSDP2's HSDP on a 2-D
    device mesh, replicate x shard; DeepSpeed MiCS, Zhang et al. 2022, arXiv:2205.00119, section 3.3; ZeRO++'s
    hpZ keeps a secondary weight shard inside a node, Wang et al. 2023, arXiv:2306.10209) runs the same
    collectives over the group's n GPUs only, and once a step all-reduces each GPU's gradient shard (1/n of its
    gradients) across the dp / n replicas of the group (:func:`_cross_group_parts`): with the layer's last
    reduce-scatter behind the last micro-batch's backward (FSDP2 defers it through gradient accumulation,
    ``FSDPModule.set_requires_all_reduce``; MiCS's 2-hop synchronisation at the accumulation boundary).

    DeepSpeed ZeRO-3 with overlap_comm set false (``tj.zero3_overlap_comm``; unset, DeepSpeed turns it on for
    ZeRO-3) reduce-scatters its gradients on the compute stream (deepspeed/runtime/zero/stage3.py:
    reduce_and_partition_stream is the default stream without overlap_comm), so none of the reduce-scatters hides;
    the weights' all-gathers keep their own stream."""
    lay = st.layout
    if lay.dp <= 1:
        return 0.0, 0.0
    n, dpe, local, local_e = _group(lay, g.topo)
    cross = sum(_cross_group_parts(st, g, n, dpe))
    if lay.zero >= 3:
        gather, scatter, micro, forward = _zero3_parts(tj, st, g, compute, local, dpe, local_e)
        b = last_bucket_share(tj, st, g)
        ga, fwd = lay.grad_accum, _hidden(gather, forward, b)
        if not tj.zero3_overlap_comm:
            bwd = _hidden(gather, micro - forward, b)
            return ga * (2 * gather + scatter) + cross, ga * (fwd + bwd + scatter) + cross
        bwd = _hidden(gather + scatter, micro - forward, b)
        last = _hidden(gather + scatter + cross, micro - forward, b) if cross else bwd
        return ga * (2 * gather + scatter) + cross, ga * fwd + (ga - 1) * bwd + last
    b = last_bucket_share(tj, st, g)
    g_ar = _allreduce(g, st.grad_dense, n, local) + _allreduce(g, st.grad_expert, dpe, local_e)
    if lay.zero == 0 or tj.method != "full":
        traffic, window = g_ar, compute / lay.grad_accum * 2 / 3
    else:
        w_ar = _allreduce(g, st.weight_dense, n, local) + _allreduce(g, st.weight_expert, dpe, local_e)
        ahead = 0.0  # the other chunks' passes an interleaved schedule runs after a chunk's gradients are final
        if lay.zero == 1:  # reduce-scatter gradients, all-gather weights, once per step
            grads, window = 0.5 * g_ar + cross, compute / lay.grad_accum
            ahead = _chunk_window(tj, lay, window)
        else:  # ZeRO-2: gradients reduce-scattered every micro-batch
            grads, window = lay.grad_accum * 0.5 * g_ar + cross, compute
        gather = 0.5 * w_ar
        if tj.stack_gathers_ahead:  # the weights' all-gather hides behind the next forward, with the gradients
            window = min(compute, window + ahead * 2 / 3)
            return grads + gather, _hidden(grads + gather, window, b)
        window = min(compute, window + ahead * 2 / 3)  # the gradients' share of it: the backward passes
        # the all-gather of the updated weights runs after the optimizer step, before any forward: exposed
        return grads + gather, gather + _hidden(grads, window, b)
    return traffic, _hidden(traffic, window, b)


def last_bucket_share(tj: TrainingJob, st: Static, g: GpuRates) -> float:
    """The share of the data-parallel traffic that cannot hide behind compute: one layer's collective
    under ZeRO-3 / FSDP (a collective per layer), else the last gradient bucket (:func:`bucket_share`), or all of
    it where the stack reduces its buckets on the compute stream (DeepSpeed ZeRO-0/1/2 without overlap_comm)."""
    if st.layout.zero >= 3:
        return 1 / math.ceil(tj.shape.layers / st.layout.pp)
    if not tj.stack_overlap_comm:
        return 1.0
    return bucket_share(tj, st, g)


def bucket_share(tj: TrainingJob, st: Static, g: GpuRates) -> float:
    """The last (and first) gradient bucket's share of the gradients a GPU reduces: the stack's bucket
    (runtime.yaml training_stacks grad_bucket_params, at least grad_bucket_params_per_rank x data-parallel
    ranks: Megatron-Core's), else PyTorch DDP's (runtime.yaml grad_bucket_bytes), over the GPU's gradient
    bytes; 1 when one bucket holds them all."""
    params, per_rank = tj.stack_grad_bucket
    if tj.method != "full":  # adapters: a DDP-style bucket of their fp32 gradients
        params = per_rank = 0.0
    bucket = (max(params, per_rank * st.layout.dp) * st.grad_bytes_per_param if params or per_rank
              else g.grad_bucket_bytes)
    grads = st.grad_dense + st.grad_expert
    return min(1.0, bucket / grads) if grads > 0 else 1.0


def _hidden(traffic: float, window: float, b: float) -> float:
    """Exposed seconds of ``traffic`` cut into buckets, the last holding share ``b`` of it, reduced while
    ``window`` seconds of compute run (PyTorch DDP's Reducer and Megatron-Core's overlap_grad_reduce launch a
    bucket's reduction as soon as its gradients are final: Li et al. 2020, 'PyTorch Distributed', VLDB, section
    3.2.3; megatron/core/distributed/param_and_grad_buffer.py). The first bucket fills over share ``b`` of the
    window before anything is sent, and the last bucket's reduction starts when compute ends: at least ``b`` of
    the traffic is exposed, and at most (1 - b) of the window hides the rest. The contention of the two for the
    GPU (NCCL's kernels hold SMs while they run) is not counted: no published figure sizes it in general."""
    return max(traffic * b, traffic - window * (1 - b))


def _chunk_window(tj: TrainingJob, lay: Layout, micro: float) -> float:
    """Compute an interleaved pipeline schedule runs after the first of a rank's model chunks has its gradients,
    ``micro`` being one micro-batch's compute (forward and backward) of the whole rank. Megatron-Core launches a
    chunk's gradient reduction as soon as the chunk's last micro-batch has passed backward
    (megatron/core/pipeline_parallel/schedules.py, forward_backward_pipelining_with_interleaving: grad_sync_func
    per model chunk, with overlap_grad_reduce), and the schedule's last group of pp micro-batches passes backward
    chunk by chunk: after the first chunk is done, pp micro-batches x (v - 1) / v of a rank's backward remain to
    hide the reductions behind, and as much forward of the next step hides the chunks' parameter all-gathers
    (overlap_param_gather). A plain 1F1B schedule (v = 1) hides them behind the last micro-batch only: 0 here."""
    v = lay.interleave
    if v <= 1 or lay.pp <= 1 or not tj.stack_te:
        return 0.0
    return micro * min(lay.grad_accum, lay.pp) * (v - 1) / v


def _zero3_parts(tj: TrainingJob, st: Static, g: GpuRates, compute: float, local: int, dpe: int, local_e: int
                 ) -> tuple[float, float, float, float]:
    """One micro-batch of ZeRO-3: (seconds of one all-gather of the weights, of one reduce-scatter
    of the gradients, of the micro-batch's compute, of its forward pass). Each is cut into one
    collective per layer."""
    lay = st.layout
    layers, n = math.ceil(tj.shape.layers / lay.pp), lay.shard_group
    gather = _ring(g, st.weight_dense, n, local, layers) + _ring(g, st.weight_expert, dpe, local_e, layers)
    scatter = _ring(g, st.grad_dense, n, local, layers) + _ring(g, st.grad_expert, dpe, local_e, layers)
    micro = compute / lay.grad_accum
    forward = micro * tj.flops_per_token(False) / 3 / tj.layout_flops_per_token(lay)
    return gather, scatter, micro, forward


@frozen
class Zero3Traffic:
    """ZeRO-3's data-parallel traffic of one micro-batch: its collectives (one all-gather of the
    weights, one reduce-scatter of the gradients, each cut per layer) and the compute windows that
    hide them, with the bytes each GPU moves (through its network port when the group spans servers)."""

    micro_batches: int
    gather_s: float
    reduce_scatter_s: float
    micro_batch_compute_s: float
    forward_s: float
    weight_bytes: float
    gradient_bytes: float
    dp: int
    gpus_per_node: int
    bytes_per_gpu: float
    network_bytes_per_gpu: float


@frozen
class DpTraffic:
    """The data-parallel traffic of a step: all of it, the part compute hides and the part it does
    not, the overlap assumed, and for ZeRO-3 one micro-batch's collectives (:class:`Zero3Traffic`)."""

    traffic_s: float
    hidden_s: float
    exposed_s: float
    overlap: float
    zero3: Zero3Traffic | None = None
    contention_s: float = 0.0  # compute lost to the hidden part (dp_contention); the step's dp term adds it
    replicas: int = 1  # hybrid sharding: the ZeRO group's replicas (_cross_group_parts), 1 without it
    cross_replica_s: float = 0.0  # of traffic_s: the group's gradient shard all-reduced across them, once a step

    def as_dict(self) -> dict[str, float]:
        """The figures by name, flat, as a formula's operands (the ZeRO-3 ones after the rest)."""
        out = {"traffic_s": self.traffic_s, "hidden_s": self.hidden_s, "exposed_s": self.exposed_s,
               "overlap": self.overlap, "contention_s": self.contention_s,
               **({"replicas": self.replicas, "cross_replica_s": self.cross_replica_s} if self.replicas > 1 else {})}
        z = self.zero3
        return {**out, **{f.name: getattr(z, f.name) for f in fields(z)}} if z is not None else out


def dp_traffic(tj: TrainingJob, st: Static, g: GpuRates, compute: float) -> DpTraffic:
    """The data-parallel traffic of a step for the report: all of it, the part compute hides and
    the part it does not, and for ZeRO-3 one micro-batch's collectives and the windows hiding them."""
    traffic, exposed = _dp_seconds(tj, st, g, compute)
    lay = st.layout
    zero3 = None
    if lay.zero >= 3 and lay.dp > 1:
        n, dpe, local, local_e = _group(lay, g.topo)
        gather, scatter, micro, forward = _zero3_parts(tj, st, g, compute, local, dpe, local_e)
        weights = st.weight_dense + st.weight_expert
        zero3 = Zero3Traffic(
            micro_batches=lay.grad_accum, gather_s=gather, reduce_scatter_s=scatter, micro_batch_compute_s=micro,
            forward_s=forward, weight_bytes=weights, gradient_bytes=st.grad_dense + st.grad_expert, dp=n,
            gpus_per_node=local, bytes_per_gpu=(n - 1) / n * weights,
            network_bytes_per_gpu=(n - 1) / n * weights / local if n > local else 0.0)
    overlap = 1 - last_bucket_share(tj, st, g)
    n, dpe = _group(lay, g.topo)[:2]
    cross = sum(_cross_group_parts(st, g, n, dpe)) if lay.dp > 1 else 0.0
    return DpTraffic(traffic, traffic - exposed, exposed, overlap, zero3,
                     dp_contention(st, g, traffic - exposed) if lay.dp > 1 else 0.0,
                     max(1, lay.dp // n) if cross else 1, cross)
