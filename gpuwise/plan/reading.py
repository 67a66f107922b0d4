"""Reading a solution in words and money: the months a full fleet is full in, a list of months as ranges, what a
solution spends (its objective less the weights on slack) and the months a workload is served in. Moved out of
:mod:`.build` whole (its module held 820 lines)."""

from __future__ import annotations

import math
from typing import Any

from .. import messages
from .milp import Solution
from .solve import Program


def _capacity_note(gpu: str, held: list[int], hours: list[int], narrow: list[int] | None = None) -> str:
    """What a full fleet is full of: every GPU held at once (the month's Fleet use, which counts hours, may be
    low: review52 read 'full in months 13-24' beside 7-50%), or every schedulable hour used; or, in ``narrow``
    months, fewer GPUs free at once than a run needs (plansolve62: 4 of 16 serving leave 12 for a 16-GPU run)."""
    def when(ms: list[int]) -> str:
        return messages.text("plan.when.months" if len(ms) > 1 else "plan.when.month", {"months": _ranges(ms)})
    if narrow:
        said = messages.text("plan.binding.capacity_narrow", {"gpu": gpu, "when": when(narrow)})
        return "; ".join([said, _capacity_note(gpu, held, hours)] if held or hours else [said])
    if held and hours:
        return messages.text("plan.binding.capacity_both", {"gpu": gpu, "held": when(held), "hours": when(hours)})
    return messages.text("plan.binding.capacity_held" if held else "plan.binding.capacity_hours",
                         {"gpu": gpu, "when": when(held or hours)})


def capacity_months(p: Program, sol: Solution) -> dict[str, list[tuple[int, float, set[str]]]]:
    """The months more GPUs of a type would lower the plan's cost: g -> [(month, the larger dual, which rows are
    full)]. One more GPU adds one to the GPUs at once (``count``, a dual a GPU) and a month's schedulable hours
    (``hours``, a dual a GPU-hour): the duals are read with the runs' held switches free (milp ``Model.loose``: a
    run kept off the fleet because its GPUs are not free together holds its switch at 0, which in the LP of the
    fixed integers keeps both rows from pricing it). Where both rows are full the LP may price either (a degenerate
    vertex), so which is full is read from the plan: the GPUs at once where the copies hold them all, else the
    hours where the plan uses them all; where neither is, a run
    needs more GPUs at once than those held leave free (``narrow``: review57's 16-GPU run beside 4 of 16 owned A100
    serving)."""
    duals = sol.loose_duals or sol.duals
    rows: dict[tuple[str, int], dict[str, list[int]]] = {}
    for name, i in p.rows.items():
        if name.startswith(("count[", "hours[")):
            g, m = name[name.index("[") + 1:-1].split(",")
            rows.setdefault((g, int(m)), {})[name[:name.index("[")]] = [i]
    for key, width in p.width.items():  # each run's GPUs free together beside the copies (solve.build)
        rows.setdefault(key, {})["width"] = width
    for i, (name, *_rest) in enumerate(p.model.rows):  # the GPU-hours at each power rate (solve._power_sites): a GPU
        if name.startswith("power_gpus["):  # more gives its rate's row its hours too, which may take the value (plan64:
            g, m, _c = name[name.index("[") + 1:-1].split(",")  # a 2-card desktop beside the card, two rates)
            rows.setdefault((g, int(m)), {}).setdefault("power", []).append(i)
    out: dict[str, list[tuple[int, float, set[str]]]] = {}
    for (g, m), named in rows.items():
        dual = {kind: max((duals[i] if i < len(duals) else 0.0 for i in ids), key=abs) for kind, ids in named.items()}
        full = {kind for kind, ids in named.items() if kind not in ("width", "power")
                and all(sol.activity[i] >= p.model.rows[i][3] - 1e-6 for i in ids)}
        # a power rate's row prices GPU-hours at once full only where the GPUs or hours are: elsewhere its dual is
        # what moving work to a cheaper rate saves, not what more GPUs give
        worth = max((v for kind, v in dual.items() if kind != "power" or full), key=abs)
        if abs(worth) <= 1e-6:
            continue
        if "count" in full:  # copies that hold every GPU fill its hours as far as they run: 'held at once' says it
            full.discard("hours")
        if "count" not in full and (abs(dual.get("width", 0.0)) > 1e-6 or not full):
            full.add("narrow")
        out.setdefault(g, []).append((m, worth, full))
    return out


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


def whole_runs(p: Program, sol: Solution, sz: Any) -> tuple[int, str, float, float, int]:
    """Where a training workload's runs went whole to a cloud though the fleet had room for part of one (plan63:
    the program places each run in one place, :func:`.together.whole`): (the first such month, the fleet's GPU type
    there, the wall hours a run of it had free on that type's GPUs that month, a run's wall hours there, how many
    months), or (-1, '', 0, 0, 0). The free hours are the least of the hours row's slack over the run's GPUs and
    the turns rows' of its width and narrower; a month whose runs could not have the GPUs at once beside the copies
    (its width row) is the capacity note's narrow month, not this; nor is one where the run costs less rented than
    on the fleet (its power)."""
    x, act, rows = sol.values, sol.activity, p.model.rows
    index = {name: i for i, (name, *_rest) in enumerate(rows) if name.startswith(("hours[", "turns[", "width["))}
    found: list[tuple[int, str, float, float]] = []
    for m in range(1, len(sz.runs) + 1):
        rents = [j for (w, mm, _g), j in p.rent_run.items() if w == sz.name and mm == m and x[j] > 1e-6]
        if not rents:
            continue
        best: tuple[float, str, float] | None = None
        for kind, table in (("own", p.own_run), ("wide", p.wide_run)):
            for (w, mm, g), j in table.items():
                if w != sz.name or mm != m or p.model.cost[j] >= min(p.model.cost[r] for r in rents) - 1e-9:
                    continue
                opt = sz.options[g]
                n = opt.wide_count if kind == "wide" else opt.count
                wall = (opt.wide_gpu_hours if kind == "wide" else opt.gpu_hours) / n
                y = p.held[(w, m, g, kind)]
                i = index.get(f"width[{g},{m},{p.model.names[y]}]")
                if round(x[y]) == 0 and i is not None and rows[i][3] - act[i] < n - 1e-6:
                    continue  # its GPUs are not free at once
                i = index.get(f"hours[{g},{m}]")
                if i is None:
                    continue
                free = (rows[i][3] - act[i]) / n
                for t in range(1, n + 1):
                    i = index.get(f"turns[{g},{m},{t}]")
                    if i is not None:
                        free = min(free, rows[i][3] - act[i])
                if 1.0 <= free < wall * sz.runs[m - 1] / math.ceil(sz.runs[m - 1] - 1e-9) - 1e-6 and (
                        best is None or free > best[0]):
                    best = (free, g, wall)
        if best is not None:
            found.append((m, best[1], best[0], best[2]))
    if not found:
        return -1, "", 0.0, 0.0, 0
    m, g, free, wall = found[0]
    return m, g, free, wall, len(found)
