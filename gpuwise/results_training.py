"""The training figures an estimate carries (``layout`` and ``training`` of its ``gpu``), as typed
records.

gpuwise/decide/estimate.py builds them from the planner's records (:class:`~gpuwise.estimators.
training_layout.Layout`, :class:`~gpuwise.estimators.step_time.StepTime` and ``DpTraffic``,
:class:`~gpuwise.estimators.run.TrainingRun`); the views read their attributes; the JSON writes them
with the keys contract version 2 gives ``gpu.layout`` and ``gpu.training``. This module holds no
training arithmetic.
"""

from __future__ import annotations

from typing import Any

from .prebuilt import Prebuilt
from .pyd import AliasChoices, BaseModel, ConfigDict, Field, model_serializer

Number = int | float
"""A figure as it was computed: an int stays an int in the JSON (a ``float`` field would write 8 as 8.0)."""


class _Frozen(Prebuilt, BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class TrainingLayout(_Frozen):
    """How a training job is laid over its GPUs: tensor x pipeline x data parallel (expert and
    context parallelism carved out of the data-parallel GPUs), the batch and the memory settings."""

    tp: int
    pp: int
    dp: int
    ep: int
    cp: int
    micro_batch: int
    grad_accum: int
    global_batch_tokens: Number
    zero: int
    checkpointing: bool
    offload: str
    interleave: int
    recompute_share: Number
    shard_group: int = 0  # GPUs one ZeRO / FSDP group shards over (hybrid sharding: fewer than dp, the rest replicas)
    etp: int | None = None  # MoE: the GPUs each routed expert's matrices are split over (expert tensor parallel)


class StepTerms(_Frozen):
    """Seconds of one optimizer step by cause (communication: the part compute does not hide), and the step."""

    compute_s: Number
    tp_s: Number
    pp_p2p_s: Number
    pp_bubble_s: Number
    dp_s: Number
    ep_s: Number
    cp_s: Number
    optimizer_s: Number
    offload_s: Number
    step_s: Number
    moe_passes_s: Number = 0.0  # of compute_s: an MoE model's memory passes between its expert GEMMs
    moe_host_wait_s: Number = 0.0  # of compute_s: the MoE layers' wait for the host's per-expert launches


class ExposedComm(_Frozen):
    """Seconds of a step waiting on each kind of communication, and the pipeline bubble."""

    tp_s: Number
    pp_p2p_s: Number
    pp_bubble_s: Number
    dp_s: Number
    ep_s: Number
    cp_s: Number


_ZERO3 = ("micro_batches", "gather_s", "reduce_scatter_s", "micro_batch_compute_s", "forward_s", "weight_bytes",
          "gradient_bytes", "dp", "gpus_per_node", "bytes_per_gpu", "network_bytes_per_gpu")


class DpTraffic(_Frozen):
    """The data-parallel traffic of a step: all of it, the hidden and exposed parts, the overlap
    assumed; with ZeRO-3 over more than one GPU also one micro-batch's collectives, the compute
    windows hiding them and the bytes each GPU moves (left out of the JSON otherwise)."""

    traffic_s: Number
    hidden_s: Number
    exposed_s: Number
    overlap: Number
    contention_s: Number = 0.0  # compute the hidden part slows (data_parallel.dp_contention); dp_s = exposed_s + it
    micro_batches: int | None = None
    gather_s: Number | None = None
    reduce_scatter_s: Number | None = None
    micro_batch_compute_s: Number | None = None
    forward_s: Number | None = None
    weight_bytes: Number | None = None
    gradient_bytes: Number | None = None
    dp: int | None = None
    gpus_per_node: int | None = None
    bytes_per_gpu: Number | None = None
    network_bytes_per_gpu: Number | None = None

    @model_serializer(mode="wrap")
    def _zero3_when_sharded(self, handler: Any) -> dict[str, Any]:
        out = handler(self)
        if self.micro_batches is None:
            for k in _ZERO3:
                del out[k]
        return out


class SuggestedChange(_Frozen):
    """A layout setting gpuwise would change from the file: the input field, its value there
    (``from`` in the JSON) and as planned (``to``)."""

    field: str
    before: bool | int | str = Field(validation_alias=AliasChoices("before", "from"))
    after: bool | int | str = Field(validation_alias=AliasChoices("after", "to"))

    @model_serializer(mode="wrap")
    def _from_to(self, handler: Any) -> dict[str, Any]:
        out = handler(self)
        return {"field": out["field"], "from": out["before"], "to": out["after"]}


class SmallerMicroBatch(_Frozen):
    """A stated micro-batch whose layout takes a measure to fit that the file left open (``measure``: CPU
    ``offload`` or ``recompute``), with its step and memory, and the largest smaller micro-batch of the same tokens a
    step that fits without the measure on the same GPUs (``alt_*``), planned and timed (estimators/micro_batch.py)."""

    measure: str
    micro_batch: int
    step_s: Number
    memory_per_gpu_bytes: Number
    memory_without_measure_bytes: Number
    alt_micro_batch: int
    alt_grad_accum: int
    alt_step_s: Number
    alt_memory_per_gpu_bytes: Number
    alt_layout_notation: str
    global_batch_tokens: int


class Pins(_Frozen):
    """The layout settings the file fixed (the JSON names only those given)."""

    tp: int | None = None
    pp: int | None = None
    ep: int | None = None
    cp: int | None = None
    zero: int | None = None
    checkpointing: bool | None = None
    offload: str | None = None
    vpp: int | None = None
    dp_shard: int | str | None = None  # a group's data-parallel ranks, or 'auto'
    etp: int | None = None  # MoE: the experts' tensor-parallel size

    @model_serializer(mode="wrap")
    def _given(self, handler: Any) -> dict[str, Any]:
        return {k: v for k, v in handler(self).items() if v is not None}


class TrainingOut(_Frozen):
    """A training estimate's planner figures: the layout chosen (its notation) and the one asked
    for with its memory, the changes suggested, the step by cause, exposed communication and
    data-parallel traffic, goodput, the batch and steps, the whole run's MFU and days, the pins and
    how many layouts were timed."""

    layout_notation: str
    requested_layout: TrainingLayout
    requested_memory_per_gpu_bytes: Number
    # the stated layout's memory by part (memory.breakdown is the chosen layout's): where the stated micro-batch gives
    # way to a smaller one (held_plan.held_smaller), a loss's or an activation's bytes at the micro-batch asked
    requested_memory_breakdown: dict[str, int] = {}
    suggested_changes: list[SuggestedChange]
    step_terms: StepTerms
    exposed_comm_s: ExposedComm
    dp_traffic: DpTraffic
    exposed_comm_share: Number
    goodput: Number
    global_batch_tokens: Number
    optimizer_steps: Number
    mfu_whole_run: Number
    wall_days: Number | None
    pins: Pins
    layouts_tried: int
    smaller_micro_batch: SmallerMicroBatch | None = None


class TrainingTime(_Frozen):
    """What an estimate without a planned layout says of training: a diffusion model's days alone,
    or nothing (a service, a job without a speed estimate), written ``{}``."""

    model_config = ConfigDict(extra="forbid")  # a TrainingOut's JSON is never read as one

    wall_days: Number | None = None

    @model_serializer(mode="wrap")
    def _days_when_timed(self, handler: Any) -> dict[str, Any]:
        return {} if self.wall_days is None else handler(self)


NO_TRAINING = TrainingTime.model_construct()
"""``gpu.training`` of an estimate that plans no training (made as ``TrainingTime()`` makes it, without
building the class's validator when the module is imported: most processes never validate one)."""
