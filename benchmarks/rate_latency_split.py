"""The request-rate latency set of benchmarks/accuracy.py split by what sets its error.

Each row of tests/data/validation/serving_rate.csv goes through the same request-rate answer as
``accuracy_serving.rate_cases``; beside each latency case it prints what sets it:

* ``load``: the offered rate over the rate gpuwise's copies serve with a full scheduler (``rate.slots``);
* ``b`` / ``c``: gpuwise's mean batch a copy at that rate, and its slots;
* ``B pub``: the batch a copy held in the run, by Little's law on the published means (or p50 where no mean is
  published): rate a copy x (TTFT + (output - 1) x TPOT);
* ``step``: gpuwise's TPOT at the published batch over the published TPOT -- whether the step model agrees with the
  run at the run's own batch (the capacity), apart from the queue that sets the batch.

Then the median |error| (and signed median) by load band, by measure, by framework, and by whether the step agrees
(within 20%). ``--causes`` (branch ratelat66) instead groups the figures beyond 2x of accuracy.py's set (every figure
``rate_cases`` scores, finite runs included) by what sets them (:func:`cause`).
``python benchmarks/rate_latency_split.py [--rows | --causes]`` (``--rows``: one line a case)."""

from __future__ import annotations

import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from benchmarks.accuracy_rows import _rows
from benchmarks.accuracy_serving import RATE, rate_row_served

MEASURES = (("ttft_ms", "TTFT mean"), ("ttft_p95_ms", "TTFT p95"), ("tpot_ms", "TPOT mean"),
            ("tpot_p95_ms", "TPOT p95"), ("tpot_p50_ms", "TPOT p50"))


def cases(kb, path: Path = RATE) -> list[dict]:
    """Every latency case of ``path`` (serving_rate.csv's columns) whose rate the copies keep up with, as a dict:
    id, measure, framework, load, gpuwise's batch ``b`` and slots ``c``, the run's batch ``b_pub``, ``step``, the
    estimate and the published figure (ms) and the error."""
    from gpuwise.estimators.serving import rate as RT

    out = []
    for row in _rows(path.parent, path.name):
        rate = float(row["request_rate"])
        job, s = rate_row_served(kb, row)
        at = s.rate.at_rate if s.rate is not None else None
        if at is None or not at.stable:
            continue
        c = RT.slots(job, s.engine, s.replica)
        full = RT.colocated(job, s.engine, s.replica, c * (1 - 1e-6))
        reps = s.replica.layout.replicas
        out_tokens = int(row["output_tokens"])
        ttft_pub = float(row.get("ttft_ms") or row.get("ttft_p50_ms") or "nan") / 1e3
        tpot_pub = float(row.get("tpot_ms") or row.get("tpot_p50_ms") or "nan") / 1e3
        b_pub = rate / reps * (ttft_pub + (out_tokens - 1) * tpot_pub)
        step = (RT.at_batch(job, s.engine, s.replica, b_pub).tpot / tpot_pub
                if math.isfinite(b_pub) else math.nan)
        est = {"ttft_ms": at.ttft_mean, "ttft_p95_ms": at.ttft_p95, "tpot_ms": at.tpot_mean,
               "tpot_p95_ms": at.tpot_p95, "tpot_p50_ms": at.tpot_mean}
        for col, name in MEASURES:
            if row.get(col):
                out.append({"id": row["id"], "measure": name, "fw": row["framework"],
                            "load": rate / full.requests_per_s, "b": at.batch, "c": c, "b_pub": b_pub, "step": step,
                            "est": est[col] * 1e3, "pub": float(row[col]),
                            "err": est[col] * 1e3 / float(row[col]) - 1})
    return out


CAUSES = ("capacity at or below the offered rate", "the step at the run's batch", "the batch in flight",
          "the first token beyond the batch")
"""The groups of :func:`cause`, in its order."""


def cause(case: tuple[str, float, float], row: dict, pub_tpot: float) -> str:
    """What sets one latency figure of ``rate_cases`` (label, estimate, published), ``row`` its row's dict from
    :func:`row_facts`, ``pub_tpot`` the row's published mean (else p50) TPOT in ms: the copies' full rate at or below
    the offered one (load within the rate answer's 0.1% tolerance, or beyond it: the queue grows or stands at the
    edge); else a TPOT, or a TTFT whose ratio to the TPOT is within 1.5x of the published one (its error is the
    TPOT's: the steps the prompt waits), by the step model at the run's own batch (Little's law on the published
    means) off by more than 20% (:data:`CAUSES` [1]) or agreeing while the batch in flight is not the run's ([2]);
    else a TTFT the batch does not explain: the prompt's own queue, its scheduling or the harness's ([3])."""
    label, est, pub = case
    if row["load"] >= 1 - 1e-3 or not row["stable"]:
        return CAUSES[0]
    carried = CAUSES[1] if math.isfinite(row["step"]) and abs(row["step"] - 1) > 0.2 else CAUSES[2]
    if "TTFT" not in label:
        return carried
    ratio = (est / (row["tpot"] * 1e3)) / (pub / pub_tpot) if math.isfinite(pub_tpot) else math.nan
    return carried if 1 / 1.5 <= ratio <= 1.5 else CAUSES[3]


