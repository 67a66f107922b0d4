"""The training runs on many GPUs, each with its error and the step-time terms gpuwise prints for it.

    python benchmarks/scale_terms.py [--runs CSV] [--min-gpus N] [--families] [--gpu ID[,ID...]]

Scores the runs (default: the held-out 2024-26 runs, tests/data/training_heldout.csv, use=1) with every published
condition (tests/data/training_conditions.csv), as ``accuracy.published_run_cases`` does, and lists those on at
least ``--min-gpus`` GPUs (default 257): the signed error (estimate over published, minus one), the layout, the
hours basis, the step's seconds and each term's share of it (compute, tensor-parallel, pipeline sends, bubble,
exposed data-parallel traffic and all of it, expert all-to-all, context parallel, optimizer), the micro-batches a
step and the goodput (whole-run efficiency with failures). ``--families``: instead, every run of a model title
(before its first bracket) and GPU that was run on two GPU counts or more, by count, so that a term which should
grow with the count can be read across sizes with the rest held. ``--gpu``: only the runs on those GPUs (gpus.yaml
ids), on any count unless ``--min-gpus`` is given, then the throughput tables' rows on them
(tests/data/training_throughput_published.csv, tokens/s per GPU, scored as ``accuracy.throughput_cases`` does) with
the same terms, and each GPU's signed median, so that parts of one architecture can be read side by side.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import accuracy as A  # noqa: E402
from gpuwise import knowledge  # noqa: E402

TERMS = ("compute_s", "tp_s", "pp_p2p_s", "pp_bubble_s", "dp_s", "ep_s", "cp_s", "optimizer_s")


def _terms(t) -> dict:
    """A training estimate's step seconds, each term's share of the step, the data-parallel traffic's share, the
    micro-batches a step and the goodput."""
    s = t.step_terms
    return {"layout": t.layout_notation, "step_s": s.step_s, **{k: getattr(s, k) / s.step_s for k in TERMS},
            "dp_traffic": t.dp_traffic.traffic_s / s.step_s, "micro_batches": t.requested_layout.grad_accum,
            "goodput": t.goodput}


def throughput_rows(gpus: set[str], path: Path = A.THROUGHPUT) -> list[dict]:
    """The throughput tables' rows on ``gpus``: the signed error of gpuwise's steady tokens/s per GPU over the
    published one (a faster estimate reads positive, the opposite sign to the hours' error), with the terms."""
    with open(path, newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["gpu"] in gpus]
    out = []
    for row in rows:
        n = int(row["gpus"])
        t, est = A._step_tokens_per_gpu(A.throughput_workload(row), row["gpu"], n)
        out.append({"id": row["id"], "title": f"{row['model']} {row['precision']} {row['release']}",
                    "gpu": row["gpu"], "gpus": n, "error": est / float(row["tokens_per_s_per_gpu"]) - 1,
                    "basis": "t/s", **_terms(t)})
    return out


def run_rows(path: Path, min_gpus: int) -> list[dict]:
    """Each scored run with a published GPU count of at least ``min_gpus``: its id, title, GPU, count, error,
    layout, hours basis, step seconds, the terms' shares, the data-parallel traffic's share, micro-batches, goodput."""
    kb = knowledge.load()
    conds = A.run_conditions()
    details: dict = {}
    cases = A.published_run_cases(kb, path, details=details)
    with open(path, newline="") as fh:
        rows = {r["id"]: r for r in csv.DictReader(fh)}
    out = []
    for label, est, meas in cases:
        rid = label.split()[0]
        row = rows[rid]
        if not row["gpus"] or int(row["gpus"]) < min_gpus:
            continue
        out.append({"id": rid, "title": row["model"], "gpu": row["gpu"], "gpus": int(row["gpus"]),
                    "error": est / meas - 1, "basis": conds.get(rid, {}).get("hours_basis") or "-",
                    **_terms(details[rid].gpu.training)})
    return out


def line(r: dict) -> str:
    shares = " ".join(f"{k.removesuffix('_s').removeprefix('pp_')}={r[k]:.0%}" for k in TERMS)
    return (f"{r['error']:+7.1%} {r['id']:5s} {r['title'][:34]:34s} {r['gpus']:6d} {r['gpu'][:14]:14s} "
            f"{r['layout'][:32]:32s} {r['basis']:6s} step {r['step_s']:8.3f} s {shares} "
            f"dp traffic={r['dp_traffic']:.0%} mb={r['micro_batches']} goodput={r['goodput']:.3f}")


def by_gpu(path: Path, gpus: set[str], min_gpus: int) -> int:
    """``--gpu``: the runs on ``gpus`` by GPU and count, each GPU's signed median, then the throughput rows."""
    runs = [r for r in run_rows(path, min_gpus) if r["gpu"] in gpus]
    table = throughput_rows(gpus)
    for title, rows in (("runs (error of the estimated GPU-hours)", runs),
                        ("throughput tables (error of the estimated tokens/s per GPU)", table)):
        print(title)
        for r in sorted(rows, key=lambda r: (r["gpu"], r["gpus"], r["id"])):
            print("  " + line(r))
        for gpu in sorted({r["gpu"] for r in rows}):
            errs = [r["error"] for r in rows if r["gpu"] == gpu]
            print(f"  {gpu}: {len(errs)} rows, signed median {statistics.median(errs):+.1%}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=Path, default=A.HELDOUT_RUNS)
    ap.add_argument("--min-gpus", type=int, default=None, help="fewest GPUs a run listed used (default 257)")
    ap.add_argument("--families", action="store_true", help="runs of one title and GPU on two counts or more")
    ap.add_argument("--gpu", default="", help="comma-separated gpus.yaml ids: their runs on any count, then the "
                    "throughput tables' rows on them")
    args = ap.parse_args()
    if args.gpu:
        return by_gpu(args.runs, set(args.gpu.split(",")), args.min_gpus or 1)
    args.min_gpus = 257 if args.min_gpus is None else args.min_gpus
    rows = run_rows(args.runs, 1 if args.families else args.min_gpus)
    if args.families:
        fams: dict[tuple[str, str], list[dict]] = {}
        for r in rows:
            fams.setdefault((r["title"].split("(")[0].strip(), r["gpu"]), []).append(r)
        for (title, gpu), runs in sorted(fams.items()):
            if len({r["gpus"] for r in runs}) < 2 or max(r["gpus"] for r in runs) < args.min_gpus:
                continue
            print(f"{title} on {gpu}")
            for r in sorted(runs, key=lambda r: (r["gpus"], r["id"])):
                print("  " + line(r))
        return 0
    for r in sorted(rows, key=lambda r: r["error"]):
        print(line(r))
    if rows:
        errs = [r["error"] for r in rows]
        print(f"{len(rows)} runs on {args.min_gpus}+ GPUs: median {statistics.median(abs(e) for e in errs):.1%}, "
              f"signed {statistics.median(errs):+.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
