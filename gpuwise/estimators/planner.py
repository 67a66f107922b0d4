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
(interconnect.ring_seconds), hidden behind that micro-batch's forward and backward (up to
runtime.yaml's comm_overlap_fraction of each). Wall time = steps x step / goodput (restarts grow
with the GPU count). The planner chooses the fastest layout whose busiest GPU fits in the usable memory; pins
(the user's explicit settings) restrict the search. Everything here is numbers and short
notations; the words are the reports' business.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..inputs.shape import Shape
from ..knowledge.schema import Gpu, RuntimeFile
from . import Term
from . import compute as C
from . import interconnect as I
from . import memory as M

ACT_BYTES = 2.0  # bf16 activations exchanged by TP, PP, EP and CP


@dataclass(frozen=True)
class Layout:
    """One way to lay a training job over ``tp x pp x dp`` GPUs (``dp`` includes the ``cp`` and
    ``ep`` GPUs carved out of it)."""

    tp: int = 1
    pp: int = 1
    dp: int = 1
    ep: int = 1
    cp: int = 1
    micro_batch: int = 1
    grad_accum: int = 1
    global_batch_tokens: int = 0
    zero: int = 0
    checkpointing: bool = False
    offload: str = "none"
    interleave: int = 1

    @property
    def gpus(self) -> int:
        return self.tp * self.pp * self.dp

    @property
    def replicas(self) -> int:
        """Model replicas that see different data: data-parallel GPUs over context-parallel ones."""
        return max(1, self.dp // self.cp)

    def notation(self) -> str:
        """Short form, e.g. ``TP8 PP4 DP16 EP8 ZeRO-1 ckpt``."""
        parts = [f"TP{self.tp}", f"PP{self.pp}" + (f"x{self.interleave}" if self.interleave > 1 else ""),
                 f"DP{self.dp}"]
        if self.ep > 1:
            parts.append(f"EP{self.ep}")
        if self.cp > 1:
            parts.append(f"CP{self.cp}")
        parts.append(f"ZeRO-{self.zero}")
        if self.checkpointing:
            parts.append("ckpt")
        if self.offload != "none":
            parts.append(f"offload-{self.offload}")
        return " ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        return {"tp": self.tp, "pp": self.pp, "dp": self.dp, "ep": self.ep, "cp": self.cp,
                "micro_batch": self.micro_batch, "grad_accum": self.grad_accum,
                "global_batch_tokens": self.global_batch_tokens, "zero": self.zero,
                "checkpointing": self.checkpointing, "offload": self.offload, "interleave": self.interleave}


@dataclass(frozen=True)
class Pins:
    """Parts of the layout the user fixed (``None``: gpuwise chooses)."""

    tp: int | None = None
    pp: int | None = None
    ep: int | None = None
    cp: int | None = None
    zero: int | None = None
    checkpointing: bool | None = None
    offload: str | None = None

    @property
    def any(self) -> bool:
        return any(v is not None for v in (self.tp, self.pp, self.ep, self.cp, self.zero, self.checkpointing,
                                           self.offload))

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass
class TrainingJob:
    """What the planner needs from a resolved job; built once per job (``memo`` caches layouts,
    whose memory does not depend on the GPU)."""

    shape: Shape
    method: str
    precision: str  # fp32 | fp16 | bf16 | fp8: the compute precision
    mixed: bool
    optimizer: str
    micro_batch: int
    seq: int
    attention: str
    tokens: float
    global_batch_tokens: float
    runtime: RuntimeFile
    lora_rank: int = 16
    lora_targets: str = "all-linear"
    base_format: str | None = None
    ce_chunks: int = 0
    stack_efficiency: float = 1.0  # the training stack's speed relative to the calibrated middle
    batch_per_gpu: float = 0.0  # a default pretraining batch: at least this many tokens per GPU...
    batch_max: float = math.inf  # ...up to this many (0: the batch is the user's, kept as given)
    memo: dict = field(default_factory=dict)

    def batch_tokens(self, n: int) -> float:
        """Tokens per optimizer step on ``n`` GPUs: the given or size-based batch, or on a cluster large
        enough, ``batch_per_gpu`` for every GPU up to ``batch_max`` (published practice grows the batch
        with the cluster: runtime.yaml training.pretrain_tokens_per_gpu)."""
        if self.batch_per_gpu <= 0:
            return self.global_batch_tokens
        return max(self.global_batch_tokens, min(self.batch_max, self.batch_per_gpu * n))

    def flops_per_token(self, checkpointing: bool) -> float:
        key = ("fpt", checkpointing)
        if key not in self.memo:
            self.memo[key] = C.training_flops(self.shape, 1.0, self.seq, self.method, checkpointing).value
        return self.memo[key]

    def setup(self, lay: Layout) -> M.TrainSetup:
        inflight = min(lay.pp, lay.grad_accum) * (1 + (lay.pp - 1) / (lay.pp * lay.interleave)
                                                  if lay.interleave > 1 else 1.0)
        return M.TrainSetup(
            method=self.method, precision=self.precision, mixed=self.mixed, optimizer=self.optimizer,  # type: ignore[arg-type]
            batch=lay.micro_batch, seq=self.seq, checkpointing=lay.checkpointing, attention=self.attention,
            zero=lay.zero, offload=lay.offload, dp=lay.dp // lay.cp if lay.cp > 1 else lay.dp,
            lora_rank=self.lora_rank, lora_targets=self.lora_targets, tp=lay.tp, pp=lay.pp, ep=lay.ep,
            cp=lay.cp, inflight=float(max(1.0, inflight)), base_format=self.base_format, ce_chunks=self.ce_chunks,
            bucket_bytes=self.runtime.training.bucket_bytes.value)

    def memory(self, lay: Layout) -> M.MemoryEstimate:
        """The memory of a layout with the formula behind each figure (memoised)."""
        key = ("mem", lay)
        if key not in self.memo:
            rt = self.runtime
            self.memo[key] = M.training_memory(self.shape, self.setup(lay), quant=rt.quantization,
                                               overhead=(rt.cuda_context_bytes.value,
                                                         rt.allocator_overhead_fraction.value))
        return self.memo[key]


@dataclass(frozen=True)
class Static:
    """The GPU-independent figures of a layout: memory and the traffic of one optimizer step."""

    layout: Layout
    per_gpu: float  # bytes at the peak, overhead included
    host: float  # bytes per GPU offloaded to host RAM / NVMe
    flops: float  # per GPU per optimizer step
    tokens: float  # per optimizer step, all GPUs
    tp_bytes: float  # one TP collective (all-reduce equivalent), per GPU
    tp_count: float  # TP collectives per GPU per step
    pp_bytes: float
    pp_count: float
    bubble: float
    grad_dense: float  # gradient bytes of the GPU's dense / expert parameters (unsharded)
    grad_expert: float
    weight_dense: float  # weight bytes ZeRO gathers
    weight_expert: float
    ep_bytes: float  # bytes one GPU sends in one MoE all-to-all
    ep_count: float
    cp_bytes: float
    cp_count: float
    opt_params: float  # parameters whose optimizer step this GPU runs
    trainable: float
    ckpt: bool = False


@dataclass(frozen=True)
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
                "offload_s": self.offload, "step_s": self.total}


