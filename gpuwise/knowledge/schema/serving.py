"""``serving.yaml``: the serving software (vLLM, SGLang, TensorRT-LLM, llama.cpp, ExLlama, MLC LLM,
Hugging Face transformers) as data: what each runs on, what each precision means in it and how fast
its kernels are, how it spreads one model over GPUs, and how it batches.

A precision a framework cannot load at all is simply absent from its ``precisions`` (the reason is
in ``unsupported``): that is refused at input time, whatever the GPU. Hardware limits (vendor,
compute capability, FP8 units, one node) are facts the estimators report for the rules.
"""

from typing import Literal

from pydantic import Field, model_validator

from ...errors import N_, Said
from ..records import release_key
from . import layer_kernels
from .base import Check, Prose, Strict
from .checkpoints import Fp4Checkpoint, Int4Checkpoint
from .decode_walk import AttentionBackendVendors, TorchRouter, TritonDecodeWalk
from .fused_models import FusedKernelModels
from .gemm_timing import (
    Fp4ActivationQuant,
    Fp4EfficiencyScale,
    Fp4KWalk,
    Fp4LargeBatchGemm,
    Fp4SmallBatchGemm,
    Fp8DepthGemm,
    Mxfp4AsmGemm,
    SmallBatchGemm,
)
from .layer_kernels import EagerDecode, FlaPrefill, RecurrentMixerKernels, SparseIndexerKernels, TorchAttention
from .layer_split import LayerSplitHop
from .length_distribution import LengthDistribution
from .profile_peak import ProfileSampler
from .recurrent_state import HybridStatePool, RecurrentStateDtype
from .releases import RELEASE_VERSION, ReleaseWindow
from .runtime import Factor, QuantFormat
from .shared_expert import SerialSharedExpert
from .unified_walk import RocmPagedDecodeWalk, RocmUnifiedAttentionWalk
from .vlm_share import VlmMemoryShare

Vendor = Literal["nvidia", "amd", "intel", "huawei"]
WorkloadPrecision = Literal["fp32", "fp16", "bf16", "fp8", "int8", "int4", "fp4"]
ComputeKind = Literal["fp32", "fp16", "bf16", "fp8", "int8", "fp4"]


