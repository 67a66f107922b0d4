"""`gpuwise ask` in a real pseudo-terminal (pexpect): what only a terminal shows.

The flows themselves are tested through the API in test_questionnaire.py; here the real
command runs: raw-mode key handling, Ctrl-C as a key press, exit statuses.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from engine.ask.questionnaire import load_questions

pexpect = pytest.importorskip("pexpect")
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")

ROOT = Path(__file__).resolve().parents[1]
QN = load_questions()

# the questions a fine-tuning run with every default is asked, in order
DEFAULT_FLOW = [
    "workload.task", "workload.method", "workload.model", "workload.precision", "workload.mixed_precision",
    "workload.train_tokens", "workload.batch_size", "workload.seq_len", "workload.optimizer",
    "workload.gradient_checkpointing", "workload.zero_stage", "constraints.acquisition",
    "constraints.budget_usd", "constraints.deadline_days", "constraints.project_months",
    "constraints.electricity_usd_per_kwh", "constraints.max_gpus", "constraints.gpus", "environment",
]


def _command(answers: Path, report: Path | None = None) -> list[str]:
    if importlib.util.find_spec("engine.__main__") is not None:
        cmd = [sys.executable, "-m", "engine", "ask", "--answers", str(answers)]
        return [*cmd, "-o", str(report)] if report else cmd
    # until engine/__main__.py exists: the same entry point the CLI calls
    code = ("import sys; from engine.ask.questionnaire import run_ask; "
            f"sys.exit(run_ask({str(answers)!r}, {str(report) if report else None!r}))")
    return [sys.executable, "-c", code]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env["PROMPT_TOOLKIT_NO_CPR"] = "1"  # nobody answers cursor-position requests in a pexpect pty
    env["TERM"] = "xterm-256color"
    env.pop("NO_COLOR", None)
    return env


def _spawn(tmp_path: Path, answers: Path, report: Path | None = None) -> pexpect.spawn:
    cmd = _command(answers, report)
    return pexpect.spawn(cmd[0], cmd[1:], cwd=str(tmp_path), env=_env(), encoding="utf-8", timeout=60,
                         dimensions=(50, 220))


def _prompt(key: str) -> str:
    return QN.by_key(key).question[:30]


def test_every_default_by_enter(tmp_path: Path) -> None:
    answers = tmp_path / "answers.yaml"
    child = _spawn(tmp_path, answers)
    try:
        for key in DEFAULT_FLOW:
            child.expect_exact(_prompt(key))
            child.send("\r")
        child.expect_exact("Ready?")
        child.send("\r")
        child.expect_exact("Report written to", timeout=180)
        child.expect(pexpect.EOF, timeout=60)
    finally:
        child.close()
    assert child.exitstatus == 0, child.before
    data = yaml.safe_load(answers.read_text(encoding="utf-8"))
    assert data == {
        "workload": {"task": "finetune", "method": "full", "model": "llama-3.1-8b", "precision": "bf16",
                     "mixed_precision": True, "optimizer": "adamw", "batch_size": 1, "seq_len": 2048,
                     "gradient_checkpointing": "auto", "zero_stage": "auto", "train_tokens": 1e9},
        "constraints": {"gpus": [], "max_gpus": 64, "deadline_days": None, "budget_usd": None,
                        "acquisition": "either", "project_months": 6, "electricity_usd_per_kwh": 0.15},
    }
    assert (tmp_path / "answers-report.md").is_file()


def test_ctrl_c_keeps_the_answers_and_exits_130(tmp_path: Path) -> None:
    answers = tmp_path / "answers.yaml"
    child = _spawn(tmp_path, answers)
    try:
        child.expect_exact(_prompt("workload.task"))
        child.send("\r")
        child.expect_exact(_prompt("workload.method"))
        child.send("\r")
        child.expect_exact(_prompt("workload.model"))
        child.send("llama-2-7b\r")
        child.expect_exact(_prompt("workload.precision"))
        child.send("\x03")
        child.expect_exact("Interrupted")
        child.expect(pexpect.EOF)
        tail = child.before
    finally:
        child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in tail
    assert f"--answers {answers}" in " ".join(tail.split())
    assert yaml.safe_load(answers.read_text(encoding="utf-8")) == {
        "workload": {"task": "finetune", "method": "full", "model": "llama-2-7b"}
    }
    assert not list(tmp_path.glob(".*.tmp"))


def test_without_a_terminal_points_to_recommend(tmp_path: Path) -> None:
    answers = tmp_path / "answers.yaml"
    proc = subprocess.run(_command(answers), stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          cwd=tmp_path, env=_env(), timeout=60)
    assert proc.returncode == 2
    assert "gpuwise recommend" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not answers.exists()
