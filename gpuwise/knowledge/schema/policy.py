"""``policy.yaml``: every number a decision turns on (memory headroom, price age, the value of a
day, mining-era dates, cooling limits, tolerances...), each with its unit and why it is what it is.

Rules read these by name (``{policy: memory_headroom_fraction}`` in a condition); the strategy
ladder and the ranking read them too. A policy is a choice, not a measurement: each carries a
rationale, and a source where a published figure backs it. An overlay's ``policy.yaml`` may give
bare values (``memory_headroom_fraction: 0.5``); see :func:`gpuwise.knowledge.policy_overlay`.
"""

import datetime as _dt
import math
from typing import Any

from pydantic import Field, field_validator

from ...errors import N_, Said
from ...inputs.notation import number_text
from .base import Prose, Strict


class PolicyValue(Strict):
    value: float | str = Field(description="a number, or a YYYY-MM / YYYY-MM-DD date for date policies")
    unit: str = Field(min_length=1)
    rationale: Prose = Field(min_length=10, description="why this value: the reasoning a reviewer can check")
    source: Prose = Field(default="", description="the published figure behind it, where there is one")
    min: float | None = Field(default=None, description="smallest value that makes sense (overlays are checked)")
    max: float | None = Field(default=None, description="largest value that makes sense (overlays are checked)")

    @field_validator("value", mode="before")
    @classmethod
    def _number_text(cls, v: Any) -> Any:
        """A number in quotes (``'0.2'``, ``'1e3'``) is read as that number, in plain decimal digits
        only, as every number field of an input file reads one (``1e999`` then fails as not
        finite)."""
        if isinstance(v, str):  # '0x10', '1_6', '１６' are refused, saying what they would have meant
            number = number_text(v)
            return v if number is None else number
        return v

    @field_validator("value")
    @classmethod
    def _finite(cls, v: float | str) -> float | str:
        if isinstance(v, float) and not math.isfinite(v):
            raise Said(N_("must be a finite number"))
        if isinstance(v, str):
            try:
                _dt.date.fromisoformat(v if len(v) == 10 else v + "-01")
            except ValueError:
                raise Said(N_("a text policy value must be a date (YYYY-MM or YYYY-MM-DD)")) from None
        return v


class PolicyFile(Strict):
    schema_version: int
    policy: dict[str, PolicyValue]
