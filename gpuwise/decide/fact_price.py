"""The price and comparison facts of the vocabulary (:mod:`gpuwise.decide.facts`): a dated price a result relies
on (rules/data-freshness.yaml) and one figure of an audited proposal beside its alternative's (rules/comparison.yaml).
Kept apart from the candidate and proposal facts, which grow with every new check."""

from __future__ import annotations

from typing import Literal

from .fact_base import FactModel, _f


class PriceFact(FactModel):
    """A dated price a result relies on."""

    what: str = _f("what the price is for")
    what_phrases: list = _f("the same as message ids and values (price.what.*), which a report words in its "
                            "own language", default=[])
    kind: str = _f("rent, buy, host (the host-server share around bought cards or baseboards) or fx (the USD to "
                   "CNY rate the answer converts at)", default="rent")
    as_of: str = _f("date of the price, YYYY-MM-DD")
    age_days: int = _f("days since as_of")
    source: str = _f("where the price comes from")
    used: bool = _f("the result relies on it")


class ComparisonFact(FactModel):
    """One figure of an audited proposal beside the same figure of its alternative (the best
    candidate the rules let through), asserted once the alternative is chosen: a rule that fires on
    it concludes that the alternative gives that figure up, so its saving is not like for like
    (rules/comparison.yaml; the audit's ``alternative_gives_up``)."""

    what: Literal["throughput_tokens_per_s", "tpot_s", "wall_days"] = _f(
        "the figure compared: output tokens/s of a service at its load, seconds per output token, or a "
        "training run's wall-clock days")
    proposed: float = _f("the proposal's figure (-1 not known)")
    alternative: float = _f("the alternative's figure (-1 not known)")
