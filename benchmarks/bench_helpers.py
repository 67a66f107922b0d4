"""What the sections of ``benchmarks/bench.py`` share: where the checkout, its examples and the measured figures
are, gpuwise imported from this checkout, the environment of a child process, timing a call or a command (and two
checkouts taking turns), and the plain-text tables the sections print. Moved out of bench.py (it held 933 lines) with
its peers section (:mod:`benchmarks.bench_peers`), which uses them too.
"""

from __future__ import annotations

import math
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
VALIDATION = ROOT.parent / "shared" / "validation"
GB = 1e9


# ------------------------------------------------------------------------------ helpers
def _engine() -> Any:
    """Import gpuwise from this checkout (before any installed copy)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import gpuwise

    return gpuwise


def _env(root: Path = ROOT) -> dict[str, str]:
    """Environment for child processes: the checkout ``root`` first on the import path, and
    bytecode written (``PYTHONDONTWRITEBYTECODE`` dropped): an installed gpuwise has its ``.pyc``
    files, while a checkout run with that variable set compiles every module in every process
    (about 0.2 s of a whole recommend here), which is not what a user's run costs."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH", "")) if p)
    return env


def stats(samples: Sequence[float]) -> dict[str, float]:
    """Median, p90 (nearest rank), min and max of the samples, in the samples' unit."""
    s = sorted(samples)
    return {"n": len(s), "median": statistics.median(s), "p90": s[max(0, math.ceil(0.9 * len(s)) - 1)],
            "min": s[0], "max": s[-1]}


def seconds(st: dict[str, float]) -> dict[str, float]:
    """``stats`` with its times labelled as seconds (``median_s``...) for the JSON document."""
    return {k if k == "n" else f"{k}_s": v for k, v in st.items()}


def timed(fn: Callable[[], Any], runs: int) -> tuple[Any, list[float]]:
    """The last result of ``fn`` and the wall time of each of ``runs`` calls, in seconds."""
    out, times = None, []
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return out, times


def _children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


LAST_CPU = [0.0]
"""The CPU seconds (user + system) of the last :func:`run_cmd`: on a machine others share, wall
time counts their work too; CPU time is this command's own."""


def run_cmd(argv: list[str], *, cwd: Path | None = None, ok: tuple[int, ...] = (0,),
            timeout: float = 600, env: dict[str, str] | None = None,
            root: Path = ROOT) -> tuple[float, subprocess.CompletedProcess]:
    """Run a command (stdout and stderr captured, so neither is a terminal) with the checkout
    ``root`` first on the import path, in ``root`` unless ``cwd`` says otherwise (``python -m`` and
    ``python -c`` put the working directory before PYTHONPATH: run from this checkout, a baseline's
    runs had timed this checkout's code); its wall time (its CPU time in ``LAST_CPU[0]``)."""
    c0 = _children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.run(argv, cwd=root if cwd is None else cwd, env={**_env(root), **(env or {})},
                          capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    LAST_CPU[0] = _children_cpu() - c0
    if proc.returncode not in ok:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        raise RuntimeError(f"{' '.join(argv[:4])}... exited {proc.returncode}: {' | '.join(tail)}")
    return wall, proc


def time_cmd(argv: list[str], runs: int, cpu: list[float] | None = None, **kw: Any) -> list[float]:
    """Wall times of ``runs`` runs after one warm-up; their CPU times appended to ``cpu``."""
    run_cmd(argv, **kw)  # warm-up: page cache, __pycache__
    walls = []
    for _ in range(runs):
        walls.append(run_cmd(argv, **kw)[0])
        if cpu is not None:
            cpu.append(LAST_CPU[0])
    return walls


def alternate(argv: list[str], runs: int, roots: dict[str, Path], *, fresh: Path | None = None,
              **kw: Any) -> dict[str, dict[str, list[float]]]:
    """``argv`` run ``runs`` times under each checkout in ``roots``, in turn (a, b, a, b ...), after
    one warm-up of each: the wall and CPU seconds of every run, by label. Taking turns spreads the
    load others put on a shared machine evenly over the builds compared.

    ``fresh``: a file ``argv`` names; before every run (warm-ups included) it is rewritten with the
    example's bytes and a comment line of its own, so each run asks a question no run asked
    before: the answer memo (gpuwise/memo.py) never serves it, the knowledge, rule and template
    caches do."""
    out: dict[str, dict[str, list[float]]] = {label: {"wall": [], "cpu": []} for label in roots}
    source = (EXAMPLES / fresh.name).read_bytes() if fresh is not None else b""
    turn = [0]

    def renew() -> None:
        if fresh is not None:
            turn[0] += 1
            fresh.write_bytes(source + f"\n# bench run {turn[0]} {time.time_ns()}\n".encode())

    for root in roots.values():
        renew()
        run_cmd(argv, root=root, **kw)  # warm-up: page cache, __pycache__, gpuwise's own cache
    for _ in range(runs):
        for label, root in roots.items():
            renew()
            wall, _proc = run_cmd(argv, root=root, **kw)
            out[label]["wall"].append(wall)
            out[label]["cpu"].append(LAST_CPU[0])
    return out


def _load() -> str:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}" if load else "load average unknown"


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], align: str = "") -> str:
    """Rows as aligned text; ``align`` gives 'l' or 'r' per column (default: left, then right)."""
    cells = [[str(c) for c in r] for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    align = (align or "l").ljust(len(headers), "r")[:len(headers)]

    def line(vals: Sequence[str]) -> str:
        pairs = zip(vals, widths, align, strict=True)
        return "  ".join(v.ljust(w) if a == "l" else v.rjust(w) for v, w, a in pairs).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in cells)])


def ms(seconds: float | None, digits: int = 1) -> str:
    return "-" if seconds is None else f"{seconds * 1e3:,.{digits}f}"


def gb(nbytes: float | None) -> str:
    return "-" if nbytes is None else f"{nbytes / GB:,.2f}"


def heading(title: str) -> str:
    return f"\n{title}\n{'=' * len(title)}"


def requirement_files() -> list[Path]:
    """The bundled requirements files: every example but the proposals (audit) and the plans (plan)."""
    return sorted(p for p in EXAMPLES.glob("*.yaml") if not p.name.startswith(("proposal-", "plan-")))


# ------------------------------------------------------------------ 1. recommendation time
