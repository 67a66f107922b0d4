"""Which held-out training runs plan slower when their file states ``offload: none`` than when it leaves offload open
while the open plan offloads nothing (branch planner65).

    python benchmarks/offload_none_scan.py [--runs CSV] [--ids H961,H962]

Stating what the planner would have chosen should not change the plan: where the open search's best layout keeps
every state on the GPU, the same layout is open to the search that may not offload. Each held-out run (use=1) whose
conditions (tests/data/training_conditions.csv) leave ``offload`` blank is planned as accuracy.py plans it; only the
runs whose plan offloads nothing are planned again with ``offload: none`` stated, and those whose GPU-hours rise are
listed with both layouts. The exit status is 1 where any does (a search that skips a layout the open path takes)."""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.accuracy_training import (
    CONDITIONS,
    HELDOUT_RUNS,
    run_conditions,
    run_estimate,
    run_workload,
    with_conditions,
)

TOLERANCE = 1e-6
"""Relative rise in GPU-hours counted as slower (the two searches time the same layout identically)."""


def _plan(row: dict, cond: dict | None):
    n = int(row["gpus"]) if row["gpus"] else None
    dl = float(row["deadline_days"]) if row["deadline_days"] else None
    est = run_estimate(with_conditions(run_workload(row), cond), row["gpu"], n, dl,
                       network=(cond or {}).get("network") or None)
    return est.gpu


Slower = tuple[str, float, float, str, str]
"""(id, open GPU-hours, none GPU-hours, open layout, none layout)."""


def scan(path: Path = HELDOUT_RUNS, ids: set[str] | None = None) -> tuple[int, list[Slower]]:
    """(runs planned twice, the runs whose plan is slower with offload: none)."""
    conds = run_conditions()
    with open(CONDITIONS, newline="") as fh:
        blank = dict.fromkeys(csv.DictReader(fh).fieldnames or (), "")
    with open(path, newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["use"] == "1" and (ids is None or r["id"] in ids)]
    slower: list[Slower] = []
    twice = 0
    for row in rows:
        cond = conds.get(row["id"])
        if cond is not None and cond.get("offload"):
            continue  # stated already
        g = _plan(row, cond)
        if g.training is None or g.layout.offload != "none":
            continue
        twice += 1
        none = _plan(row, {**(cond or blank), "id": row["id"], "offload": "none"})
        if none.gpu_hours > g.gpu_hours * (1 + TOLERANCE):
            slower.append((row["id"], g.gpu_hours, none.gpu_hours, g.training.layout_notation,
                           none.training.layout_notation))
    return twice, slower


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=Path, default=HELDOUT_RUNS)
    ap.add_argument("--ids", default="", help="comma-separated run ids (default: every run)")
    a = ap.parse_args()
    twice, slower = scan(a.runs, set(a.ids.split(",")) if a.ids else None)
    print(f"{twice} runs plan no offload with offload open; {len(slower)} plan slower with offload: none")
    for rid, h_open, h_none, l_open, l_none in slower:
        print(f"  {rid}: {h_open:.6g} -> {h_none:.6g} GPU-h ({h_none / h_open - 1:+.1%}); open {l_open}; none {l_none}")
    return 1 if slower else 0


if __name__ == "__main__":
    raise SystemExit(main())
