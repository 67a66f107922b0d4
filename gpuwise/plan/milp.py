"""A small modelling layer over HiGHS (``highspy``): named variables and rows in, values, row
activities and duals out. The plan's program (:mod:`.solve`) is written against this; nothing
here knows about GPUs.

Duals of a mixed-integer program are those of its LP with the integer variables fixed at their
optimal values (the usual reading: what one more unit of a constraint's right-hand side is worth
with the purchases as decided).
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import field
from typing import Any

import numpy as np

from ..errors import N_, _say
from ..frozen import record

INF = math.inf
#: How a search may stop. The branch-and-bound is bounded by its node count, not by the clock, so
#: the same plan file gives the same plan however busy the machine is (one thread, seed 0). The
#: plans gpuwise builds close at the root or in a few hundred nodes (0.4 s at most on the bundled
#: and held-out plans); the clock limit only guards against a pathological program, and a plan
#: stopped by either limit says so in its solver status.
NODE_LIMIT = 5_000
TIME_LIMIT_S = 300.0
#: A search that reaches NODE_LIMIT unproven is run once more with HiGHS's primal heuristics at this
#: effort (its default is 0.05) and the cheaper plan is kept. A hard plan's cost is set by the plans the
#: search finds, not by the bound it proves: the bundled team plan at +30 % a month ran 50,000 nodes
#: in 36 CPU-s to $556,560; 5,000 nodes at the default effort, then 5,000 at 0.3, plan it in 13 CPU-s
#: in all and find $554,826. A plan that closes within NODE_LIMIT is solved as before.
HEURISTIC_EFFORT = 0.3
#: The relative gap at which a search stops as optimal (``solve``'s default): 0.1 % of the plan's
#: cost, far below the uncertainty of its prices and throughputs. At 1e-6 one growing service
#: (mistral-7b from 4 requests/s, +50 % a month, 12 months) ran 50,000 nodes in 24 s to a plan
#: 0.05 % cheaper than the one found in 0.5 s at 1e-3; six such workloads took over 200 s (115 s now).
MIP_REL_GAP = 1e-3
#: HiGHS model statuses (``highspy.HighsModelStatus`` names) with a usable, possibly unproven,
#: solution; a solution's ``status`` is HiGHS's own wording of it, shown as the solver's.
USABLE = ("kOptimal", "kSolutionLimit", "kTimeLimit")
_LOCK = threading.Lock()
_quieted = False


def _highs():
    """A HiGHS instance. The library prints its banner to the process's standard output when the
    first instance is made (before any option can turn output off): that would corrupt a JSON
    report on stdout, so the first one is made with file descriptor 1 pointed at the null device."""
    global _quieted
    import highspy

    with _LOCK:
        if _quieted:
            return highspy.Highs()
        if sys.stdout is not None:  # None: started with standard output closed (``>&-``)
            with contextlib.suppress(OSError, ValueError):
                sys.stdout.flush()
        try:
            saved: int | None = os.dup(1)
        except OSError:  # descriptor 1 closed: the banner has nowhere to go
            saved = None
        try:
            with open(os.devnull, "w") as null:
                os.dup2(null.fileno(), 1)
                h = highspy.Highs()
        finally:
            if saved is None:  # closed again, as it was (the null device may have taken 1 itself)
                with contextlib.suppress(OSError):
                    os.close(1)
            else:
                os.dup2(saved, 1)
                os.close(saved)
        _quieted = True
        return h


@record
class Solution:
    status: str  # HiGHS's words for how the search ended ("Optimal", "Solution limit reached")
    objective: float
    values: list[float]
    activity: list[float]
    duals: list[float]
    optimal: bool
    usable: bool  # a solution to read (optimal, or stopped by a limit with one found)
    # the row duals with the :attr:`Model.loose` variables free between their bounds (the others fixed); the same as
    # ``duals`` where none is, or none was 0 in the solution
    loose_duals: list[float] = field(default_factory=list)


@record
class Model:
    lb: list[float] = field(default_factory=list)
    ub: list[float] = field(default_factory=list)
    cost: list[float] = field(default_factory=list)
    integer: list[bool] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    rows: list[tuple[str, dict[int, float], float, float]] = field(default_factory=list)
    offset: float = 0.0
    aside: set[int] = field(default_factory=set)
    """Variables the rows hold at one value whatever the search does (a run no option can place: its unplaced
    weight): their cost is a constant, left out of HiGHS's objective and added back to the solution's, so the
    search's relative gap (MIP_REL_GAP) is measured on what it decides. Counted in, a plan with a workload nothing
    runs had an objective of 1e9 a run, and a 0.1 % gap let its money part sit $2M from the optimum (hostile round
    41: a 26-workload plan cost $103,766 without one of its services and $94,217 with it)."""

    loose: set[int] = field(default_factory=set)
    """Binary variables left free between their bounds in a second dual LP (:attr:`Solution.loose_duals`) where the
    solution holds one at 0: a switch that keeps a run off the GPUs (the plan's ``held``), fixed at 0, takes the
    rows it sits in out of the LP, whose duals then say that more GPUs are worth nothing."""

    pieces: set[int] = field(default_factory=set)
    """Integer variables the dual LPs take as continuous: the parts a month's runs are placed in (solve's
    ``together.whole``), whole in the plan; fixed, they hold every run where it is and the capacity rows price
    nothing, so what more GPUs are worth is read as a share of a run, as before the runs were whole (plan63)."""

    def var(self, name: str, *, lb: float = 0.0, ub: float = INF, cost: float = 0.0, integer: bool = False) -> int:
        self.lb.append(lb)
        self.ub.append(ub)
        self.cost.append(cost)
        self.integer.append(integer)
        self.names.append(name)
        return len(self.names) - 1

    def row(self, name: str, coefs: dict[int, float], *, lb: float = -INF, ub: float = INF) -> int:
        self.rows.append((name, {j: a for j, a in coefs.items() if a != 0}, lb, ub))
        return len(self.rows) - 1

    def solve(self, *, fix: dict[int, float] | None = None, time_limit: float = TIME_LIMIT_S, gap: float = MIP_REL_GAP,
              duals: bool = True, relax: frozenset[int] = frozenset(), nodes: int | None = None,
              bounds: dict[int, tuple[float, float]] | None = None) -> Solution:
        """Solve (``fix``: variables held at a value; ``relax``: integer variables taken as continuous;
        ``nodes``: a node limit below NODE_LIMIT, a search that then stops once, without the second
        run at HEURISTIC_EFFORT; ``bounds``: variables held in a range); with ``duals``, resolve the LP
        with the integers fixed to read the row duals."""
        lb, ub = list(self.lb), list(self.ub)
        for j, v in (fix or {}).items():
            lb[j] = ub[j] = v
        for j, (lo, hi) in (bounds or {}).items():
            lb[j], ub[j] = lo, hi
        integer = [is_int and j not in relax for j, is_int in enumerate(self.integer)] if relax else self.integer
        sol = _run(self, lb, ub, integer, time_limit, gap, nodes)
        if not duals or not sol.usable or not any(integer):
            return sol
        lb2, ub2 = list(lb), list(ub)
        for j, is_int in enumerate(integer):
            if is_int and j not in self.pieces:
                lb2[j] = ub2[j] = round(sol.values[j])
        lp = _run(self, lb2, ub2, [False] * len(self.integer), time_limit, gap)
        if lp.optimal:
            sol.duals = sol.loose_duals = lp.duals
        off = [j for j in self.loose if integer[j] and round(sol.values[j]) == 0]
        if off:
            for j in off:
                lb2[j], ub2[j] = lb[j], ub[j]
            free = _run(self, lb2, ub2, [False] * len(self.integer), time_limit, gap)
            if free.optimal:
                sol.loose_duals = free.duals
        return sol


def _interruptible(run: Any) -> None:
    """``run()`` (HiGHS's solve, which releases the GIL) on a worker thread while this one waits:
    called here, Ctrl-C reached Python only when the search ended (up to TIME_LIMIT_S), so an
    interrupted plan kept running; now KeyboardInterrupt is raised at once and the abandoned search
    (a daemon thread) ends with the process."""
    done = threading.Event()
    failed: list[BaseException] = []

    def work() -> None:
        try:
            run()
        except BaseException as exc:  # re-raised on the caller's thread
            failed.append(exc)
        finally:
            done.set()

    threading.Thread(target=work, name="highs", daemon=True).start()
    began, shown = time.monotonic(), ""
    try:
        while not done.wait(0.05):
            shown = _progress(time.monotonic() - began, shown)
    finally:
        if shown:  # the progress line is erased, so the report starts on a clean line
            sys.stderr.write("\r" + " " * len(shown) + "\r")
            sys.stderr.flush()
    if failed:
        raise failed[0]


PROGRESS_AFTER_S = 2.0
"""A search that lasts longer than this says so on a terminal: most plans solve well within it."""

_PROGRESS_LANG = ["en"]
"""The language of the progress line: the command line's ``--lang`` (:func:`progress_in`)."""


@contextlib.contextmanager
def progress_in(lang: str) -> Iterator[None]:
    """Word the progress line of the searches run inside in ``lang`` (the plan command's ``--lang``)."""
    _PROGRESS_LANG.append(lang)
    try:
        yield
    finally:
        _PROGRESS_LANG.pop()


def _progress(elapsed: float, shown: str) -> str:
    """The line a long search keeps up to date on standard error, where that is a terminal (never in a
    pipe or a file a script reads): how long HiGHS has searched so far, by the second. Returns the line
    now shown ("" while none is)."""
    if elapsed < PROGRESS_AFTER_S or sys.stderr is None or not sys.stderr.isatty():
        return shown
    line = "gpuwise: " + _say(N_("searching for the cheapest plan (HiGHS), %(seconds)s s"),
                              {"seconds": f"{elapsed:.0f}"}, _PROGRESS_LANG[-1])
    if line != shown:
        sys.stderr.write("\r" + line.ljust(len(shown)))
        sys.stderr.flush()
    return line


def _run(m: Model, lb: list[float], ub: list[float], integer: list[bool], time_limit: float, gap: float,
         nodes: int | None = None) -> Solution:
    import highspy

    n, r = len(m.names), len(m.rows)
    cols: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for i, (_name, coefs, _lo, _hi) in enumerate(m.rows):
        for j, a in coefs.items():
            cols[j].append((i, a))
    start, index, value = [0], [], []
    for c in cols:
        for i, a in c:
            index.append(i)
            value.append(a)
        start.append(len(index))
    h = _highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", float(time_limit))
    h.setOptionValue("mip_max_nodes", NODE_LIMIT if nodes is None else min(nodes, NODE_LIMIT))
    h.setOptionValue("mip_rel_gap", float(gap))
    h.setOptionValue("random_seed", 0)
    h.setOptionValue("threads", 1)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n, r
    cost = np.array(m.cost, dtype=float)
    aside = sorted(j for j in m.aside if lb[j] == ub[j])  # held by its bounds here: a constant
    constant = float(sum(cost[j] * lb[j] for j in aside))
    cost[aside] = 0.0
    lp.col_cost_ = cost
    lp.col_lower_ = np.array(lb, dtype=float)
    lp.col_upper_ = np.array(ub, dtype=float)
    lp.row_lower_ = np.array([row[2] for row in m.rows], dtype=float)
    lp.row_upper_ = np.array([row[3] for row in m.rows], dtype=float)
    lp.offset_ = m.offset
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.array(start, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.array(value, dtype=float)
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = n, r
    if any(integer):
        lp.integrality_ = [highspy.HighsVarType.kInteger if i else highspy.HighsVarType.kContinuous for i in integer]
    h.passModel(lp)
    _interruptible(h.run)
    sol = _solution(h, n, r, constant)
    if h.getModelStatus() == highspy.HighsModelStatus.kSolutionLimit and any(integer) and nodes is None:
        h.setOptionValue("mip_heuristic_effort", HEURISTIC_EFFORT)
        h.passModel(lp)
        _interruptible(h.run)
        again = _solution(h, n, r, constant)
        if again.usable and again.objective < sol.objective:
            return again
    return sol


def _solution(h: Any, n: int, r: int, constant: float = 0.0) -> Solution:
    """The answer of HiGHS's last run as a :class:`Solution` (``constant``: the cost of the variables set aside,
    :attr:`Model.aside`, added to its objective)."""
    import highspy

    model_status = h.getModelStatus()
    info = h.getInfo()
    s = h.getSolution()
    values = list(s.col_value) if s.value_valid else [0.0] * n
    activity = list(s.row_value) if s.value_valid else [0.0] * r
    duals = list(s.row_dual) if s.dual_valid else [0.0] * r
    return Solution(h.modelStatusToString(model_status), float(info.objective_function_value) + constant, values,
                    activity, duals,
                    model_status == highspy.HighsModelStatus.kOptimal, model_status.name in USABLE)
