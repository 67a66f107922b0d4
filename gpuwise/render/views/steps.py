"""The four steps of a decision (memory, compute, interconnect, cost) with their rules, formulas
and, in a full report, the leading candidates' tables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ...results import (
    CORE_STEPS,
    Candidate,
    EstimateResult,
    FormulaTerm,
)
from .. import words
from ..fmt import (
    DASH,
    STEP_ORDER,
    STEP_TITLES,
    _fits,
    _leading,
    _ordered,
    table,
)
from .base import LEADING, BaseView, served_tokens_per_s


class StepsView(BaseView):
    """The steps section of a recommendation or an audit."""

    def steps(self, focus: Candidate | None, candidates: list[Candidate], estimate: EstimateResult | None,
              always: Iterable[str] = CORE_STEPS) -> list[dict[str, Any]]:
        summaries = {s.step: s for s in self.r.steps}
        by_step: dict[str, list[Any]] = {}
        for e in self.r.trace:
            by_step.setdefault(e.step, []).append(e)
        order = [s for s in STEP_ORDER if s in summaries or s in by_step or s in always]
        order += [s for s in [*summaries, *by_step] if s not in order]
        out = []
        for sid in order:
            summary = summaries.get(sid)
            rules, seen = [], set()
            for e in by_step.get(sid, []):
                key = (e.rule, e.conclusion)
                if key not in seen:
                    seen.add(key)
                    rules.append({"id": e.rule, "conclusion": self.f.sentence(e.template, e.values, e.conclusion),
                                  "source": self.f.cite(e.source) or self.sources.get(e.rule, "")})
            for rid in summary.rules if summary else []:
                if rid not in {r["id"] for r in rules}:
                    rules.append({"id": rid, "conclusion": "", "source": self.sources.get(rid, "")})
            terms = list(summary.terms) if summary and summary.terms else self._fallback_terms(sid, estimate)
            peak = words.phase(estimate.memory.peak_phase, self.f) if estimate is not None and sid == "memory" \
                and estimate.memory.peak_phase else ""
            step = {
                "id": sid, "title": self._(STEP_TITLES[sid]) if sid in STEP_TITLES else sid,
                "conclusion": self.f.sentence(summary.template, summary.values, summary.conclusion) if summary else "",
                "rules": rules if self.full else [], "terms": [self.term(t, peak) for t in terms],
                "tables": [], "notes": [],
            }
            if self.full:
                self._step_details(step, focus, candidates, estimate)
            out.append(step)
        return out

    @staticmethod
    def _fallback_terms(sid: str, estimate: EstimateResult | None) -> list[FormulaTerm]:
        if estimate is None:
            return []
        if sid == "memory":
            return list(estimate.memory.terms)
        if sid == "compute":
            gpu_terms = [t for t in estimate.gpu.terms if t.unit != "USD"] if estimate.gpu else []
            return [*estimate.compute.terms, *gpu_terms]
        if sid == "tco" and estimate.gpu:
            return [t for t in estimate.gpu.terms if t.unit == "USD"]
        return []

    def _step_details(self, step: dict[str, Any], focus: Candidate | None, candidates: list[Candidate],
                      estimate: EstimateResult | None) -> None:
        f = self.f
        sid = step["id"]
        shown = _leading(candidates, focus, LEADING)
        feasible = sum(1 for c in candidates if c.feasible)
        if sid in CORE_STEPS and feasible > len([c for c in shown if c.feasible]):
            step["notes"].append(self._("The tables in this step show the %(n)s best-ranked of %(total)s feasible "
                                        "candidates; every candidate is in the table of all candidates.",
                                        n=len([c for c in shown if c.feasible]), total=feasible))
        if sid == "memory":
            if focus is not None and focus.memory_breakdown:
                total = sum(focus.memory_breakdown.values()) or 1
                rows = [[f.kind(k), f.bytes(v), f.pct(v / total)]
                        for k, v in _ordered(focus.memory_breakdown)]
                rows.append([self._("Total per GPU"), f.bytes(focus.memory_per_gpu_bytes), ""])
                if focus.usable_per_gpu_bytes:
                    rows.append([self._("Usable per GPU"), f.bytes(focus.usable_per_gpu_bytes), ""])
                if focus.capacity_per_gpu_bytes:
                    rows.append([self._("Capacity per GPU"), f.bytes(focus.capacity_per_gpu_bytes), ""])
                step["tables"].append({
                    "caption": self._("Memory per GPU for %(name)s", name=self.candidate_name(focus)),
                    **table([self._("Part"), self._("Per GPU"), self._("Share")], rows, right=(1, 2))})
            if estimate is not None:
                m = estimate.memory
                if m.layout:
                    step["notes"].append(self._("Memory layout modelled: %(layout)s.",
                                                layout=words.formula_parts(m.layout_phrases, self.f)
                                                if m.layout_phrases else words.plain(m.layout, self.f)))
                if m.peak_phase:
                    step["notes"].append(self._("Peak memory is reached during: %(phase)s.",
                                                phase=words.phase(m.peak_phase, self.f)))
                if m.host_ram_bytes_per_node:
                    step["notes"].append(self._("Host RAM needed per node for offload: %(b)s.",
                                                b=f.bytes(m.host_ram_bytes_per_node)))
                if getattr(m, "nvme_bytes_per_node", 0):  # an older result's JSON has none
                    step["notes"].append(self._("NVMe needed per node for the offloaded state: %(b)s; host RAM holds "
                                                "only its staging buffers.", b=f.bytes(m.nvme_bytes_per_node)))
                step["notes"] += words.notes(m.notes, m.notes_phrases, self.f)
            rows, classes = [], []
            for c in shown:
                rows.append([self.candidate_name(c), self.strategy(c), f.bytes(c.memory_per_gpu_bytes),
                             f.bytes(c.usable_per_gpu_bytes or None),
                             f.bytes(c.capacity_per_gpu_bytes or None),
                             self._("yes") if _fits(c) else self._("no")])
                classes.append("" if _fits(c) else "bad")
            if rows:
                step["tables"].append({
                    "caption": self._("Memory per GPU of the leading candidates"),
                    **table([self._("Candidate"), self._("Strategy"), self._("Needed"), self._("Usable"),
                             self._("Capacity"), self._("Fits in memory")], rows, right=(2, 3, 4),
                            classes=classes)})
        elif sid == "compute":
            time_header, time_cells = f.duration_column([c.wall_days for c in shown], self._("Wall-clock time"))
            when = {id(c): cell for c, cell in zip(shown, time_cells, strict=True)}
            cols: list[tuple[str, Callable[[Candidate], str], bool]] = [
                (self._("Candidate"), self.candidate_name, False),
                (self._("Strategy"), self.strategy, False),
                # a training run's GPU-hours here are the timeline's, its start-up included, as its time is
                # (the step's sentence and its formula count the training alone)
                (self._("GPU-hours with the start-up") if any(c.wall_days for c in shown) else self._("GPU-hours"),
                 lambda c: f.num(_used_gpu_hours(c), 0), True),
                (time_header, lambda c: when[id(c)], True),
                (self._("Tokens/s, one sequence"), lambda c: f.num(c.decode_tokens_per_s), True),
                (self._("Tokens/s, all sequences"), lambda c: f.num(served_tokens_per_s(c)), True),
            ]
            keep = [0, 1] + [i for i, attr in ((2, "gpu_hours"), (3, "wall_days"), (4, "decode_tokens_per_s"),
                                               (5, "decode_tokens_per_s_total"))
                             if any(getattr(c, attr) is not None for c in shown)]
            if shown:
                step["tables"].append({
                    "caption": self._("Time on the leading candidates") if any(i in keep for i in (2, 3))
                    else self._("Decode speed on the leading candidates"),
                    **table([cols[i][0] for i in keep], [[cols[i][1](c) for i in keep] for c in shown],
                            right=[n for n, i in enumerate(keep) if cols[i][2]])})
        elif sid == "interconnect":
            rows = [[self.candidate_name(c), f.num(c.nodes), self.strategy(c), f.pct(c.scaling_efficiency),
                     self.changes(c) or DASH] for c in shown]
            if rows:
                step["tables"].append({
                    "caption": self._("Scaling across GPUs and nodes"),
                    **table([self._("Candidate"), self._("Nodes"), self._("Strategy"),
                             self._("Scaling efficiency"), self._("Changes from the question")],
                            rows, right=(1, 3))})
        elif sid == "tco":
            rows = [[self.candidate_name(c), f.money(c.rent_cost_usd), f.money(c.buy_cost_usd),
                     f.month(c.break_even_month) if c.break_even_month is not None
                     else self._("never") if c.rent_cost_usd is not None and c.buy_cost_usd is not None else DASH,
                     f.acquisition(c.acquisition), f.money(c.total_cost_usd)] for c in shown]
            if rows:
                step["tables"].append({
                    "caption": self._("Rent or buy"),
                    # the buy column is what buying comes to once resold (c.buy_cost_usd: TCO-BUY's 'net of
                    # resale'), beside the rent's whole bill (review53)
                    **table([self._("Candidate"), self._("Rent"), self._("Buy, net"), self._("Break-even"),
                             self._("Acquisition"), self._("Total cost")], rows, right=(1, 2, 5))})


def _used_gpu_hours(c: Candidate) -> float | None:
    """The GPU-hours a candidate's GPUs run, its start-up included: its wall-clock hours x its GPUs. A committed
    term's idle hours are billed, not run (review62: 2 A100s committed for a month read 'GPU-hours with the
    start-up: 1,460', 2 x 730, for a job of 6.9 hours, 2 x 6.91 = 13.8)."""
    tl = c.timeline
    if c.gpu_hours is None or tl is None or not tl.wall_hours:
        return c.gpu_hours
    return tl.wall_hours * tl.gpus

