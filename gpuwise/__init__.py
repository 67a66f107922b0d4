"""gpuwise: which GPUs to rent or buy for large-model work, with the reasoning shown.

The Python API (documented in docs/api.md; these signatures are the stable surface)::

    import gpuwise

    result = gpuwise.recommend({"workload": {...}, "constraints": {...}})
    result.recommendation.gpu, result.model_dump(mode="json")   # the contract's JSON

Each function takes a path, a dict or the validated input model and returns a pydantic result
whose ``model_dump(mode="json")`` is the JSON the command line writes. Bad input raises
:class:`gpuwise.errors.UserError` (a one-line message naming the file and field).

Imports are lazy so that ``gpuwise --version`` starts without loading pydantic or durable-rules.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: the command's Ctrl-C handler (__main__) waits on this module's imports
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from .inputs.schema import Proposal, Requirements
    from .results import AuditResult, EstimateResult, RecommendResult

__version__ = "0.1.0"
__all__ = ["__version__", "audit", "estimate", "plan", "recommend"]


def _dir(p: str | Path | None) -> str | None:
    return str(p) if p is not None else None


def estimate(requirements: dict[str, Any] | str | Path | Requirements, *, gpu: str | None = None,
             gpus: int | None = None, knowledge: str | Path | None = None,
             fx_rate: float | None = None) -> EstimateResult:
    """The numbers alone: memory per GPU, and with ``gpu`` (a catalog id or name) also time,
    throughput and cost on ``gpus`` of it (default: 1, or for training with a deadline the fewest
    in time). No rule decides anything here."""
    from .decide.estimate import estimate as _estimate

    return _estimate(requirements, gpu=gpu, gpus=gpus, knowledge=_dir(knowledge), fx_rate=fx_rate)


def recommend(requirements: dict[str, Any] | str | Path | Requirements, *,
              knowledge: str | Path | None = None, rules: str | Path | None = None,
              fx_rate: float | None = None) -> RecommendResult:
    """The four-step decision over the catalog (or the requirements' short list of GPUs):
    the best option, a runner-up, every judged candidate with its reasons. ``knowledge``: a
    directory overlaid on the built-in knowledge base; ``rules``: a directory of house rules;
    ``fx_rate``: CNY per USD in place of the dated rate (``--fx-rate``)."""
    from .decide.recommend import recommend as _recommend

    return _recommend(requirements, knowledge=_dir(knowledge), rules=_dir(rules), fx_rate=fx_rate)


def audit(proposal: dict[str, Any] | str | Path | Proposal, *, knowledge: str | Path | None = None,
          base_dir: str | Path | None = None, rules: str | Path | None = None,
          fx_rate: float | None = None) -> AuditResult:
    """Audit a purchase or rental proposal: verdict, findings, the best alternative. ``base_dir``:
    where the proposal's relative paths (nvidia-smi reports) are read from (default: the
    proposal file's folder, or the working directory for a dict)."""
    from .decide.audit import audit as _audit

    return _audit(proposal, knowledge=_dir(knowledge), base_dir=_dir(base_dir), rules=_dir(rules),
                  fx_rate=fx_rate)


def plan(plan_file: Any, *, knowledge: str | None = None, rules: str | None = None,
         currency: str | None = None, fx_rate: float | None = None) -> Any:
    """A team's months of work on the GPUs it owns, buys and rents: what to buy and when, what to
    rent, the cash flow against two baselines and the hosted-API alternative (``gpuwise plan``).
    ``currency`` (USD or CNY) is the result's; default: the plan file's ``constraints.currency``.
    ``fx_rate``: CNY per USD in place of the dated rate, as ``--fx-rate``."""
    from .plan.build import plan as _plan

    return _plan(plan_file, knowledge=knowledge, rules=rules, currency=currency, fx_rate=fx_rate)