@dataclass(frozen=True)
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
    dp_traffic: dict[str, float] = field(default_factory=dict)  # dp_traffic(): all, hidden, exposed

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
    powers of two that divide the data-parallel GPUs and the experts, context parallel for long
    sequences. Pinned parts are taken as given."""
    key = ("splits", n, per_node, tp_domain, pins)
    if key in tj.memo:
        return tj.memo[key]
    shape = tj.shape
    tps = [pins.tp] if pins.tp else [t for t in I.powers_of_two(max(1, min(tp_domain, per_node)))
                                     if shape.heads % t == 0]
    cps = [pins.cp] if pins.cp else [1] + [c for c in (2, 4, 8) if tj.seq // c >= 4096]
    out = []
    for tp in tps:
        if n % tp:
            continue
        for cp in cps:
            if (n // tp) % cp:
                continue
            pps = [pins.pp] if pins.pp else _divisors(n // (tp * cp), min(shape.layers, 64))
            for pp in pps:
                if (n // tp) % (pp * cp):
                    continue
                dp = n // (tp * pp)
                if shape.moe:
                    eps = [pins.ep] if pins.ep else [e for e in _powers(min(shape.experts, dp)) if dp % e == 0
                                                     and shape.experts % e == 0]
                else:
                    eps = [1]
                for ep in eps:
                    if dp % ep:
                        continue
                    out.append((tp, pp, cp, ep))
    tj.memo[key] = out
    return out


def _rungs(tj: TrainingJob, dp: int, pp: int, pins: Pins) -> tuple[list[tuple[int, bool, str]],
                                                                   list[tuple[int, bool, str]]]:
    """Memory-saving steps in order of cost: ZeRO stages, then checkpointing with them; and apart,
    offload (ZeRO-Offload / FSDP CPU offload), tried only when nothing else fits."""
    if pins.zero is not None:
        if pp > 1 and pins.zero >= 2:  # ZeRO-2/3 shard what pipeline stages keep: no framework combines them
            return [], []
        zeros = [pins.zero]
    elif dp <= 1:
        zeros = [0]
    elif pp > 1:  # Megatron's distributed optimizer (ZeRO-1) is what pipelines run with
        zeros = [1]
    else:  # ZeRO-1 moves what plain data parallelism moves and holds less: it replaces ZeRO-0
        zeros = [1, 2, 3]
    ckpts = [pins.checkpointing] if pins.checkpointing is not None else [False, True]
    plain = [(z, ck, pins.offload or "none") for ck in ckpts for z in zeros]
    off: list[tuple[int, bool, str]] = []
    if pins.offload is None and tj.method == "full" and pins.zero != 0:  # offload needs ZeRO
        z_off = [pins.zero] if pins.zero is not None else ([1, 3] if pp == 1 and dp > 1 else [1])
        off = [(z, ck, "cpu") for ck in ckpts for z in z_off]
    return plain, off


def _static(tj: TrainingJob, lay: Layout) -> Static:
    """Memory and per-step traffic of a layout (memoised: they do not depend on the GPU)."""
    key = ("static", lay)
    got = tj.memo.get(key)
    if got is not None:
        return got
    shape, rt = tj.shape, tj.runtime
    s = tj.setup(lay)
    if s.model_parallel:  # the figures of M.parallel_training_memory, without its formulas
        b = M.parallel_bytes(shape, s, rt.quantization)
        over = (rt.cuda_context_bytes.value, rt.allocator_overhead_fraction.value)
        per_gpu, host = M.total_bytes(b.tensors, b.tensors, over), b.host
        dense, expert, gb, wb = b.dense, b.expert, b.grad_b, b.weight_b
    else:
        est = tj.memory(lay)
        per_gpu, host = est.per_gpu, est.host_bytes
        dense, expert = est.local_params
        gb, wb = est.grad_bytes_per_param, est.weight_bytes_per_param
    lora = tj.method != "full"
    trainable = M.lora_adapter_params(shape, tj.lora_rank, tj.lora_targets) if lora else shape.params
    if lora:  # only the adapters' gradients travel; ZeRO-3 gathers the frozen base
        adapters = trainable / (lay.tp * lay.pp)
        grad_dense, grad_expert = adapters * 4.0, 0.0
    else:
        grad_dense, grad_expert = dense * gb, expert * gb
    tokens = float(lay.replicas * lay.micro_batch * tj.seq * lay.grad_accum)
    flops = tj.flops_per_token(lay.checkpointing) * tokens / lay.gpus
    layers_stage = math.ceil(shape.layers / lay.pp)
    mb_tokens = lay.micro_batch * tj.seq / lay.cp
    per_layer_colls = 4 + (2 if lay.checkpointing else 0)
    tp_bytes = mb_tokens * shape.hidden * ACT_BYTES if lay.tp > 1 else 0.0
    tp_count = layers_stage * lay.grad_accum * per_layer_colls if lay.tp > 1 else 0.0
    pp_bytes = mb_tokens * shape.hidden * ACT_BYTES / lay.tp if lay.pp > 1 else 0.0
    pp_count = 2.0 * lay.grad_accum * lay.interleave if lay.pp > 1 else 0.0
    bubble = (lay.pp - 1) / (lay.grad_accum * lay.interleave) if lay.pp > 1 else 0.0
    ep_bytes = ep_count = 0.0
    if shape.moe and lay.ep > 1:
        moe_layers = getattr(shape, "moe_layers", shape.layers)
        ep_bytes = mb_tokens / lay.tp * shape.experts_per_token * shape.hidden * ACT_BYTES
        ep_count = math.ceil(moe_layers / lay.pp) * lay.grad_accum * per_layer_colls
    cp_bytes = cp_count = 0.0
    if lay.cp > 1:  # ring attention: K and V chunks pass around the ring, forward and backward (x2)
        cp_bytes = 2 * shape.kv_dim * mb_tokens * ACT_BYTES * (lay.cp - 1) / lay.tp
        cp_count = layers_stage * lay.grad_accum * 3
    opt_params = (dense + expert) if not lora else trainable / (lay.tp * lay.pp)
    if lay.zero >= 1:
        dpc = max(1, lay.dp)
        opt_params = (dense / dpc + expert / max(1.0, dpc / lay.ep)) if not lora else opt_params / dpc
    st = Static(lay, per_gpu, host, flops, tokens, tp_bytes, tp_count, pp_bytes, pp_count, bubble, grad_dense,
                grad_expert, dense * wb, expert * wb, ep_bytes, ep_count, cp_bytes, cp_count, opt_params, trainable,
                lay.checkpointing)
    tj.memo[key] = st
    return st


@dataclass(frozen=True)
class GpuRates:
    """What a GPU type and its links contribute to step time, as per-byte and per-FLOP costs."""

    flops: float  # achieved FLOP/s in compute (peak x MFU x FP8 speed-up)
    mfu: Term
    topo: I.Topology
    intra: float  # bytes/s per GPU inside a node (switched fabrics; efficiency applied)
    mesh: float  # bytes/s of one peer link of a point-to-point mesh (0: switched)
    net_bw: float  # bytes/s per GPU across nodes
    intra_lat: float  # seconds per ring step inside a node / across nodes
    net_lat: float
    dp_overlap: float
    tp_exposed: float
    ep_exposed: float
    mem_bw: float  # bytes/s achievable (optimizer step)
    opt_bytes: float
    pcie_gb_s: float
    host_gb_s_per_gpu: float
    nvme_gb_s_per_gpu: float
    cpu_adam_params_per_s_per_gpu: float


def _gpu_speed(tj: TrainingJob, gpu: Gpu) -> tuple[float, Term]:
    """FLOP/s a GPU reaches in this job's compute and the MFU behind it (memoised per GPU)."""
    key = ("speed", gpu.id)
    got = tj.memo.get(key)
    if got is None:
        rt = tj.runtime
        f = rt.training
        precision = tj.precision if tj.precision in ("fp32", "fp16") else "bf16"
        peak = C.peak_for(gpu, precision)
        arch = rt.mfu[gpu.architecture].value if gpu.architecture in rt.mfu else 0.3
        mfu = C.training_mfu(tj.shape, gpu, arch, peak.tflops, reference_hidden=f.mfu_reference_hidden.value,
                             k=f.mfu_memory_bound_k.value)
        speed = 1.0
        if tj.precision == "fp8" and gpu.peaks.fp8:
            speed = C.fp8_speedup(tj.shape, gpu, peak.tflops, gemm_speedup=f.fp8_gemm_speedup.value,
                                  k=f.mfu_memory_bound_k.value).value
        got = tj.memo[key] = (peak.tflops * 1e12 * mfu.value * speed * tj.stack_efficiency, mfu)
    return got


