"""Shared pieces of every knowledge schema: strict frozen models and the source/check convention."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 1

Check = Literal["V", "S", "U"]
"""V: read in the vendor/provider document; S: secondary source; U: unverified."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Sourced(Strict):
    source: str = Field(min_length=3)
    check: Check = "S"
