"""What one optimizer step of a training layout takes on a GPU type, by cause.

:func:`gpu_rates` gathers what the GPU and its links contribute (the FLOP rate its compute reaches,
link bandwidths and latencies, overlap, memory and host rates); :func:`step_time` adds up compute,
the exposed part of each collective (tensor parallel, pipeline sends and bubble, expert
all-to-all, context-parallel ring, data-parallel traffic by ZeRO stage, and the compute the hidden
data-parallel traffic slows: both in :mod:`.data_parallel`), the optimizer step and offload. The formulas are set
out in planner.py's docstring; the collectives at a GPU's rates are :mod:`.collective_time`'s.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..frozen import frozen
from . import Term
from . import compute as C
from . import interconnect as I
from .collective_time import _allreduce, _alltoall
from .data_parallel import _dp_seconds, _replica_in_fabric, dp_contention
from .stage_split import expert_split
from .step_rates import GpuRates
from .training_layout import Layout, Static, TrainingJob

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ..knowledge.schema import Gpu


@frozen
class StepTime:
    """Seconds of one optimizer step on one GPU, by cause (communication: the exposed part)."""

    compute: float
    tp: float
    pp: float
    bubble: float
    dp: float
    ep: float
    cp: float
    optimizer: float
    offload: float
    moe_passes: float = 0.0  # of compute: an MoE model's memory passes between its expert GEMMs (moe_seconds)
    moe_host: float = 0.0  # of compute: the MoE layers' wait for the host's per-expert launches (moe_seconds)
    zero3_host: float = 0.0  # of compute: the wait for DeepSpeed ZeRO-3's per-module host work (zero3_host_seconds)
    dense_host: float = 0.0  # of compute: dense layers' wait for the host's launches (dense_host_seconds)

    @property
    def total(self) -> float:
        return (self.compute + self.tp + self.pp + self.bubble + self.dp + self.ep + self.cp + self.optimizer
                + self.offload)

    @property
    def ideal(self) -> float:
        """What the step would take with free communication and no bubble."""
        return self.compute + self.optimizer + self.offload

    def as_dict(self) -> dict[str, float]:
        return {"compute_s": self.compute, "tp_s": self.tp, "pp_p2p_s": self.pp, "pp_bubble_s": self.bubble,
                "dp_s": self.dp, "ep_s": self.ep, "cp_s": self.cp, "optimizer_s": self.optimizer,
                "offload_s": self.offload, "step_s": self.total,
                **({"moe_passes_s": self.moe_passes, "moe_host_wait_s": self.moe_host} if self.moe_passes else {}),
                **({"zero3_host_wait_s": self.zero3_host} if self.zero3_host else {}),
                **({"dense_host_wait_s": self.dense_host} if self.dense_host else {})}


def padded_head_dim(head_dim: int, tiles: tuple[int, ...]) -> int:
    """The head dim an attention kernel computes for ``head_dim``: the smallest of its compiled ``tiles`` that holds
    it (runtime.yaml training.attention_kernels head_dim_tiles); beyond the last, ``head_dim`` itself."""
    return next((t for t in tiles if t >= head_dim), head_dim)


def gpu_speed(tj: TrainingJob, gpu: Gpu) -> tuple[float, Term]:
    """FLOP/s a GPU reaches in this job's compute and the MFU behind it (memoised per GPU)."""
    key = ("speed", gpu.id)
    got = tj.memo.get(key)
    if got is None:
        rt = tj.runtime
        f = rt.training
        precision = tj.precision if tj.precision in ("fp32", "fp16") else "bf16"
        peak = C.peak_for(gpu, precision)
        card = f.mfu_by_gpu.get(gpu.id)  # a card whose GEMMs reach another share of their peak (runtime.yaml)
        arch = card.value if card else rt.mfu[gpu.architecture].value if gpu.architecture in rt.mfu else 0.3
        k = f.mfu_memory_bound_k.value * tj.stack_memory_bound  # fused kernels leave less memory-bound work
        # a Mamba-1 model's selective scan, convolution and gates: memory-bound work beside its matmuls, in the same
        # units, for its layers' share of the matmuls (runtime.yaml training.mamba1_scan_k)
        scan = f.mamba1_scan_k.value * tj.shape.scan_share if f.mamba1_scan_k is not None else 0.0
        if f.delta_rule_k is not None:  # a gated DeltaNet layer's chunk kernels, convolutions and gates: the same form
            scan += f.delta_rule_k.value * tj.shape.delta_rule_share  # (runtime.yaml training.delta_rule_k)
        if tj.method != "full":  # frozen weights: the GEMMs do 4 N of full training's 6 N per token (no weight
            k, scan = k * 6.0 / 4.0, scan * 6.0 / 4.0  # gradients) while the memory-bound passes (norms, activations,
            # residuals, the scan) all run
        mfu = C.training_mfu(tj.shape, gpu, arch, peak.tflops, reference_hidden=f.mfu_reference_hidden.value, k=k,
                             k_reference=f.mfu_memory_bound_k.value, k_scan=scan)
        # a part of the architecture other than the one its figure was read on runs its matmuls at the ratio of the
        # GEMM clocks the two hold (runtime.yaml training.mfu_read_on; a card with its own figure keeps it)
        ref = dict(tj.mfu_read_on).get(gpu.architecture) if card is None else None
        clock = C.held_clock_ratio(gpu, ref, tj.precision) if ref is not None else 1.0
        speed = C.gemm_speedup(tj.shape, gpu, peak.tflops, gemm=clock, k=k + scan) if clock != 1.0 else 1.0
        if tj.precision == "fp8" and gpu.peaks.fp8:
            # a stack whose compiler folds the quantization into the fusions beside the GEMMs pays no cast pass; its
            # FP4 runs through Transformer Engine's NVFP4 recipe, which quantizes in kernels of its own (MaxText's
            # te_nvfp4: runtime.yaml training_stacks maxtext precisions_source), so pays them
            fused = f.fp8_gemm_fused_speedup if tj.stack_fp8_fused and not tj.fp4_gemms else None
            gemm = (fused or f.fp8_gemm_speedup).value * clock
            if tj.fp4_gemms and gpu.peaks.fp4:  # NVFP4 / MXFP4 GEMMs: the FP4 / FP8 ratio a published table of both
                # on one layout shows for the architecture (runtime.yaml training.fp4_gemm_over_fp8), else the peaks'
                fr = f.fp4_gemm_over_fp8
                gemm *= (fr.ratio.get(gpu.architecture) if fr is not None else None) or gpu.peaks.fp4 / gpu.peaks.fp8
            speed = C.fp8_speedup(tj.shape, gpu, peak.tflops, gemm_speedup=gemm, k=k + scan).value
        # runtime.mfu of an architecture measured on a named stack (Megatron-Core on Hopper and Blackwell) is that
        # stack's speed: it runs at it, every other stack at its efficiency over that stack's
        stack = (1.0 if gpu.architecture in tj.stack_calibrated_on
                 else tj.stack_efficiency / dict(tj.stack_reference).get(gpu.architecture, 1.0))
        rate = peak.tflops * 1e12 * mfu.value * speed * stack
        ak = f.attention_kernels
        kernels = ak.utilization.get(tj.stack_attention, {}) if ak is not None else {}
        # a compute capability where one architecture's parts run the kernel differently, else the architecture
        util = kernels.get(gpu.compute_capability or "") or kernels.get(gpu.architecture)
        # attention at its kernel's rate where one is known, in 16 bits (runtime.yaml training.attention_kernels)
        attn = rate  # attention at the GEMMs' rate, unless its kernel's is known
        if util is not None:  # the figure's rate is of the benchmark's count (the backward's recomputed scores in it)
            kernel = C.peak_for(gpu, "bf16").tflops * 1e12 * util / ak.benchmark_count_ratio
            # where the kernel at the run's length outruns the GEMMs (a narrow model's memory-bound share, LoRA, a
            # slow stack), attention runs at the kernel's rate there, else the figure caps it as before
            at_len = C.attention_rate_at_length(kernel, C.attended_span(tj.shape, tj.attention_seq),
                                                ak.causal_length_tokens,
                                                ak.utilization_length)
            attn = at_len if at_len > rate else min(attn, kernel)
        if tj.unfused_mla and float(gpu.compute_capability or 0) >= 10.0:  # no fused MLA kernel on Blackwell in the
            # job's release: attention at its score traffic's rate (runtime.yaml attention_kernels unfused_mla_before)
            attn = min(attn, C.unfused_attention_rate(
                tj.shape, gpu.memory.bandwidth_gb_s * 1e9 * rt.decode_bandwidth_efficiency.value))
        below = tj.stack_unfused_attention_below  # no flash-attention kernel on this GPU for the stack: its own
        if below is not None and float(gpu.compute_capability or 0) < below:  # unfused path (training_stacks)
            attn = min(attn, C.unfused_attention_rate(
                tj.shape, gpu.memory.bandwidth_gb_s * 1e9 * rt.decode_bandwidth_efficiency.value))
        if tj.attention == "eager":  # the transformers model's eager path: every step over the s x s scores its own
            # operator, the softmax in fp32, at the rate that traffic allows (compute.EAGER_SCORE_BYTES)
            attn = min(attn, C.unfused_attention_rate(
                tj.shape, gpu.memory.bandwidth_gb_s * 1e9 * rt.decode_bandwidth_efficiency.value, C.EAGER_SCORE_BYTES))
        if ak is not None and not tj.shape.mla:  # a head between the kernel's compiled widths pays for the next one
            attn *= tj.shape.head_dim / padded_head_dim(tj.shape.head_dim, ak.head_dim_tiles)
        if attn != rate:
            rate /= C.attention_kernel_factor(tj.shape, tj.attention_seq, tj.method, rate, attn).value
        sk = f.ssd_kernel_utilization  # a Mamba-2 layer's SSD chunks at their kernels' rate (runtime.yaml)
        if sk is not None and tj.shape.ssd_macs_per_token > 0:  # a compute capability measured apart, else Hopper's
            su = sk.by_compute_capability.get(gpu.compute_capability or "", sk.value)
            rate /= C.ssd_kernel_factor(tj.shape, tj.seq, tj.method, rate, C.peak_for(gpu, "bf16").tflops * 1e12 * su)
        got = tj.memo[key] = (rate, mfu)
    return got


