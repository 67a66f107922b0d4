"""What the serving estimate hands on for one candidate: a typed record of the chosen layout's
figures (built by :func:`gpuwise.estimators.serving.report.result`), which the facts, the results
and ``gpu.serving`` of the estimate JSON (:func:`serving_json`) read by attribute."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ... import results_serving as RO
from ...ledger import built
from ...messages import Phrase, phrase_json, template
from .choice import Alternative
from .layout import Layout
from .options import Spec
from .rate import RatePoint
from .support import Support


@dataclass(slots=True)
class ServingResult:
    """The chosen way to serve on one GPU type x count, at the load it is reported at. Every field
    is set once when the estimate is made, except ``curve``: the throughput/latency curve is drawn
    only when a result shows this candidate (most candidates are only ranked)."""

    framework: str  # id
    framework_name: str
    support: Support  # whether the framework runs this GPU, precision and copy size, and why not
    weight_format: str
    compute_precision: str
    weight_only_fallback: bool
    layout: Layout
    layout_label: str
    layout_label_phrases: tuple[Phrase, ...]
    prompt_tokens: float
    output_tokens: float
    max_concurrent_sequences: int
    framework_default_max_batch: int
    fits: bool  # one copy's weights and working set fit its GPUs
    kv_free_per_gpu_bytes: float
    weights_per_gpu_bytes: float  # the copy's weights (and drafter) per GPU of the chosen layout
    sequence_per_gpu_bytes: float  # what one sequence takes per GPU at admission (its KV cache)
    # at the load: the concurrent requests given, or the fewest that reach the throughput target
    load_concurrency: float
    load_source: str  # a message id (load.*): the JSON writes its text
    throughput_tokens_per_s: float
    ttft_s: float
    tpot_s: float
    # the most this layout sustains within the latency targets
    max_throughput_tokens_per_s: float
    max_throughput_concurrency: float
    max_throughput_ttft_s: float | None
    max_throughput_tpot_s: float | None
    # the most any layout of this count sustains (the chosen one when it is the best)
    best_layout: Layout
    best_layout_max_throughput_tokens_per_s: float
    best_layout_max_throughput_concurrency: float
    best_layout_max_concurrent_sequences: int
    # the best layout peaks higher than the chosen one by more than policy serving_higher_peak_fraction
    best_layout_higher_peak: bool
    single_stream_tokens_per_s: float | None
    single_stream_ttft_s: float
    target_tokens_per_s: float
    max_ttft_ms: float | None
    max_tpot_ms: float | None
    meets_throughput_target: bool | None
    meets_ttft: bool | None
    meets_tpot: bool | None
    alternatives: list[Alternative]  # the other layouts of the count
    # the knobs: speculative decoding and quantization as modelled, and who runs them
    speculative: Spec | None
    speculative_method: str | None
    speculative_supported: bool
    speculative_frameworks: list[str]
    quantization_method: str | None
    quantization_supported: bool
    quantization_frameworks: list[str]
    disaggregated: bool
    # the request-rate answer (requests_per_s with p95 targets)
    requests_per_s: float | None
    p95_ttft_target_s: float | None
    p95_tpot_target_s: float | None
    rate_model: str | None  # message ids (rate.*), "" for no note: the JSON writes their text
    rate_note: str
    max_requests_per_s: float | None
    rate_best: RatePoint | None
    rate_at: RatePoint | None
    meets_rate: bool | None
    curve: list[RO.CurvePoint] | None = None
    rate_judged: RatePoint | None = None  # the point the p95 rules judge (rate_best, else a trickle of requests)
    # the most requests in flight within the p95 targets, judged as SRV-RATE-AT-LOAD judges a load in flight
    # (choice.p95_in_flight); None: no p95 answer, or a load given as a rate
    p95_in_flight: float | None = None
    # a single sequence's decode step: seconds of tensor-parallel all-reduces over the network (0: inside a node)
    cross_node_tp_s: float = 0.0
    cross_node_allreduce_s: float = 0.0  # the fixed part of each such all-reduce (layout.cross_node_allreduce)
    # a stated KV pool (workload.kv_cache_tokens): its tokens, its bytes a GPU, and the memory a GPU has for it
    kv_pool_tokens: int = 0
    kv_pool_per_gpu_bytes: float = 0.0
    kv_pool_room_per_gpu_bytes: float = 0.0

    @property
    def per_sequence_tokens_per_s(self) -> float | None:
        """One sequence's output speed at the load: one over the time per output token."""
        return 1 / self.tpot_s if self.tpot_s > 0 and math.isfinite(self.tpot_s) else None

    @property
    def achieved_ttft_ms(self) -> float:
        return self.ttft_s * 1e3

    @property
    def achieved_tpot_ms(self) -> float:
        return self.tpot_s * 1e3

    @property
    def max_batch_raised(self) -> bool:
        """More sequences fit than the framework's default batch limit lets in (per copy and rank)."""
        lay = self.layout
        return self.max_concurrent_sequences > self.framework_default_max_batch * lay.replicas * lay.dp_attention


