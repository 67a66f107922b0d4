"""The cost chart's view model: cumulative cost of renting and of buying over months of use.
"""

from __future__ import annotations

import math
from typing import Any

from .. import charts as C
from ..fmt import (
    DASH,
    _scaled,
    table,
)
from .base import BaseView


class CostChartView(BaseView):
    """The rent-against-buy curve of one configuration."""

    def cost_chart(self, curve: Any, title: str = "", chart_id: str = "chart-cost") -> dict[str, Any] | None:
        f = self.f
        if not isinstance(curve, dict):
            return None
        local = {"months": curve.get("months"), "break_even_month": curve.get("break_even_month")}
        for key in ("rent", "buy"):
            values = curve.get(key)
            if isinstance(values, (list, tuple)):
                local[key] = [_scaled(v, f.cur.rate) for v in values]
        geo = C.cost_curve(local, fmt_y=lambda v: f.local(v, compact=True), fmt_x=lambda m: f"{m:g}")
        if geo is None:
            return None
        names = {"rent": self._("Rent"), "buy": self._("Buy")}
        for s in geo["series"]:
            s["name"] = names.get(s["key"], s["key"])
            s["end_label"] = f"{s['name']} {f.local(s['end_value'])}"
        be = geo["break_even"]
        last = {s["key"]: s for s in geo["series"]}
        numeric = [m for m in curve.get("months") or [] if isinstance(m, (int, float))]
        months = f"{max(numeric):g}" if numeric else "?"
        parts = []
        if "rent" in last and "buy" in last:
            parts.append(self._("Over %(months)s months, renting costs %(rent)s and buying %(buy)s.",
                                months=months, rent=f.local(last["rent"]["end_value"]),
                                buy=f.local(last["buy"]["end_value"])))
        both = "rent" in last and "buy" in last
        if be:
            parts.append(self._("Buying becomes cheaper than renting from month %(m)s.", m=be["month_label"]))
            be["label"] = self._("break-even: month %(m)s", m=be["month_label"])
        elif both:
            parts.append(self._("No break-even within the months shown."))
        # the curves price a month of use around the clock, which a job of hours does not need
        parts.append(self._("Both curves count the GPUs in use around the clock; a shorter job rents for "
                            "its hours only.") if both else
                     self._("The curve counts the GPUs in use around the clock."))
        # a small table: about a dozen rows of the curve
        mlist = curve.get("months") or []
        step = max(1, math.ceil(len(mlist) / 12))
        idx = sorted({*range(0, len(mlist), step), len(mlist) - 1} | (
            {mlist.index(curve["break_even_month"])} if curve.get("break_even_month") in mlist else set()))
        rows = []
        for i in idx:
            row = [str(mlist[i])]
            for key in ("rent", "buy"):
                vals = local.get(key) or []
                row.append(f.local(vals[i]) if i < len(vals) and vals[i] is not None else DASH)
            rows.append(row)
        return {"geo": geo, "id": chart_id, "title": title or self._("Cumulative cost of renting and of buying"),
                "desc": self.f.join(parts), "alt": self.f.join(parts),
                "x_title": self._("Months of use, around the clock"), "y_title": self._("Cumulative cost"),
                "table": table([self._("Month"), self._("Rent"), self._("Buy")], rows, right=(1, 2))}
