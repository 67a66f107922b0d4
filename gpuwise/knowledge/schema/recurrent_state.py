"""``serving.yaml``: how a framework holds a hybrid model's recurrent (SSM / DeltaNet) state -- in a pool of its own
beside the KV pool, sized by release, and in which element type a release lets a job choose (moved out of
``serving``, which held 815 lines).
"""

from typing import Literal

from pydantic import Field, model_validator

from ...errors import N_, Said
from ..records import version_key
from .base import Check, Prose, Strict
from .releases import RELEASE_VERSION
from .runtime import Factor


class StatePoolRelease(Strict):
    """How the releases from ``since`` on (up to the next entry) size a hybrid model's recurrent-state pool."""

    since: str = Field(pattern=RELEASE_VERSION)
    memory_ratio: float = Field(gt=0, description="the state pool's bytes over the KV pool's, of the memory the "
                                "weights leave (SGLang --mamba-full-memory-ratio at its default)")
    slots_per_request: int = Field(ge=1, description="state slots a running request takes with the prefix cache "
                                   "on, for the models listed in `buffered_models` (SGLang: the base ratio plus the "
                                   "extra buffer's ping-pong slots under the overlap scheduler)")
    plain_slots_per_request: int = Field(ge=1, description="the same for the other hybrid models")
    fixed_slots: int | None = Field(default=None, ge=1, description="with the prefix cache off and no "
                                    "max_running_requests, the pool's fixed slot count (None: the ratio split)")


class HybridStatePool(Strict):
    """A framework that keeps a hybrid model's recurrent state (models.yaml ``recurrent``) in a pool of its own
    beside the KV pool, and caps the running requests by that pool's slots (statepool.py)."""

    releases: list[StatePoolRelease] = Field(min_length=1, description="oldest first; releases before the first "
                                             "keep the state in the KV pool")
    buffered_models: list[str] = Field(default=[], description="catalog models whose architecture the releases "
                                       "give the extra state buffer by default")
    unoverlapped_host_us: Factor | None = Field(
        default=None, description="host time a decode step adds where the release turns the overlap scheduler off "
        "for such a model (the prefix cache on, no extra state buffer: 'no_buffer'), us")
    unoverlapped_from: dict[Literal["mamba2", "gated_deltanet"], str] = Field(
        default={}, description="the first release that turns it off, by mixer kind (not listed: the first entry)")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the code was read")
    source: Prose = Field(min_length=3)
    check: Check = "S"

    @model_validator(mode="after")
    def _ordered(self) -> "HybridStatePool":
        keys = [version_key(r.since) for r in self.releases]
        if keys != sorted(keys) or len(set(keys)) != len(keys):
            raise Said(N_("releases must be listed oldest first, each version once"))
        return self


StateDtype = Literal["float32", "bfloat16", "float16"]


class StateDtypeRelease(Strict):
    """The recurrent-state element types the releases from ``since`` on (up to the next entry) accept."""

    since: str = Field(pattern=RELEASE_VERSION)
    values: list[StateDtype] = Field(min_length=1)


class RecurrentStateDtype(Strict):
    """The setting that chooses the element type of a hybrid model's recurrent (SSM / DeltaNet) state
    (``workload.recurrent_state_dtype``); not set, each model's own (models.yaml ``recurrent``)."""

    setting: str = Field(min_length=2, description="the flag or argument, as the framework spells it")
    releases: list[StateDtypeRelease] = Field(min_length=1, description="oldest first; releases before the "
                                              "first have no such setting")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the code was read")
    source: Prose = Field(min_length=3)
    check: Check = "S"

    @model_validator(mode="after")
    def _ordered(self) -> "RecurrentStateDtype":
        keys = [version_key(r.since) for r in self.releases]
        if keys != sorted(keys) or len(set(keys)) != len(keys):
            raise Said(N_("releases must be listed oldest first, each version once"))
        return self
