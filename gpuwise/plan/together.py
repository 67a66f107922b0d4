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


def turns(m_: Model, g: str, m: int, owned: int, runs: list[tuple[int, int, float]], copies: dict[int, float],
          arrived: dict[int, Unit], schedulable: float) -> None:
    """Runs that cannot share the fleet take turns: two runs of ``t`` GPUs or more run at once only where the fleet
    has ``2t`` GPUs free beside the copies, which hold theirs all month; where it has not, their wall hours together
    are within the month's ``schedulable`` hours. ``runs``: (a run variable, its GPUs, its wall hours), on the
    fleet; ``copies``: the copies' variables and their GPUs; ``arrived``: the units bought and arrived.

    Where the fleet's free GPUs are known (owned only, no copy on them) a width whose pairs do not fit gets the turns
    row alone, as plansolve62 wrote it for a type the plan cannot buy. Elsewhere the free GPUs are the program's, so
    a binary ``pair[g,m,t]`` may be 1 only where owned + bought - the copies' GPUs >= 2t, and lifts the turns row
    (plan63). The hours row alone (GPU-hours) let a plan buy 3 RTX 4090 for two 2-GPU runs of 395 hours in a month
    (1,579 of 3 x 657 GPU-hours), a schedule of 790 hours: two at once need 4, one after the other 790 of 657."""
    if not runs:
        return
    most = sum(u.gpus * m_.ub[j] for j, u in arrived.items())  # GPUs the units arrived could add (their bounds)
    for t in sorted({n for _, n, _ in runs}):
        wide = {j: w for j, n, w in runs if n >= t}
        total = sum(w * m_.ub[j] for j, w in wide.items())  # the wall hours if every one ran on the fleet
        if total <= schedulable + 1e-9:
            continue  # all of them fit one after the other
        name = f"{g},{m},{t}"
        if 2 * t > owned + most:  # two never fit at once
            m_.row(f"turns[{name}]", wide, ub=schedulable)
            continue
        if not copies and not arrived:  # 2t owned GPUs free all month: two at once fit
            continue
        z = m_.var(f"pair[{name}]", ub=1.0, integer=True)
        free = {z: 2.0 * t, **copies}
        for j, u in arrived.items():
            free[j] = free.get(j, 0.0) - u.gpus
        m_.row(f"pair[{name}]", free, ub=float(owned))
        m_.row(f"turns[{name}]", {**wide, z: -(total - schedulable)}, ub=schedulable)


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