def fewest_gpus_in_time(tj: TrainingJob, gpu: Gpu, hours: float) -> float:
    """A lower bound on how many GPUs of this type can finish the job within ``hours``: the model's
    FLOPs (no recomputation) at the GPU's full training rate, with nothing else in a step (no
    communication, bubble, optimizer or offload time) and no failures. Every layout's wall time is
    at least that, so fewer GPUs are certainly late. inf when no time is left, 0 when unknown."""
    if hours <= 0:
        return math.inf
    rate, _mfu = _gpu_speed(tj, gpu)
    if rate <= 0:
        return 0.0
    return tj.flops_per_token(False) * tj.tokens / rate / 3600 / hours


def gpu_rates(tj: TrainingJob, gpu: Gpu, topo: I.Topology) -> GpuRates:
    key = ("rates", gpu.id, topo.per_node, topo.nodes, topo.intra_gb_s, topo.network_gb_s, topo.mesh_link_gb_s)
    got = tj.memo.get(key)
    if got is None:
        got = tj.memo[key] = _gpu_rates(tj, gpu, topo)
    return got


def _gpu_rates(tj: TrainingJob, gpu: Gpu, topo: I.Topology) -> GpuRates:
    rt = tj.runtime
    flops, mfu = _gpu_speed(tj, gpu)
    eff = rt.link_efficiency.value
    intra = topo.intra_gb_s * 1e9 * eff if topo.per_node > 1 else float("inf")
    mesh = topo.mesh_link_gb_s * 1e9 * eff
    net = topo.network_gb_s_per_gpu * 1e9 * eff if topo.nodes > 1 else float("inf")
    gen = str(gpu.link.pcie_gen)
    pcie = rt.pcie_gb_s[gen].value if gen in rt.pcie_gb_s else 31.5
    f = rt.training
    return GpuRates(flops, mfu, topo, intra, mesh, net, 5e-6, topo.network_latency_us * 1e-6,
                    rt.comm_overlap_fraction.value, 1 - f.tp_comm_overlap.value, 1 - f.ep_comm_overlap.value,
                    gpu.memory.bandwidth_gb_s * 1e9 * rt.decode_bandwidth_efficiency.value,
                    f.optimizer_bytes_per_param.value, pcie, rt.host_memory_gb_s.value / topo.per_node,
                    rt.nvme_gb_s.value / topo.per_node,
                    rt.cpu_adam_params_per_s_per_core.value * rt.host_cores_per_gpu.value)


