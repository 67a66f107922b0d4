"""The cost chart's view model: cumulative cost of renting and of buying over months of use.
"""

from __future__ import annotations

import math
from typing import Any

from ...chart_series import CostCurve
from ..fmt import (
    DASH,
    _scaled,
    table,
)
from .base import BaseView


class CostChartView(BaseView):
    """The rent-against-buy curve of one configuration."""

    def cost_chart(self, curve: CostCurve | None, title: str = "", chart_id: str = "chart-cost",
                   break_even_month: int | None = None) -> dict[str, Any] | None:
        """The cumulative cost of renting and of buying over the configuration's own period (from its
        ledgers): buying is drawn as cash out, its resale as a labelled step at the end; the
        break-even is where the lines cross, or the text says there is none in the period. Where they
        do not cross and the configuration has a break-even month (``break_even_month``: the Rent-or-buy
        table's, counting the resale at that month), the text names it rather than denying one."""
        from .. import charts as C  # the geometry, imported by an HTML or full report only

        f = self.f
        if curve is None:
            return None
        xs = curve.x
        hours = curve.unit == "hours"
        local: dict[str, Any] = {"months": xs, "break_even_month": curve.break_even}
        if curve.rent is not None:
            local["rent"] = [_scaled(v, f.cur.rate) for v in curve.rent]
        if curve.buy is not None:
            local["buy"] = [_scaled(v, f.cur.rate) for v in curve.buy]
        resale = curve.resale
        if local.get("buy") and resale is not None and resale < 0 and curve.buy_cash_out is not None:
            end = local["buy"][-1]
            local["resale"] = [end, _scaled(curve.buy_cash_out + resale, f.cur.rate)]
            local["resale_x"] = [xs[-1], xs[-1]]
        def fmt_x(x: float) -> str:  # whole months as they are, a crossing between them to a tenth
            return f"{x:g}" if float(x).is_integer() else f.num(x, 1 if hours and x >= 10 else (2 if hours else 1))
        geo = C.cost_curve(local, fmt_y=lambda v: f.local(v, compact=True), fmt_x=fmt_x,
                           keys=("rent", "buy", "resale"))
        if geo is None:
            return None
        small = C.cost_curve(local, fmt_y=lambda v: f.local(v, compact=True), fmt_x=fmt_x,
                             keys=("rent", "buy", "resale"), **C.narrow("cost"))
        # short names beside the lines' ends, the full ones with their amounts in the legend
        short = {"rent": self._("Rent"), "buy": self._("Buy"), "resale": self._("Resold")}
        names = {"rent": self._("Rent"), "buy": self._("Buy, cash out"), "resale": self._("Buy, after resale")}
        for s in [*geo["series"], *(small["series"] if small else [])]:
            s["name"] = short.get(s["key"], s["key"])
            s["end_label"] = f"{names.get(s['key'], s['key'])} {f.local(s['end_value'])}"
        span = fmt_x(float(curve.span or (xs[-1] if xs else 0)))
        spell = f.months(float(curve.span or (xs[-1] if xs else 0)))  # '1 month', not '1 months'
        period = {"job": self._("the job's %(n)s hours", n=span) if hours else "",
                  "commitment": self._("the committed %(n)s", n=spell),
                  "project": self._("the project's %(n)s", n=spell)}.get(curve.period, span)
        parts = []
        if "rent" in local:
            parts.append(self._("Over %(period)s, renting costs %(rent)s.", period=period,
                                rent=f.money(curve.rent_total)))
        owned = f.months(float(curve.resale_after_months or 0))
        if "buy" in local and hours:  # the purchase outlives the job: its costs run on after the chart ends
            parts.append(self._("Buying pays %(upfront)s up front and %(cash)s in all over the %(months)s "
                                "it is owned; resold then, it comes to %(net)s net.",
                                upfront=f.money(curve.buy_upfront), cash=f.money(curve.buy_cash_out),
                                months=owned, net=f.money(curve.buy_net)))
        elif "buy" in local:
            parts.append(self._("Buying pays %(cash)s in cash; resold after %(months)s it comes to "
                                "%(net)s net.", cash=f.money(curve.buy_cash_out), months=owned,
                                net=f.money(curve.buy_net)))
        be = geo["break_even"]
        if be:
            # a span of use (16.4 months), not a month's number: "month 16.4" reads as no month at all
            one = 1 if be["month_label"] == "1" else 2
            at = (f.ngettext("%(x)s hour", "%(x)s hours", one, x=be["month_label"]) if hours
                  else f.ngettext("%(x)s month", "%(x)s months", one, x=be["month_label"]))
            parts.append(self._("The lines cross after %(at)s of use: renting for longer than that costs more "
                                "than buying's cash out.", at=at))
            be["label"] = self._("renting passes buying's cash out after %(at)s", at=at)
            if small and small["break_even"]:
                small["break_even"]["label"] = be["label"]
        elif "rent" in local and "buy" in local and break_even_month is not None:
            # the table's break-even nets the resale at each month; the chart's lines do not: both are said
            parts.append(self._("The lines do not cross within %(period)s: renting stays below buying's cash "
                                "out. The break-even, %(month)s, counts the resale: rented for that long or "
                                "longer, the GPUs cost more than owning them and reselling.",
                                period=period, month=f.month(break_even_month)))
        elif "rent" in local and "buy" in local:
            parts.append(self._("The lines do not cross within %(period)s: no break-even in the period.",
                                period=period))
        step = max(1, math.ceil(len(xs) / 12))
        idx = sorted({*range(0, len(xs), step), len(xs) - 1})
        rows = []
        for i in idx:
            row = [fmt_x(xs[i])]
            for key in ("rent", "buy"):
                vals = local.get(key) or []
                row.append(f.local(vals[i]) if i < len(vals) and vals[i] is not None else DASH)
            rows.append(row)
        x_title = self._("Hours of the job") if hours else self._("Months")
        head = self._("Hour") if hours else self._("Month")
        return {"geo": geo, "narrow": small, "id": chart_id,
                "title": title or self._("Cumulative cost of renting and of buying"),
                "desc": self.f.join(parts), "alt": self.f.join(parts),
                "x_title": x_title, "y_title": self._("Cumulative cost"),
                "table": table([head, self._("Rent"), self._("Buy, cash out")], rows, right=(1, 2))}
