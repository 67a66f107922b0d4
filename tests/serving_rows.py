"""A row of tests/data/validation/serving_independent.csv and the job the accuracy harness builds from it, for the
serving tests that rebuild one row's job by hand (the paced and length-distribution runs)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from gpuwise.estimators import serving as SV

ROWS = Path(__file__).parent / "data" / "validation" / "serving_independent.csv"


def serving_row(rid: str) -> dict:
    with open(ROWS, newline="") as fh:
        return next(r for r in csv.DictReader(fh) if r["id"] == rid)


def row_job(kb: Any, accuracy: Any, rid: str, offline: bool = False) -> tuple[dict, Any, Any]:
    """The row, its job with every stated condition (layout, KV precision, release, workload options) and the
    replica ``serving.choose`` picks on the row's GPUs."""
    row = serving_row(rid)
    job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                               int(row["output_tokens"]), int(row["concurrency"]), int(row["tp"]), int(row["pp"]),
                               int(row["ep"]) if row["ep"] else None, row.get("kv_precision") or None,
                               row.get("framework_version") or None, row.get("workload_options") or "",
                               offline=offline)
    return row, job, SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))
