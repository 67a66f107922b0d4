"""A refused number is echoed as the user typed it (askreview55): "-3" days was refused with
"must be greater than 0 (got -3.0)", and "0" requests/s with "(got 0.0)"."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuwise.ask.questionnaire import _Invalid, _Session, load_questions
from gpuwise.knowledge import load

QN = load_questions()
KB = load()


@pytest.mark.parametrize("key, value, shown", [("constraints.deadline_days", -3.0, "(got -3)"),
                                               ("constraints.deadline_days", -0.5, "(got -0.5)"),
                                               ("workload.train_tokens", -2e9, "(got -2e9)")])
def test_the_refused_number_is_shown_as_typed(tmp_path: Path, key: str, value: float, shown: str) -> None:
    s = _Session(QN, KB, tmp_path / "a.yaml", lang="en", currency=None)
    s.set_currency()
    with pytest.raises(_Invalid) as exc:
        s.validate(QN.by_key(key), value)
    assert s.message(exc.value).endswith(shown), s.message(exc.value)
