"""The plans an answer is weighed against, each a point of the same program (:mod:`.solve`): *buy for the peak* (a
baseline, ``baselines.buy_for_peak``), and the plan that buys nothing where the answer buys and the two cost the same
within the search's tolerance (``answer.tie``). The Planner (:mod:`.build`) extracts and prices them as it does the
answer."""

from __future__ import annotations

import math
from typing import Any

from .milp import MIP_REL_GAP, Solution
from .sizing import HOURS
from .solve import Fleet, Program, Setting, solve


def buy_for_peak(b: Any) -> tuple[Program, Solution] | tuple[None, None]:
    """The cheapest single GPU type bought in month 1 in enough units for the peak month's work on
    the fleet, renting only before it arrives (where the plan may rent)."""
    inp = b.inp
    # the rental before delivery only where renting is allowed: a buy-only plan leaves those months unplaced
    # (it rented them, and was chosen as a plan that 'keeps to the constraints', hostile round 27)
    rent = b.pf.constraints.acquisition != "buy"
    best: tuple[Program, Solution] | None = None
    for g, f in b.fleets.items():
        if not f.unit:
            continue
        need = 0
        for m in range(1, inp.H + 1):
            gpus = 0.0
            hours = 0.0
            for sz in inp.sized:
                o = sz.options.get(g)
                if o is None or not sz.active(m):
                    continue
                if sz.serving:
                    k = math.ceil(sz.demand[m - 1] / o.capacity - 1e-9)
                    gpus += k * o.count
                    hours += k * o.count * sz.hours_per_day / 24 * inp.availability * HOURS
                else:
                    gpus = max(gpus, o.count) if not any(x.serving for x in inp.sized) else gpus + o.count
                    hours += o.gpu_hours * sz.runs[m - 1]
            need = max(need, math.ceil(gpus), math.ceil(hours / (inp.availability * HOURS) - 1e-9))
        if not all(g in sz.options for sz in inp.sized):
            continue  # this type cannot carry every workload: not a buy-for-the-peak plan
        big = len(f.units) - 1 if f.units[-1].holds > f.holds else 0  # a copy larger than the first unit holds
        units = max(0, math.ceil((need - f.owned) / f.units[big].gpus))
        for extra in range(4):
            s = Setting(buy=True, rent=rent, fixed_buy=_peak_order(g, f, big, units + extra),
                        rent_until=1 + inp.delivery)
            p, sol = solve(inp, s, duals=False)
            if sol.usable and not any(
                    sol.values[j] > 1e-6 for (w, m), j in p.unplaced.items() if m >= 1 + inp.delivery):
                if best is None or sol.objective < best[1].objective:
                    best = (p, sol)
                break
    return best if best is not None else (None, None)


def _peak_order(g: str, f: Fleet, k: int, n: int) -> dict[tuple[str, int, int], int]:
    """``n`` units of ``f.units[k]`` ordered in month 1: in an office while it holds them, the rest in colocation; cards
    that one desktop holds as that desktop where the type is bought so (:func:`.solve.fleet_for`, plan64)."""
    u = f.units[k]
    desk = next((i for i, d in enumerate(f.units) if k == 0 and n > 1 and d.gpus == n * u.gpus and d.site == u.site
                 and d.sold_as == u.sold_as == "workstation"), None)
    if desk is not None:
        return {(g, 1, desk): 1}
    if not (u.office and f.office_limit is not None and k + 1 < len(f.units) and not f.units[k + 1].office
            and f.units[k + 1].gpus == u.gpus):
        return {(g, 1, k): n}
    inside = min(n, int(f.office_limit // u.office))
    return {(g, 1, k): inside, (g, 1, k + 1): n - inside}


def tie(b: Any, ex: Any, total: float) -> tuple[float, float] | None:
    """The plan that buys nothing (the owned GPUs and rentals alone) where the answer buys, places all the work and
    keeps to the budgets, and costs the same as the answer within the search's relative gap (milp.MIP_REL_GAP): a search
    that stops within the gap may stop on either, so the purchase is a tie at the solver's tolerance, not a saving (the
    bundled team plan buys two RTX PRO 6000s for $43,642 -- optimal at a gap of 0 too, the same plan -- and buying
    nothing costs $43,672, 0.07 % more). Its total (USD) and the gap; None where there is no such plan."""
    if not ex.purchases or b.pf.constraints.acquisition != "either":
        return None
    # the answer is the program's optimum within the gap over plans that include buying nothing, so that plan's
    # objective -- its cost, where it is clean -- is at least the answer's less the gap: where the answer's weights on
    # overruns put that past the answer's cost and the gap, no such plan ties, and it is not searched for (the team
    # plan over 60 months: 31.9 CPU-s with the search, 27.0 without)
    if b.sol.objective * (1 - MIP_REL_GAP) > total * (1 + MIP_REL_GAP):
        return None
    prog, alt = solve(b.inp, Setting(buy=False, rent=True), duals=False)
    if not alt.usable:
        return None
    other = b._extract(prog, alt)
    if other.unplaced or other.over:
        return None
    cost = sum(m.total for m in other.months)
    return (cost, MIP_REL_GAP) if abs(cost - total) <= MIP_REL_GAP * abs(total) else None
