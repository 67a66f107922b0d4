"""Shared pieces of every knowledge schema: strict frozen models and the source/check convention."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 1

Check = Literal["V", "S", "U"]
"""V: read in the vendor/provider document; S: secondary source; U: unverified."""


class Strict(BaseModel):
    # The schema modules (these, gpuwise/inputs/schema.py, gpuwise/results.py, gpuwise/ledger.py)
    # do without `from __future__ import annotations`: with it pydantic compiles and evaluates every
    # field's annotation text when a class is built, a fifth of building the classes in every
    # process. A method returning its own class quotes the name.
    # allow_inf_nan=False: no knowledge figure (or overlay) may be NaN or infinite; NaN would pass
    # every range check and end as invalid JSON in a report
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, defer_build=True)


class Sourced(Strict):
    source: str = Field(min_length=3)
    check: Check = "S"
