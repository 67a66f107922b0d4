"""What a model's published low-bit checkpoint stores in another format than its own (serving.yaml
``fp4_checkpoints``, ``int4_checkpoints``: parts kept in 16 bit, parts in FP8, experts stored W4A16), and the dense
NVFP4 kernels a framework runs on what it quantizes (``nvfp4_small_batch``, ``nvfp4_activation_quant``,
``nvfp4_k_walk``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ...knowledge.schema import Gpu
    from ...knowledge.schema.serving import Framework


def _checkpoint(job: Any, fmt: str, weight_format: str | None) -> Any:
    """The model's published FP4 or INT4 checkpoint (``fp4_checkpoints``, ``int4_checkpoints``) where the job
    serves it: its precision's format, no other file named; else None."""
    serving = getattr(job.kb, "serving", None)
    if serving is None or not job.model_id or weight_format or job.w.precision not in ("fp4", "int4"):
        return None
    table = serving.fp4_checkpoints if job.w.precision == "fp4" else serving.int4_checkpoints
    ck = table.get(job.model_id)
    return ck if ck is not None and fmt == ck.format else None


def fp8_scaling(job: Any, fmt: str, method: Any) -> str | None:
    """How the model's published FP8 checkpoint scales its weights (``fp8_checkpoints``: block, channel or tensor)
    where the job serves it as published (FP8, no quantization method named); else None."""
    serving = getattr(job.kb, "serving", None)
    if serving is None or not job.model_id or fmt != "fp8" or method is not None:
        return None
    ck = serving.fp8_checkpoints.get(job.model_id)
    return ck.scaling if ck is not None else None


def checkpoint_keeps(job: Any, fmt: str, weight_format: str | None) -> tuple[str, ...]:
    """What the model's published low-bit checkpoint leaves in 16 bit, where the job serves it."""
    ck = _checkpoint(job, fmt, weight_format)
    return tuple(ck.keeps_16bit) if ck is not None else ()


def checkpoint_fp8(job: Any, fmt: str, weight_format: str | None) -> tuple[tuple[str, float], ...]:
    """(part, share of its weights) the model's published FP4 checkpoint stores in FP8, where the job serves it."""
    ck = _checkpoint(job, fmt, weight_format)
    return tuple(sorted(getattr(ck, "fp8", {}).items())) if ck is not None else ()


def w4a16_experts(job: Any, fmt: str, weight_format: str | None, bf16: float, rate: float) -> float:
    """The routed experts' GEMM rate: at most ``bf16`` where the published FP4 checkpoint stores them W4A16 (FP4
    weights, 16-bit activations: ``fp4_checkpoints`` weight_only), else ``rate``."""
    ck = _checkpoint(job, fmt, weight_format)
    return min(rate, bf16) if ck is not None and "routed_experts" in getattr(ck, "weight_only", ()) else rate


def checkpoint_bits(job: Any, fmt: str, weight_format: str | None) -> float | None:
    """The published INT4 checkpoint's own bits per quantized weight (its group scales), where the job serves it."""
    ck = _checkpoint(job, fmt, weight_format)
    return getattr(ck, "bits_per_weight", None) if ck is not None else None


def nvfp4_dense_rate(job: Any, fw: Framework, gpu: Gpu, fmt: str, compute: str, weight_only: bool) -> float:
    """B/s at which the dense NVFP4 GEMMs stream their weights at a decode batch (serving.yaml
    ``nvfp4_small_batch``): the block-scaled FP4 kernels' own rate where the framework runs them (W4A4 FP4 on the
    compute capabilities they were timed on); 0 elsewhere (the dense bandwidth then applies). The routed experts run
    the fused-MoE kernels, not these."""
    serving = getattr(job.kb, "serving", None)
    floor = getattr(serving, "nvfp4_small_batch", None) if serving is not None else None
    if floor is None or fmt != "nvfp4" or compute != "fp4" or weight_only or fw.id not in floor.frameworks:
        return 0.0
    return floor.weight_tb_s * 1e12 if (gpu.compute_capability or "") in floor.compute_capabilities else 0.0


def nvfp4_quant_mixer(job: Any, fw: Framework, fmt: str, compute: str, weight_only: bool,
                      keeps: tuple[str, ...]) -> int:
    """Where the framework quantizes a dense W4A4 NVFP4 linear's input in a kernel of its own (serving.yaml
    ``nvfp4_activation_quant``), the quantized projections of a mixer (attention or recurrent) layer, each one such
    kernel: 2 (the input and output projections), less those the published checkpoint keeps in 16 bit
    (``fp4_checkpoints``); -1 where the framework is not listed, the layers are not W4A4 NVFP4, or the checkpoint
    quantizes the routed experts alone ('non_experts': no dense NVFP4 linear, the experts quantize their input in
    the fused-MoE kernel) (:func:`step.fp4_quant_kernels` counts the MLP side)."""
    serving = getattr(job.kb, "serving", None)
    quant = getattr(serving, "nvfp4_activation_quant", None) if serving is not None else None
    if quant is None or fmt != "nvfp4" or compute != "fp4" or weight_only or fw.id not in quant.frameworks \
            or "non_experts" in keeps:
        return -1
    return 0 if "attention" in keeps else 1 if "attention_inputs" in keeps else 2


def nvfp4_k_block(job: Any, fw: Framework, gpu: Gpu, fmt: str, compute: str, weight_only: bool,
                  weight_format: str | None = None) -> float:
    """Seconds per 128-deep reduction block that a dense NVFP4 GEMM walks at a decode batch (serving.yaml
    ``nvfp4_k_walk``) where the framework runs W4A4 FP4 on a compute capability the walk was timed on; 0 elsewhere,
    and where the published checkpoint stores no dense linear in FP4 (``fp4_checkpoints`` 'non_experts')."""
    serving = getattr(job.kb, "serving", None)
    walk = getattr(serving, "nvfp4_k_walk", None) if serving is not None else None
    if walk is None or fmt != "nvfp4" or compute != "fp4" or weight_only or fw.id not in walk.frameworks \
            or "non_experts" in checkpoint_keeps(job, fmt, weight_format):
        return 0.0
    return walk.k_block_us * 1e-6 if (gpu.compute_capability or "") in walk.compute_capabilities else 0.0
