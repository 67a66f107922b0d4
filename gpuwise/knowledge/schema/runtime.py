"""``runtime.yaml``: how hardware performs in practice (utilisation, efficiencies, overheads, links)."""

from typing import Literal

from pydantic import Field, model_validator

from ...errors import N_, Said
from ..records import NetworkMethods, TrainingFactorsMethods
from .base import Check, Strict


class Factor(Strict):
    value: float
    source: str = Field(min_length=3)
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


class QuantFormat(Strict):
    bits_per_weight: float = Field(gt=0, le=32, description="for the quantized (linear) weights, scales included")
    keeps_16bit: list[Literal["embeddings", "lm_head", "norms"]] = Field(
        description="tensors the format leaves at 16 bit"
    )
    example: str = ""
    source: str = Field(min_length=3)


class NetworkReference(Strict):
    """The reference system whose compute fabric a network is (DGX H100: 8 NDR ports)."""

    system: str = Field(min_length=2)
    ports: int = Field(gt=0)
    kind: str = Field(min_length=2, description="the ports' generation as the system's guide names it (NDR)")


class Network(NetworkMethods, Strict):
    gb_s: float = Field(gt=0, description="line rate, one direction, GB/s")
    shared_by: Literal["gpu", "node"] = Field(description="one such port per GPU, or one per node")
    latency_us: float = Field(ge=0)
    port: str = Field(default="", description="the port's name as sold ('25 GbE', 'NDR 400 Gb/s InfiniBand'): "
                      "one such port per `shared_by`")
    rail_optimised: bool = Field(default=False, description="each GPU's port on its own rail of switches")
    reference: NetworkReference | None = None
    description: str = Field(default="", description="a network no port describes (an overlay between rented "
                             "pods), in the knowledge base's words; shown as written")
    source: str = Field(min_length=3)

    @model_validator(mode="after")
    def _described(self) -> "Network":
        if bool(self.port) == bool(self.description):
            raise Said(N_("give either 'port' (the port's name) or 'description', not both"))
        return self


class BatchDefault(Strict):
    """Published global batch (tokens per optimizer step) for pretraining models below a size."""

    below_params_b: float = Field(gt=0, description="applies to models with fewer total parameters (billions)")
    tokens: float = Field(gt=0)
    source: str = Field(min_length=3)


class Mesh(Strict):
    """A point-to-point intra-node fabric: every GPU has one link to each peer."""

    intra_share: float = Field(gt=0, le=1, description="share of the GPU's link bandwidth that reaches its peers")
    source: str = Field(min_length=3)


class MoeDispatch(Strict):
    """GPU-seconds an MoE layer costs per token beyond its experts' matmuls and the modelled all-to-all:
    routing, permutation and un-permutation, grouped-GEMM tails, dispatch synchronisation."""

    us_per_token_layer: dict[str, float] = Field(description="GPU architecture -> microseconds per token per MoE layer")
    default_architecture: str = Field(description="the architecture whose figure applies to architectures not listed")
    source: str = Field(min_length=3)
    check: Check = "S"


class TrainingFactors(TrainingFactorsMethods, Strict):
    """What the training layout planner adds to the MFU: width, precision, communication, restarts."""

    mfu_reference_hidden: Positive
    mfu_memory_bound_k: NonNegative
    fp8_gemm_speedup: Positive
    tp_comm_overlap: Share
    ep_comm_overlap: Share
    moe_dispatch: MoeDispatch | None = None
    optimizer_bytes_per_param: Positive
    whole_run_efficiency: Fraction
    failures_per_gpu_hour: NonNegative
    hours_lost_per_failure: NonNegative
    job_setup_hours: NonNegative
    bucket_bytes: Positive
    ce_chunks: Positive
    finetune_global_batch_sequences: Positive
    pretrain_tokens_per_gpu: Positive = Field(description="tokens per GPU per step a default pretraining batch holds")
    pretrain_global_batch_max: Positive = Field(description="the largest default pretraining batch, tokens")
    pretrain_dense_batch_max: Positive = Field(description="the largest default pretraining batch of a dense model, "
                                               "tokens")
    pretrain_global_batch: list[BatchDefault] = Field(min_length=1)
    meshes: dict[str, Mesh] = Field(description="link kind -> point-to-point mesh layout")


