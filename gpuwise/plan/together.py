"""The rows that keep a run whole in :func:`.solve.build`'s program: its GPUs in one machine (:func:`fits`), runs
too wide to share the fleet one after the other (:func:`turns`), and each run in one place (:func:`whole`).
Moved out of :mod:`.solve` (its module held 820 lines) with what plan63 added to them."""

from __future__ import annotations

import math

from .fleet import Fleet, Unit
from .milp import Model


def fits(m_: Model, g: str, m: int, f: Fleet, owned: int, arrived: dict[int, Unit], at_once: dict[int, float],
         size: dict[int, int], run: int | None = None) -> None:
    """Each copy or run larger than the first unit's machine sits whole in one machine: for each such size
    ``t``, the copies of ``t`` GPUs or more at once are at most those the owned GPUs hold (``owned // t``)
    and those the units arrived hold (a unit that holds ``t``: ``gpus // t``). The GPU count row alone let a
    copy of eight RTX 4090s take the owned one and seven bought one-GPU workstations (hostile round 27).
    ``run``: a run's held switch in ``at_once``, beside the copies: the rows of the sizes up to its own."""
    if not f.units:  # owned only: the GPUs as the team has them
        return
    for t in sorted({size[j] for j in at_once if size[j] > f.holds and (run is None or size[j] <= size[run])}):
        coefs = {j: a for j, a in at_once.items() if size[j] >= t}
        for j, u in arrived.items():
            if u.holds >= t:
                coefs[j] = -float(u.gpus // t)
        m_.row(f"fits[{g},{m},{t}{'' if run is None else ',' + m_.names[run]}]", coefs, ub=float(owned // t))


#: The instants of a month at which the runs on a pool are counted at once (:func:`turns`): k = 1, 2, 3 evenly spaced
#: instants, a run longer than a (k + 1)th of the month's schedulable hours holding its GPUs at one of them at least.
INSTANTS = 3


def turns(m_: Model, g: str, m: int, owned: int, runs: list[tuple[int, int, float]], copies: dict[int, float],
          arrived: dict[int, Unit], schedulable: float, held: dict[int, int] | None = None) -> None:
    """The runs on a pool in a month never hold more GPUs at once than it has free beside the copies, which hold
    theirs all month: any set of them, not two alone (plan64). ``runs``: (a run variable, its GPUs, its wall hours),
    on the fleet; ``copies``: the copies' variables and their GPUs; ``arrived``: the units bought and arrived. The
    free GPUs F = owned + bought - the copies' GPUs are the program's where copies or purchases are; two kinds of
    row bound the runs by them, each holding for every schedule of whole runs within the month's ``schedulable``
    hours (each run holds its GPUs from its start to its end):

    * **lanes**, for each width ``t`` of the runs: at any instant the runs of ``t`` GPUs or more hold
      sum floor(n / t) <= floor(F / t) = ``lanes[g,m,t]`` (floor is superadditive: floor(a) + floor(b) <=
      floor(a + b)), so over the month their wall hours, each weighted by floor(n / t), are within lanes x
      ``schedulable``; t x lanes + the copies' GPUs <= owned + bought. With ``2t > F`` this is plansolve62's and
      plan63's turns row (one after the other); three runs of 8 GPUs on 16 take two lanes, and a 12-GPU run beside
      a 6-GPU one on 16 counts two lanes of 6, so the two never overlap.
    * **instants**, k = 1 .. :data:`INSTANTS`: a run of w wall hours within the month holds its GPUs at
      ceil(w / d) - 1 (at most k) of the k instants d, 2d, ..., kd, d = ``schedulable`` / (k + 1); at each the runs'
      GPUs are within F, so sum n x that count <= k x F. At k = 1: every run longer than half the month holds its
      GPUs at mid-month, so three 8-GPU runs of 400 hours never run on 16 GPUs in one month (two lanes of 657
      hours hold 1,200 hours of them only by stopping one midway; each run is whole, plan63).
    * **overlaps** (product65): two runs whose wall hours add to more than ``schedulable`` hold their GPUs at a common
      instant wherever each starts, and runs that do so pairwise all hold them at one instant (Helly's theorem on a
      line: intervals that meet pairwise share a point). Such a set is the runs longer than half the month (the
      instants' k = 1) or, for a run ``s`` of at most half, ``s`` and the runs longer than ``schedulable`` - its
      hours: their GPUs, ``s``'s counted once (its ``held`` switch: its runs that month need not meet each other),
      are within F. Two 8-GPU runs of 400 hours and a 4-GPU run of 300 on 16 GPUs: every pair fits at once (16, 12),
      every pair must meet (800, 700 > 657), so all three meet, 20 > 16; the lanes (t = 4: 2 x 400 x 2 + 300 <= 4 x
      657) and the instants (k = 2: 20 <= 32; k = 3: 36 <= 48) let them pass (plan64's Left).

    Where the free GPUs are known (owned only, no copy and nothing arrived) the rows have constant right-hand sides;
    rows no placement can break are not written. A relaxation: a set the rows let pass may still not fit, but each
    row is a bound every real schedule keeps."""
    if not runs:
        return
    most = sum(u.gpus * m_.ub[j] for j, u in arrived.items())  # GPUs the units arrived could add (their bounds)
    known = not copies and not arrived  # the free GPUs are the owned, all month

    def free(scale: float) -> dict[int, float]:  # the copies' GPUs less the units', x scale (a row's terms)
        out = {j: scale * a for j, a in copies.items()}
        for j, u in arrived.items():
            out[j] = out.get(j, 0.0) - scale * u.gpus
        return out

    for t in sorted({n for _, n, _ in runs}):
        wide = {j: (n // t) * w for j, n, w in runs if n >= t}
        total = sum(a * m_.ub[j] for j, a in wide.items())  # the weighted wall hours if every one ran on the fleet
        if total <= schedulable + 1e-9:
            continue  # one lane holds them all, one after the other
        name = f"{g},{m},{t}"
        top = (owned + int(most)) // t  # the lanes the most GPUs could give
        if known or top <= 1:
            lanes = owned // t if known else 1
            if lanes * schedulable < total - 1e-9:
                m_.row(f"turns[{name}]", wide, ub=lanes * schedulable)
            continue
        y = m_.var(f"lanes[{name}]", ub=float(min(top, math.ceil(total / schedulable - 1e-9))), integer=True)
        m_.row(f"lanes[{name}]", {y: float(t), **free(1.0)}, ub=float(owned))
        m_.row(f"turns[{name}]", {**wide, y: -schedulable}, ub=0.0)
    for k in range(1, INSTANTS + 1):
        at_k = {j: n * float(at) for j, n, w in runs if (at := held_at(w, k, schedulable))}
        if not at_k or (not copies and sum(a * m_.ub[j] for j, a in at_k.items()) <= k * owned + 1e-9):
            continue  # no run holds its GPUs at these instants, or all of them fit at each
        m_.row(f"instants[{g},{m},{k}]", {**at_k, **free(float(k))}, ub=float(k * owned))
    for s, n_s, long in overlaps(runs, schedulable, held or {}):
        meet = {j: float(n) for j, n, _w in long}
        if not copies and sum(a * m_.ub[j] for j, a in meet.items()) + n_s <= owned + 1e-9:
            continue  # all of them fit at once
        m_.row(f"overlap[{g},{m},{m_.names[s]}]", {**meet, s: float(n_s), **free(1.0)}, ub=float(owned))


def overlaps(runs: list[tuple[int, int, float]], schedulable: float, held: dict[int, int]
             ) -> list[tuple[int, int, list[tuple[int, int, float]]]]:
    """For each run of at most half the month's ``schedulable`` hours with a ``held`` switch, the runs it meets
    wherever both start (their hours add to more than ``schedulable``; each longer than half, so they meet each
    other too): (its switch, its GPUs, those runs), where there are any (:func:`turns`'s overlap rows)."""
    out = []
    for j, n, w in runs:
        if w > schedulable / 2 or j not in held:
            continue
        long = [(i, ni, wi) for i, ni, wi in runs if i != j and wi > schedulable - w + 1e-9]
        if long:
            out.append((held[j], n, long))
    return out


def held_at(wall: float, k: int, schedulable: float) -> int:
    """Of the k instants d, 2d, ..., kd (d = schedulable / (k + 1)) of a month, how many a run of ``wall`` hours holds
    its GPUs at wherever it starts: ceil(wall / d) - 1, at most k (a run longer than the month holds them at all)."""
    return min(k, max(0, math.ceil(wall * (k + 1) / schedulable - 1e-9) - 1))


def at_once_gpus(m_: Model, runs: list[tuple[int, int, float]], schedulable: float) -> float:
    """The most GPUs :func:`turns`'s rows could ask of a pool beside the copies with every run on it (their bounds):
    t x the lanes each width's runs fill, the instants' GPUs over k, and the overlaps'. What bounds each order
    (:func:`.solve._most_units`)."""
    need = 0.0
    for t in {n for _, n, _ in runs}:
        total = sum((n // t) * w * m_.ub[j] for j, n, w in runs if n >= t)
        need = max(need, t * math.ceil(total / schedulable - 1e-9))
    for k in range(1, INSTANTS + 1):
        need = max(need, math.ceil(sum(n * held_at(w, k, schedulable) * m_.ub[j] for j, n, w in runs) / k - 1e-9))
    for j, n, w in runs:  # a run of at most half the month and the longer runs it meets (the overlap rows)
        if w <= schedulable / 2:
            need = max(need, n + sum(ni * m_.ub[i] for i, ni, wi in runs if i != j and wi > schedulable - w + 1e-9))
    return need


def whole(m_: Model, j: int, runs: float) -> None:
    """A month's runs on the fleet are whole: ``runs`` a whole number, each run in one place; a fraction a month
    (``per_month: 0.34``, ``2.5``), in ceil(runs) equal parts, each in one place. A share of a run on the owned or
    bought GPUs and the rest rented would move the run between an owned cluster and a cloud: at once, its GPUs would
    exchange gradients every step over the internet between the sites; in turn, its checkpoint and data would move
    mid-run and the run restart, which the plan does not price (plan63: rule PLAN-RUN-WHOLE says where a run went
    whole to a cloud though the fleet had room for part of it). ``k`` is freed in the dual LPs (milp
    ``Model.pieces``): what more GPUs are worth is read as a share of a run."""
    parts = math.ceil(runs - 1e-9)
    if parts <= 0:
        return
    k = m_.var(f"parts[{m_.names[j]}]", ub=float(parts), integer=True)
    m_.pieces.add(k)
    m_.row(f"parts[{m_.names[j]}]", {j: 1.0, k: -runs / parts}, lb=0.0, ub=0.0)
