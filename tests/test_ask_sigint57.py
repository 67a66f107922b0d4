"""Ctrl-C in `gpuwise ask` ends with the flow's one line and exit 130 however it comes (branch leftovers57,
gpuwise/ask/sigint.py).

At a question Ctrl-C is a key (raw mode); between two questions, or sent with kill, it is a SIGINT. Before, a SIGINT
(1) that came while a list question was shown did nothing (prompt_toolkit turned it into a <sigint> key that
questionary's lists do not bind): the question went on waiting; (2) one that came between two questions was raised
wherever Python was: in asyncio building the next prompt's event loop (the half-built loop's __del__: "Exception
ignored ... object has no attribute '_ssock'"), or in pydantic building a validator (a SchemaError, exit 3 "a bug in
gpuwise"). 25 runs of `gpuwise ask` in a pseudo-terminal, a SIGINT 0-80 ms after answering the first question: 10
waited for ever and 2 ended with exit 3 before; 25 ended with 130 and the line after."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from gpuwise.ask import sigint
from gpuwise.ask.questionnaire import run_ask

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to oneself is POSIX")


def _sigint_soon(delay: float) -> threading.Timer:
    timer = threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    return timer


def test_a_sigint_held_while_the_questions_are_put_is_raised_at_a_check():
    """Inside held(), a SIGINT is a flag: the code it lands in (here asyncio building and closing an event loop)
    runs on; check() raises it, and leaving the block raises one not yet checked. The handler before is put back."""
    import asyncio

    before = signal.getsignal(signal.SIGINT)
    with sigint.held():
        os.kill(os.getpid(), signal.SIGINT)
        loop = asyncio.new_event_loop()  # no KeyboardInterrupt in the middle of it
        loop.close()
        with pytest.raises(KeyboardInterrupt):
            sigint.check()
        sigint.check()  # raised once
    with pytest.raises(KeyboardInterrupt), sigint.held():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
    assert signal.getsignal(signal.SIGINT) is before


def test_released_gives_the_work_the_interrupt_at_once():
    with sigint.held():
        with pytest.raises(KeyboardInterrupt), sigint.released():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)  # interrupted at once, not after
        assert signal.getsignal(signal.SIGINT) is sigint._hold


def test_a_sigint_while_a_list_question_waits_ends_ask_with_130(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """The first question (a list) waits for a key; a SIGINT a second later ends it: exit 130 and the line that
    nothing was saved. Before, the list went on waiting: the Enter sent 4 s later answered it, and the answers file
    held the task."""
    path = tmp_path / "answers.yaml"
    with create_pipe_input() as pipe:
        timer = _sigint_soon(1.0)
        late = threading.Timer(4.0, lambda: (pipe.send_text("\r"), pipe.close()))
        late.start()
        t0 = time.monotonic()
        try:
            rc = run_ask(str(path), None, input=pipe, output=DummyOutput())
        finally:
            timer.cancel()
            late.cancel()
    err = capsys.readouterr().err
    assert rc == 130 and time.monotonic() - t0 < 3.5
    assert "Interrupted before the first answer; nothing was saved" in err and "Traceback" not in err
    assert not path.exists()


def test_a_sigint_between_answers_keeps_them_and_ends_with_130(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]):
    """Two answers typed (fine-tuning, full), then a SIGINT while the model is asked: 130, the two saved."""
    path = tmp_path / "answers.yaml"
    with create_pipe_input() as pipe:
        pipe.send_text("\r\r")
        timer = _sigint_soon(1.5)
        try:
            rc = run_ask(str(path), None, input=pipe, output=DummyOutput())
        finally:
            timer.cancel()
    err = " ".join(capsys.readouterr().err.split())
    assert rc == 130 and f"resume with `gpuwise ask --answers {path}`" in err and "Traceback" not in err
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["workload"] == {"task": "finetune", "method": "full"}


def test_kill_int_at_a_list_question_in_a_terminal(tmp_path: Path):
    """The command itself in a pseudo-terminal: `kill -INT` while the first list question waits, then right after
    the first answer, as the next list comes up. Each ends with its line and 130 (before: the list waited)."""
    pexpect = pytest.importorskip("pexpect")
    from tests.test_ask_pty import _prompt, _spawn

    for answered in (False, True):
        answers = tmp_path / f"a{int(answered)}.yaml"
        child = _spawn(tmp_path, answers)
        child.timeout = 20
        try:
            child.expect_exact(_prompt("workload.task"))
            if answered:
                child.send("\r")
                child.expect_exact(_prompt("workload.method"))
            child.kill(signal.SIGINT)
            child.expect_exact("Interrupted")
            child.expect(pexpect.EOF)
            tail = child.before
        finally:
            child.close()
        assert child.exitstatus == 130 and "Traceback" not in tail and "Exception ignored" not in tail
        assert answers.exists() == answered
