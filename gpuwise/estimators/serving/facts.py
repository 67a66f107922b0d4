"""The serving figures as the rules see them: the request-rate answer per candidate, and the serving
knobs (speculative decoding, quantization method, request rate) once per job."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ...messages import phrase_json, phrase_text
from . import options as O

if TYPE_CHECKING:
    from .result import ServingResult


def _num(x: Any) -> float:
    return float(x) if isinstance(x, int | float) and math.isfinite(x) else -1.0


def rate_fact(r: ServingResult | None) -> dict[str, Any]:
    """A candidate's request-rate figures (from its serving result; None: not served or not
    estimated): the highest rate served within the p95 limits in force, and the p95 latencies at
    the point the p95 rules judge (that rate, else a trickle of requests: ``RateAnswer.judged``)."""
    best = r.max_requests_per_s if r is not None else None
    at = r.rate_judged if r is not None else None
    # no rate asked: the load in flight (the concurrent requests, or the fewest that reach a throughput target) as
    # the rate it amounts to, by Little's law: the output tokens/s at the load over the output tokens of a request
    load = (r.throughput_tokens_per_s / r.output_tokens if r is not None and not r.requests_per_s
            and r.output_tokens > 0 and r.throughput_tokens_per_s > 0 else None)
    # the fewest of the count's copies that keep the rate asked within the limits: colocated copies each take an even
    # share of the Poisson arrivals, so the highest rate served is the copies' sum (rate.colocated: lam x copies)
    asked = r.requests_per_s if r is not None else None
    copies = r.layout.replicas if r is not None else 0
    needed = (math.ceil(asked * copies / best - 1e-9) if asked and best and best > 0 and copies >= 1
              and not r.disaggregated else -1)
    spare = copies - needed if needed >= 1 else 0
    need_words = (("", "rate.copies_needed_one" if needed == 1 else "rate.copies_needed", {"n": needed}),) \
        if needed >= 1 else ()
    spare_words = (("", "rate.copies_spare_one" if spare == 1 else "rate.copies_spare", {"n": spare}),) \
        if spare >= 1 else ()
    return {
        "max_requests_per_s": _num(best),
        "copies_for_rate": int(needed),
        # worded for one copy and for several (SRV-COPIES-BEYOND-RATE: 'need one of the copies, so the GPUs of the
        # other 3', not 'need 1 of the copies, so the GPUs of the others')
        "copies_needed": phrase_text(need_words), "copies_needed_phrases": phrase_json(need_words),
        "copies_spare": phrase_text(spare_words), "copies_spare_phrases": phrase_json(spare_words),
        "load_requests_per_s": _num(load),
        "p95_ttft_s": _num(at.ttft_p95) if at is not None else -1.0,
        "p95_tpot_s": _num(at.tpot_p95) if at is not None else -1.0,
        **_at_best(r),
    }


def _at_best(r: ServingResult | None) -> dict[str, float]:
    """The output at the highest request rate served within the p95 limits (the rate answer's best point): that
    rate x the output tokens of a request, and one sequence's speed there, one over its mean time per output token
    (the figure at the load is one over the load's). What the compute step says of a service whose rate asked the
    targets rule out (CMP-SERVES-PAST-RATE; review56: '2,800 tokens/s in total' at the rate asked beside the
    table's 2,044 within the targets, views/base.served_tokens_per_s: the same point). -1: no such point."""
    best = r.rate_best if r is not None else None
    if best is None or not best.stable or not best.tpot_mean > 0 or not math.isfinite(best.tpot_mean):
        return {"rate_max_tps": -1.0, "rate_max_decode_tps": -1.0}
    assert r is not None
    return {"rate_max_tps": _num(best.requests_per_s * r.output_tokens), "rate_max_decode_tps": 1.0 / best.tpot_mean}


def targets(w: Any) -> dict[str, Any]:
    """The workload's request-rate question as every candidate fact holds it (known before any
    count is estimated: the count search and the serving limits read it)."""
    asked = getattr(w, "requests_per_s", None)
    ttft, tpot = getattr(w, "p95_ttft_s", None), getattr(w, "p95_tpot_s", None)
    return {
        "requests_per_s": float(asked) if asked else -1.0, "has_rate_target": bool(asked),
        "max_p95_ttft_s": float(ttft) if ttft is not None else -1.0, "has_p95_ttft_target": ttft is not None,
        "max_p95_tpot_s": float(tpot) if tpot is not None else -1.0, "has_p95_tpot_target": tpot is not None,
    }


def _prefix_cache(fw: Any, w: Any) -> dict[str, Any]:
    """The stated prefix-cache hit rate against what the framework keeps (SRV-PREFIX-CACHE-NONE / -OFF)."""
    pc = getattr(fw, "prefix_cache", None)
    return {
        "prefix_cache_hit_rate": float(getattr(w, "prefix_cache_hit_rate", 0.0) or 0.0) if fw is not None else 0.0,
        "prefix_cache_kept": pc is None or pc.kept,
        "prefix_cache_applied": fw is None or O.prefix_cached(fw, w),
        "prefix_cache_default_first": (pc.default_first or "") if pc is not None else "",
        "framework_version": str(getattr(w, "framework_version", None) or "") if fw is not None else "",
    }


def job_fact(job: Any, results: list[ServingResult | None]) -> dict[str, Any]:
    """The job's serving knobs against the chosen framework, and the best rate any candidate serves."""
    w, kb = job.w, job.kb
    inference = not job.training and getattr(kb, "serving", None) is not None
    fw = kb.framework(w.framework) if inference else None
    spec = getattr(w, "speculative", None)
    quant = getattr(w, "quantization", None)
    asked = getattr(w, "requests_per_s", None)
    rates = [r.max_requests_per_s for r in results if r is not None and isinstance(r.max_requests_per_s, int | float)]
    best = max(rates, default=-1.0)
    return {
        "framework_name": fw.name if fw is not None else "",
        "speculative_method": spec.method if spec is not None else "none",
        "speculative_supported": fw is None or O.speculative(kb, fw, w)[1],
        "speculative_frameworks": ", ".join(O.supported_speculative(kb, spec.method)) if spec is not None else "",
        "model_mtp_layers": O.model_mtp_layers(job),
        "quantization_method": quant or "none",
        "quantization_supported": fw is None or O.quantization(kb, fw, w)[2],
        "quantization_frameworks": ", ".join(O.supported_quantization(kb, quant)) if quant else "",
        **_prefix_cache(fw, w),
        "requests_per_s": float(asked) if asked else -1.0, "has_rate_target": bool(asked),
        "best_requests_per_s": float(best),
        **target_units(w),
    }


def target_units(w: Any) -> dict[str, Any]:
    """The stated p95 targets with the figures a unit slip is told by (SRV-P95-TTFT-UNIT / -TPOT-UNIT, the plan's
    PLAN-P95-*-UNIT): a dashboard prints latencies in milliseconds and these fields are seconds, so a target is also
    given in ms (its own words) and read as ms (what to write instead)."""
    got = targets(w)
    out = {k: got[k] for k in ("max_p95_ttft_s", "has_p95_ttft_target", "max_p95_tpot_s", "has_p95_tpot_target")}
    for name, s in (("ttft", got["max_p95_ttft_s"]), ("tpot", got["max_p95_tpot_s"])):
        out[f"p95_{name}_target_ms"] = s * 1e3 if s > 0 else -1.0
        out[f"p95_{name}_as_ms_s"] = s / 1e3 if s > 0 else -1.0
    return out
