"""``serving.yaml`` ``serial_shared_expert``: where a framework runs a MoE layer's shared expert as GEMMs of its own,
one after the routed experts on the same stream (not as one more expert of the fused-MoE kernel, and with no second
stream to overlap it)."""

from pydantic import Field

from .base import Check, Strict

RELEASE = r"^\d+(\.\d+){0,3}(\.?(post|rc)\d+)?$"


class SerialSharedExpert(Strict):
    """One case: the listed models (none listed: every model) in the release window, on the listed vendors."""

    vendors: list[str] = Field(min_length=1, description="GPU vendors (gpus.yaml) whose builds run it so")
    first: str | None = Field(default=None, pattern=RELEASE, description="the first release (None: every "
                              "release before `before`)")
    before: str | None = Field(default=None, pattern=RELEASE, description="the release that stopped it (None: "
                               "every release from `first`)")
    models: list[str] = Field(default_factory=list, description="catalog models it holds for (empty: every model "
                              "in the window)")
    source: str = Field(min_length=3)
    check: Check = "S"

