"""Shared fixtures: the knowledge base and paths to the copied validation data."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="session")
def kb():
    from engine import knowledge

    return knowledge.load()


def validation_rows(name: str) -> list[dict]:
    with open(DATA / "validation" / name, newline="") as fh:
        return list(csv.DictReader(fh))


def memtracker_rows() -> list[dict]:
    return [json.loads(line) for line in (DATA / "memtracker_cpu.jsonl").read_text().splitlines() if line]
