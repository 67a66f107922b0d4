"""What the held-out training set would read if gpuwise charged an MoE step more for its routing (branch moetrain66):
a diagnostic, no estimate changes.

    python benchmarks/moe_train_whatif.py [--expert-factor 1.3] [--ep-overlap 0.0] [--ids H981,H983]

Two levers, each applied to every held-out run (use=1, with its conditions) whose plan splits the experts over more
than one GPU (expert parallelism > 1), because no condition column says how a run routed (natural, Megatron-Core's
forced load balancing, Primus's round-robin 'even' routing) or whether it overlapped its all-to-all:

* ``--expert-factor F``: the busiest expert-parallel GPU's load over the mean, F, applied to the routed experts' share
  of the MoE layers' GEMM work (step_time.expert_share): under expert parallelism each MoE layer waits for its most
  loaded GPU, so the experts' GEMMs take F times the balanced time;
* ``--ep-overlap X``: the share of the expert all-to-all hidden behind computation (runtime.yaml training
  ep_comm_overlap, 0.5 as the knowledge holds it).

It prints each MoE run's estimate over the published GPU-hours and the held-out set's median and mean |error| and
its runs beyond 2x, as benchmarks/accuracy.py scores them (hours on each figure's own basis: hours_as_published)."""

from __future__ import annotations

import argparse
import csv
import dataclasses
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.accuracy_training import (
    HELDOUT_RUNS,
    hours_as_published,
    run_conditions,
    run_estimate,
    run_workload,
    with_conditions,
)
from gpuwise import knowledge
from gpuwise.estimators import planner, step_time


def install(expert_factor: float, ep_overlap: float | None) -> None:
    """Patch step_time.step_parts (and the planner's own reference to it) for this process only."""
    original = step_time.step_parts

    def patched(tj, st, g):
        lay = st.layout
        if tj.shape.moe and lay.ep > 1:
            shape = tj.shape
            share = step_time.expert_share(shape) * getattr(shape, "moe_layers", shape.layers) / shape.layers
            st = dataclasses.replace(st, flops=st.flops * (1.0 + (expert_factor - 1.0) * share))
            if ep_overlap is not None:
                g = dataclasses.replace(g, ep_exposed=1.0 - ep_overlap)
        return original(tj, st, g)

    step_time.step_parts = patched
    planner.step_parts = patched


def ratios(ids: set[str] | None = None) -> dict[str, tuple[float, bool]]:
    """Each held-out run's estimate over its published GPU-hours, and whether it is an MoE run."""
    conds = run_conditions()
    out = {}
    with open(HELDOUT_RUNS, newline="") as fh:
        for row in csv.DictReader(fh):
            if row["use"] != "1" or (ids and row["id"] not in ids):
                continue
            cond = conds.get(row["id"])
            n = int(row["gpus"]) if row["gpus"] else None
            dl = float(row["deadline_days"]) if row["deadline_days"] else None
            est = run_estimate(with_conditions(run_workload(row), cond), row["gpu"], n, dl,
                               network=(cond or {}).get("network") or None)
            out[row["id"]] = (hours_as_published(est, cond) / float(row["gpu_hours"]), row["moe"] == "1")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--expert-factor", type=float, default=1.0)
    ap.add_argument("--ep-overlap", type=float, default=None)
    ap.add_argument("--ids", default="", help="comma-separated run ids (default: every held-out run)")
    a = ap.parse_args(argv)
    knowledge.load()
    install(a.expert_factor, a.ep_overlap)
    got = ratios(set(a.ids.split(",")) if a.ids else None)
    for rid, (r, moe) in got.items():
        if moe:
            print(f"{rid:6s} {r:6.3f}")
    errors = [abs(r - 1.0) * 100 for r, _ in got.values()]
    beyond = sum(1 for r, _ in got.values() if r > 2.0 or r < 0.5)
    print(f"held-out with conditions: median {statistics.median(errors):.2f}% over {len(errors)}, "
          f"mean {statistics.fmean(errors):.2f}%, {beyond} beyond 2x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
