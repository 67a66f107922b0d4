"""Prices a user can see and refresh: ``gpuwise prices`` lists every dated price the decision can
use with its age and source (:mod:`.table`); ``gpuwise prices import`` turns a public price
catalog (gpuhunt's or SkyPilot's CSV, or gpuwise's own minimal CSV) into a knowledge overlay that
``--knowledge DIR`` then uses (:mod:`.catalog_csv`, :mod:`.overlay`).
"""

from __future__ import annotations

import importlib
from typing import Any

_HOMES = {"ImportReport": "catalog_csv", "read_catalog": "catalog_csv", "write_overlay": "overlay",
          "PriceRow": "table", "price_rows": "table"}
__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    """The names above, imported on first use: every decision imports this package for its
    sub-modules (``prices.markets``, ``prices.used``), and the CSV reader and the overlay writer
    (with the report writer it uses) were a share of each run's start-up."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value
