"""Which models a release's fused small-kernel figure holds for (serving.yaml ``fused_kernel_models``): SGLang's
builds from 0.5.7 list the architectures with explicit support for their fused decode-layer kernels (the models
its FlashInfer all-reduce fusion is turned on for by default), and the release entry's per-kernel figure was read
on one of them (DeepSeek-R1). Another model runs the small kernels its own code launches, at the framework's own
figure for a counted kernel, and so does a listed model on a GPU the release leaves the fusion off on."""

from __future__ import annotations

from typing import Any

from ...knowledge.records import version_key


def kernel_floor(job: Any, fw: Any, rel: Any, floor: float, gpu_id: str | None = None) -> float:
    """Seconds a counted small kernel costs the job: ``floor`` (its release entry's figure) where the framework lists
    no such models, the release predates the list, or the job's model is on it and the release does not leave the
    fusion off on the job's GPU (``gpus_excluded``: SGLang 0.5.7-0.5.12 on the H20); else the framework's own
    figure."""
    listed = fw.fused_kernel_models
    if listed is None or rel is None or rel.kernel_floor_us is None:
        return floor
    span = release_entry(listed.releases, getattr(job.w, "framework_version", None))
    if span is None or (job.model_id in span.models and gpu_id not in span.gpus_excluded):
        return floor
    return float(fw.kernel_floor_us.value) * 1e-6


def release_entry(entries: list, version: str | None) -> Any:
    """The last of ``entries`` (oldest first, each with ``since``) at or before ``version``, the newest where none is
    given; None before the first."""
    if version is None:
        return entries[-1]
    key = version_key(version)
    got = [e for e in entries if version_key(e.since) <= key]
    return got[-1] if got else None
