"""The package's rooms: no module over the house limit of about 800 lines, and no import cycle
between gpuwise's modules, neither at import time nor through a deferred import inside a
function (a deferred import is still a dependency: the cycle is only hidden until the call)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from . import sources
from .conftest import ROOT

PACKAGE = ROOT / "gpuwise"
MAX_LINES = 800
ALLOWANCE = 20  # "about 800": a docstring's worth over, no more

KNOWN_OVER_THE_LIMIT: dict[str, int] = {}
"""Modules over the limit when this check came, with a ceiling they may not pass: each is to be
split by concern (issue 21 item 4), and then leaves this list."""

KNOWN_DEFERRED_CYCLES: dict[frozenset[str], str] = {
    frozenset({"gpuwise.results", "gpuwise.results_audit"}):
        "results still names the audit's records (gpuwise.results.AuditResult is public API) and imports "
        "results_audit on first use of one (its module __getattr__), when results itself is complete; "
        "results_audit builds on results' records. Kept apart so a recommend process never builds them.",
}
"""Cycles through deferred imports that are known and owned elsewhere, each with why it is left."""


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def import_graph(deferred: bool) -> dict[str, set[str]]:
    """module -> the gpuwise modules it imports (``deferred``: also inside functions). ``from . import
    x`` depends on the submodule ``x``, not on the package; a module's own packages are not edges
    (a package's ``__init__`` re-exporting its children is how Python packages work). A fresh copy
    of the graph each call (a test may add an edge to it); the sources are parsed once per process
    for as long as they are unchanged."""
    return {name: set(deps) for name, deps in _import_graph(deferred, _tree_stamp()).items()}


def _tree_stamp() -> tuple:
    return tuple(sources.stamp(p) for p in sources.modules(PACKAGE))


@functools.cache
def _import_graph(deferred: bool, _stamp: tuple) -> dict[str, frozenset[str]]:
    mods = _modules()
    graph: dict[str, frozenset[str]] = {}
    for name, path in mods.items():
        is_pkg = path.name == "__init__.py"
        tree = sources.tree(path)
        nodes = sources.walk(tree) if deferred else iter(tree.body)
        deps: set[str] = set()
        for node in nodes:
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".")
                    base = base[: len(base) - node.level + (1 if is_pkg else 0)]
                    mod = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    mod = node.module or ""
                subs = [f"{mod}.{a.name}" for a in node.names if f"{mod}.{a.name}" in mods]
                targets = subs + ([mod] if len(subs) < len(node.names) else [])
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            deps.update(t for t in targets if t in mods and t != name and not name.startswith(t + "."))
        graph[name] = frozenset(deps)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.add(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(frozenset(comp))
    return out


def test_no_module_is_over_the_house_limit():
    big = {str(p.relative_to(ROOT)): n for p in sources.modules(PACKAGE)
           if (n := len(sources.text(p).splitlines())) > MAX_LINES + ALLOWANCE}
    grown = {k: n for k, n in big.items() if n > KNOWN_OVER_THE_LIMIT.get(k, MAX_LINES + ALLOWANCE)}
    assert not grown, f"modules over ~{MAX_LINES} lines (split them by concern): {grown}"
    gone = sorted(set(KNOWN_OVER_THE_LIMIT) - set(big))
    assert not gone, f"these modules are within the limit now: remove them from KNOWN_OVER_THE_LIMIT: {gone}"


def test_no_import_cycle_at_import_time():
    assert not cycles(import_graph(deferred=False))


def test_no_import_cycle_through_deferred_imports_but_the_known_ones():
    found = set(cycles(import_graph(deferred=True)))
    assert not found - set(KNOWN_DEFERRED_CYCLES), sorted(sorted(c) for c in found - set(KNOWN_DEFERRED_CYCLES))
    gone = set(KNOWN_DEFERRED_CYCLES) - found
    assert not gone, f"these cycles are gone: remove them from KNOWN_DEFERRED_CYCLES: {sorted(map(sorted, gone))}"


@pytest.mark.parametrize("pair", [("gpuwise.decide.estimate", "gpuwise.decide.recommend"),
                                  ("gpuwise.render.output", "gpuwise.render.report")])
def test_the_cycles_the_issue_named_are_gone(pair):
    """Issue 21: estimate <-> recommend and output <-> report; neither may import the other back."""
    graph = import_graph(deferred=True)
    a, b = pair
    assert not (b in graph[a] and a in graph[b])


def test_the_cycle_check_finds_a_cycle():
    """The check can fail: a made-up graph with a three-module loop and a self-standing pair."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": set()}
    assert cycles(graph) == [frozenset({"a", "b", "c"})]
    real = import_graph(deferred=True)
    real["gpuwise.estimators.memory"] = real["gpuwise.estimators.memory"] | {"gpuwise.decide.recommend"}
    assert any({"gpuwise.estimators.memory", "gpuwise.decide.recommend"} <= c for c in cycles(real))


def test_imports_inside_functions_are_edges():
    """The deferred graph reads imports inside functions: the command line imports the recommendation
    only in ``_recommend`` (so ``gpuwise --help`` stays quick), an edge the import-time graph lacks
    and the cycle check must still see."""
    assert "gpuwise.decide.recommend" in import_graph(deferred=True)["gpuwise.cli"]
    assert "gpuwise.decide.recommend" not in import_graph(deferred=False)["gpuwise.cli"]
    assert "gpuwise.cli" not in import_graph(deferred=True)["gpuwise.batch"]
