"""``runtime.yaml``: how hardware performs in practice (utilisation, efficiencies, overheads, links)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Check, Strict


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