class FrameworkPrecision(Strict):
    """What one ``workload.precision`` means in one framework."""

    format: str = Field(description="weight storage format: fp32/fp16/bf16 or a key of the quantization formats")
    kernel: str = Field(description="the kernel family that runs it, in words")
    compute: ComputeKind = Field(description="precision of the matmuls on hardware that has it")
    fallback_compute: ComputeKind | None = Field(
        default=None, description="matmul precision of the weight-only path on GPUs without `compute` units; "
        "None = such GPUs cannot run it")
    fallback_vendors: list[Vendor] | None = Field(
        default=None, description="vendors whose GPUs without `compute` units take the `fallback_compute` path (its "
        "weight-only kernels are theirs alone: vLLM's FP8 Marlin runs on NVIDIA only); default: every vendor listed")
    min_compute_capability: float | None = Field(default=None, description="NVIDIA SM floor of this path")
    vendors: list[Vendor] | None = Field(default=None, description="vendors with this kernel (default: all of "
                                         "the framework's)")
    kv_cache_bytes: float = Field(default=2.0, gt=0, le=4, description="bytes per cached K/V element by default")
    vendor_formats: dict[Vendor, str] = Field(
        default_factory=dict, description="the weight format this precision is served in on a vendor's GPUs where "
        "it is not `format` (a key of the quantization formats): FP4 on AMD Instinct is OCP MXFP4")
    bandwidth_factor: float = Field(default=1.0, gt=0, le=2, description="weight-streaming speed relative to the "
                                    "framework's 16-bit GEMV (dequantization cost)")
    gddr_bandwidth_factor: float = Field(
        default=1.0, gt=0, le=2, description="on a GDDR part, this precision's own weight format streams at this times "
        "the framework's bandwidth share there, where its batch-1 kernel reads a byte faster or slower than the kernel "
        "the share was read on (llama.cpp's F16 matrix-vector path against its quantized one); HBM parts keep 1")
    compute_factor: float = Field(default=1.0, gt=0, le=2, description="large-batch GEMM speed relative to the "
                                  "dense peak of `compute` x the framework's compute efficiency")
    extra_layer_overhead_us: float = Field(default=0.0, ge=0, description="extra fixed cost per layer per step "
                                           "(per-module Python or dequantization launches)")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class BatchLimit(Strict):
    """Most sequences one engine batches by default (``max_num_seqs`` and its kin)."""

    default: int = Field(ge=1)
    large_gpu: int | None = Field(default=None, ge=1, description="on GPUs with at least `large_gpu_min_gib`")
    large_gpu_min_gib: float | None = Field(default=None, gt=0)
    limit: int | None = Field(default=None, ge=1, description="the most it is raised to in practice (a setting: "
                              "max_num_seqs, max_batch_size); None = the default is a hard limit")
    large_gpu_except: list[str] = Field(default_factory=list, description="GPU id prefixes the large-GPU defaults "
                                        "leave out whatever their memory (vLLM: 'a100' not in the device name)")
    large_gpu_except_lifted: ReleaseWindow | None = Field(
        default=None, description="the releases that did not leave them out (a job stating one gets the memory "
        "rule alone; None: every release leaves them out)")
    large_gpu_named: list[str] = Field(default_factory=list, description="GPU id prefixes that alone get the "
                                       "large-GPU defaults in the `large_gpu_named_only` releases (vLLM before the "
                                       "memory rule: 'h100' or 'h200' in the device name)")
    large_gpu_named_only: ReleaseWindow | None = Field(
        default=None, description="the releases whose large-GPU defaults went by name (`large_gpu_named`), not by "
        "memory: a job stating one on another GPU gets `default` (None: the memory rule in every release)")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class KvPool(Strict):
    """How the engine itself sizes its KV pool from the device's memory at start-up (its default setting)."""

    share: float = Field(gt=0, le=1, description="the setting's default fraction")
    of: Literal["free", "total"] = Field(
        description="free: a share of what is left after the weights, the warm-up's activations and the CUDA "
        "context (TensorRT-LLM's free_gpu_memory_fraction); total: a share of the device's whole memory that the "
        "weights, activations and KV pool share (vLLM's gpu_memory_utilization)")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class MemoryFraction(Strict):
    """The engine's setting of how much GPU memory it takes at start-up, which a job may state
    (``workload.memory_fraction``), and what the fraction is of."""

    setting: str = Field(min_length=1, description="the setting's name as the engine takes it")
    of: Literal["free", "total", "static"] = Field(
        description="free: a share of the memory left once the model is loaded, its warm-up run and the CUDA "
        "context, for the KV cache (TensorRT-LLM); total: a share of the device's whole memory for the weights, "
        "working set and KV cache together (vLLM, MLC); static: a share of the device's whole memory for the weights "
        "and the KV pool (and a hybrid model's state pool), the working set outside it (SGLang)")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class PrefillChunkDefaults(Strict):
    """A framework's default step token budget (``max_num_batched_tokens``) where it depends on the GPU: the
    framework's ``prefill_chunk_tokens`` is its HTTP server's budget on a large GPU (the ``max_batch`` large-GPU
    rule); ``small_gpu`` the budget on the others."""

    small_gpu: int = Field(ge=1, description="the HTTP server's budget on a GPU the large-GPU rule leaves out")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class VendorOverride(Strict):
    """The framework's constants on another vendor's GPUs (its ROCm or oneAPI build), where they differ."""

    bandwidth_fraction: float | None = Field(default=None, gt=0, le=1)
    bandwidth_fraction_from: str | None = Field(default=None, pattern=r"^[0-9]+(\.[0-9]+){0,3}(\.post[0-9]+)?$",
                                                description="first release whose build reads at "
                                                "`bandwidth_fraction` (earlier releases keep the next override's or "
                                                "the framework's); unset: every release")
    compute_efficiency: float | None = Field(default=None, gt=0, le=1)
    step_overhead_us: float | None = Field(default=None, ge=0)
    layer_overhead_us: float | None = Field(default=None, ge=0)
    sequence_overhead_us: float | None = Field(default=None, ge=0)
    allreduce_latency_us: float | None = Field(default=None, ge=0)
    allreduce_latency_from: str | None = Field(default=None, pattern=r"^[0-9]+(\.[0-9]+){0,3}(\.post[0-9]+)?$",
                                               description="first release whose build runs the all-reduce "
                                               "`allreduce_latency_us` measures (earlier releases keep the next "
                                               "override's or the framework's); unset: every release")
    kernel_floor_us: float | None = Field(default=None, ge=0)
    grouped_gemm_floor_us: float | None = Field(default=None, ge=0)
    moe_gemm_fraction: float | None = Field(
        default=None, gt=0, le=1, description="share of the GPU's 16-bit dense tensor peak that the build's fused-MoE "
        "kernel reaches on prompt-sized batches (many rows per expert), whatever the weights' precision; unset: the "
        "expert GEMMs run at the framework's compute efficiency of the precision's peak")
    moe_gemm_formats: list[str] | None = Field(
        default=None, description="the expert weight formats `moe_gemm_fraction` was read on (others keep the "
        "precision's rate); unset: every format")
    moe_bandwidth_fraction: float | None = Field(
        default=None, gt=0, le=1, description="share of the datasheet memory bandwidth at which the build's Triton "
        "fused-MoE kernel streams 16-bit and FP8 expert weights on decode-sized batches (few rows per expert), where "
        "it trails the dense GEMMs' (bandwidth_fraction); unset: the dense GEMMs' share. MXFP4 and 4-bit integer "
        "experts run other kernels and keep the dense share")
    read_bytes_per_fp32_flop: float | None = Field(
        default=None, gt=0, description="weight bytes a second the build's batch-1 matrix-vector kernels read per FP32 "
        "FLOP/s of the part's datasheet peak (its SMs x clock), where the kernels are bound by the chip, not by its "
        "memory: the weights stream at the lesser of this rate and bandwidth_fraction; unset: the bandwidth share")
    efficiency_read_on: str | None = Field(
        default=None, description="the GPU (gpus.yaml id) the build's compute_efficiency was read on: on a part whose "
        "catalog entry gives the clock it holds under dense GEMMs (gpus.yaml clocks), the efficiency scales by that "
        "clock over this part's")
    block_fp8_speed_factor: float | None = Field(
        default=None, gt=0, le=1, description="speed of a block-scaled FP8 checkpoint's GEMMs (weight streaming and "
        "math) relative to the FP8 path's, where the build runs them on a slower kernel (vLLM's ROCm build without "
        "AITER: Triton block-scale kernels)")
    legacy_kv_gb_s: float | None = Field(
        default=None, gt=0, description="GB/s at which the build's decode attention read the KV cache before "
        "`legacy_kv_before` (an older paged-attention kernel); applies to rows that state an earlier release")
    legacy_kv_before: str | None = Field(default=None, pattern=r"^[0-9]+(\.[0-9]+){0,3}$",
                                         description="first release with the build's current attention kernel")
    piecewise_layer_us: float | None = Field(
        default=None, ge=0, description="extra time a layer takes in releases before `piecewise_before`, whose decode "
        "ran under piecewise CUDA graphs (the attention launched between the pieces); applies to rows that state an "
        "earlier release")
    piecewise_before: str | None = Field(default=None, pattern=r"^[0-9]+(\.[0-9]+){0,3}$",
                                         description="first release that replays a full graph for decode by default")
    fused_kernel_floor_us: float | None = Field(
        default=None, ge=0, description="what a counted small kernel (MoE routing, MLA projections, activation "
        "quantization) costs from `fused_from` on, where the build fused them; applies to rows that state that "
        "release or a later one (a row that states none keeps `kernel_floor_us`)")
    fused_from: str | None = Field(default=None, pattern=r"^[0-9]+(\.[0-9]+){0,3}$",
                                   description="first release with the fused small kernels")
    mla_norm_quant_fused_kernels: int | None = Field(
        default=None, ge=1, description="small kernels fewer a layer of a multi-head latent attention model served in "
        "W8A8 FP8 with AITER on, from `mla_norm_quant_fused_from` on, where the build's RMSNorm kernels emit the FP8 "
        "activations and block scales of the GEMMs after them (a quantization and a norm kernel of their own saved)")
    mla_norm_quant_fused_from: str | None = Field(default=None, pattern=r"^[0-9]+(\.[0-9]+){0,3}(\.post[0-9]+)?$",
                                                  description="first release with those fused norm kernels; a job "
                                                  "that states none gets them")
    act_quant_fused_from: str | None = Field(
        default=None, pattern=r"^[0-9]+(\.[0-9]+){0,3}$", description="first release "
        "whose compile folds a dense layer's per-tensor FP8 activation quantization into its norm and activation")
    compiled_norms_from: str | None = Field(
        default=None, pattern=r"^[0-9]+(\.[0-9]+){0,3}$", description="first release "
        "whose default compile (Inductor) generates one kernel for the norms, residual adds and scalings between two "
        "GEMMs, so a layer's norms beyond a pre-norm layer's (models.yaml layer_norm_kernels) launch no kernel of "
        "their own")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class ReservedMemoryBucket(Strict):
    """One GPU-memory bucket of a release's launch defaults: below ``below_mib`` of device memory (the last bucket
    has none), the server's default prefill chunk and CUDA-graph batch cap."""

    below_mib: int | None = Field(default=None, gt=0, description="device memory (MiB, as nvidia-smi reports it) "
                                  "the bucket ends below; unset: every larger device")
    prefill_tokens: int = Field(gt=0, description="default chunked-prefill size on such a device")
    graph_batch: int = Field(gt=0, description="default CUDA-graph batch cap below `graph_batch_from_tp` GPUs")
    graph_batch_large_tp: int = Field(gt=0, description="default CUDA-graph batch cap from `graph_batch_from_tp`")


