"""``runtime.yaml``: how hardware performs in practice (utilisation, efficiencies, overheads, links)."""

import datetime as _dt
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, model_validator

from ...errors import N_, Said
from ..records import NetworkMethods, TrainingFactorsMethods
from .base import Check, Prose, Strict


class Factor(Strict):
    value: float
    source: Prose = Field(min_length=3)
    check: Check = "S"


class Fraction(Factor):
    """A utilisation or efficiency: in (0, 1] (0 would divide by zero, above 1 is impossible)."""

    value: float = Field(gt=0, le=1)


class Share(Factor):
    """A share that may be zero: in [0, 1]."""

    value: float = Field(ge=0, le=1)


class Positive(Factor):
    """A bandwidth, a size or a speed-up: above zero."""

    value: float = Field(gt=0)


class NonNegative(Factor):
    """An overhead, a latency or a rate of failures: zero or more."""

    value: float = Field(ge=0)


class Plausible:
    """Bounds on a runtime constant (an ``AfterValidator`` on a factor or a number): an overlay's
    ``cuda_context_bytes: 1e300`` was read and every GPU was 'too small' (exit 1, no GPU fits). Each
    ceiling is hundreds to thousands of times the figure runtime.yaml ships, each floor as far below
    it: a value beyond them is a typo or a unit slip. A class, not a closure, so the schema that holds
    it is kept between processes (gpuwise/prebuilt.py)."""

    def __init__(self, floor: float, ceiling: float):
        self.floor, self.ceiling = floor, ceiling

    def __call__(self, v: Any) -> Any:
        x = v.value if isinstance(v, Factor) else v
        if x > self.ceiling:
            raise Said(N_("%(value)s is above %(ceiling)s, far beyond any published figure: a typo or a unit slip"),
                       value=f"{x:g}", ceiling=_plain(self.ceiling))
        if x < self.floor:  # zero too where the floor is above it, and a negative figure: a share, a count and a
            # size are none of them below zero (rented_host_ram.threads_per_core: 0 divided by zero, exit 3)
            raise Said(N_("%(value)s is below %(floor)s, far beneath any published figure: a typo or a unit slip"),
                       value=f"{x:g}", floor=f"{self.floor:g}")
        return v

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Plausible) and (other.floor, other.ceiling) == (self.floor, self.ceiling)

    def __hash__(self) -> int:
        return hash((self.floor, self.ceiling))


def _plain(x: float) -> str:
    return f"{x:,.0f}" if x >= 1 and float(x).is_integer() else f"{x:g}"


def _within(kind: Any, floor: float, ceiling: float) -> Any:
    return Annotated[kind, AfterValidator(Plausible(floor, ceiling))]


GIB = 2**30


class QuantFormat(Strict):
    bits_per_weight: float = Field(gt=0, le=32, description="for the quantized (linear) weights, scales included")
    keeps_16bit: list[Literal["embeddings", "lm_head", "norms"]] = Field(
        description="tensors the format leaves at 16 bit"
    )
    moe_rest_bits: float | None = Field(
        default=None, gt=0, le=32, description="a MoE model's file in this format holds only the routed experts at "
        "`bits_per_weight` and every other tensor (attention, router, embeddings, head) at this many bits per "
        "weight (llama.cpp's MXFP4 MoE files: Q8_0); unset: the whole model at `bits_per_weight`")
    example: str = ""
    source: Prose = Field(min_length=3)


class NetworkReference(Strict):
    """The reference system whose compute fabric a network is (DGX H100: 8 NDR ports)."""

    system: str = Field(min_length=2)
    ports: _within(int, 1, 100_000) = Field(gt=0)
    kind: str = Field(min_length=2, description="the ports' generation as the system's guide names it (NDR)")


class Network(NetworkMethods, Strict):
    gb_s: _within(float, 0.01, 100_000) = Field(gt=0, description="line rate, one direction, GB/s")
    shared_by: Literal["gpu", "node"] = Field(description="one such port per GPU, or one per node")
    latency_us: _within(float, 0, 10_000_000) = Field(ge=0)
    port: str = Field(default="", description="the port's name as sold ('25 GbE', 'NDR 400 Gb/s InfiniBand'): "
                      "one such port per `shared_by`")
    rail_optimised: bool = Field(default=False, description="each GPU's port on its own rail of switches")
    reference: NetworkReference | None = None
    description: Prose = Field(default="", description="a network no port describes (an overlay between rented "
                             "pods), in the knowledge base's words; shown as written")
    source: Prose = Field(min_length=3)

    @model_validator(mode="after")
    def _described(self) -> "Network":
        if bool(self.port) == bool(self.description):
            raise Said(N_("give either 'port' (the port's name) or 'description', not both"))
        return self


class RecomputeDefault(Strict):
    """The recomputation a named stack's own shipped configs run for models up to a size (StackSpeed.recompute)."""

    upto_params_b: float | None = Field(
        default=None, gt=0, le=1_000_000, description="applies to dense models of at most this many parameters "
        "(billions); None: any size (the list's last entry)")
    mode: Literal["selective_op", "full"] = Field(
        description="selective_op: per-op selective checkpointing (workload.gradient_checkpointing 'selective_op'), "
        "every layer recomputed fully where that does not fit; full: every layer recomputed")


class BatchDefault(Strict):
    """Published global batch (tokens per optimizer step) for pretraining models below a size."""

    below_params_b: _within(float, 0, 1_000_000) = Field(
        gt=0, description="applies to models with fewer total parameters (billions)")
    tokens: _within(float, 1, 1e12) = Field(gt=0)
    source: Prose = Field(min_length=3)


class Mesh(Strict):
    """A point-to-point intra-node fabric: every GPU has one link to each peer."""

    intra_share: float = Field(gt=0, le=1, description="share of the GPU's link bandwidth that reaches its peers")
    source: Prose = Field(min_length=3)


