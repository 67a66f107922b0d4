"""The serving figures a result carries (``serving`` of a candidate, of the recommendation and of the
estimate's ``gpu``), as typed records.

:func:`gpuwise.estimators.serving.result.serving_json` builds them from the serving model's
:class:`~gpuwise.estimators.serving.result.ServingResult`; the views and the audit's comparison read
their attributes; the JSON writes them with the keys contract version 2 gives ``gpu.serving``. This
module holds no serving arithmetic, so a training question does not import the serving model.
"""

from typing import Any

from .prebuilt import Prebuilt
from .pyd import BaseModel, ConfigDict, Field, model_serializer

Number = int | float
"""A figure as it was computed: an int stays an int in the JSON (a ``float`` field would write 8 as 8.0)."""


class _Frozen(Prebuilt, BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class ServingLayout(_Frozen):
    """How one copy of the model is split, and how many copies serve."""

    tp: int
    pp: int
    ep: int
    dp_attention: int
    replicas: int
    gpus_per_copy: int


class BestLayout(_Frozen):
    """The layout of this GPU count that sustains the most within the latency targets."""

    layout: ServingLayout
    label: str
    max_throughput_tokens_per_s: Number
    max_throughput_concurrency: Number
    max_concurrent_sequences: int
    higher_peak: bool = False
    """It peaks above the chosen layout by more than the policy's ``serving_higher_peak_fraction``: the
    report names it beside the chosen layout's capacity."""


class Supports(_Frozen):
    """Whether the framework runs this GPU, this precision and a copy across servers, and why not."""

    gpu: bool
    precision: bool
    multi_node: bool
    reason: str
    detail: str
    detail_phrases: list[Any] = Field(default=[], description="detail as [separator, message id, values] parts "
                                      "(reports/messages.yaml serve.*), which a report words in its language")


class ServingTargets(_Frozen):
    """The workload's targets (None: not stated) and whether the layout meets each at the load."""

    tokens_per_s: Number | None = None
    max_ttft_ms: Number | None = None
    max_tpot_ms: Number | None = None
    meets_throughput_target: bool | None = None
    meets_ttft: bool | None = None
    meets_tpot: bool | None = None


class CurvePoint(_Frozen):
    """The chosen layout at one number of requests served at once."""

    concurrency: int
    throughput_tokens_per_s: Number
    tpot_s: Number
    ttft_s: Number


class Speculative(_Frozen):
    """Speculative decoding asked for: as modelled (``modelled``: the framework runs the method; else
    only the method is known), whether the framework runs it, and which frameworks do."""

    method: str | None
    acceptance_rate: Number | None = None
    draft_tokens: int | None = None
    tokens_per_step: Number | None = None
    draft_layers: Number | None = None
    draft_params_b: Number | None = None
    supported: bool
    frameworks: list[str]
    modelled: bool = Field(default=True, exclude=True)

    @model_serializer(mode="wrap")
    def _as_modelled(self, handler: Any) -> dict[str, Any]:
        out = handler(self)
        if not self.modelled:
            for k in _SPEC_FIGURES:
                del out[k]
        return out


_SPEC_FIGURES = ("acceptance_rate", "draft_tokens", "tokens_per_step", "draft_layers", "draft_params_b")


class Quantization(_Frozen):
    """The quantization method asked for, whether the framework runs it and which frameworks do."""

    method: str
    supported: bool
    frameworks: list[str]


class RatePoint(_Frozen):
    """The system at one request rate: p95 and mean latencies (None: unbounded), the batch per copy,
    how busy the slots and the prefill are, and, disaggregated, the copies of each kind."""

    requests_per_s: Number
    p95_ttft_s: Number | None
    p95_tpot_s: Number | None
    mean_ttft_s: Number | None
    mean_tpot_s: Number | None
    batch_per_copy: Number
    slot_utilisation: Number
    prefill_utilisation: Number
    stable: bool
    prefill_copies: int | None = None
    decode_copies: int | None = None
    output_tokens_per_s: Number | None = None  # the rate x output tokens a request (None: the queue grows)


class RateTargets(_Frozen):
    p95_ttft_s: Number | None = None
    p95_tpot_s: Number | None = None


class Rate(_Frozen):
    """The answer to a request rate with p95 targets: the queueing model and its note (their text),
    the highest rate within the targets and the system there, and at the rate asked."""

    model: str
    note: str | None = None
    requests_per_s: Number | None = None
    targets: RateTargets
    max_requests_per_s: Number | None = None
    at_max: RatePoint | None = None
    at_requests_per_s: RatePoint | None = None
    meets_requests_per_s: bool | None = None


class CostPerMillion(_Frozen):
    """USD per million output tokens at the load, renting and buying, with the hourly costs, the
    tokens per second and the hours they are spread over, and the formula."""

    rent_usd: Number | None = None
    buy_usd: Number | None = None
    rent_usd_per_hour: Number | None = None
    buy_usd_per_hour: Number | None = None
    tokens_per_s: Number | None = None
    hours: Number
    formula: str
    formula_phrases: list[Any] = Field(default=[], description="the formula as [separator, message id, values] parts")
    buy_unavailable_reason: str = Field(default="", description="why this count cannot be bought where buy_usd is "
                                        "null (a GPU sold only in whole servers); '' otherwise")
    buy_unavailable_reason_phrases: list[Any] = Field(default=[], description="the same reason as [separator, "
                                                      "message id, values] parts")


class ServingOut(_Frozen):
    """One configuration served: the framework and layout, throughput and latency at the load, what
    the memory holds, the best layout of the count, support, targets, the throughput/latency
    ``curve`` (the estimate's; a recommendation's candidates leave it out, ``with_curve``), the
    knobs asked for, the request-rate answer and (the estimate's) the cost per million tokens."""

    max_concurrent_sequences: int
    throughput_tokens_per_s: Number
    max_throughput_tokens_per_s: Number
    ttft_s: Number | None  # None: the copy does not fit, so nothing is timed
    tpot_s: Number | None
    concurrency: Number
    concurrency_source: str
    framework: str
    layout: ServingLayout
    layout_label: str
    weight_format: str
    compute_precision: str
    prompt_tokens: Number
    output_tokens: Number
    max_throughput_concurrency: Number
    max_throughput_layout: ServingLayout
    per_sequence_tokens_per_s: Number | None = None
    single_stream_tokens_per_s: Number | None = None
    best_layout: BestLayout
    supports: Supports
    targets: ServingTargets
    curve: list[CurvePoint] | None = None
    speculative: Speculative | None = None
    quantization: Quantization | None = None
    disaggregated: bool = False
    rate: Rate | None = None
    cost_per_million_output_tokens: CostPerMillion | None = None
    with_curve: bool = Field(default=True, exclude=True)

    @model_serializer(mode="wrap")
    def _what_it_carries(self, handler: Any) -> dict[str, Any]:
        out = handler(self)
        if not self.with_curve:
            del out["curve"]
        if self.cost_per_million_output_tokens is None:
            del out["cost_per_million_output_tokens"]
        return out