def gpu_rates(tj: TrainingJob, gpu: Gpu, topo: I.Topology) -> GpuRates:
    """The GPU's rates on ``topo`` for this job (memoised per job by every figure of the topology they
    read: two networks of one bandwidth and different latency, or two fast-link domains of one
    bandwidth and different size, get rates of their own)."""
    key = ("rates", gpu.id, topo.per_node, topo.nodes, topo.intra_gb_s, topo.network_gb_s, topo.mesh_link_gb_s,
           topo.fabric, topo.fabric_gpus, topo.network_latency_us, topo.tp_domain)
    got = tj.memo.get(key)
    if got is None:
        got = tj.memo[key] = _gpu_rates(tj, gpu, topo)
    return got


def _gpu_rates(tj: TrainingJob, gpu: Gpu, topo: I.Topology) -> GpuRates:
    rt = tj.runtime
    flops, mfu = gpu_speed(tj, gpu)
    eff = rt.link_efficiency.value
    intra = topo.intra_gb_s * 1e9 * eff if topo.fabric > 1 else float("inf")
    mesh = topo.mesh_link_gb_s * 1e9 * eff
    net = topo.network_gb_s_per_gpu * 1e9 * eff if topo.nodes > 1 else float("inf")
    pcie = I.host_link_gb_s(gpu, topo.per_node, rt)  # a GPU pair behind one x16 uplink divides it
    f = rt.training
    md = f.moe_dispatch
    moe_s = 0.0
    if md is not None and tj.shape.moe:  # the figures of the job's stack and release (training_job.moe_host_table)
        ms = dict(tj.moe_host_ms) or md.ms_per_local_expert
        moe_s = ms.get(gpu.architecture, ms.get(md.default_architecture, 0.0)) * 1e-3
    cores, per_core = host_cores(tj, topo)
    zc, slow = rt.zero3_offload_copies, 1.0
    z12 = tj.zero12_copies
    pageable = bool(tj.zero3_copies and tj.zero3_copies[3]) or bool(z12 and (z12[2] or z12[4]))
    if pageable and zc is not None:  # a release whose host buffers are pageable
        slow = zc.pageable_slowdown_one_gpu if topo.per_node == 1 else zc.pageable_slowdown
    overlap = f.overlap_compute_slowdown.value if f.overlap_compute_slowdown is not None else 0.0
    return GpuRates(flops, mfu, topo, intra, mesh, net, 5e-6, topo.network_latency_us * 1e-6,
                    rt.grad_bucket_bytes.value, 1 - f.tp_comm_overlap.value, 1 - f.ep_comm_overlap.value,
                    gpu.memory.bandwidth_gb_s * 1e9 * rt.decode_bandwidth_efficiency.value,
                    f.optimizer_bytes_per_param.value, pcie, rt.host_memory_gb_s.value / topo.per_node,
                    rt.nvme_gb_s.value / topo.per_node, cores * per_core, moe_s, cores, per_core, tj.host_cores > 0,
                    tj.zero3_copies, slow, z12, overlap, tj.stack_offload_prefetch, tj.stack_offload_on_gpu)


