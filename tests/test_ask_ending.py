"""``gpuwise ask``'s two flows (the questionnaire and the plan questions) end early through one
function, :func:`gpuwise.ask.ending.guarded`: Ctrl-C or end of input -> the flow's own line, 130;
bad input -> one line, 2 (in the language asked for); anything else is not swallowed."""

from __future__ import annotations

import inspect

import pytest

from gpuwise.ask import ending, plan_ask, questionnaire
from gpuwise.errors import N_, UserError


class _Console:
    def __init__(self) -> None:
        self.printed = 0

    def print(self) -> None:
        self.printed += 1


def _raise(exc: BaseException):
    def body() -> int:
        raise exc
    return body


@pytest.mark.parametrize("exc", [KeyboardInterrupt(), EOFError()])
def test_interrupt_prints_the_flows_line_and_exits_130(exc, capsys):
    console = _Console()
    rc = ending.guarded(_raise(exc), console=console, interrupted=lambda: "kept answers.yaml")
    assert rc == 130 == ending.EXIT_INTERRUPTED
    assert console.printed == 1  # the cursor leaves the prompt's line
    assert capsys.readouterr().err == "kept answers.yaml\n"


def test_bad_input_is_one_line_in_the_language_asked(capsys):
    err = UserError(N_("unknown key"), where="a.yaml: workload.x")
    assert ending.guarded(_raise(err), console=_Console(), interrupted=str, lang="zh") == 2
    assert capsys.readouterr().err == "gpuwise ask: a.yaml: workload.x: 未知的键\n"


def test_an_extra_error_is_worded_by_the_flow_and_others_propagate(capsys):
    rc = ending.guarded(_raise(PermissionError(13, "Permission denied")), console=_Console(), interrupted=str,
                        also=(OSError,), on_also=lambda e: f"cannot save: {e.strerror}")
    assert rc == 2 and capsys.readouterr().err == "cannot save: Permission denied\n"
    with pytest.raises(OSError):
        ending.guarded(_raise(OSError("x")), console=_Console(), interrupted=str)
    assert ending.guarded(lambda: 0, console=_Console(), interrupted=str) == 0


def test_both_flows_use_the_one_function():
    for fn in (questionnaire.run_ask, plan_ask.run_plan_ask):
        src = inspect.getsource(fn)
        assert "guarded(" in src
        assert "KeyboardInterrupt" not in src and "except UserError" not in src
