"""review65: the questionnaire and the listing screens read as a new user, the plan read as its approver.

Each test fails on the code before its fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_questionnaire import CTRL_C, ENTER, drive, saved, text

# a fine-tune with every essential's default (task, method, model, tokens, deadline, budget, rent or buy,
# hosting), up to the advanced-settings question
ESSENTIALS = ENTER * 8


@pytest.mark.parametrize("lang, word", [("en", "y"), ("en", "yes"), ("en", "Y"), ("zh", "是")])
def test_a_typed_yes_and_its_enter_answer_the_yes_no_question_only(tmp_path: Path, lang: str, word: str,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """'y' then Enter (or 'yes' then Enter) at the advanced-settings question: the Enter is that answer's, not the
    next question's. Before, 'y' answered at once, so its Enter took the project length's default (6 months)
    unseen and the '3' typed for it went to the question after; 'yes' put 'es' in the project length."""
    _, path = drive(tmp_path, [ESSENTIALS, word + ENTER, text("3"), CTRL_C], lang=lang)
    data = saved(path)
    assert "advanced=yes" in path.read_text(encoding="utf-8")
    assert data["constraints"]["project_months"] == 3, data
    assert data["constraints"].get("value_of_a_day_usd") is None, data
    assert "'es'" not in capsys.readouterr().out  # no refusal of the rest of the word


def test_enter_alone_keeps_the_default_and_n_then_enter_says_no(tmp_path: Path) -> None:
    _, path = drive(tmp_path, [ESSENTIALS, "n" + ENTER, CTRL_C])
    assert "advanced=no" in path.read_text(encoding="utf-8")
    _, path = drive(tmp_path, [ESSENTIALS, ENTER, CTRL_C], answers=tmp_path / "b.yaml")
    assert "advanced=no" in path.read_text(encoding="utf-8")  # the question's default
    # a change of mind before Enter: the last key typed is the answer
    _, path = drive(tmp_path, [ESSENTIALS, "yn" + ENTER, CTRL_C], answers=tmp_path / "c.yaml")
    assert "advanced=no" in path.read_text(encoding="utf-8")