def host_cores(tj: TrainingJob, topo: I.Topology) -> tuple[float, float]:
    """Host cores serving each GPU and the parameters a core updates a second with CPU Adam (an offloaded optimizer):
    the job's host (workload.host_cpu_cores) over the GPUs a server runs, else runtime.yaml host_cores_per_gpu. The
    cores bound a host of few; the host's own rate (runtime.yaml host_memory_gb_s, divided among the GPUs a server
    runs: GpuRates.host_gb_s_per_gpu) bounds the rest, however the ranks' threads are bound to its cores."""
    rt = tj.runtime
    cores = tj.host_cores / topo.per_node if tj.host_cores else rt.host_cores_per_gpu.value
    return cores, rt.cpu_adam_params_per_s_per_core.value


# The share of a step's compute that is the backward pass, behind which an offloaded optimizer's gradient copies to
# the host run: the backward is 4 of the 6 FLOPs a parameter a token (Kaplan et al. 2020, 'Scaling Laws for Neural
# Language Models', section 2.1); with recomputation it is 6 of 8, so 2/3 is the lower bound.
BACKWARD_SHARE = 2 / 3


def backward_seconds(compute_s: float) -> float:
    """Seconds of a step's backward pass, from the step's compute (:data:`BACKWARD_SHARE` of it)."""
    return compute_s * BACKWARD_SHARE


