"""gpuwise's own source files, read and parsed once per test process.

Several checks walk the syntax tree of every module (import cycles, one definition of each
figure, no English read back, no number bag); parsing the whole package again for each was a
large share of the suite's time. Entries are keyed by the file's path, size and modification
time, so a file a test writes (under ``tmp_path``) or edits is read afresh. The trees are shared:
a check walks them and never changes them.
"""

from __future__ import annotations

import ast
import functools
import os
from pathlib import Path

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "gpuwise"


def modules(root: Path = PACKAGE) -> list[Path]:
    """Every ``*.py`` under ``root``, sorted."""
    return sorted(root.rglob("*.py"))


def stamp(path: Path) -> tuple[str, int, int]:
    st = os.stat(path)
    return str(path), st.st_size, st.st_mtime_ns


def text(path: Path) -> str:
    """The file's text (UTF-8)."""
    return _read(*stamp(path))


def tree(path: Path) -> ast.Module:
    """The file's syntax tree (shared: do not change it)."""
    return _parse(*stamp(path))


def walk(node: ast.AST) -> tuple[ast.AST, ...]:
    """``ast.walk(node)`` (the same nodes in the same order) for a node of a shared tree, listed
    once per process: a walk of the whole package, a generator of generators, cost about 0.2 s
    each time, and a dozen checks walk it. Only for :func:`tree`'s trees, which are never changed
    or freed (the list is keyed by the node itself)."""
    return _walk(node)


@functools.cache
def _read(path: str, _size: int, _mtime: int) -> str:
    return Path(path).read_text(encoding="utf-8")


@functools.cache
def _walk(node: ast.AST) -> tuple[ast.AST, ...]:
    return tuple(ast.walk(node))


@functools.cache
def _parse(path: str, size: int, mtime: int) -> ast.Module:
    return ast.parse(_read(path, size, mtime))
