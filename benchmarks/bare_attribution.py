"""Which published condition carries the held-out training runs' error when the conditions are not stated.

    python benchmarks/bare_attribution.py [--runs CSV] [--worst N] [--base GROUPS] [--hours whole|steady]
                                          [--no-row-batch] [--size 1-8|9-256|257+] [--task pretrain|fine-tune|LoRA]
                                          [--rows CSV]

Scores the runs (default: the held-out 2024-26 runs, tests/data/training_heldout.csv, use=1) through the
path users get (``accuracy.published_run_cases``) with each group of columns of
tests/data/training_conditions.csv stated ALONE (the rest left to gpuwise's defaults) and with ALL BUT that
group, and prints the median absolute error, the signed median (estimate over published, minus one) and the
count beyond 2x of each, beside the bare (no conditions) and the full (all conditions) scores, and, on the runs
that state the group, the median change of the estimate when it is stated ("moves"). A group that moves the
estimate far where stated, and without which the full score falls back toward the bare one, is where gpuwise's
default for it differs from what the runs did. Then the bare, hours-basis-only and full scores by run size
(GPUs), task (the row's method: 'lora' LoRA, 'full' a full SFT; the rest pretraining) and the stack the run's
conditions name (none: the row names none), with 'stack only' (the stack the conditions name stated alone, with
--base: beside it; what a user who names the stack gets, its recipe defaults included). ``--rows`` writes each
run's estimate over the published figure, minus one, bare, on its basis only, full and with each group stated alone,
to a CSV, so that two trees' runs can be diffed.

The hours basis is not a default gpuwise chooses: it is whether the published figure counts the whole run
(gpuwise's GPU-hours: steady-state time over runtime.yaml training.whole_run_efficiency and failures) or only
iteration time x iterations (MLPerf time-to-train, a log's step times), which the estimate reports as the
steady-state part of its GPU-hours (``accuracy.hours_as_published``).
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import accuracy as A  # noqa: E402
from gpuwise import knowledge  # noqa: E402

# each group of training_conditions.csv columns, as with_conditions / run_estimate / hours_as_published read them
GROUPS = {
    "stack": ("stack", "stack_version"),
    "layout": ("tp", "pp", "ep", "cp", "vpp", "dp_shard", "etp"),
    "micro_batch": ("micro_batch",),
    "zero": ("zero", "offload"),
    "checkpointing": ("checkpointing",),
    "seq_len": ("seq_len",),
    "global_batch": ("global_batch_tokens",),
    "network": ("network",),
    "hours_basis": ("hours_basis",),
    "kernels": ("overlap_comm", "fp8_params", "torch_compile", "liger_kernel", "transformers_version",
                "mixed_precision", "tp_comm_overlap", "cut_cross_entropy"),
}


def scores(cases: list[tuple[str, float, float]]) -> tuple[float, float, int]:
    """Median absolute error, signed median and the count beyond 2x either way."""
    r = [est / meas for _, est, meas in cases]
    return (statistics.median(abs(x - 1) for x in r), statistics.median(x - 1 for x in r),
            sum(1 for x in r if not 0.5 <= x <= 2.0))


def size_of(n: str) -> str:
    if not n:
        return "no count"
    n = int(n)
    return "1-8 GPUs" if n <= 8 else "9-256 GPUs" if n <= 256 else ">256 GPUs"


def stack_of(conds: dict[str, dict], rid: str) -> str:
    """The split by the stack a run's conditions name ('stack none': no conditions row, or none named)."""
    return "stack " + (conds.get(rid, {}).get("stack") or "none")


