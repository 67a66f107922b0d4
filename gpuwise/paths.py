"""Where the data directories live, in a checkout and after ``pip install .``.

In a source checkout ``knowledge/``, ``rules/`` and ``reports/`` sit beside the
``gpuwise`` package; a wheel carries them inside it as ``gpuwise/_data/``.
"""

from __future__ import annotations

import os
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


def dir_stamp(path: str | os.PathLike[str]) -> str:
    """The name, size and modification time of each entry of directory ``path`` (through links):
    a process that loaded an overlay or house rules once sees an edited file as a new directory.
    Empty where the directory cannot be listed (its loader then says what is wrong)."""
    try:
        with os.scandir(path) as entries:
            parts = []
            for e in entries:
                try:
                    st = e.stat()
                except OSError:
                    parts.append(f"{e.name}\0?")
                    continue
                parts.append(f"{e.name}\0{st.st_size}\0{st.st_mtime_ns}")
    except (OSError, ValueError):
        return ""
    return "\n".join(sorted(parts))
