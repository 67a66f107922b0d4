"""One definition each for topics, steps and memory parts (gpuwise/results.py): every list that
labels or orders them agrees with it."""

from __future__ import annotations

import typing

from gpuwise.decide import rulebook
from gpuwise.estimators.memory import MemoryEstimate
from gpuwise.render import charts, report
from gpuwise.results import MEMORY_PARTS, STEPS, TOPICS, Finding


def test_topics_steps_and_parts_are_defined_once() -> None:
    assert set(report.TOPIC_LABELS) == set(TOPICS)
    assert set(report.STEP_TITLES) == set(STEPS) and set(report.STEP_NAMES) == set(STEPS)
    assert set(report.KIND_LABELS) == set(MEMORY_PARTS) and charts.MEMORY_KINDS == MEMORY_PARTS
    assert set(typing.get_args(Finding.model_fields["topic"].annotation)) == set(TOPICS)
    assert set(typing.get_args(rulebook.Then.model_fields["topic"].annotation)) == set(TOPICS)
    assert set(typing.get_args(rulebook.RuleFile.model_fields["step"].annotation)) == set(STEPS)


def test_a_memory_breakdown_has_exactly_the_parts() -> None:
    from gpuwise.estimators import Term

    zero = Term("x", 0.0, "B", "")
    est = MemoryEstimate(zero, zero, zero, zero, zero, zero, "layout", "phase")
    assert tuple(est.breakdown()) == MEMORY_PARTS
