"""The validation rows of one blind round: a CSV under tests/data/validation read once, its ids by prefix and range.

Each round's row tests (tests/test_serving_rows_*.py) hold their own ids only; this is the one reader they share."""
from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "validation"


def rows_in(name: str, prefix: str, lo: int, hi: int) -> dict[str, dict]:
    """The rows of ``DATA / name`` whose id is ``prefix`` and a number from ``lo`` to ``hi`` (both kept), by id."""
    with (DATA / name).open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh)
                if r["id"][:len(prefix)] == prefix and r["id"][len(prefix):].isdigit()
                and lo <= int(r["id"][len(prefix):]) <= hi}


def log_key(source: str) -> str:
    """An MLPerf log by its round and its path: a fork's copy or another commit of the same round is the same log; the
    same results path a round later is another run (Google's DGX B200 in v5.1 and v6.0)."""
    return re.sub(r"^https://github.com/[^/]+/(inference_results_v[\d.]+)/blob/[0-9a-f]+/", r"\1/", source)


def assert_logs_read_once(rows: dict[str, dict], logs: dict) -> None:
    """An MLPerf round's rows each read their own log, and no row of another blind round (any validation CSV)
    reads it (:func:`log_key`)."""
    sources = [log_key(r["source"]) for r in rows.values()]
    assert len(set(sources)) == len(sources)
    others: set[str] = set()
    for name in ("serving_independent.csv", "serving_rate.csv", "decode_independent.csv"):
        with (DATA / name).open(newline="") as fh:
            others |= {log_key(r["source"]) for r in csv.DictReader(fh) if r["id"] not in logs}
    assert not set(sources) & others


def assert_rate_rows_within(rows: dict[str, dict], logs: dict, band: tuple[float, float]) -> None:
    """The harness (benchmarks/accuracy.py's rate cases) estimates every row of a round, none refused, each within
    the round's blind band of its published output tokens/s."""
    sys.path.insert(0, str(DATA.parents[2] / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    cases = {c[0].split()[0]: c for c in accuracy.rate_cases(kb) if c[0].split()[0] in rows and "out tok" in c[0]}
    assert sorted(cases) == sorted(logs)  # none refused, none without a figure
    for row_id, (label, est, published) in cases.items():
        assert published == float(rows[row_id]["output_tokens_per_s"]), label
        assert band[0] <= est / published <= band[1], label


def serving_ratios(kb, tmp_path: Path, ids) -> dict[str, float]:
    """The harness (benchmarks/accuracy_serving.serving_cases) over the serving_independent.csv rows ``ids`` only,
    written to a CSV of their own under ``tmp_path``: each row's estimate over its published figure, by id."""
    sys.path.insert(0, str(DATA.parents[2]))
    import benchmarks.accuracy_serving as acc

    with (DATA / "serving_independent.csv").open(newline="") as fh:
        reader = csv.DictReader(fh)
        fields, rows = reader.fieldnames, [r for r in reader if r["id"] in ids]
    path = tmp_path / "rows.csv"
    with path.open("w", newline="") as fh:
        out = csv.DictWriter(fh, fieldnames=fields)
        out.writeheader()
        out.writerows(rows)
    return {label.split()[0]: est / meas for label, est, meas in acc.serving_cases(kb, path)}
