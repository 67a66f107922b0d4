"""The CSV rows the accuracy cases read (benchmarks/accuracy.py and its case modules): the project root, a
file's rows by folder and name, and a file's scored rows (``use`` = 1)."""

from __future__ import annotations

import csv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _rows(directory: Path, name: str) -> list[dict]:
    with open(directory / name, newline="") as fh:
        return list(csv.DictReader(fh))


def _scored_rows(path: Path, scored: bool) -> list[dict]:
    """A CSV's rows; ``scored``: only those marked use=1 (the others' notes say why they are not scored)."""
    with open(path, newline="") as fh:
        return [row for row in csv.DictReader(fh) if not scored or row["use"] == "1"]
