"""``serving.yaml`` ``serial_shared_expert``: where a framework runs a MoE layer's shared expert as GEMMs of its own,
one after the routed experts on the same stream (not as one more expert of the fused-MoE kernel, and with no second
stream to overlap it)."""

from typing import Literal

from pydantic import Field, model_validator

from ...errors import N_, Said
from ..records import release_key
from .base import Check, Prose, Strict

RELEASE = r"^[0-9]+(\.[0-9]+){0,3}(\.?(post|rc)[0-9]+)?$"


class SerialSharedExpert(Strict):
    """One case: the listed models (none listed: every model) in the release window, on the listed vendors."""

    # gpus.yaml's vendors: a misspelt one ('amdd') matched no GPU and took the serial cost away unsaid
    vendors: list[Literal["nvidia", "amd", "intel", "huawei"]] = Field(
        min_length=1, description="GPU vendors (gpus.yaml) whose builds run it so")
    first: str | None = Field(default=None, pattern=RELEASE, description="the first release (None: every "
                              "release before `before`)")
    before: str | None = Field(default=None, pattern=RELEASE, description="the release that stopped it (None: "
                               "every release from `first`)")
    models: list[str] = Field(default_factory=list, description="catalog models it holds for (empty: every model "
                              "in the window)")
    source: Prose = Field(min_length=3)
    check: Check = "S"

    @model_validator(mode="after")
    def _holds_one(self) -> "SerialSharedExpert":
        # as serving.ReleaseWindow, in the ordering fusion.serial_shared_gemms reads the window with (release_key:
        # 0.5.5.post1 before 0.5.5.post3 holds post1 and post2); 'from 0.5.9 before 0.5.6' was read as no release
        if self.first is not None and self.before is not None and release_key(self.before) <= release_key(self.first):
            raise Said(N_("before %(before)s is not after first %(first)s: no release is in the window"),
                       before=self.before, first=self.first)
        return self
