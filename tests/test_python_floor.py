"""The package runs on the oldest Python it claims (3.10, pyproject's requires-python): the
regular-expression syntax that only 3.11's ``re`` reads, possessive quantifiers (``*+``, ``++``,
``?+``, ``{m,n}+``) and atomic groups (``(?>...)``), is a ``re.error`` at import on 3.10, so every
run there failed (2100d70b). The suite runs on one Python; this reads the patterns' text."""

from __future__ import annotations

import ast
import re

import pytest

from .conftest import ROOT

PACKAGE = ROOT / "gpuwise"
RE_CALLS = {"compile", "match", "fullmatch", "search", "findall", "finditer", "sub", "subn", "split"}

NEWER_THAN_310 = re.compile(r"(?<!\\)(?:[*+?}])\+|\(\?>")
"""A quantifier followed by ``+`` (possessive) or ``(?>`` (atomic). ``\\*+`` (an escaped star
repeated) is not one: the look-behind skips a quantifier character written escaped."""


def _patterns() -> list[tuple[str, int, str]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in RE_CALLS
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "re" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, (str, bytes))):
                value = node.args[0].value
                text = value.decode("latin-1") if isinstance(value, bytes) else value
                found.append((str(path.relative_to(ROOT)), node.lineno, text))
    return found


def test_the_package_has_patterns_to_read() -> None:
    assert len(_patterns()) > 20  # the walk finds the package's patterns (it would pass on none)


@pytest.mark.parametrize("text, newer", [
    (rb' *(?:"(?:[^"\\]|\\.)*+": )?'.decode(), True),  # the pattern 2100d70b fixed
    (r"a++", True), (r"a?+", True), (r"a{2,3}+", True), (r"(?>ab)", True),
    (rb' *(?:"(?:[^"\\]|\\.)*": )?'.decode(), False), (r"\*+", False), (r"[0-9]+", False), (r"a{2,3}", False),
])
def test_the_check_tells_311_syntax(text: str, newer: bool) -> None:
    assert bool(NEWER_THAN_310.search(text)) is newer


def test_no_pattern_needs_python_311() -> None:
    late = [f"{path}:{line}: {text!r}" for path, line, text in _patterns() if NEWER_THAN_310.search(text)]
    assert not late, "patterns only Python 3.11's re reads:\n" + "\n".join(late)
