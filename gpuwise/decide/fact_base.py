"""What every fact type of the vocabulary (:mod:`gpuwise.decide.facts`) is made of: a field with its description
and the stage that sets it, and the model that forbids any other field."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


def _f(description: str, *, set_by: str | None = None, default: Any = None) -> Any:
    extra = {"set_by": set_by} if set_by else None
    return Field(default=default, description=description, json_schema_extra=extra)


class FactModel(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
