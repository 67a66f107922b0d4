"""`<` goes back to the previous question (askreview55).

A user who saw a wrong answer one question later (the model, at the tokens question) could only
finish every question and use "Change an answer" at the summary, or Ctrl-C and edit the file.
Now `<` (typed at a text question, or pressed at a choice or yes/no) puts the previous question
again with its answer offered; `<` at the first question says there is none before it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from gpuwise.ask.questionnaire import run_ask

UP, DOWN, ENTER, CTRL_C = "\x1b[A", "\x1b[B", "\r", "\x03"
pytestmark = pytest.mark.usefixtures("questions_read_once")  # tests/conftest.py


def drive(tmp_path: Path, keys: list[str]) -> tuple[int, dict]:
    path = tmp_path / "answers.yaml"
    with create_pipe_input() as pipe:
        pipe.send_text("".join(keys))
        pipe.close()
        rc = run_ask(str(path), None, lang="en", currency=None, input=pipe, output=DummyOutput())
    return rc, yaml.safe_load(path.read_text(encoding="utf-8"))


def test_back_from_a_text_question_to_the_model(tmp_path: Path) -> None:
    # fine-tuning, full, llama-3.1-70b; at the tokens question: back, the model again, then tokens
    rc, data = drive(tmp_path, [ENTER, ENTER, "llama-3.1-70b" + ENTER, "<" + ENTER, "\x15qwen3-32b" + ENTER,
                                "3e8" + ENTER, CTRL_C])
    assert rc == 130
    assert data["workload"] == {"task": "finetune", "method": "full", "model": "qwen3-32b", "train_tokens": 3e8}


def test_back_from_a_choice_to_the_task(tmp_path: Path) -> None:
    # fine-tuning; at the method choice: back, then inference (one up from fine-tuning): no method asked
    rc, data = drive(tmp_path, [ENTER, "<", UP + ENTER, "llama-3.1-8b" + ENTER, CTRL_C])
    assert rc == 130
    assert data["workload"] == {"task": "inference", "model": "llama-3.1-8b"}


def test_back_at_the_first_question_stays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, data = drive(tmp_path, ["<", ENTER, CTRL_C])
    assert rc == 130
    assert "no question before" in capsys.readouterr().out
    assert data["workload"] == {"task": "finetune"}