class ReservedMemory(Strict):
    """How a release sizes its static memory share when the server is launched without one: the device's memory
    less a reserve (MiB) for activations and CUDA-graph buffers, over the device's memory. The weights and the KV
    pool share what is left."""

    base_mib: float = Field(ge=0, description="constant metadata reserve")
    per_prefill_token_mib: float = Field(ge=0, description="activation reserve per token of the prefill chunk")
    min_prefill_tokens: int = Field(ge=0, description="the chunk size the activation reserve counts at least")
    per_graph_batch_mib: float = Field(ge=0, description="CUDA-graph buffer reserve per sequence of the graph cap")
    per_gpu_mib: float = Field(ge=0, description="reserve per GPU of the server's tensor x pipeline group")
    graph_batch_from_tp: int = Field(gt=0, description="tensor-parallel size from which the larger graph cap applies")
    dp_attention_per_graph_batch_mib: float = Field(
        ge=0, description="with attention data parallel: reserve per graph-cap sequence per data-parallel rank")
    dp_attention_large_mib: float = Field(
        ge=0, description="with attention data parallel and a graph cap above `dp_attention_large_above`: a further "
        "reserve per graph-cap sequence per rank")
    dp_attention_large_above: int = Field(ge=0)
    floor_mib: float = Field(ge=0, description="the least reserve on a device larger than `floor_above_mib`")
    floor_above_mib: float = Field(ge=0)
    speculative_mib: float = Field(ge=0, description="reserve for a draft model and its graphs (draft-model "
                                   "speculative decoding)")
    buckets: list[ReservedMemoryBucket] = Field(min_length=1)


class FrameworkRelease(VendorOverride):
    """The framework's constants from one release on (until the next listed one), where its kernels
    changed: a fused kernel path, a new default. Constants it leaves unset keep the framework's."""

    version: str = Field(pattern=RELEASE_VERSION, description="first release with these constants")
    released: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when that release came out")
    vendors: list[Vendor] = Field(default=[], description="the builds it concerns (empty: all); a CUDA-only "
                                  "fusion leaves the ROCm build's constants as they were")
    backend: str | None = Field(default=None, description="the runtime backend (`backends`) whose constants these "
                                "are: a job stating another backend skips the entry; unset: every backend")
    fuses_shared_experts: bool | None = None
    hbm: VendorOverride | None = Field(default=None, description="the release's constants on HBM parts, in place "
                                       "of `memory_overrides.hbm`'s for a job on it (llama.cpp's CUDA build of 2024)")
    hbm_formats: list[str] = Field(default=[], description="the weight formats `hbm` holds for (empty: all)")
    dp_attention_tp_experts: bool | None = Field(
        default=None, description="with attention data parallel, the release gathers every rank's tokens before "
        "each MoE layer and runs the experts tensor-parallel on them, each rank slicing its own back out (no "
        "expert-parallel all-to-all); unset or false: the experts spread over the ranks (expert parallel)")
    mem_fraction_static: dict[int, float] | None = Field(
        default=None, description="the share of each GPU's memory the release's weights and KV pool may take together "
        "when the server is launched without its own setting, by the server's GPU count (tensor-parallel size): "
        "the smallest key at or below the count applies; the KV pool is what the weights leave of it")
    cuda_graph_max_bs: int | None = Field(
        default=None, gt=0, description="the largest decode batch the release captures in CUDA graphs by default "
        "(a tensor-parallel server; attention data parallel not covered): a larger decode batch runs its forward "
        "eagerly; unset: from `reserved_memory`'s buckets where the release has them, else no cap known")
    reserved_memory: ReservedMemory | None = Field(
        default=None, description="the release's default static share computed from the device's memory (the "
        "weights and the KV pool take the device's memory less this reserve); `mem_fraction_static` wins where both "
        "are set")
    prefill_eager_kernel_us: float | None = Field(
        default=None, ge=0, description="host time per kernel of a forward that carries prompt tokens, from this "
        "release on (0: such forwards run under CUDA graphs; unset: the framework's own)")
    window_kv_full: bool | None = Field(
        default=None, description="sliding-window layers hold KV blocks for the whole sequence, as full-attention "
        "layers do (blocks written linearly, out-of-window ones released only after use), so a sequence is admitted "
        "for its full length on every layer; unset or false: only the window is kept on those layers")
    block_fp8_gemm_tflops: float | None = Field(
        default=None, gt=0, description="TFLOP/s per GPU the release's dense block-scaled FP8 GEMMs reach at "
        "prompt-sized batches on the kernels it dispatches them to, on the architectures of "
        "`block_fp8_gemm_architectures` (where they were timed): the dense FP8 rate is capped at it for a model's "
        "own block-scaled checkpoint; unset: the framework's compute efficiency of the FP8 peak")
    block_fp8_gemm_architectures: list[str] = Field(
        default=[], description="GPU architectures (gpus.yaml `architecture`) `block_fp8_gemm_tflops` and "
        "`block_fp8_moe_tflops` apply to")
    block_fp8_moe_tflops: float | None = Field(
        default=None, gt=0, description="TFLOP/s per GPU (the routed rows' FLOPs over the call's time) the release's "
        "fused-MoE kernel reaches on a block-scaled FP8 checkpoint's experts at prompt-sized batches, on the "
        "architectures of `block_fp8_gemm_architectures`: the experts' rate (`moe_gemm_fraction`) is capped at it; "
        "unset: the framework's or architecture's own")