def offload_seconds(p: float, lay: Layout, g: GpuRates) -> float:
    """Seconds an optimizer step spends on offloaded state, for ``p`` parameters a GPU owns
    (ZeRO-Offload, ZeRO-Infinity, FSDP CPU offload):

    * 16-bit gradients to the host every micro-batch and 16-bit weights back once: 2 B x micro-
      batches + 2 B per parameter over PCIe;
    * parameter offload (ZeRO-3 / FSDP with offload_params): the GPU's shard of 16-bit weights
      crosses PCIe again for every micro-batch's forward and backward: + 4 B x micro-batches;
    * Adam on the host: the slower of the cores (CPU Adam's measured rate per core x the cores
      per GPU) and memory (~28 B of traffic per parameter);
    * NVMe (ZeRO-Infinity): the 16 B of fp32 state per parameter read and written at the drives'
      bandwidth (32 B).
    """
    pcie = g.pcie_gb_s * 1e9
    moved = p * 2 * lay.grad_accum + p * 2
    if lay.zero >= 3:
        moved += p * 4 * lay.grad_accum
    adam = max(p / g.cpu_adam_params_per_s_per_gpu, p * 28 / (g.host_gb_s_per_gpu * 1e9))
    nvme = p * 32 / (g.nvme_gb_s_per_gpu * 1e9) if lay.offload == "nvme" else 0.0
    return moved / pcie + adam + nvme


def _allreduce(g: GpuRates, nbytes: float, n: int, local: int) -> float:
    """:func:`interconnect.allreduce_group_seconds` with the GPU's bandwidths looked up once."""
    if n <= 1 or nbytes <= 0:
        return 0.0
    t = 0.0
    if local > 1:
        bw = g.mesh * (local - 1) if g.mesh else g.intra
        t = 2 * (local - 1) / local * nbytes / bw + 2 * (local - 1) * g.intra_lat
    m = n // local
    if m > 1:
        t += 2 * (m - 1) / m * (nbytes / local) / g.net_bw + 2 * (m - 1) * g.net_lat
    return t


