"""What the compute step hands on for one candidate, as typed records: how fast it runs (``Speed``,
for training and serving alike) and, for training, the planner's chosen layout as the job runs it
(``TrainingRun``). The facts, the results and the JSON read them by attribute."""

from __future__ import annotations

from ..frozen import frozen
from . import planner as P
from .micro_batch import MicroBatchAlternative


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
class Change:
    """A layout setting the planner would change from what the file wrote: the input field, its
    value as written and as planned (e.g. ``zero_stage`` 0 -> 3)."""

    field: str
    before: bool | int | str
    after: bool | int | str


@frozen(slots=True)
class TrainingRun:
    """A training job on the planner's chosen layout (``plan``) and on the layout with exactly the
    user's settings (``requested``), with what the planner's plan alone does not hold."""

    plan: P.Plan
    requested: P.Plan
    mfu_whole_run: float  # model FLOPs over the whole run's GPU-hours at peak
    setup_hours: float  # start-up and wind-down, on every GPU
    pins: P.Pins  # the layout settings the user wrote
    suggested_changes: tuple[Change, ...] = ()  # Strategy.diff
    # a stated micro-batch whose layout offloads or recomputes unasked, and the largest smaller one that does not
    smaller_micro: MicroBatchAlternative | None = None