def write_rows(path: Path, rows: dict[str, dict], conds: dict[str, dict],
               scored: dict[str, list[tuple[str, float, float]]]) -> None:
    """One line a run: its id, GPUs, task, named stack and, for each scoring, estimate / published - 1."""
    by = {name: {label.split()[0]: est / meas - 1 for label, est, meas in cases} for name, cases in scored.items()}
    with open(path, "w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["id", "gpus", "task", "stack", *scored])
        for rid in by["bare"]:
            out.writerow([rid, rows[rid]["gpus"], task_of(rows[rid]), stack_of(conds, rid)[6:],
                          *(f"{by[name][rid]:+.4f}" for name in scored)])


SIZES = {"1-8": "1-8 GPUs", "9-256": "9-256 GPUs", "257+": ">256 GPUs"}  # --size: size_of's labels


def task_of(row: dict) -> str:
    method = row.get("method")  # the row's own: 'lora', 'full' (a full SFT; continued pretraining is pretraining)
    return "LoRA" if method == "lora" else "fine-tune" if method == "full" else "pretrain"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=Path, default=A.HELDOUT_RUNS)
    ap.add_argument("--worst", type=int, default=0, help="print the N bare runs furthest off")
    ap.add_argument("--base", default="", help="column groups applied in every row of the table, comma-separated "
                    "(hours_basis: score against the figure's own basis, which is no condition of the run)")
    ap.add_argument("--hours", choices=("whole", "steady"), help="only the runs whose published hours are on this "
                    "basis (training_conditions.csv hours_basis)")
    ap.add_argument("--no-row-batch", action="store_true", help="blank the runs' own global_batch_tokens column too "
                    "(the batch then comes from the conditions where they state it, else gpuwise's default)")
    ap.add_argument("--size", choices=tuple(SIZES), help="only the runs of this many GPUs (the split's own table)")
    ap.add_argument("--task", choices=("pretrain", "fine-tune", "LoRA"), help="only the runs of this task")
    ap.add_argument("--rows", type=Path, help="write each run's errors (bare, basis only, full, each group alone) here")
    args = ap.parse_args()
    if args.no_row_batch or args.size or args.task:  # a copy of the runs: the split's alone, the batch blanked
        with open(args.runs, newline="") as fh:
            table = [r for r in csv.DictReader(fh) if (not args.size or size_of(r["gpus"]) == SIZES[args.size])
                     and (not args.task or task_of(r) == args.task)]
        if args.no_row_batch:
            table = [{**r, "global_batch_tokens": ""} for r in table]
        copy = Path(tempfile.mkdtemp()) / args.runs.name
        with open(copy, "w", newline="") as fh:
            out = csv.DictWriter(fh, fieldnames=list(table[0]))
            out.writeheader()
            out.writerows(table)
        args.runs = copy
    kb = knowledge.load()
    conds = A.run_conditions()
    cols = set(next(iter(conds.values())))
    base = {c for g in filter(None, args.base.split(",")) for c in GROUPS[g]}
    with open(args.runs, newline="") as fh:
        rows = {r["id"]: r for r in csv.DictReader(fh) if r["use"] == "1"
                and (not args.hours or conds.get(r["id"], {}).get("hours_basis") == args.hours)}
    covered = sum(1 for rid in rows if rid in conds)

    refused: dict[str, dict[str, str]] = {}  # by column group: the runs whose remaining columns gpuwise refuses

    def scored(conditions, group: str = "") -> list[tuple[str, float, float]]:
        out = refused.setdefault(group, {}) if group else {}
        return [c for c in A.published_run_cases(kb, args.runs, conditions=conditions, refused=out)
                if c[0].split()[0] in rows]

    bare = scored(A.conditions_only(conds, base) if base else None)
    full = scored(A.CONDITIONS)
    print(f"{args.runs.name}: {len(bare)} runs{' with ' + args.hours + ' hours' if args.hours else ''}, "
          f"{covered} with a conditions row")
    print(f"{'':28s} {'median':>7s} {'signed':>7s} {'>2x':>4s}")
    if base:
        print(f"every row with {args.base} stated")
    for name, cases in (("bare (no conditions)", bare), ("full (all conditions)", full)):
        m, s, b = scores(cases)
        print(f"{name:28s} {m:7.1%} {s:+7.1%} {b:4d}")
    print(f"{'column group':16s} {'stated':>6s} | {'only: median':>12s} {'signed':>7s} {'>2x':>4s} | "
          f"{'all but: median':>15s} {'signed':>7s} {'>2x':>4s} | {'stating it moves':>16s}")
    basis_only = None
    alone: dict[str, list[tuple[str, float, float]]] = {}
    for name, group in GROUPS.items():
        said = {rid for rid in rows if rid in conds and any(conds[rid].get(k) for k in group)}
        stated = len(said)
        only = scored(A.conditions_only(conds, set(group) | base), name + " only")
        but = scored(A.conditions_only(conds, cols - set(group)), "all but " + name)
        alone[name] = only
        if name == "hours_basis":
            basis_only = only
        (om, os_, ob), (bm, bs, bb) = scores(only), scores(but)
        # on the runs that state it: the median change of the estimate when it is stated, over the bare one
        moves = statistics.median([o[1] / b[1] - 1 for o, b in zip(only, bare, strict=True)
                                   if o[0].split()[0] in said] or [0])
        print(f"{name:16s} {stated:6d} | {om:12.1%} {os_:+7.1%} {ob:4d} | {bm:15.1%} {bs:+7.1%} {bb:4d} | "
              f"{moves:+16.1%}")
    for name, ids in refused.items():  # scored on their full conditions in that column (the columns hold together)
        if ids:
            print(f"  {name}: {len(ids)} runs refused without the rest, scored on every condition: "
                  + ", ".join(sorted(ids)))
    print(f"{'split':24s} {'runs':>5s} | {'bare':>6s} {'signed':>7s} | {'basis only':>10s} {'signed':>7s} | "
          f"{'full':>6s} {'signed':>7s} | {'stack only':>10s} {'signed':>7s}")
    for key in (lambda r: size_of(r["gpus"]), task_of, lambda r: stack_of(conds, r["id"])):
        groups: dict[str, list[int]] = {}
        for i, (label, _, _) in enumerate(bare):
            groups.setdefault(key(rows[label.split()[0]]), []).append(i)
        for g, idx in sorted(groups.items()):
            parts = [scores([cases[i] for i in idx]) for cases in (bare, basis_only, full, alone["stack"])]
            print(f"{g:24s} {len(idx):5d} | " + " | ".join(f"{m:6.1%} {s:+7.1%}" if j in (0, 2) else
                                                          f"{m:10.1%} {s:+7.1%}" for j, (m, s, _) in
                                                          enumerate(parts)))
    if args.rows:
        write_rows(args.rows, rows, conds, {"bare": bare, "basis_only": basis_only, "full": full,
                                            **{name + "_only": cases for name, cases in alone.items()
                                               if name != "hours_basis"}})
    if args.worst:
        for (label, est, meas), (_, e2, _) in sorted(zip(bare, basis_only, strict=True), key=lambda t: -max(
                t[0][1] / t[0][2], t[0][2] / t[0][1]))[:args.worst]:
            print(f"  {est / meas - 1:+7.1%} (basis only {e2 / meas - 1:+7.1%}) {label[:100]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
