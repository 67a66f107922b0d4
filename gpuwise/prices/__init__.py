"""Prices a user can see and refresh: ``gpuwise prices`` lists every dated price the decision can
use with its age and source (:mod:`.table`); ``gpuwise prices import`` turns a public price
catalog (gpuhunt's or SkyPilot's CSV, or gpuwise's own minimal CSV) into a knowledge overlay that
``--knowledge DIR`` then uses (:mod:`.catalog_csv`, :mod:`.overlay`).
"""

from __future__ import annotations

from .catalog_csv import ImportReport, read_catalog
from .overlay import write_overlay
from .table import PriceRow, price_rows

__all__ = ["ImportReport", "PriceRow", "price_rows", "read_catalog", "write_overlay"]