class Fp4GemmRatio(Strict):
    """FP4 (NVFP4) GEMMs in training over FP8 ones, per GPU architecture, where a published table of both on the same
    layout shows what the datasheet's FP4 / FP8 peak ratio does not (the block-scale quantization of every GEMM input
    runs at memory speed, not at the FP4 rate)."""

    ratio: dict[str, _within(float, 0.5, 10)] = Field(description="GPU architecture -> FP4 over FP8 GEMM throughput")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class MfuReadOn(Strict):
    """The part each architecture's runtime.mfu figure was read on, where the architecture's parts share their peaks
    but not the clock their dense GEMMs hold (a power limit): a part whose catalog entry gives that clock
    (gpus.yaml clocks) runs its matmuls faster or slower than the part the figure was read on, in that ratio."""

    parts: dict[str, str] = Field(description="GPU architecture -> the gpus.yaml id its runtime.mfu was read on")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class MoeDispatchRelease(Strict):
    """The MoE host figures of a stack release whose kernels change what the host launches for a layer (fused
    routing and permutation, a dispatcher that needs no token counts on the host, CUDA-graphed MoE layers)."""

    stacks: list[str] = Field(min_length=1, description="training stacks (runtime.yaml training_stacks) whose "
                              "releases the figure describes")
    ms_per_local_expert: dict[str, _within(float, 0, 1_000)] = Field(
        description="GPU architecture -> host milliseconds per local expert a MoE layer's micro-batch takes to "
        "launch, from this release on")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class MoeTransformersLoop(Strict):
    """Hugging Face transformers before v5: an MoE block loops over its experts in Python, and for each one finds
    its tokens with torch.where (a nonzero, which waits for the GPU), gathers them, runs the expert's MLP and adds
    the result back with index_add_, every step a separate operator the host dispatches and launches."""

    before: str = Field(pattern=r"^[0-9]+(\.[0-9]+){0,3}$", description="the transformers release from which the "
                        "experts run as one grouped GEMM instead (workload.transformers_version below it loops)")
    stacks: list[str] = Field(min_length=1, description="training stacks (runtime.yaml training_stacks) that run "
                              "the transformers model's MoE block")
    ops_forward: _within(int, 1, 1_000) = Field(description="operators the loop dispatches per expert a forward")
    ops_backward: _within(int, 1, 1_000) = Field(description="operators autograd runs per expert a backward")
    us_per_op: _within(float, 0, 1_000) = Field(description="host microseconds an eager operator takes to "
                                                "dispatch and launch")
    us_per_op_forward: _within(float, 0, 1_000) | None = Field(
        default=None, description="host microseconds an operator of the loop's forward takes, read on the loop "
        "itself (its per-expert syncs included); none: us_per_op")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class MoeLoraHostOps(Strict):
    """What of the per-expert host charge a LoRA job makes: the host steps a grouped expert linear takes for one
    local expert a micro-batch when its weights train and when they are frozen, and the stacks whose LoRA gives
    each expert adapters of its own (two more grouped linears that train)."""

    trainable: _within(int, 1, 1_000) = Field(description="host steps per local expert of a grouped linear whose "
                                              "weights train (what ms_per_local_expert was read on)")
    frozen: _within(int, 0, 1_000) = Field(description="host steps per local expert of a grouped linear whose "
                                           "weights are frozen (no weight gradient, no accumulation)")
    forward: _within(int, 0, 1_000) = Field(default=0, description="of those steps, the ones a grouped linear's "
                                            "forward makes, trainable or frozen alike (a recomputed layer makes "
                                            "them again); 0: half of a layer's host time repeats, as before")
    per_expert_adapter_stacks: list[str] = Field(
        default_factory=list, description="training stacks (runtime.yaml training_stacks) whose all-linear LoRA "
        "puts a lora_A and a lora_B of its own on each expert (grouped linears over the local experts); the others "
        "share one adapter over a layer's experts or put none there")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class MoeLayerHostOps(Strict):
    """The host calls an MoE layer's micro-batch makes whatever its expert count (the layer's attention modules, the
    router, the token dispatcher's bookkeeping, its all-to-alls, permutations and host copy of the token counts,
    the grouped linears' entry), each priced as one eager operator: the per-layer part of the host time beside
    ms_per_local_expert's per-expert part."""

    forward: _within(int, 0, 10_000) = Field(description="host calls a layer's forward makes (a recomputed layer "
                                             "makes them again)")
    backward: _within(int, 0, 10_000) = Field(description="host calls autograd and the gradient hooks make for a "
                                              "layer's backward")
    us_per_op: _within(float, 0, 1_000) = Field(description="host microseconds one call takes")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class MoeDispatch(Strict):
    """Host time a MoE layer's micro-batch (forward and backward) takes to launch its experts, per expert the GPU
    holds: the dropless dispatcher waits for the routing's token counts on the host every layer, so a layer whose
    GPU work is shorter than this waits on the host (step_time.moe_seconds)."""

    ms_per_local_expert: dict[str, _within(float, 0, 1_000)] = Field(
        description="GPU architecture -> host milliseconds per local expert a MoE layer's micro-batch takes to launch")
    default_architecture: str = Field(description="the architecture whose figure applies to architectures not listed")
    stacks: list[str] = Field(min_length=1, description="training stacks (runtime.yaml training_stacks) whose MoE "
                              "layers wait on the host so; the others' experts run as one grouped GEMM with the "
                              "token counts kept on the GPU (no host time per local expert)")
    releases: dict[str, MoeDispatchRelease] = Field(
        default_factory=dict, description="stack release (e.g. NeMo '26.08') -> its figures, for a job on one of its "
        "stacks whose workload.stack_version is that release or later (none given: the newest); older releases and "
        "other stacks take ms_per_local_expert")
    transformers_loop: MoeTransformersLoop | None = Field(
        default=None, description="the per-expert loop of transformers before v5 on the stacks that run its model "
        "(step_time.moe_seconds)")
    lora_host_ops: MoeLoraHostOps | None = Field(
        default=None, description="the share of ms_per_local_expert a LoRA job's frozen experts (and their adapters) "
        "make (training_job.moe_host_share); none: every expert charged as a trainable one")
    layer_host_ops: MoeLayerHostOps | None = Field(
        default=None, description="the host calls a layer makes whatever its expert count, charged beside the "
        "per-expert part on the same stacks (step_time.moe_seconds); none: the per-expert part alone")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class CheckpointOffload(Strict):
    """A stack whose activation checkpointing keeps each layer's input in host memory: copied out beside the
    layer's forward, and back before the layer is recomputed, on the compute stream's path (step_time.
    checkpoint_copy_seconds)."""

    stacks: list[str] = Field(min_length=1, description="training stacks (runtime.yaml training_stacks) whose "
                              "checkpointing offloads so; the others keep the layer inputs on the GPU")
    min_elements: _within(int, 1, 10**12) = Field(description="a layer input of this many elements or fewer stays "
                                                  "on the GPU")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class DenseLayerHost(Strict):
    """The kernels a dense decoder layer's micro-batch launches from Python on a stack whose layers run eager, each
    at the host time one launch takes: a layer whose GPU work is shorter waits for the host (a small model's
    LoRA step on a fast GPU; step_time.dense_host_seconds)."""

    stacks: list[str] = Field(min_length=1, description="training stacks (runtime.yaml training_stacks) whose "
                              "layers launch so; the others are not counted")
    methods: list[str] = Field(min_length=1, description="fine-tuning methods (workload.method) the count was read "
                               "on (another method's layer launches other kernels)")
    forward: _within(int, 0, 10_000) = Field(description="kernels a layer's forward launches (a recomputed layer "
                                             "launches them again)")
    backward: _within(int, 0, 10_000) = Field(description="kernels a layer's backward launches, the adapters' "
                                              "gradient accumulation included")
    us_per_launch: _within(float, 0, 1_000) = Field(description="host microseconds a launch takes, the step's "
                                                    "other Python shared over its launches")
    as_of: _dt.date
    source: Prose = Field(min_length=3)
    check: Check = "S"