class FrontEnd(Strict):
    """The framework's serving front end: the host process that takes each request over HTTP, tokenises its
    prompt and streams its output back (vLLM's API server, SGLang's TokenizerManager, trtllm-serve). One such
    process serves a copy by default; at a high request rate it, not the GPUs, limits the throughput."""

    request_ms: float = Field(gt=0, le=10_000, description="host time per request in one front-end process, "
                              "beyond tokenising its prompt (HTTP handling, scheduling hand-off, detokenising "
                              "and streaming a chat-sized output)")
    tokenize_tokens_per_s: float = Field(gt=0, le=1e10, description="prompt tokens a process tokenises per second")
    stream_token_us: float = Field(default=0, ge=0, le=1e5, description="host us each streamed output token adds")
    setting: str = Field(min_length=1, description="the server option that runs more front-end processes")
    source: Prose = Field(min_length=3)
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the figures were measured")
    check: Check = "S"


class PcieAllReduce(Strict):
    """How the framework all-reduces over PCIe: its own all-reduce kernel serves at most ``custom_max_ranks`` GPUs
    that are not fully connected by NVLink; beyond that (or without peer-to-peer) NCCL's ring does it."""

    custom_max_ranks: int = Field(ge=1, description="most PCIe-only GPUs its custom all-reduce runs on")
    nccl_step_us: float = Field(gt=0, description="latency of one of the 2 (n - 1) steps of NCCL's ring all-reduce "
                                "of a small tensor over PCIe")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class MlaWholePrefill(ReleaseWindow):
    """Releases that turn chunked prefill off for MLA models (DeepSeek V2/V3/R1, Kimi K2): from ``first`` up to,
    not including, ``before``. Their prompts are prefilled whole, in forwards that carry no decode, with the
    model's whole context (max(max_model_len, 2048) tokens) as the step budget, which the memory profile also
    reserves. Applies only to jobs that state such a release (``workload.framework_version``)."""

    first: str = Field(pattern=RELEASE_VERSION, description="the first release that turns it off")
    before: str = Field(pattern=RELEASE_VERSION, description="the first release that no longer does")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class PpDecodeBatch(Strict):
    """The first release whose engine schedules a running request again only once its last step is back, so a
    decode-only step of a pipeline-parallel copy (every request in it, up to the step budget) runs as one batch,
    stage after stage, where an older release keeps a micro-batch in each stage. A job stating an older release
    keeps the micro-batches; one stating none runs as this one does (the current releases do)."""

    first: str = Field(pattern=RELEASE_VERSION, description="the first release that decodes so")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class DeepGemmMoePadding(ReleaseWindow):
    """Releases whose block-FP8 MoE runs DeepGEMM's contiguous grouped GEMM at every batch on the listed
    architectures, over a buffer of the routed rows plus ``block_m - 1`` padding rows for every expert, all of them
    multiplied: from ``first`` up to, not including, ``before``. Applies only to jobs that state such a release."""

    first: str = Field(pattern=RELEASE_VERSION, description="the first release that runs every batch so")
    before: str = Field(pattern=RELEASE_VERSION, description="the first release not read to run so")
    block_m: int = Field(ge=1, description="rows of the kernel's M block, to which each expert's rows are aligned")
    below_tp: int | None = Field(default=None, ge=2, description="from `before` on the path still runs where the MoE "
                                 "layer's tensor-parallel size (TP x DP, 1 with expert parallelism) is below this")
    below_tp_before: str | None = Field(default=None, pattern=RELEASE_VERSION, description="... up to this release")
    architectures: list[str] = Field(min_length=1, description="gpus.yaml architectures the path runs on")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class KvPerQueryHead(Strict):
    """GPUs on which the engine's single-token decode attention reads each KV head once per query head instead of
    once per KV head: those of ``vendors`` below ``below_compute_capability`` (the kernel that packs a KV head's
    query heads together needs what that capability brings). A grouped-query model's cache is then read
    query heads / KV heads times a step; a latent (MLA) cache is left as it is."""

    vendors: list[str] = Field(min_length=1, description="the vendors whose parts the rule covers")
    below_compute_capability: float = Field(gt=0, description="the first compute capability that shares the read")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class SyncHostFloor(ReleaseWindow):
    """Releases whose engine schedules synchronously: from ``first`` up to, not including, ``before``. Each step
    the host schedules, prepares the inputs, launches the forward, samples and updates its requests before the
    next step starts, so a step lasts at least ``step_us`` of host time whatever the GPU. Applies only to jobs
    that state such a release (``workload.framework_version``)."""

    first: str = Field(pattern=RELEASE_VERSION, description="the first release that schedules so")
    before: str = Field(pattern=RELEASE_VERSION, description="the first release that overlaps it with the forward")
    step_us: float = Field(gt=0, description="the host's time for one step, microseconds")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class PrefixCache(Strict):
    """Whether the framework's server keeps prompt prefixes from one request to the next (vLLM's automatic prefix
    caching, SGLang's radix cache), which a workload's prefix_cache_hit_rate takes as held: where it keeps none, or
    the stated release keeps none unless started with it on, every prompt is prefilled whole."""

    kept: bool = Field(description="the framework can keep prompt prefixes across requests at all (false: none, "
                       "whatever the flags: a job's hit rate is not applied)")
    default_first: str | None = Field(
        default=None, pattern=RELEASE_VERSION, description="the first release that keeps them by default; a job "
        "stating an earlier release keeps none unless it states workload.prefix_cache true (None: every release)")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class ScheduledAhead(Strict):
    """The first release whose engine, by default, schedules the next step while the current one runs on the GPUs
    (vLLM's async scheduling, SGLang's overlap scheduler, TensorRT-LLM's overlap scheduler): the host takes in new
    requests only as a step ends, when the step after it is already scheduled, so a prompt that arrives while the
    engine is busy joins the step after next and waits out one whole step beyond the rest of the one running. A
    job stating an older release schedules synchronously; one stating none schedules so (the current releases
    do)."""

    first: str = Field(pattern=RELEASE_VERSION, description="the first release that schedules so by default")
    backend: str | None = Field(default=None, description="the runtime backend (`backends`) whose loop schedules "
                                "so: a job stating another backend schedules synchronously; unset: every backend")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class RuntimeBackend(Strict):
    """One of the runtimes a framework ships to run a model (TensorRT-LLM's compiled TensorRT engine under its C++
    executor, its PyTorch backend), which a job may name (``workload.runtime_backend``): release entries and the
    step-ahead loop that concern another backend then do not apply to it."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    first: str | None = Field(default=None, pattern=RELEASE_VERSION, description="the first release that ships it "
                              "(unset: every release the knowledge names)")
    as_of: str | None = Field(default=None, pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$",
                              description="when the published runs its source bounds its host costs by were made")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class Wna16MoeKernel(ReleaseWindow):
    """Releases that run a weight-only 4-bit (AWQ/GPTQ) model's routed experts on a kernel whose fixed time per
    grouped expert GEMM at a decode batch is its own, for models with more than ``more_experts_than`` experts:
    from ``first`` up to, not including, ``before``. Applies only to jobs that state such a release
    (``workload.framework_version``) and serve int4 weight-only experts; other jobs keep the framework's
    ``grouped_gemm_floor_us``."""

    first: str = Field(pattern=RELEASE_VERSION, description="the first release that routes them to the kernel")
    before: str = Field(pattern=RELEASE_VERSION, description="the first release that runs a faster one")
    more_experts_than: int = Field(ge=0, description="the kernel serves layers with more experts than this")
    grouped_gemm_floor_us: float = Field(gt=0, description="fixed time of one grouped expert GEMM of the kernel "
                                         "launched for a few tokens, microseconds")
    vendors: list[Vendor] = Field(default=[], description="the builds it concerns (empty: all)")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class TritonBlockFp8Moe(Strict):
    """Where a framework runs a block-scaled FP8 checkpoint's routed experts on its Triton fused-MoE kernel on a GPU
    architecture whose fixed time per grouped expert GEMM in that kernel was read on a block-FP8 shape, while its
    launch defaults send other models' block-FP8 experts to another kernel: the listed models' own FP8 checkpoints
    (serving.yaml ``fp8_checkpoints`` does not carry them all), from release ``first`` on, and for a job that states
    no release (the current builds read still do so). Other jobs keep ``grouped_gemm_floor_us``."""

    first: str = Field(pattern=RELEASE_VERSION, description="the first release read that runs them there")
    architectures: list[str] = Field(min_length=1, description="gpus.yaml architectures the reading covers, or one "
                                     "chip of one (sm and the compute capability without the dot: sm100)")
    models: list[str] = Field(min_length=1, description="catalog models whose published FP8 checkpoint is "
                              "block-scaled and whose architecture the launch defaults leave on the Triton kernel")
    grouped_gemm_floor_us: float = Field(gt=0, description="fixed time of one grouped expert GEMM of the kernel "
                                         "launched for a few tokens, microseconds")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the kernel was timed")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class RocmBlockFp8Walk(Strict):
    """A ROCm build's block-scaled FP8 dense GEMMs at a decode step's few token rows, where they ran a kernel whose
    default config has no split-K (one work-group walks the whole reduction depth, 128 deep at a time) for the
    shapes its tuned configs did not cover: what ``SmallBatchGemm`` prices on Hopper, on the releases and AMD
    architectures the reading covers."""

    releases: ReleaseWindow = Field(description="the framework's releases that ran that kernel untuned")
    architectures: list[str] = Field(min_length=1, description="GPU architectures (gpus.yaml) it was read on")
    k_block_us: float = Field(gt=0, le=10, description="microseconds per 128-deep reduction block at 1-64 rows")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the timings were measured")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class RocmTritonMoeTile(Strict):
    """A ROCm build run with AMD's AITER kernels switched off (the job's ``rocm_aiter: false``): a block-scaled FP8
    checkpoint's routed experts then run the framework's own Triton fused-MoE kernel, whose default config for a
    shape with no tuned file takes ``tile_rows`` token rows a tile (an expert given fewer tokens is charged that many
    rows of FLOPs); on the releases, architectures and models read (the listed models' expert shapes have no tuned
    file for the read GPUs in those releases)."""

    releases: ReleaseWindow = Field(description="the framework's releases whose default config was read")
    architectures: list[str] = Field(min_length=1, description="GPU architectures (gpus.yaml) the file lookup covers")
    models: list[str] = Field(min_length=1, description="catalog models whose published FP8 checkpoint is "
                              "block-scaled and whose expert shapes have no tuned file there")
    tile_rows: int = Field(ge=1, le=256, description="BLOCK_SIZE_M of the default block-FP8 config")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="the release's date")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class QkNormAllReduce(Strict):
    """How a framework's releases all-reduce the sums of squares of a q/k RMSNorm that spans all heads (models.yaml
    ``qk_norm_all_heads``) where they differ from the current way: one exchange a layer, 8 bytes a token, on the
    framework's own all-reduce kernel (step.py ``_tp_allreduce_stage``)."""

    separate: ReleaseWindow | None = Field(
        default=None, description="releases that normalize q and k apart: two all-reduces a layer of 4 bytes a "
        "token each, instead of one of 8")
    unpadded: ReleaseWindow | None = Field(
        default=None, description="releases that all-reduce the sums unpadded: the framework's own all-reduce "
        "kernel takes only whole multiples of `granule_bytes`, so an exchange of a decode batch padded to fewer "
        "bytes runs on NCCL")
    granule_bytes: int = Field(default=16, ge=1, description="the own kernel's byte granule")
    nccl_us: dict[Vendor, float] = Field(
        default={}, description="NCCL's latency for such a small exchange inside the decode step's CUDA graph, by "
        "vendor (a vendor not listed keeps the copy's own all-reduce latency)")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the NCCL latency was measured")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class Framework(Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$")
    name: str
    vendors: list[Vendor] = Field(min_length=1)
    min_compute_capability: float = Field(ge=1, description="NVIDIA SM floor of the framework's CUDA build")
    precisions: dict[WorkloadPrecision, FrameworkPrecision]
    unsupported: dict[WorkloadPrecision, str] = Field(
        default={}, description="precisions it cannot load at all, with the reason")
    split: Literal["tensor", "layer"] = Field(
        description="how one model copy spans GPUs: tensor parallel (all GPUs work on every token) or layers "
        "(pipeline stages; one GPU active at a time for a sequence)")
    parallelism: list[Literal["tensor", "pipeline", "expert", "data-attention", "layer"]]
    multi_node: bool = Field(description="one model copy may span nodes")
    continuous_batching: bool = Field(description="requests join and leave a running batch (else static batches)")
    chunked_prefill: bool = Field(description="prompt chunks ride in decode steps")
    mixed_prefill: bool = Field(default=True, description="a prompt chunk runs in the same forward as the "
                                "running sequences' decode (false: a prefill batch runs alone and decoding "
                                "waits for it, as SGLang without --enable-mixed-chunk)")
    fuses_shared_experts: bool = Field(default=False, description="a MoE layer's shared expert runs inside the "
                                       "routed experts' grouped GEMM (one more expert per token) instead of as "
                                       "its own GEMMs and activation")
    prefill_eager_kernel_us: Factor | None = Field(
        default=None, description="host time to launch one kernel of a prefill forward that runs outside CUDA "
        "graphs (eager PyTorch: the Python glue and dispatch around each kernel); a prefill forward takes at "
        "least its kernels x this. None: prefill runs under graphs or a compiled runtime")
    kv_block_tokens: int = Field(ge=1, description="paged KV-cache block; sequences occupy whole blocks")
    kv_reserve: Literal["current", "full"] = Field(
        description="admission: blocks for the tokens a sequence holds now (preempts when full), or for its "
        "whole prompt + output up front")
    max_batch: BatchLimit
    kv_pool: KvPool | None = Field(
        default=None, description="the engine's own KV-pool sizing where it has one (None: the KV pool takes what "
        "gpuwise's usable memory leaves); the smaller of the two bounds the pool")
    memory_fraction: MemoryFraction | None = Field(
        default=None, description="the engine's memory setting a job may state (workload.memory_fraction; None: "
        "the engine has none, and a job stating one is refused)")
    profile_sampler: ProfileSampler | None = Field(
        default=None, description="the sampler's share of the start-up profile the engine sizes its KV pool from "
        "(None: not read; the working set alone)")
    prefill_chunk_tokens: int = Field(ge=1, description="tokens one step processes at most (max_num_batched_tokens)")
    prefill_chunk_defaults: PrefillChunkDefaults | None = Field(default=None, description="the budget on the GPUs "
                                                                "the large-GPU rule leaves out, where it differs")
    bandwidth_fraction: Factor = Field(description="achieved fraction of datasheet memory bandwidth when "
                                       "streaming 16-bit weights and the KV cache")
    step_overhead_us: Factor = Field(description="fixed cost per step (scheduling, sampling, host sync)")
    layer_overhead_us: Factor = Field(description="fixed cost per layer per step (kernel launches; small with "
                                      "CUDA graphs)")
    sequence_overhead_us: Factor = Field(description="host work per running sequence per step (scheduling, block "
                                         "tables, sampling, streaming output)")
    compute_efficiency: Factor = Field(description="fraction of the dense peak its large-batch matmuls reach")
    allreduce_latency_us: Factor = Field(description="one small tensor-parallel all-reduce inside an NVLink or "
                                         "Infinity Fabric domain")
    mla_whole_prefill: MlaWholePrefill | None = Field(
        default=None, description="the releases that prefill MLA models' prompts whole, alone (None: none)")
    sync_host_floor: SyncHostFloor | None = Field(
        default=None, description="the releases whose steps last at least the host's own time (None: none)")
    kv_per_query_head: KvPerQueryHead | None = Field(
        default=None, description="the GPUs whose decode attention reads the KV cache once per query head "
        "(None: once per KV head everywhere)")
    pp_decode_batch: PpDecodeBatch | None = Field(
        default=None, description="from which release a pipeline's decode runs as one batch (None: micro-batches)")
    prefix_cache: PrefixCache | None = Field(
        default=None, description="whether its server keeps prompt prefixes across requests (None: not read; a job's "
        "prefix_cache_hit_rate applies as stated)")
    backends: list[RuntimeBackend] = Field(
        default_factory=list, description="the runtimes the framework ships, which a job may name "
        "(workload.runtime_backend; empty: none to name)")
    scheduled_ahead: ScheduledAhead | None = Field(
        default=None, description="from which release the engine schedules a step ahead by default, launching a "
        "step while the GPU runs the one before (None: never)")
    pcie_allreduce: PcieAllReduce | None = Field(
        default=None, description="tensor-parallel all-reduce over PCIe (None: allreduce_latency_us everywhere)")
    rocm_block_fp8_walk: list[RocmBlockFp8Walk] = Field(
        default_factory=list, description="the ROCm releases whose block-FP8 dense GEMMs walk their reduction depth "
        "at a decode batch, one entry a kernel and its release window (empty: none)")
    rocm_triton_moe_tile: RocmTritonMoeTile | None = Field(
        default=None, description="the ROCm releases whose block-FP8 experts, with AITER off, run the Triton "
        "fused-MoE kernel's default tile (None: expert_tile_tokens everywhere)")
    qk_norm_allreduce: QkNormAllReduce | None = Field(
        default=None, description="the releases whose all-heads q/k RMSNorm all-reduces otherwise than once a "
        "layer on the framework's own kernel (None: every release does so)")
    eager_decode: EagerDecode | None = Field(default=None, description="a decode step priced from the ops an "
                                             "eager engine launches (transformers' generate())")
    torch_attention: TorchAttention | None = Field(default=None, description="the kernels the decode attention "
                                                   "launches without flash-attn installed (attention: eager)")
    recurrent_mixer_kernels: RecurrentMixerKernels | None = Field(default=None, description="the kernels a decode "
                                                                  "step launches in a recurrent layer's mixer")
    cuda_graphs_gate: layer_kernels.CudaGraphsGate | None = Field(
        default=None, description="the GPUs whose decode step the build runs without CUDA graphs (None: none)")
    fla_gdn_prefill: FlaPrefill | None = Field(default=None, description="the releases and GPUs that prefill a "
                                               "gated DeltaNet layer on flash-linear-attention's Triton kernels")
    sparse_indexer_kernels: SparseIndexerKernels | None = Field(
        default=None, description="the kernels a decode step launches in a layer's sparse-attention indexer "
        "(None: not read; none counted)")
    hybrid_state_pool: HybridStatePool | None = Field(
        default=None, description="a hybrid model's recurrent state in a pool of its own that caps the running "
        "requests (None: the state shares the KV pool, as vLLM's MambaSpec pages do)")
    recurrent_state_dtype: RecurrentStateDtype | None = Field(
        default=None, description="the setting for a hybrid model's recurrent-state element type (None: the "
        "framework has none, and a job stating one is refused)")
    layer_split_hop: list[LayerSplitHop] = Field(default_factory=list, description="a stage boundary's time a step "
                                                 "where read by vendor and link (empty: allreduce_latency_us)")
    cross_node_allreduce_us: Factor | None = Field(
        default=None, description="the fixed part of one small all-reduce of a tensor-parallel copy that spans two "
        "8-GPU servers, as the framework's NCCL settings run it (None: runtime.yaml cross_node_allreduce_us)")
    triton_block_fp8_moe: TritonBlockFp8Moe | None = Field(
        default=None, description="the models whose block-FP8 experts run on the Triton fused-MoE kernel where "
        "that kernel's fixed time per grouped GEMM is its own on a block-FP8 shape (None: none)")
    triton_decode_walk: TritonDecodeWalk | None = Field(default=None, description="a Triton split-KV decode "
                                                        "attention kernel a job may state (None: none)")
    rocm_unified_attention_walk: RocmUnifiedAttentionWalk | None = Field(
        default=None, description="the ROCm build's decode attention kernel with AITER off, walked a tile at a time")
    rocm_paged_decode_walk: RocmPagedDecodeWalk | None = Field(
        default=None, description="the ROCm build's decode attention kernel on architectures its custom "
        "paged-attention kernel leaves out, one program a sequence's KV head walking a block at a time")
    attention_backend_vendors: AttentionBackendVendors | None = None  # backends that run on one maker's GPUs only
    torch_router: TorchRouter | None = Field(default=None, description="the models whose MoE router runs a "
                                             "torch.compile'd top-k function, not a fused gate (None: none)")
    fused_kernel_models: FusedKernelModels | None = Field(default=None, description="the models a release's fused "
                                                          "small-kernel figure holds for (None: every model)")
    serial_shared_expert: list[SerialSharedExpert] = Field(default_factory=list, description="where a MoE layer's "
                                                           "shared expert runs apart, after the routed experts")
    deepgemm_moe_padding: DeepGemmMoePadding | None = Field(
        default=None, description="the releases whose block-FP8 experts multiply DeepGEMM's padded rows (None: none)")
    wna16_moe: Wna16MoeKernel | None = Field(
        default=None, description="the releases whose weight-only 4-bit experts run on a kernel with its own fixed "
        "time per grouped GEMM (None: grouped_gemm_floor_us for every format)")
    kernel_floor_us: Factor = Field(description="time one small kernel (a norm, top-k, token sort, activation "
                                    "quantization, MLA projection) adds to a step: the latency floor of kernels "
                                    "beyond a dense layer's, counted per layer from the architecture")
    grouped_gemm_floor_us: Factor = Field(description="fixed time of one grouped expert GEMM launched for a few "
                                          "tokens (per-expert tile scheduling, alignment), beyond streaming "
                                          "its experts' weights; two per MoE layer")
    alltoall_latency_us: Factor = Field(description="latency of one expert-parallel dispatch or combine "
                                        "(all-to-all) of a few tokens; two per MoE layer")
    expert_tile_tokens: int = Field(default=16, ge=1, description="rows of the smallest tile an expert GEMM "
                                    "runs on: an expert given fewer tokens is charged this many rows of FLOPs "
                                    "(1: matrix-vector kernels charge tokens as they come)")
    vendor_overrides: dict[Vendor, VendorOverride] = Field(
        default={}, description="constants that differ on a vendor's GPUs (e.g. the ROCm build)")
    architecture_overrides: dict[str, VendorOverride] = Field(
        default={}, description="constants measured on one GPU architecture (gpus.yaml `architecture`: hopper, "
        "blackwell, ampere...), or on one chip of it (`sm` and its compute capability without the dot: sm120), where "
        "a kernel's fixed cost differs by architecture; where a constant is set in several places the first wins: "
        "chip, then architecture, then memory technology, then vendor, then release")
    memory_overrides: dict[Literal["hbm", "gddr"], VendorOverride] = Field(
        default={}, description="constants that differ by memory technology (kernels tuned on GDDR cards reach "
        "a smaller fraction of HBM's bandwidth); they win over the vendor's and a release's, an architecture's "
        "wins over them")
    front_end: FrontEnd | None = Field(
        default=None, description="the HTTP front end's cost per request (None: not modelled; the framework's "
        "server is not the limit, e.g. a C++ server)")
    releases: list[FrameworkRelease] = Field(
        default=[], description="releases whose kernels changed the constants, oldest first: the constants above "
        "hold before the first; a workload's framework_version picks the last release at or before it, and "
        "none given picks the newest (today's)")
    source: Prose = Field(min_length=3)
    notes: Prose = ""

    @model_validator(mode="after")
    def _disjoint(self) -> "Framework":
        keys = [release_key(r.version) for r in self.releases]
        if keys != sorted(keys) or len(set(keys)) != len(keys):
            raise Said(N_("releases must be listed oldest first, each version once"))
        both = set(self.precisions) & set(self.unsupported)
        if both:
            raise Said(N_("precision %(sorted)s is both supported and unsupported"), sorted=sorted(both)[0])
        missing = {"fp32", "fp16", "bf16", "fp8", "int8", "int4", "fp4"} - set(self.precisions) - set(self.unsupported)
        if missing:
            raise Said(N_("say for every precision whether it runs: %(sorted)s missing"),
                       sorted=', '.join(sorted(missing)))
        named = {b.name for b in self.backends}
        for got in [r.backend for r in self.releases] + [getattr(self.scheduled_ahead, "backend", None)]:
            if got is not None and got not in named:
                raise Said(N_("backend %(name)s is not one of the framework's backends"), name=got)
        return self


