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
from collections.abc import Callable
from dataclasses import field
from typing import TYPE_CHECKING, Any

from ..frozen import frozen, record
from ..results import STAGES, STEPS

if TYPE_CHECKING:
    from ..inputs.job import Job
    from .actions import Outcome
    from .consult import Consultation


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


LAST_TOPICS = frozenset(("licensing",))
"""The rules' topics whose rejections put an alternative after every other when nothing is
feasible: the export rules, China's import rules, a domestic-only procurement. No change to the
user's own limits (budget, deadline, targets) lifts them, so a part they rule out is shown only
after every option that is over a limit the user set (8 x H20 6% over a yuan budget before the
cheaper parts a Chinese buyer cannot buy)."""


def closeness(con: Consultation, outcome: Outcome) -> Callable[[str], tuple[bool, int, int, float, int]]:
    """The order :func:`nearest` puts rejected candidates in, as a sort key (smallest: closest)."""
    step = {s: i for i, s in enumerate(STEPS)}

    def reach(k: str) -> tuple[bool, int, int, float, int]:
        rules = {r.rule: step.get(con.book.step_of.get(r.rule, ""), 0) for r in outcome.rejections.get(k, [])}
        barred = any(con.book.rules[r].then.topic in LAST_TOPICS for r in rules if r in con.book.rules)
        cost = con.fact(k)["cost_usd"]
        return (barred, -min(rules.values(), default=0), len(rules), cost if cost >= 0 else math.inf,
                con.options[k][0].count)

    return reach


def nearest(con: Consultation, outcome: Outcome, limit: int, named: set[str]) -> list[str]:
    """With no candidate decided, the ``limit`` GPU types that came closest (``named`` ones left
    out), each by its closest candidate of a consultation: not ruled out by a legal or
    procurement rule (:data:`LAST_TOPICS`), rejected at the latest step (a cost-step rule rejects
    what the memory and compute rules let through), by the fewest rules, then the cheapest (-1:
    not priced), the fewest GPUs. What a result with no answer names as its alternatives; an
    order, like the ranking, not a verdict."""
    reach = closeness(con, outcome)
    closest: dict[str, str] = {}
    for k in con.options:
        g = con.options[k][0].gpu.id
        if not k.startswith("proposed") and g not in named and (g not in closest or reach(k) < reach(closest[g])):
            closest[g] = k
    return sorted(closest.values(), key=reach)[:limit]


@record
class Ranking:
    order: list[Scored]
    ranks: dict[str, int]
    best: str | None
    runner: str | None
    shown: list[str]
    why_not: list[str] = field(default_factory=list)


def ranking(job: Job, con: Consultation, outcome: Outcome) -> Ranking:
    """Rank the candidates the chain decided; pick what a result shows (the best, a runner-up of
    another GPU, the user's short list, the best of each other GPU type as "why not")."""
    keys = [k for k in con.options if outcome.decided(k) and not k.startswith("proposed")]
    order = rank([con.fact(k) for k in keys], keys, job.kb.policy_values())
    ranks = {s.key: i + 1 for i, s in enumerate(order)}
    best = order[0].key if order else None
    gpu_of = {k: con.options[k][0].gpu.id for k in con.options}
    runner = next((s.key for s in order[1:] if best and gpu_of[s.key] != gpu_of[best]), None)
    shown = [k for k in (best, runner) if k]
    if job.c.gpus:  # the user's short list: each listed GPU's best configuration and its largest one
        for gid in dict.fromkeys(gpu_of.values()):
            mine = [k for k in con.options if gpu_of[k] == gid and not k.startswith("proposed")]
            if not mine:
                continue
            good = [s.key for s in order if gpu_of[s.key] == gid]
            first = good[0] if good else mine[0]
            mode = con.options[first][1]  # its largest count, acquired the same way (not the other mode's twin)
            same = [k for k in mine if con.options[k][1] == mode] or mine
            shown += [first, max(same, key=lambda k: con.options[k][0].count)]
    return Ranking(order, ranks, best, runner, list(dict.fromkeys(shown)), why_not(job, con, order, outcome, best))


def why_not(job: Job, con: Consultation, order: list[Scored], outcome: Outcome, best: str | None) -> list[str]:
    """The alternatives worth naming beside the answer: the best candidate of each other GPU
    family (architecture), best first; every GPU the user listed, feasible or not (its best or its
    largest candidate, with the reason); at most ``why_not_count`` (policy) besides the listed ones."""
    limit = int(job.kb.policy_values().get("why_not_count", 6))
    family = {k: con.options[k][0].gpu.architecture for k in con.options}
    gpu_of = {k: con.options[k][0].gpu.id for k in con.options}
    taken_families = {family[best]} if best else set()
    out: list[str] = []
    for s in order:
        if s.key == best or family[s.key] in taken_families:
            continue
        taken_families.add(family[s.key])
        out.append(s.key)
        if len(out) >= limit:
            break
    listed = set(gpu_of[k] for k in con.options) if job.c.gpus else set()
    for gid in sorted(listed):
        if any(gpu_of[k] == gid for k in out) or (best and gpu_of[best] == gid):
            continue
        mine = [s.key for s in order if gpu_of[s.key] == gid]
        if not mine:
            theirs = [k for k in con.options if gpu_of[k] == gid and not k.startswith("proposed")]
            mine = [_closest(con, outcome, theirs)]
        out += [k for k in mine[:1] if k]
    if not order:  # nothing decided: the GPU types that came closest (and not named yet), to say why not
        out += nearest(con, outcome, limit, {gpu_of[k] for k in out})
    return out


def _closest(con: Consultation, outcome: Outcome, keys: list[str]) -> str | None:
    """Of a GPU's rejected candidates, the one that says most about it: the one that got furthest
    in the chain, then the one the fewest rules reject (as :func:`closeness` orders them: 8 rented
    RTX 3090s that no cloud rents before 1 that no cloud rents and whose host RAM is short, review48),
    smallest count first (its rejection is about time, speed, units or cost), or, if none got past
    the memory step, the largest count (it does not fit even there)."""
    def furthest(k: str) -> int:
        return STAGES.index(outcome.reached.get(k, "memory"))

    def rejecting(k: str) -> int:
        return len({r.rule for r in outcome.rejections.get(k, [])})

    past = [k for k in keys if furthest(k) > 0]
    if past:
        return min(past, key=lambda k: (-furthest(k), rejecting(k), con.options[k][0].count))
    return max(keys, key=lambda k: con.options[k][0].count, default=None)
