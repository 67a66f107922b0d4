"""``serving.yaml`` ``fused_kernel_models``: the models each release lists as having explicit support for its fused
decode-layer kernels, which the release entry's fused small-kernel figure (``kernel_floor_us``) was read on."""

from pydantic import Field, model_validator

from ...errors import N_, Said
from ..records import version_key
from .base import Check, Prose, Strict

RELEASE = r"^[0-9]+(\.[0-9]+){0,3}(\.?(post|rc)[0-9]+)?$"


class FusedModelsRelease(Strict):
    """The catalog models the releases from ``since`` on (up to the next entry) list."""

    since: str = Field(pattern=RELEASE)
    models: list[str] = Field(min_length=1, description="catalog models whose architecture the release lists")
    gpus_excluded: list[str] = Field(default_factory=list, description="catalog GPUs the release leaves the fusion "
                                     "off on whatever the model (a device check in its server arguments): their "
                                     "counted small kernels cost the framework's own figure")


class FusedKernelModels(Strict):
    """The release entry's fused small-kernel figure holds for a listed model on a GPU the release does not exclude;
    from the first listed release on, any other model's (or GPU's) counted small kernels cost the framework's own
    ``kernel_floor_us``."""

    releases: list[FusedModelsRelease] = Field(min_length=1, description="oldest first; releases before the "
                                               "first take the release entry's figure for every model")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the code was read")
    source: Prose = Field(min_length=3)
    check: Check = "S"

    @model_validator(mode="after")
    def _ordered(self) -> "FusedKernelModels":
        keys = [version_key(r.since) for r in self.releases]
        if keys != sorted(keys) or len(set(keys)) != len(keys):
            raise Said(N_("releases must be listed oldest first, each version once"))
        return self
