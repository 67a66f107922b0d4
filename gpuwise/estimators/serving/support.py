"""Whether a framework runs a precision on a GPU, and the matmul path it takes: facts the rules read."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...frozen import frozen
from ...inputs.job import VENDOR_NAMES
from ...knowledge.records import in_releases, release_at_least, version_key
from ...messages import Phrase, phrase_text, quoted
from .. import compute as C
from ..interconnect import gpus_per_server
from .gemms import block_gemms

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ...knowledge.schema import Gpu
    from ...knowledge.schema.serving import Framework

# ----------------------------------------------------------------------------- requests
def request_lengths(w: Any) -> tuple[int, int]:
    """(prompt, output) tokens of one request; the schema fills them in (see Workload)."""
    prompt = w.prompt_tokens or max(1, w.context_len - max(1, w.context_len // 2))
    output = w.output_tokens or max(1, w.context_len // 2)
    return int(prompt), int(output)


def deepgemm_pad_rows(job: Any, fw: Framework, gpu: Gpu, block_checkpoint: bool) -> float:
    """Rows of padding a MoE layer's grouped expert GEMM multiplies beside the routed ones where the job's stated
    release runs the model's own block-FP8 experts on DeepGEMM's contiguous kernel at every batch on the GPU's
    architecture (serving.yaml ``deepgemm_moe_padding``): ``block_m - 1`` for each of the layer's experts (vLLM
    DeepGemmExperts.workspace_shapes: M x topk + experts x (block_m - 1) rows); 0 elsewhere and for a job that
    states no release."""
    span = fw.deepgemm_moe_padding
    shape = job.shape
    if span is None or not block_checkpoint or not shape.moe or (gpu.architecture or "") not in span.architectures:
        return 0.0
    version = getattr(job.w, "framework_version", None)
    if not in_releases(span, version) and not (span.below_tp and version is not None and version_key(
            span.before) <= version_key(version) < version_key(span.below_tp_before or span.before)):
        return 0.0
    return float(shape.experts * (span.block_m - 1))


def deepgemm_pad_at(fw: Framework, version: str | None, moe_tp: int) -> bool:
    """Whether a layout whose MoE layer is ``moe_tp``-way tensor parallel (vLLM FusedMoEParallelConfig.tp_size: TP x
    DP, 1 with expert parallelism) runs the padded DeepGEMM path in the stated release: always inside the window;
    after it, up to ``below_tp_before``, only below ``below_tp`` (0.12.0-0.14.1 turn it off from a MoE TP of 8)."""
    span = fw.deepgemm_moe_padding
    if span is None or version is None or version_key(version) < version_key(span.before):
        return True
    return span.below_tp is not None and moe_tp < span.below_tp


# ------------------------------------------------------------------------------- support
@frozen
class Support:
    """Can ``framework`` run ``precision`` on ``gpu``: the facts the rules read."""

    gpu_ok: bool
    precision_ok: bool
    multi_node_ok: bool
    reason: str
    detail_phrases: tuple[Phrase, ...]  # why, as message ids and values (reports/messages.yaml serve.*)
    compute: str  # the matmul precision actually used ("bf16" for a weight-only fallback)
    weight_only: bool = False

    @property
    def ok(self) -> bool:
        return self.gpu_ok and self.precision_ok and self.multi_node_ok

    @property
    def detail(self) -> str:
        """Why, in English (what the rules show)."""
        return phrase_text(self.detail_phrases)


def backend_majors(limits: Any, backend: str | None) -> list[int]:
    """The compute capability majors the attention backend's kernels run on (serving.yaml
    ``attention_backend_vendors.compute_capability_majors``); empty where it names none."""
    return list(limits.compute_capability_majors.get(backend, [])) if limits is not None and backend else []


def majors_text(majors: list[int]) -> str:
    """'8.x, 9.x': compute capability majors as a GPU's capability is written."""
    return ", ".join(f"{m}.x" for m in majors)


def _cc(gpu: Gpu) -> float | None:
    return float(gpu.compute_capability) if gpu.compute_capability else None


