"""The validation rows of one blind round: a CSV under tests/data/validation read once, its ids by prefix and range.

Each round's row tests (tests/test_serving_rows_*.py) hold their own ids only; this is the one reader they share."""
from __future__ import annotations

import csv
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "validation"


def rows_in(name: str, prefix: str, lo: int, hi: int) -> dict[str, dict]:
    """The rows of ``DATA / name`` whose id is ``prefix`` and a number from ``lo`` to ``hi`` (both kept), by id."""
    with (DATA / name).open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh)
                if r["id"][:len(prefix)] == prefix and r["id"][len(prefix):].isdigit()
                and lo <= int(r["id"][len(prefix):]) <= hi}