SpeculativeKind = Literal["mtp", "eagle", "eagle3", "draft-model", "ngram"]
QuantizationKind = Literal["awq", "gptq", "bitsandbytes", "fp8", "w8a8-int8", "nvfp4", "mxfp4", "gguf"]


class SpeculativeMethod(Strict):
    """A speculative-decoding method: what a drafted token costs, how often one is accepted by default,
    and which frameworks run it."""

    name: str
    acceptance_rate: float = Field(gt=0, lt=1, description="default chance that one drafted token is accepted "
                                   "(per token, as in Leviathan et al. 2023)")
    draft_tokens: int = Field(ge=1, le=16, description="default tokens drafted per step (num_speculative_tokens)")
    draft_layers: float = Field(ge=0, description="decoder layers of the target's width the drafter runs per "
                                "drafted token (0: a host-side lookup; a separate draft model is sized by "
                                "workload.speculative.draft_params_b)")
    draft_fc_inputs: int = Field(default=0, ge=0, le=8, description="EAGLE: the fused hidden states the head "
                                 "projects back to the model width (2 for EAGLE, 3 for EAGLE-3; 2 for DeepSeek's "
                                 "MTP eh_proj), each an h x h block of the drafter's weights")
    draft_vocab: int = Field(default=0, ge=0, description="rows of the drafter's own output head (0: it shares the "
                             "target's head and embedding)")
    frameworks: list[str] = Field(description="framework ids that run this method")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class MethodKernel(Strict):
    """How a quantization method's kernels in one framework differ from the framework's own for the precision."""

    bandwidth_factor: float | None = Field(default=None, gt=0, le=2)
    compute_factor: float | None = Field(default=None, gt=0, le=2)
    compute: ComputeKind | None = Field(default=None, description="matmul precision in this framework, where it "
                                        "differs from the method's")