def backend_refusal(limits: Any, backend: str | None, gpu: Gpu, mla: bool) -> tuple[str, Phrase] | None:
    """Why the attention backend the job states does not start on ``gpu`` for a model with (``mla``) or without
    multi-head latent attention (serving.yaml ``attention_backend_vendors``: the makers, the compute capability
    majors, and the model kinds its kernels serve), as ``supports.reason`` and its phrase; None where it starts."""
    if limits is None or backend is None:
        return None
    cc = _cc(gpu) or 0.0
    makers = limits.only_on.get(backend)
    if makers is not None and gpu.vendor not in makers:
        return "attention_backend_vendor", ("", "serve.attention_backend_vendor", {
            "backend": backend, "vendors": ", ".join(makers), "vendor": gpu.vendor})
    majors = backend_majors(limits, backend)
    if majors and int(cc) not in majors:
        return "attention_backend_compute_capability", ("", "serve.attention_backend_cc", {
            "backend": backend, "majors": majors_text(majors), "gpu": gpu.name, "has": cc})
    if mla and backend in limits.not_mla:
        return "attention_backend_model", ("", "serve.attention_backend_not_mla", {"backend": backend})
    if not mla and backend in limits.mla_only:
        return "attention_backend_model", ("", "serve.attention_backend_mla_only", {"backend": backend})
    mla_majors = list(limits.mla_compute_capability_majors.get(backend, [])) if mla else []
    if mla_majors and int(cc) not in mla_majors:
        return "attention_backend_model", ("", "serve.attention_backend_mla_cc", {
            "backend": backend, "majors": majors_text(mla_majors), "gpu": gpu.name, "has": cc})
    return None


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


@frozen(slots=True)
class SupportFigures:
    """What knowledge/serving.yaml says of a framework serving a precision on a GPU, as the rules
    compare it (CMP-FRAMEWORK-GPU, CMP-FRAMEWORK-PRECISION): the lookups and the compute-capability
    floors that apply (0 where none does: not a CUDA device, or no floor listed)."""

    framework_vendor_listed: bool  # the GPU's vendor is one the framework runs on
    framework_min_cc: float  # the framework's CUDA build's floor
    precision_listed: bool  # the framework loads the precision, for this vendor
    precision_min_cc: float  # the floor of the precision's kernels
    precision_units: bool  # the GPU has the units its matmuls (or their fallback) need


def support_figures(fw: Framework, gpu: Gpu, precision: str) -> SupportFigures:
    """:class:`SupportFigures` of ``fw`` serving ``precision`` on ``gpu``: the lookups (vendor
    listed, precision loaded for the vendor, the units its matmuls or their fallback need) and the
    compute-capability floors that apply."""
    cc = _cc(gpu)
    cuda = gpu.vendor == "nvidia" and cc is not None
    fp = fw.precisions.get(precision)  # type: ignore[call-overload]
    fallback = fp is not None and bool(fp.fallback_compute and has_units(gpu, fp.fallback_compute)) and (
        fp.fallback_vendors is None or gpu.vendor in fp.fallback_vendors)  # a weight-only path made for this vendor
    units = fp is not None and (has_units(gpu, fp.compute) or fallback)
    return SupportFigures(
        framework_vendor_listed=gpu.vendor in fw.vendors,
        framework_min_cc=float(fw.min_compute_capability) if cuda else 0.0,
        precision_listed=fp is not None and (fp.vendors is None or gpu.vendor in fp.vendors),
        precision_min_cc=float(fp.min_compute_capability or 0.0) if cuda and fp is not None else 0.0,
        precision_units=units,
    )


