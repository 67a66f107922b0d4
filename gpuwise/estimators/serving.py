"""Serving: how many sequences fit, how fast a batch steps, and what a service delivers at a load.

The model (the roofline analyses of "How to Scale Your Model", inference chapter, and LLM-Viewer,
applied per operator and per GPU):

* **Capacity.** Each GPU keeps ``1 - memory_headroom_fraction`` of its memory; weights (its share),
  the CUDA context, the allocator allowance and one prefill chunk's working set come off the top;
  the rest is paged KV cache. A sequence occupies whole blocks for its prompt + output (frameworks
  that reserve at admission) or, on average, prompt + half the output (frameworks that admit on
  current length and preempt). Tensor parallelism divides a sequence's KV by ``min(tp, kv_heads)``
  (MLA's compressed cache has one "head": every rank holds it all); attention data parallelism gives
  each rank its own sequences. Sliding-window layers keep at most the window.
* **A step** of continuous batching decodes one token for each of ``b`` sequences and carries
  ``b x prompt/output`` prompt tokens (chunked prefill), so prefill and decode share the GPUs:

      step = pp x [ max(weight bytes / (BW x f), GEMM FLOPs / (peak x e))        (linear layers)
                  + max(KV bytes / (BW x f), attention FLOPs / (peak x e))       (attention)
                  + all-reduces + all-to-alls + layers/pp x layer overhead ] + step overhead

  per GPU, with ``f``, ``e`` and the overheads from the framework (``knowledge/serving.yaml``). MoE
  layers read only the experts the step's tokens route to: ``E x (1 - (1 - k/E)^tokens)`` of them,
  as an operator of their own whose GEMMs run on whole 64-row tiles (an expert given a few tokens
  costs a tile). Host work per running sequence adds to every step.
  Pipelined engines keep ``pp`` micro-batches in flight; layer-split engines (llama.cpp, ExLlama,
  transformers' device_map) run one GPU at a time, so more GPUs add memory, not speed.
* **At a load** of ``c`` concurrent requests spread over the replicas: TPOT = step time,
  throughput = sequences / TPOT, TTFT = the prompt's chunks x the step they ride in, plus, beyond
  the memory's limit, the wait for a free slot (Little's law in a closed loop).

Everything here is a pure function of the job, the GPU and the framework; ``choose`` picks the
layout (tensor / pipeline / expert parallel, replicas) for a GPU count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..knowledge.schema import Gpu
from ..knowledge.schema.serving import Framework, FrameworkPrecision
from . import GiB, Term, usable_fraction
from . import compute as C
from . import memory as M
from .interconnect import GPUS_PER_NODE, link_bandwidth

ACT_BYTES = 2.0  # activations exchanged between GPUs are 16-bit
# Kernels a layer runs beyond a dense GQA layer's (whose fixed cost is the framework's layer overhead),
# each charged the framework's kernel floor: the latency floor of MoE, MLA and W8A8 layers.
ROUTER_KERNELS = 4  # router GEMM, top-k (soft-max / sigmoid + bias), token sort/alignment, weighted combine
SHARED_EXPERT_KERNELS = 3  # the shared expert's gate/up and down GEMMs and its activation, beside the routed ones
MLA_EXTRA_KERNELS = 6  # q down-projection + norm, latent norm, the absorbed q/v batched GEMMs, split-KV combine
QUANT_KERNELS_DENSE = 4  # W8A8: the activations of qkv, o, gate/up and down are quantized before each GEMM
QUANT_KERNELS_MOE = 2  # ... and before each grouped expert GEMM
QUANT_KERNELS_MLA = 2  # ... and before MLA's extra projections
W8A8 = ("fp8", "int8")  # Blackwell FP4 MoE kernels fuse the activation quantization (FlashInfer TRT-LLM-gen)

# reason codes for a framework that cannot serve (ev.numbers["framework_reason"])
REASONS = {
    "ok": "the framework runs this precision on this GPU",
    "gpu_vendor": "the framework does not run on this GPU vendor",
    "gpu_compute_capability": "the GPU is older than the framework's CUDA build supports",
    "precision_unsupported": "the framework cannot load this precision",
    "precision_vendor": "the framework's kernels for this precision do not exist for this GPU vendor",
    "precision_compute_capability": "the framework's kernels for this precision need a newer GPU",
    "precision_hardware": "this precision needs tensor-core units the GPU lacks",
    "multi_node": "one model copy would span nodes and the framework runs on one machine only",
}


# ----------------------------------------------------------------------------- requests
def request_lengths(w: Any) -> tuple[int, int]:
    """(prompt, output) tokens of one request; the schema fills them in (see Workload)."""
    prompt = w.prompt_tokens or max(1, w.context_len - max(1, w.context_len // 2))
    output = w.output_tokens or max(1, w.context_len // 2)
    return int(prompt), int(output)


# ------------------------------------------------------------------------------- support
@dataclass(frozen=True)
class Support:
    """Can ``framework`` run ``precision`` on ``gpu``: the facts the rules read."""

    gpu_ok: bool
    precision_ok: bool
    multi_node_ok: bool
    reason: str
    detail: str
    compute: str  # the matmul precision actually used ("bf16" for a weight-only fallback)
    weight_only: bool = False

    @property
    def ok(self) -> bool:
        return self.gpu_ok and self.precision_ok and self.multi_node_ok


def _cc(gpu: Gpu) -> float | None:
    return float(gpu.compute_capability) if gpu.compute_capability else None


def has_units(gpu: Gpu, kind: str) -> bool:
    """Whether ``gpu`` has a hardware path for matmuls in ``kind``."""
    p = gpu.peaks
    if kind == "fp32":
        return True
    if kind == "fp16":
        return bool(p.fp16 or p.fp16_nontensor)
    if kind == "bf16":
        return bool(p.bf16)
    if kind == "fp8":
        return bool(p.fp8)
    if kind == "int8":
        return bool(p.int8)
    if kind == "fp4":
        return bool(getattr(p, "fp4", None))
    return False


def peak_tflops(gpu: Gpu, kind: str) -> float:
    """Dense peak for matmuls in ``kind`` (TOPS for int8)."""
    p = gpu.peaks
    if kind == "fp8" and p.fp8:
        return float(p.fp8)
    if kind == "fp4" and getattr(p, "fp4", None):
        return float(p.fp4)  # type: ignore[attr-defined]
    if kind == "int8" and p.int8:
        return float(p.int8)
    if kind in ("fp16", "fp32"):
        return C.peak_for(gpu, kind).tflops
    return C.peak_for(gpu, "bf16").tflops


def support(fw: Framework, gpu: Gpu, precision: str, gpus_per_copy: int = 1) -> Support:
    """The first reason ``fw`` cannot serve ``precision`` on ``gpu`` (or "ok"), and the compute path."""
    cc = _cc(gpu)
    fp = fw.precisions.get(precision)  # type: ignore[call-overload]
    compute = fp.compute if fp else "bf16"
    weight_only = False
    gpu_ok, prec_ok, reason, detail = True, True, "ok", REASONS["ok"]
    if gpu.vendor not in fw.vendors:
        gpu_ok, reason = False, "gpu_vendor"
        detail = f"{fw.name} runs on {', '.join(fw.vendors)} GPUs, not {gpu.vendor}"
    elif gpu.vendor == "nvidia" and cc is not None and cc < fw.min_compute_capability:
        gpu_ok, reason = False, "gpu_compute_capability"
        detail = f"{fw.name} needs compute capability {fw.min_compute_capability:.1f}+; {gpu.name} has {cc:.1f}"
    if fp is None:
        prec_ok = False
        if reason == "ok":
            reason = "precision_unsupported"
            detail = fw.unsupported.get(precision, f"{fw.name} cannot load {precision} weights")  # type: ignore[call-overload]
    else:
        bad = None
        if fp.vendors is not None and gpu.vendor not in fp.vendors:
            bad = ("precision_vendor", f"{fw.name} has no {precision} kernels ({fp.kernel}) for {gpu.vendor} GPUs")
        elif gpu.vendor == "nvidia" and cc is not None and fp.min_compute_capability and cc < fp.min_compute_capability:
            bad = ("precision_compute_capability", f"{fw.name} {precision} ({fp.kernel}) needs compute capability "
                   f"{fp.min_compute_capability:.1f}+; {gpu.name} has {cc:.1f}")
        elif not has_units(gpu, fp.compute):
            if fp.fallback_compute and has_units(gpu, fp.fallback_compute):
                compute, weight_only = fp.fallback_compute, True
            else:
                bad = ("precision_hardware", f"{fw.name} {precision} needs {fp.compute.upper()} tensor cores; "
                       f"{gpu.name} has none")
        if bad:
            prec_ok = False
            if reason == "ok":
                reason, detail = bad
    multi_ok = fw.multi_node or gpus_per_copy <= GPUS_PER_NODE
    if not multi_ok and reason == "ok":
        reason = "multi_node"
        detail = (f"one copy of the model needs {gpus_per_copy} GPUs, more than one {GPUS_PER_NODE}-GPU node, "
                  f"and {fw.name} runs on one machine")
    return Support(gpu_ok, prec_ok, multi_ok, reason, detail, compute, weight_only)


# -------------------------------------------------------------------------------- engine
@dataclass(frozen=True)
class Engine:
    """A framework resolved for one job on one GPU type: every constant of the step formula."""

    fw: Framework
    gpu_id: str
    precision: str
    fp: FrameworkPrecision | None
    weight_format: str
    bw_fraction: float  # achieved fraction of datasheet bandwidth (vendor override applied)
    compute_eff: float  # fraction of the dense peak at the compute bound (vendor override applied)
    compute: str
    weight_only: bool
    peak_gemm: float  # FLOP/s of matmuls, x efficiency x compute factor
    peak_attn: float  # FLOP/s of attention (16-bit), x efficiency
    bw_weights: float  # B/s streaming weights
    bw_kv: float  # B/s streaming the KV cache
    step_overhead: float  # s
    layer_overhead: float  # s per layer
    seq_overhead: float  # s per running sequence per step
    allreduce_latency: float  # s
    kernel_floor: float  # s per extra small kernel (MoE routing, MLA, activation quantization)
    grouped_floor: float  # s per grouped expert GEMM launched
    alltoall_latency: float  # s per expert-parallel dispatch or combine
    expert_tile: int  # rows of the smallest expert GEMM tile
    kv_bytes: float  # per cached element
    max_batch: int  # the framework's default batch limit on this GPU
    batch_cap: int  # the most a tuned deployment batches (the default when it is a hard limit)
    chunk: int
    usable: float  # bytes per GPU after the headroom policy
    context_bytes: float
    alloc_frac: float
    mbytes: ModelBytes
    sc: ShapeConsts


def engine(job: Any, gpu: Gpu, framework: str | None = None, weight_format: str | None = None) -> Engine:
    """The framework's constants for this job on ``gpu`` (memoised per job). ``weight_format``
    replaces the framework's usual format for the precision (a measured file's own, e.g. GGUF Q4_0)."""
    key = ("serving-engine", gpu.id, framework, weight_format)
    got = job.memo.get(key)
    if got is None:
        got = job.memo[key] = _engine(job, gpu, framework, weight_format)
    return got


FP4_FORMATS = ("mxfp4", "nvfp4")
"""The FP4 weight formats of serving.yaml; a checkpoint shipped in one is served in it."""


def format_of(job: Any, fw: Framework) -> str:
    """The weight format ``fw`` serves the job's precision in: the framework's format for it, except
    that an FP4 checkpoint (gpt-oss ships MXFP4) is served as it ships, not requantised."""
    precision = job.w.precision
    fp = fw.precisions.get(precision)  # type: ignore[call-overload]
    fmt = fp.format if fp else (precision if precision in ("fp32", "fp16", "bf16") else "bf16")
    model = job.kb.models.get(job.model_id) if job.model_id else None
    shipped = model.checkpoint_precision if model is not None else None
    return shipped if (precision == "fp4" and fmt in FP4_FORMATS and shipped in FP4_FORMATS) else fmt


def _engine(job: Any, gpu: Gpu, framework: str | None, weight_format: str | None) -> Engine:
    kb, w = job.kb, job.w
    fw = kb.framework(framework or getattr(w, "framework", None))
    precision = w.precision
    fp = fw.precisions.get(precision)  # type: ignore[call-overload]
    sup = support(fw, gpu, precision)
    fmt = weight_format or format_of(job, fw)
    vo = fw.vendor_overrides.get(gpu.vendor)  # type: ignore[call-overload]
    mo = fw.memory_overrides.get(memory_kind(gpu))  # type: ignore[call-overload]

    def pick(name: str) -> float:
        for o in (mo, vo):
            own = getattr(o, name, None) if o is not None else None
            if own is not None:
                return float(own)
        return float(getattr(fw, name).value)

    eff = pick("compute_efficiency")
    cf = fp.compute_factor if fp else 1.0
    bwf = pick("bandwidth_fraction")
    mem_bw = gpu.memory.bandwidth_gb_s * 1e9
    kv_b = kv_element_bytes(w, fp)
    cap = capacity_bytes(gpu)
    mb = fw.max_batch
    max_batch = mb.default
    if mb.large_gpu and mb.large_gpu_min_gib and cap >= mb.large_gpu_min_gib * GiB:
        max_batch = mb.large_gpu
    rt = kb.runtime
    return Engine(
        fw=fw, gpu_id=gpu.id, precision=precision, fp=fp, weight_format=fmt, bw_fraction=bwf, compute_eff=eff,
        compute=sup.compute, weight_only=sup.weight_only,
        peak_gemm=peak_tflops(gpu, sup.compute) * 1e12 * eff * cf,
        peak_attn=peak_tflops(gpu, "fp32" if sup.compute == "fp32" else "bf16") * 1e12 * eff,
        bw_weights=mem_bw * bwf * (fp.bandwidth_factor if fp else 1.0), bw_kv=mem_bw * bwf,
        step_overhead=pick("step_overhead_us") * 1e-6,
        layer_overhead=(pick("layer_overhead_us") + (fp.extra_layer_overhead_us if fp else 0.0)) * 1e-6,
        seq_overhead=pick("sequence_overhead_us") * 1e-6,
        allreduce_latency=pick("allreduce_latency_us") * 1e-6, kernel_floor=pick("kernel_floor_us") * 1e-6,
        grouped_floor=pick("grouped_gemm_floor_us") * 1e-6, alltoall_latency=pick("alltoall_latency_us") * 1e-6,
        expert_tile=fw.expert_tile_tokens, kv_bytes=kv_b, max_batch=max_batch,
        batch_cap=max(max_batch, mb.limit or max_batch),
        chunk=fw.prefill_chunk_tokens,
        usable=cap * usable_fraction(kb),
        context_bytes=rt.cuda_context_bytes.value, alloc_frac=rt.allocator_overhead_fraction.value,
        mbytes=model_bytes(job.shape, fmt, quant_formats(kb)), sc=shape_consts(job.shape),
    )


def kv_element_bytes(w: Any, fp: FrameworkPrecision | None) -> float:
    """Bytes per cached K/V element: the workload's ``kv_precision``, else the framework's default."""
    kv = getattr(w, "kv_precision", "auto")
    if kv == "fp8":
        return 1.0
    if kv in ("bf16", "fp16"):
        return 2.0
    return fp.kv_cache_bytes if fp else 2.0


def prefill_tokens(w: Any, prompt: int) -> float:
    """Prompt tokens a request prefills: the part the prefix cache does not already hold."""
    return max(1.0, prompt * (1.0 - float(getattr(w, "prefix_cache_hit_rate", 0.0) or 0.0)))


def memory_kind(gpu: Gpu) -> str:
    """"hbm" or "gddr" (the memory technology the framework's kernels meet), else "other"."""
    t = (gpu.memory.type or "").lower()
    return "hbm" if t.startswith("hbm") else "gddr" if t.startswith("gddr") else "other"


def capacity_bytes(gpu: Gpu) -> float:
    if gpu.memory.smi_mib:
        return gpu.memory.smi_mib * 1024 * 1024
    return gpu.memory.gb * 1e9


def quant_formats(kb: Any) -> dict:
    """runtime.yaml's quantization formats plus serving.yaml's."""
    out = dict(kb.runtime.quantization)
    if getattr(kb, "serving", None) is not None:
        out.update(kb.serving.formats)
    return out


# ---------------------------------------------------------------------------- the model
@dataclass(frozen=True)
class ModelBytes:
    """A model's weights in one format, split the way a decode step reads them."""

    total: float
    embed_in: float  # input embedding: a row lookup, not streamed
    experts: float  # routed experts (MoE)
    linear_bytes_per_param: float

    @property
    def non_expert(self) -> float:
        return self.total - self.experts

    @property
    def dense_read(self) -> float:
        return self.total - self.embed_in - self.experts


def model_bytes(shape: Any, fmt: str, quant: dict) -> ModelBytes:
    total = M.weight_bytes(shape, fmt, quant).value
    if fmt in M.BYTES and fmt in ("fp32", "fp16", "bf16"):
        lin = float(M.BYTES[fmt])
        emb_b = lin
    else:
        q = quant[fmt]
        lin = q.bits_per_weight / 8
        emb_b = 2.0 if "embeddings" in q.keeps_16bit else lin
    embed_in = 0.0 if shape.tied else shape.embedding_params * emb_b
    return ModelBytes(total, embed_in, M.routed_expert_params(shape) * lin, lin)


@dataclass(frozen=True)
class ShapeConsts:
    """The shape figures a step needs, read once (the step runs thousands of times per recommendation)."""

    n_active: float  # parameters a token multiplies through
    n_experts_active: float  # of which in routed experts (k of E per MoE layer)
    attn_width: float
    layers: int
    hidden: int
    moe: bool
    k_over_e: float
    k: int
    moe_layers: int
    shared: bool  # MoE layers have a shared expert
    mla: bool  # multi-head latent attention
    window: float | None  # sliding window, when some layers have one
    window_frac: float


def shape_consts(shape: Any) -> ShapeConsts:
    win = getattr(shape, "attention_window", None)
    frac = getattr(shape, "window_layers_fraction", None)
    return ShapeConsts(
        n_active=float(shape.matmul_params_active),
        n_experts_active=M.routed_expert_params(shape) * shape.experts_per_token / shape.experts if shape.moe else 0.0,
        attn_width=attention_width(shape), layers=shape.layers,
        hidden=shape.hidden, moe=bool(shape.moe), k_over_e=shape.experts_per_token / shape.experts,
        k=shape.experts_per_token, moe_layers=moe_layers(shape), shared=bool(getattr(shape, "shared_experts", 0)),
        mla=bool(shape.kv_elements_override), window=float(win) if win else None,
        window_frac=1.0 if frac is None else float(frac))


def _kept(sc: ShapeConsts, tokens: float) -> float:
    if sc.window is None:
        return tokens
    return (1 - sc.window_frac) * tokens + sc.window_frac * min(tokens, sc.window)


def coverage(shape: Any, tokens: float) -> float:
    """Expected fraction of a MoE layer's routed experts that ``tokens`` tokens touch."""
    if not shape.moe:
        return 1.0
    if tokens <= 0:
        return 0.0
    return 1.0 - (1.0 - shape.experts_per_token / shape.experts) ** tokens


def kv_per_token(shape: Any, kv_bytes: float) -> float:
    """KV-cache bytes one token adds across all layers (MLA: its compressed width)."""
    return M.kv_cache_bytes(shape, 1, kv_bytes).value


kv_heads_effective = M.kv_heads_effective
window_tokens = M.window_tokens


def moe_layers(shape: Any) -> int:
    """Layers with routed experts (the shape's own count when it knows its MoE layout)."""
    if not shape.moe:
        return 0
    known = getattr(shape, "moe_layers", None)
    if isinstance(known, int):
        return known
    return max(shape.layers - int(getattr(shape, "first_dense_layers", 0) or 0), 0)


def attention_width(shape: Any) -> float:
    """Per token, per context position and layer, attention costs 4 x this FLOPs (QK and PV).
    MLA in absorbed form works on the 576-wide latent per head."""
    if shape.kv_elements_override:
        return float(shape.heads * shape.kv_elements_override)
    return float(shape.q_dim)


# ------------------------------------------------------------------------------- layouts
@dataclass(frozen=True)
class Layout:
    """How one model copy spans GPUs, and how many copies serve side by side."""

    tp: int = 1  # tensor parallel (attention and dense layers)
    pp: int = 1  # pipeline stages (layer split)
    ep: int = 1  # expert parallel: experts spread over ep GPUs (1 = sharded like dense layers)
    dp_attention: int = 1  # attention data-parallel ranks inside one copy (with ep)
    replicas: int = 1

    @property
    def gpus_per_copy(self) -> int:
        return self.tp * self.pp * self.dp_attention

    @property
    def gpus(self) -> int:
        return self.gpus_per_copy * self.replicas

    def as_dict(self) -> dict[str, int]:
        return {"tp": self.tp, "pp": self.pp, "ep": self.ep, "dp_attention": self.dp_attention,
                "replicas": self.replicas, "gpus_per_copy": self.gpus_per_copy}

    def label(self) -> str:
        parts = []
        if self.dp_attention > 1:
            parts.append(f"attention data parallel {self.dp_attention}")
        if self.tp > 1:
            parts.append(f"tensor parallel {self.tp}")
        if self.pp > 1:
            parts.append(f"{self.pp} pipeline stages")
        if self.ep > 1:
            parts.append(f"expert parallel {self.ep}")
        copy = " + ".join(parts) or "one GPU"
        return f"{self.replicas} x ({copy})" if self.replicas > 1 else copy


def layouts(job: Any, eng: Engine, count: int) -> list[Layout]:
    """The layouts worth comparing on ``count`` GPUs: copies of 1, 2, 4... GPUs (tensor parallel
    inside a node, pipeline stages across nodes; layer split for llama.cpp-like engines) and, for
    MoE on engines with expert parallelism, attention data parallel + expert parallel copies.
    GPUs left over stay idle, so every layout of ``n`` GPUs is also one of ``n + 1``."""
    shape = job.shape
    fw = eng.fw
    out: list[Layout] = []
    g = 1
    while g <= count:
        reps = count // g
        if fw.split == "layer":
            out.append(Layout(pp=g, replicas=reps))
        else:
            tp = min(g, GPUS_PER_NODE)
            while tp > 1 and shape.heads % tp:
                tp //= 2
            pp = g // tp
            if pp == 1 or "pipeline" in fw.parallelism:
                out.append(Layout(tp=tp, pp=pp, replicas=reps))
            if shape.moe and g > 1 and {"expert", "data-attention"} <= set(fw.parallelism):
                out.append(Layout(tp=1, pp=1, ep=g, dp_attention=g, replicas=reps))
        g *= 2
    return _pinned(job, out)


def _pinned(job: Any, options: list[Layout]) -> list[Layout]:
    """Only the layouts that keep the user's ``parallelism`` pins (all of them when none match)."""
    par = getattr(job.w, "parallelism", None)
    if par is None:
        return options
    pins = {k: getattr(par, k, None) for k in ("tp", "pp", "ep")}
    keep = [lay for lay in options if all(v is None or getattr(lay, k) == v for k, v in pins.items())]
    return keep or options


# ------------------------------------------------------------------------------ replica
@dataclass(frozen=True)
class Replica:
    """One model copy on its GPUs: memory and the constants of its step."""

    layout: Layout
    weights_gpu: float  # bytes held per GPU
    act_gpu: float  # prefill working set per GPU (chunked engines)
    act_per_seq_gpu: float  # static engines: per sequence's prompt
    kv_token_gpu: float  # KV bytes per token per GPU (of a sequence the GPU holds)
    free_gpu: float  # bytes per GPU left for the KV cache
    max_seqs: int  # most sequences the copy holds at once
    seq_tokens: float  # KV tokens a sequence occupies at admission
    link_bw: float  # B/s for tensor-parallel traffic
    ep_bw: float  # B/s for expert all-to-all
    hop_bw: float  # B/s between pipeline stages
    hop_latency: float  # s
    fits: bool
    notes: tuple[str, ...] = ()


def replica(job: Any, gpu: Gpu, eng: Engine, lay: Layout) -> Replica:
    """Memory of one copy in ``lay`` and how many sequences its KV cache holds (memoised)."""
    key = ("serving-replica", gpu.id, eng.fw.id, eng.weight_format, lay.tp, lay.pp, lay.ep, lay.dp_attention)
    got = job.memo.get(key)
    if got is None:
        got = job.memo[key] = _replica(job, gpu, eng, lay)
    if got.layout.replicas != lay.replicas:
        got = Replica(**{**got.__dict__, "layout": lay})
    return got


def _replica(job: Any, gpu: Gpu, eng: Engine, lay: Layout) -> Replica:
    shape, kb = job.shape, job.kb
    prompt, output = request_lengths(job.w)
    mbytes = eng.mbytes
    tp, pp, ep, dpa = lay.tp, lay.pp, lay.ep, lay.dp_attention
    # attention data parallel: non-expert weights on every rank, experts spread over ep GPUs
    weights = mbytes.non_expert / pp + mbytes.experts / (ep * pp) if dpa > 1 else mbytes.total / (tp * pp)
    kv_tok = kv_per_token(shape, eng.kv_bytes) / pp
    if dpa == 1:
        kv_tok /= min(tp, kv_heads_effective(shape))
    ph, pf = M.PREFILL_PER_TOKEN
    scale = 2.0 if eng.compute == "fp32" else 1.0  # activations in the compute precision
    per_token_act = (ph * shape.hidden + pf * shape.ffn * max(1, shape.experts_per_token)) * scale
    logits = 4.0 * shape.vocab * min(eng.max_batch, eng.chunk) / max(tp, 1)
    fw = eng.fw
    if fw.continuous_batching:
        act = per_token_act * eng.chunk / (tp * dpa) + logits
        act_seq = 0.0
    else:
        act = 4.0 * shape.vocab  # the last position's logits per sequence, counted below
        act_seq = per_token_act * prompt / (tp * dpa) + 4.0 * shape.vocab
    # what the KV cache may take: the memory total without it (weights and the KV pool are allocated once)
    free = eng.usable - M.total_bytes(weights + act, act, (eng.context_bytes, eng.alloc_frac))
    block = fw.kv_block_tokens
    held = prompt + output if fw.kv_reserve == "full" else prompt + output / 2
    seq_tokens = math.ceil(window_tokens(shape, held) / block) * block
    per_seq = kv_tok * seq_tokens + act_seq
    per_rank = max(0, int(free // per_seq)) if free > 0 and per_seq > 0 else 0
    per_rank = min(per_rank, eng.batch_cap)
    max_seqs = per_rank * dpa
    # links: tensor parallel inside a node; pipeline stages cross nodes when a copy is larger than one
    rt = kb.runtime
    eff = rt.link_efficiency.value
    _, tp_bw, _, _ = link_bandwidth(gpu, max(tp, dpa), rt)
    link_bw = tp_bw * 1e9 * eff if math.isfinite(tp_bw) else float("inf")
    ep_bw = link_bw
    if lay.gpus_per_copy > GPUS_PER_NODE:
        net = rt.networks.get(rt.default_network_datacenter if gpu.segment in ("datacenter", "cloud-only")
                              else rt.default_network_other)
        net_bw = (net.gb_s if net else 1.25) * 1e9 * eff
        hop_bw = min(link_bw, net_bw)
        ep_bw = min(ep_bw, net_bw) if dpa > GPUS_PER_NODE else ep_bw
        hop_lat = max(eng.allreduce_latency, (net.latency_us if net else 20) * 1e-6)
    else:
        hop_bw = link_bw
        hop_lat = eng.allreduce_latency
    notes = []
    if shape.kv_elements_override and tp > 1 and dpa == 1:
        notes.append("MLA's compressed KV cache cannot be split by heads: every tensor-parallel rank holds it all")
    if dpa == 1 and tp > shape.kv_heads and not shape.kv_elements_override:
        notes.append(f"{shape.kv_heads} KV heads over {tp} GPUs: KV heads are replicated")
    fits = free > 0 and max_seqs >= 1
    return Replica(lay, weights, act, act_seq, kv_tok, free, max_seqs, seq_tokens, link_bw, ep_bw, hop_bw, hop_lat,
                   fits, tuple(notes))


# --------------------------------------------------------------------------------- step
@dataclass(frozen=True)
class Step:
    """Seconds of one step of a copy, by part (per GPU, all stages)."""

    seconds: float
    gemm: float
    attention: float
    comm: float
    overhead: float
    bound: str  # what limits the linear layers: "memory" or "compute"
    weight_bytes_gpu: float
    kv_bytes_gpu: float
    flops_gpu: float


def step(job: Any, eng: Engine, rep: Replica, decode: float, prefill: float, kv_ctx: float,
         prefill_ctx: float) -> Step:
    """One step that decodes ``decode`` sequences (mean context ``kv_ctx``) and processes ``prefill``
    prompt tokens (mean attended length ``prefill_ctx``) on one copy."""
    sc = eng.sc
    lay = rep.layout
    tp, pp, ep, dpa = lay.tp, lay.pp, lay.ep, lay.dp_attention
    m = pp if (pp > 1 and eng.fw.split == "tensor") else 1  # micro-batches in flight
    tokens = (decode + prefill) / m
    d_mb, p_mb = decode / m, prefill / m
    mbytes = eng.mbytes
    ranks = tp * dpa
    # dense linear layers (attention projections, dense/shared MLPs, head), then the routed experts:
    # separate operators, each at its own roof (the experts' few tokens each keep them memory-bound longer)
    w_gpu = mbytes.dense_read / pp / (1 if dpa > 1 else tp)
    flops = 2.0 * (sc.n_active - sc.n_experts_active) * tokens / ranks / pp
    t_mem = w_gpu / eng.bw_weights
    t_fl = flops / eng.peak_gemm
    gemm = t_mem if t_mem > t_fl else t_fl
    if sc.moe and mbytes.experts:
        cov = 1.0 - (1.0 - sc.k_over_e) ** tokens if tokens > 0 else 0.0
        w_exp = mbytes.experts / pp / (ep if ep > 1 else tp) * cov
        per_expert = tokens * sc.k_over_e / cov if cov > 0 else 0.0  # tokens each touched expert receives
        tile = eng.expert_tile
        padded = math.ceil(per_expert / tile) * tile if per_expert > 0 else 0.0
        f_exp = 2.0 * sc.n_experts_active * tokens / ranks / pp * (padded / per_expert if per_expert > 0 else 0.0)
        e_mem, e_fl = w_exp / eng.bw_weights, f_exp / eng.peak_gemm
        gemm += e_mem if e_mem > e_fl else e_fl
        w_gpu += w_exp
        flops += f_exp
        t_mem, t_fl = t_mem + e_mem, t_fl + e_fl
    layers = sc.layers / pp
    seqs_gpu = d_mb / dpa if dpa > 1 else d_mb
    kv_gpu = rep.kv_token_gpu * _kept(sc, kv_ctx) * seqs_gpu
    attn_fl = 4.0 * layers * sc.attn_width * (kv_ctx * d_mb + prefill_ctx * p_mb) / ranks
    attention = max(kv_gpu / eng.bw_kv, attn_fl / eng.peak_attn)
    comm = 0.0
    if tp > 1 and dpa == 1:
        size = tokens * sc.hidden * ACT_BYTES
        comm += 2 * layers * (eng.allreduce_latency + 2 * (tp - 1) / tp * size / rep.link_bw)
    if ep > 1:  # dispatch and combine: every token to its k experts' ranks and back
        size = 2 * (tokens / dpa) * sc.k * sc.hidden * ACT_BYTES * (ep - 1) / ep
        comm += sc.moe_layers / pp * (2 * eng.alltoall_latency + size / rep.ep_bw)
    if pp > 1:
        comm += rep.hop_latency + tokens * sc.hidden * ACT_BYTES / rep.hop_bw
    over = layers * eng.layer_overhead + floor_per_step(eng) / pp
    stage = gemm + attention + comm + over
    host = eng.step_overhead + eng.seq_overhead * (decode / dpa if dpa > 1 else decode)
    total = pp * stage + host
    return Step(total, pp * gemm, pp * attention, pp * comm, pp * over + host,
                "memory" if t_mem >= t_fl else "compute", w_gpu, kv_gpu, flops)


def floor_per_step(eng: Engine) -> float:
    """Seconds of one step's kernels beyond a dense layer's, all stages: MoE routing and the grouped
    GEMMs' fixed time per MoE layer, MLA's extra projections, and the activation quantization of W8A8
    paths, each small kernel at the framework's floor. Memoised on the engine's constants."""
    sc = eng.sc
    kernels = 0.0
    # layer-split engines (llama.cpp, ExLlama) quantize activations inside the per-layer overhead they are measured with
    w8a8 = eng.compute in W8A8 and not eng.weight_only and eng.fw.split != "layer"
    if w8a8:
        kernels += QUANT_KERNELS_DENSE * sc.layers
    if sc.mla:
        kernels += (MLA_EXTRA_KERNELS + (QUANT_KERNELS_MLA if w8a8 else 0)) * sc.layers
    grouped = 0.0
    if sc.moe and sc.moe_layers:
        per = ROUTER_KERNELS + (SHARED_EXPERT_KERNELS if sc.shared else 0) + (QUANT_KERNELS_MOE if w8a8 else 0)
        kernels += per * sc.moe_layers
        grouped = 2 * sc.moe_layers * eng.grouped_floor
    return kernels * eng.kernel_floor + grouped


# ---------------------------------------------------------------------------- at a load
@dataclass(frozen=True)
class Point:
    """A copy (or the system) at a number of concurrent requests."""

    concurrency: float
    throughput: float  # output tokens/s
    tpot: float  # s
    ttft: float  # s
    decode_step: float  # s, decode alone (one sequence's speed = 1 / this)


def point(job: Any, eng: Engine, rep: Replica, conc: float, *, pure_decode: bool = True) -> Point:
    """Steady state of one copy with ``conc`` concurrent requests (closed loop). ``pure_decode``:
    also time a decode-only step (one sequence's decode speed; skipped for curves). Memoised per
    job: a copy of the same shape is the same on 2 GPUs as on 16 (only the number of copies differs)."""
    lay = rep.layout
    key = (eng.gpu_id, eng.fw.id, eng.weight_format, lay.tp, lay.pp, lay.ep, lay.dp_attention, conc)
    cache = job.memo.setdefault("serving-points", {})
    got = cache.get(key)
    if got is None:
        got = cache[key] = _point(job, eng, rep, conc)
    return got


def _point(job: Any, eng: Engine, rep: Replica, conc: float) -> Point:
    prompt, output = request_lengths(job.w)
    cap = max(rep.max_seqs, 1)
    b = max(min(conc, cap), 1e-9)
    kv_ctx = prompt + output / 2
    fw = eng.fw
    pure = step(job, eng, rep, b, 0.0, kv_ctx, 0.0).seconds
    full_prompt, prompt = prompt, prefill_tokens(job.w, prompt)  # a cached prefix is not prefilled again
    if fw.continuous_batching:
        # Each request's prompt enters as n chunks that ride on decode steps; a chunk adds what it
        # costs beyond the decode step it joins (little for a memory-bound dense step, every expert
        # for an MoE one), and the b requests' chunks are spread over their `output` decode steps.
        room = max(eng.chunk - b, 16.0) if fw.chunked_prefill else float(prompt)
        chunk = min(float(prompt), room)
        n = math.ceil(prompt / chunk)
        joined = step(job, eng, rep, b, chunk, kv_ctx, full_prompt - prompt / 2).seconds
        tpot = pure + b / output * n * max(joined - pure, 0.0)
        thr = b / tpot
        ttft = n * step(job, eng, rep, max(b - 1, 0.0), chunk, kv_ctx, full_prompt - prompt / 2).seconds
        req_time = ttft + output * tpot
    else:  # static batches: prefill all prompts, then decode them together
        pre = step(job, eng, rep, 0.0, b * prompt, 0.0, full_prompt - prompt / 2).seconds
        tpot = pure
        cycle = pre + output * pure
        thr = b * output / cycle
        ttft = pre
        req_time = cycle
    if conc > cap:  # the rest wait for a slot: Little's law with `cap` slots
        ttft += req_time * (conc / cap - 1)
    return Point(conc, thr, tpot, ttft, pure)


def system_point(job: Any, eng: Engine, rep: Replica, conc: float, *, pure_decode: bool = True) -> Point:
    """The whole system at ``conc`` requests spread over the copies. Past the throughput peak of a
    copy the scheduler runs the peak's batch (``max_num_seqs`` set there) and the rest queue: the
    throughput saturates at the peak and only the wait grows (Little's law), rather than every
    admitted sequence slowing every step."""
    r = rep.layout.replicas
    if conc <= r:
        p = point(job, eng, rep, 1.0, pure_decode=pure_decode)
        return Point(conc, p.throughput * conc, p.tpot, p.ttft, p.decode_step)
    per = conc / r
    top = capacity_point(job, eng, rep, None, None) if rep.fits else None
    if top is not None and per > top.concurrency:
        _, output = request_lengths(job.w)
        wait = (top.ttft + output * top.tpot) * (per / top.concurrency - 1)
        return Point(conc, top.throughput * r, top.tpot, top.ttft + wait, top.decode_step)
    p = point(job, eng, rep, per, pure_decode=pure_decode)
    return Point(conc, p.throughput * r, p.tpot, p.ttft, p.decode_step)


def capacity_point(job: Any, eng: Engine, rep: Replica, max_ttft: float | None, max_tpot: float | None) -> Point | None:
    """The busiest load one copy sustains within the latency targets (None: not even one request)."""
    key = (eng.gpu_id, eng.fw.id, eng.weight_format, rep.layout.tp, rep.layout.pp, rep.layout.ep,
           rep.layout.dp_attention, max_ttft, max_tpot)
    cache = job.memo.setdefault("serving-capacity", {})
    if key in cache:
        return cache[key]

    def ok(c: float) -> bool:
        p = point(job, eng, rep, c)
        return (max_tpot is None or p.tpot <= max_tpot) and (max_ttft is None or p.ttft <= max_ttft)

    hi = max(rep.max_seqs, 1)
    if (max_tpot is None and max_ttft is None) or ok(hi):
        best = hi
    elif not ok(1):
        cache[key] = None
        return None
    else:
        lo = 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if ok(mid):
                lo = mid
            else:
                hi = mid
        best = lo
    cache[key] = peak_point(job, eng, rep, best)
    return cache[key]


def peak_point(job: Any, eng: Engine, rep: Replica, top: int) -> Point:
    """The busiest point of one copy's throughput curve between one request and ``top``: past its
    peak, more sequences cost more per step (host work, attention) than they add, so the peak can
    lie below what the memory holds. A geometric scan, then the integers around its best."""
    if top <= 1:
        return point(job, eng, rep, 1.0)
    grid = sorted({max(1, round(top ** (i / 24))) for i in range(25)} | {top})
    best = max(grid, key=lambda c: point(job, eng, rep, float(c)).throughput)
    i = grid.index(best)
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    while hi - lo > 2:  # the curve is unimodal near its top: narrow the bracket by thirds
        a, b = lo + (hi - lo) // 3, hi - (hi - lo) // 3
        if point(job, eng, rep, float(a)).throughput < point(job, eng, rep, float(b)).throughput:
            lo = a
        else:
            hi = b
    best = max(range(lo, hi + 1), key=lambda c: point(job, eng, rep, float(c)).throughput)
    return point(job, eng, rep, float(best))


# ------------------------------------------------------------------------------- choice
@dataclass
class Serving:
    """The chosen way to serve on one GPU type x count, with its numbers."""

    engine: Engine
    replica: Replica
    support: Support
    load: Point  # at the chosen load (concurrent_requests, or what the target needs)
    capacity: Point | None  # the most the memory allows within the latency targets
    single: Point  # one request alone
    max_concurrent: int
    meets_throughput: bool | None
    meets_ttft: bool | None
    meets_tpot: bool | None
    load_source: str
    alternatives: list[dict[str, Any]] = field(default_factory=list)
    best_capacity: Point | None = None  # the most any layout of this count sustains (within the targets)
    best_capacity_layout: Layout | None = None
    best_capacity_max_concurrent: int = 0

    @property
    def layout(self) -> Layout:
        return self.replica.layout


def _targets(w: Any) -> tuple[float | None, float | None, float]:
    ttft = w.max_ttft_ms / 1e3 if w.max_ttft_ms else None
    tpot = w.max_tpot_ms / 1e3 if w.max_tpot_ms else None
    return ttft, tpot, float(w.target_tokens_per_s or 0.0)


def load_concurrency(job: Any, eng: Engine, rep: Replica, cap_point: Point | None) -> tuple[float, str]:
    """The load to report: ``concurrent_requests`` when given (or when there is no throughput target);
    otherwise the fewest concurrent requests that reach ``target_tokens_per_s`` within the latency
    targets (or the most the copies sustain when none does)."""
    w = job.w
    _, _, target = _targets(w)
    given = "concurrent_requests" in w.model_fields_set
    if given or target <= 0:
        return float(w.concurrent_requests), "workload.concurrent_requests"
    r = rep.layout.replicas
    top = (cap_point.concurrency if cap_point else 1.0) * r
    if system_point(job, eng, rep, top).throughput < target:
        return top, "the most the memory and latency targets allow (the throughput target is not reached)"
    lo, hi = 1.0, top
    if system_point(job, eng, rep, lo).throughput >= target:
        return lo, "the fewest concurrent requests that reach target_tokens_per_s"
    for _ in range(40):
        if hi - lo <= 1:
            break
        mid = math.floor((lo + hi) / 2)
        if system_point(job, eng, rep, mid).throughput >= target:
            hi = mid
        else:
            lo = mid
    return float(hi), "the fewest concurrent requests that reach target_tokens_per_s"


def evaluate_layout(job: Any, gpu: Gpu, eng: Engine, lay: Layout) -> Serving:
    rep = replica(job, gpu, eng, lay)
    w = job.w
    max_ttft, max_tpot, target = _targets(w)
    cap = capacity_point(job, eng, rep, max_ttft, max_tpot) if rep.fits else None
    conc, source = load_concurrency(job, eng, rep, cap)
    load = system_point(job, eng, rep, conc)
    if not rep.fits:  # not one sequence fits beside the weights: nothing is served (latencies stay as bounds)
        load = Point(load.concurrency, 0.0, load.tpot, load.ttft, load.decode_step)
    r = lay.replicas
    capacity = None
    if cap is not None:
        capacity = Point(cap.concurrency * r, cap.throughput * r, cap.tpot, cap.ttft, cap.decode_step)
    single = point(job, eng, rep, 1.0)
    sup = support(eng.fw, gpu, w.precision, lay.gpus_per_copy)
    return Serving(
        engine=eng, replica=rep, support=sup, load=load, capacity=capacity, single=single,
        max_concurrent=rep.max_seqs * r,
        meets_throughput=(load.throughput >= target) if target > 0 else None,
        meets_ttft=(load.ttft <= max_ttft) if max_ttft is not None else None,
        meets_tpot=(load.tpot <= max_tpot) if max_tpot is not None else None,
        load_source=source,
    )


def _unserved(job: Any, gpu: Gpu, eng: Engine, lay: Layout, rep: Replica) -> Serving:
    """A layout whose copy does not fit, listed beside one that fits and runs: nothing is served,
    so nothing is timed (its latencies would be bounds nobody reads)."""
    w = job.w
    max_ttft, max_tpot, target = _targets(w)
    never = Point(float(w.concurrent_requests), 0.0, math.inf, math.inf, math.inf)
    return Serving(engine=eng, replica=rep, support=support(eng.fw, gpu, w.precision, lay.gpus_per_copy),
                   load=never, capacity=None, single=never, max_concurrent=rep.max_seqs * lay.replicas,
                   meets_throughput=False if target > 0 else None,
                   meets_ttft=False if max_ttft is not None else None,
                   meets_tpot=False if max_tpot is not None else None,
                   load_source="the copy does not fit")


def _score(s: Serving, job: Any) -> tuple:
    """Order layouts: it fits and runs; it holds the stated concurrency; latency targets met at the
    load; throughput target met; throughput at the load (or, when only a rate is asked, what the
    copies sustain); then capacity; then fewer GPUs per copy (simpler)."""
    w = job.w
    _, _, target = _targets(w)
    runs = s.replica.fits and s.support.multi_node_ok
    holds = s.max_concurrent >= w.concurrent_requests  # the stated concurrency fits in memory at once
    lat_ok = s.meets_ttft is not False and s.meets_tpot is not False
    thr_ok = s.meets_throughput is not False
    cap = s.capacity.throughput if s.capacity else 0.0
    rate_only = target > 0 and "concurrent_requests" not in w.model_fields_set
    primary = cap if rate_only else s.load.throughput
    return (runs, holds, lat_ok, thr_ok, round(primary, 6), round(cap, 6), -s.layout.gpus_per_copy)


def least_bytes(job: Any, gpu: Gpu, count: int) -> float:
    """A floor on the memory total of any layout of ``count`` GPUs: a copy spreads its weights
    over at most ``count`` GPUs, so each holds at least that share, beside its CUDA context."""
    eng = engine(job, gpu)
    return M.total_bytes(eng.mbytes.total / count, 0.0, (eng.context_bytes, eng.alloc_frac))


def surely_unfit(job: Any, gpu: Gpu, count: int) -> bool:
    """No layout of ``count`` GPUs holds the weights (:func:`least_bytes`). A test that costs
    nothing next to :func:`choose`, for a search over counts."""
    return least_bytes(job, gpu, count) >= engine(job, gpu).usable


def choose(job: Any, gpu: Gpu, count: int, *, weight_format: str | None = None) -> Serving:
    """The layout to serve with on ``count`` x ``gpu`` (memoised per job)."""
    key = ("serving-choice", gpu.id, count, weight_format)
    got = job.memo.get(key)
    if got is not None:
        return got
    eng = engine(job, gpu, weight_format=weight_format)
    lays = layouts(job, eng, count)
    reps = [replica(job, gpu, eng, lay) for lay in lays]
    # a copy that does not fit cannot be chosen over one that fits and runs: it is not timed then
    runs = any(r.fits and support(eng.fw, gpu, job.w.precision, lay.gpus_per_copy).multi_node_ok
               for lay, r in zip(lays, reps, strict=True))
    options = [evaluate_layout(job, gpu, eng, lay) if r.fits or not runs else _unserved(job, gpu, eng, lay, r)
               for lay, r in zip(lays, reps, strict=True)]
    best = max(options, key=lambda s: _score(s, job))
    top = max(options, key=lambda s: (s.replica.fits and s.support.multi_node_ok,
                                      s.capacity.throughput if s.capacity else 0.0, -s.layout.gpus_per_copy))
    best.best_capacity, best.best_capacity_layout = top.capacity, top.layout
    best.best_capacity_max_concurrent = top.max_concurrent
    best.alternatives = [
        {"layout": o.layout.as_dict(), "label": o.layout.label(), "fits": o.replica.fits,
         "throughput_tokens_per_s": o.load.throughput,
         "max_throughput_tokens_per_s": o.capacity.throughput if o.capacity else 0.0,
         "max_concurrent_sequences": o.max_concurrent}
        for o in options if o is not best]
    job.memo[key] = best
    return best


def curve(job: Any, s: Serving, points: int = 8) -> list[dict[str, float]]:
    """Throughput, TPOT and TTFT against concurrency for the chosen layout: ``points`` geometric steps
    from one request to twice what the memory holds, plus the load and the memory's limit."""
    top = max(2 * s.max_concurrent, int(s.load.concurrency), 1)
    ratio = top ** (1 / max(points - 1, 1))
    grid = {max(1, round(ratio ** i)) for i in range(points)}
    peak = int(s.capacity.concurrency) if s.capacity else None
    cs = sorted(grid | {max(1, int(s.load.concurrency)), max(1, s.max_concurrent)} | ({peak} if peak else set()))
    out = []
    for c in cs:
        p = system_point(job, s.engine, s.replica, float(c), pure_decode=False)
        out.append({"concurrency": c, "throughput_tokens_per_s": p.throughput, "tpot_s": p.tpot, "ttft_s": p.ttft})
    return out


def terms(job: Any, s: Serving) -> dict[str, Term]:
    """The chosen layout's numbers with their formulas, for reports."""
    eng, rep, lay = s.engine, s.replica, s.layout
    prompt, output = request_lengths(job.w)
    per_copy = max(s.load.concurrency / lay.replicas, 1.0)
    st = step(job, eng, rep, min(per_copy, max(rep.max_seqs, 1)), min(per_copy, max(rep.max_seqs, 1))
              * prompt / output if eng.fw.continuous_batching else 0.0, prompt + output / 2, prompt / 2)
    common = {"framework": eng.fw.id, "layout": lay.label(), "prompt_tokens": prompt, "output_tokens": output}
    b = min(per_copy, max(rep.max_seqs, 1))
    pure = step(job, eng, rep, b, 0.0, prompt + output / 2, 0.0)
    note = f"{pure.bound}-bound linear layers; {eng.fw.name}, {lay.label()}"
    decode_inputs = {**common, "sequences_per_copy": b, "linear_s": pure.gemm, "attention_s": pure.attention,
                     "communication_s": pure.comm, "overhead_s": pure.overhead, "bound": pure.bound}
    return {
        "decode": Term("decode_tokens_per_s", 1 / s.load.tpot if s.load.tpot > 0 else 0.0, "tok/s",
                       "1 / TPOT at the load: one sequence's output speed (its prompt chunks sharing the steps)",
                       {**decode_inputs, "tpot_s": s.load.tpot, "pure_decode_step_s": pure.seconds}, note=note),
        "decode_total": Term("decode_tokens_per_s_total", s.load.throughput, "tok/s",
                             "sustained output tokens/s of all copies at the load (prefill sharing the GPUs)",
                             {**common, "concurrency": s.load.concurrency, "replicas": lay.replicas}, note=note),
        "prefill": Term("prefill_tokens_per_s", prompt / s.single.ttft if s.single.ttft > 0 else 0.0, "tok/s",
                        "prompt tokens / time to first token of one request alone",
                        {**common, "ttft_s": s.single.ttft}),
        "kv_capacity": Term(
            "max_concurrent_sequences", float(s.max_concurrent), "sequences",
            "replicas x floor((usable - weights - context - working set) per GPU / KV per sequence per GPU)",
            {**common, "usable_per_gpu_bytes": eng.usable, "weights_per_gpu_bytes": rep.weights_gpu,
             "kv_free_per_gpu_bytes": rep.free_gpu, "kv_bytes_per_token_per_gpu": rep.kv_token_gpu,
             "tokens_per_sequence": rep.seq_tokens, "kv_reserve": eng.fw.kv_reserve,
             "max_batch": eng.max_batch, "replicas": lay.replicas},
            note="; ".join(rep.notes)),
        "serving_step": Term(
            "tpot_s", st.seconds, "s",
            "pp x [max(weight bytes / (BW x f), GEMM FLOPs / (peak x e)) + max(KV bytes / (BW x f), attention "
            "FLOPs / (peak x e)) + all-reduces + layers x overhead] + step overhead",
            {**common, "linear_s": st.gemm, "attention_s": st.attention, "communication_s": st.comm,
             "overhead_s": st.overhead, "bound": st.bound, "weight_bytes_per_gpu": st.weight_bytes_gpu,
             "kv_bytes_per_gpu": st.kv_bytes_gpu, "flops_per_gpu": st.flops_gpu,
             "bandwidth_fraction": eng.bw_fraction, "compute_efficiency": eng.compute_eff, "compute": eng.compute,
             "weight_format": eng.weight_format, "sequences_per_copy": per_copy}),
        "serving_throughput": Term(
            "throughput_tokens_per_s", s.load.throughput, "tok/s",
            "replicas x sequences per copy / TPOT" if eng.fw.continuous_batching
            else "replicas x batch x output tokens / (prefill + output tokens x decode step)",
            {**common, "concurrency": s.load.concurrency, "tpot_s": s.load.tpot, "ttft_s": s.load.ttft}),
    }


# ------------------------------------------------------------------------------ memory
def memory_of(job: Any, fw: Framework, lay: Layout, gpu: Gpu | None = None) -> M.MemoryEstimate:
    """Per-GPU memory of serving ``workload.concurrent_requests`` (spread over the copies) with
    ``fw`` in ``lay``: the breakdown reports show. Engines with chunked prefill hold one chunk's
    working set; static batches prefill every prompt at once."""
    w, kb = job.w, job.kb
    fp = fw.precisions.get(w.precision)  # type: ignore[call-overload]
    fmt = format_of(job, fw)
    kv_b = kv_element_bytes(w, fp)
    prompt, output = request_lengths(w)
    per_copy = max(1, math.ceil(w.concurrent_requests / max(lay.replicas, 1)))
    chunk = fw.prefill_chunk_tokens
    prefill = min(chunk, prompt * per_copy) if fw.continuous_batching else prompt * per_copy
    held = prompt + output / 2 if (fw.continuous_batching and fw.kv_reserve == "current") else prompt + output
    rt = kb.runtime
    return M.inference_memory(
        job.shape, w.precision, prompt + output, per_copy, w.attention if fw.id == "transformers" else "sdpa",
        lay.tp, quant=quant_formats(kb), overhead=(rt.cuda_context_bytes.value, rt.allocator_overhead_fraction.value),
        fmt=fmt, prompt_tokens=prompt, prefill_tokens=prefill, pp=lay.pp, ep=lay.ep, dp_attention=lay.dp_attention,
        kv_bytes=kv_b, kv_len=held)


def memory(job: Any, s: Serving) -> M.MemoryEstimate:
    """Memory per GPU of the chosen way to serve (see :func:`memory_of`)."""
    return memory_of(job, s.engine.fw, s.layout)


# ----------------------------------------------------------------------------- numbers
def numbers(job: Any, s: Serving) -> dict[str, Any]:
    """The serving facts for ``ev.numbers`` (flat, JSON-safe)."""
    w = job.w
    target = _targets(w)[2]
    prompt, output = request_lengths(w)
    lay = s.layout
    cap = s.capacity  # every figure below is of the chosen layout; the best layout at full load is apart
    best = s.best_capacity if s.best_capacity_layout is not None else s.capacity
    best_layout = s.best_capacity_layout or lay
    return {
        "framework": s.engine.fw.id,
        "framework_name": s.engine.fw.name,
        "framework_supports_gpu": s.support.gpu_ok,
        "framework_supports_precision": s.support.precision_ok,
        "framework_multi_node_ok": s.support.multi_node_ok,
        "framework_reason": s.support.reason,
        "framework_reason_detail": s.support.detail,
        "weight_format": s.engine.weight_format,
        "compute_precision": s.engine.compute,
        "weight_only_fallback": s.engine.weight_only,
        "serving_layout": lay.as_dict(),
        "serving_layout_label": lay.label(),
        "tp": lay.tp, "pp": lay.pp, "ep": lay.ep, "dp_attention": lay.dp_attention, "replicas": lay.replicas,
        "gpus_per_copy": lay.gpus_per_copy,
        "prompt_tokens": prompt, "output_tokens": output,
        "max_concurrent_sequences": s.max_concurrent,
        "framework_default_max_batch": s.engine.max_batch,
        "max_batch_raised": s.max_concurrent > s.engine.max_batch * s.layout.replicas * s.layout.dp_attention,
        "serving_fits": s.replica.fits,
        "kv_free_per_gpu_bytes": max(s.replica.free_gpu, 0.0),
        "load_concurrency": s.load.concurrency,
        "load_source": s.load_source,
        "throughput_tokens_per_s": s.load.throughput,
        "ttft_s": s.load.ttft,
        "tpot_s": s.load.tpot,
        "per_sequence_tokens_per_s": 1 / s.load.tpot if s.load.tpot > 0 and math.isfinite(s.load.tpot) else None,
        "max_throughput_tokens_per_s": cap.throughput if cap else 0.0,
        "max_throughput_concurrency": cap.concurrency if cap else 0.0,
        "max_throughput_layout": lay.as_dict(),
        "max_throughput_layout_label": lay.label(),
        "chosen_layout_max_throughput_tokens_per_s": s.capacity.throughput if s.capacity else 0.0,
        "best_layout": best_layout.as_dict(),
        "best_layout_label": best_layout.label(),
        "best_layout_max_throughput_tokens_per_s": best.throughput if best else 0.0,
        "best_layout_max_throughput_concurrency": best.concurrency if best else 0.0,
        "best_layout_max_concurrent_sequences": (s.best_capacity_max_concurrent if s.best_capacity_layout is not None
                                                 else s.max_concurrent),
        "max_throughput_ttft_s": cap.ttft if cap else None,
        "max_throughput_tpot_s": cap.tpot if cap else None,
        "single_stream_tokens_per_s": 1 / s.single.decode_step if s.single.decode_step > 0 else None,
        "single_stream_ttft_s": s.single.ttft,
        "target_tokens_per_s": target,
        "max_ttft_ms": w.max_ttft_ms, "max_tpot_ms": w.max_tpot_ms,
        "meets_throughput_target": s.meets_throughput,
        "meets_ttft": s.meets_ttft,
        "meets_tpot": s.meets_tpot,
        "achieved_ttft_ms": s.load.ttft * 1e3,
        "achieved_tpot_ms": s.load.tpot * 1e3,
        "serving_curve": None,  # filled when a result shows this candidate (candidate.py, all_terms)
        "serving_alternatives": s.alternatives,
    }


def serving_json(n: dict[str, Any]) -> dict[str, Any] | None:
    """``gpu.serving`` of the estimate JSON (contract version 2) from an evaluation's numbers."""
    if "max_concurrent_sequences" not in n:
        return None
    return {
        "max_concurrent_sequences": int(n["max_concurrent_sequences"]),
        "throughput_tokens_per_s": n["throughput_tokens_per_s"],
        "max_throughput_tokens_per_s": n["max_throughput_tokens_per_s"],
        "ttft_s": n["ttft_s"],
        "tpot_s": n["tpot_s"],
        "concurrency": n["load_concurrency"],
        "concurrency_source": n["load_source"],
        "framework": n["framework"],
        "layout": n["serving_layout"],
        "layout_label": n["serving_layout_label"],
        "weight_format": n["weight_format"],
        "compute_precision": n["compute_precision"],
        "prompt_tokens": n["prompt_tokens"],
        "output_tokens": n["output_tokens"],
        "max_throughput_concurrency": n["max_throughput_concurrency"],
        "max_throughput_layout": n["max_throughput_layout"],
        "per_sequence_tokens_per_s": n["per_sequence_tokens_per_s"],
        "single_stream_tokens_per_s": n["single_stream_tokens_per_s"],
        "best_layout": {"layout": n["best_layout"], "label": n["best_layout_label"],
                        "max_throughput_tokens_per_s": n["best_layout_max_throughput_tokens_per_s"],
                        "max_throughput_concurrency": n["best_layout_max_throughput_concurrency"],
                        "max_concurrent_sequences": n["best_layout_max_concurrent_sequences"]},
        "supports": {"gpu": n["framework_supports_gpu"], "precision": n["framework_supports_precision"],
                     "multi_node": n["framework_multi_node_ok"], "reason": n["framework_reason"],
                     "detail": n["framework_reason_detail"]},
        "targets": {"tokens_per_s": n["target_tokens_per_s"] or None, "max_ttft_ms": n["max_ttft_ms"],
                    "max_tpot_ms": n["max_tpot_ms"], "meets_throughput_target": n["meets_throughput_target"],
                    "meets_ttft": n["meets_ttft"], "meets_tpot": n["meets_tpot"]},
        "curve": n["serving_curve"],
    }
