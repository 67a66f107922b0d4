"""``gpus.yaml``: the GPU catalog (dense peaks per precision, memory, links, power, how each is sold)."""

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, field_validator, model_validator

from gpuwise.errors import N_, Said
from gpuwise.inputs.strict import MAX_CARD_POWER_W, MAX_GPUS

from .base import Prose, Sourced, Strict, Within

# Bounds far beyond and beneath every part made, so a new generation fits and a slip does not
# (gpus.yaml holds 10..288 GB, 200..8,000 GB/s of memory bandwidth, 4.5..195 non-tensor FP32
# TFLOP/s, 15,000 dense FP4 TFLOP/s at most, 32..1,800 GB/s between GPUs, 60..1,400 W, a fast
# domain of 384 GPUs at most)
MAX_MEMORY_GB = 10_000
MAX_BANDWIDTH_GB_S = 1_000_000
MAX_TFLOPS = 1_000_000

_Memory = Annotated[float, AfterValidator(Within(1, MAX_MEMORY_GB))]
_Peak = Annotated[float | None, AfterValidator(Within(0.01, MAX_TFLOPS))]
"""0 or None is no hardware path; else at least 0.01 TFLOP/s (gpus.yaml's least is 0.18, a P40's packed
FP16): an overlay's ``bf16: 1.0e-9`` was read and an H100 fine-tuned for centuries."""
SMI_PER_GB = (0.9, 1.2)
"""The driver's total in GB over the marketed GB: 1.006..1.074 in gpus.yaml (1.068..1.074 where GiB are sold
as GB, less what the driver reserves; 1.006..1.007 for the GDDR cards sold by their usable GiB)."""