def support(fw: Framework, gpu: Gpu, precision: str, gpus_per_copy: int = 1, backend: str | None = None,
            mla: bool = False) -> Support:
    """The first reason ``fw`` cannot serve ``precision`` on ``gpu`` (or "ok"), and the compute path:
    the estimator's reading of :func:`support_figures` (the layouts it times), which the rules
    compare on their own for the verdict. ``backend``: the attention backend the job states, whose kernels may be
    one maker's own or serve one kind of model (``mla``: the model has multi-head latent attention; serving.yaml
    ``attention_backend_vendors``; CMP-ATTENTION-BACKEND-GPU)."""
    fig = support_figures(fw, gpu, precision)
    cc = _cc(gpu) or 0.0
    fp = fw.precisions.get(precision)  # type: ignore[call-overload]
    compute = fp.compute if fp else "bf16"
    weight_only = False
    gpu_ok, prec_ok, reason = True, True, "ok"
    detail: Phrase = ("", "serve.ok", {})
    if not fig.framework_vendor_listed:
        gpu_ok, reason = False, "gpu_vendor"
        detail = ("", "serve.gpu_vendor", {"fw": fw.name, "vendors": ", ".join(fw.vendors), "vendor": gpu.vendor})
    elif cc < fig.framework_min_cc:
        gpu_ok, reason = False, "gpu_compute_capability"
        detail = ("", "serve.gpu_cc", {"fw": fw.name, "need": fig.framework_min_cc, "gpu": gpu.name, "has": cc})
    refused = backend_refusal(fw.attention_backend_vendors, backend, gpu, mla) if gpu_ok else None
    if refused is not None:
        gpu_ok, (reason, detail) = False, refused
    if fp is None:
        prec_ok = False
        if reason == "ok":
            reason = "precision_unsupported"
            why = fw.unsupported.get(precision)  # type: ignore[call-overload]
            detail = quoted(why) if why else ("", "serve.precision_unsupported", {"fw": fw.name,
                                                                                 "precision": precision})
    else:
        bad: tuple[str, Phrase] | None = None
        if not fig.precision_listed:
            bad = ("precision_vendor", ("", "serve.precision_vendor", {"fw": fw.name, "precision": precision,
                                                                      "kernel": fp.kernel, "vendor": gpu.vendor}))
        elif cc < fig.precision_min_cc:
            bad = ("precision_compute_capability", ("", "serve.precision_cc", {
                "fw": fw.name, "precision": precision, "kernel": fp.kernel, "need": fig.precision_min_cc,
                "gpu": gpu.name, "has": cc}))
        elif not has_units(gpu, fp.compute):
            if fig.precision_units:  # the fallback's units
                compute, weight_only = fp.fallback_compute, True
            elif fp.fallback_compute and has_units(gpu, fp.fallback_compute):  # a weight-only path, not this maker's
                bad = ("precision_hardware", ("", "serve.precision_no_weight_only", {
                    "fw": fw.name, "precision": precision, "units": fp.compute.upper(), "gpu": gpu.name,
                    "vendor": VENDOR_NAMES.get(gpu.vendor, gpu.vendor)}))
            else:
                bad = ("precision_hardware", ("", "serve.precision_hardware", {
                    "fw": fw.name, "precision": precision, "units": fp.compute.upper(), "gpu": gpu.name}))
        if bad:
            prec_ok = False
            if reason == "ok":
                reason, detail = bad
    node = gpus_per_server(gpu)  # the candidates' per_node, which CMP-FRAMEWORK-NODES compares a copy with
    multi_ok = fw.multi_node or gpus_per_copy <= node
    if not multi_ok and reason == "ok":
        reason = "multi_node"
        detail = ("", "serve.multi_node", {"gpus": gpus_per_copy, "node": node, "fw": fw.name})
    return Support(gpu_ok, prec_ok, multi_ok, reason, (detail,), compute, weight_only)


def clock_factor(gpus: dict[str, Gpu], gpu: Gpu, sources: tuple[Any, ...], compute: str) -> float:
    """How much faster than the part its compute efficiency was read on ``gpu`` multiplies: the first of
    ``sources`` (the engine's override order) that sets ``compute_efficiency`` and names the GPU it was read on
    (``efficiency_read_on``); where both catalog entries give the clock they hold through a dense GEMM of the
    precision (gpus.yaml ``clocks``), the rate follows that clock as a share of the clock each part's peaks are
    counted at (``peak_mhz``): the peak already carries its own clock, so only the held share moves the efficiency.
    The MI300X at 750 W holds 1,230 MHz in FP8 GEMMs, the MI325X at 1,000 W 1,464, from the same 2,100 MHz peak
    (AMD's Max-Achievable FLOPs table), so an efficiency read on the MI300X is 1.19 x as much on the MI325X. 1 where
    either clock is not given."""
    own = next((o for o in sources if o is not None and getattr(o, "compute_efficiency", None) is not None), None)
    ref = gpus.get(getattr(own, "efficiency_read_on", None) or "")
    return 1.0 if ref is None else C.held_clock_ratio(gpu, ref, compute)