class Zero3GradHook(Strict):
    """Host time DeepSpeed ZeRO-3's gradient hook takes for each parameter in every micro-batch's backward: the
    gradient's copy into the reduce bucket, its slices for the coalesced reduce-scatter (one a data-parallel rank)
    and the copy of its reduced partition (step_time.zero3_host_seconds, beside the module's fetches)."""

    calls: _within(int, 0, 1000) = Field(description="host calls a parameter's hook makes that launch nothing "
                                         "(views, stream calls, attribute sets), besides those a rank")
    calls_per_rank: _within(int, 0, 100) = Field(description="host calls a parameter makes for each rank of the "
                                                 "group its gradient is reduce-scattered over")
    launches: _within(int, 0, 100) = Field(description="kernels a parameter's hook launches")
    us_per_call: _within(float, 0, 1000) = Field(description="host microseconds of a call that launches nothing")
    us_per_launch: _within(float, 0, 1000) = Field(description="host microseconds of a call that launches a kernel")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class OneGpuFullFinetune(Strict):
    """The state a full fine-tune on one GPU keeps where its user states no ``mixed_precision`` and names no stack:
    the single-device fine-tuning recipes train every state in the compute dtype (no fp32 master copy), where
    gpuwise's default for the rest keeps fp32 masters (16 B a parameter before activations, which on one GPU only
    offload holds once the model passes a few billion parameters)."""

    precisions: list[Literal["bf16"]] = Field(
        min_length=1, description="compute precisions (workload.precision) whose one-GPU full fine-tune keeps its "
        "weights, gradients and AdamW moments in that dtype (8 B a parameter)")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class MethodRecompute(Strict):
    """The fine-tuning methods whose tools recompute every layer's activations unless told not to, whatever memory
    needs: a job of such a method that states no gradient_checkpointing, on no stack with a recompute default of its
    own (runtime.yaml training_stacks recompute), is laid out with every layer recomputed. gpuwise's own choice for
    the rest recomputes only where the layout needs it to fit."""

    methods: list[Literal["full", "lora", "qlora"]] = Field(
        min_length=1, description="fine-tuning methods (workload.method) that recompute every layer by default")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class Zero3ModuleFetch(Strict):
    """Host time DeepSpeed ZeRO-3 spends on each module that holds parameters, every pass over it (forward, backward,
    a recomputed forward): the pre- and post-hooks, the coordinator's trace and fetch bookkeeping and the gather's
    launch. A module whose GPU work is shorter waits for it (step_time.zero3_host_seconds)."""

    ms_per_fetch: _within(float, 0, 100) = Field(description="host milliseconds per module fetch not covered by "
                                                  "the gather's bytes")
    stacks: list[str] = Field(min_length=1, description="training stacks (runtime.yaml training_stacks) that shard "
                              "a ZeRO-3 model module by module with these hooks")
    grad_hook: Zero3GradHook | None = Field(
        default=None, description="the host work of each parameter's gradient hook in the backward, on the same "
        "stacks; none: not charged")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class SsdKernelUtilization(Fraction):
    """Share of the dense BF16 tensor peak a Mamba-2 layer's SSD chunk kernels reach in training: ``value`` where
    measured on Hopper and the default, ``by_compute_capability`` where a generation's parts run the same kernels at
    another share of their own peak."""

    by_compute_capability: dict[str, _within(float, 0.01, 1)] = Field(
        default_factory=dict, description="a compute capability as gpus.yaml writes it ('10.0' for B200 / GB200) -> "
        "share of that part's dense BF16 peak the SSD kernels reach there")


