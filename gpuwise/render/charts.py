"""Chart geometry for the HTML report: series in, SVG coordinates out.

Each function takes the series a result carries in ``result.charts`` and returns a plain
dict of numbers (rounded to 0.1 px) and labels that a template only has to place; it
returns ``None`` when there is nothing to draw (missing, empty or malformed series), so a
report never fails because a chart could not be drawn.  Labels on the axes are made by the
``fmt_*`` callables the caller passes (the report's own number formatting and language);
nothing here knows about languages, currencies or HTML.

Coordinates are SVG user units with the origin at the top left.

Every chart has two layouts: the wide one (760-780 units, for a screen at least as wide, where
one unit is at least one CSS pixel) and the narrow one (``NARROW`` units, for a phone: a 390 px
screen shows it at about its own size, so its 12-13 px text stays 12-13 px).  The narrow layout
keeps the axes, the marks and the short labels; a label that does not fit is left to the legend
and the data table under the chart.  Text widths are estimated (:func:`text_width`), wide
characters (Chinese) counted at a full em.
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..results import MEMORY_PARTS

MEMORY_KINDS = MEMORY_PARTS
"""The order of the memory parts in a stacked bar (unknown kinds follow, in first-seen order)."""

Fmt = Callable[[float], str]

NARROW = 340
"""The width of a chart's narrow layout: a 390 px phone's page less its margins."""

WIDE_PX, NARROW_PX = 12, 13
"""The chart text's size in each layout (the stylesheet's ``svg text`` and ``svg.narrow text``);
tick labels are one pixel smaller."""


def text_width(text: str, px: float, bold: bool = False) -> float:
    """About how wide ``text`` is at ``px``: a full em for a wide (CJK) character, 0.6 em (0.64
    bold) for the others -- a little more than system-ui's digits and lower case, so a label
    estimated to fit does fit."""
    narrow = 0.64 if bold else 0.6
    return sum(px * (1.0 if unicodedata.east_asian_width(ch) in "WF" else narrow) for ch in text)


_CLOSING = "）》」』】〕、。，：；！？)]}"
_OPENING = "（《「『【〔([{"


def wrap(text: str, px: float, width: float, bold: bool = False) -> list[str]:
    """``text`` in lines no wider than ``width`` (breaking at spaces, or between wide characters);
    a single word wider than ``width`` keeps a line of its own."""
    wide = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef"  # CJK: a line may break between any two
    tokens: list[str] = []
    for tok in re.findall(f"（[^（）]{{1,10}}）|[{wide}]|[^\\s{wide}]+\\s*|\\s+", text):  # a short （aside） whole
        # no line starts with closing punctuation, none ends with an opening one: "（推荐）" stays whole
        if tokens and (tok[0] in _CLOSING or tokens[-1][-1] in _OPENING):
            tokens[-1] += tok
        else:
            tokens.append(tok)
    lines, cur = [], ""
    for tok in tokens:
        if cur and text_width((cur + tok).rstrip(), px, bold) > width:
            lines.append(cur.rstrip())
            cur = tok.lstrip()
        else:
            cur += tok
    if cur.strip():
        lines.append(cur.rstrip())
    return lines or [""]


def thin(ticks: list[dict], px: float, width: float, gap: float = 8.0) -> list[dict]:
    """Tick labels along a horizontal axis, centred on their tick, without overlaps and inside
    the chart's ``width``: a label at an edge is aligned to it (``anchor``), one that would touch
    the label before it is left out (``show``; its grid line stays)."""
    out, right = [], -math.inf
    for t in ticks:
        w = text_width(t["label"], px)
        anchor, lo, hi = "middle", t["x"] - w / 2, t["x"] + w / 2
        if hi > width - 1:
            anchor, lo, hi = "end", t["x"] - w, t["x"]
        elif lo < 1:
            anchor, lo, hi = "start", t["x"], t["x"] + w
        show = lo >= right + gap
        out.append({**t, "show": show, "anchor": anchor})
        if show:
            right = hi
    return out


def _r(v: float) -> float:
    return round(float(v), 1)


def _number(v: Any) -> float | None:
    """A finite float, or None for anything else (None, strings, NaN, booleans)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    f = float(v)
    return f if math.isfinite(f) else None


