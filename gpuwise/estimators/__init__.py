"""Pure estimator functions: numbers in, numbers out, each with the formula it used.

Every public estimator returns :class:`Term` objects (or a small dataclass of them) so a
report can print the formula, the inputs and the arithmetic behind every figure.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ..frozen import frozen
from ..messages import Phrase, formula_text, phrase_text


@frozen
class Term:
    """One estimated quantity with the formula and the inputs that produced it."""

    name: str
    value: float
    unit: str
    # the formula: given as message ids with values (messages.formula: reports/messages.yaml formula.*),
    # kept in formula_phrases and written here in English
    formula: str | tuple[Phrase, ...]
    inputs: dict[str, Any] = field(default_factory=dict)
    note: str = ""  # in English; filled from note_phrases when those are given
    note_phrases: tuple[Phrase, ...] = ()  # the note as message ids and values (reports/messages.yaml note.*)
    formula_phrases: tuple[Phrase, ...] = ()
    # inputs our code words (a layout label, what a multiplier counts): their message ids and values,
    # so a report words them in its language
    input_phrases: dict[str, tuple[Phrase, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.note_phrases and not self.note:
            object.__setattr__(self, "note", phrase_text(self.note_phrases))
        if isinstance(self.formula, tuple):
            object.__setattr__(self, "formula_phrases", self.formula)
            del self.__dict__["formula"]  # worded in English when first read (_Worded): most terms never are
        elif self.formula_phrases and formula_text(self.formula_phrases) != self.formula:
            # English written over a formula given as ids (dataclasses.replace with a longer string):
            # the parts no longer say it, so the report shows the English as written
            object.__setattr__(self, "formula_phrases", ())

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "value": self.value,
            "unit": self.unit,
            "formula": self.formula,
            "inputs": self.inputs,
            "note": self.note,
        }


class _Worded:
    """``Term.formula`` of a term given its formula as message ids: the English text, filled in
    from ``formula_phrases`` when first read and kept. A full-catalog search builds thousands of
    terms for candidates that are only ranked; wording each at once was a tenth of its time."""

    def __get__(self, term: Term | None, owner: type | None = None) -> Any:
        if term is None:
            return self
        text = formula_text(term.formula_phrases)
        term.__dict__["formula"] = text
        return text


Term.formula = _Worded()  # type: ignore[assignment,misc]  # after @dataclass: not a default value


GB = 1e9
GiB = 1024**3


def usable_fraction(kb: Any) -> float:
    """The built-in memory rules' limit as a share of a GPU's memory: 1 - ``memory_headroom_fraction``
    (policy), for a job no rule book is bound to (:func:`usable_share`). The one place the headroom
    is read in Python; tests/test_verdicts.py checks the built-in rules give the same share."""
    return 1 - float(kb.policy_value("memory_headroom_fraction"))


def usable_share(job: Any, gpu: Any) -> float:
    """The share of ``gpu``'s memory a layout may fill: the limit of the memory rules in force
    (``job.memory_share``, bound by the decider from its rule book, house rules and policy
    overlays included: :func:`gpuwise.decide.verdicts.plan_within`), else the built-in rules'
    (:func:`usable_fraction`). The planner, the serving model and the candidates plan to it."""
    share = job.memory_share
    return share(job, gpu) if share is not None else usable_fraction(job.kb)
