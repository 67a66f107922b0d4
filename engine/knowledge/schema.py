"""Schemas of the knowledge files under ``knowledge/``.

Every figure block carries a ``source``; anything that drifts (prices, exchange
rates) carries an ``as_of`` date.  Peaks are *dense* (no 2:4 sparsity) and each
precision is kept separate.  Models are strict: an unknown key is an error, so a
typo in a knowledge file never silently drops a number.
"""

from __future__ import annotations

import datetime as _dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

SCHEMA_VERSION = 1

Check = Literal["V", "S", "U"]
"""V: read in the vendor/provider document; S: secondary source; U: unverified."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Sourced(Strict):
    source: str = Field(min_length=3)
    check: Check = "S"


# ----------------------------------------------------------------------------- GPUs
class GpuMemory(Sourced):
    gb: float = Field(gt=0, description="capacity as marketed, decimal GB")
    smi_mib: int | None = Field(
        default=None, gt=0, description="total as nvidia-smi reports it, MiB (exact bytes)"
    )
    type: str
    bandwidth_gb_s: float = Field(gt=0)
    ecc: bool | None = None


class GpuPeaks(Sourced):
    """Dense peak throughput, TFLOP/s (TOPS for int8). ``None`` = no hardware path."""

    fp64: float | None = Field(default=None, ge=0)
    fp32: float = Field(gt=0, description="non-tensor FP32")
    tf32: float | None = Field(default=None, ge=0)
    fp16: float | None = Field(default=None, ge=0, description="FP16 tensor, FP32 accumulate")
    bf16: float | None = Field(default=None, ge=0, description="BF16 tensor, FP32 accumulate")
    fp8: float | None = Field(default=None, ge=0, description="FP8 tensor, FP32 accumulate")
    int8: float | None = Field(default=None, ge=0, description="INT8 tensor, TOPS")
    fp16_nontensor: float | None = Field(
        default=None, ge=0, description="packed-half FP16 on GPUs without tensor cores"
    )
    sparse_halved: bool = Field(
        default=False, description="the vendor headline was sparse and was halved here"
    )


class GpuLink(Sourced):
    """How this GPU talks to its peers inside one server."""

    kind: Literal["nvswitch", "nvlink", "nvlink-bridge", "pcie", "infinity-fabric", "roce"]
    bandwidth_gb_s: float = Field(gt=0, description="per GPU, both directions together")
    domain_gpus: int = Field(ge=1, description="GPUs that share the fast link (2 for a bridge)")
    pcie_gen: int = Field(ge=3, le=6)
    p2p: bool = Field(description="peer-to-peer over PCIe works with the stock driver")


class GpuPower(Sourced):
    tdp_w: float = Field(gt=0)


class Price(Strict):
    usd: float = Field(gt=0)
    as_of: _dt.date
    source: str = Field(min_length=3)
    check: Check = "U"
    kind: Literal["msrp", "list", "street", "estimate"] = "street"


class Gpu(Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$")
    name: str
    vendor: Literal["nvidia", "amd", "intel"]
    aliases: list[str] = []
    default_for: list[str] = Field(
        default=[], description="ambiguous short names this variant is the clear default for"
    )
    architecture: str = Field(description="e.g. pascal, volta, turing, ampere, ada, hopper, blackwell, cdna3")
    compute_capability: str | None = Field(
        default=None, pattern=r"^\d+\.\d+$", description="NVIDIA SM version; None for non-CUDA"
    )
    isa: str | None = Field(default=None, description="AMD gfx target, Gaudi generation...")
    launch_year: int = Field(ge=2010, le=2030)
    segment: Literal["datacenter", "workstation", "consumer", "cloud-only"]
    form_factor: Literal["sxm", "pcie", "oam", "mezzanine"]
    export_variant_of: str | None = Field(
        default=None, description="id of the unrestricted part this export-market card derives from"
    )
    memory: GpuMemory
    peaks: GpuPeaks
    link: GpuLink
    power: GpuPower
    price: Price | None = None
    tensor_cores: bool
    min_driver: str | None = Field(
        default=None, description="explicit minimum Linux driver when stricter than the CUDA floor"
    )
    notes: str = ""

    @field_validator("aliases", "default_for")
    @classmethod
    def _lower(cls, v: list[str]) -> list[str]:
        return [a.lower() for a in v]


class GpuFile(Strict):
    schema_version: int
    gpus: list[Gpu]


# ---------------------------------------------------------------------------- models
class MoE(Strict):
    experts: int = Field(ge=2)
    experts_per_token: int = Field(ge=1)
    shared_experts: int = 0


class Model(Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$")
    name: str
    aliases: list[str] = []
    kind: Literal["decoder", "moe", "diffusion"] = "decoder"
    params_b: float = Field(gt=0, description="total parameters, billions")
    active_params_b: float | None = Field(default=None, gt=0, description="MoE: per token")
    layers: int | None = Field(default=None, ge=1)
    hidden_size: int | None = Field(default=None, ge=1)
    heads: int | None = Field(default=None, ge=1)
    kv_heads: int | None = Field(default=None, ge=1)
    head_dim: int | None = Field(default=None, ge=1, description="when not hidden/heads")
    ffn_size: int | None = Field(default=None, ge=1, description="dense MLP (or one expert's) width")
    mlp_matrices: int = Field(default=3, ge=2, le=3, description="3 for SwiGLU/GeGLU, 2 for a GELU MLP")
    vocab_size: int | None = Field(default=None, ge=1)
    tied_embeddings: bool = False
    max_context: int | None = Field(default=None, ge=1)
    kv_elements_per_token_layer: int | None = Field(
        default=None, ge=1, description="override for compressed KV caches (MLA): elements per token per layer"
    )
    moe: MoE | None = None
    license: str = ""
    source: str = Field(min_length=3)
    notes: str = ""

    @field_validator("aliases")
    @classmethod
    def _lower(cls, v: list[str]) -> list[str]:
        return [a.lower() for a in v]

    @model_validator(mode="after")
    def _shape(self) -> Model:
        if self.kind != "diffusion":
            missing = [
                f for f in ("layers", "hidden_size", "heads", "kv_heads", "ffn_size", "vocab_size")
                if getattr(self, f) is None
            ]
            if missing:
                raise ValueError(f"transformer shape incomplete: missing {', '.join(missing)}")
        if self.kind == "moe" and (self.moe is None or self.active_params_b is None):
            raise ValueError("a moe model needs 'moe' and 'active_params_b'")
        return self


class ModelFile(Strict):
    schema_version: int
    models: list[Model]


# ---------------------------------------------------------------------------- clouds
class Instance(Strict):
    id: str
    provider: str
    gpu: str = Field(description="gpu id in gpus.yaml")
    gpus: int = Field(ge=1)
    usd_per_hour: float = Field(gt=0, description="whole instance, on-demand")
    spot_usd_per_hour: float | None = Field(default=None, gt=0)
    region: str = ""
    as_of: _dt.date
    source: str = Field(min_length=3)
    check: Check = "S"
    notes: str = ""


class GpuHourPrice(Strict):
    """A per-GPU-hour offer from a GPU-specialist cloud (no instance shape)."""

    provider: str
    gpu: str
    usd_per_gpu_hour: float = Field(gt=0)
    min_gpus: int = 1
    as_of: _dt.date
    source: str = Field(min_length=3)
    check: Check = "S"
    notes: str = ""


class Tier(Strict):
    up_to_tb: float | None = Field(default=None, gt=0, description="None = the rest")
    usd_per_gb: float = Field(ge=0)


class Provider(Strict):
    id: str
    name: str
    kind: Literal["hyperscaler", "gpu-cloud", "marketplace"]
    egress_free_gb_per_month: float = 0
    egress_tiers: list[Tier] = Field(description="internet egress, per GB, in order")
    cross_region_usd_per_gb: float = Field(ge=0)
    storage_usd_per_gb_month: dict[str, float] = Field(
        default={}, description="kind (premium-ssd, standard-ssd, object) -> price"
    )
    spot_notice_s: int | None = None
    billing: str = ""
    as_of: _dt.date
    source: str = Field(min_length=3)
    check: Check = "S"


class DiscountSchedule(Strict):
    id: str
    description: str
    per_full_30_days: float = Field(ge=0, le=1)
    max_discount: float = Field(ge=0, le=1)
    source: str
    caveat: str = ""


class SpotModel(Strict):
    """How spot capacity is priced in when no provider spot price is known."""

    fallback_discount: float = Field(ge=0, le=1)
    availability: float = Field(gt=0, le=1, description="fraction of time capacity is there")
    restart_overhead: float = Field(ge=0, le=1, description="extra work per unit of work after preemptions")
    source: str
    check: Check = "U"


class CloudFile(Strict):
    schema_version: int
    providers: list[Provider]
    instances: list[Instance]
    gpu_hour_prices: list[GpuHourPrice] = []
    discount_schedules: list[DiscountSchedule] = []
    default_discount_schedule: str = "none"
    spot: SpotModel


# ------------------------------------------------------------------------------- TCO
class SourcedValue(Strict):
    value: float
    unit: str
    source: str = Field(min_length=3)
    as_of: _dt.date | None = None
    check: Check = "S"


class TcoFile(Strict):
    """Ownership assumptions: server share, PUE, hosting, resale, licences, FX."""

    schema_version: int
    values: dict[str, SourcedValue]


# ------------------------------------------------------------------- software compat
class CudaDriver(Strict):
    cuda: str = Field(pattern=r"^\d+\.\d+(\.\d+)?$")
    min_driver_linux: str
    source: str


class ArchSupport(Strict):
    compute_capability: str
    first_cuda: str
    last_cuda: str | None = Field(default=None, description="last toolkit that can target it")
    gpus: str = ""
    source: str


class TorchBuild(Strict):
    pytorch: str = Field(description="release, e.g. 2.7")
    cuda: str = Field(description="wheel CUDA version, e.g. 12.8")
    sm: list[str] = Field(description="compute capabilities with SASS in the wheel")
    ptx: bool = False
    source: str


class OsDriver(Strict):
    os: str
    default_driver_branch: str = Field(description="driver branch in the distro's own repository at release")
    newest_driver_branch: str | None = None
    source: str
    check: Check = "S"


class FeatureFloor(Strict):
    feature: str
    min_compute_capability: str
    source: str


class SoftwareFile(Strict):
    schema_version: int
    cuda_drivers: list[CudaDriver]
    cuda_family_floor: dict[str, str] = Field(
        description="CUDA major -> minimum driver under minor-version compatibility"
    )
    architectures: list[ArchSupport]
    torch_builds: list[TorchBuild]
    os_drivers: list[OsDriver]
    feature_floors: list[FeatureFloor]
    source_notes: str = ""


# ---------------------------------------------------------------- runtime behaviour
class Factor(Strict):
    value: float
    source: str = Field(min_length=3)
    check: Check = "S"


class QuantFormat(Strict):
    bits_per_weight: float = Field(gt=0, le=32, description="for the quantized (linear) weights, scales included")
    keeps_16bit: list[Literal["embeddings", "lm_head", "norms"]] = Field(
        description="tensors the format leaves at 16 bit"
    )
    example: str = ""
    source: str = Field(min_length=3)


class Network(Strict):
    gb_s: float = Field(gt=0, description="line rate, one direction, GB/s")
    shared_by: Literal["gpu", "node"] = Field(description="one such port per GPU, or one per node")
    latency_us: float = Field(ge=0)
    description: str
    source: str = Field(min_length=3)


class RuntimeFile(Strict):
    """How hardware performs in practice: utilisation, efficiencies, overheads, links."""

    schema_version: int
    mfu: dict[str, Factor] = Field(description="architecture -> default model-FLOPs utilisation")
    decode_bandwidth_efficiency: Factor
    decode_layer_overhead_us: Factor
    prefill_mfu: Factor
    cuda_context_bytes: Factor
    allocator_overhead_fraction: Factor
    headroom_fraction: Factor
    comm_overlap_fraction: Factor
    link_efficiency: Factor
    host_memory_gb_s: Factor
    nvme_gb_s: Factor
    quantization: dict[str, QuantFormat]
    pcie_gb_s: dict[str, Factor] = Field(description="PCIe generation -> x16 one-direction GB/s")
    networks: dict[str, Network]
    default_network_datacenter: str
    default_network_other: str
    host_ram_fraction_usable: Factor
