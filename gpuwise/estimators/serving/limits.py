"""What a serving layout and its load are chosen for: the limits the rules in force set.

The serving model picks its operating point from these -- a copy's capacity within the latency
limits, the load that reaches the throughput the rules demand, the highest request rate within the
p95 limits and the rate the load is reported at -- so that a house rule that relaxes or tightens a
target moves the load exactly as it moves the rules' verdict. Likewise the copy sizes a layout is
chosen among (:func:`copy_allowed`). The decider binds them from its rule
book (``job.serving_limits``: :func:`gpuwise.decide.verdicts.plan_within`, derived from the rules'
own thresholds by :func:`gpuwise.decide.bounds.serving_limits`); a job bound to no rule book takes
the workload's targets, which are the built-in rules' limits.
"""

from __future__ import annotations

from typing import Any

from ...frozen import frozen


@frozen
class Limits:
    """The limits in force on one GPU type's service. None (0 for the throughput): no rule limits it."""

    ttft_ms: float | None  # the time to first token at the load (CMP-TTFT-TARGET)
    tpot_ms: float | None  # the time per output token at the load (CMP-TPOT-TARGET)
    tokens_per_s: float  # the least output tokens/s the load must reach (CMP-TARGET-SPEED, CMP-SERVES)
    requests_per_s: float | None  # the least rate served within the p95 limits (SRV-RATE-TARGET): the load's rate
    p95_ttft_s: float | None  # p95 time to first token at a request rate (SRV-P95-TTFT-TARGET)
    p95_tpot_s: float | None  # p95 time per output token at a request rate (SRV-P95-TPOT-TARGET)

    @property
    def ttft_s(self) -> float | None:
        return self.ttft_ms / 1e3 if self.ttft_ms is not None else None

    @property
    def tpot_s(self) -> float | None:
        return self.tpot_ms / 1e3 if self.tpot_ms is not None else None


def of_workload(w: Any) -> Limits:
    """The workload's own targets: the limits of the built-in rules."""
    return Limits(ttft_ms=w.max_ttft_ms or None, tpot_ms=w.max_tpot_ms or None,
                  tokens_per_s=float(w.target_tokens_per_s or 0.0),
                  requests_per_s=getattr(w, "requests_per_s", None) or None,
                  p95_ttft_s=getattr(w, "p95_ttft_s", None), p95_tpot_s=getattr(w, "p95_tpot_s", None))


def copy_allowed(job: Any, gpu: Any, count: int, gpus_per_copy: int, fw: Any) -> bool:
    """Whether a copy of ``gpus_per_copy`` GPUs may serve on ``count`` x ``gpu`` with ``fw``: the
    decider's verdict from the rules in force (``job.serving_copies``:
    :func:`gpuwise.decide.verdicts.copy_allowed`), else the built-in rule's reading (a copy spans
    servers only with a framework that can spread one over them: :func:`.support.support`)."""
    bound = getattr(job, "serving_copies", None)
    if bound is not None:
        return bool(bound(job, gpu, count, gpus_per_copy, bool(fw.multi_node)))
    from .support import support

    return support(fw, gpu, job.w.precision, gpus_per_copy).multi_node_ok


def limits(job: Any, gpu: Any, count: int) -> Limits:
    """The limits in force for ``job`` on ``count`` x ``gpu`` (a rule may hold only for several
    GPUs): the decider's (``job.serving_limits``), else the workload's targets."""
    bound = getattr(job, "serving_limits", None)
    return bound(job, gpu, count) if bound is not None else of_workload(job.w)