FROM_RELEASE = {"allreduce_latency_us": "allreduce_latency_from", "bandwidth_fraction": "bandwidth_fraction_from"}
"""Override figures that hold only from a stated release of the build on (the field naming that release)."""


def holds_from(override: Any, name: str, version: str | None) -> bool:
    """Whether ``override``'s ``name`` applies to a job on ``version``: always, unless the override says from which
    release on its build runs what the figure measures (``allreduce_latency_from``: SGLang's ROCm build defaults to
    aiter's custom all-reduce from 0.5.5.post3 on) and the job states an earlier release; a job that states none runs
    the newest. Releases order as records.release_key has them (0.5.5.post3 after 0.5.5.post2)."""
    bound = getattr(override, FROM_RELEASE.get(name, ""), None)
    if bound is None or version is None:
        return True
    return release_at_least(version, bound)


def nvfp4_gemm_rate(job: Any, fw: Framework, gpu: Gpu, fmt: str, compute: str, weight_only: bool,
                    rate: float) -> float:
    """FLOP/s of the dense NVFP4 GEMMs at a batch of prompt and decode rows (serving.yaml ``nvfp4_large_batch``):
    ``rate`` (the framework's efficiency of the FP4 peak), capped at the NVFP4 kernels' own measured throughput, a
    share of the GPU's dense FP4 peak, where the framework runs W4A4 NVFP4 on a compute capability it was read on.
    The FP4 tensor rate doubles FP8's, but the block-scaled FP4 GEMM does not double the FP8 one's throughput.
    On the GPUs of ``nvfp4_efficiency_scale`` it does: there ``rate`` is scaled by the NVFP4 GEMM's share of the FP4
    peak over the share of the FP8 peak the GEMMs of the part the efficiency was read on reach.
    MXFP4 on AMD Instinct through AITER's assembly GEMMs: their own measured rate instead (:func:`mxfp4_asm_gemm_rate`),
    which replaces ``rate``, the framework's whole-step efficiency read on an FP8 MI300X run."""
    serving = getattr(job.kb, "serving", None)
    asm = mxfp4_asm_gemm_rate(job, fw, gpu, fmt, compute, weight_only)
    if asm:
        return asm
    if fmt != "nvfp4" or compute != "fp4" or weight_only:
        return rate
    scale = getattr(serving, "nvfp4_efficiency_scale", None) if serving is not None else None
    if scale is not None and fw.id in scale.frameworks and gpu.id in scale.gpus:
        return rate * scale.square_share / scale.reference_share
    cap = getattr(serving, "nvfp4_large_batch", None) if serving is not None else None
    if cap is None or fw.id not in cap.frameworks:
        return rate
    if (gpu.compute_capability or "") not in cap.compute_capabilities:
        return rate
    return min(rate, cap.peak_share * peak_tflops(gpu, "fp4") * 1e12)


def fp8_depth(job: Any, fw: Framework, gpu: Gpu, fmt: str, compute: str, weight_only: bool,
              method: Any) -> tuple[float, float]:
    """(a tile's fixed cost in 128-deep blocks, the depth rate of the GEMMs the framework's efficiency was read on)
    where the framework runs the dense linears of a per-tensor or per-channel FP8 checkpoint as W8A8 FP8 GEMMs on an
    architecture they were timed on (serving.yaml ``fp8_large_batch``; :func:`depth_rate`); () elsewhere, where the
    framework's efficiency holds as read. Not for a block-scaled checkpoint (its releases' own block-FP8 rates) nor a
    quantization method the job names."""
    from ...inputs.shape import from_catalog

    serving = getattr(job.kb, "serving", None)
    own = getattr(serving, "fp8_large_batch", None) if serving is not None else None
    if own is None or fmt != "fp8" or compute != "fp8" or weight_only or method is not None:
        return ()
    if fw.id not in own.frameworks or (gpu.architecture or "") not in own.architectures:
        return ()
    ck = serving.fp8_checkpoints.get(job.model_id) if job.model_id else None
    if ck is not None and ck.scaling == "block":
        return ()
    ref = block_gemms(from_catalog(job.kb.models[own.read_on_model]))
    return own.fixed_k_blocks, depth_rate(ref, own.fixed_k_blocks, own.read_on_tp)