def row_facts(kb, path: Path = RATE) -> dict[str, dict]:
    """Per row of ``path``: the load (offered rate over the copies' full rate), whether the rate answer keeps up,
    gpuwise's mean TPOT there (s) and the step at the run's batch over the published TPOT (NaN where no TPOT or
    TTFT is published)."""
    from gpuwise.estimators.serving import rate as RT

    out = {}
    for row in _rows(path.parent, path.name):
        job, s = rate_row_served(kb, row)
        at = s.rate.at_rate if s.rate is not None else None
        if at is None:
            continue
        c = RT.slots(job, s.engine, s.replica)
        full = RT.colocated(job, s.engine, s.replica, c * (1 - 1e-6))
        ttft_pub = float(row.get("ttft_ms") or row.get("ttft_p50_ms") or "nan") / 1e3
        tpot_pub = float(row.get("tpot_ms") or row.get("tpot_p50_ms") or "nan") / 1e3
        b_pub = float(row["request_rate"]) / s.replica.layout.replicas * (
            ttft_pub + (int(row["output_tokens"]) - 1) * tpot_pub)
        step = (RT.at_batch(job, s.engine, s.replica, b_pub).tpot / tpot_pub
                if math.isfinite(b_pub) and b_pub > 0 else math.nan)
        out[row["id"]] = {"load": float(row["request_rate"]) / full.requests_per_s, "stable": at.stable,
                          "tpot": at.tpot_mean, "step": step, "pub_tpot": tpot_pub * 1e3}
    return out


def causes(kb, path: Path = RATE) -> dict[str, list[tuple[str, float, float]]]:
    """The figures of accuracy.py's rate-latency set beyond 2x (est / pub outside [0.5, 2]), grouped by
    :func:`cause`."""
    from benchmarks.accuracy_serving import rate_cases

    lat: list = []
    rate_cases(kb, path, latency=lat)
    facts = row_facts(kb, path)
    out: dict[str, list] = {k: [] for k in CAUSES}
    for case in lat:
        if not 0.5 <= case[1] / case[2] <= 2.0:
            row = facts[case[0].split()[0]]
            out[cause(case, row, row["pub_tpot"])].append(case)
    return out


def band(load: float) -> str:
    for top, name in ((0.5, "load < 50%"), (0.8, "50-80%"), (0.95, "80-95%"), (0.99, "95-99%")):
        if load < top:
            return name
    return ">= 99%"


def summary(title: str, groups: dict[str, list[dict]]) -> None:
    print(f"\n{title}")
    for key in sorted(groups):
        g = groups[key]
        ab = [abs(x["err"]) for x in g]
        print(f"  {key:28} {len(g):4}  median |err| {statistics.median(ab):6.1%}  mean {statistics.mean(ab):8.1%}  "
              f"signed median {statistics.median([x['err'] for x in g]):+7.1%}")


def main() -> int:
    from gpuwise import knowledge

    if "--causes" in sys.argv:
        groups = causes(knowledge.load())
        print(f"beyond 2x: {sum(map(len, groups.values()))} figures")
        for name, got in groups.items():
            ids = sorted({c[0].split()[0] for c in got})
            print(f"  {name}: {len(got)} figures, {len(ids)} rows: {' '.join(ids)}")
        return 0
    got = cases(knowledge.load())
    if "--rows" in sys.argv:
        for x in sorted(got, key=lambda x: (x["load"], x["id"])):
            print(f"{x['id']:5} {x['measure']:10} {x['fw'][:12]:12} load {x['load']:6.1%} b {x['b']:8.1f} c {x['c']:5} "
                  f"B pub {x['b_pub']:8.1f} step {x['step']:5.2f}  est {x['est']:9.1f} pub {x['pub']:9.1f} "
                  f"{x['err']:+7.1%}")
    summary("all", {"all": got})
    for title, key in (("by load (offered rate / gpuwise's full rate)", lambda x: band(x["load"])),
                       ("by measure", lambda x: x["measure"]), ("by framework", lambda x: x["fw"]),
                       ("by the step at the run's batch (gpuwise TPOT / published, Little's law batch)",
                        lambda x: "step within 20%" if abs(x["step"] - 1) <= 0.2 else
                        ("step slow > 20%" if x["step"] > 1 else "step fast > 20%")),
                       ("by gpuwise batch / the run's batch",
                        lambda x: "b within 25% of run" if abs(x["b"] / x["b_pub"] - 1) <= 0.25 else
                        ("b above run" if x["b"] > x["b_pub"] else "b below run"))):
        groups: dict[str, list[dict]] = defaultdict(list)
        for x in got:
            groups[key(x)].append(x)
        summary(title, groups)
    groups = defaultdict(list)
    for x in got:
        groups[f"{x['measure'][:4]} {band(x['load'])}"].append(x)
    summary("TTFT / TPOT by load", groups)
    return 0


if __name__ == "__main__":
    sys.exit(main())