class QuantizationMethod(Strict):
    """A weight quantization method: the format it stores per precision, the matmul precision it computes
    in, and the frameworks that load it."""

    name: str
    formats: dict[WorkloadPrecision, str] = Field(min_length=1, description="weight format per workload precision "
                                                  "(a key of the quantization formats)")
    compute: ComputeKind | None = Field(default=None, description="matmul precision (weight-only methods: bf16); "
                                        "None: the framework's path for the precision")
    frameworks: dict[str, MethodKernel] = Field(description="framework ids that load it; an empty entry: the "
                                                "framework's own kernel speeds for the precision")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class Fp8Checkpoint(Strict):
    """How a model's published FP8 checkpoint is scaled: the kernels a framework runs it on depend on it."""

    scaling: Literal["block", "channel", "tensor"] = Field(
        description="block: one scale per 128 x 128 weight block (and per 1 x 128 activation group); channel: one "
        "per output row; tensor: one per tensor")
    source: Prose = Field(min_length=3)
    as_of: str | None = Field(default=None, pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$",
                              description="when the checkpoint's quantization config was read")
    check: Check = "V"


class ServingFile(Strict):
    schema_version: int
    default_framework: str
    formats: dict[str, QuantFormat] = Field(description="weight formats beyond runtime.yaml's quantization")
    fp8_checkpoints: dict[str, Fp8Checkpoint] = Field(
        default={}, description="catalog model id -> how its published FP8 checkpoint is scaled (a model served "
        "in FP8 is served from it)")
    fp4_checkpoints: dict[str, Fp4Checkpoint] = Field(
        default={}, description="catalog model id -> its published FP4 checkpoint's 16-bit parts (a model served "
        "in that FP4 format is served from it)")
    int4_checkpoints: dict[str, Int4Checkpoint] = Field(
        default={}, description="catalog model id -> its published INT4 checkpoint (a model served in int4 is "
        "served from it)")
    block_fp8_small_batch: SmallBatchGemm | None = Field(
        default=None, description="the reduction-depth floor of block-scaled FP8 GEMMs at decode batches")
    nvfp4_small_batch: Fp4SmallBatchGemm | None = Field(
        default=None, description="the streaming rate of dense NVFP4 GEMMs at decode batches")
    nvfp4_k_walk: Fp4KWalk | None = Field(
        default=None, description="the reduction-depth walk of dense NVFP4 GEMMs at decode batches")
    nvfp4_large_batch: Fp4LargeBatchGemm | None = Field(
        default=None, description="the throughput of dense NVFP4 GEMMs at prompt- and batch-sized row counts")
    fp8_large_batch: Fp8DepthGemm | None = Field(
        default=None, description="the throughput of dense FP8 GEMMs at batch-sized row counts by reduction depth")
    mxfp4_asm_gemm: Mxfp4AsmGemm | None = Field(
        default=None, description="the throughput of AITER's assembly MXFP4 GEMMs at batch-sized row counts")
    nvfp4_efficiency_scale: Fp4EfficiencyScale | None = Field(
        default=None, description="the dense NVFP4 GEMMs' share of the FP4 peak over the efficiency's reference part")
    nvfp4_activation_quant: Fp4ActivationQuant | None = Field(
        default=None, description="frameworks that quantize a dense NVFP4 linear's input in a kernel of its own")
    vlm_memory_share: VlmMemoryShare | None = Field(
        default=None, description="the default memory share an engine lowers for a multimodal checkpoint")
    frameworks: list[Framework]
    speculative_methods: dict[SpeculativeKind, SpeculativeMethod] = Field(default={})
    quantization_methods: dict[QuantizationKind, QuantizationMethod] = Field(default={})
    length_distributions: dict[str, LengthDistribution] = Field(
        default={}, description="benchmark dataset -> its request lengths as the benchmark client samples them")

    @model_validator(mode="after")
    def _refs(self) -> "ServingFile":
        ids = [f.id for f in self.frameworks]
        if self.default_framework not in ids:
            raise Said(N_("default_framework %(default_framework)s is not a framework id"),
                       default_framework=f"{self.default_framework!r}")
        named = [(f"speculative_methods.{k}", fw) for k, m in self.speculative_methods.items() for fw in m.frameworks]
        named += [(f"quantization_methods.{k}", fw) for k, m in self.quantization_methods.items()
                  for fw in m.frameworks]
        for name in ("nvfp4_small_batch", "nvfp4_k_walk", "nvfp4_large_batch", "fp8_large_batch", "mxfp4_asm_gemm",
                     "nvfp4_activation_quant", "vlm_memory_share", "nvfp4_efficiency_scale"):
            part = getattr(self, name)
            named += [(name, fw) for fw in part.frameworks] if part is not None else []
        for where, fw in named:
            if fw not in ids:
                raise Said(N_("%(where)s: %(fw)s is not a framework id"), where=where, fw=f"{fw!r}")
        return self