def offload_seconds(p: float, lay: Layout, g: GpuRates, compute_s: float = 0.0, fetched: float = 0.0,
                    state: float = 0.0) -> float:
    """Seconds an optimizer step spends on offloaded state, for ``p`` parameters a GPU owns
    (ZeRO-Offload, ZeRO-Infinity, FSDP CPU offload):

    * 16-bit gradients to the host every micro-batch and 16-bit weights back once: 2 B x micro-batches + 2 B per
      parameter over PCIe. The gradients leave during the backward (:func:`backward_seconds` of the step's
      ``compute_s``): DeepSpeed's ZeRO optimizer copies each reduced gradient bucket to the host's pinned fp32 buffer
      with a non-blocking copy from its backward hooks (stage_1_and_2.py copy_grads_in_partition /
      async_inplace_copy_grad_to_fp32_buffer_from_gpu; stage3.py partition_grads on its reduce-and-partition stream),
      and the ZeRO-Offload paper's single-GPU schedule (Ren et al. 2021) overlaps the gradient offload with the
      backward; only what outlasts the backward waits. DeepSpeed's ZeRO-1/2 (the same stacks; runtime.yaml
      zero3_offload_copies zero12_*, by workload.stack_version) sends the fp32 gradient, 4 B at the boundary, and the
      16-bit accumulated gradient to the host and back (2 + 2 B) a micro-batch when accumulating; from the release that
      pins its host buffers only when configured until the release that pins them by default, through pageable memory at
      the pinned rate / pageable_slowdown, the backward waiting; its weights' return is a 16-bit copy from pageable
      memory, then the pinned fp32 partition (4 B), then a 16-bit buffer pinned only when configured, by release.
      DeepSpeed's ZeRO-3 (stacks deepspeed, megatron-deepspeed; runtime.yaml zero3_offload_copies, by
      workload.stack_version) copies each gradient to the host and back a micro-batch and at the step into the fp32
      gradient: 2 + 2 B x micro-batches + 4 B, or + 2 B and the CPU's upcast (6 B of host traffic at the GPU's share of
      host_memory_gb_s) before the release that upcasts on the GPU; before the release that pins its host buffers,
      pageable copies at the pinned rate / pageable_slowdown that the backward waits for. The weights come back after
      the host's Adam, exposed;
    * parameter offload (ZeRO-3 / FSDP with offload_params): the GPU's shard of 16-bit weights
      crosses PCIe again for every micro-batch's forward, backward and recomputed forward (:func:`weight_fetches`):
      + 2 B x fetches x micro-batches, through pageable memory (the pinned rate / pageable_slowdown) on the
      DeepSpeed releases whose offload_param pin_memory defaulted to false (runtime.yaml zero3_offload_copies); on a
      stack that fetches ahead on a side stream (training_stacks offload_prefetch: PyTorch FSDP) only what outlasts
      the step's compute;
    * Adam on the host: the slower of the cores (the cores serving the GPU x CPU Adam's measured
      rate a core, :func:`host_cores`) and the GPU's share of its server's CPU Adam rate (~28 B of
      traffic per parameter over runtime.yaml host_memory_gb_s, which the GPUs a server runs divide);
    * NVMe (ZeRO-Infinity): the 16 B of fp32 state per parameter read and written at the drives'
      bandwidth (32 B).

    A stack whose offloaded optimizer updates on the GPU (runtime.yaml training_stacks offload_update device: JAX
    memory kinds, MaxText's optimizer_memory_host_offload, Levanter / Marin's offload_opt_state) does none of
    this: see :func:`offload_parts`.
    """
    return sum(offload_parts(p, lay, g, compute_s, fetched, state))


def weight_fetches(lay: Layout) -> float:
    """Times a micro-batch fetches an offloaded parameter shard from the host under ZeRO-3 (DeepSpeed's
    offload_param, FSDP's offload_params): once for the forward and once for the backward, and again for the
    forward the backward recomputes (the layers' :attr:`Layout.recompute_share`): DeepSpeed's ZeRO-3 releases a
    module's gathered parameters after its forward (stage3 PartitionedParameterCoordinator.release_sub_module)
    and FSDP reshards after the forward, so the recomputed forward gathers them anew."""
    return 2 + lay.recompute_share