def _rate_point(p: RatePoint | None, output_tokens: float) -> RO.RatePoint | None:
    """One rate's figures; its output tokens/s are every request's output at that rate (Little's law), where the
    queue is stable (above what the system serves, what comes out is not the rate's)."""
    if p is None:
        return None

    def fin(x: float) -> float | None:
        return x if math.isfinite(x) else None

    return built(RO.RatePoint, dict(
        requests_per_s=p.requests_per_s, p95_ttft_s=fin(p.ttft_p95), p95_tpot_s=fin(p.tpot_p95),
        mean_ttft_s=fin(p.ttft_mean), mean_tpot_s=fin(p.tpot_mean), batch_per_copy=p.batch,
        slot_utilisation=p.slot_utilisation, prefill_utilisation=p.prefill_utilisation, stable=p.stable,
        prefill_copies=p.prefill_copies or None, decode_copies=p.decode_copies or None,
        output_tokens_per_s=p.requests_per_s * output_tokens if p.stable else None))


def _finite(x: float) -> float | None:
    """A time as the JSON writes it: None where none was timed (infinite: the copy does not fit)."""
    return x if math.isfinite(x) else None


def layout_out(lay: Layout) -> RO.ServingLayout:
    return built(RO.ServingLayout, dict(tp=lay.tp, pp=lay.pp, ep=lay.ep, dp_attention=lay.dp_attention,
                                        replicas=lay.replicas, gpus_per_copy=lay.gpus_per_copy))


def serving_json(r: ServingResult | None, *, with_curve: bool = True) -> RO.ServingOut | None:
    """``gpu.serving`` of the estimate JSON (contract version 2) from a serving result (None: the
    candidate is not served, or its estimate was not made); ``with_curve=False``: without the
    throughput/latency curve (a recommendation's candidates leave it to the estimate)."""
    if r is None:
        return None
    sup = r.support
    spec = r.speculative
    layout = layout_out(r.layout)
    return built(RO.ServingOut, dict(
        max_concurrent_sequences=int(r.max_concurrent_sequences),
        throughput_tokens_per_s=r.throughput_tokens_per_s,
        max_throughput_tokens_per_s=r.max_throughput_tokens_per_s,
        ttft_s=_finite(r.ttft_s),  # None: a copy that does not fit is not timed
        tpot_s=_finite(r.tpot_s),
        concurrency=r.load_concurrency,
        concurrency_source=template(r.load_source),
        framework=r.framework,
        layout=layout,
        layout_label=r.layout_label,
        weight_format=r.weight_format,
        compute_precision=r.compute_precision,
        prompt_tokens=r.prompt_tokens,
        output_tokens=r.output_tokens,
        max_throughput_concurrency=r.max_throughput_concurrency,
        max_throughput_layout=layout,
        per_sequence_tokens_per_s=r.per_sequence_tokens_per_s,
        single_stream_tokens_per_s=r.single_stream_tokens_per_s,
        best_layout=built(RO.BestLayout, dict(
            layout=layout_out(r.best_layout), label=r.best_layout.label(),
            max_throughput_tokens_per_s=r.best_layout_max_throughput_tokens_per_s,
            max_throughput_concurrency=r.best_layout_max_throughput_concurrency,
            max_concurrent_sequences=r.best_layout_max_concurrent_sequences,
            higher_peak=r.best_layout_higher_peak)),
        supports=built(RO.Supports, dict(gpu=sup.gpu_ok, precision=sup.precision_ok, multi_node=sup.multi_node_ok,
                                         reason=sup.reason, detail=sup.detail,
                                         detail_phrases=phrase_json(sup.detail_phrases))),
        targets=built(RO.ServingTargets, dict(
            tokens_per_s=r.target_tokens_per_s or None, max_ttft_ms=r.max_ttft_ms, max_tpot_ms=r.max_tpot_ms,
            meets_throughput_target=r.meets_throughput_target, meets_ttft=r.meets_ttft, meets_tpot=r.meets_tpot)),
        curve=r.curve,
        speculative=(built(RO.Speculative, dict(
            method=spec.method if spec is not None else r.speculative_method,
            acceptance_rate=spec.alpha if spec is not None else None, draft_tokens=spec.k if spec is not None else None,
            tokens_per_step=spec.tokens_per_step if spec is not None else None,
            draft_layers=spec.draft_layers if spec is not None else None,
            draft_params_b=spec.draft_params / 1e9 if spec is not None and spec.draft_params else None,
            supported=r.speculative_supported, frameworks=r.speculative_frameworks, modelled=spec is not None))
            if r.speculative_method else None),
        quantization=(built(RO.Quantization, dict(method=r.quantization_method, supported=r.quantization_supported,
                                                  frameworks=r.quantization_frameworks))
                      if r.quantization_method else None),
        disaggregated=r.disaggregated,
        rate=(built(RO.Rate, dict(
            model=template(r.rate_model), note=template(r.rate_note) if r.rate_note else None,
            requests_per_s=r.requests_per_s,
            targets=built(RO.RateTargets, dict(p95_ttft_s=r.p95_ttft_target_s, p95_tpot_s=r.p95_tpot_target_s)),
            max_requests_per_s=r.max_requests_per_s, at_max=_rate_point(r.rate_best, r.output_tokens),
            at_requests_per_s=_rate_point(r.rate_at, r.output_tokens), meets_requests_per_s=r.meets_rate))
            if r.rate_model else None),
        cost_per_million_output_tokens=None,
        with_curve=with_curve))


def reason_phrases(r: ServingResult) -> list[Any]:
    """Why the framework cannot run this candidate, JSON-ready (message ids and values)."""
    return phrase_json(r.support.detail_phrases)
