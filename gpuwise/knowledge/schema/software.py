"""``software.yaml``: CUDA/driver/PyTorch/architecture compatibility tables, and the
non-CUDA stacks (ROCm, Intel Gaudi software, Ascend CANN / torch_npu) with library and
framework support per stack."""

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StringConstraints

from gpuwise.errors import N_, Said

from .base import Check, Prose, Sourced, Strict

Stack = Literal["cuda", "rocm", "gaudi", "cann"]
_VERSION = r"^[0-9]+\.[0-9]+(\.[0-9]+)?$"
_DRIVER = re.compile(r"[0-9]{3}\.[0-9]{1,3}(\.[0-9]{1,3})?")


def _driver(text: str) -> str:
    """An NVIDIA Linux driver version as its release notes write it (450.80.02, 570.26): 'abc' was read
    as a floor of -1, which every driver passes."""
    if not _DRIVER.fullmatch(text):
        raise Said(N_("%(given)s is not a driver version such as 550.54.15"), given=repr(text[:40]))
    return text


Driver = Annotated[str, AfterValidator(_driver)]
CudaMajor = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,3}$")]


class CudaDriver(Strict):
    cuda: str = Field(pattern=r"^[0-9]+\.[0-9]+(\.[0-9]+)?$")
    min_driver_linux: Driver
    source: Prose


class ArchSupport(Strict):
    compute_capability: str
    first_cuda: str
    last_cuda: str | None = Field(default=None, description="last toolkit that can target it")
    gpus: str = ""
    source: Prose


class TorchBuild(Strict):
    pytorch: str = Field(description="release, e.g. 2.7")
    cuda: str = Field(description="wheel CUDA version, e.g. 12.8")
    sm: list[str] = Field(description="compute capabilities with SASS in the wheel")
    ptx: bool = False
    source: Prose


class OsDriver(Strict):
    os: str
    default_driver_branch: str = Field(description="driver branch in the distro's own repository at release")
    newest_driver_branch: str | None = None
    source: Prose
    check: Check = "S"


class FeatureFloor(Strict):
    feature: str
    min_compute_capability: str
    compute_capabilities: list[str] | None = Field(
        default=None, description="the only compute capabilities the feature runs on, where its support matrix names "
        "them and a later one lacks it (MXFP8: 10.0 / 10.3, not 12.0); none: every one from the floor up")
    source: Prose


class DriverCeiling(Sourced):
    """The last NVIDIA driver branch that still drives these architectures."""

    compute_capabilities: list[str] = Field(min_length=1)
    architectures: str
    last_branch: int = Field(ge=100, le=2000)
    announced: str | None = Field(default=None, pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$")


class KernelModules(Sourced):
    """Which flavour of the NVIDIA kernel modules a GPU needs (by compute capability or catalog id)."""

    compute_capabilities: list[str] = []
    gpus: list[str] = Field(default=[], description="catalog ids (or id prefixes) of platforms, e.g. gh200")
    requires: Literal["open", "proprietary"]


class TorchFloor(Sourced):
    """The first PyTorch release whose official wheels carry kernels that run on an architecture."""

    compute_capability: str
    first_pytorch: str = Field(pattern=_VERSION)


class RocmRelease(Sourced):
    """One column of AMD's ROCm compatibility matrix."""

    rocm: list[str] = Field(min_length=1, description="the exact releases this row covers, e.g. 6.4.1")
    gfx: list[str] = Field(min_length=1, description="supported GPU / LLVM targets")
    gfx_complete: bool = Field(default=True, description="false: a target missing here is unknown, not refused")
    pytorch: list[str] = Field(default=[], description="PyTorch releases AMD lists for this ROCm")
    amdgpu_driver: list[str] = Field(default=[], description="AMD GPU Driver (amdgpu) versions AMD lists")


class TorchRocmBuild(Sourced):
    """The ROCm versions a PyTorch release publishes official wheels for."""

    pytorch: str = Field(pattern=r"^[0-9]+\.[0-9]+$")
    rocm: list[str] = Field(min_length=1)
    check: Check = "V"


class LibrarySupport(Sourced):
    """Whether a library (flash-attn, bitsandbytes) runs on a non-CUDA stack, and from which version."""

    library: Literal["flash-attn", "bitsandbytes"]
    stack: Stack
    status: Literal["official", "experimental", "none"]
    from_: str | None = Field(default=None, alias="from", pattern=_VERSION)
    experimental_from: str | None = Field(default=None, pattern=_VERSION)
    gfx: list[str] = []
    min_stack: str | None = Field(default=None, pattern=_VERSION, description="oldest stack release (e.g. ROCm)")
    alternative: str = Field(default="", description="what to use instead where the library does not run")


class FrameworkSupport(Sourced):
    """Whether an inference framework runs on a non-CUDA stack: natively, through a plugin, or not at all."""

    framework: str
    stack: Stack
    support: Literal["native", "plugin", "none"]
    plugin: str = ""
    gfx: list[str] = []
    min_stack: str | None = Field(default=None, pattern=_VERSION)


class GaudiRelease(Sourced):
    """One Intel Gaudi software (SynapseAI) release: the PyTorch it ships and the devices it drives."""

    synapse: str = Field(pattern=r"^[0-9]+\.[0-9]+$", description="release, e.g. 1.21 (patches share the PyTorch)")
    pytorch: str = Field(pattern=_VERSION)
    devices: list[str] = Field(min_length=1, description="catalog isa names: gaudi, gaudi2, gaudi3")
    firmware: str = ""


class TorchNpuRelease(Sourced):
    """One torch_npu (Ascend Extension for PyTorch) release and its matched PyTorch and CANN."""

    torch_npu: str = Field(pattern=r"^[0-9]+\.[0-9]+\.[0-9]+(\.post[0-9]+|\.?rc[0-9]+)?$")
    pytorch: str = Field(pattern=r"^[0-9]+\.[0-9]+\.[0-9]+$")
    cann: str = Field(pattern=r"^[0-9]+\.[0-9]+\.([0-9]+|RC[0-9]+)(\.[0-9]+)?$")
    branch: str = ""


class SoftwareFile(Strict):
    schema_version: int
    cuda_drivers: list[CudaDriver]
    cuda_family_floor: dict[CudaMajor, Driver] = Field(
        description="CUDA major -> minimum driver under minor-version compatibility"
    )
    architectures: list[ArchSupport]
    torch_builds: list[TorchBuild]
    os_drivers: list[OsDriver]
    feature_floors: list[FeatureFloor]
    driver_ceilings: list[DriverCeiling] = []
    kernel_modules: list[KernelModules] = []
    torch_floors: list[TorchFloor] = []
    rocm_releases: list[RocmRelease] = []
    torch_rocm_builds: list[TorchRocmBuild] = []
    library_support: list[LibrarySupport] = []
    framework_support: list[FrameworkSupport] = []
    gaudi_releases: list[GaudiRelease] = []
    torch_npu_releases: list[TorchNpuRelease] = []
    source_notes: Prose = ""
