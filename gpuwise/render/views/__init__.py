"""View models: a result in one language and currency becomes plain dicts and lists of preformatted
strings ("80.0 GB", "$12,345", "3.2 days") that the templates only place.

One view per result kind -- :class:`RecommendView`, :class:`AuditView`, :class:`EstimateView`, and
:class:`batch.BatchSummary` for a batch of audits -- built on the shared pieces of
:mod:`.base`, the steps of :mod:`.steps` and the charts of :mod:`.charts` and :mod:`.cost_chart`.

Two levels of detail: ``brief`` (the default) is the answer, the four steps in one line each, the
alternatives, the blockers and warnings (each said once), and the assumptions; ``full`` adds every
formula, every candidate, every finding and the rule trace.
"""

from __future__ import annotations

from typing import Any

from ..fmt import Fmt
from .base import BRIEF_ALTERNATIVES, LEADING, BaseView
from .recommend import RecommendView

__all__ = ["BRIEF_ALTERNATIVES", "LEADING", "VIEWS", "AuditView", "BaseView", "EstimateView", "RecommendView",
           "build"]

_LAZY = {"AuditView": ".audit", "EstimateView": ".estimate"}
"""Views imported when first asked for: a recommendation's process builds neither (their modules
and the batch summary's, with the chart geometry, were 2.6 M instructions of it)."""


_NAMES = {"recommend": "RecommendView", "audit": "AuditView", "estimate": "EstimateView"}


def __getattr__(name: str) -> Any:
    if name == "VIEWS":  # the view of each result kind
        return {kind: RecommendView if kind == "recommend" else __getattr__(view) for kind, view in _NAMES.items()}
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build(result: Any, kind: str, f: Fmt, detail: str = "brief", fmt: str = "text") -> dict[str, Any]:
    """The view model of ``result`` (a ``kind`` result) in ``f``'s language and currency."""
    view = (RecommendView if kind == "recommend" else __getattr__(_NAMES[kind]))(result, kind, f, detail, fmt)
    return getattr(view, kind)()
