"""View models: a result in one language and currency becomes plain dicts and lists of preformatted
strings ("80.0 GB", "$12,345", "3.2 days") that the templates only place.

One view per result kind -- :class:`RecommendView`, :class:`AuditView`, :class:`EstimateView`, and
:func:`batch.audit_summary_view` for a batch of audits -- built on the shared pieces of
:mod:`.base`, the steps of :mod:`.steps` and the charts of :mod:`.charts` and :mod:`.cost_chart`.

Two levels of detail: ``brief`` (the default) is the answer, the four steps in one line each, the
alternatives, the blockers and warnings (each said once), and the assumptions; ``full`` adds every
formula, every candidate, every finding and the rule trace.
"""

from __future__ import annotations

from typing import Any

from ..fmt import Fmt
from .audit import AuditView
from .base import BRIEF_ALTERNATIVES, LEADING, BaseView
from .estimate import EstimateView
from .recommend import RecommendView

VIEWS: dict[str, type[BaseView]] = {"recommend": RecommendView, "audit": AuditView, "estimate": EstimateView}
"""The view of each result kind."""

__all__ = ["BRIEF_ALTERNATIVES", "LEADING", "VIEWS", "AuditView", "BaseView", "EstimateView", "RecommendView",
           "build"]


def build(result: Any, kind: str, f: Fmt, detail: str = "brief", fmt: str = "text") -> dict[str, Any]:
    """The view model of ``result`` (a ``kind`` result) in ``f``'s language and currency."""
    view = VIEWS[kind](result, kind, f, detail, fmt)
    return getattr(view, kind)()
