"""What an engine's start-up profile run holds beside the weights when the engine sizes its KV pool from that run's
peak (serving.yaml ``profile_sampler``): vLLM's profile_run ends in a dummy sampler pass whose logits, gathered whole
on every rank, and their sorted, softmaxed and sampled copies can outweigh the forward's own working set."""

from __future__ import annotations

from typing import Any

from ...knowledge.records import version_key
from .engine import Engine


def sampler_peak(job: Any, eng: Engine, vendor: str) -> float:
    """Bytes a GPU the profile's dummy sampler pass peaks at: ``bytes_per_logit`` x the model's vocabulary x the
    requests it samples, min(max_num_seqs, max_num_batched_tokens) (the job's ``max_batch_size`` where it states
    one, else the framework's default on this GPU). 0 where the framework's entry is not read, for another vendor's
    build, or for a stated release before ``first``."""
    rule = getattr(eng.fw, "profile_sampler", None)
    if rule is None or vendor not in rule.vendors:
        return 0.0
    version = getattr(job.w, "framework_version", None)
    if version is not None and version_key(version) < version_key(rule.first):
        return 0.0
    requests = min(getattr(job.w, "max_batch_size", None) or eng.max_batch, eng.chunk)
    return rule.bytes_per_logit.value * job.shape.vocab * requests


def profile_beyond(job: Any, eng: Engine, vendor: str, working_set: float) -> float:
    """Bytes a GPU the profiled peak holds beyond ``working_set`` (the forward's, as gpuwise counts it): the
    sampler's peak where it is the larger, else 0 (the two peaks come one after the other)."""
    return max(0.0, sampler_peak(job, eng, vendor) - working_set)