# ------------------------------------------------------------------------------------ ticks
def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values (1, 2, 2.5 or 5 x 10^k steps) covering ``[lo, hi]``, about ``count`` of them."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return []
    if hi < lo:
        lo, hi = hi, lo
    if hi == lo:
        hi = lo + (abs(lo) or 1.0)
    raw = (hi - lo) / max(1, count)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step + 1e-9) * step
    ticks = []
    v = start
    while v <= hi + step * 1e-9 and len(ticks) < 50:
        ticks.append(round(v, 10))
        v += step
    if ticks and ticks[-1] < hi - step * 1e-9:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def log_ticks(lo: float, hi: float) -> list[float]:
    """Ticks for a log axis over ``[lo, hi]`` (both > 0): 1-2-5 per decade, or decades alone when wide."""
    if not (lo > 0 and hi > 0 and math.isfinite(lo) and math.isfinite(hi)):
        return []
    if hi < lo:
        lo, hi = hi, lo
    e0, e1 = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    mults = (1, 2, 5) if e1 - e0 <= 3 else (1,)
    ticks = [m * 10.0**e for e in range(e0, e1 + 1) for m in mults]
    inside = [t for t in ticks if lo * (1 - 1e-9) <= t <= hi * (1 + 1e-9)]
    return inside if len(inside) >= 2 else [10.0**e0, 10.0**e1]


class _Axis:
    """Maps data values to pixels, linear or logarithmic."""

    def __init__(self, lo: float, hi: float, p0: float, p1: float, log: bool = False):
        self.log = log
        self.p0, self.p1 = p0, p1
        if log:
            lo, hi = math.log10(lo), math.log10(hi)
        if hi == lo:
            hi = lo + 1.0
        self.lo, self.hi = lo, hi

    def __call__(self, v: float) -> float:
        if self.log:
            v = math.log10(v)
        return _r(self.p0 + (v - self.lo) / (self.hi - self.lo) * (self.p1 - self.p0))


def _floor125(v: float) -> float:
    e = math.floor(math.log10(v))
    return next(m * 10.0**e for m in (5, 2, 1) if m * 10.0**e <= v * (1 + 1e-9))


def _ceil125(v: float) -> float:
    e = math.floor(math.log10(v))
    return next(m * 10.0**e for m in (1, 2, 5, 10) if m * 10.0**e >= v * (1 - 1e-9))


def _range(values: Sequence[float], log: bool, pad: float = 0.0) -> tuple[float, float, list[float]]:
    """Axis bounds and ticks that include every value (a linear axis starts at 0; a log axis
    runs between the neighbouring 1-2-5 values). ``pad`` keeps the extreme values off the frame:
    a fraction of the span on a linear axis, a factor on a log one."""
    lo, hi = min(values), max(values)
    if log:
        lo_t, hi_t = _floor125(lo / (1 + pad)), _ceil125(hi * (1 + pad))
        return lo_t, hi_t, log_ticks(lo_t, hi_t)
    ticks = nice_ticks(min(0.0, lo), hi + pad * (hi - min(0.0, lo)))
    return ticks[0], ticks[-1], ticks


def _star(x: float, y: float, r: float = 10.0) -> str:
    """An SVG path of a five-pointed star centred on (x, y): the chosen candidate's marker."""
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = math.pi / 2 + i * math.pi / 5
        pts.append(f"{_r(x + rad * math.cos(a)):g} {_r(y - rad * math.sin(a)):g}")
    return "M" + "L".join(pts) + "Z"


def _cross(x: float, y: float, r: float = 5.0) -> str:
    """An SVG path of an x-shaped cross: a rejected candidate's marker."""
    return (f"M{_r(x - r):g} {_r(y - r):g}L{_r(x + r):g} {_r(y + r):g}"
            f"M{_r(x - r):g} {_r(y + r):g}L{_r(x + r):g} {_r(y - r):g}")


