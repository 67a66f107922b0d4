"""The plan report's three bar charts (cash flow, the fleet's capacity and the work, the fleet's use, by month) as
SVG geometry and preformatted labels that ``reports/templates/plan.html`` draws, each drawn wide and narrow for a phone.
Moved out of :mod:`.plan_view` (it held 806 lines), whose view model carries them under ``charts``.
"""

from __future__ import annotations

from typing import Any

from .charts import NARROW, NARROW_PX, WIDE_PX, _Axis, _r, nice_ticks, thin
from .fmt import Fmt

SEGMENTS = ("capex", "rent", "opex")
"""The stacked parts of a month's cash-flow bar; resale is drawn below the axis."""
COLORS = {"capex": "#1f4e79", "rent": "#b34700", "opex": "#2e7d32", "resale": "#6a3d9a", "own": "#1f4e79",
          "rented": "#b34700", "used": "#2e7d32"}
"""Chart colours (the report stylesheet's blue, orange, green and purple: 3:1 against white)."""
LINE = "#1a1a1a"


# ------------------------------------------------------------------------------------- charts
def charts(r: Any, f: Fmt, shown: list[list[float]], whole: bool) -> dict[str, Any]:
    """The three bar charts, each drawn wide and, as ``narrow``, for a phone. ``shown`` and ``whole`` are the
    cash-flow table's figures (``money_view.cash_flow``), so a bar's tip is the figure the table prints."""
    _ = f._
    money = lambda v: f.local(v, compact=True)  # noqa: E731

    def bars(*a: Any, **kw: Any) -> dict[str, Any] | None:
        wide = _bars(*a, **kw)
        if wide is not None:
            wide["narrow"] = _bars(*a, **kw, width=NARROW, height=240, left=56, right=10, px=NARROW_PX)
        return wide

    cash = bars([x.month for x in r.months], {k: [v[j] for v in shown] for j, k in enumerate(SEGMENTS)},
                below=[v[4] for v in shown], fmt_y=money, tip=lambda v: f.local(v, whole=whole))
    labels = {"capex": _("capex"), "rent": _("rent"), "opex": _("hosting + power"), "resale": _("resale"),
              "own": _("on the fleet"), "rented": _("rented"), "capacity": _("fleet's schedulable hours"),
              "used": _("fleet use")}
    if cash:
        cash["title"] = _("Cash flow by month")
        cash["id"] = "chart-cash"
    own = [sum(p.gpu_hours for p in x.placements if p.acquisition != "rent") for x in r.months]
    rented = [sum(p.gpu_hours for p in x.placements if p.acquisition == "rent") for x in r.months]
    cap = [sum(x.fleet.values()) * 730.0 for x in r.months]
    work = bars([x.month for x in r.months], {"own": own, "rented": rented}, line=cap,
                fmt_y=lambda v: f.num(v, 0))
    if work:
        work["title"] = _("Fleet capacity and the work, GPU-hours by month")
        work["id"] = "chart-work"
    util = bars([x.month for x in r.months], {"used": [min(1.0, x.utilisation) * 100 for x in r.months]},
                fmt_y=lambda v: f"{v:g}%", top=100.0, tip=lambda v: f.pct(v / 100))
    if util:
        util["title"] = _("Fleet use by month (owned and bought GPUs)")
        util["id"] = "chart-util"
    return {"cash": cash, "work": work, "util": util, "labels": labels}


def _bars(xs: list[int], stacks: dict[str, list[float]], *, below: list[float] | None = None,
          line: list[float] | None = None, fmt_y: Any = str, width: int = 760, height: int = 300,
          top: float | None = None, left: int = 78, right: int = 20, px: float = WIDE_PX,
          tip: Any = None) -> dict[str, Any] | None:
    """Stacked bars per month (``stacks`` bottom up), an optional negative bar below the axis and
    an optional line (a capacity) across the months; SVG coordinates and tick labels (``px``: the
    text's size, for how many month labels fit). A segment's label (its tooltip) is ``tip``'s: the
    figure as the report's tables print it, where the axis's ``fmt_y`` shortens it ($4.3654k)."""
    if not xs:
        return None
    tip = tip or fmt_y
    totals = [sum(s[i] for s in stacks.values()) for i in range(len(xs))]
    hi = max(totals + (line or []) + [top or 0.0, 1e-9])
    lo = min([0.0] + (below or []))
    yt = nice_ticks(lo, hi, 5)
    x0, x1, y0, y1 = left, width - right, 16, height - 40
    ay = _Axis(yt[0], yt[-1], y1, y0)
    slot = (x1 - x0) / len(xs)
    bw = max(2.0, slot * 0.7)
    out_bars = []
    for i, x in enumerate(xs):
        left = x0 + i * slot + (slot - bw) / 2
        segs, base = [], 0.0
        for kind, values in stacks.items():
            v = values[i]
            if v > 0:
                segs.append({"kind": kind, "color": COLORS.get(kind, LINE), "x": _r(left), "y": ay(base + v),
                             "w": _r(bw), "h": _r(ay(base) - ay(base + v)), "label": tip(v)})
                base += v
        if below and below[i] < 0:
            segs.append({"kind": "resale", "color": COLORS["resale"], "x": _r(left), "y": ay(0), "w": _r(bw),
                         "h": _r(ay(below[i]) - ay(0)),
                         "label": tip(below[i])})
        out_bars.append({"x": x, "cx": _r(left + bw / 2), "segs": segs, "label": str(x)})
    step = max(1, len(xs) // 12)
    pts = ""
    if line:
        pts = " ".join(f"{_r(x0 + i * slot + slot / 2):g},{ay(v):g}" for i, v in enumerate(line))
    ticks = thin([{"x": b["cx"], "label": b["label"], "ly": _r(y1 + 16)} for i, b in enumerate(out_bars)
                  if i % step == 0], px - 1, width)
    return {"width": width, "height": height, "x0": x0, "x1": x1, "y0": y0, "y1": y1, "zero": ay(0),
            "narrow": None, "bars": out_bars, "xticks": [t for t in ticks if t["show"]],
            "yticks": [{"y": ay(t), "label": fmt_y(t), "lx": _r(x0 - 6), "ly": _r(ay(t) + 4)} for t in yt],
            "title_x": _r((x0 + x1) / 2), "title_y": height - 6, "line": pts, "line_color": LINE,
            "legend": [{"kind": k, "color": COLORS.get(k, LINE)} for k in
                       [*stacks, *(["resale"] if below and any(v < 0 for v in below) else [])]]}
