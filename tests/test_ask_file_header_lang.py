"""The answers file's header comment is in the session's language (askreview55): with
`--lang zh` every label comment was Chinese but the two header lines stayed English."""

from __future__ import annotations

import yaml

from gpuwise.ask.answers import render_answers
from gpuwise.ask.questionnaire import load_questions

QN = load_questions()
ANSWERS = {"workload": {"task": "finetune", "method": "lora", "model": "qwen3-8b", "train_tokens": 3e8},
           "constraints": {"currency": "CNY", "budget_usd": 20000}}


def test_zh_header() -> None:
    text = render_answers(ANSWERS, QN, lang="zh", currency="CNY", state="advanced=no")
    head = [line for line in text.splitlines() if line.startswith("#")]
    assert head[-1] == "# gpuwise-ask: advanced=no"  # the state line is read back, never translated
    assert all("written by" not in line and "Run it with" not in line for line in head), head
    assert "gpuwise recommend" in head[1] and "gpuwise ask --answers" in head[1]  # commands stay commands
    assert yaml.safe_load(text)["constraints"]["budget_cny"] == 20000


def test_en_header_unchanged() -> None:
    text = render_answers(ANSWERS, QN, lang="en", currency="CNY")
    assert text.startswith("# gpuwise requirements, written by `gpuwise ask`.\n# Run it with `gpuwise recommend FILE`; "
                           "change answers with `gpuwise ask --answers FILE`.\n")