class GpuMemory(Sourced):
    gb: _Memory = Field(gt=0, description="capacity as marketed, decimal GB")
    smi_mib: Annotated[int | None, AfterValidator(Within(0, MAX_MEMORY_GB * 1000**3 // 2**20))] = Field(
        default=None, gt=0, description="total as the driver reports it, MiB (exact bytes): nvidia-smi's "
        "figure, or rocm-smi's 'VRAM Total Memory (B)' / 2**20"
    )
    type: str
    bandwidth_gb_s: Annotated[float, AfterValidator(Within(10, MAX_BANDWIDTH_GB_S))] = Field(gt=0)
    ecc: bool | None = None
    shared_with_host: bool = Field(
        default=False, description="the GPU's memory is the system's only memory, shared with its CPU (the GB10 of a "
        "DGX Spark): CPU offload would move state into the same memory, so no layout offloads, and one pinned there "
        "has that memory less what the GPU side holds")

    @model_validator(mode="after")
    def _sizes_agree(self) -> "GpuMemory":
        """An overlay's ``memory: {gb: 48}`` (a 48 GB RTX 4090 from a Chinese workshop) kept the
        built-in ``smi_mib: 24564``, and the fit, which counts nvidia-smi's exact bytes, used 24 GB."""
        if self.smi_mib is not None:
            smi_gb = self.smi_mib * 2**20 / 1e9
            if not SMI_PER_GB[0] <= smi_gb / self.gb <= SMI_PER_GB[1]:
                raise Said(N_("smi_mib %(mib)s MiB (%(smi_gb)s GB) does not match gb %(gb)s: give both, as the card is "
                              "marketed and as nvidia-smi reports it"), mib=self.smi_mib, smi_gb=f"{smi_gb:.1f}",
                           gb=f"{self.gb:g}")
        return self


class GpuPeaks(Sourced):
    """Dense peak throughput, TFLOP/s (TOPS for int8). ``None`` = no hardware path."""

    fp64: _Peak = Field(default=None, ge=0)
    fp32: Annotated[float, AfterValidator(Within(0.1, MAX_TFLOPS))] = Field(gt=0, description="non-tensor FP32")
    tf32: _Peak = Field(default=None, ge=0)
    fp16: _Peak = Field(default=None, ge=0, description="FP16 tensor, FP32 accumulate")
    bf16: _Peak = Field(default=None, ge=0, description="BF16 tensor, FP32 accumulate")
    fp8: _Peak = Field(default=None, ge=0, description="FP8 tensor, FP32 accumulate")
    fp4: _Peak = Field(
        default=None, ge=0,
        description="FP4 tensor (NVFP4 / MXFP4 block-scaled E2M1), dense; None = no FP4 tensor path",
    )
    int8: _Peak = Field(default=None, ge=0, description="INT8 tensor, TOPS")
    fp16_nontensor: _Peak = Field(
        default=None, ge=0, description="packed-half FP16 on GPUs without tensor cores"
    )
    sparse_halved: bool = Field(
        default=False, description="the vendor headline was sparse and was halved here"
    )
    sms: int | None = Field(
        default=None, ge=1, le=1024,
        description="streaming multiprocessors (compute units) the peaks are spread over: one thread block's share "
        "of the tensor rate is peak / sms; None = not read",
    )
    sms_source: Prose | None = Field(
        default=None, min_length=3,
        description="the document the SM count was read in (whitepaper, datasheet cores over the architecture's cores "
        "an SM, or a device query), where the peaks' own source does not name it",
    )


    @model_validator(mode="after")
    def _sms_sourced_with_count(self) -> "GpuPeaks":
        """A source for an SM count that is not there is a slip (the count dropped in an edit)."""
        if self.sms_source is not None and self.sms is None:
            raise Said(N_("sms_source is given but sms is not: give the SM count it was read for"))
        return self

    @model_validator(mode="after")
    def _narrower_not_slower(self) -> "GpuPeaks":
        """Every part with them runs FP8 at least as fast as BF16 and FP4 at least as fast as FP8
        (gpus.yaml: 2x each step); an overlay's ``fp8: 0.001`` under a BF16 of 989 was read."""
        for wide, narrow in (("bf16", "fp8"), ("fp8", "fp4")):
            w, n = getattr(self, wide), getattr(self, narrow)
            if w and n and n < w:
                raise Said(N_("%(narrow)s %(n)s is below %(wide)s %(w)s: a narrower format is never slower on one "
                              "GPU (a typo or a unit slip)"), narrow=narrow, n=f"{n:g}", wide=wide, w=f"{w:g}")
        return self


class GpuLink(Sourced):
    """How this GPU talks to its peers inside one server."""

    kind: Literal["nvswitch", "nvlink", "nvlink-bridge", "pcie", "infinity-fabric", "roce", "hccs", "ub"] = Field(
        description="hccs: Huawei's HCCS / Unified Bus links between Ascend NPUs"
    )
    bandwidth_gb_s: Annotated[float, AfterValidator(Within(1, MAX_BANDWIDTH_GB_S))] = Field(
        gt=0, description="per GPU, both directions together")
    domain_gpus: int = Field(ge=1, le=MAX_GPUS, description="GPUs that share the fast link (2 for a bridge)")
    pcie_gen: int = Field(ge=3, le=6)
    p2p: bool = Field(description="peer-to-peer over PCIe works with the stock driver")
    host_uplink_gpus: int | None = Field(default=None, ge=1, le=8, description=(
        "GPUs of one server behind one x16 PCIe uplink to the host CPU (a PCIe switch shared by a GPU pair), whose "
        "host copies divide it when they run at once (offload); none: each GPU its own x16 link"))
    host_c2c_gb_s: float | None = Field(default=None, gt=0, le=2_000, description=(
        "a chip-to-chip link to the GPU's own CPU in place of PCIe (NVLink-C2C on GH200 / GB200), GB/s both "
        "directions together: a copy to or from host memory gets half of it a direction, divided among the GPUs "
        "that share the one CPU (host_uplink_gpus); none: the host link is PCIe at pcie_gen"))
    server_gpus: int | None = Field(default=None, ge=1, le=8, description=(
        "GPUs in one server of the systems this part ships in, where fewer than 8 (quad GH200 blades: 4); "
        "none: an 8-GPU server"))
    system_fabric: str | None = Field(default=None, description=(
        "a whole desktop system's own scale-out port (the DGX Spark's ConnectX-7): the prices.yaml fabric and "
        "runtime.yaml network its bought systems are joined by, in place of prices.yaml bought_fabric; no adapter "
        "is bought, and two systems are cabled back to back without a switch"))
    scale_out_network: str | None = Field(default=None, description=(
        "the runtime.yaml network between the servers of the part's reference system, where its datasheet states one "
        "that differs from runtime.yaml default_network_datacenter (DGX A100: eight HDR 200 Gb/s ports for eight "
        "GPUs, infiniband-200): what a training run or a serving copy across servers runs over when the input names "
        "no network; none: the default for the part's segment"))
    max_systems: int | None = Field(default=None, ge=2, le=MAX_GPUS, description=(
        "a whole desktop system: the most of its systems the maker's own tools join into one cluster (the DGX "
        "Spark's: four); a job spread over more is refused (rule NET-SYSTEMS-BEYOND-MAKER); none: no such limit"))


class GpuPower(Sourced):
    tdp_w: Annotated[float, AfterValidator(Within(10, MAX_CARD_POWER_W))] = Field(gt=0)
    system_host_w: Annotated[float, AfterValidator(Within(0, 2_000))] | None = Field(default=None, ge=0, description=(
        "a part sold only inside a whole desktop system (the GB10 of a DGX Spark): the rest of that system's power "
        "beyond the part's TDP, at most (its supply's rating less the TDP); a bought system is charged this in place "
        "of tco.yaml workstation_host_w, a desktop PC's CPU and board, which the part's own TDP already holds"))


class GpuClocks(Sourced):
    """The engine clock a part holds under load, where its power management sets it below the peak's."""

    peak_mhz: Annotated[float, AfterValidator(Within(100, 10_000))] = Field(
        description="the engine clock the dense peaks (``peaks``) are counted at")
    dense_gemm_mhz: dict[Literal["fp16", "bf16", "fp8"], Annotated[float, AfterValidator(Within(100, 10_000))]] = \
        Field(description="the clock the part holds through a long dense GEMM at its power cap, by precision (the "
              "lowest chiplet's median, thermally settled, data of normal toggle rate)")


class LicenceBundle(Sourced):
    """A software subscription the vendor ships with the card (priced into the card, not added on)."""

    name: str = Field(min_length=3, description="e.g. NVIDIA AI Enterprise")
    years: int | None = Field(default=None, ge=1, description="term of the bundled subscription")


class BuiltInto(Sourced):
    """The named systems a part is built into alone (CINECA's Leonardo, BSC's MareNostrum 5): never sold or rented
    as a card, so a plain family name ('A100', 'DGX A100') never means it (docs/names.md rule 9)."""

    systems: list[Annotated[str, Field(min_length=2)]] = Field(
        min_length=1, description="the systems the part is built into, as their operators name them")


class Gpu(Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$")
    name: str
    vendor: Literal["nvidia", "amd", "intel", "huawei"]
    aliases: list[str] = []
    default_for: list[str] = Field(
        default=[], description="ambiguous short names this variant is the clear default for"
    )
    not_listed: list[str] = Field(
        default=[], description="names of a card of its own the catalog does not hold, nearest this one (the 12 GB "
        "RTX 3080 beside the 10 GB one; the notes say how they differ): refused as not held, this one offered"
    )
    built_into: BuiltInto | None = Field(
        default=None, description="a part built only into the named systems (a supercomputer's custom module): read by "
        "its own id, name and aliases only, never as a member of its family's short name, a DGX / HGX's modules or "
        "rule 2's SXM reading; None: an ordinary part")
    architecture: str = Field(
        description="e.g. pascal, volta, turing, ampere, ada, hopper, blackwell, blackwell-ultra, cdna3, cdna4, davinci"
    )
    compute_capability: str | None = Field(
        default=None, pattern=r"^[0-9]+\.[0-9]+$", description="NVIDIA SM version; None for non-CUDA"
    )
    isa: str | None = Field(default=None, description="AMD gfx target, Gaudi generation, Ascend SoC version...")
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
    clocks: GpuClocks | None = Field(
        default=None, description="engine clocks under load where a source gives them (None: not read)")
    licence_bundle: LicenceBundle | None = Field(
        default=None, description="software subscription included with the card (None: none, or sold as an add-on)"
    )
    tensor_cores: bool
    min_driver: str | None = Field(
        default=None, description="explicit minimum Linux driver when stricter than the CUDA floor"
    )
    notes: Prose = ""

    @field_validator("aliases", "default_for")
    @classmethod
    def _lower(cls, v: list[str]) -> list[str]:
        return [a.lower() for a in v]

    @model_validator(mode="after")
    def _own_names_only(self) -> "Gpu":
        if self.built_into is not None and self.default_for:
            raise Said(N_("a part built into named systems (built_into) is no short name's default: remove default_for"
                          " %(names)s"), names=", ".join(self.default_for))
        return self


class GpuFile(Strict):
    schema_version: int
    gpus: list[Gpu]
