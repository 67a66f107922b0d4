"""A yes/no answer is echoed in the session's language (askreview55).

questionary's confirm prompt echoes its own English "Yes"/"No" after the answer, and keeps the
instruction on the answered line: `gpuwise ask --lang zh` showed
"是否修改高级设置（…）？ （y/N，? 查看说明）No", and the plan questions "…（y/N，? 查看说明）Yes".
"""

from __future__ import annotations

import re
from pathlib import Path

from prompt_toolkit.input import create_pipe_input

from gpuwise.ask.questionnaire import load_questions, run_ask

from .test_questionnaire import RecordingOutput

QN = load_questions()


def final_draw(keys: str, tmp_path: Path, lang: str) -> str:
    """What the last drawing of the advanced-settings question shows (the prompts' own output)."""
    out = RecordingOutput()
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        pipe.close()
        run_ask(str(tmp_path / "a.yaml"), None, lang=lang, currency=None, input=pipe, output=out)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", "".join(out.chunks))
    question = QN.by_key("advanced").question[lang][:8]
    tail = text[text.rindex(question):]
    line = tail[: tail.index("\r\n? ")]  # the line ends where the next prompt (Ready?) starts
    return line.replace("\r\n", "").replace("\r", "")  # DummyOutput wraps at 80 columns


ENTER, DOWN = "\r", "\x1b[B"
# fine-tune, full, default model, tokens, deadline, budget, either, hosting: Enter each; then "n" and
# Enter to the advanced settings, then save and quit
KEYS = ENTER * 8 + "n" + ENTER + DOWN * 2 + ENTER


def test_the_zh_no_is_chinese(tmp_path: Path) -> None:
    drawn = final_draw(KEYS, tmp_path, "zh")
    assert drawn.rstrip().endswith("？ 否") and "No" not in drawn, drawn  # the question itself says 是否
    assert "查看说明" not in drawn  # the instruction goes once answered, as a select's does


def test_the_en_no_is_the_session_word(tmp_path: Path) -> None:
    drawn = final_draw(KEYS, tmp_path, "en")
    assert drawn.rstrip().endswith("? no") and "No" not in drawn, drawn
    assert "explains" not in drawn
