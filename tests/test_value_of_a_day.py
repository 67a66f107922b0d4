"""The value of a wall-clock day (constraints.value_of_a_day_usd): the question's own figure
replaces the ranking policy's, in the file's currency; without it the policy's default is used and
said so. The ranking's score is total cost + days x the value (gpuwise/decide/rank.py)."""

from __future__ import annotations

import pytest

from gpuwise.decide.recommend import recommend
from gpuwise.inputs.job import resolve
from gpuwise.inputs.money import to_usd
from gpuwise.inputs.schema import Requirements

LORA = {"task": "finetune", "method": "lora", "model": "llama-3.1-70b", "train_tokens": 2.0e8}


def _rec(**constraints):
    return recommend({"workload": LORA, "constraints": {"acquisition": "rent", **constraints}})


def test_the_question_sets_the_value_and_the_ranking_follows_it() -> None:
    cheap, dear = _rec(value_of_a_day_usd=0), _rec(value_of_a_day_usd=200_000)
    assert cheap.policy["value_of_a_day_usd"] == 0 and dear.policy["value_of_a_day_usd"] == 200_000
    assert "$200,000 for each wall-clock day" in dear.ranking.text
    a, b = cheap.recommendation, dear.recommendation
    # days worth nothing: the cheapest run wins; a day worth $200,000: the fastest affordable one
    assert a.total_cost_usd <= b.total_cost_usd and b.wall_days < a.wall_days
    assert b.count > a.count
    # each answer has the best score under its own value (cost + days x value), by hand
    for r, v in ((cheap, 0.0), (dear, 200_000.0)):
        best = r.recommendation.total_cost_usd + v * r.recommendation.wall_days
        for c in r.candidates:
            if c.rank is not None:
                assert c.total_cost_usd + v * c.wall_days >= best * (1 - r.policy["ranking_tie_fraction"]) - 1e-6
    assert not any(x.field == "constraints.value_of_a_day_usd" for x in dear.assumptions)


def test_without_it_the_policy_default_is_used_and_said(kb) -> None:
    r = _rec()
    assert r.policy["value_of_a_day_usd"] == kb.policy_value("value_of_a_day_usd") == 1000
    said = [x for x in r.assumptions if x.field == "constraints.value_of_a_day_usd"]
    assert len(said) == 1 and said[0].value == 1000 and "$1,000" in said[0].reason
    serving = resolve(Requirements.model_validate({"workload": {"task": "inference", "model": "llama-3.1-8b"}}), kb)
    assert not any(x.field == "constraints.value_of_a_day_usd" for x in serving.assumptions)  # days not ranked


def test_a_yuan_file_gives_it_in_yuan(kb) -> None:
    rate = kb.tco_value("usd_cny").value
    req = Requirements.model_validate({"workload": LORA, "constraints": {"currency": "CNY",
                                                                         "value_of_a_day_usd": 10_000 * rate}})
    usd, notes = to_usd(req, kb)
    assert usd.constraints.value_of_a_day_usd == pytest.approx(10_000)
    assert any("a day" in n.reason for n in notes)
    job = resolve(usd, kb)
    assert job.kb.policy_value("value_of_a_day_usd") == pytest.approx(10_000)
    assert kb.policy_value("value_of_a_day_usd") == 1000  # the shared knowledge base is left as it was


def test_a_negative_value_is_refused_naming_the_field() -> None:
    with pytest.raises(Exception, match="value_of_a_day_usd"):
        Requirements.model_validate({"workload": LORA, "constraints": {"value_of_a_day_usd": -5}})
