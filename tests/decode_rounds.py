"""What every blind round of single-stream rows (tests/data/validation/decode_independent.csv, one id prefix a
round) checks the same way: the round's rows, their estimates in the accuracy report, and that each row is
estimated and scored against the figure the file holds. Each round's own test file adds what its source prints."""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

import pytest

ROWS = Path(__file__).parent / "data" / "validation" / "decode_independent.csv"


def rows(prefix: str) -> dict[str, dict]:
    """The round's rows by id."""
    with ROWS.open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"].startswith(prefix)}


def estimates(kb: Any, accuracy: Any, prefix: str) -> dict[str, tuple[float, float]]:
    """id -> (gpuwise's tokens/s, the row's) as benchmarks/accuracy.py scores the round."""
    return {label.split()[0]: (est, got) for label, est, got in
            accuracy.single_stream_cases(kb, accuracy.DECODE_INDEPENDENT) if label.startswith(prefix)}


def assert_estimated(estimated: dict[str, tuple[float, float]], row: dict, row_id: str) -> None:
    """The row stays in the accuracy report, with a finite positive estimate, scored against its own figure."""
    assert row_id in estimated, f"{row_id} dropped out of the accuracy report"
    est, got = estimated[row_id]
    assert math.isfinite(est) and est > 0
    assert got == pytest.approx(float(row["decode_tok_s"]))


def assert_near_blind(estimated: dict[str, tuple[float, float]], blind: dict[str, float], skip: set[str],
                      band: float = 10.0) -> None:
    """Every row not moved on purpose (``skip``) still reads within ``band`` points of its blind error (%)."""
    for row_id in blind:
        if row_id in skip:
            continue
        est, got = estimated[row_id]
        assert abs((est / got - 1) * 100 - blind[row_id]) <= band, row_id


def assert_moved_closer(estimated: dict[str, tuple[float, float]], blind: dict[str, float], moved: set[str]) -> None:
    """Each row a later mechanism moved reads closer to its measurement than it did blind."""
    for row_id in sorted(moved):
        est, got = estimated[row_id]
        assert abs(est / got - 1) * 100 < abs(blind[row_id]), row_id