def _alltoall(g: GpuRates, nbytes: float, n: int, local: int) -> float:
    """:func:`interconnect.alltoall_seconds` with the GPU's bandwidths looked up once."""
    if n <= 1 or nbytes <= 0:
        return 0.0
    intra = nbytes * (local - 1) / n / (g.mesh * (local - 1) if g.mesh else g.intra) if local > 1 else 0.0
    inter = nbytes * (n - local) / n / g.net_bw if n > local else 0.0
    return max(intra, inter) + (local - 1) * g.intra_lat + (g.net_lat if n > local else 0.0)


def step_time(tj: TrainingJob, st: Static, g: GpuRates) -> StepTime:
    """Seconds of one optimizer step of layout ``st`` on a GPU with rates ``g``."""
    return StepTime(*_step_parts(tj, st, g))


def _step_parts(tj: TrainingJob, st: Static, g: GpuRates) -> tuple[float, ...]:
    """:func:`step_time` as a plain tuple (the search times many layouts and keeps one)."""
    lay, topo = st.layout, g.topo
    compute = st.flops / g.flops
    per_node = topo.per_node
    tp = pp = ep = cp = 0.0
    if st.tp_count:  # tensor parallel: inside the node (a TP group spanning nodes goes over the network)
        tp = st.tp_count * _allreduce(g, st.tp_bytes, lay.tp, min(lay.tp, per_node)) * g.tp_exposed
    if st.pp_count:  # pipeline sends: once stages span nodes the slowest boundary sets the pace
        if topo.nodes > 1:
            pp = st.pp_count * (st.pp_bytes / g.net_bw + g.net_lat)
        else:
            pp = st.pp_count * (st.pp_bytes / (g.mesh or g.intra) + g.intra_lat)
    if st.ep_count:  # expert all-to-all: EP ranks are tp x cp GPUs apart
        local = min(lay.ep, max(1, per_node // (lay.tp * lay.cp)))
        ep = st.ep_count * _alltoall(g, st.ep_bytes, lay.ep, local) * g.ep_exposed
    if st.cp_count:  # ring attention, half of it hidden behind the attention it feeds
        cp = st.cp_count * _alltoall(g, st.cp_bytes, lay.cp, min(lay.cp, max(1, per_node // lay.tp))) * 0.5
    bubble = st.bubble * (compute + tp + ep + cp + pp)
    dp = _dp_seconds(tj, st, g, compute)[1] if lay.dp > 1 else 0.0
    optimizer = offload = 0.0
    if lay.offload != "none":  # offload_seconds: the optimizer on the host, weights over PCIe
        offload = offload_seconds(st.opt_params, lay, g)
    else:
        optimizer = st.opt_params * g.opt_bytes / g.mem_bw
    return compute, tp, pp, bubble, dp, ep, cp, optimizer, offload


def _dp_seconds(tj: TrainingJob, st: Static, g: GpuRates, compute: float) -> tuple[float, float]:
    """(all data-parallel traffic of a step, the part of it compute does not hide), in seconds.

    DP ranks are tp GPUs apart (cp and dp are both in lay.dp). ZeRO-0 all-reduces gradients once per
    step behind the last micro-batch's backward; ZeRO-1 reduce-scatters gradients and all-gathers
    weights once per step; ZeRO-2 reduce-scatters gradients every micro-batch. ZeRO-3 / FSDP
    FULL_SHARD, every micro-batch: weights all-gathered layer by layer in the forward pass (hidden
    behind the forward's compute, up to the overlap fraction) and again in the backward pass with
    the gradients reduce-scattered (hidden behind the backward's, recomputation included), each a
    flat ring over all the data-parallel GPUs (interconnect.ring_seconds)."""
    lay, per_node = st.layout, g.topo.per_node
    if lay.dp <= 1:
        return 0.0, 0.0
    local = min(lay.dp, max(1, per_node // lay.tp))
    dpe = max(1, lay.dp // lay.ep)
    local_e = min(dpe, max(1, per_node // (lay.tp * lay.ep)))
    if lay.zero >= 3:
        gather, scatter, micro, forward = _zero3_parts(tj, st, g, compute, local, dpe, local_e)
        exposed = (max(0.0, gather - g.dp_overlap * forward)
                   + max(0.0, gather + scatter - g.dp_overlap * (micro - forward)))
        return lay.grad_accum * (2 * gather + scatter), lay.grad_accum * exposed
    g_ar = _allreduce(g, st.grad_dense, lay.dp, local) + _allreduce(g, st.grad_expert, dpe, local_e)
    if lay.zero == 0 or tj.method != "full":
        traffic, window = g_ar, compute / lay.grad_accum * 2 / 3
    else:
        w_ar = _allreduce(g, st.weight_dense, lay.dp, local) + _allreduce(g, st.weight_expert, dpe, local_e)
        if lay.zero == 1:  # reduce-scatter gradients, all-gather weights, once per step
            traffic, window = 0.5 * g_ar + 0.5 * w_ar, compute / lay.grad_accum
        else:  # ZeRO-2: gradients reduce-scattered every micro-batch
            traffic, window = lay.grad_accum * 0.5 * g_ar + 0.5 * w_ar, compute
    return traffic, max(0.0, traffic - g.dp_overlap * window)


def _zero3_parts(tj: TrainingJob, st: Static, g: GpuRates, compute: float, local: int, dpe: int, local_e: int
                 ) -> tuple[float, float, float, float]:
    """One micro-batch of ZeRO-3: (seconds of one all-gather of the weights, of one reduce-scatter
    of the gradients, of the micro-batch's compute, of its forward pass). Each is cut into one
    collective per layer."""
    lay = st.layout
    layers = math.ceil(tj.shape.layers / lay.pp)
    gather = _ring(g, st.weight_dense, lay.dp, local, layers) + _ring(g, st.weight_expert, dpe, local_e, layers)
    scatter = _ring(g, st.grad_dense, lay.dp, local, layers) + _ring(g, st.grad_expert, dpe, local_e, layers)
    micro = compute / lay.grad_accum
    forward = micro * tj.flops_per_token(False) / 3 / tj.flops_per_token(lay.checkpointing)
    return gather, scatter, micro, forward


def dp_traffic(tj: TrainingJob, st: Static, g: GpuRates, compute: float) -> dict[str, float]:
    """The data-parallel traffic of a step for the report: all of it, the part compute hides and
    the part it does not, and for ZeRO-3 one micro-batch's collectives and the windows hiding them."""
    traffic, exposed = _dp_seconds(tj, st, g, compute)
    out = {"traffic_s": traffic, "hidden_s": traffic - exposed, "exposed_s": exposed, "overlap": g.dp_overlap}
    lay = st.layout
    if lay.zero >= 3 and lay.dp > 1:
        per_node = g.topo.per_node
        local = min(lay.dp, max(1, per_node // lay.tp))
        dpe = max(1, lay.dp // lay.ep)
        gather, scatter, micro, forward = _zero3_parts(tj, st, g, compute, local, dpe,
                                                       min(dpe, max(1, per_node // (lay.tp * lay.ep))))
        out.update({"micro_batches": lay.grad_accum, "gather_s": gather, "reduce_scatter_s": scatter,
                    "micro_batch_compute_s": micro, "forward_s": forward,
                    "weight_bytes": st.weight_dense + st.weight_expert,
                    "gradient_bytes": st.grad_dense + st.grad_expert, "dp": lay.dp, "gpus_per_node": local,
                    "bytes_per_gpu": (lay.dp - 1) / lay.dp * (st.weight_dense + st.weight_expert),
                    "network_bytes_per_gpu": ((lay.dp - 1) / lay.dp * (st.weight_dense + st.weight_expert) / local
                                              if lay.dp > local else 0.0)})
    return out


def _ring(g: GpuRates, nbytes: float, n: int, local: int, steps: int) -> float:
    """:func:`interconnect.ring_seconds` with the GPU's bandwidths looked up once."""
    if n <= 1 or nbytes <= 0:
        return 0.0
    volume = (n - 1) / n * nbytes
    bw = (g.mesh * (local - 1) if g.mesh else g.intra) if local > 1 else math.inf
    if n <= local:
        return volume / bw + steps * (n - 1) * g.intra_lat
    return max(volume * (local - 1) / local / bw, volume / local / g.net_bw) + steps * (n - 1) * g.net_lat


def _layout(tj: TrainingJob, n: int, tp: int, pp: int, cp: int, ep: int, v: int, rung: tuple[int, bool, str]
            ) -> Layout:
    dp = n // (tp * pp)
    replicas = dp // cp
    per_step = tj.micro_batch * tj.seq * replicas
    ga = max(1, math.ceil(tj.batch_tokens(n) / per_step))
    if v > 1 and ga % pp:  # the interleaved schedule runs micro-batches in groups of pp
        ga = math.ceil(ga / pp) * pp
    zero, ck, off = rung
    return Layout(tp, pp, dp, ep, cp, tj.micro_batch, ga, int(ga * per_step), zero, ck, off, v)


class _Group:
    """One split (tp, pp, cp, ep, interleave) and its rungs. ``bound`` is the FLOPs of its cheapest
    rung x (1 + bubble): no layout of the group can take less than bound / FLOP-rate seconds. The
    layouts' memory and traffic are built the first time a GPU needs them (they do not depend on
    the GPU)."""

    __slots__ = ("_statics", "bound", "n", "rungs", "split", "tj")

    def __init__(self, tj: TrainingJob, n: int, split: tuple[int, int, int, int, int],
                 rungs: list[tuple[int, bool, str]]):
        self.tj, self.n, self.split, self.rungs = tj, n, split, rungs
        tp, pp, cp, ep, v = split
        lay = _layout(tj, n, tp, pp, cp, ep, v, rungs[0])
        tokens = lay.replicas * lay.micro_batch * tj.seq * lay.grad_accum
        bubble = (pp - 1) / (lay.grad_accum * v) if pp > 1 else 0.0
        self.bound = tj.flops_per_token(rungs[0][1]) * tokens / n * (1 + bubble)
        self._statics: list[Static | None] = [None] * len(rungs)

    def static(self, i: int) -> Static:
        st = self._statics[i]
        if st is None:
            tp, pp, cp, ep, v = self.split
            st = self._statics[i] = _static(self.tj, _layout(self.tj, self.n, tp, pp, cp, ep, v, self.rungs[i]))
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
            for g in self.offload if offload else self.groups:
                tp, pp, cp, ep, v = g.split
                if v != 1:
                    continue
                if tp not in deepest or (pp, cp, ep) > deepest[tp].split[1:4]:
                    deepest[tp] = g
                if pp == 1 and (tp not in flat or (cp, ep) > flat[tp].split[2:4]):
                    flat[tp] = g
            cands = [g.most_frugal() for g in (*deepest.values(), *flat.values())]
            self._frugal[offload] = min(cands, key=lambda st: st.per_gpu) if cands else None
        return self._frugal[offload]


def _search(tj: TrainingJob, n: int, per_node: int, tp_domain: int, pins: Pins) -> _Search:
    key = ("search", n, per_node, tp_domain, pins)
    got = tj.memo.get(key)
    if got is not None:
        return got
    groups: list[_Group] = []
    offload: list[_Group] = []
    for tp, pp, cp, ep in splits(tj, n, per_node, tp_domain, pins):
        dp = n // (tp * pp)
        plain, off = _rungs(tj, dp, pp, pins)
        if not plain and not off:
            continue
        for v in [1] + [v for v in (2, 4) if pp > 1 and tj.shape.layers >= 2 * pp * v]:
            if v == 2:  # interleaving only pays where the 1F1B bubble is worth cutting
                ga = _layout(tj, n, tp, pp, cp, ep, 1, plain[0] if plain else off[0]).grad_accum
                if (pp - 1) / ga < 0.05:
                    break
            if plain:
                groups.append(_Group(tj, n, (tp, pp, cp, ep, v), plain))
            if off:
                offload.append(_Group(tj, n, (tp, pp, cp, ep, v), off))
    # the pins may rule everything out (e.g. ZeRO-3 with pipeline stages): then they are dropped
    got = _Search(groups, offload) if groups or offload else _search(tj, n, per_node, tp_domain, Pins())
    tj.memo[key] = got
    return got


def _best(tj: TrainingJob, groups: tuple[_Group, ...], rates: GpuRates, usable: float
          ) -> tuple[tuple[Static, StepTime] | None, int]:
    """The fastest fitting layout of ``groups`` (in order of their lower bound). Within a group only
    the first fitting rung without and with checkpointing can win: later rungs only add cost."""
    best_t = math.inf
    best: tuple[Static, tuple[float, ...]] | None = None
    tried = 0
    rate = rates.flops
    intra, mesh, tp_exposed = rates.intra, rates.mesh, rates.tp_exposed
    per_node = rates.topo.per_node
    for group in groups:
        if group.bound / rate >= best_t:
            break  # every later group is bounded above this one
        seen_plain = seen_ckpt = False
        built = group._statics
        for i in range(len(built)):
            st = built[i] or group.static(i)
            if st.per_gpu > usable:
                continue
            if st.ckpt:
                if seen_ckpt:
                    continue
                seen_ckpt = True
            elif seen_plain:
                continue
            else:
                seen_plain = True
            bound = st.flops / rate
            k = min(st.layout.tp, per_node)
            if st.tp_count and k > 1:  # a ring all-reduce moves at least its bytes once per GPU
                bound += st.tp_count * st.tp_bytes / (mesh * (k - 1) if mesh else intra) * tp_exposed
            if bound * (1 + st.bubble) >= best_t:
                continue
            parts = _step_parts(tj, st, rates)
            tried += 1
            total = sum(parts)
            if total < best_t:
                best_t, best = total, (st, parts)
    if best is None:
        return None, tried
    return (best[0], StepTime(*best[1])), tried


def fits_at_all(tj: TrainingJob, n: int, topo: I.Topology, usable: float, pins: Pins = Pins()) -> bool:
    """Whether any layout of ``n`` GPUs, with any settings (offload included), needs at most
    ``usable`` bytes on its busiest GPU: what :func:`plan` calls fitting, without timing a layout,
    under the user's ``pins`` or with none (a candidate fits either way: a pinned ZeRO-3 on one GPU
    may offload parameters the unpinned search does not try). The layouts' memory does not depend
    on the GPU type, so across a catalog this costs one comparison per GPU type after the first."""
    return least_per_gpu(tj, n, topo, pins) <= usable


def least_per_gpu(tj: TrainingJob, n: int, topo: I.Topology, pins: Pins = Pins()) -> float:
    """The least memory the busiest GPU of any layout of ``n`` GPUs needs, with any settings
    (offload included), under the user's ``pins`` or with none (inf when no layout exists): the
    raw figure :func:`fits_at_all` compares and the memory rules judge (a server's worth of GPUs
    in the job fact)."""
    least = math.inf
    for p in (Pins(), pins) if pins.any else (Pins(),):
        search = _search(tj, n, topo.per_node, topo.tp_domain, p)
        for st in (search.frugal(False), search.frugal(True)):
            if st is not None:
                least = min(least, st.per_gpu)
    return least


def plan(tj: TrainingJob, gpu: Gpu, n: int, topo: I.Topology, usable: float, pins: Pins = Pins()) -> Plan:
    """The fastest layout of ``n`` GPUs whose busiest GPU needs at most ``usable`` bytes (or, when
    none fits, the one needing the least memory), honouring ``pins``; offload only when nothing
    else fits."""
    search = _search(tj, n, topo.per_node, topo.tp_domain, pins)
    rates = gpu_rates(tj, gpu, topo)
    best, tried = None, 0
    frugal_plain = search.frugal(False)
    if frugal_plain is not None and frugal_plain.per_gpu <= usable:
        best, tried = _best(tj, search.groups, rates, usable)
    frugal_off = search.frugal(True) if best is None else None
    if best is None and frugal_off is not None and frugal_off.per_gpu <= usable:
        best, more = _best(tj, search.offload, rates, usable)
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
    return Plan(st.layout, tj.memory(st.layout), t, fits, st.per_gpu, steps, wall_h, wall_h * n, eff, gp,
                rates.mfu, rates.flops, tried, dp_traffic(tj, st, rates, t.compute))


def evaluate_layout(tj: TrainingJob, gpu: Gpu, n: int, topo: I.Topology, usable: float, lay: Layout) -> Plan:
    """One given layout (no search): its memory, step time and totals."""
    rates = gpu_rates(tj, gpu, topo)
    st = _static(tj, lay)
    t = step_time(tj, st, rates)
    return _finish(tj, gpu, n, st, t, rates, st.per_gpu <= usable, 1)


def terms(plan_: Plan, tj: TrainingJob) -> dict[str, Term]:
    """The plan's figures as Terms for the report: step time by cause, totals, efficiency."""
    lay, s = plan_.layout, plan_.step
    inputs = {**lay.as_dict(), **{k: v for k, v in s.as_dict().items()}}
    out = {
        "mfu": plan_.mfu,
        "step_time": Term("step_seconds", s.total, "s",
                          "(compute + TP + EP + CP + PP sends) x (1 + bubble) + exposed DP + optimizer (+ offload)",
                          inputs),
        "pp_bubble": Term("pp_bubble_fraction", (lay.pp - 1) / (lay.grad_accum * lay.interleave) if lay.pp > 1
                          else 0.0, "", "(pp - 1) / (micro-batches x interleave)",
                          {"pp": lay.pp, "micro_batches": lay.grad_accum, "interleave": lay.interleave}),
        "scaling_efficiency": Term("scaling_efficiency", plan_.scaling_efficiency, "",
                                   "(compute + optimizer) / step time", inputs),
        "dp_traffic": _dp_term(plan_, tj.method),
        "goodput": Term("goodput", plan_.goodput, "", "1 / (1 + GPUs x failures per GPU-hour x hours lost)",
                        {"gpus": lay.gpus}),
        "steps": Term("optimizer_steps", plan_.steps, "", "train tokens / tokens per step",
                      {"train_tokens": tj.tokens, "tokens_per_step": lay.global_batch_tokens}),
        "wall_hours": Term("wall_hours", plan_.wall_hours, "h", "steps x step time / goodput / 3600",
                           {"steps": plan_.steps, "step_s": s.total, "goodput": plan_.goodput}),
        "gpu_hours": Term("gpu_hours", plan_.gpu_hours, "GPU-h", "wall hours x GPUs",
                          {"wall_hours": plan_.wall_hours, "gpus": lay.gpus}),
    }
    return out


def _dp_term(plan_: Plan, method: str) -> Term:
    """The data-parallel traffic of a step as a Term: all of it, with the hidden and exposed parts."""
    d, lay = plan_.dp_traffic, plan_.layout
    if lay.dp <= 1:
        formula = "no data-parallel traffic"
    elif lay.zero >= 3:
        formula = ("micro-batches x (weights all-gather forward + weights all-gather backward + gradients "
                   "reduce-scatter backward), each (dp-1)/dp x bytes per GPU over the slower link; hidden up to "
                   "overlap x forward, overlap x backward")
    elif lay.zero == 0 or method != "full":
        formula = "gradients all-reduce once per step; hidden up to overlap x backward / micro-batches"
    elif lay.zero == 2:
        formula = "micro-batches x gradients reduce-scatter + weights all-gather; hidden up to overlap x compute"
    else:
        formula = ("gradients reduce-scatter + weights all-gather once per step; hidden up to overlap x compute / "
                   "micro-batches")
    return Term("dp_traffic_seconds", d.get("traffic_s", 0.0), "s", formula, dict(d))