class AttentionKernels(Strict):
    """Share of the dense 16-bit peak causal attention kernels reach in training (forward and backward), per kernel
    class and GPU architecture: attention is not a plain GEMM (softmax, masking, tile scheduling), and a kernel
    written for one generation leaves the next one's tensor cores idle."""

    utilization: dict[str, dict[str, _within(float, 0.01, 1)]] = Field(
        description="kernel class (fa2, fused) -> GPU architecture, or a compute capability as gpus.yaml writes it "
        "(where one architecture's parts differ: '10.0' for B200 / GB200 beside the 12.0 RTX cards) -> share of the "
        "dense BF16 peak")
    head_dim_tiles: tuple[int, ...] = Field(
        default=(), description="head dims the kernels are compiled for, ascending: a head dim between two runs as "
        "the next one up (its padding computed and thrown away); beyond the last, as given")
    unfused_mla_before: dict[str, str] = Field(
        default_factory=dict, description="training stack -> its first release whose Transformer Engine trains "
        "multi-head latent attention (query/key and value head dims unequal) in a fused kernel on compute capability "
        "10.0 and above; a job stating an earlier workload.stack_version runs it unfused there")
    backends: dict[str, Literal["fa2", "fused"]] = Field(
        default_factory=dict, description="attention backend a training job may state (workload.attention_kernel) "
        "-> the kernel class it runs in: its utilization figures, in place of the stack's class")
    devices: dict[str, tuple[Literal["cuda", "rocm", "gaudi", "cann"], ...]] = Field(
        default_factory=dict, description="attention backend a training job may state -> the GPU software stacks its "
        "kernels are built for (unlisted: any); elsewhere CPT-ATTENTION-KERNEL-DEVICE refuses the candidate")
    min_cc: dict[str, _within(float, 1, 20)] = Field(
        default_factory=dict, description="attention backend -> the lowest NVIDIA compute capability its kernels are "
        "built for (an NVIDIA part below it is refused as another maker's is)")
    max_cc: dict[str, _within(float, 1, 20)] = Field(
        default_factory=dict, description="attention backend -> the highest NVIDIA compute capability its kernels are "
        "built for, where a kernel is written for one generation only (FlashAttention-3: Hopper, 9.0); an NVIDIA part "
        "above it is refused as one below min_cc is")
    benchmark_count_ratio: _within(float, 1, 2) = Field(
        default=1.0, description="FLOPs the utilization figures' benchmarks count for one forward and backward of "
        "attention over the FLOPs gpuwise counts for it (compute.training_flops, the backward twice the forward): "
        "a kernel whose backward recomputes the scores is timed on more; attention's time at a figure is this many "
        "times gpuwise's count over the figure's rate")
    causal_length_tokens: _within(float, 0, 100_000) = Field(
        default=0.0, description="c of a causal attention kernel's rate against its sequence length s, s / (s + c) of "
        "its rate at unbounded length: the masked diagonal tiles and the ragged last wave of the causal triangle cost "
        "a share that falls as 1 / s (0: no length dependence)")
    utilization_length: _within(float, 1, 100_000_000) = Field(
        default=16384.0, description="sequence length the utilization figures were read at: a kernel reaches its "
        "figure there, (s / (s + c)) / (L / (L + c)) of it at length s")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class TrainingFactors(TrainingFactorsMethods, Strict):
    """What the training layout planner adds to the MFU: width, precision, communication, restarts."""

    mfu_reference_hidden: _within(Positive, 1, 1_000_000)
    mfu_memory_bound_k: _within(NonNegative, 0, 10_000)
    mamba1_scan_k: _within(NonNegative, 0, 10_000) | None = Field(
        default=None, description="memory-bound work of a Mamba-1 layer's selective scan, convolution and gates beyond "
        "a transformer layer's, in the units of mfu_memory_bound_k (architecture.ssm mamba1)")
    delta_rule_k: _within(NonNegative, 0, 10_000) | None = Field(
        default=None, description="memory-bound work of a (gated) DeltaNet layer's chunked delta-rule kernels, short "
        "convolutions, normalisations and gates beyond a transformer layer's, in the units of mfu_memory_bound_k "
        "(recurrent.kind gated_deltanet)")
    ssd_kernel_utilization: SsdKernelUtilization | None = Field(
        default=None, description="share of the dense BF16 tensor peak a Mamba-2 layer's SSD chunk kernels reach "
        "(their FLOPs beyond the projections, which the step's matmul count leaves out; recurrent.kind mamba2)")
    compiled_memory_bound_scale: Share | None = Field(
        default=None, description="share of the middle's memory-bound work a torch.compile'd model or one "
        "patched with Liger Kernel still pays (workload.torch_compile, workload.liger_kernel)")
    mfu_by_gpu: dict[str, Fraction] = Field(
        default_factory=dict, description="GPU id -> the runtime.mfu figure for that card where its GEMMs reach a "
        "measured share of their datasheet peak unlike the part its architecture's figure was set on")
    mfu_read_on: MfuReadOn | None = Field(
        default=None, description="architecture -> the part its runtime.mfu was read on, for the held GEMM clock of "
        "the architecture's other parts (gpus.yaml clocks)")
    fp8_gemm_speedup: _within(Positive, 0.1, 10)
    fp8_gemm_fused_speedup: _within(Positive, 0.1, 10) | None = Field(
        default=None, description="FP8 over BF16 GEMMs where the stack's compiler folds the quantization into the "
        "kernels beside them (training_stacks fp8_quantize fused): the GEMMs' own ratio, no cast pass of its own")
    fp4_gemm_over_fp8: Fp4GemmRatio | None = Field(
        default=None, description="FP4 over FP8 GEMMs per architecture where measured; elsewhere the dense peaks' "
        "ratio")
    tp_comm_overlap: Share
    ep_comm_overlap: Share
    overlap_compute_slowdown: Share | None = Field(
        default=None, description="how much slower compute runs while a collective it hides moves its bytes over "
        "the GPUs' fast link (the collective's kernels hold SMs and memory bandwidth): extra compute seconds per "
        "second of hidden fast-link data-parallel traffic; None: hidden traffic costs nothing")
    moe_dispatch: MoeDispatch | None = None
    zero3_module_fetch: Zero3ModuleFetch | None = None
    checkpoint_offload: CheckpointOffload | None = Field(
        default=None, description="the stacks whose checkpointed layer inputs go to host memory and back "
        "(step_time.checkpoint_copy_seconds); none: they stay on the GPU")
    dense_layer_host: DenseLayerHost | None = Field(
        default=None, description="the host launches a dense layer's micro-batch makes on the stacks listed "
        "(step_time.dense_host_seconds); none: a dense layer never waits on the host")
    attention_kernels: AttentionKernels | None = None
    optimizer_bytes_per_param: _within(Positive, 0.1, 1_000)
    one_gpu_full_finetune: OneGpuFullFinetune | None = Field(
        default=None, description="a one-GPU full fine-tune stating no mixed_precision, naming no stack and pinning "
        "no zero_stage or offload: every state in the compute dtype (training_layout.TrainingJob.on); none: fp32 "
        "master weights on one GPU too")
    method_recompute: MethodRecompute | None = Field(
        default=None, description="fine-tuning methods recomputed in full where the job states no "
        "gradient_checkpointing and its stack has no recompute default (training_job.stack_recompute); none: "
        "gpuwise's own choice (only where the layout needs it)")
    whole_run_efficiency: Fraction
    failures_per_gpu_hour: _within(NonNegative, 0, 1)
    hours_lost_per_failure: _within(NonNegative, 0, 10_000)
    job_setup_hours: _within(NonNegative, 0, 10_000)
    bucket_bytes: _within(Positive, 1, 1e12)
    ce_chunks: _within(Positive, 1, 1_000_000)
    finetune_global_batch_sequences: _within(Positive, 1, 10_000_000)
    pretrain_tokens_per_gpu: _within(Positive, 1, 1e9) = Field(
        description="tokens per GPU per step a default pretraining batch holds")
    pretrain_global_batch_max: _within(Positive, 1, 1e12) = Field(
        description="the largest default pretraining batch, tokens")
    pretrain_dense_batch_max: _within(Positive, 1, 1e12) = Field(
        description="the largest default pretraining batch of a dense model, tokens")
    pretrain_global_batch: list[BatchDefault] = Field(min_length=1)
    meshes: dict[str, Mesh] = Field(description="link kind -> point-to-point mesh layout")


