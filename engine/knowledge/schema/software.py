"""``software.yaml``: CUDA/driver/PyTorch/architecture compatibility tables."""

from __future__ import annotations

from pydantic import Field

from .base import Check, Strict


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
