"""Which models a release's fused small-kernel figure holds for (serving.yaml ``fused_kernel_models``): SGLang's
builds from 0.5.7 list the architectures with explicit support for their fused decode-layer kernels (the models
its FlashInfer all-reduce fusion is turned on for by default), and the release entry's per-kernel figure was read
on one of them (DeepSeek-R1). Another model runs the small kernels its own code launches, at the framework's own
figure for a counted kernel, and so does a listed model on a GPU the release leaves the fusion off on. And where
a release leaves a MoE layer's shared expert out of the fused-MoE kernel with no second stream beside it
(``serial_shared_expert``), the GEMMs it runs after the routed experts. Also the kernels a build folds into others:
a compiled graph's FP8 activation quantization (``act_quant_fused``) and an MLA layer's norms that emit FP8
(``mla_norm_quant_fused``)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from ...knowledge.records import release_at_least, version_key
from .weights import moe_layers


def kernel_floor(job: Any, fw: Any, rel: Any, floor: float, gpu_id: str | None = None) -> float:
    """Seconds a counted small kernel costs the job: ``floor`` (its release entry's figure) where the framework lists
    no such models, the release predates the list, or the job's model is on it, the release does not leave the
    fusion off on the job's GPU (``gpus_excluded``: SGLang 0.5.7-0.5.12 on the H20) and its router runs fused (not
    :func:`router_unfused`: GLM-4.5's 160 experts); else the framework's own figure."""
    listed = fw.fused_kernel_models
    if listed is None or rel is None or rel.kernel_floor_us is None:
        return floor
    span = release_entry(listed.releases, getattr(job.w, "framework_version", None))
    if span is None or (job.model_id in span.models and gpu_id not in span.gpus_excluded
                        and not router_unfused(job, fw, gpu_id)):
        return floor
    return float(fw.kernel_floor_us.value) * 1e-6


def router_unfused(job: Any, fw: Any, gpu_id: str | None) -> bool:
    """Whether the framework routes the job's model through its torch.compile'd top-k function on the job's GPU
    (serving.yaml ``torch_router``: no fused gate takes its experts), so the release's fused small-kernel figure,
    read on a model whose routing and top-k run fused, does not hold for it: its counted kernels cost the framework's
    own figure, as an unlisted model's do."""
    got = fw.torch_router
    if got is None or job.model_id not in got.models or gpu_id is None:
        return False
    gpu = job.kb.gpus.get(gpu_id)
    return gpu is not None and gpu.vendor in got.vendors


def release_entry(entries: list, version: str | None) -> Any:
    """The last of ``entries`` (oldest first, each with ``since``) at or before ``version``, the newest where none is
    given; None before the first."""
    if version is None:
        return entries[-1]
    key = version_key(version)
    got = [e for e in entries if version_key(e.since) <= key]
    return got[-1] if got else None


def torch_router(job: Any, fw: Any, vendor: str | None) -> tuple[tuple[float, float], ...]:
    """(tokens, seconds) points of what a MoE layer's router costs the job beyond a fused gate where the framework
    runs the model's router as a torch.compile'd top-k function (serving.yaml ``torch_router``), each never less
    than the one before (a step never pays less for more tokens); () where it does not."""
    got = fw.torch_router
    if got is None or job.model_id not in got.models or vendor not in got.vendors:
        return ()
    out, most = [], 0.0
    for p in sorted(got.points, key=lambda p: p.tokens):
        most = max(most, (p.torch_us - p.fused_us) * 1e-6)
        out.append((float(p.tokens), most))
    return tuple(out)


def router_seconds(points: tuple[tuple[float, float], ...], tokens: float) -> float:
    """Seconds a MoE layer's torch router costs beyond a fused gate for ``tokens`` tokens (:func:`torch_router`'s
    points): the first point's below it, the line through the two around it between them, and beyond the last the
    line through the last two (one point: its figure)."""
    if tokens <= points[0][0] or len(points) == 1:
        return points[0][1]
    for (t0, s0), (t1, s1) in pairwise(points):
        if tokens <= t1:
            return s0 + (s1 - s0) * (tokens - t0) / (t1 - t0)
    (t0, s0), (t1, s1) = points[-2], points[-1]
    return s1 + (s1 - s0) * (tokens - t1) / (t1 - t0)


def serial_shared_gemms(job: Any, fw: Any, gpu: Any) -> tuple[tuple[float, float, str, float], ...]:
    """A MoE layer's shared-expert GEMMs where the framework runs them apart from the fused-MoE kernel and after it on
    the same stream (serving.yaml ``serial_shared_expert``: the model, the GPU's vendor and the stated release; a job
    that states none runs the newest, which an entry ending at a release does not reach), as
    ``gemms.block_gemms`` lists GEMMs: gate/up (N = 2 x the shared width, K = hidden, columns split) and down
    (N = hidden, K = the shared width, depth split), once a MoE layer. Empty elsewhere: the shared expert runs inside
    the routed experts' kernel, or beside it on a second stream."""
    shape = job.shape
    shared = float(getattr(shape, "shared_experts", 0) or 0)
    if not shape.moe or not shared:
        return ()
    version = getattr(job.w, "framework_version", None)
    for entry in fw.serial_shared_expert:
        if gpu.vendor not in entry.vendors or (entry.models and job.model_id not in entry.models):
            continue
        if version is None and entry.before is not None:
            continue
        if version is not None and not ((entry.first is None or release_at_least(version, entry.first))
                                        and (entry.before is None or not release_at_least(version, entry.before))):
            continue
        width, h, layers = float(shape.ffn) * shared, float(shape.hidden), float(moe_layers(shape))
        return ((2.0 * width, h, "n", layers), (h, width, "k", layers))
    return ()


def act_quant_fused(job: Any, vo: Any, fmt: str, weight_format: str | None) -> bool:
    """Whether the build's compiled decode graph folds each dense layer's FP8 activation quantization into the norm
    and activation kernels before it (serving.yaml ``act_quant_fused_from``; step.QUANT_KERNELS_COMPILED are left): a
    job on that release or a later one, or stating none, whose scheme quantizes activations per tensor or per token --
    online ``quantization: fp8``, or a checkpoint ``fp8_checkpoints`` scales by channel or tensor. A block-scaled
    checkpoint's per-group quantization stays a kernel of its own, and so does a scheme not known."""
    first = getattr(vo, "act_quant_fused_from", None) if vo is not None else None
    version = getattr(job.w, "framework_version", None)
    if first is None or fmt != "fp8" or weight_format is not None or (
            version is not None and version_key(version) < version_key(first)):
        return False
    if getattr(job.w, "quantization", None) is not None:
        return bool(job.w.quantization == "fp8")
    serving = getattr(job.kb, "serving", None)
    ck = serving.fp8_checkpoints.get(job.model_id) if serving is not None and job.model_id else None
    return ck is not None and ck.scaling in ("channel", "tensor")


def mla_norm_quant_fused(job: Any, overrides: tuple, compute: str, weight_only: bool) -> int:
    """Small kernels fewer a layer of a multi-head latent attention model where the build's RMSNorm kernels emit the
    FP8 activations of the GEMMs after them (serving.yaml architecture override ``mla_norm_quant_fused_kernels``:
    SGLang's ROCm build on CDNA 4 with AITER on): a job served in W8A8 FP8 on that release or a later one, or stating
    none, and not saying AITER is off; 0 elsewhere. The step takes them off the MLA layers' count
    (step._extra_kernels)."""
    if compute != "fp8" or weight_only or getattr(job.w, "rocm_aiter", None) is False:
        return 0
    version = getattr(job.w, "framework_version", None)
    for o in overrides:
        fewer = getattr(o, "mla_norm_quant_fused_kernels", None) if o is not None else None
        if fewer:
            first = o.mla_norm_quant_fused_from
            return fewer if version is None or first is None or release_at_least(version, first) else 0
    return 0