class RentedHostRam(Strict):
    """Host RAM that comes with each rented GPU, by GPU segment, where an offer does not state its own."""

    per_gpu_gb: dict[Literal["consumer", "workstation", "datacenter", "cloud-only"],
                     _within(float, 1, 100_000)] = Field(
        description="GB of host RAM per rented GPU")
    source: Prose = Field(min_length=3)
    check: Check = "S"
    instance_gib: dict[str, _within(float, 1, 1_000_000)] = Field(default_factory=dict,
                                           description="GiB of RAM of a named instance (clouds.yaml id), whole")
    instance_source: Prose = ""
    instance_vcpus: dict[str, _within(int, 1, 100_000)] = Field(
        default_factory=dict, description="vCPUs of a named instance (clouds.yaml id), whole")
    threads_per_core: _within(int, 1, 8) = Field(default=2, description="hardware threads (vCPUs) a physical core")
    vcpus_source: Prose = ""


class StackSpeed(Strict):
    """A training stack's speed relative to the middle the training MFU is calibrated on."""

    name: str
    efficiency: float = Field(gt=0, le=2)
    attention_kernel: Literal["fa2", "fused"] = Field(
        default="fa2", description="the class of attention kernel the stack trains with (training.attention_kernels): "
        "FlashAttention-2 (fa2), or a generation-specific fused kernel (cuDNN flash attention, FlashAttention-3/4)")
    memory_bound_scale: float = Field(
        default=1.0, ge=0, le=2, description="share of the middle's memory-bound work (norms, activations, residual "
        "adds, rotary, the loss: training.mfu_memory_bound_k) the stack still pays; fused kernels remove most of it")
    unfused_attention_below: str | None = Field(
        default=None, description="compute capability below which the stack has no flash-attention kernel and runs "
        "attention through its own unfused path (scores written out, softmax, two batched GEMMs), at the rate its "
        "score traffic allows (compute.unfused_attention_rate); None: the stack's kernel class on every GPU")
    compiled: bool = Field(
        default=False, description="the stack's efficiency was measured with the model under torch.compile, so "
        "workload.torch_compile adds no fusion of its own (training.compiled_memory_bound_scale)")
    calibrated_on: list[str] = Field(
        default=[], description="GPU architectures whose runtime.mfu figure was measured on this stack: there the "
        "stack runs at that figure (efficiency 1), its efficiency applies elsewhere")
    gathers_ahead: bool = Field(
        default=False, description="ZeRO-1/2: the stack all-gathers the updated weights behind the next step's "
        "forward pass, layer by layer (Megatron-Core's overlap_param_gather); otherwise the all-gather runs after "
        "the optimizer step, before the forward, and nothing hides it")
    offload_prefetch: bool = Field(
        default=False, description="ZeRO-3 with the parameters offloaded: the stack copies each unit's pinned host "
        "shard to the GPU on a side stream ahead of the unit's compute (PyTorch FSDP's pre-unshard stream), so the "
        "fetches hide behind the step's compute and only what outlasts it waits; otherwise every fetch waits")
    offload_update: Literal["host", "device"] = Field(
        default="host", description="where an offloaded optimizer's update runs: host, on the host's cores "
        "(DeepSpeed's CPU Adam: 'Optimizer computation is offload to CPU regardless of device option'; FSDP CPU "
        "offload's optimizer step on the CPU shards), the gradients sent down and the weights back each step; device: "
        "the optimizer state is kept in pinned host memory between steps and moved to the GPU inside the compiled "
        "step for the update there, then back (JAX memory kinds: MaxText's optimizer_memory_host_offload, "
        "Levanter / Marin's offload_opt_state): only the state crosses the host link, both ways each step, the "
        "weights and gradients stay on the GPU, and no host core computes (step_time.offload_parts)")
    offload_update_source: Prose = Field(
        default="", description="where the stack's offload_update is read: its own source at a named commit "
        "(required with offload_update device)")
    interleaved_pipeline: bool = Field(
        default=True, description="the stack's pipeline engine offers an interleaved schedule (several chunks of "
        "layers per stage), which the planner may choose; False: one contiguous chunk per stage in a plain 1F1B "
        "schedule (DeepSpeed's PipelineEngine), so only a user's pin interleaves")
    pipeline_split_slots: int = Field(
        default=0, ge=0, le=2, description="places beside the transformer layers a pinned interleaved schedule may "
        "split the pipeline over: Megatron-Core counts the embedding and the loss as a layer each when told to "
        "(account_for_embedding_in_pipeline_split, account_for_loss_in_pipeline_split), so pp x vpp virtual stages "
        "need layers + 2 places; 0: each virtual stage holds at least one transformer layer")
    pipeline_head_last: bool = Field(
        default=False, description="the stack splits a pipeline by transformer layers alone, so the last rank "
        "runs the output head and the loss beside its share of the layers and the pipeline steps at that rank's "
        "pace (Megatron-Core's default split); False: the split counts the head (torchtitan's, DeepSpeed's by "
        "parameters) or the stack has no pipeline")
    local_batch: int | None = Field(
        default=None, ge=1, le=1024, description="sequences a GPU's data-parallel rank takes a micro-step when its "
        "user sets no per-GPU batch (torchtitan's training.local_batch_size), gradient accumulation making up the "
        "rest of the global batch; a pipelined layout splits it into the stack's pipeline micro-batches; None: "
        "the stack has no default of its own (one sequence, gpuwise's default)")
    moe_micro_batches: list[Annotated[int, Field(ge=2, le=64)]] | None = Field(
        default=None, min_length=1, description="sequences a micro-step the planner also tries, beside one, for an "
        "MoE model's pretraining when its user sets no per-GPU batch, on an unpipelined layout whose global batch "
        "they divide, keeping the fastest that fits: the stack's performance recipes set the micro-batch per system "
        "(a layer's per-expert host launches are paid once a micro-batch); None: one sequence")
    pipeline_zero: int | None = Field(
        default=None, ge=0, le=1, description="the ZeRO stage a sharded data-parallel pin (ZeRO-2/3, FSDP) runs as "
        "once the model is pipelined: FSDP2 under torch.distributed.pipelining gathers a stage's weights once a step "
        "and reduces its gradients once, after the last micro-batch, as a distributed optimizer does (ZeRO-1); None: "
        "the stack does not combine sharded data parallelism with pipeline stages")
    tp_comm_overlap: float = Field(
        default=0.0, ge=0, lt=1, description="share of the tensor-parallel collectives the stack hides behind the "
        "GEMMs they feed, where the TP group stays inside one NVLink domain (Transformer Engine's userbuffers need "
        "it); 0: the collectives sit on the critical path (runtime.yaml training.tp_comm_overlap)")
    tp_comm_overlap_lora_unhidden: float = Field(
        default=0.0, ge=0, le=1, description="under LoRA, the share of a layer's tensor-parallel collectives the "
        "stack's recipes run without the overlap (the fused QKV projection's forward all-gather and backward "
        "reduce-scatter, 2 of 8, where its overlap is turned off so the adapter reuses the gathered input); the rest "
        "is hidden at tp_comm_overlap; 0: LoRA hides what full training hides")
    overlap_comm: bool = Field(
        default=True, description="ZeRO-0/1/2: the stack reduces each gradient bucket while the backward computes "
        "the next (PyTorch DDP, Megatron-Core); False: by default the reductions wait on the backward and none "
        "hides (DeepSpeed's overlap_comm is off below ZeRO-3 unless the config sets it)")
    grad_bucket_params: float = Field(
        default=0.0, ge=0, description="parameters per gradient bucket of the stack's data-parallel reduction (0: "
        "runtime.yaml grad_bucket_bytes, PyTorch DDP's); the backward hides all but the last bucket's reduction")
    grad_bucket_params_per_rank: float = Field(
        default=0.0, ge=0, description="and at least this many parameters per data-parallel rank in a bucket "
        "(Megatron-Core grows its buckets with the data-parallel size)")
    transformer_engine: bool = Field(
        default=False, description="the stack's layers are Megatron-Core's with Transformer Engine: memory is held "
        "as Megatron lays it out at any layout (bf16 weights, fp32 main gradients, the layer's saved tensors as "
        "Korthikanti et al. count them), under FP8 the GEMM inputs are saved as their FP8 copies, and expert "
        "parallelism may span the tensor-parallel GPUs as well as the data-parallel ones (MoE parallel folding)")
    expert_tensor_parallel: int | None = Field(
        default=None, ge=1, le=64, description="the expert tensor-parallel size the stack's MoE recipes run when the "
        "user states none (workload.parallelism.etp), where the layout holds it: 1, each routed expert whole on its "
        "GPU (Megatron-Bridge / NeMo); None: Megatron-LM's argument default, the tensor-parallel size where the "
        "expert-parallel groups fit in the data-parallel GPUs, else 1 (stage_split.expert_split)")
    loss_bytes_per_vocab: float | None = Field(
        default=None, gt=0, le=32, description="bytes per vocabulary entry per token the stack's loss holds at its "
        "peak (None: the Hugging Face loss's fp32 log-softmax and its backward's two temporaries, 12 B); Megatron's "
        "vocabulary-parallel cross-entropy works in place on one fp32 copy of the 16-bit logits")
    fp8_quantize: Literal["kernels", "fused"] = Field(
        default="kernels", description="how the stack's FP8 training quantizes the GEMM inputs: in cast kernels of "
        "their own each step (kernels: training.fp8_gemm_speedup, the casts included), or folded by its compiler "
        "into the fusions beside the GEMMs (fused: XLA's FP8 rewrite, training.fp8_gemm_fused_speedup; FP4 through "
        "Transformer Engine's NVFP4 recipe keeps its cast kernels either way)")
    layer_activations: Literal["korthikanti"] | None = Field(
        default=None, description="what a transformer layer of the stack saves for its backward in full training "
        "(None: what the Hugging Face modules save, memory.ACT_COEFF amp / pure16); korthikanti: the 16-bit "
        "tensors Korthikanti et al. 2022 count (norm inputs, the QKV input, q/k/v, the attention output, the MLP "
        "input and its hidden activations; memory.ACT_COEFF megatron), as fused layers keep them, held as Megatron "
        "lays out its states")
    gradient_bytes: float | None = Field(
        default=None, gt=0, le=4, description="bytes a parameter's gradient takes where it is held and reduced across "
        "the data-parallel GPUs (None: the layout's: fp32 main gradients under Megatron's layout); llm.c keeps its "
        "gradients in bf16, Lightning Fabric's FSDP reduces them in bf16")
    parallelism: list[Literal["tensor", "pipeline", "expert", "context"]] | None = Field(
        default=None, description="the model parallelism the stack's training path runs beside data parallelism "
        "(ZeRO / FSDP sharding): tensor, pipeline, expert, context; the planner offers the stack only these (None: "
        "every kind, as the calibrated middle is offered)")
    tensor_parallel_max_zero: int | None = Field(
        default=None, ge=0, le=3, description="the highest ZeRO stage the stack runs beside tensor parallelism (None: "
        "any): DeepSpeed's AutoTP training shards optimizer state and gradients (ZeRO 0-2), not the weights")
    zero_stages: list[Literal[0, 1, 2, 3]] | None = Field(
        default=None, min_length=1, description="the ZeRO stages the stack's data parallelism runs (None: any): llm.c "
        "0 and 1 (its -z 2 and 3 run stage 0), nanochat its one sharded optimizer (ZeRO-2 style); the planner offers "
        "only these, and a zero_stage pinned outside them is set aside (MEM-PIN-NOT-ON-STACK)")
    offload: bool = Field(
        default=True, description="the stack can offload training state to the host (ZeRO-Offload, FSDP CPU offload); "
        "false: it has no such path (llm.c, nanochat), so the planner offers none and a pinned offload is set aside")
    engine: str | None = Field(
        default=None, description="the training stack whose sharding engine this one runs (optimum-habana and xtuner "
        "run DeepSpeed's ZeRO on their own model code): the engine's fields (ENGINE_FIELDS) are that stack's unless "
        "set here, and the engine's mechanisms (zero3_offload_copies, training.zero3_module_fetch) reach this stack")
    devices: list[Literal["cuda", "rocm", "gaudi", "cann"]] | None = Field(
        default=None, min_length=1, description="the GPU software stacks the training stack runs on (None: any): "
        "optimum-habana runs only on Intel Gaudi; rule CPT-TRAINING-STACK-DEVICE refuses it elsewhere")
    precisions: list[Literal["fp32", "fp16", "bf16", "fp8", "fp4"]] | None = Field(
        default=None, min_length=1, description="the training precisions the stack runs (workload.precision): fp32, "
        "fp16 or bf16 mixed precision, fp8 (any of its recipes: Transformer Engine's delayed, current, blockwise or "
        "MXFP8 scaling, torchao's float8, XLA's native FP8 dots), fp4 (NVFP4 through Transformer Engine 2.x or a "
        "torchao prototype); a job naming the stack in another is refused (None: any, the calibrated middle's)")
    precisions_source: Prose = Field(
        default="", description="where the stack's precisions are read: its own documentation or source at a dated "
        "release (required with precisions)")
    mixed_precision_policy: str | None = Field(
        default=None, min_length=3, description="the setting by which the stack keeps fp32 weights and computes in "
        "16 bits, as its user writes it (Levanter's jmp policy mp: p=f32,c=bfloat16; MaxText's weight_dtype and "
        "dtype): the default mixed-precision assumption names it, and a model-parallel layout's memory holds the fp32 "
        "weights as their only copy (4 B weights, 4 B gradients, the moments with no master); None: PyTorch "
        "autocast's (fp32 weights, 16-bit matmuls), as the PyTorch stacks run it")
    mixed_precision_source: Prose = Field(
        default="", description="where the stack's mixed_precision_policy is read: its own source or documentation "
        "at a named commit (required with mixed_precision_policy)")
    adamw: str | None = Field(
        default=None, min_length=3, description="the AdamW the stack's training step runs where the workload leaves "
        "optimizer at adamw, as its user's config names it (MaxText: optax.adamw, opt_type adamw; Levanter: its "
        "AdamConfig's optax.scale_by_adam): the default optimizer assumption names it, its moments are held in the "
        "parameters' dtype (optax's scale_by_adam: mu in mu_dtype, else the parameters', nu always the "
        "parameters'), and the update is compiled into the jitted step over the donated train state, so the step "
        "adds no parameter-sized temporary (memory as adamw-fused); None: torch.optim.AdamW's default multi-tensor "
        "step")
    adamw_source: Prose = Field(
        default="", description="where the stack's adamw is read: its own source at a named commit (required with "
        "adamw)")
    parallelism_source: Prose = Field(
        default="", description="where the stack's parallelism is read: its own documentation or source at a "
        "dated release (required with parallelism)")
    expert_tensor_parallel_source: Prose = Field(
        default="", description="where the stack's expert_tensor_parallel is read (required with it)")
    recompute: list[RecomputeDefault] | None = Field(
        default=None, min_length=1, description="the activation recomputation the stack runs by default on a dense "
        "model, by size (the first entry whose upto_params_b the model is within): where a job names the stack and "
        "leaves workload.gradient_checkpointing out, the planner keeps to it and says so; None: gpuwise's own choice "
        "(none where the layout fits, else as much as it takes)")
    recompute_moe: bool = Field(
        default=False, description="the recompute defaults hold for an MoE model too (the stack's MoE configs "
        "recompute as its dense ones); false: an MoE model keeps gpuwise's own choice")
    recompute_source: Prose = Field(
        default="", description="where the stack's recompute defaults are read: its own shipped configs or "
        "documentation at a dated release (required with recompute)")
    tp_comm_overlap_lora_unhidden_source: Prose = Field(
        default="", description="where tp_comm_overlap_lora_unhidden is read (required with it)")
    source: Prose = Field(min_length=3)
    check: Check = "S"

    @model_validator(mode="after")
    def _parallelism_sourced(self) -> "StackSpeed":
        if self.parallelism is not None and len(self.parallelism_source) < 3:
            raise Said(N_("a stack's parallelism needs its parallelism_source"))
        if self.expert_tensor_parallel is not None and len(self.expert_tensor_parallel_source) < 3:
            raise Said(N_("a stack's expert_tensor_parallel needs its expert_tensor_parallel_source"))
        if self.precisions is not None and len(self.precisions_source) < 3:
            raise Said(N_("a stack's precisions need their precisions_source"))
        if self.recompute is not None and len(self.recompute_source) < 3:
            raise Said(N_("a stack's recompute defaults need their recompute_source"))
        if self.mixed_precision_policy is not None and len(self.mixed_precision_source) < 3:
            raise Said(N_("a stack's mixed_precision_policy needs its mixed_precision_source"))
        if self.tp_comm_overlap_lora_unhidden and len(self.tp_comm_overlap_lora_unhidden_source) < 3:
            raise Said(N_("a stack's tp_comm_overlap_lora_unhidden needs its tp_comm_overlap_lora_unhidden_source"))
        if self.adamw is not None and len(self.adamw_source) < 3:
            raise Said(N_("a stack's adamw needs its adamw_source"))
        if self.offload_update == "device" and len(self.offload_update_source) < 3:
            raise Said(N_("a stack's offload_update device needs its offload_update_source"))
        return self