def depth_rate(gemms: Any, fixed: float, split: int) -> float:
    """The share of an infinitely deep GEMM's rate a forward's dense GEMMs reach on one GPU, each at its reduction
    depth (serving.yaml ``fp8_large_batch``): a GEMM of kb = K / 128 blocks at kb / (kb + ``fixed``), K the depth on
    this GPU (``split`` tensor-parallel ranks divide the row-parallel GEMMs' K, "k", and the column-parallel ones'
    N, "n": gemms.block_gemms). Their FLOPs over the sum of their times; 1 for none."""
    flops = seconds = 0.0
    for n, k, dim, count in gemms:
        n_gpu = n / split if dim == "n" else n
        k_gpu = k / split if dim == "k" else k
        kb = k_gpu / 128.0
        f = count * n_gpu * k_gpu
        flops += f
        seconds += f * (kb + fixed) / kb
    return flops / seconds if seconds > 0 else 1.0


def mxfp4_asm_gemm_rate(job: Any, fw: Framework, gpu: Gpu, fmt: str, compute: str, weight_only: bool) -> float:
    """FLOP/s of the dense W4A4 MXFP4 GEMMs where the job runs AITER's assembly FP4 GEMMs (serving.yaml
    ``mxfp4_asm_gemm``): vLLM's ROCm build with AITER on (``rocm_aiter``) and VLLM_ROCM_USE_AITER_FP4_ASM_GEMM=1
    (``rocm_fp4_asm_gemm``) on a GPU the tuned table was timed on, at the table's share of the GPU's dense FP4 peak;
    0 elsewhere (the framework's efficiency then holds)."""
    serving = getattr(job.kb, "serving", None)
    own = getattr(serving, "mxfp4_asm_gemm", None) if serving is not None else None
    if own is None or fmt != "mxfp4" or compute != "fp4" or weight_only or fw.id not in own.frameworks:
        return 0.0
    w = job.w
    if not (getattr(w, "rocm_aiter", None) and getattr(w, "rocm_fp4_asm_gemm", None)):
        return 0.0
    if gpu.id not in own.gpus:
        return 0.0
    return own.peak_share * peak_tflops(gpu, "fp4") * 1e12


def attention_backend_of(job: Any, fw: Any) -> str | None:
    """The attention backend a job's server runs where gpuwise prices one: the job's own
    (``workload.attention_backend``), else, for a model with multi-head latent attention on a release before the
    framework's ``triton_decode_walk.mla_default_before``, that kernel's backend (SGLang's ModelRunner set an MLA
    model's backend to Triton unless told otherwise up to 0.4.5); None otherwise."""
    stated = getattr(job.w, "attention_backend", None)
    walk = getattr(fw, "triton_decode_walk", None)
    version = getattr(job.w, "framework_version", None)
    if stated or walk is None or walk.mla_default_before is None or version is None or not job.shape.mla:
        return stated
    return None if release_at_least(version, walk.mla_default_before) else walk.backend


def rocm_unified_walk(job: Any, fw: Any, vendor: str, kv_bytes: float) -> tuple[float, float, int]:
    """(B/s the split-KV kernel walks one sequence's KV head at, B/s the one-program kernel does, sequences x KV heads
    a GPU holds up to which a decode step takes the split-KV kernel) where the job's stated release of the framework's
    ROCm build runs decode attention on its Triton unified attention kernel: AITER off (``rocm_aiter`` not true), a
    model without multi-head latent attention (its own Triton MLA kernel), on a vendor read (serving.yaml
    ``rocm_unified_attention_walk``). A program walks one tile of tokens per ``iteration_us``: its rate is the tile's K
    and V bytes of one head over that time, the split-KV kernel's ``segments`` of them together. (0, 0, 0) elsewhere,
    and for a job that states no release (the current release's default is another backend). A model whose global
    layers' heads are wider than its windowed layers' (Gemma 4) runs the kernel in every release from the first read,
    AITER or not, where the walk says the framework forces it (``mixed_head_dims``)."""
    walk = getattr(fw, "rocm_unified_attention_walk", None)
    w, shape = job.w, job.shape
    if walk is None or vendor not in walk.vendors or shape.mla:
        return 0.0, 0.0, 0
    version = getattr(w, "framework_version", None)
    ga = getattr(shape, "global_attn", None)
    forced = walk.mixed_head_dims and ga is not None and ga[0] != shape.head_dim  # Gemma 4: every release from first
    if version is None or not (release_at_least(version, walk.first) if forced else in_releases(walk, version)):
        return 0.0, 0.0, 0
    if getattr(w, "rocm_aiter", None) and not forced:
        return 0.0, 0.0, 0
    head_bytes = 2 * shape.head_dim * kv_bytes  # one token's K and V of one head
    per_s = 1e6 / walk.iteration_us  # tiles a program walks a second
    return (walk.segments * walk.decode_tile_tokens * head_bytes * per_s,
            walk.prefill_tile_tokens * head_bytes * per_s, walk.launch_grid)


