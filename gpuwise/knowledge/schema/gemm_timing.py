"""serving.yaml's readings of small-batch GEMM kernels: the block-scaled FP8 and NVFP4 kernels' time at a decode
step's few token rows and at large row counts, each with the GPUs and frameworks it was read on."""

from pydantic import Field

from .base import Check, Prose, Strict


class SmallBatchGemm(Strict):
    """What a block-scaled FP8 GEMM costs at a decode step's few token rows: the kernels (DeepGEMM, CUTLASS
    blockwise, Triton w8a8 block) have no split-K, so one thread block walks the whole reduction depth, one
    128-deep block of weights and scales after another, and a GEMM lasts at least that walk."""

    architectures: list[str] = Field(min_length=1, description="GPU architectures the timings were read on")
    k_block_us: float = Field(gt=0, le=10, description="microseconds per 128-deep reduction block at 1-64 rows")
    tile_rows: int = Field(default=64, ge=1, le=256, description="token rows of the thread block's output tile "
                           "at a decode batch (the kernels' smallest M tile)")
    tile_cols: int = Field(default=128, ge=1, le=512, description="weight columns of that tile (the scale block)")
    included_from: dict[str, str] = Field(
        default={}, description="framework id -> the first release (\"0\": every release) whose per-kernel figure "
        "was read end to end on a block-FP8 step on these GPUs, so it holds this walk already")
    source: Prose = Field(min_length=3)
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the timings were measured")
    check: Check = "S"


class _Fp4Timing(Strict):
    """What every reading of the dense NVFP4 kernels states beside its figure: the GPUs they were timed on, the
    frameworks that run them, and where and when the timings were read."""

    compute_capabilities: list[str] = Field(min_length=1, description="NVIDIA compute capabilities the kernels were "
                                            "timed on")
    frameworks: list[str] = Field(min_length=1, description="framework ids whose dense FP4 GEMMs run these kernels")
    source: Prose = Field(min_length=3)
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the timings were measured")
    check: Check = "S"


class Fp4SmallBatchGemm(_Fp4Timing):
    """The rate at which a dense NVFP4 GEMM streams its weights at a decode step's few token rows: the block-scaled
    FP4 kernels' time stays flat from 1 to some 32 rows, well under the memory's bandwidth."""

    weight_tb_s: float = Field(gt=0, le=20, description="TB/s of FP4 weights (scales included) at 1-32 rows")


class Fp4KWalk(_Fp4Timing):
    """A dense NVFP4 GEMM at a decode step's few token rows on GPUs whose block-scaled FP4 kernels have no split-K:
    one thread block walks the whole reduction depth, 128 deep at a time, and the GEMM lasts at least that walk
    however narrow it is (the block-scaled FP8 walk of ``block_fp8_small_batch``, on these GPUs' FP4 kernels)."""

    k_block_us: float = Field(gt=0, le=10, description="microseconds per 128-deep reduction block at one row")


class Fp4LargeBatchGemm(_Fp4Timing):
    """The throughput a dense NVFP4 GEMM reaches at prompt- and batch-sized row counts, as a share of the GPU's
    dense FP4 peak: the slope of its time against its FLOPs where the kernel's fixed time no longer counts."""

    peak_share: float = Field(gt=0, le=1, description="FLOP/s at large row counts over the dense FP4 peak")


class Fp8DepthGemm(Strict):
    """How a dense W8A8 FP8 GEMM's throughput at prompt- and batch-sized row counts depends on its reduction depth:
    each output tile walks K / 128 blocks at the tensor cores' rate and pays a fixed cost besides (its pipeline's
    fill, the epilogue writing the tile), so a GEMM of kb = K / 128 blocks runs at a share kb / (kb + fixed) of an
    infinitely deep one's rate. The framework's compute_efficiency was read on one model's GEMMs at one tensor
    parallel size (``read_on_model``, ``read_on_tp``); another model's or layout's dense GEMMs run at it times their
    depth share over that model's."""

    architectures: list[str] = Field(min_length=1, description="GPU architectures the kernels were timed on")
    frameworks: list[str] = Field(min_length=1, description="framework ids whose dense FP8 GEMMs are priced by it")
    fixed_k_blocks: float = Field(ge=0, le=64, description="a tile's fixed cost, in 128-deep reduction blocks")
    read_on_model: str = Field(min_length=1, description="catalog model id the framework's efficiency was read on")
    read_on_tp: int = Field(default=1, ge=1, le=64, description="its tensor parallel size there")
    source: Prose = Field(min_length=3)
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the timings were measured")
    check: Check = "S"


class Fp4ActivationQuant(Strict):
    """Frameworks whose dense W4A4 NVFP4 linear layers quantize their input in a kernel of its own before each GEMM
    (not inside the preceding norm or activation): one more small kernel per quantized dense linear a forward."""

    frameworks: list[str] = Field(min_length=1, description="framework ids that launch the quantization apart")
    source: Prose = Field(min_length=3)
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the source code was read")
    check: Check = "S"


class Mxfp4AsmGemm(Strict):
    """The throughput AMD's AITER assembly MXFP4 GEMMs (aiter ``gemm_a4w4``, reached through vLLM's ROCm build with
    VLLM_ROCM_USE_AITER_FP4_ASM_GEMM=1) reach at prompt- and batch-sized row counts on the GPUs their tuned table
    was timed on, as a share of the GPU's dense FP4 peak: the slope of a layer's GEMM time against its FLOPs,
    beside the weights' streaming time that the step prices apart (the sum of the two, serving step.linear_time)."""

    gpus: list[str] = Field(min_length=1, description="catalog GPU ids the kernels were timed on")
    frameworks: list[str] = Field(min_length=1, description="framework ids whose dense MXFP4 linears call them")
    peak_share: float = Field(gt=0, le=1, description="FLOP/s at batch-sized row counts over the dense FP4 peak")
    source: Prose = Field(min_length=3)
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the timings were read")
    check: Check = "S"


class Fp4EfficiencyScale(Strict):
    """Where a framework's compute efficiency was read on another part's FP8 GEMMs (TensorRT-LLM's 0.55, an H100 FP8
    step), the dense W4A4 NVFP4 GEMMs of the GPUs listed run at that efficiency times the share of the dense FP4 peak
    their NVFP4 GEMM reaches at a large size over the share the reference part's FP8 GEMM reaches at one: on these
    parts the block-scaled FP4 GEMM keeps the FP8 one's share of a peak twice as high (unlike SM100's, capped by
    ``nvfp4_large_batch``)."""

    gpus: list[str] = Field(min_length=1, description="catalog GPU ids the NVFP4 GEMM was timed on")
    frameworks: list[str] = Field(min_length=1, description="framework ids whose efficiency the reference part set")
    square_share: float = Field(gt=0, le=1, description="the NVFP4 GEMM's FLOP/s at a large size over the FP4 peak")
    reference_share: float = Field(gt=0, le=1, description="the reference part's FP8 GEMM share of its FP8 peak")
    source: Prose = Field(min_length=3)
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the timings were read")
    check: Check = "S"