ENGINE_FIELDS = ("grad_bucket_params", "grad_bucket_params_per_rank", "overlap_comm", "interleaved_pipeline",
                 "tensor_parallel_max_zero", "zero_stages", "parallelism", "parallelism_source")
"""What a stack takes from the stack whose sharding engine it runs (StackSpeed.engine): the data-parallel
reduction, the pipeline engine and the parallelism it offers; the model code's speed and memory stay its own."""


def _engines_filled(stacks: dict[str, StackSpeed]) -> dict[str, StackSpeed]:
    """Each stack that names an engine, with the engine's fields where it sets none of its own."""
    out = dict(stacks)
    for sid, spec in stacks.items():
        if spec.engine is None:
            continue
        base = stacks.get(spec.engine)
        if base is None or base.engine is not None:
            import difflib  # a close match for a misspelt engine ('deepspd' offered nothing)

            own = [k for k, v in stacks.items() if v.engine is None]
            close = difflib.get_close_matches(spec.engine, own, n=1)
            if close:
                raise Said(N_("training stack %(stack)s: engine %(engine)s is not a stack that runs its own engine "
                              "(did you mean '%(close)s'?)"), stack=sid, engine=spec.engine, close=close[0])
            raise Said(N_("training stack %(stack)s: engine %(engine)s is not a stack that runs its own engine"),
                       stack=sid, engine=spec.engine)
        out[sid] = spec.model_copy(update={f: getattr(base, f) for f in ENGINE_FIELDS
                                           if f not in spec.model_fields_set})
    return out


