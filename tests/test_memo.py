"""The memo of whole answers (gpuwise/memo.py): a repeated ``recommend`` replays the first run's
output byte for byte; anything the answer depends on changing -- the input's bytes, an overlay, the
environment, the command line -- computes it afresh; a run that writes a file is never memoised;
a bad entry is ignored; ``GPUWISE_NO_CACHE=1`` turns it off."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpuwise import memo

from .conftest import ROOT

EXAMPLE = ROOT / "examples" / "qlora-70b-4090.yaml"


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path / "xdg"),
           "GPUWISE_NO_CACHE": "0", **extra}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _run(argv: list[str], env: dict[str, str], cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gpuwise", *argv], capture_output=True, env=env, cwd=cwd,
                          timeout=300)


def _entries(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "xdg" / "gpuwise").glob("answer-*.memo"))


def test_a_repeat_replays_the_first_answer_byte_for_byte(tmp_path):
    env = _env(tmp_path)
    argv = ["recommend", str(EXAMPLE), "--format", "json"]
    first = _run(argv, env)
    assert first.returncode == 0, first.stderr
    (entry,) = _entries(tmp_path)
    again = _run(argv, env)
    assert (again.returncode, again.stdout, again.stderr) == (first.returncode, first.stdout, first.stderr)
    if os.path.exists("/dev/full"):  # replayed onto a full disk: the answer is lost, so one line and exit 2 as
        with open("/dev/full", "wb") as full:  # the run itself gives (tests/test_odd_paths.py), not exit 0
            lost = subprocess.run([sys.executable, "-m", "gpuwise", *argv], stdout=full, stderr=subprocess.PIPE,
                                  env=env, cwd=ROOT, timeout=300)
        assert (lost.returncode, lost.stderr) == (2, b"gpuwise: cannot write the output: No space left on device\n")
    # the repeat came from the entry: an entry whose bytes say otherwise is what is printed


    _ops, _code, digest = marshal.loads(entry.read_bytes())
    entry.write_bytes(marshal.dumps(([(1, b"from the memo\n"), (-1, b"")], 1, digest)))
    replayed = _run(argv, env)
    assert (replayed.returncode, replayed.stdout) == (1, b"from the memo\n")


def test_what_the_answer_depends_on_is_in_the_key(tmp_path, monkeypatch):
    req = tmp_path / "req.yaml"
    req.write_bytes(EXAMPLE.read_bytes())
    argv = ["recommend", str(req)]
    monkeypatch.setenv("GPUWISE_NO_CACHE", "0")
    base = memo.key(argv)
    assert base is not None and memo.key(argv) == base
    assert memo.key([*argv, "--format", "json"]) != base
    monkeypatch.setenv("COLUMNS", "61")
    assert memo.key(argv) != base
    monkeypatch.delenv("COLUMNS")
    req.write_bytes(EXAMPLE.read_bytes() + b"\n# edited\n")
    assert memo.key(argv) != base
    overlay = tmp_path / "kb"
    overlay.mkdir()
    with_overlay = memo.key([*argv, "--knowledge", str(overlay)])
    (overlay / "policy.yaml").write_text("memory_headroom_fraction: 0.2\n")
    assert memo.key([*argv, "--knowledge", str(overlay)]) not in (None, with_overlay)
    monkeypatch.setenv("GPUWISE_NO_CACHE", "1")
    assert memo.key(argv) is None


@pytest.mark.parametrize("argv", [
    ["recommend", "X", "-o", "out.md"], ["recommend", "X", "--output=out.md"], ["recommend", "X", "--out", "r.md"],
    ["recommend", "-"], ["recommend", "X", "--help"], ["audit", "X"], ["recommend", "X", "--format"],
    ["recommend", "/dev/null"], [],
])
def test_runs_that_write_files_or_read_a_stream_are_not_memoised(argv, monkeypatch):
    monkeypatch.setenv("GPUWISE_NO_CACHE", "0")
    argv = [str(EXAMPLE) if a == "X" else a for a in argv]
    assert memo.key(argv) is None


def test_an_edited_input_is_answered_afresh_and_a_bad_entry_is_ignored(tmp_path):
    env = _env(tmp_path)
    req = tmp_path / "req.yaml"
    req.write_bytes(EXAMPLE.read_bytes())
    first = _run(["recommend", str(req), "--format", "json"], env)
    (entry,) = _entries(tmp_path)
    entry.write_bytes(b"not a memo")
    again = _run(["recommend", str(req), "--format", "json"], env)
    assert (again.returncode, again.stdout) == (first.returncode, first.stdout)
    assert entry.read_bytes() != b"not a memo"  # rewritten by the run that computed it
    # the input's bytes changed (a comment added): computed afresh, a second entry
    req.write_bytes(EXAMPLE.read_bytes() + b"\n# another file\n")
    edited = _run(["recommend", str(req), "--format", "json"], env)
    assert edited.returncode == first.returncode and len(_entries(tmp_path)) == 2


def test_a_report_file_run_and_no_cache_write_no_entry(tmp_path):
    out = tmp_path / "report.md"
    assert _run(["recommend", str(EXAMPLE), "-o", str(out)], _env(tmp_path)).returncode == 0
    assert out.exists() and _entries(tmp_path) == []
    assert _run(["recommend", str(EXAMPLE)], _env(tmp_path, GPUWISE_NO_CACHE="1")).returncode == 0
    assert _entries(tmp_path) == []
