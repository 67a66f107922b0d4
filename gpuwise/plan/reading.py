"""Reading a solution in words and money: the months a full fleet is full in, a list of months as ranges, what a
solution spends (its objective less the weights on slack) and the months a workload is served in. Moved out of
:mod:`.build` whole (its module held 820 lines)."""

from __future__ import annotations

from .. import messages
from .milp import Solution
from .solve import Program


def _capacity_note(gpu: str, held: list[int], hours: list[int]) -> str:
    """What a full fleet is full of: every GPU held at once (the month's Fleet use, which counts hours, may be
    low: review52 read 'full in months 13-24' beside 7-50%), or every schedulable hour used."""
    def when(ms: list[int]) -> str:
        return messages.text("plan.when.months" if len(ms) > 1 else "plan.when.month", {"months": _ranges(ms)})
    if held and hours:
        return messages.text("plan.binding.capacity_both", {"gpu": gpu, "held": when(held), "hours": when(hours)})
    return messages.text("plan.binding.capacity_held" if held else "plan.binding.capacity_hours",
                         {"gpu": gpu, "when": when(held or hours)})


def month_runs(months: list[int]) -> list[str]:
    """Months as runs of consecutive months: [1, 2, 4, 5, 6, 12] -> ['1-2', '4-6', '12'] (the page joins them)."""
    out, start = [], None
    months = sorted(months)
    for i, m in enumerate(months):
        if start is None:
            start = m
        if i + 1 == len(months) or months[i + 1] != m + 1:
            out.append(str(start) if start == m else f"{start}-{m}")
            start = None
    return out


def _ranges(months: list[int]) -> str:
    return ", ".join(month_runs(months))


def _spent(prog: Program, sol: Solution) -> float:
    """What a solution costs in money: its objective less the weights on work left unplaced or
    unserved and on budget overruns (:data:`UNPLACED_RUN`, :data:`UNSERVED`, ``OVER_BUDGET``)."""
    slack = [*prog.unplaced.values(), *prog.over.values()]
    return sol.objective - sum(prog.model.cost[j] * sol.values[j] for j in slack)


def _served_months(prog: Program, sol: Solution, name: str, active: list[int]) -> float:
    """The months a workload is served in, each counted by the share of its work placed (a month
    whose work is all left unplaced counts 0)."""
    out = 0.0
    for m in active:
        j = prog.unplaced.get((name, m))
        ub = prog.model.ub[j] if j is not None else 0.0
        out += 1.0 - (sol.values[j] / ub if j is not None and ub > 0 else 0.0)
    return out