class RentedHostRam(Strict):
    """Host RAM that comes with each rented GPU, by GPU segment, where an offer does not state its own."""

    per_gpu_gb: dict[Literal["consumer", "workstation", "datacenter", "cloud-only"], float] = Field(
        description="GB of host RAM per rented GPU")
    source: str = Field(min_length=3)
    check: Check = "S"
    instance_gib: dict[str, float] = Field(default_factory=dict,
                                           description="GiB of RAM of a named instance (clouds.yaml id), whole")
    instance_source: str = ""


class StackSpeed(Strict):
    """A training stack's speed relative to the middle the training MFU is calibrated on."""

    name: str
    efficiency: float = Field(gt=0, le=2)
    memory_bound_scale: float = Field(
        default=1.0, ge=0, le=2, description="share of the middle's memory-bound work (norms, activations, residual "
        "adds, rotary, the loss: training.mfu_memory_bound_k) the stack still pays; fused kernels remove most of it")
    calibrated_on: list[str] = Field(
        default=[], description="GPU architectures whose runtime.mfu figure was measured on this stack: there the "
        "stack runs at that figure (efficiency 1), its efficiency applies elsewhere")
    gathers_ahead: bool = Field(
        default=False, description="ZeRO-1/2: the stack all-gathers the updated weights behind the next step's "
        "forward pass, layer by layer (Megatron-Core's overlap_param_gather); otherwise the all-gather runs after "
        "the optimizer step, before the forward, and nothing hides it")
    tp_comm_overlap: float = Field(
        default=0.0, ge=0, lt=1, description="share of the tensor-parallel collectives the stack hides behind the "
        "GEMMs they feed, where the TP group stays inside one NVLink domain (Transformer Engine's userbuffers need "
        "it); 0: the collectives sit on the critical path (runtime.yaml training.tp_comm_overlap)")
    transformer_engine: bool = Field(
        default=False, description="the stack's layers are Megatron-Core's with Transformer Engine: memory is held "
        "as Megatron lays it out at any layout (bf16 weights, fp32 main gradients, the layer's saved tensors as "
        "Korthikanti et al. count them), under FP8 the GEMM inputs are saved as their FP8 copies, and expert "
        "parallelism may span the tensor-parallel GPUs as well as the data-parallel ones (MoE parallel folding)")
    source: str = Field(min_length=3)
    check: Check = "S"


class RuntimeFile(Strict):
    """How hardware performs in practice: utilisation, efficiencies, overheads, links."""

    schema_version: int
    mfu: dict[str, Fraction] = Field(description="architecture -> default model-FLOPs utilisation")
    decode_bandwidth_efficiency: Fraction
    decode_layer_overhead_us: NonNegative
    prefill_mfu: Fraction
    cuda_context_bytes: NonNegative
    allocator_overhead_fraction: Share
    comm_overlap_fraction: Share
    link_efficiency: Fraction
    host_memory_gb_s: Positive
    nvme_gb_s: Positive
    cpu_adam_params_per_s_per_core: Positive = Field(
        description="parameters one host core updates per second with DeepSpeed's CPU Adam (offloaded optimizer)")
    host_cores_per_gpu: Positive = Field(description="host CPU cores serving each GPU of a training server")
    rented_host_ram: RentedHostRam = Field(description="host RAM of a rented GPU server, per GPU")
    training_stacks: dict[str, StackSpeed] = Field(
        description="stack id -> speed relative to the calibrated middle; 'middle' is used when none is given")
    quantization: dict[str, QuantFormat]
    pcie_gb_s: dict[str, Positive] = Field(description="PCIe generation -> x16 one-direction GB/s")
    networks: dict[str, Network]
    default_network_datacenter: str
    default_network_other: str
    host_ram_fraction_usable: Fraction
    training: TrainingFactors
