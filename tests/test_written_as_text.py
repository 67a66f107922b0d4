"""Text fields given as YAML numbers: a release (``stack_version``, ``framework_version``) written
unquoted, and a board serial of digits in a house rule's condition. Each was refused with words that
did not say what to do ('Input should be a valid string (got 26.04)', "'serial' is text")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.clirun import gpuwise
from tests.test_hostile_more import one_line
from tests.test_hostile_seventeenth import HOT_3090, USED, _rules
from tests.test_hostile_twelfth import write

TRAIN = ("workload: {task: finetune, method: full, model: llama-2-13b, precision: bf16, batch_size: 2, "
         "seq_len: 2048, train_tokens: 5.0e8, stack: nemo, stack_version: %s}\n")
SERVE = ("workload: {task: inference, model: llama-3.1-70b, concurrent_requests: 16, framework: vllm, "
         "framework_version: %s}\n")


@pytest.mark.parametrize("doc, field, shown", [
    (TRAIN % "26.04", "stack_version", '"26.04"'),
    (TRAIN % "25.10", "stack_version", '"25.1"'),  # YAML has already dropped the zero: the message says why
    (SERVE % "0.10", "framework_version", '"0.1"'),
])
def test_a_release_written_as_a_decimal_number_is_asked_for_in_quotes(tmp_path: Path, doc: str, field: str,
                                                                      shown: str) -> None:
    write(tmp_path, {"r.yaml": doc})
    one_line(gpuwise("recommend", "r.yaml", cwd=tmp_path), f"workload.{field}",
             f"write the version in quotes ({field}: {shown}): YAML reads 1.20 as 1.2")


def test_a_release_written_as_a_whole_number_is_its_text() -> None:
    """``stack_version: 26`` has lost nothing: it is the text "26", as a driver branch ``535`` is."""
    from gpuwise.inputs.workload import Workload

    w = Workload(task="finetune", method="full", model="llama-2-13b", stack="nemo", stack_version=26)
    assert w.stack_version == "26"
    assert Workload(task="inference", model="llama-3.1-70b", framework_version=1).framework_version == "1"
    assert Workload(task="inference", model="llama-3.1-70b", framework_version="0.10.0").framework_version == "0.10.0"


RULE = """schema_version: 1
ruleset: house-banned-boards
step: pitfalls
description: Boards the company will not buy.
rules:
  - id: HOUSE-BANNED-BOARD
    title: A board on the banned list
    fact: card
    when:
      - [serial, %s]
    then:
      action: reject
      topic: used-hardware
      message: "board {serial} is on the banned list"
      fix: "Drop the card from the lot."
    rationale: "Boards returned from a mining farm, listed by the auditors."
    source: "Procurement list (example)"
"""


@pytest.mark.parametrize("serial, cond, banned", [
    ("1324020012345", "'==', 1324020012345", True),  # the 13 digits unquoted, as a proposal may write them
    ("1324020012345", "in, [1324020012346, 1324020012345]", True),
    ("0123", "'==', 0123", True),  # the leading zero kept: the serial as written, not 123
    ("123", "'==', 0123", False),
    ("1324020012345", "'==', '1324020012345'", True),  # quoted, as before
    ("1324020012345", "'!=', 1324020012345", False),
])
def test_a_house_rule_compares_a_serial_written_as_digits_as_the_serial(tmp_path: Path, serial: str, cond: str,
                                                                        banned: bool) -> None:
    """``[serial, ==, 1324020012345]`` was refused: "'serial' is text; 1324020012345 is not". A proposal
    takes the same unquoted serial as its text (tests/test_hostile_seventeenth.py), so the rule does."""
    body = re.sub(r"<serial>[^<]*", f"<serial>{serial}", HOT_3090, count=1)
    write(tmp_path, {"p.yaml": USED % serial, "r.xml": body, "rules/banned.yaml": RULE % cond})
    r = gpuwise("audit", "p.yaml", "--rules", "rules", "--format", "json", cwd=tmp_path)
    assert ("HOUSE-BANNED-BOARD" in _rules(r)) == banned
    if banned:
        finding = next(f for f in json.loads(r.stdout)["findings"] if f["rule"] == "HOUSE-BANNED-BOARD")
        assert f"board {serial} is on the banned list" in finding["message"]


@pytest.mark.parametrize("cond, said", [
    ("'==', 12.5", "'serial' is text; 12.5 is not"),  # a decimal is no serial
    ("'==', true", "'serial' is text; True is not"),
    ("'>', 1324020012345", "'serial' is text; 1324020012345 is not"),  # an order between text and a number
])
def test_other_numbers_against_a_serial_are_still_refused(tmp_path: Path, cond: str, said: str) -> None:
    write(tmp_path, {"p.yaml": USED % "X", "r.xml": HOT_3090, "rules/banned.yaml": RULE % cond})
    one_line(gpuwise("audit", "p.yaml", "--rules", "rules", cwd=tmp_path), "HOUSE-BANNED-BOARD", said)
