"""A framework resolved for one job on one GPU type: the constants of the step formula, and the
model's bytes and shape figures a step reads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...frozen import frozen
from ...knowledge.names import published
from ...knowledge.records import in_releases, release_at_least, version_key
from .. import GiB, usable_share
from .. import memory as M
from .. import memory_serving as MS
from . import options as O
from . import statepool as SP
from .checkpoint import (
    checkpoint_bits,
    checkpoint_fp8,
    checkpoint_keeps,
    nvfp4_dense_rate,
    nvfp4_k_block,
    nvfp4_quant_mixer,
    w4a16_experts,
)
from .draft import Drafter, drafter
from .eager import eager_engine, torch_attention_us
from .fusion import act_quant_fused, kernel_floor, mla_norm_quant_fused, serial_shared_gemms, torch_router
from .gemms import block_gemms
from .recurrent import fla_prefill_seconds, graphs_dropped, hybrid_consts
from .support import attention_backend_of as backend_of
from .support import clock_factor, deepgemm_pad_rows, has_units, holds_from, nvfp4_gemm_rate, peak_tflops, support
from .support import fp8_depth as depth_share
from .support import rocm_walk as rocm_decode_walk
from .support import triton_walk as split_walk
from .weights import ModelBytes, model_bytes, moe_file_bytes, moe_layers, replicated_moe, router_params  # noqa: F401

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ...knowledge.schema import Gpu
    from ...knowledge.schema.serving import Framework, FrameworkPrecision, FrameworkRelease


@frozen
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
    bw_experts: float  # B/s streaming routed experts' weights (the fused-MoE kernel's own share where it has one)
    step_overhead: float  # s
    layer_overhead: float  # s per layer
    seq_overhead: float  # s per running sequence per step
    allreduce_latency: float  # s
    kernel_floor: float  # s per extra small kernel (MoE routing, MLA, activation quantization)
    grouped_floor: float  # s per grouped expert GEMM launched
    alltoall_latency: float  # s per expert-parallel dispatch or combine
    expert_tile: int  # rows of the smallest expert GEMM tile
    moe_rate: float  # FLOP/s per GPU the fused-MoE kernel reaches on prompt-sized batches (inf: the dense rate)
    kv_bytes: float  # per cached element
    max_batch: int  # the framework's default batch limit on this GPU
    batch_cap: int  # the most a tuned deployment batches (the default when it is a hard limit)
    chunk: int
    usable: float  # bytes per GPU after the headroom policy
    context_bytes: float
    alloc_frac: float
    mbytes: ModelBytes
    sc: ShapeConsts
    eager_kernel: float = 0.0  # s of host time per kernel of a prefill forward outside CUDA graphs (0: graphs)
    spec: O.Spec | None = None  # speculative decoding the framework runs (None: plain decoding)
    drafter: Drafter | None = None  # what the drafter holds in memory (None: nothing)
    release: str | None = None  # the framework release whose constants apply (None: the framework's own)
    fuses_shared: bool = False  # the MoE shared expert runs inside the routed experts' grouped GEMM
    shared_gemms: tuple = ()  # a shared expert's block GEMMs run after the routed ones (fusion.serial_shared_gemms)
    dpa_tp_experts: bool = False  # attention data parallel gathers the tokens and runs the experts tensor-parallel
    static_share: tuple[tuple[int, float], ...] = ()  # (GPUs, share): the release's weights + KV pool memory share
    reserve: Any = None  # the release's ReservedMemory (its default share from the device's memory), or None
    graph_cap: int = 0  # the release's default CUDA-graph decode batch cap where it states one (0: none stated)
    capacity: float = 0.0  # bytes of one GPU's memory
    window_kv_full: bool = False  # sliding-window layers hold the whole sequence's KV blocks (the release's KV manager)
    k_block: float = 0.0  # s per 128-deep reduction block of a block-FP8 GEMM at decode batches (0: no such floor)
    k_walk_bytes: float = 1.0  # bytes a weight of the walked GEMMs (FP8 1; NVFP4 walks, nvfp4_k_block: its format's)
    host_floor: float = 0.0  # s a step lasts at least: the host's own time in a release that schedules synchronously
    fp4_dense_bw: float = 0.0  # B/s a dense NVFP4 GEMM streams its weights at decode batches (0: bw_weights)
    fp4_quant_attn: int = -1  # NVFP4 mixer projections a layer quantized in kernels of their own (-1: none)
    peak_dense: float = 0.0  # FLOP/s of the dense GEMMs where a release's block-FP8 kernels cap them (0: peak_gemm)
    peak_fp8: float = 0.0  # FLOP/s of the GEMMs an FP4 checkpoint stores in FP8 (0: it stores none)
    fp8_depth: tuple[float, float] = ()  # dense FP8 GEMMs' depth share: (fixed k-blocks, read-on share) (support)
    peak_index: float = 0.0  # FLOP/s of a sparse-attention indexer's FP8 logits (0: the model has none)
    qk_norm: tuple[int, float, int, float] = (1, 8.0, 0, 0.0)  # all-heads q/k norm exchange (qk_norm_exchange)
    kv_walk: float = 0.0  # B/s one sequence's KV head is walked at by a split-KV decode kernel (0: bw_kv binds)
    kv_per_query_head: bool = False  # decode attention reads a KV head once per query head (KvPerQueryHead)
    kv_walk_one: float = 0.0  # B/s where the walk's kernel gives a head one program (past kv_walk_grid)
    kv_walk_grid: int = 0  # sequences x KV heads a GPU holds up to which kv_walk holds (0: always)
    kv_walk_slots: tuple[float, int] = (0.0, 16)  # B/s all resident walk programs read at, heads a program (0: no cap)
    unoverlapped: float = 0.0  # s of step_overhead the host adds with SGLang's overlap scheduler off (a hybrid's)
    act_quant_fused: bool = False  # compile folds the dense layers' FP8 activation quantization (act_quant_fused)
    mla_norm_quant: int = 0  # kernels fewer an MLA layer where the norms emit FP8 (fusion.mla_norm_quant_fused)
    norms_fused: bool = False  # compile fuses a layer's extra norms into its other kernels (compiled_norms)
    router: tuple[tuple[float, float], ...] = ()  # a torch router's cost a MoE layer by tokens (fusion.torch_router)
    moe_pad_rows: float = 0.0  # padding rows a MoE layer's grouped GEMM multiplies (support.deepgemm_pad_rows)
    eager: Any = None  # launch counts of an eager engine's step (eager.EagerOps; serving.yaml eager_decode)
    fla_prefill: float = 0.0  # s a prompt token and value head on FLA's Triton GDN chunk kernels (0: chunk FLOPs)
    framework_version: str | None = None  # the release the job states (None: none; recurrent.mixer_decode)


def engine(job: Any, gpu: Gpu, framework: str | None = None, weight_format: str | None = None) -> Engine:
    """The framework's constants for this job on ``gpu`` (memoised per job). ``weight_format``
    replaces the framework's usual format for the precision (a measured file's own, e.g. GGUF Q4_0)."""
    key = ("serving-engine", gpu.id, framework, weight_format)
    got = job.memo.get(key)
    if got is None:
        got = job.memo[key] = eager_engine(_engine(job, gpu, framework, weight_format),
                                           getattr(job.w, "framework_version", None))
    return got


FP4_FORMATS = ("mxfp4", "nvfp4")
"""The FP4 weight formats of serving.yaml; a checkpoint shipped in one is served in it."""


def format_of(job: Any, fw: Framework, gpu: Gpu | None = None) -> str:
    """The weight format ``fw`` serves the job's precision in on ``gpu``: the framework's format for it
    (the vendor's own where the precision names one: FP4 on AMD Instinct is MXFP4), except that an FP4
    checkpoint (gpt-oss ships MXFP4) is served as it ships, not requantised, and that a ``quantization``
    method the framework loads stores its own format. Without a GPU (memory before one is chosen), the
    framework's format."""
    precision = job.w.precision
    method, _, _ = O.quantization(job.kb, fw, job.w)
    if method is not None:
        return method.formats[precision]  # type: ignore[index]
    fp = fw.precisions.get(precision)  # type: ignore[call-overload]
    fmt = fp.format if fp else (precision if precision in ("fp32", "fp16", "bf16") else "bf16")
    if fp is not None and gpu is not None:
        fmt = fp.vendor_formats.get(gpu.vendor, fmt)
    model = job.kb.models.get(job.model_id) if job.model_id else None
    shipped = published(model, job.w.model)  # an alias's own release (nvidia/Kimi-K2.6-NVFP4), else the entry's
    return shipped if (precision == "fp4" and fmt in FP4_FORMATS and shipped in FP4_FORMATS) else fmt


def chip_key(gpu: Gpu) -> str:
    """The key of ``gpu``'s own chip among a framework's ``architecture_overrides``: ``sm`` and its compute capability
    without the dot (12.0: sm120), where one chip of an architecture was timed apart from the others."""
    cc = gpu.compute_capability or ""
    return f"sm{cc.replace('.', '')}" if cc else ""


def _engine(job: Any, gpu: Gpu, framework: str | None, weight_format: str | None) -> Engine:
    kb, w = job.kb, job.w
    fw = kb.framework(framework or getattr(w, "framework", None))
    precision = w.precision
    fp = fw.precisions.get(precision)  # type: ignore[call-overload]
    sup = support(fw, gpu, precision)
    fmt = weight_format or format_of(job, fw, gpu)
    vo = fw.vendor_overrides.get(gpu.vendor)  # type: ignore[call-overload]
    mo = fw.memory_overrides.get(memory_kind(gpu))  # type: ignore[call-overload]
    ao = fw.architecture_overrides.get(gpu.architecture or "")
    chip = fw.architecture_overrides.get(chip_key(gpu))  # one chip of the architecture (sm120): read before it
    rel = release(fw, getattr(w, "framework_version", None), gpu.vendor, getattr(w, "runtime_backend", None))
    if graphs_dropped(fw, getattr(w, "framework_version", None), job.shape, gpu):
        rel = None  # a decode run without its CUDA graphs takes the eager build's constants (recurrent.py)
    hbm = rel.hbm if rel is not None and memory_kind(gpu) == "hbm" and (  # the release's own HBM figures
        not rel.hbm_formats or fmt in rel.hbm_formats) else None
    fw = mla_scheduling(job, fw)

    def pick(name: str) -> float:
        for o in (chip, ao, hbm, mo, vo, rel):
            own = getattr(o, name, None) if o is not None else None
            if own is not None and holds_from(o, name, getattr(w, "framework_version", None)):
                return float(own)
        return float(getattr(fw, name).value)

    eff = pick("compute_efficiency")
    cf = fp.compute_factor if fp else 1.0
    bw_factor = fp.bandwidth_factor if fp else 1.0
    if fp is not None and fmt == fp.format and memory_kind(gpu) == "gddr":  # the format's own GDDR read (F16 GEMV)
        bw_factor *= fp.gddr_bandwidth_factor
    compute, weight_only = sup.compute, sup.weight_only
    if getattr(w, "weight_only_gemm", None) and fp is not None and fp.fallback_compute:  # forced Marlin: as on a
        compute, weight_only = fp.fallback_compute, True  # GPU without the precision's units (support.py)
    method, kernel, _ = O.quantization(kb, fw, w)
    if method is not None and weight_format is None and kernel is not None:
        cf = kernel.compute_factor if kernel.compute_factor is not None else cf
        bw_factor = kernel.bandwidth_factor if kernel.bandwidth_factor is not None else bw_factor
        own = kernel.compute or method.compute
        if own is not None and own != compute and has_units(gpu, own):
            compute, weight_only = own, own in ("bf16", "fp16") and precision not in ("bf16", "fp16")
    blk = block_fp8_factor(job, fw, vo, fmt, weight_format, method)
    cf, bw_factor = cf * blk, bw_factor * blk
    spec, _ = O.speculative(kb, fw, w, job)
    bwf = pick("bandwidth_fraction")
    cap = [o.read_bytes_per_fp32_flop for o in (chip, ao, mo, vo, rel) if getattr(o, "read_bytes_per_fp32_flop", None)]
    if cap and gpu.peaks.fp32:  # a chip-bound batch-1 kernel reads no faster than the SMs turn its blocks over
        bwf = min(bwf, cap[0] * gpu.peaks.fp32 * 1e3 / gpu.memory.bandwidth_gb_s)  # TFLOPS x B/FLOP over GB/s
    mem_bw = gpu.memory.bandwidth_gb_s * 1e9
    kv_b = kv_element_bytes(w, fp)
    cap = capacity_bytes(gpu)
    mb = fw.max_batch
    large = large_gpu(fw, gpu, getattr(w, "framework_version", None))
    max_batch = mb.large_gpu if (mb.large_gpu and large) else mb.default
    rt = kb.runtime
    mbytes = model_bytes(job.shape, fmt, quant_formats(kb), checkpoint_keeps(job, fmt, weight_format),
                         checkpoint_bits(job, fmt, weight_format), checkpoint_fp8(job, fmt, weight_format))
    eff *= clock_factor(kb.gpus, gpu, (chip, ao, mo, vo, rel), compute)  # the clock this part holds under GEMMs
    gemm = peak_tflops(gpu, compute) * 1e12 * eff * cf  # FLOP/s of the GEMMs at the framework's efficiency
    floor = kernel_floor(job, fw, rel, fused_kernel_floor_us(vo, getattr(w, "framework_version", None),
                                                             pick("kernel_floor_us")) * 1e-6, gpu.id)
    return Engine(
        fw=fw, gpu_id=gpu.id, precision=precision, fp=fp, weight_format=fmt, bw_fraction=bwf, compute_eff=eff,
        compute=compute, weight_only=weight_only, peak_gemm=gemm,
        peak_dense=nvfp4_gemm_rate(job, fw, gpu, fmt, compute, weight_only, block_fp8_gemm_rate(
            job, gpu, rel, fmt, weight_format, method, compute, weight_only, gemm)),
        peak_attn=peak_tflops(gpu, "fp32" if compute == "fp32" else "bf16") * 1e12 * eff,
        peak_fp8=peak_tflops(gpu, "fp8") * 1e12 * eff if mbytes.fp8_params else 0.0,
        fp8_depth=depth_share(job, fw, gpu, fmt, compute, weight_only, method),
        # DSA's lightning indexer multiplies FP8 queries by FP8 keys (vLLM fp8_mqa_logits; the BF16 rate where the
        # GPU has no FP8 units: peak_tflops falls back)
        peak_index=peak_tflops(gpu, "fp8") * 1e12 * eff if getattr(job.shape, "sparse_attn", None) else 0.0,
        bw_weights=mem_bw * bwf * bw_factor,
        bw_experts=mem_bw * moe_bandwidth(fmt, bwf, (chip, ao, mo, vo, rel)) * bw_factor,
        bw_kv=legacy_kv(vo, getattr(w, "framework_version", None), mem_bw * bwf),
        step_overhead=pick("step_overhead_us") * 1e-6 + unoverlapped_host(job, fw),
        layer_overhead=(pick("layer_overhead_us") + (fp.extra_layer_overhead_us if fp else 0.0)
                        + piecewise_layer_us(vo, getattr(w, "framework_version", None))
                        + torch_attention_us(fw, w)) * 1e-6,
        seq_overhead=pick("sequence_overhead_us") * 1e-6,
        allreduce_latency=pick("allreduce_latency_us") * 1e-6, kernel_floor=floor,
        grouped_floor=triton_block_fp8_floor_us(
            job, fw, gpu, fmt, weight_format, method,
            wna16_grouped_floor_us(job, fw, gpu, fmt, compute, pick("grouped_gemm_floor_us"))) * 1e-6,
        alltoall_latency=pick("alltoall_latency_us") * 1e-6,
        expert_tile=expert_tile_rows(job, fw, gpu, fmt, weight_format, method),
        moe_rate=w4a16_experts(job, fmt, weight_format, peak_tflops(gpu, "bf16") * 1e12 * eff, block_fp8_gemm_rate(
            job, gpu, rel, fmt, weight_format, method, compute, weight_only,
            moe_rate(gpu, (chip, ao, mo, vo, rel), fmt, getattr(w, "rocm_aiter", None)), experts=True)), kv_bytes=kv_b,
        max_batch=max_batch, batch_cap=max(max_batch, mb.limit or max_batch),
        chunk=step_budget(job, fw, gpu),
        usable=cap * usable_share(job, gpu),
        context_bytes=rt.cuda_context_bytes.value, alloc_frac=rt.allocator_overhead_fraction.value,
        mbytes=mbytes, sc=shape_consts(job.shape), spec=spec,
        eager_kernel=eager_kernel_seconds(fw, rel, getattr(w, "prefill_cuda_graphs", None)),
        drafter=drafter(job, spec, mbytes.linear_bytes_per_param, kv_b),
        release=rel.version if rel is not None else None,
        fuses_shared=fuses_shared_experts(fw, getattr(w, "framework_version", None), gpu.vendor)
        and not serial_shared_gemms(job, fw, gpu), shared_gemms=serial_shared_gemms(job, fw, gpu),
        dpa_tp_experts=dp_attention_tp_experts(fw, getattr(w, "framework_version", None), gpu.vendor),
        static_share=tuple(sorted((rel.mem_fraction_static or {}).items())) if rel is not None else (),
        reserve=rel.reserved_memory if rel is not None else None,
        graph_cap=(rel.cuda_graph_max_bs or 0) if rel is not None else 0,
        capacity=cap,
        window_kv_full=bool(rel is not None and rel.window_kv_full),
        k_block=block_fp8_k_block(job, fw, gpu, fmt, weight_format, method, compute, weight_only)
        or nvfp4_k_block(job, fw, gpu, fmt, compute, weight_only, weight_format),
        k_walk_bytes=mbytes.linear_bytes_per_param
        if nvfp4_k_block(job, fw, gpu, fmt, compute, weight_only, weight_format) else 1.0,
        host_floor=sync_host_floor(fw, getattr(w, "framework_version", None)),
        fp4_dense_bw=nvfp4_dense_rate(job, fw, gpu, fmt, compute, weight_only),
        fp4_quant_attn=nvfp4_quant_mixer(job, fw, fmt, compute, weight_only, checkpoint_keeps(job, fmt, weight_format)),
        qk_norm=qk_norm_exchange(fw, getattr(w, "framework_version", None), gpu.vendor),
        kv_per_query_head=kv_per_query_head(fw, gpu),
        **_walks(split_walk(fw, backend_of(job, fw), gpu), rocm_decode_walk(job, fw, gpu, kv_b)),
        unoverlapped=unoverlapped_host(job, fw),
        fla_prefill=fla_prefill_seconds(kb, fw, gpu, getattr(w, "framework_version", None)),
        framework_version=getattr(w, "framework_version", None),
        act_quant_fused=act_quant_fused(job, vo, fmt, weight_format),
        mla_norm_quant=mla_norm_quant_fused(job, (chip, ao), compute, weight_only),
        norms_fused=compiled_norms(job, vo), router=torch_router(job, fw, gpu.vendor),
        moe_pad_rows=deepgemm_pad_rows(job, fw, gpu, serves_block_checkpoint(job, fmt, weight_format, method)),
    )


def _walks(split: tuple[float, float, int], unified: tuple[float, float, int]) -> dict[str, Any]:
    """Engine's walk fields: a stated split-KV kernel's rate and its resident programs' (support.triton_walk), else
    the ROCm build's unified attention kernel's, or its paged-decode kernel's on gfx908 (support.rocm_walk: the two
    rates, the grid between)."""
    if split[0] or not unified[0]:
        return {"kv_walk": split[0], "kv_walk_slots": split[1:]}
    return {"kv_walk": unified[0], "kv_walk_one": unified[1], "kv_walk_grid": unified[2]}


def qk_norm_exchange(fw: Framework, version: str | None, vendor: str | None) -> tuple[int, float, int, float]:
    """(all-reduces a layer, bytes a token each, byte granule below which one runs on NCCL or 0, NCCL's seconds or 0)
    of an all-heads q/k RMSNorm in the stated release (serving.yaml ``qk_norm_allreduce``): one exchange of the two
    FP32 sums a token on the framework's own kernel, unless the release normalizes q and k apart (two of 4 bytes)
    or leaves the buffer unpadded (the own kernel then declines an exchange of fewer bytes than its granule, and
    NCCL runs it). A job that states no release gets the current way."""
    q = fw.qk_norm_allreduce
    if q is None:
        return (1, 8.0, 0, 0.0)
    apart = q.separate is not None and in_releases(q.separate, version)
    unpadded = q.unpadded is not None and in_releases(q.unpadded, version)
    nccl = q.nccl_us.get(vendor, 0.0) * 1e-6 if vendor else 0.0  # type: ignore[call-overload]
    granule = q.granule_bytes if unpadded else 0
    return (2, 4.0, granule, nccl) if apart else (1, 8.0, granule, nccl)


def large_gpu(fw: Framework, gpu: Gpu, version: str | None) -> bool:
    """Whether the framework gives ``gpu`` its large-GPU defaults (``max_batch.large_gpu``, the server's
    ``prefill_chunk_tokens``): memory of at least ``large_gpu_min_gib``, and not a GPU the rule leaves out by name
    (vLLM: ``device_memory >= 70 GiB and "a100" not in device_name``), except in a stated release that did not
    leave it out (``large_gpu_except_lifted``); in a stated release that named its GPUs instead
    (``large_gpu_named_only``), only those. A job that states no release gets the current rule."""
    mb = fw.max_batch
    if not (mb.large_gpu_min_gib and capacity_bytes(gpu) >= mb.large_gpu_min_gib * GiB):
        return False
    if mb.large_gpu_named_only is not None and in_releases(mb.large_gpu_named_only, version):
        return any(gpu.id.startswith(p) for p in mb.large_gpu_named)
    if not any(gpu.id.startswith(p) for p in mb.large_gpu_except):
        return True
    win = mb.large_gpu_except_lifted
    return win is not None and in_releases(win, version)


def step_budget(job: Any, fw: Framework, gpu: Gpu) -> int:
    """Tokens one step of ``fw`` processes at most on ``gpu`` for ``job`` (max_num_batched_tokens): the job's stated
    ``prefill_chunk_tokens``, else the server's default on a large GPU (``prefill_chunk_tokens``), ``small_gpu`` of
    ``prefill_chunk_defaults`` on the others. A release that prefills whole (``mla_scheduling``) keeps its own."""
    if getattr(job.w, "prefill_chunk_tokens", None) and fw.chunked_prefill:  # the budget the server was started with
        return int(job.w.prefill_chunk_tokens)
    d = fw.prefill_chunk_defaults
    if d is None or not fw.chunked_prefill:
        return fw.prefill_chunk_tokens
    return fw.prefill_chunk_tokens if large_gpu(fw, gpu, getattr(job.w, "framework_version", None)) else d.small_gpu


def sync_host_floor(fw: Framework, version: str | None) -> float:
    """Seconds a step of the job's stated release lasts at least (``sync_host_floor``): a release that schedules
    synchronously runs the host's work for a step (schedule, prepare the inputs, launch, sample, update) between
    forwards, so a small model's step is the host's, whatever the GPU. 0 for a release outside the span and for a
    job that states none (the current releases overlap that work with the forward)."""
    span = fw.sync_host_floor
    return span.step_us * 1e-6 if span is not None and in_releases(span, version) else 0.0


def unoverlapped_host(job: Any, fw: Framework) -> float:
    """Seconds of host work a step adds where the stated release runs a hybrid model (models.yaml ``recurrent``)
    without the overlap scheduler (``hybrid_state_pool.unoverlapped_host_us``): with the prefix cache on and no
    extra state buffer (the 'no_buffer' strategy) SGLang turns the scheduler off, so the host's work for a step runs
    between forwards. The release entry gives the listed models the buffer where its slots a request exceed the
    other models'. 0 with the prefix cache off, without a recurrent state, or before the kind's first release."""
    pool = getattr(fw, "hybrid_state_pool", None)
    if pool is None or pool.unoverlapped_host_us is None or not getattr(job.shape, "recurrent", None):
        return 0.0
    entry = SP.release_entry(fw, getattr(job.w, "framework_version", None))
    if entry is None or getattr(job.w, "prefix_cache", None) is False:
        return 0.0
    if job.model_id in pool.buffered_models and entry.slots_per_request > entry.plain_slots_per_request:
        return 0.0
    v, kind = getattr(job.w, "framework_version", None), (hybrid_consts(job.shape) or "  ")[1]
    if v and kind in pool.unoverlapped_from and not release_at_least(v, pool.unoverlapped_from[kind]):
        return 0.0  # a release before the one that turns the scheduler off for the model's mixer kind
    return pool.unoverlapped_host_us.value * 1e-6


def wna16_grouped_floor_us(job: Any, fw: Framework, gpu: Gpu, fmt: str, compute: str, floor_us: float) -> float:
    """Microseconds of one grouped expert GEMM's fixed time: the release's weight-only 4-bit MoE kernel's own
    (``wna16_moe``; vLLM 0.7.3 runs AWQ/GPTQ experts of models with more than 32 experts on the Triton moe_wna16
    kernel, whose thread blocks walk the reduction depth at a single token) where the job states such a release and
    serves such a model's experts as int4 weights with 16-bit activations (W4A16); else ``floor_us``. A job that
    states no release keeps ``floor_us`` (the current releases run these experts on other kernels)."""
    span = fw.wna16_moe
    version = getattr(job.w, "framework_version", None)
    shape = job.shape
    if span is None or fmt != "int4" or compute not in ("bf16", "fp16") or not shape.moe:
        return floor_us
    if (span.vendors and gpu.vendor not in span.vendors) or not in_releases(span, version):
        return floor_us
    return span.grouped_gemm_floor_us if shape.experts > span.more_experts_than else floor_us


def triton_block_fp8_floor_us(job: Any, fw: Framework, gpu: Gpu, fmt: str, weight_format: str | None, method: Any,
                              floor_us: float) -> float:
    """Microseconds of one grouped expert GEMM's fixed time where the framework runs the model's own block-FP8
    checkpoint's experts on its Triton fused-MoE kernel on an architecture or chip read for it on a block-FP8 shape
    (serving.yaml ``triton_block_fp8_moe``): from the first release read, and for a job that states none; else
    ``floor_us``."""
    span = fw.triton_block_fp8_moe
    if span is None or not job.shape.moe or not {gpu.architecture, chip_key(gpu)} & set(span.architectures):
        return floor_us
    if fmt != "fp8" or weight_format is not None or method is not None or job.model_id not in span.models:
        return floor_us
    version = getattr(job.w, "framework_version", None)
    if version is not None and not release_at_least(version, span.first):
        return floor_us
    return span.grouped_gemm_floor_us


def expert_tile_rows(job: Any, fw: Framework, gpu: Gpu, fmt: str, weight_format: str | None, method: Any) -> int:
    """Token rows of the smallest expert GEMM tile: the framework's ``expert_tile_tokens``, or, where the job says
    AMD's AITER kernels are off (``rocm_aiter: false``) and the ROCm release then runs the listed model's own
    block-FP8 experts on its Triton fused-MoE kernel with no tuned config for their shapes, that kernel's default
    tile (serving.yaml ``rocm_triton_moe_tile``)."""
    span = fw.rocm_triton_moe_tile
    if span is None or getattr(job.w, "rocm_aiter", None) is not False or not job.shape.moe:
        return fw.expert_tile_tokens
    if (gpu.architecture or "") not in span.architectures or job.model_id not in span.models:
        return fw.expert_tile_tokens
    if fmt != "fp8" or weight_format is not None or method is not None:
        return fw.expert_tile_tokens
    ran = in_releases(span.releases, getattr(job.w, "framework_version", None))
    return span.tile_rows if ran else fw.expert_tile_tokens


def mla_scheduling(job: Any, fw: Framework) -> Framework:
    """``fw`` as the job's stated release schedules its prompts: a release that turns chunked prefill off for MLA
    models (``mla_whole_prefill``; vLLM 0.7.1-0.7.3: 'MLA is enabled; forcing chunked prefill and prefix caching to
    be disabled', max_num_batched_tokens = max(max_model_len, 2048)) prefills an MLA job's prompts whole, in
    forwards without decodes (V0's scheduler runs waiting prefills before the running decodes), with the whole
    context as the step budget. Otherwise, and for a job that states no release, ``fw`` itself."""
    span = fw.mla_whole_prefill
    version = getattr(job.w, "framework_version", None)
    if span is None or not job.shape.mla or not fw.chunked_prefill or not in_releases(span, version):
        return fw
    model = job.kb.models.get(job.model_id) if job.model_id else None
    context = model.max_context if model is not None and model.max_context else fw.prefill_chunk_tokens
    return fw.model_copy(update={"chunked_prefill": False, "mixed_prefill": False,
                                 "prefill_chunk_tokens": max(int(context), 2048)})


MOE_TRITON_FORMATS = ("bf16", "fp16", "fp8")  # expert weights the Triton fused-MoE kernel streams itself


def moe_bandwidth(fmt: str, dense: float, overrides: tuple[Any, ...]) -> float:
    """Share of the datasheet bandwidth at which the routed experts' weights stream: the build's fused-MoE kernel's
    own (``moe_bandwidth_fraction``, the first override that sets it) for 16-bit and FP8 experts, which that
    kernel runs; else the dense GEMMs' share ``dense``."""
    if fmt in MOE_TRITON_FORMATS:
        for o in overrides:
            own = getattr(o, "moe_bandwidth_fraction", None) if o is not None else None
            if own is not None:
                return float(own)
    return dense


def moe_rate(gpu: Gpu, overrides: tuple[Any, ...], fmt: str = "", aiter: bool | None = None) -> float:
    """FLOP/s per GPU of the build's fused-MoE kernel on prompt-sized batches: ``moe_gemm_fraction`` (the first
    override that sets it) of the GPU's 16-bit dense peak; infinite where none does, or on an AMD GPU whose job says
    AITER is off (``aiter`` False; AMD's readings are aiter's fused MoE): the experts then run at the precision's rate.
    It bounds the experts' math from below (step: the tile-padded GEMMs at the usual rate or the rows at this one)."""
    for o in overrides:
        frac = getattr(o, "moe_gemm_fraction", None) if o is not None else None
        if frac is not None and not (aiter is False and gpu.vendor == "amd"):  # AMD's figures are aiter's kernel's
            kept = getattr(o, "moe_gemm_formats", None)  # a reading of some expert formats leaves the others uncapped
            return peak_tflops(gpu, "bf16") * 1e12 * float(frac) if not kept or fmt in kept else float("inf")
    return float("inf")


def eager_kernel_seconds(fw: Framework, rel: FrameworkRelease | None, graphs: bool | None = None) -> float:
    """Host seconds per kernel of a forward that carries prompt tokens outside CUDA graphs: 0 where the
    workload captures such forwards (``prefill_cuda_graphs``), else the release's figure where it changed how
    they run (0: under graphs), else the framework's (none: graphs). A workload that states such forwards run
    eagerly (``prefill_cuda_graphs: false``) on a release whose own constants are a compiled engine's takes the
    framework's eager figure from the newest release that has one: TensorRT-LLM's PyTorch backend of 0.19-0.21,
    which ran beside the engine path and captured generation-only batches (its use_cuda_graph)."""
    if graphs:
        return 0.0
    own = rel.prefill_eager_kernel_us if rel is not None else None
    if own is not None:
        return own * 1e-6
    if fw.prefill_eager_kernel_us:
        return fw.prefill_eager_kernel_us.value * 1e-6
    if graphs is False:
        figures = [r.prefill_eager_kernel_us for r in fw.releases or () if r.prefill_eager_kernel_us]
        return figures[-1] * 1e-6 if figures else 0.0
    return 0.0


def piecewise_layer_us(vo: Any, version: str | None) -> float:
    """Microseconds a layer adds in a stated release from before the build replayed a full CUDA graph for decode
    (vLLM before 0.11.0: piecewise graphs, the attention launched between the pieces); 0 for later releases and
    for a job that states none (the current default)."""
    extra = _stated(vo, "piecewise_layer_us", "piecewise_before", version, before=True)
    return 0.0 if extra is None else float(extra)


def fused_kernel_floor_us(vo: Any, version: str | None, floor_us: float) -> float:
    """Microseconds a counted small kernel costs: the build's fused figure for a job that states the release that
    fused the small kernels around a layer or a later one, else ``floor_us``. A job that states no release keeps
    ``floor_us``, the figure measured on the builds the unversioned validation rows ran (vLLM 0.11, 2025)."""
    fused = _stated(vo, "fused_kernel_floor_us", "fused_from", version, before=False)
    return floor_us if fused is None else float(fused)


def compiled_norms(job: Any, vo: Any) -> bool:
    """Whether the build's default compile fuses the norms between two GEMMs into one kernel (serving.yaml
    ``compiled_norms_from``): a job on that release or a later one, or stating none."""
    first = getattr(vo, "compiled_norms_from", None) if vo is not None else None
    version = getattr(job.w, "framework_version", None)
    return first is not None and (version is None or version_key(version) >= version_key(first))


def kv_per_query_head(fw: Any, gpu: Gpu) -> bool:
    """Whether ``fw``'s decode attention on ``gpu`` reads each KV head once per query head (serving.yaml
    kv_per_query_head: llama.cpp's one-token vector kernel below Turing's MMA)."""
    rule = getattr(fw, "kv_per_query_head", None)
    return bool(rule is not None and gpu.vendor in rule.vendors and gpu.compute_capability
                and float(gpu.compute_capability) < rule.below_compute_capability)


def legacy_kv(vo: Any, version: str | None, bw_kv: float) -> float:
    """B/s at which decode attention reads the KV cache: the build's older paged-attention kernel's rate for a
    stated release before the one that replaced it (vLLM's ROCm build before its custom paged attention), else
    ``bw_kv``. A job that states no release gets the current kernel."""
    rate = _stated(vo, "legacy_kv_gb_s", "legacy_kv_before", version, before=True)
    return bw_kv if rate is None else min(bw_kv, rate * 1e9)


def _stated(vo: Any, field: str, boundary: str, version: str | None, *, before: bool) -> Any:
    """The build's ``field`` where it applies to the job's stated release: a release before the build's
    ``boundary`` release (``before``) or that release or a later one (not ``before``); None where the build
    sets no such figure or the job states no release (the build's current figures then apply)."""
    value = getattr(vo, field, None) if vo is not None else None
    bound = getattr(vo, boundary, None) if vo is not None else None
    if value is None or bound is None or version is None:
        return None
    return value if (version_key(version) < version_key(bound)) == before else None


def block_fp8_factor(job: Any, fw: Framework, vo: Any, fmt: str, weight_format: str | None, method: Any) -> float:
    """The speed of the model's own block-scaled FP8 checkpoint on this build relative to the FP8 path
    (1: the same kernels). Only where the build names a slower block-scale kernel (the vendor override's
    ``block_fp8_speed_factor``), the job serves the published FP8 checkpoint (no other method or file) and does not
    say that AMD's AITER kernels are on (``rocm_aiter``: vLLM's ROCm build then dispatches the block-scale GEMM and
    the fused MoE to aiter's FP8 kernels)."""
    own = getattr(vo, "block_fp8_speed_factor", None) if vo is not None else None
    if getattr(job.w, "rocm_aiter", None):  # AITER on: aiter's block-scale GEMM and fused MoE, the FP8 path's kernels
        return 1.0
    return float(own) if own is not None and serves_block_checkpoint(job, fmt, weight_format, method) else 1.0


def block_fp8_gemm_rate(job: Any, gpu: Gpu, rel: FrameworkRelease | None, fmt: str, weight_format: str | None,
                        method: Any, compute: str, weight_only: bool, rate: float, experts: bool = False) -> float:
    """FLOP/s of the dense (non-expert) GEMMs: ``rate`` (the framework's compute efficiency of the precision's
    peak), capped at the release's measured block-scaled FP8 rate (serving.yaml releases ``block_fp8_gemm_tflops``)
    where the job serves the model's own block-scaled FP8 checkpoint in W8A8 FP8 on an architecture that rate was
    timed on; ``experts``: the routed experts' fused-MoE rate (``moe_rate``), capped at ``block_fp8_moe_tflops``."""
    own = (rel.block_fp8_moe_tflops if experts else rel.block_fp8_gemm_tflops) if rel is not None else None
    if own is None or compute != "fp8" or weight_only:
        return rate
    if (gpu.architecture or "") not in rel.block_fp8_gemm_architectures:  # type: ignore[union-attr]
        return rate
    return min(rate, own * 1e12) if serves_block_checkpoint(job, fmt, weight_format, method) else rate


def serves_block_checkpoint(job: Any, fmt: str, weight_format: str | None, method: Any) -> bool:
    """Whether the job serves the model's own published FP8 checkpoint (its precision's format, no other
    file or quantisation method named) and that checkpoint scales its weights by blocks (``fp8_checkpoints``)."""
    if fmt != "fp8" or weight_format is not None or method is not None:
        return False
    serving = getattr(job.kb, "serving", None)
    ck = serving.fp8_checkpoints.get(job.model_id) if serving is not None and job.model_id else None
    return ck is not None and ck.scaling == "block"


def block_fp8_k_block(job: Any, fw: Framework, gpu: Gpu, fmt: str, weight_format: str | None, method: Any,
                      compute: str, weight_only: bool) -> float:
    """Seconds per 128-deep reduction block that a block-scaled FP8 GEMM walks at a decode batch
    (serving.yaml ``block_fp8_small_batch``), where the job serves the model's block-scaled FP8 checkpoint in
    W8A8 FP8 on an architecture the timings were read on; 0 elsewhere (16-bit GEMMs and weight-only kernels
    split the reduction and stream at the bandwidth) and where the framework's per-kernel figure already holds it.
    On AMD GPUs the framework's own ROCm readings (``rocm_block_fp8_walk``: per release window, the aiter kernel
    without split-K its ROCm image ran, on the architectures read) decide instead; a release outside every window
    gets none; they are aiter's kernels, so not for a job that says AITER is off (``rocm_aiter: false``), whose
    other kernel's walk was not timed on those GPUs."""
    serving = getattr(job.kb, "serving", None)
    floor = getattr(serving, "block_fp8_small_batch", None) if serving is not None else None
    if compute != "fp8" or weight_only:
        return 0.0
    # a ROCm build's kernel without split-K, one entry a kernel and release window, on the architectures read
    walks = [w for w in fw.rocm_block_fp8_walk if (gpu.architecture or "") in w.architectures]
    if walks:
        version = getattr(job.w, "framework_version", None)
        rocm = next((w for w in walks if in_releases(w.releases, version)), None)
        ran = rocm is not None and getattr(job.w, "rocm_aiter", None) is not False  # aiter's kernels: AITER on
        return rocm.k_block_us * 1e-6 if ran and serves_block_checkpoint(job, fmt, weight_format, method) else 0.0
    if floor is None or (gpu.architecture or "") not in floor.architectures:
        return 0.0
    if included(floor, fw, getattr(job.w, "framework_version", None)):
        return 0.0
    return k_block_seconds(floor, gpu) if serves_block_checkpoint(job, fmt, weight_format, method) else 0.0


def k_block_seconds(floor: Any, gpu: Gpu) -> float:
    """Seconds one thread block spends on one 128-deep block of the walk: the measured figure (``k_block_us``, read
    on H100s, where the memory pipeline sets it), or the tile's own multiply at the SM's share of the FP8 peak
    where that is longer (the H20: a quarter of an H100 SM's tensor rate). GPUs whose SM count is not in the
    catalog keep the measured figure."""
    measured = floor.k_block_us * 1e-6
    sms, peak = gpu.peaks.sms, gpu.peaks.fp8
    if not sms or not peak:
        return measured
    tile = 2.0 * floor.tile_rows * floor.tile_cols * 128  # FLOPs of one 128-deep step of the tile
    return max(measured, tile / (peak * 1e12 / sms))


def included(floor: Any, fw: Framework, version: str | None) -> bool:
    """Whether ``fw`` at ``version`` (None: the newest listed release's constants, as :func:`release`) has a
    per-kernel figure read end to end on a block-FP8 step (``included_from``), which holds the walk already."""
    first = floor.included_from.get(fw.id)
    if first is None:
        return False
    if first == "0":
        return True
    if version is None:
        newest = fw.releases[-1].version if fw.releases else None
        return newest is not None and version_key(newest) >= version_key(first)
    return version_key(version) >= version_key(first)


def release(fw: Framework, version: str | None, vendor: str | None = None,
            backend: str | None = None) -> FrameworkRelease | None:
    """The framework's release whose constants apply: the last listed at or before ``version``, the newest
    when no version is given, none before the first listed (the framework's own constants then). A release
    that concerns other vendors' builds does not apply to this one, nor one holding another runtime backend's
    constants than the job states (``workload.runtime_backend``: TensorRT-LLM's engine path skips its PyTorch
    backend's entries and keeps the framework's own constants)."""
    kept = [r for r in fw.releases if backend is None or r.backend in (None, backend)]
    if not kept:
        return None
    if version is None:
        got = kept[-1]
    else:
        at = [r for r in kept if release_at_least(version, r.version)]  # records.release_key's order
        got = at[-1] if at else None
    if got is not None and got.vendors and vendor not in got.vendors:
        return None
    return got


def fuses_shared_experts(fw: Framework, version: str | None, vendor: str | None = None) -> bool:
    """Whether the release runs a MoE layer's shared expert inside the routed experts' grouped GEMM."""
    rel = release(fw, version, vendor)
    own = rel.fuses_shared_experts if rel is not None else None
    return fw.fuses_shared_experts if own is None else own


def dp_attention_tp_experts(fw: Framework, version: str | None, vendor: str | None = None) -> bool:
    """Whether the release's attention data parallel gathers every rank's tokens before a MoE layer and runs the
    experts tensor-parallel on them (serving.yaml releases ``dp_attention_tp_experts``), not expert-parallel."""
    rel = release(fw, version, vendor)
    return bool(rel.dp_attention_tp_experts) if rel is not None else False


def kv_element_bytes(w: Any, fp: FrameworkPrecision | None) -> float:
    """Bytes per cached K/V element: the workload's ``kv_precision``, else the framework's default."""
    kv = getattr(w, "kv_precision", "auto")
    if kv == "fp8":
        return 1.0
    if kv in ("bf16", "fp16"):
        return 2.0
    return fp.kv_cache_bytes if fp else 2.0


def prefill_tokens(w: Any, prompt: int, fw: Framework | None) -> float:
    """Prompt tokens a request prefills: the part the prefix cache does not already hold, where the framework keeps
    one (:func:`.options.prefix_cached`; elsewhere the whole prompt, rule SRV-PREFIX-CACHE-NONE / -OFF says so)."""
    hit = float(getattr(w, "prefix_cache_hit_rate", 0.0) or 0.0) if O.prefix_cached(fw, w) else 0.0
    return max(1.0, prompt * (1.0 - hit))


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
@frozen
class ShapeConsts:
    """The shape figures a step needs, read once (the step runs thousands of times per recommendation)."""

    n_active: float  # parameters a token multiplies through
    n_experts_active: float  # of which in routed experts (k of E per MoE layer)
    attn_width: float
    attn_width_prefill: float  # the same for prompt tokens (MLA prefills in its uncompressed form)
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
    gemms: tuple[tuple[float, float, str, float], ...] = ()  # (N, K, split dim, per forward): block_gemms
    qk_norm_all_heads: bool = False  # the q/k RMSNorm spans all heads: one more all-reduce a layer (step._parts)
    hybrid: tuple[int, str, int, float] | None = None  # attention layers, recurrent mixer, its layers: recurrent.py
    latent: int = 0  # LatentMoE: the routed experts' width and their all-to-all rows' (0: hidden, no projections)
    kv_heads: int = 1  # KV heads a token caches (a latent counts as mla)
    heads: int = 1  # query heads a layer has (a split-KV decode kernel's head blocks: step.StepConsts)
    group: float = 1.0  # query heads a KV head serves (grouped-query attention; 1 for MLA)
    # sparse attention (DSA, :func:`sparse_consts`): (top-k, indexer width, indexer key bytes, latent elements,
    # the share of the layers with an indexer of their own)
    sparse: tuple[float, float, float, float, float] | None = None
    norm_kernels: int = 2  # norm kernels a layer runs on the hidden state (a pre-norm layer's 2: step._extra_kernels)
    # wider global layers (Gemma 4, ``global_attn``): (their KV heads, their head width over the windowed layers')
    global_kv: tuple[int, float] | None = None
    # a framework's own count of a layer's kernels beyond a dense one's, as a mean over the layers (step._extra_kernels)
    graph_kernels: tuple[tuple[str, float], ...] = ()


def shape_consts(shape: Any) -> ShapeConsts:
    win = getattr(shape, "attention_window", None)
    frac = getattr(shape, "window_layers_fraction", None)
    if getattr(shape, "global_attn", None):  # the KV read a step weighs windowed layers by their share of the bytes
        frac = shape.kv_window_share
    return ShapeConsts(
        n_active=float(shape.matmul_params_active),
        n_experts_active=M.routed_expert_params(shape) * shape.experts_per_token / shape.experts if shape.moe else 0.0,
        attn_width=attention_width(shape), attn_width_prefill=prefill_attention_width(shape), layers=shape.layers,
        hidden=shape.hidden, moe=bool(shape.moe), k_over_e=shape.experts_per_token / shape.experts,
        k=shape.experts_per_token, moe_layers=moe_layers(shape), shared=bool(getattr(shape, "shared_experts", 0)),
        mla=bool(shape.kv_elements_override), window=float(win) if win else None,
        window_frac=1.0 if frac is None else float(frac), gemms=block_gemms(shape),
        qk_norm_all_heads=bool(getattr(shape, "qk_norm_all_heads", False)), hybrid=hybrid_consts(shape),
        latent=int(getattr(shape, "moe_latent", None) or 0), kv_heads=int(getattr(shape, "kv_heads", 1) or 1),
        heads=int(getattr(shape, "heads", 1) or 1),
        group=1.0 if shape.kv_elements_override else max(1.0, float(getattr(shape, "heads", 1) or 1)
                                                           / float(getattr(shape, "kv_heads", 1) or 1)),
        sparse=sparse_consts(shape), norm_kernels=int(getattr(shape, "norm_kernels", 2)),
        global_kv=(int(ga[1]), ga[0] / shape.head_dim) if (ga := getattr(shape, "global_attn", None)) else None,
        graph_kernels=tuple(getattr(shape, "graph_kernels", ())))


def sparse_consts(shape: Any) -> tuple[float, float, float, float, float] | None:
    """A DSA model's (tokens each query attends, the indexer's width, its key's bytes a token and layer, the MLA
    entry's elements, the share of the layers that keep an indexer): per query and past token and indexer layer the
    lightning indexer computes one FP8 logit a head, 2 x index heads x index head width FLOPs, which is
    4 x (index heads x width / 2) in :func:`attention_width`'s terms (DeepSeek-V3.2 report, section 2.1; vLLM
    deepseek_v2.py Indexer); a layer that shares an earlier layer's top-k (IndexShare) runs none. None for dense
    attention."""
    sa = getattr(shape, "sparse_attn", None)
    if not sa or not shape.kv_elements_override:
        return None
    heads, dim, top_k, key_bytes = sa
    return (float(top_k), heads * dim / 2.0, float(key_bytes), float(shape.kv_elements_override),
            float(getattr(shape, "indexer_share", 1.0)))


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
    return MS.kv_cache_bytes(shape, 1, kv_bytes).value


kv_heads_effective = MS.kv_heads_effective
window_tokens = MS.window_tokens


def attention_width(shape: Any) -> float:
    """Per token, per context position and layer, attention costs 4 x this FLOPs (QK and PV).
    MLA in absorbed form works on the 576-wide latent per head."""
    if shape.kv_elements_override:
        return float(shape.heads * shape.kv_elements_override)
    return float(shape.q_width_mean) if getattr(shape, "global_attn", None) else float(shape.q_dim)


MLA_ROPE_HEAD_DIM = 64
"""Decoupled RoPE dimension per head of multi-head latent attention: d_h^R = 64 in DeepSeek-V2 (arXiv:2405.04434,
section 2.1.3) and qk_rope_head_dim 64 in the DeepSeek-V3/R1 and Kimi K2 config.json files."""


def prefill_attention_width(shape: Any) -> float:
    """:func:`attention_width` for prompt tokens. MLA decodes in the absorbed form (every head attends
    the 576-wide latent: little to read, more to multiply), but prefills in the uncompressed
    multi-head form, where a head's QK product is qk_nope + rope = 128 + 64 wide and its PV product 128
    wide (the compute-friendly path: DeepSeek-V2 paper section 2.1.2 on absorbing W^UK/W^UV for
    inference; vLLM's MLA backend and SGLang's DeepSeek attention prefill with MHA and decode with the
    absorbed form): 2 x heads x (192 + 128) FLOPs per token and position, 3.6x fewer than the latent
    form's 4 x heads x 576."""
    if shape.kv_elements_override and getattr(shape, "sparse_attn", None):
        # sparse MLA prefills in the absorbed latent form as it decodes (vLLM v1/attention/backends/mla/
        # flashmla_sparse.py @ 60191e18 forward_mqa: the sparse FlashMLA kernels take the 576/512 MQA form for
        # prefill and decode alike), over the top-k tokens only (:func:`step._parts`)
        return attention_width(shape)
    if shape.kv_elements_override:
        return float(shape.heads * (2 * shape.head_dim + MLA_ROPE_HEAD_DIM) / 2)
    return float(shape.q_width_mean) if getattr(shape, "global_attn", None) else float(shape.q_dim)
