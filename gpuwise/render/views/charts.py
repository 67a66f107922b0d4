"""The charts of an HTML report as view models: geometry from :mod:`gpuwise.render.charts`, every
label, title, description and data table in the report's language and currency.  Each chart has a
wide drawing (``geo``) and a phone's (``narrow``), labelled alike; the data table is one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...chart_series import CostCurve, MemoryBar, TimeCostPoint
from ...results import (
    Candidate,
)
from ...results_serving import ServingOut
from ..fmt import (
    DASH,
    FRAMEWORK_NAMES,
    _scaled,
    table,
    times,
)
from .cost_chart import CostChartView


class ChartsView(CostChartView):
    """Memory bars, the time/cost scatter and the serving curve (the cost chart: :mod:`.cost_chart`)."""

    def charts(self, *, memory: list[MemoryBar] | None = None,
               costs: Iterable[tuple[CostCurve | None, str, int | None]] = (),
               scatter: list[TimeCostPoint] | None = None, chosen_word: str = "", serving: ServingOut | None = None
               ) -> dict[str, Any]:
        """The charts of an HTML report, each about what it is labelled with: ``memory`` a series of
        bars (the answer or the proposal first), ``costs`` (curve, title, break-even month) triples,
        ``scatter`` time/cost points (the starred one marked ``chosen_word``), ``serving`` the chosen
        layout's curve."""
        from .. import charts as C  # the geometry, imported by an HTML or full report only

        f = self.f
        cost_charts = []
        for curve, title, break_even in costs:
            chart = self.cost_chart(curve, title, f"chart-cost{'-' + str(len(cost_charts) + 1) if cost_charts else ''}",
                                    break_even)
            if chart is not None:
                cost_charts.append(chart)
        return {"memory": self.memory_chart(memory, []) if memory else None,
                "costs": cost_charts, "cost": cost_charts[0] if cost_charts else None,
                "scatter": self.scatter_chart(scatter, [], None, chosen_word) if scatter else None,
                "serving": self.serving_chart(serving),
                "log_scale": self._("log scale"),
                "kinds": [{"kind": k, "label": f.kind(k)} for k in C.MEMORY_KINDS]}

    def bars_of(self, rows: Iterable[tuple[Candidate, str]]) -> list[MemoryBar]:
        """Memory bars of candidates, each labelled with its role ("the answer", "proposed")."""
        return [MemoryBar.model_construct(label=self.tagged(self.candidate_name(c), role),
                                          capacity=c.capacity_per_gpu_bytes or None,
                                          usable=c.usable_per_gpu_bytes or None, parts=c.memory_breakdown)
                for c, role in rows if c.memory_breakdown]

    def points_of(self, rows: Iterable[tuple[Candidate, str, bool]]) -> list[TimeCostPoint]:
        """Time/cost points of candidates: (candidate, role, starred)."""
        return [TimeCostPoint.model_construct(label=self.tagged(self.candidate_name(c), role), wall_days=c.wall_days,
                                              cost_usd=c.total_cost_usd, feasible=c.feasible, chosen=star)
                for c, role, star in rows]

    def memory_chart(self, bars: list[MemoryBar] | None, candidates: list[Candidate]) -> dict[str, Any] | None:
        from .. import charts as C  # the geometry, imported by an HTML or full report only

        f = self.f
        if not bars:
            bars = [MemoryBar.model_construct(label=self.candidate_name(c), capacity=c.capacity_per_gpu_bytes or None,
                                              usable=c.usable_per_gpu_bytes or None, parts=c.memory_breakdown)
                    for c in candidates if c.memory_breakdown]
        series = [{"label": b.label, "capacity": b.capacity, "usable": b.usable, "parts": b.parts} for b in bars]
        geo = C.memory_bars(series, fmt=f.bytes_tick)
        if geo is None:
            return None
        small = C.memory_bars(series, fmt=f.bytes_tick, **C.narrow("memory"))
        for row in [*geo["rows"], *(small["rows"] if small else [])]:
            for s in row["segments"]:
                s["kind_label"] = f.kind(s["kind"])
                s["label"] = f.bytes(s["value"])
            row["total_label"] = f.bytes(row["total"])
            limit = row["usable"] if row["usable"] is not None else row["capacity"]
            limit = f.bytes(limit) if limit is not None else ""
            row["side"] = (f"{row['total_label']} / {limit}" if limit else row["total_label"])
            row["status"] = self._("no") if row["over"] else self._("yes")
            row["over_label"] = self._("exceeds")
            row["capacity_label"] = f.bytes(row["capacity"]) if row["capacity"] is not None else ""
            row["usable_label"] = f.bytes(row["usable"]) if row["usable"] is not None else ""
        rows = []
        for r in geo["rows"]:
            parts = {s["kind"]: s["label"] for s in r["segments"]}
            rows.append([r["label"], *[parts.get(k, DASH) for k in geo["kinds"]], r["total_label"],
                         r["usable_label"] or DASH, r["capacity_label"] or DASH, r["status"]])
        over = [r["label"] for r in geo["rows"] if r["over"]]
        alt = self.f.join([self.f.ngettext("%(n)s candidate shown.", "%(n)s candidates shown.", len(geo["rows"])),
                           self.f.ngettext("%(n)s exceeds the usable memory of its GPU.",
                                           "%(n)s exceed the usable memory of their GPU.", len(over))])
        return {"geo": geo, "narrow": small, "id": "chart-memory",
                "title": self._("Memory per GPU by part, against the card"),
                "desc": alt + (" " + ", ".join(over) if over else ""),
                "alt": alt, "over": over,
                "legend": [{**entry, "label": f.kind(entry["kind"])} for entry in geo["legend"]],
                "capacity_label": self._("capacity"), "usable_label": self._("usable"),
                "omitted": self.f.ngettext("%(n)s more candidate not drawn.",
                                           "%(n)s more candidates not drawn.", geo["omitted"])
                if geo["omitted"] else "",
                "table": table([self._("Candidate"), *[f.kind(k) for k in geo["kinds"]], self._("Total"),
                                self._("Usable"), self._("Capacity"), self._("Fits in memory")], rows,
                               right=tuple(range(1, len(geo["kinds"]) + 4)))}

    def point_label(self, p: TimeCostPoint) -> str:
        """A chart point's name in the report's words: from its parts when the engine gives them
        (``count``, ``gpu``, ``acquisition``: "8 × h100-80gb-sxm (rent)"), with its ``role`` after it
        ("(the alternative)"); a label the view worded itself is shown with one multiplication sign."""
        if p.count is not None and p.gpu is not None and p.acquisition is not None:
            label = self.tagged(f"{p.count} × {p.gpu}", self.f.acquisition(p.acquisition))
        else:
            label = times(p.label)
        return self.tagged(label, p.role) if p.role else label

    def scatter_chart(self, points: list[TimeCostPoint] | None, candidates: list[Candidate],
                      chosen: Candidate | None, chosen_word: str = "") -> dict[str, Any] | None:
        from .. import charts as C  # the geometry, imported by an HTML or full report only

        f = self.f
        if not points:
            points = [TimeCostPoint.model_construct(label=self.candidate_name(c), wall_days=c.wall_days,
                                                    cost_usd=c.total_cost_usd, feasible=c.feasible,
                                                    chosen=c is chosen) for c in candidates]
        local = [{"label": self.point_label(p), "wall_days": p.wall_days, "cost_usd": _scaled(p.cost_usd, f.cur.rate),
                  "feasible": p.feasible, "chosen": p.chosen} for p in points]
        word = chosen_word or self._("chosen")
        suffix = "" if chosen_word else self.tagged("", word)
        geo = C.time_cost(local, fmt_x=lambda d: f"{d:g}", fmt_y=lambda v: f.local(v, compact=True),
                          chosen_suffix=suffix)
        if geo is None or len(geo["points"]) < 2:  # one point compares nothing
            return None
        small = C.time_cost(local, fmt_x=lambda d: f"{d:g}", fmt_y=lambda v: f.local(v, compact=True),
                            chosen_suffix=suffix, **C.narrow("time_cost"))
        for p in [*geo["points"], *(small["points"] if small else [])]:
            p["time"] = f.days(p["xv"])
            p["cost"] = f.local(p["yv"])
            p["status"] = (word if p["chosen"] else self._("feasible") if p["feasible"] else self._("rejected"))
            p["tip"] = self._("%(label)s: %(time)s, %(cost)s (%(status)s)", label=p["label"], time=p["time"],
                              cost=p["cost"], status=p["status"])
        some = geo["labelled"] < len(geo["points"])
        listed = sorted((p for p in geo["points"] if p["show_label"] or not some), key=lambda q: q["xv"])
        time_header, durations = f.duration_column([p["xv"] for p in listed], self._("Wall-clock time"))
        rows = [[f"{p['number']}: {p['label']}" if p.get("number") else p["label"], t, p["cost"], p["status"]]
                for p, t in zip(listed, durations, strict=True)]
        pick = next((p for p in geo["points"] if p["chosen"]), None)
        alt = (self._("The starred option, %(name)s, takes %(time)s and costs %(cost)s.", name=pick["label"],
                      time=pick["time"], cost=pick["cost"]) if pick else
               self._("No option is marked as chosen."))
        feasible = [p for p in geo["points"] if p["feasible"]]
        if feasible:
            fastest = min(feasible, key=lambda p: p["xv"])
            cheapest = min(feasible, key=lambda p: p["yv"])
            alt = f.join([alt, self._("Fastest feasible: %(fast)s; cheapest feasible: %(cheap)s.",
                                fast=fastest["label"], cheap=cheapest["label"])])
        if some:
            alt = f.join([alt, self._("Labelled, and listed below: the starred option and the feasible options "
                                      "that no other beats on both time and cost.")])
        x_title = self._("Wall-clock time, days")
        y_title = self._("Cost")
        if geo["xlog"]:
            x_title = self._("%(title)s (%(scale)s)", title=x_title, scale=self._("log scale"))
        if geo["ylog"]:
            y_title = self._("%(title)s (%(scale)s)", title=y_title, scale=self._("log scale"))
        return {"geo": geo, "narrow": small, "id": "chart-time-cost",
                "title": self._("Time against cost of each option"),
                "desc": alt, "alt": alt, "x_title": x_title, "y_title": y_title,
                "legend": {"chosen": word, "feasible": self._("feasible"), "rejected": self._("rejected")},
                "omitted": self._("Not placed (no time or cost): %(names)s.", names=f.sep.join(geo["omitted"]))
                if geo["omitted"] else "",
                "table": table([self._("Option"), time_header, self._("Cost"), self._("Status")], rows,
                               right=(1, 2))}

    def serving_chart(self, sv: ServingOut | None) -> dict[str, Any] | None:
        """Throughput and latency against the number of requests served at once, with the load and
        the most sequences the memory holds marked (the serving model's curve, as the result has it)."""
        from .. import charts as C  # the geometry, imported by an HTML or full report only

        f = self.f
        if sv is None or sv.curve is None:
            return None
        points = [{"concurrency": p.concurrency, "throughput_tokens_per_s": p.throughput_tokens_per_s,
                   "tpot_s": p.tpot_s, "ttft_s": p.ttft_s} for p in sv.curve]

        def draw(**layout: Any) -> dict[str, Any] | None:
            return C.serving_curve(points, load=sv.concurrency, limit=sv.max_concurrent_sequences,
                                   fmt_x=lambda v: f"{v:g}", fmt_tps=lambda v: f.num(v, 0),
                                   fmt_ms=lambda v: f.num(v, 0), **layout)

        geo = draw()
        if geo is None:
            return None
        small = draw(**C.narrow("serving"))
        names = {"throughput": self._("Output tokens/s, all requests"), "tpot": self._("Time per output token, ms"),
                 "ttft": self._("Time to first token, ms")}
        for g in (geo, small) if small else (geo,):
            g["load_label"] = self._("the load: %(n)s", n=f.num(sv.concurrency, 0))
            g["limit_label"] = self._("memory holds %(n)s", n=f.num(sv.max_concurrent_sequences, 0))
            for s in g["series"]:
                s["name"] = names[s["key"]]
        rows = [[f.num(p["concurrency"], 0), f.num(p["throughput"], 0), f.seconds(p["tpot_s"]), f.seconds(p["ttft_s"])]
                for p in geo["table"]]
        fw = FRAMEWORK_NAMES.get(sv.framework, sv.framework)
        # each count with its own noun, one in the singular (wording65): the load, then what memory holds
        alt = self._("With %(framework)s: %(tps)s output tokens/s at %(load)s at once (the load); memory holds "
                     "%(held)s, beyond which requests wait and the time to the first token grows.",
                     framework=fw, tps=f.num(sv.throughput_tokens_per_s, 0),
                     load=f.ngettext("%(x)s request", "%(x)s requests", round(sv.concurrency),
                                     x=f.num(sv.concurrency, 0)),
                     held=f.ngettext("%(x)s sequence", "%(x)s sequences", round(sv.max_concurrent_sequences),
                                     x=f.num(sv.max_concurrent_sequences, 0)))
        return {"geo": geo, "narrow": small, "id": "chart-serving",
                "title": self._("Throughput and latency against requests served at once"),
                "desc": alt, "alt": alt, "x_title": self._("Requests served at once (log scale)"),
                "y_title": self._("Output tokens/s"), "y2_title": self._("Latency, ms (log scale)"),
                "table": table([self._("Requests at once"), self._("Output tokens/s"),
                                self._("Time per output token"), self._("Time to first token")], rows,
                               right=(0, 1, 2, 3))}
