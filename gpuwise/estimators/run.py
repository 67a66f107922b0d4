"""What the compute step hands on for one candidate, as typed records: how fast it runs (``Speed``,
for training and serving alike) and, for training, the planner's chosen layout as the job runs it
(``TrainingRun``). The facts, the results and the JSON read them by attribute."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ..frozen import frozen
from . import planner as P


@frozen(slots=True)
class Speed:
    """The compute step's figures: the peak and the fraction of it reached, the scaling efficiency,
    a training job's GPU-hours and wall clock (the wall clock with start-up and wind-down), a
    service's decode and prefill speeds at its load."""

    mfu: float | None  # none for a service copy that does not fit (it runs no step)
    peak_tflops: float
    peak_kind: str
    efficiency: float = 1.0  # scaling efficiency over the GPUs
    gpu_hours: float | None = None  # training: as published runs count them (no start-up)
    wall_hours: float | None = None  # training
    slowdown: float = 1.0  # offload's share of a step, as a factor
    decode_tokens_per_s: float | None = None  # serving: one sequence's speed at the load
    decode_tokens_per_s_total: float | None = None  # serving: the whole system's output rate at the load
    prefill_tokens_per_s: float | None = None
    batch_per_replica: float | None = None

    @property
    def wall_days(self) -> float | None:
        return self.wall_hours / 24 if self.wall_hours is not None else None


@frozen(slots=True)
class TrainingRun:
    """A training job on the planner's chosen layout (``plan``) and on the layout with exactly the
    user's settings (``requested``), with what the planner's plan alone does not hold."""

    plan: P.Plan
    requested: P.Plan
    mfu_whole_run: float  # model FLOPs over the whole run's GPU-hours at peak
    setup_hours: float  # start-up and wind-down, on every GPU
    pins: P.Pins  # the layout settings the user wrote
    suggested_changes: list[dict[str, Any]] = field(default_factory=list)  # Strategy.diff: field, from, to

    @property
    def exposed_comm_s(self) -> dict[str, float]:
        """Seconds per step waiting on each kind of communication (and the pipeline bubble)."""
        return {k: v for k, v in self.plan.step.as_dict().items()
                if k in ("tp_s", "pp_p2p_s", "pp_bubble_s", "dp_s", "ep_s", "cp_s")}

    def as_json(self, wall_days: float | None) -> dict[str, Any]:
        """``gpu.training`` of the estimate JSON (contract version 2)."""
        plan, lay = self.plan, self.plan.layout
        return {
            "layout_notation": lay.notation(), "requested_layout": self.requested.layout.as_dict(),
            "requested_memory_per_gpu_bytes": self.requested.per_gpu_bytes,
            "suggested_changes": self.suggested_changes, "step_terms": plan.step.as_dict(),
            "exposed_comm_s": self.exposed_comm_s, "dp_traffic": dict(plan.dp_traffic),
            "exposed_comm_share": plan.exposed_comm_share, "goodput": plan.goodput,
            "global_batch_tokens": lay.global_batch_tokens, "optimizer_steps": plan.steps,
            "mfu_whole_run": self.mfu_whole_run, "wall_days": wall_days, "pins": self.pins.as_dict(),
            "layouts_tried": plan.tried,
        }
