"""`gpuwise ask` in a real pseudo-terminal (pexpect): what only a terminal shows.

The flows themselves are tested through the API in test_questionnaire.py; here the real
command runs: raw-mode key handling, Ctrl-C as a key press, exit statuses.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from gpuwise.ask.questionnaire import load_questions

pexpect = pytest.importorskip("pexpect")
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")

ROOT = Path(__file__).resolve().parents[1]
QN = load_questions()

# the questions a fine-tuning run with every default is asked, in order: the essentials and
# the one advanced-settings question (issue 15: it used to be 19 questions)
DEFAULT_FLOW = [
    "workload.task", "workload.method", "workload.model", "workload.train_tokens", "constraints.deadline_days",
    "constraints.budget_usd", "constraints.acquisition", "constraints.hosting", "advanced",
]


def _command(answers: Path, report: Path | None = None, *options: str) -> list[str]:
    cmd = [sys.executable, "-m", "gpuwise", "ask", "--answers", str(answers), *options]
    return [*cmd, "-o", str(report)] if report else cmd


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env["PROMPT_TOOLKIT_NO_CPR"] = "1"  # nobody answers cursor-position requests in a pexpect pty
    env["TERM"] = "xterm-256color"
    env.pop("NO_COLOR", None)
    return env


def _spawn(tmp_path: Path, answers: Path, report: Path | None = None, *options: str) -> pexpect.spawn:
    cmd = _command(answers, report, *options)
    return pexpect.spawn(cmd[0], cmd[1:], cwd=str(tmp_path), env=_env(), encoding="utf-8", timeout=60,
                         dimensions=(50, 220))


def _prompt(key: str, lang: str = "en") -> str:
    return QN.by_key(key).question[lang].format(cur="USD", sym="$")[:30]


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
        "workload": {"task": "finetune", "method": "full", "model": "llama-3.1-8b", "train_tokens": 1e8},
        "constraints": {"deadline_days": None, "budget_usd": None, "acquisition": "either", "currency": "USD",
                        "hosting": None},
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
        child.expect_exact(_prompt("workload.train_tokens"))
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
        "workload": {"task": "finetune", "method": "full", "model": "llama-2-7b"},
        "constraints": {"currency": "USD"},
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


def _screen(child: pexpect.spawn, *wanted: str, limit: float = 60) -> str:
    """What the program drew since the last match (escape sequences removed), once it shows every
    ``wanted`` text and a tenth of a second more (a fixed second's wait was most of the test); after
    ``limit`` seconds, whatever it drew. A read that times out keeps what it read in the buffer, so
    each look sees everything since the last match."""
    end = time.monotonic() + limit
    while True:
        with contextlib.suppress(pexpect.TIMEOUT):
            child.expect("\x00never\x00", timeout=0.1)
        shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", " ", child.before or "")
        if all(w in shown for w in wanted) or time.monotonic() > end:
            return shown


def test_model_completion_shows_plain_names(tmp_path: Path) -> None:
    answers = tmp_path / "answers.yaml"
    child = _spawn(tmp_path, answers)
    try:
        child.expect_exact(_prompt("workload.task"))
        child.send("\r")
        child.expect_exact(_prompt("workload.method"))
        child.send("\r")
        for attempt in range(2):  # the second time is after ?: questionary's completer wrapped its meta again
            child.expect_exact(_prompt("workload.model"))
            child.send("qwen2.5-")
            time.sleep(0.3)
            child.send("\t")
            shown = _screen(child, "Qwen2.5 7B, 7.6B", "Qwen2.5 72B, 72.7B")
            assert "HTML" not in shown and "<text>" not in shown, shown
            assert "Qwen2.5 7B, 7.6B" in shown and "Qwen2.5 72B, 72.7B" in shown
            # one line per model: the catalog id, none of its Hugging Face names or aliases
            assert "qwen/" not in shown.lower() and "instruct" not in shown.lower()
            if attempt == 0:
                child.send("\x15?\r")  # Ctrl-U clears the line; ? shows the help and asks again
        child.send("\x03")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 130


def test_chinese_and_yuan_in_the_terminal(tmp_path: Path) -> None:
    answers = tmp_path / "answers.yaml"
    child = _spawn(tmp_path, answers, None, "--lang", "zh", "--currency", "CNY")
    try:
        child.expect_exact("金额以 CNY（¥）计")
        child.expect_exact(_prompt("workload.task", "zh"))
        child.send("\r")
        child.expect_exact(_prompt("workload.method", "zh"))
        child.send("\r")
        child.expect_exact(_prompt("workload.model", "zh"))
        child.send("llama-2-7b\r")
        child.expect_exact(_prompt("workload.train_tokens", "zh"))
        child.send("\r")
        child.expect_exact(_prompt("constraints.deadline_days", "zh"))
        child.send("\r")
        child.expect_exact("GPU 预算是多少 CNY")
        child.send("150万\r")
        child.expect_exact(_prompt("constraints.acquisition", "zh"))
        child.send("\x03")
        child.expect_exact("已中止")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 130
    data = yaml.safe_load(answers.read_text(encoding="utf-8"))
    assert data["constraints"] == {"deadline_days": None, "budget_cny": 1500000, "currency": "CNY"}