def offload_parts(p: float, lay: Layout, g: GpuRates, compute_s: float = 0.0, fetched: float = 0.0,
                  state: float = 0.0) -> tuple[float, float, float]:
    """:func:`offload_seconds` by cause: (PCIe traffic left exposed, Adam on the host, NVMe), seconds a step; a
    report says which part of an offloaded step is the bus and which the host's optimizer. ``fetched``: the bytes
    of the GPU's parameter shard a pass fetches under ZeRO-3 where they are not ``p``'s 16-bit weights (LoRA: the
    frozen base's shard, training_layout.Static.fetched). ``state``: the bytes of optimizer state the GPU keeps on
    the host (training_layout.Static.host).

    A stack that updates on the GPU (GpuRates.offload_on_gpu) keeps only the optimizer state in pinned host memory
    and moves it to the GPU after the backward and back at the step's end, inside its compiled step (JAX memory
    kinds: jax.device_put to memory kind 'device', the optimizer's update, back to 'pinned_host'): ``state`` crosses
    the host link once each way, 2 x state / the link's rate a direction (interconnect.host_link_gb_s: PCIe, or
    NVLink-C2C on GH200 / GB200), and no host core computes; the weights and gradients stay on the GPU, so there is
    nothing to fetch. The copies sit where the program puts them, between the backward and the update and after it,
    and no source times an overlap, so both wait."""
    pcie = g.pcie_gb_s * 1e9
    if C.updates_on_gpu(g.offload_on_gpu, lay.offload):
        return C.state_round_trip_seconds(state, g.pcie_gb_s), 0.0, 0.0
    copies = g.zero3_copies
    if lay.zero >= 3 and copies:  # DeepSpeed ZeRO-3: to the host and back a micro-batch, then the step's copy
        per_micro, at_step, upcast, waits = copies
        grads = p * (per_micro * lay.grad_accum + at_step) / (pcie / g.zero3_copy_slowdown)
        grads += p * upcast / (g.host_gb_s_per_gpu * 1e9)  # the CPU's upcast, at the GPU's share of the host's rate
        if not waits:
            grads = max(0.0, grads - backward_seconds(compute_s))
    elif g.zero12_copies and lay.zero < 3:  # DeepSpeed ZeRO-1/2 (zero12_offload_copies): 4 B at the boundary,
        per_micro, at_step, waits, _, _ = g.zero12_copies  # 2 + 2 B a micro-batch when accumulating
        grads = p * (at_step + (per_micro * lay.grad_accum - per_micro / 2 if lay.grad_accum > 1 else 0.0))
        grads = grads / (pcie / g.zero3_copy_slowdown) if waits else max(0.0, grads / pcie
                                                                         - backward_seconds(compute_s))
    else:
        grads = max(0.0, p * 2 * lay.grad_accum / pcie - backward_seconds(compute_s))  # what the backward does not hide
    moved = p * 2 / pcie  # the 16-bit weights back after the host's Adam
    if g.zero12_copies and lay.zero < 3:  # ZeRO-1/2's return by release: fp32 pinned or 16-bit, pinned or pageable
        _, _, _, back, back_pageable = g.zero12_copies
        moved = p * back / (pcie / g.zero3_copy_slowdown if back_pageable else pcie)
    if lay.zero >= 3:  # parameter offload: the GPU's shard fetched for each pass over the layers a micro-batch
        fetch = (fetched or p * 2) * weight_fetches(lay) * lay.grad_accum / (pcie / g.zero3_copy_slowdown)
        # a stack that copies the next unit's pinned shard on a side stream (FSDP's pre-unshard stream) hides the
        # fetches behind the step's compute: only what outlasts it waits (runtime.yaml training_stacks
        # offload_prefetch); otherwise each fetch waits on the host
        moved += max(0.0, fetch - compute_s) if g.offload_prefetch else fetch
    adam = max(p / g.cpu_adam_params_per_s_per_gpu, p * C.HOST_ADAM_BYTES_PER_PARAM / (g.host_gb_s_per_gpu * 1e9))
    nvme = p * 32 / (g.nvme_gb_s_per_gpu * 1e9) if lay.offload == "nvme" else 0.0
    return grads + moved, adam, nvme


def step_time(tj: TrainingJob, st: Static, g: GpuRates) -> StepTime:
    """Seconds of one optimizer step of layout ``st`` on a GPU with rates ``g``."""
    return StepTime(*step_parts(tj, st, g))


