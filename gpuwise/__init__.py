"""gpuwise: which GPUs to rent or buy for large-model work, with the reasoning shown.

Public API (each takes a path, a dict or the validated model and returns a pydantic
result whose ``model_dump(mode="json")`` is the contract's JSON)::

    from gpuwise import estimate, recommend, audit, plan

Imports are lazy so that ``gpuwise --version`` starts without loading pydantic or
durable-rules.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"
__all__ = ["__version__", "audit", "estimate", "plan", "recommend"]


def estimate(requirements: Any, gpu: str | None = None, gpus: int | None = None, *,
             knowledge: str | None = None) -> Any:
    """The numbers alone: memory, and with ``gpu`` also time, throughput and cost."""
    from .decide.estimate import estimate as _estimate

    return _estimate(requirements, gpu=gpu, gpus=gpus, knowledge=knowledge)


def recommend(requirements: Any, *, knowledge: str | None = None, rules: str | None = None) -> Any:
    """The four-step decision over the catalog (or the user's short list); ``rules`` adds a
    directory of house rules."""
    from .decide.recommend import recommend as _recommend

    return _recommend(requirements, knowledge=knowledge, rules=rules)


def audit(proposal: Any, *, knowledge: str | None = None, base_dir: str | None = None,
          rules: str | None = None) -> Any:
    """Audit a purchase or rental proposal: verdict, findings, the best alternative."""
    from .decide.audit import audit as _audit

    return _audit(proposal, knowledge=knowledge, base_dir=base_dir, rules=rules)


def plan(plan_file: Any, *, knowledge: str | None = None, rules: str | None = None,
         currency: str | None = None) -> Any:
    """A team's months of work on the GPUs it owns, buys and rents: what to buy and when, what to
    rent, the cash flow against two baselines and the hosted-API alternative (``gpuwise plan``).
    ``currency`` (USD or CNY) is the result's; default: the plan file's ``constraints.currency``."""
    from .plan.build import plan as _plan

    return _plan(plan_file, knowledge=knowledge, rules=rules, currency=currency)
