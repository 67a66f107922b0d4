"""Where the data directories live, in a checkout and after ``pip install .``.

In a source checkout ``knowledge/``, ``rules/`` and ``reports/`` sit beside the
``gpuwise`` package; a wheel carries them inside it as ``gpuwise/_data/``.
"""

from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The directory ``name`` (``knowledge``, ``rules`` or ``reports``)."""
    for candidate in (_PKG / "_data" / name, _PKG.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"gpuwise data directory {name!r} not found next to {_PKG}")


def knowledge_dir() -> Path:
    return data_dir("knowledge")


def rules_dir() -> Path:
    return data_dir("rules")


def templates_dir() -> Path:
    return data_dir("reports") / "templates"