def _axes(ax: _Axis, ay: _Axis, xt: Sequence[float], yt: Sequence[float], fmt_x: Fmt, fmt_y: Fmt,
          x0: float, y0: float, y1: float, height: float, x1: float, px: float = WIDE_PX,
          width: float = 760) -> dict:
    """Tick marks, tick labels and axis-title positions shared by the line and scatter charts."""
    mid = _r((y0 + y1) / 2)
    return {
        "xticks": thin([{"x": ax(t), "label": fmt_x(t), "ly": _r(y1 + 16)} for t in xt], px - 1, width),
        "yticks": [{"y": ay(t), "label": fmt_y(t), "lx": _r(x0 - 6), "ly": _r(ay(t) + 4)} for t in yt],
        "x_title": {"x": _r((x0 + x1) / 2), "y": _r(height - 6)},
        "y_title": {"x": 14, "y": mid, "transform": f"rotate(-90 14 {mid:g})"},
    }


def _wide(values: Sequence[float], ratio: float = 20.0) -> bool:
    """A log axis is worth it when every value is positive and they span more than ``ratio``."""
    return bool(values) and min(values) > 0 and max(values) / min(values) > ratio


# ----------------------------------------------------------------------------- memory bars
def memory_bars(series: Any, *, fmt: Fmt = str, width: int = 780, label_h: int = 18, bar_h: int = 20,
                gap: int = 14, left: int = 12, right: int = 215, max_rows: int = 16, narrow: bool = False,
                px: float = WIDE_PX) -> dict | None:
    """Stacked horizontal bars of each candidate's memory per GPU, by kind, with its capacity.

    ``series``: ``[{"label", "capacity", "usable", "parts": {kind: bytes}}]``.  Rows whose parts
    are all missing are skipped; at most ``max_rows`` rows are drawn (``omitted`` counts the rest).
    Each row has its label above the bar, the segments (``kind``, ``x``, ``w``, ``value``), the
    ``capacity_x`` and ``usable_x`` marker positions and ``over`` when the total exceeds the usable
    memory (or the capacity when no usable figure is given).

    ``narrow``: the phone layout (pass ``width=NARROW``, ``right`` small): each row's label wraps
    above its bar and its total sits below it instead of in a right-hand column.
    """
    if not isinstance(series, (list, tuple)):
        return None
    rows_in = []
    for item in series:
        if not isinstance(item, dict):
            continue
        parts_raw = item.get("parts") or {}
        parts = {str(k): v for k, v in ((k, _number(v)) for k, v in parts_raw.items())
                 if v is not None and v > 0} if isinstance(parts_raw, dict) else {}
        if not parts:
            continue
        rows_in.append((str(item.get("label", "")), _number(item.get("capacity")),
                        _number(item.get("usable")), parts))
    if not rows_in:
        return None
    omitted = max(0, len(rows_in) - max_rows)
    rows_in = rows_in[:max_rows]
    kinds = [k for k in MEMORY_KINDS if any(k in r[3] for r in rows_in)]
    kinds += [k for r in rows_in for k in r[3] if k not in kinds and k not in MEMORY_KINDS]
    kinds = list(dict.fromkeys(kinds))
    top_value = max(max(sum(r[3].values()), r[1] or 0, r[2] or 0) for r in rows_in)
    ticks = nice_ticks(0, top_value, 4 if narrow else 5)
    x0, x1 = left, width - right
    axis = _Axis(0, ticks[-1], x0, x1)
    line_h = px + 4
    below = line_h + 2 if narrow else 0  # the total's line under the bar
    top = 8
    rows = []
    y = top
    for label, capacity, usable, parts in rows_in:
        lines = wrap(label, px, width - left - 4, bold=True) if narrow else [label]
        label_lines = [{"text": t, "x": x0, "y": _r(y + label_h - 6 + k * line_h)} for k, t in enumerate(lines)]
        y_label = y + label_h - 6
        y_bar = y + label_h + (len(lines) - 1) * line_h
        y = y_bar + bar_h + below + gap
        segments, acc = [], 0.0
        for kind in kinds:
            v = parts.get(kind)
            if not v:
                continue
            xa, xb = axis(acc), axis(acc + v)
            acc += v
            segments.append({"kind": kind, "pattern": kind if kind in MEMORY_KINDS else "other",
                             "x": xa, "w": _r(max(xb - xa, 0.5)), "value": v,
                             "label": fmt(v), "show_label": xb - xa >= (66 if narrow else 58),
                             "tx": _r((xa + xb) / 2)})
        limit = usable if usable is not None else capacity
        markers = [axis(v) for v in (capacity, usable) if v is not None]
        for seg in segments:  # a marker line through a value label would make it unreadable
            if seg["show_label"] and any(abs(m - seg["tx"]) < 30 for m in markers):
                seg["show_label"] = False
        rows.append({
            "label": label, "label_lines": label_lines, "y_label": _r(y_label), "y": _r(y_bar), "h": bar_h,
            "side_x": x0 if narrow else x1 + 10,
            "side_y": _r(y_bar + bar_h + line_h - 1) if narrow else _r(y_bar + bar_h / 2 + 4),
            "ty": _r(y_bar + bar_h / 2 + 4), "segments": segments, "total": acc, "total_label": fmt(acc),
            "end_x": axis(acc),
            "capacity": capacity, "capacity_label": fmt(capacity) if capacity is not None else "",
            "capacity_x": axis(capacity) if capacity is not None else None,
            "usable": usable, "usable_label": fmt(usable) if usable is not None else "",
            "usable_x": axis(usable) if usable is not None else None,
            "marker_y0": _r(y_bar - 3), "marker_y1": _r(y_bar + bar_h + 3),
            "over": bool(limit is not None and acc > limit),
        })
    plot_bottom = y - gap + 6
    return {
        "width": width, "height": int(plot_bottom + 24),
        "x0": x0, "x1": x1, "y0": top, "y1": _r(plot_bottom), "text_x": x1 + 10,
        "ticks": thin([{"x": axis(t), "label": fmt(t)} for t in ticks], px - 1, width),
        "narrow": narrow,
        "tick_label_y": _r(plot_bottom + 16),
        "kinds": kinds, "rows": rows, "omitted": omitted,
        "legend": [{"kind": k, "pattern": k if k in MEMORY_KINDS else "other"} for k in kinds],
    }