def rocm_paged_walk(job: Any, fw: Any, gpu: Any, kv_bytes: float) -> tuple[float, float, int]:
    """(B/s one program walks one sequence's KV head at, the same, 0: at every batch) where the job's stated release
    of the framework's ROCm build decodes on a GPU architecture its custom paged-attention kernel's gate leaves out
    (serving.yaml ``rocm_paged_decode_walk``: vLLM 0.8.5-0.10.x on gfx908, whose V1 Triton paged-decode and unified
    kernels give a (sequence, KV head) one program, walking a cache block per ``iteration_us``). A model with
    multi-head latent attention runs its own Triton MLA kernel and a job that states no release the current default:
    (0, 0, 0) for both, as elsewhere."""
    walk = getattr(fw, "rocm_paged_decode_walk", None)
    if (walk is None or gpu.vendor not in walk.vendors or (gpu.architecture or "") not in walk.architectures
            or job.shape.mla or not in_releases(walk, getattr(job.w, "framework_version", None))):
        return 0.0, 0.0, 0
    rate = walk.tile_tokens * 2 * job.shape.head_dim * kv_bytes * 1e6 / walk.iteration_us
    return rate, rate, 0


def rocm_walk(job: Any, fw: Any, gpu: Any, kv_bytes: float) -> tuple[float, float, int]:
    """The ROCm build's decode walk for the job: its unified attention kernel's where the release runs it
    (:func:`rocm_unified_walk`), else its paged-decode kernel's on an architecture without the custom kernel
    (:func:`rocm_paged_walk`); the two windows do not meet."""
    unified = rocm_unified_walk(job, fw, gpu.vendor, kv_bytes)
    return unified if unified[0] else rocm_paged_walk(job, fw, gpu, kv_bytes)


def triton_walk(fw: Any, backend: str | None, gpu: Any) -> tuple[float, float, int]:
    """A split-KV decode kernel the server runs (:func:`attention_backend_of`), as serving.yaml
    ``triton_decode_walk`` reads it: (B/s it walks one sequence's KV head at, its split count a head times one
    program's rate; B/s all the programs the GPU holds at once walk at together, its SMs x ``programs_per_sm`` x that
    rate, 0 where either is not read; query heads a program takes). (0, 0, 16) where none is read."""
    walk = fw.triton_decode_walk
    if walk is None or backend != walk.backend or gpu.vendor not in walk.vendors:
        return 0.0, 0.0, 16
    rate = walk.program_gb_s * 1e9
    sms = gpu.peaks.sms
    slots = sms * resident_programs(walk, gpu) * rate if sms and walk.programs_per_sm else 0.0
    return walk.max_kv_splits * rate, slots, walk.block_heads


def resident_programs(walk: Any, gpu: Any) -> int:
    """Programs of the split-KV kernel one SM of ``gpu`` holds at once: ``programs_per_sm`` (its registers: 255 a
    thread x 128 threads against 65,536 an SM, the same on every NVIDIA generation from Volta to Blackwell), or
    fewer where the SM's shared memory holds fewer of its programs (serving.yaml ``triton_decode_walk``
    ``sm_shared_bytes`` over ``program_shared_bytes``: one on an 8.6, 8.9 or 12.x part's 100 KB, of 52 KB
    programs). At least one: a program that fits no SM would not launch."""
    held = walk.programs_per_sm or 0
    room = walk.sm_shared_bytes.get(gpu.compute_capability or "")
    if room and walk.program_shared_bytes:
        held = min(held, max(1, room // walk.program_shared_bytes))
    return held
