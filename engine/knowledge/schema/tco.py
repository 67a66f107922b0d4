"""``tco.yaml``: ownership assumptions (server share, PUE, hosting, resale, licences, exchange rate)."""

from __future__ import annotations

import datetime as _dt

from pydantic import Field

from .base import Check, Strict


class SourcedValue(Strict):
    value: float
    unit: str
    source: str = Field(min_length=3)
    as_of: _dt.date | None = None
    check: Check = "S"


class TcoFile(Strict):
    """Ownership assumptions: server share, PUE, hosting, resale, licences, FX."""

    schema_version: int
    values: dict[str, SourcedValue]