# ------------------------------------------------------------------------------ cost curve
def cost_curve(curve: Any, *, fmt_y: Fmt = str, fmt_x: Fmt = str, width: int = 760, height: int = 320,
               left: int = 78, right: int = 70, top: int = 16, bottom: int = 42,
               keys: Iterable[str] = ("rent", "buy"), narrow: bool = False, px: float = WIDE_PX) -> dict | None:
    """Cumulative cost over months, one polyline per series, with the break-even point marked.

    ``curve``: ``{"months": [0..N], "rent": [...], "buy": [...], "break_even_month": int | None}``.
    Points whose month or value is not a finite number are dropped; a series with fewer than two
    points is left out; ``None`` when no series is left.  ``break_even`` is the marker (on the
    ``buy`` line at that month) or ``None`` when the month is missing or outside the curve.
    ``narrow``: the phone layout, with fewer ticks and the break-even's label left to the legend.
    """
    if not isinstance(curve, dict) or not isinstance(curve.get("months"), (list, tuple)):
        return None
    data: dict[str, list[tuple[float, float]]] = {}
    for key in keys:
        values = curve.get(key)
        if not isinstance(values, (list, tuple)):
            continue
        # a series may carry its own x values (a step drawn at one x), else the curve's
        xs = curve.get(f"{key}_x") if isinstance(curve.get(f"{key}_x"), (list, tuple)) else curve["months"]
        months = [_number(m) for m in xs]
        pts = [(m, v) for m, v in zip(months, (_number(v) for v in values), strict=False)
               if m is not None and v is not None]
        if len(pts) >= 2:
            data[key] = pts
    if not data:
        return None
    all_x = [p[0] for pts in data.values() for p in pts]
    all_y = [p[1] for pts in data.values() for p in pts]
    xt = nice_ticks(min(all_x), max(all_x), 4 if narrow else 6)
    xt = [t for t in xt if min(all_x) <= t <= max(all_x)] or [min(all_x), max(all_x)]
    y_lo, y_hi, yt = _range(all_y, log=False)
    x0, x1, y0, y1 = left, width - right, top, height - bottom
    ax = _Axis(min(all_x), max(all_x), x0, x1)
    ay = _Axis(y_lo, y_hi, y1, y0)
    series = []
    for key, pts in data.items():
        coords = [(ax(m), ay(v)) for m, v in pts]
        step = max(1, math.ceil(len(coords) / 25))
        series.append({
            "key": key,
            "points": " ".join(f"{x:g},{y:g}" for x, y in coords),
            "markers": [{"x": x, "y": y, "rx": _r(x - 3.5), "ry": _r(y - 3.5)} for x, y in coords[::step]],
            "end_x": coords[-1][0], "end_y": coords[-1][1], "end_value": pts[-1][1],
            "lx": _r(coords[-1][0] + 8),
            "end_label": fmt_y(pts[-1][1]),
        })
    # keep the end labels of the series apart
    ends = sorted(series, key=lambda s: s["end_y"])
    for a, b in itertools.pairwise(ends):
        if b["end_y"] - a["end_y"] < px + 2:
            b["end_y"] = _r(a["end_y"] + px + 2)
    for s in series:
        s["ly"] = _r(s["end_y"] + 4)
    be = None
    month = _number(curve.get("break_even_month"))
    if month is not None and min(all_x) <= month <= max(all_x):
        ref = data.get("buy") or next(iter(data.values()))
        value = next((v for m, v in ref if m == month), None)
        if value is None:  # between points: interpolate on the reference line
            before = [p for p in ref if p[0] <= month]
            after = [p for p in ref if p[0] >= month]
            if before and after:
                (ma, va), (mb, vb) = before[-1], after[0]
                value = va if mb == ma else va + (vb - va) * (month - ma) / (mb - ma)
        if value is not None:
            x = ax(month)
            be = {"month": month, "value": value, "x": x, "y": ay(value), "y0": y0, "y1": y1,
                  "label_x": _r(x + 10 if x < (x0 + x1) / 2 else x - 10), "label_y": _r(y0 + 14),
                  "anchor": "start" if x < (x0 + x1) / 2 else "end", "month_label": fmt_x(month),
                  "value_label": fmt_y(value), "show_label": not narrow}
    return {
        "width": width, "height": height, "x0": x0, "x1": x1, "y0": y0, "y1": y1, "narrow": narrow,
        **_axes(ax, ay, xt, yt, fmt_x, fmt_y, x0, y0, y1, height, x1, px, width),
        "series": series, "break_even": be,
    }


