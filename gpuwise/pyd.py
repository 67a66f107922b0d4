"""The pydantic names the result modules make their classes with: pydantic's own, or, in a
``gpuwise recommend`` process that writes a report and no JSON, :mod:`gpuwise.lean`'s (decided
once, when the first result module is imported; see gpuwise/lean.py)."""

from . import lean

if lean.ENABLED:
    from .lean import AliasChoices, BaseModel, ConfigDict, Field, model_serializer
else:
    from pydantic import AliasChoices, BaseModel, ConfigDict, Field, model_serializer

__all__ = ["AliasChoices", "BaseModel", "ConfigDict", "Field", "model_serializer"]
