"""The ``gpuwise`` command run inside the test process (``gpuwise.cli.main``): what a subprocess
gives -- exit status, standard output, standard error -- without starting Python, importing
gpuwise and loading the knowledge base for every call (about a second each on a small machine).
A few end-to-end tests still start the real process (signals, pipes, the interpreter's encoding,
the console script): they call :func:`process`."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).parent.parent


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None) -> Iterator[None]:
    if not env:
        yield
        return
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def gpuwise(*args: str, cwd: Path | str = ROOT, env: Mapping[str, str] | None = None,
            stdin: str = "") -> subprocess.CompletedProcess:
    """``gpuwise ARGS`` in this process: the exit status ``gpuwise.cli.run`` would give (argparse's
    exits included) and the text of both streams (UTF-8, neither a terminal). ``env``: variables
    set for the call only."""
    from gpuwise import cli

    out, err = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True) for _ in range(2))
    inp = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    saved = sys.stdin, sys.stdout, sys.stderr
    here = os.getcwd()
    sys.stdin, sys.stdout, sys.stderr = inp, out, err
    try:
        with _environment(env):
            os.chdir(cwd)
            try:
                code = cli.main(list(args))
            except SystemExit as exc:  # argparse: --help, --version, bad usage (as cli.run maps it)
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
                if exc.code is not None and not isinstance(exc.code, int):
                    print(exc.code, file=sys.stderr)
    finally:
        os.chdir(here)
        sys.stdin, sys.stdout, sys.stderr = saved
    texts = [s.buffer.getvalue().decode("utf-8") for s in (out, err)]  # type: ignore[attr-defined]
    return subprocess.CompletedProcess(["gpuwise", *args], code, texts[0], texts[1])



def write_yaml(tmp_path: Path, doc: dict, name: str = "q.yaml") -> str:
    """``doc`` written as ``tmp_path/name`` (YAML); the name, to pass to a command run in ``tmp_path``."""
    import yaml

    (tmp_path / name).write_text(yaml.safe_dump(doc), encoding="utf-8")
    return name


def json_of(tmp_path: Path, *args: str) -> dict:
    """``gpuwise ARGS --format json`` run in ``tmp_path``, parsed; a traceback fails the test."""
    import json

    r = gpuwise(*args, "--format", "json", cwd=tmp_path)
    assert "Traceback" not in r.stderr, r.stderr
    return json.loads(r.stdout)


def text_of(tmp_path: Path, *args: str) -> str:
    """``gpuwise ARGS`` run in ``tmp_path``: its standard output with runs of white space made one space (a
    wrapped sentence reads whole); a traceback fails the test."""
    r = gpuwise(*args, cwd=tmp_path)
    assert "Traceback" not in r.stderr, r.stderr
    return " ".join(r.stdout.split())


def process(*args: str, cwd: Path | str = ROOT, env: Mapping[str, str] | None = None,
            timeout: float = 120, **kw) -> subprocess.CompletedProcess:
    """``python -m gpuwise ARGS`` as a real process (this checkout first on the import path)."""
    full = {**os.environ, **(env or {})}
    full["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), full.get("PYTHONPATH", "")) if p)
    return subprocess.run([sys.executable, "-m", "gpuwise", *args], capture_output=True, text=True, cwd=cwd,
                          env=full, timeout=timeout, **kw)