# ------------------------------------------------------------------------ time vs cost
def pareto(points: Sequence[dict]) -> list[dict]:
    """The points no other point beats on both ``xv`` (time) and ``yv`` (cost)."""
    return [p for p in points
            if not any(q is not p and q["xv"] <= p["xv"] and q["yv"] <= p["yv"]
                       and (q["xv"] < p["xv"] or q["yv"] < p["yv"]) for q in points)]


def _label_box(lx: float, ly: float, anchor: str, text: str, bold: bool,
               px: float = WIDE_PX) -> tuple[float, float, float, float]:
    """An estimate of a ``px`` label's box (x0, y0, x1, y1) (see :func:`text_width`)."""
    w = text_width(text, px, bold)
    x = lx if anchor == "start" else lx - w
    return x, ly - px + 1, x + w, ly + 3


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def time_cost(points: Any, *, fmt_x: Fmt = str, fmt_y: Fmt = str, width: int = 760, height: int = 360,
              left: int = 78, right: int = 40, top: int = 16, bottom: int = 46, label_all: int = 10,
              chosen_suffix: str = "", narrow: bool = False, px: float = WIDE_PX) -> dict | None:
    """A scatter of the candidates: wall-clock time (x) against cost (y), log axes where wide.

    ``points``: ``[{"label", "wall_days", "cost_usd", "feasible", "chosen"}]``.  A point without a
    positive time or cost cannot be placed and is listed in ``omitted``.  With more than
    ``label_all`` points only the chosen point and the feasible points on the time/cost
    frontier (``pareto``) are labelled; a label is placed right, left, above or below its
    point, wherever it overlaps no other label or marker, and left out where none is free
    (the chosen point's label always stays).  ``show_label`` tells which points have one.
    ``narrow``: the phone layout, where a name that finds no free place is left to the table (no
    numbers, and the chosen point's name too: its star and the legend say which it is).
    """
    if not isinstance(points, (list, tuple)):
        return None
    placed, omitted = [], []
    for p in points:
        if not isinstance(p, dict):
            continue
        x, y = _number(p.get("wall_days")), _number(p.get("cost_usd"))
        label = str(p.get("label", ""))
        if x is None or y is None or x <= 0 or y <= 0:
            omitted.append(label)
            continue
        placed.append({"label": label, "xv": x, "yv": y, "feasible": bool(p.get("feasible", True)),
                       "chosen": bool(p.get("chosen", False))})
    if not placed:
        return None
    xs, ys = [p["xv"] for p in placed], [p["yv"] for p in placed]
    xlog, ylog = _wide(xs), _wide(ys)
    x_lo, x_hi, xt = _range(xs, xlog, pad=0.15)  # no point on the frame: the axes are padded
    y_lo, y_hi, yt = _range(ys, ylog, pad=0.15)
    x0, x1, y0, y1 = left, width - right, top, height - bottom
    ax = _Axis(x_lo, x_hi, x0, x1, xlog)
    ay = _Axis(y_lo, y_hi, y1, y0, ylog)
    for p in placed:
        p["x"], p["y"] = ax(p["xv"]), ay(p["yv"])
        p["shape"] = "star" if p["chosen"] else ("circle" if p["feasible"] else "cross")
        p["d"] = _star(p["x"], p["y"]) if p["chosen"] else ("" if p["feasible"] else _cross(p["x"], p["y"]))
        p["text"] = p["label"] + (chosen_suffix if p["chosen"] else "")
        p["show_label"], p["lx"], p["ly"], p["anchor"], p["number"] = False, p["x"], p["y"], "start", None
    front = {id(p) for p in pareto([p for p in placed if p["feasible"]])}
    wanted = [p for p in placed if len(placed) <= label_all or p["chosen"] or id(p) in front]
    markers = {id(p): (p["x"] - 6, p["y"] - 6, p["x"] + 6, p["y"] + 6) for p in placed}
    taken: list[tuple[float, float, float, float]] = []  # the labels placed so far

    def free(text: str, bold: bool, spots: list[tuple[float, float, str]], me: int) -> tuple | None:
        for lx, ly, anchor in spots:
            box = _label_box(lx, ly, anchor, text, bold, px)
            inside = x0 <= box[0] and box[2] <= width - 2 and box[1] >= 0 and box[3] <= y1 + 2
            if inside and not any(_overlap(box, t) for t in taken) and not any(
                    _overlap(box, m) for k, m in markers.items() if k != me):
                return lx, ly, anchor, box
        return None

    numbered = 0
    for p in sorted(wanted, key=lambda q: (not q["chosen"], q["yv"], q["xv"])):
        gap = 14 if p["chosen"] else 9
        spots = [(p["x"] + dx * gap, p["y"] + dy, anchor) for ring in (1, 2.5) for dx, dy, anchor in (
            (ring, 4, "start"), (-ring, 4, "end"), (0.3, -gap * ring, "start"), (0.3, gap * ring + 10, "start"),
            (-0.3, -gap * ring, "end"), (-0.3, gap * ring + 10, "end"))]
        spot = free(p["text"], p["chosen"], spots, id(p))
        if spot is None and narrow:
            continue
        if spot is None and not p["chosen"]:  # no room for the name: a number, explained in the table
            numbered += 1
            spot = free(str(numbered), False, spots, id(p))
            if spot is None:
                numbered -= 1
                continue
            p["text"], p["number"] = str(numbered), numbered
        elif spot is None:
            lx, ly, anchor = spots[0] if p["x"] < (x0 + x1) / 2 else spots[1]
            spot = (lx, ly, anchor, _label_box(lx, ly, anchor, p["text"], True, px))
        lx, ly, anchor, box = spot
        p.update(show_label=True, lx=_r(lx), ly=_r(ly), anchor=anchor)
        taken.append(box)
    placed.sort(key=lambda q: q["chosen"])  # the chosen point is drawn last, on top
    return {
        "width": width, "height": height, "x0": x0, "x1": x1, "y0": y0, "y1": y1,
        "xlog": xlog, "ylog": ylog, "narrow": narrow,
        **_axes(ax, ay, xt, yt, fmt_x, fmt_y, x0, y0, y1, height, x1, px, width),
        "points": placed, "omitted": omitted, "labelled": sum(p["show_label"] for p in placed),
    }


