"""The ranking policy: which of the feasible candidates (those the rules let through every step)
comes first. A documented trade-off, its numbers in ``knowledge/policy.yaml``:

* score = total cost (USD) + wall-clock days x ``value_of_a_day_usd`` (training; a service runs
  for the whole project, so its score is its cost);
* candidates whose scores lie within ``ranking_tie_fraction`` of each other are tied: the tie goes
  to fewer GPUs, then to more free memory (the headroom policy is a floor, not a target), then to
  the faster one;
* a candidate the rules rejected (over the headroom, past the deadline, over budget...) is never
  ranked, whatever its score.
"""

from __future__ import annotations

import math
from typing import Any

from ..frozen import frozen
from ..results import STEPS


@frozen
class Scored:
    key: str
    score: float
    count: int
    free_fraction: float
    days: float


def score(fact: dict[str, Any], value_of_a_day: float) -> float:
    cost = fact["cost_usd"] if fact["cost_usd"] >= 0 else math.inf
    days = fact["wall_days"] if fact["training"] and fact["wall_days"] > 0 else 0.0
    return cost + value_of_a_day * days


def rank(facts: list[dict[str, Any]], keys: list[str], policy: dict[str, Any]) -> list[Scored]:
    """The feasible candidates' facts, best first under the ranking policy."""
    value = float(policy["value_of_a_day_usd"])
    tie = float(policy["ranking_tie_fraction"])
    scored = [Scored(k, score(f, value), f["count"], 1 - f["need_gb"] / f["capacity_gb"] if f["capacity_gb"] else 0.0,
                     f["wall_days"] if f["wall_days"] > 0 else 0.0) for f, k in zip(facts, keys, strict=True)]
    if not scored:
        return []
    ordered = sorted(scored, key=lambda s: s.score)
    out: list[Scored] = []
    rest = ordered
    while rest:  # take the tie group of the best remaining score, order it by the tie-breaks
        best = rest[0].score
        group = [s for s in rest if s.score <= best * (1 + tie) or (math.isinf(best) and math.isinf(s.score))]
        group.sort(key=lambda s: (s.count, -s.free_fraction, s.days, s.score))
        out += group
        taken = {id(s) for s in group}
        rest = [s for s in rest if id(s) not in taken]
    return out


def nearest(con: Any, outcome: Any, limit: int, named: set[str]) -> list[str]:
    """With no candidate decided, the ``limit`` GPU types that came closest (``named`` ones left
    out), each by its closest candidate of a consultation: rejected at the latest step (a
    cost-step rule rejects what the memory and compute rules let through), by the fewest rules,
    then the cheapest (-1: not priced), the fewest GPUs. What a result with no answer names as its
    alternatives; an order, like the ranking, not a verdict."""
    step = {s: i for i, s in enumerate(STEPS)}

    def reach(k: str) -> tuple[int, int, float, int]:
        rules = {r.rule: step.get(con.book.step_of.get(r.rule, ""), 0) for r in outcome.rejections.get(k, [])}
        cost = con.fact(k)["cost_usd"]
        return -min(rules.values(), default=0), len(rules), cost if cost >= 0 else math.inf, con.options[k][0].count

    closest: dict[str, str] = {}
    for k in con.options:
        g = con.options[k][0].gpu.id
        if not k.startswith("proposed") and g not in named and (g not in closest or reach(k) < reach(closest[g])):
            closest[g] = k
    return sorted(closest.values(), key=reach)[:limit]