def step_parts(tj: TrainingJob, st: Static, g: GpuRates) -> tuple[float, ...]:
    """:func:`step_time` as a plain tuple (the search times many layouts and keeps one): the nine terms that add
    up to the step, then the MoE layers' passes and host wait, ZeRO-3's host wait and the dense layers' host wait,
    which the compute term already holds."""
    lay, topo = st.layout, g.topo
    compute = st.flops / g.flops
    per_node = topo.fabric  # GPUs on the fast link: one server's, or an NVL72 rack's
    tp = pp = ep = cp = 0.0
    if st.tp_count:  # tensor parallel: inside the node (a TP group spanning nodes goes over the network)
        exposed = g.tp_exposed
        if tj.stack_tp_overlap and lay.tp <= min(per_node, g.topo.tp_domain):  # userbuffers: one NVLink domain
            exposed = min(exposed, 1 - tj.stack_tp_overlap)
        tp = st.tp_count * _allreduce(g, st.tp_bytes, lay.tp, min(lay.tp, per_node)) * exposed
    if st.etp_count:  # the MoE dispatcher's gathers and scatters over the experts' tensor-parallel GPUs, which sit
        # inside the tensor-parallel group's stride; Transformer Engine's userbuffers do not take them
        etp = max(1, lay.etp)
        tp += st.etp_count * _allreduce(g, st.etp_bytes, etp, min(etp, per_node)) * g.tp_exposed
    if st.pp_count:  # pipeline sends: once stages span nodes the slowest boundary sets the pace
        if topo.nodes > 1 and not _replica_in_fabric(lay, topo):
            pp = st.pp_count * (st.pp_bytes / g.net_bw + g.net_lat)
        else:
            pp = st.pp_count * (st.pp_bytes / (g.mesh or g.intra) + g.intra_lat)
    if st.ep_count:  # expert all-to-all: EP ranks are tp x cp GPUs apart (folded over the TP GPUs: cp apart)
        apart = lay.tp * lay.cp if expert_split(lay.tp, lay.dp, lay.ep, lay.etp)[0] == lay.tp else lay.cp
        local = min(lay.ep, max(1, per_node // apart))
        ep = st.ep_count * _alltoall(g, st.ep_bytes, lay.ep, local) * g.ep_exposed
    moe = (0.0, 0.0)
    if tj.shape.moe:  # the MoE layers' passes between their GEMMs and the host's launches, part of their compute
        moe = moe_seconds(tj, st, g, compute + tp + ep)
        compute += sum(moe)
    z3 = 0.0
    if lay.zero >= 3 and tj.zero3_fetch_s:  # DeepSpeed ZeRO-3's host work per module, part of the compute
        z3 = zero3_host_seconds(tj, st, compute - moe[1] + tp + ep)  # the host's waits are not GPU work
        compute += z3
    if tj.ckpt_offload_min:  # checkpointed layer inputs back from host memory before their recompute
        compute += checkpoint_copy_seconds(tj, st, g)
    dh = 0.0
    if tj.dense_host_s and not tj.shape.moe:  # a dense layer's launches from Python, part of the compute
        dh = dense_host_seconds(tj, st, compute - z3 + tp + ep)
        compute += dh
    if st.cp_count:  # ring attention, half of it hidden behind the attention it feeds
        cp = st.cp_count * _alltoall(g, st.cp_bytes, lay.cp, min(lay.cp, max(1, per_node // lay.tp))) * 0.5
    bubble = st.bubble * (compute + tp + ep + cp + pp)
    dp = 0.0
    if lay.dp > 1:
        traffic, dp = _dp_seconds(tj, st, g, compute)
        dp += dp_contention(st, g, traffic - dp)
    optimizer = offload = 0.0
    if lay.offload != "none":  # offload_seconds: the optimizer on the host, weights over PCIe
        offload = offload_seconds(st.opt_params, lay, g, compute, st.fetched, st.host)
        if C.updates_on_gpu(g.offload_on_gpu, lay.offload):  # the state back on the GPU: the update runs there
            optimizer = st.opt_params * g.opt_bytes / g.mem_bw
    else:
        optimizer = st.opt_params * g.opt_bytes / g.mem_bw
    return compute, tp, pp, bubble, dp, ep, cp, optimizer, offload, *moe, z3, dh


def moe_seconds(tj: TrainingJob, st: Static, g: GpuRates, gpu_s: float) -> tuple[float, float]:
    """Seconds an MoE model's layers add to a step beyond their experts' GEMMs and the all-to-all, ``gpu_s`` being
    the step's GPU work without them (compute, the exposed tensor-parallel and all-to-all time): (the memory passes
    between the GEMMs, the GPU's wait for the host's launches).

    * passes: every routed token row (tokens x top-k) costs :func:`compute.moe_pass_bytes` at the achievable
      memory bandwidth, a forward's share again for a recomputed layer;
    * host: Megatron-Core's dropless dispatcher hands the grouped GEMM its per-expert token counts as a host list
      (Transformer Engine's GroupedLinear takes ``m_splits`` as a Python list and loops over the local experts for
      their weight casts, one GEMM launch each for the forward, the input gradient and the weight gradient, and a
      gradient buffer each: transformer_engine/pytorch/module/grouped_linear.py), so each MoE layer's forward waits
      for the GPU's routing before the host can launch its experts, and the host's work for a layer grows with the
      experts a GPU holds (runtime.yaml training.moe_dispatch: seconds per local expert a micro-batch, scaled to the
      job's own steps: lora_host_ops), beside the calls a layer makes whatever its expert count
      (:func:`layer_host_seconds`); a recomputed layer makes its forward's steps again (``tj.moe_host_forward``
      of them, not the half of its passes). A layer's
      micro-batch takes the longer of its GPU work and that host time: a micro-batch large enough hides the host,
      a small one over many local experts waits on it; on transformers before v5, whose MoE block loops over its
      experts in Python, :func:`loop_wait_seconds`."""
    lay, shape = st.layout, tj.shape
    moe_layers = getattr(shape, "moe_layers", shape.layers)
    again = 1.0 + lay.recompute_share / 2  # a recomputed layer repeats its forward, half of the layer's passes
    act = 4.0 if tj.precision == "fp32" else 2.0
    rows = st.tokens * moe_layers / lay.gpus * shape.experts_per_token
    passes = rows * C.moe_pass_bytes(shape, tj.precision == "fp8", act) / g.mem_bw * again
    wait = 0.0
    if g.moe_host_s:
        layer = _layer_micro_seconds(lay, shape.layers, gpu_s + passes)
        host = (shape.experts / lay.ep * g.moe_host_s * (1.0 + lay.recompute_share * tj.moe_host_forward)
                + layer_host_seconds(tj, lay.recompute_share))
        wait = lay.grad_accum * math.ceil(moe_layers / lay.pp) * max(0.0, host - layer)
    if tj.moe_loop_s:
        wait += loop_wait_seconds(tj, st, gpu_s + passes)
    return passes, wait


def layer_host_seconds(tj: TrainingJob, recompute_share: float) -> float:
    """Host seconds an MoE layer's micro-batch takes whatever the experts a GPU holds (runtime.yaml
    training.moe_dispatch layer_host_ops: the calls its forward and backward make, each at an eager operator's host
    time; a recomputed layer makes its forward's again); 0 where the knowledge counts none."""
    md = tj.runtime.training.moe_dispatch
    ops = md.layer_host_ops if md is not None else None
    if ops is None:
        return 0.0
    return (ops.forward * (1.0 + recompute_share) + ops.backward) * ops.us_per_op * 1e-6


def checkpoint_copy_seconds(tj: TrainingJob, st: Static, g: GpuRates) -> float:
    """Seconds a step waits for a recomputed layer's input to come back from host memory (runtime.yaml
    training.checkpoint_offload). Unsloth's checkpointing (unsloth_zoo gradient_checkpointing.py,
    UnslothCheckpointFunction) copies each layer's input to pinned host memory on a side stream beside the layer's
    forward, which waits for it only at the layer's end (hidden behind the forward), and copies it back before the
    recompute with the side stream waiting for the compute stream first and the compute stream for it: in the
    backward the copy runs between two layers' work, at the host link's rate. The last layer's input stays on the
    GPU, and so does one of min_elements or fewer."""
    lay = st.layout
    elements = lay.micro_batch * tj.seq / lay.cp * tj.shape.hidden
    if not lay.recompute_share or elements <= tj.ckpt_offload_min or not g.pcie_gb_s:
        return 0.0
    act = 4.0 if tj.precision == "fp32" else 2.0
    copied = max(0, math.ceil(tj.shape.layers / lay.pp) - 1) * lay.recompute_share
    return lay.grad_accum * copied * elements * act / (g.pcie_gb_s * 1e9)


def dense_host_seconds(tj: TrainingJob, st: Static, gpu_s: float) -> float:
    """Seconds a step of a dense model waits for the host to launch its layers' kernels, ``gpu_s`` being the step's
    GPU work (runtime.yaml training.dense_layer_host: kernels a layer's forward and backward launch from Python, a
    recomputed layer's forward again, at the host time a launch takes). Unsloth reads the packed sequences' longest
    length back to the host in every layer's attention (unsloth/utils/packing.py get_packed_info_from_kwargs:
    ``.item()``), so the host cannot launch ahead of the GPU by more than a layer: a layer's micro-batch takes the
    longer of its GPU work and its launches. A large model's layer hides the host; a small one on a fast GPU waits
    on it."""
    lay = st.layout
    fwd, bwd = tj.dense_host_s
    host = fwd * (1.0 + lay.recompute_share) + bwd
    layer = _layer_micro_seconds(lay, tj.shape.layers, gpu_s)
    return lay.grad_accum * math.ceil(tj.shape.layers / lay.pp) * max(0.0, host - layer)


def expert_share(shape: Any) -> float:
    """The routed experts' share of an MoE layer's GEMM work: k experts' matrices a token against the layer's
    weights (attention, the k experts, the shared experts, the router, a LatentMoE model's two projections); a
    LatentMoE model's routed experts are latent wide (:attr:`Shape.expert_width`)."""
    k_w = shape.experts_per_token * shape.mlp_matrices * shape.expert_width * shape.ffn
    layer_w = (shape.attn_params_per_layer() + k_w + shape.shared_experts * shape.mlp_matrices * shape.hidden
               * shape.ffn + shape.hidden * shape.experts + shape.latent_proj_params)
    return k_w / layer_w


def loop_wait_seconds(tj: TrainingJob, st: Static, gpu_s: float) -> float:
    """Seconds a step waits on transformers v4's Python loop over an MoE layer's experts, ``gpu_s`` being the step's
    GPU work (runtime.yaml training.moe_dispatch transformers_loop). Each expert the GPU holds costs the host its
    forward's operators (again for a recomputed layer) and its backward's, at an eager operator's host time; the
    forward's torch.where waits for the GPU once an expert, so the host cannot launch ahead of the layer's other
    work and its loop is set against the routed experts' own GEMM time (:func:`expert_share` of the layer's). Under
    ZeRO-3 the same host also runs each expert's parameter fetches (zero3_host_seconds, which charges their wait):
    only what the loop adds beyond them is charged here."""
    lay, shape = st.layout, tj.shape
    fwd, bwd = tj.moe_loop_s
    local = shape.experts / lay.ep
    loop = local * (fwd * (1.0 + lay.recompute_share) + bwd)
    experts_gpu = _layer_micro_seconds(lay, shape.layers, gpu_s) * expert_share(shape)
    fetch = (local * shape.mlp_matrices * (tj.zero3_fetch_s * (2.0 + lay.recompute_share)
                                           + _hooked_params(tj)[1] * zero3_hook(tj, lay))
             if lay.zero >= 3 else 0.0)
    wait = max(0.0, fetch + loop - experts_gpu) - max(0.0, fetch - experts_gpu)
    return lay.grad_accum * math.ceil(shape.moe_layers / lay.pp) * wait


def zero3_host_seconds(tj: TrainingJob, st: Static, gpu_s: float) -> float:
    """Seconds a step waits for DeepSpeed ZeRO-3's host work per module, ``gpu_s`` being the step's GPU work.

    ZeRO-3 hooks every module that holds parameters and fetches it through its parameter coordinator each time a
    pass reaches it: the forward, the backward and, for a recomputed layer, the forward again. Each fetch costs the
    host runtime.yaml training.zero3_module_fetch beyond the gather's bytes, and the coordinator keeps at most two
    fetches in flight before it waits on the GPU, so the host cannot bank time on a large module for the small ones
    after it: a module takes the longer of its GPU work and the host's. In the backward the same host runs each
    trainable parameter's gradient hook: the copy into the reduce bucket, a slice a rank, the partition's copy back
    (:func:`zero3_hook`, :func:`_hooked_params`). A layer is counted as two groups: its
    attention projections, two norms and (dense) its MLP's matrices, or (MoE) the router and the shared expert's
    matrices, against the layer's GPU time less its experts' share; and an MoE layer's routed experts, each
    expert's matrices a module (no leaf module set), against the experts' share of the GEMMs (k of the E experts'
    weights a token); from transformers v5 a layer's experts are one module holding stacked weights
    (``tj.zero3_experts_one_module``), one fetch a pass. A long micro-batch hides the host (an 8K-token dense layer
    is milliseconds of GPU work a module); one short example a micro-batch, or many small experts, waits on it.
    The gathers themselves stay in the data-parallel term: with every expert routed tokens the module order repeats
    each micro-batch, so the coordinator's trace holds and prefetches them (runtime.yaml zero3_module_fetch)."""
    lay, shape = st.layout, tj.shape
    h = tj.zero3_fetch_s * (2.0 + lay.recompute_share)  # forward, backward, the recomputed forward
    g = zero3_hook(tj, lay)  # the backward's gradient hook, a trainable parameter
    attn, linear, norms = _hooked_params(tj)
    layer_gpu = _layer_micro_seconds(lay, shape.layers, gpu_s)
    mats = shape.mlp_matrices
    moe_layers = shape.moe_layers if shape.moe else 0
    dense = max(0.0, (4 + 2 + mats) * h + (attn + norms + mats * linear) * g - layer_gpu)
    routed = 0.0
    if moe_layers:
        share = expert_share(shape)
        shared = mats if shape.shared_experts else 0
        others = max(0.0, (4 + 2 + 1 + shared) * h + (attn + norms + (1 + shared) * linear) * g
                     - layer_gpu * (1 - share))
        if tj.zero3_experts_one_module:  # v5: one module, its two stacked weights (gate_up_proj, down_proj)
            expert_host = h + (0 if tj.method != "full" else 2) * g  # PEFT's all-linear adapts Linear modules only
        else:  # v4: a module per expert matrix
            expert_host = shape.experts / lay.ep * mats * (h + linear * g)
        experts = max(0.0, expert_host - layer_gpu * share)
        routed = (others + experts) * moe_layers
    return lay.grad_accum * (dense * (shape.layers - moe_layers) + routed) / lay.pp


def _hooked_params(tj: TrainingJob) -> tuple[int, int, int]:
    """Trainable parameters ZeRO-3 hooks in a layer's backward: (attention's, an MLP or expert Linear's, the norms').
    Full training: each module's weight (biases not counted); LoRA: an A and a B on each Linear its targets adapt."""
    if tj.method == "full":
        return 4, 1, 2
    every = tj.lora_targets == "all-linear"
    return 2 * (2 if tj.lora_targets == "qv" else 4), 2 if every else 0, 0


def zero3_hook(tj: TrainingJob, lay: Layout) -> float:
    """Host seconds DeepSpeed ZeRO-3's gradient hook takes for one parameter in a micro-batch's backward, over the
    ranks of its ZeRO group (runtime.yaml training.zero3_module_fetch grad_hook; 0 on a stack without it)."""
    if not tj.zero3_hook_s:
        return 0.0
    fixed, per_rank = tj.zero3_hook_s
    return fixed + per_rank * lay.shard_group


def _layer_micro_seconds(lay: Layout, layers: int, gpu_s: float) -> float:
    """One layer's micro-batch of the step's ``gpu_s`` seconds of GPU work, on the busiest pipeline stage (the
    model's ``layers`` over the stages, rounded up): what a per-layer host cost is set against."""
    return gpu_s / (lay.grad_accum * math.ceil(layers / lay.pp))