class Zero3OffloadCopies(Strict):
    """How DeepSpeed's ZeRO-3 moves an offloaded optimizer's gradients to the host, by release: every release
    copies each gradient partition to the host buffer and back to the GPU a micro-batch (2 + 2 B), then once a
    step into the fp32 gradient the host's Adam reads; what changed is where that copy upcasts and whether the
    copies wait."""

    stacks: list[str] = Field(min_length=1, description="training stacks (training_stacks) that run DeepSpeed's "
                              "ZeRO-3 engine; a job on another stack keeps 16-bit copies hidden behind the backward")
    gpu_upcast_from: str = Field(pattern=r"^[0-9]+(\.[0-9]+){0,3}$", description="the first release whose step copy "
                                 "upcasts on the GPU and sends 4 B a parameter; before it, 2 B and the upcast on the "
                                 "host")
    pinned_async_from: str = Field(pattern=r"^[0-9]+(\.[0-9]+){0,3}$", description="the first release whose host "
                                   "buffers are pinned by default and whose gradient copies run beside the backward; "
                                   "before it they are pageable and the backward waits for them")
    zero12_pageable_from: str | None = Field(
        default=None, pattern=r"^[0-9]+(\.[0-9]+){0,3}$", description="ZeRO-1/2 (stage_1_and_2.py): the first release "
        "whose host gradient buffers are pinned only when offload_optimizer pin_memory is set (false until "
        "pinned_async_from), so their copies run through pageable memory and the backward waits for them; before "
        "it ZeRO-1/2 always pinned them")
    zero12_unfused_return_from: str | None = Field(
        default=None, pattern=r"^[0-9]+(\.[0-9]+){0,3}$", description="ZeRO-1/2 in fp16: the first release whose CPU "
        "Adam no longer writes the 16-bit weights to the GPU itself (from pinned buffers, tile by tile beside its "
        "update); before it an fp16 job's return costs what PCIe's line rate does")
    zero12_fp32_return_from: str | None = Field(
        default=None, pattern=r"^[0-9]+(\.[0-9]+){0,3}$", description="ZeRO-1/2: the first release that sends the "
        "updated fp32 partition to the GPU from pinned memory (4 B a parameter, cast on the GPU); before it a "
        "16-bit copy from pageable memory")
    zero12_host_cast_from: str | None = Field(
        default=None, pattern=r"^[0-9]+(\.[0-9]+){0,3}$", description="ZeRO-1/2: the first release that casts the "
        "updated weights to 16 bits on the host into a buffer pinned only when pin_memory is set, and sends 2 B")
    pageable_slowdown: _within(float, 1, 100) = Field(
        description="a copy through pageable host memory takes this many times the pinned copy, GPUs of a "
        "multi-GPU server copying at once")
    pageable_slowdown_one_gpu: _within(float, 1, 100) = Field(
        description="the same with one GPU on the server")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class RuntimeFile(Strict):
    """How hardware performs in practice: utilisation, efficiencies, overheads, links."""

    schema_version: int
    mfu: dict[str, Fraction] = Field(description="architecture -> default model-FLOPs utilisation")
    decode_bandwidth_efficiency: Fraction
    decode_layer_overhead_us: _within(NonNegative, 0, 10_000)
    prefill_mfu: Fraction
    cuda_context_bytes: _within(NonNegative, 0, 16 * GIB)
    allocator_overhead_fraction: Share
    grad_bucket_bytes: _within(Positive, 1e5, 1e11) = Field(
        description="bytes of gradients a data-parallel stack reduces in one bucket when it names none (PyTorch DDP's "
        "bucket_cap_mb): the backward hides every bucket's reduction but the last (data_parallel._hidden)")
    link_efficiency: Fraction
    pcie_alltoall_links: Factor | None = Field(
        default=None, description="single PCIe links' worth of traffic the host fabric carries at once when every "
        "GPU of a PCIe server writes to every other (an expert-parallel all-to-all): each of n GPUs gets "
        "min(1, this / n) of its link (None: each its whole link)")
    cross_node_allreduce_us: _within(NonNegative, 1, 100_000) = Field(
        description="microseconds of one small all-reduce over two 8-GPU servers (nccl-tests, 8 B): the fixed part "
        "of each all-reduce of a tensor-parallel serving copy that spans nodes")
    host_memory_gb_s: _within(Positive, 1, 10_000)
    nvme_gb_s: _within(Positive, 0.01, 1_000)
    cpu_adam_params_per_s_per_core: _within(Positive, 1_000, 1e10) = Field(
        description="parameters one host core updates per second with DeepSpeed's CPU Adam (offloaded optimizer): "
        "it bounds a host of few cores; host_memory_gb_s bounds the whole host, whose ranks divide it")
    zero3_offload_copies: Zero3OffloadCopies | None = Field(
        default=None, description="DeepSpeed ZeRO-3's gradient copies to the host by release (workload.stack_version)")
    host_cores_per_gpu: _within(Positive, 0.1, 1_024) = Field(
        description="host CPU cores serving each GPU of a training server when the job states none")
    rented_host_ram: RentedHostRam = Field(description="host RAM of a rented GPU server, per GPU")
    training_stacks: Annotated[dict[str, StackSpeed], AfterValidator(_engines_filled)] = Field(
        description="stack id -> speed relative to the calibrated middle; 'middle' is used when none is given")
    quantization: dict[str, QuantFormat]
    pcie_gb_s: dict[str, _within(Positive, 0.1, 1_000)] = Field(description="PCIe generation -> x16 one-direction GB/s")
    networks: dict[str, Network]
    default_network_datacenter: str
    default_network_other: str
    host_ram_fraction_usable: Fraction
    training: TrainingFactors
