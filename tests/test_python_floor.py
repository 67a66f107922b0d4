"""The package runs on the oldest Python it claims (3.10, pyproject's requires-python): the
regular-expression syntax that only 3.11's ``re`` reads, possessive quantifiers (``*+``, ``++``,
``?+``, ``{m,n}+``) and atomic groups (``(?>...)``), is a ``re.error`` at import on 3.10, so every
run there failed (2100d70b). The suite runs on one Python; this reads the patterns' text."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from .conftest import ROOT

PACKAGE = ROOT / "gpuwise"
RE_CALLS = {"compile", "match", "fullmatch", "search", "findall", "finditer", "sub", "subn", "split"}

NEWER_THAN_310 = re.compile(r"(?<!\\)(?:[*+?}])\+|\(\?>")
"""A quantifier followed by ``+`` (possessive) or ``(?>`` (atomic). ``\\*+`` (an escaped star
repeated) is not one: the look-behind skips a quantifier character written escaped."""
MAY_HOLD_ONE = re.compile(r"[*+?}]\+|\(\?>")
"""What a module's source must hold for one of its patterns to be newer: a pattern's text stands
in the source as written (raw or not, ``*+`` and ``(?>`` need no escaping), so a module without
it is not parsed (parsing all of them took 1.7 CPU-s)."""


def _patterns(path: Path) -> list[tuple[int, str]]:
    """Every literal pattern given to a ``re`` function in ``path``, with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in RE_CALLS
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re" and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, (str, bytes))):
            value = node.args[0].value
            found.append((node.lineno, value.decode("latin-1") if isinstance(value, bytes) else value))
    return found


def test_the_walk_reads_a_modules_patterns() -> None:
    texts = [text for _, text in _patterns(PACKAGE / "render" / "formats.py")]
    assert ' *(?:"(?:[^"\\\\]|\\\\.)*": )?' in texts  # formats' _HEAD, read as its bytes hold it


@pytest.mark.parametrize("text, newer", [
    (rb' *(?:"(?:[^"\\]|\\.)*+": )?'.decode(), True),  # the pattern 2100d70b fixed
    (r"a++", True), (r"a?+", True), (r"a{2,3}+", True), (r"(?>ab)", True),
    (rb' *(?:"(?:[^"\\]|\\.)*": )?'.decode(), False), (r"\*+", False), (r"[0-9]+", False), (r"a{2,3}", False),
])
def test_the_check_tells_311_syntax(text: str, newer: bool) -> None:
    assert bool(NEWER_THAN_310.search(text)) is newer
    if newer:
        assert MAY_HOLD_ONE.search(text)  # the source filter never skips a module holding one


def test_no_pattern_needs_python_311() -> None:
    late = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if "re." in source and MAY_HOLD_ONE.search(source):
            late += [f"{path.relative_to(ROOT)}:{line}: {text!r}" for line, text in _patterns(path)
                     if NEWER_THAN_310.search(text)]
    assert not late, "patterns only Python 3.11's re reads:\n" + "\n".join(late)
