"""Shared fixtures: the knowledge base and paths to the copied validation data."""

from __future__ import annotations

import csv
import functools
import json
import os
from pathlib import Path

import pytest

# The per-user cache (gpuwise/cache.py) is keyed by the files' bytes; tests that patch loaders or
# schemas in memory must see a fresh load, so the suite runs without it (tests/test_cache.py
# turns it on in a directory of its own).
os.environ.setdefault("GPUWISE_NO_CACHE", "1")

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="session")
def kb():
    from gpuwise import knowledge

    return knowledge.load()


@pytest.fixture(scope="session")
def accuracy():
    """benchmarks/accuracy.py: the one place that maps validation rows to estimator calls."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("gpuwise_accuracy", ROOT / "benchmarks" / "accuracy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def validation_rows(name: str) -> list[dict]:
    with open(DATA / "validation" / name, newline="") as fh:
        return list(csv.DictReader(fh))


def memtracker_rows() -> list[dict]:
    return [json.loads(line) for line in (DATA / "memtracker_cpu.jsonl").read_text().splitlines() if line]


@pytest.fixture
def questions_read_once(monkeypatch):
    """``gpuwise ask`` reads and checks questions.yaml at every start (0.1 s: PyYAML's pure-Python
    loader); the test modules that drive it dozens of times share one read of the same file (a
    frozen Questionnaire, built by the real loader). A call with a path still reads that file."""
    from gpuwise.ask import questionnaire

    real = questionnaire.load_questions
    once = _questions()
    monkeypatch.setattr(questionnaire, "load_questions", lambda path=None: once if path is None else real(path))


@functools.cache
def _questions():
    from gpuwise.ask.questionnaire import load_questions

    return load_questions()