# ---------------------------------------------------------------------------- serving curve
def serving_curve(points: Any, *, load: Any = None, limit: Any = None, fmt_x: Fmt = str, fmt_tps: Fmt = str,
                  fmt_ms: Fmt = str, width: int = 760, height: int = 440, left: int = 78, right: int = 40,
                  top: int = 16, bottom: int = 46, gap: int = 34, narrow: bool = False,
                  px: float = WIDE_PX) -> dict | None:
    """Throughput and latency against the requests served at once, two panels over one x axis.

    ``points``: ``[{"concurrency", "throughput_tokens_per_s", "tpot_s", "ttft_s"}]`` (the serving
    model's curve). The upper panel is the output tokens/s of all requests (linear), the lower
    the time per output token and the time to the first token in ms (log: the first token waits
    in a queue once the memory is full). The x axis is logarithmic when the requests span more than
    a factor of 4. ``load`` and ``limit`` (the most sequences the memory holds) are marked across
    both panels when inside the axis. ``None`` when fewer than two points are usable.
    ``narrow``: the phone layout, the marks' labels left to the legend.
    """
    if not isinstance(points, (list, tuple)):
        return None
    rows = []
    for p in points:
        if not isinstance(p, dict):
            continue
        c, tps = _number(p.get("concurrency")), _number(p.get("throughput_tokens_per_s"))
        tpot, ttft = _number(p.get("tpot_s")), _number(p.get("ttft_s"))
        if c is None or tps is None or c <= 0 or tps < 0:
            continue
        rows.append({"concurrency": c, "throughput": tps, "tpot_s": tpot if tpot and tpot > 0 else None,
                     "ttft_s": ttft if ttft and ttft > 0 else None})
    rows.sort(key=lambda r: r["concurrency"])
    if len(rows) < 2:
        return None
    xs = [r["concurrency"] for r in rows]
    xlog = min(xs) > 0 and max(xs) / min(xs) > 4
    if xlog:
        x_lo, x_hi, xt = _floor125(min(xs)), _ceil125(max(xs) * 1.1), []
        xt = log_ticks(x_lo, x_hi)
    else:
        xt = nice_ticks(0, max(xs) * 1.05)
        x_lo, x_hi = xt[0], xt[-1]
    x0, x1 = left, width - right
    panel = (height - top - bottom - gap) / 2
    t0, t1 = top, top + panel
    b0, b1 = t1 + gap, height - bottom
    ax = _Axis(x_lo, x_hi, x0, x1, xlog)
    _, tps_hi, tps_ticks = _range([r["throughput"] for r in rows], log=False, pad=0.08)
    ay_top = _Axis(0, tps_hi, t1, t0)
    ms = [v * 1000 for r in rows for v in (r["tpot_s"], r["ttft_s"]) if v is not None]
    if not ms:
        return None
    ms_lo, ms_hi, ms_ticks = _range(ms, log=max(ms) / min(ms) > 20, pad=0.1)
    ms_log = max(ms) / min(ms) > 20
    ay_bot = _Axis(ms_lo, ms_hi, b1, b0, ms_log)

    def line(key: str, axis: _Axis, scale: float = 1.0) -> list[tuple[float, float]]:
        return [(ax(r["concurrency"]), axis(r[key] * scale)) for r in rows if r[key] is not None]

    series = []
    for key, axis, scale, panel_id in (("throughput", ay_top, 1.0, "top"), ("tpot", ay_bot, 1000.0, "bottom"),
                                       ("ttft", ay_bot, 1000.0, "bottom")):
        pts = line("throughput" if key == "throughput" else f"{key}_s", axis, scale)
        if len(pts) < 2:
            continue
        series.append({"key": key, "panel": panel_id, "points": " ".join(f"{x:g},{y:g}" for x, y in pts),
                       "markers": [{"x": x, "y": y, "rx": _r(x - 3.5), "ry": _r(y - 3.5)} for x, y in pts],
                       "lx": _r(pts[-1][0] - 4), "ly": _r(pts[-1][1] - 8)})

    def mark(v: Any, right_of: bool) -> dict | None:
        """A vertical mark at ``v`` with its label beside it (right of the line or left of it)."""
        n = _number(v)
        if n is None or n <= 0 or not (x_lo <= n <= x_hi):
            return None
        x = ax(n)
        return {"x": x, "y0": t0, "y1": b1, "value": n, "show_label": not narrow,
                "lx": _r(x + 4 if right_of else x - 4), "ly": _r(b0 - 8 if right_of else t0 + 12),
                "anchor": "start" if right_of else "end"}

    return {
        "width": width, "height": height, "x0": x0, "x1": x1, "xlog": xlog, "narrow": narrow,
        "xticks": thin([{"x": ax(t), "label": fmt_x(t), "ly": _r(b1 + 16)} for t in xt], px - 1, width),
        "top": {"y0": t0, "y1": _r(t1), "yticks": [{"y": ay_top(t), "label": fmt_tps(t), "lx": _r(x0 - 6),
                                                    "ly": _r(ay_top(t) + 4)} for t in tps_ticks]},
        "bottom": {"y0": _r(b0), "y1": _r(b1), "log": ms_log,
                   "yticks": [{"y": ay_bot(t), "label": fmt_ms(t), "lx": _r(x0 - 6), "ly": _r(ay_bot(t) + 4)}
                              for t in ms_ticks]},
        "x_title": {"x": _r((x0 + x1) / 2), "y": _r(height - 6)},
        "y_title_top": {"x": 14, "y": _r((t0 + t1) / 2), "transform": f"rotate(-90 14 {_r((t0 + t1) / 2):g})"},
        "y_title_bottom": {"x": 14, "y": _r((b0 + b1) / 2), "transform": f"rotate(-90 14 {_r((b0 + b1) / 2):g})"},
        "series": series, "load": mark(load, False), "limit": mark(limit, True), "table": rows,
    }


# ------------------------------------------------------------------------------ phone layouts
NARROW_LAYOUTS: dict[str, dict[str, Any]] = {
    "memory": {"width": NARROW, "left": 4, "right": 8, "label_h": 17, "bar_h": 18, "gap": 12},
    "cost": {"width": NARROW, "height": 250, "left": 58, "right": 62, "top": 14, "bottom": 40},
    "time_cost": {"width": NARROW, "height": 300, "left": 58, "right": 10, "top": 14, "bottom": 42, "label_all": 6},
    "serving": {"width": NARROW, "height": 400, "left": 58, "right": 12, "top": 14, "bottom": 42, "gap": 40},
}
"""Each chart's narrow layout: the arguments its function takes besides ``narrow`` and ``px``."""


def narrow(name: str) -> dict[str, Any]:
    """The keyword arguments that lay chart ``name`` out for a phone."""
    return {**NARROW_LAYOUTS[name], "narrow": True, "px": NARROW_PX}
