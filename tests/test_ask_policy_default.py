"""A question whose "none" means gpuwise's own policy value says that value (askreview55).

`gpuwise ask` listed "A day sooner (USD): none" among the defaults a "no" to the advanced
settings keeps, and offered "Enter = none" at the question, while the ranking then added the
policy's value_of_a_day_usd (knowledge/policy.yaml, $1,000) for every wall-clock day and the
report said so: the default the user was shown was not the one applied.
"""

from __future__ import annotations

from pathlib import Path

from gpuwise.ask.questionnaire import _Session, load_questions
from gpuwise.ask.terminal import _default_text, _show_value
from gpuwise.knowledge import load

QN = load_questions()
KB = load()
KEY = "constraints.value_of_a_day_usd"


def session(tmp_path: Path, lang: str = "en", currency: str = "USD") -> _Session:
    s = _Session(QN, KB, tmp_path / "a.yaml", lang=lang, currency=currency)
    s.set_currency()
    return s


def test_none_shows_the_policy_value(tmp_path: Path) -> None:
    s = session(tmp_path)
    q = QN.by_key(KEY)
    day = float(KB.policy_value("value_of_a_day_usd"))  # 1000 in knowledge/policy.yaml
    shown = f"${day:,.0f}"
    assert shown in _show_value(s, q, KEY, None)  # the advanced-defaults list and the summary
    assert shown in _default_text(s, q, None)  # the Enter hint
    assert _show_value(s, q, KEY, 5000.0) == "$5,000"  # an answer is shown as it is


def test_none_shows_the_policy_value_in_yuan_and_chinese(tmp_path: Path) -> None:
    s = session(tmp_path, "zh", "CNY")
    q = QN.by_key(KEY)
    yuan = float(KB.policy_value("value_of_a_day_usd")) * float(KB.tco_value("usd_cny").value)
    said = _show_value(s, q, KEY, None)
    assert f"¥{yuan:,.0f}" in said and "默认" in said
