"""vLLM's CUDA-graph mode by release: decode ran under piecewise graphs (attention launched eagerly between the
pieces) until 0.11.0 made FULL_AND_PIECEWISE the default (vllm-project/vllm pull request #25444, merged
2025-09-23). A job that states an earlier release pays, per layer, the full-graph figure plus the gap pull request
#20059 measured (Qwen2.5-1.5B-Instruct at QPS 1: median TPOT 5.42 ms piecewise against 5.02-5.09 ms with the full graph,
~14 us a layer over 28 layers)."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

PIECEWISE_GAP_US = (5.42 - 5.02) / 28 * 1e3  # pull request #20059, QPS 1, median TPOT: 14.3 us a layer


def _job(kb, version: str | None = None):
    w = {"task": "inference", "model": "qwen2.5-7b", "precision": "bf16", "framework": "vllm",
         "prompt_tokens": 200, "output_tokens": 128}
    if version:
        w["framework_version"] = version
    return resolve(Requirements.model_validate({"workload": w}), kb)


def test_piecewise_releases_pay_one_launch_gap_a_layer(kb):
    """Qwen2.5-7B (28 layers) on one H100: a job stating vLLM 0.8.5 steps 28 x 14 us = 0.392 ms slower than one
    stating 0.11.0 or none (the newest release), at any batch; nothing else in the step moves."""
    gpu = kb.gpus["h100-80gb-sxm"]
    assert pytest.approx(14.3, abs=0.1) == PIECEWISE_GAP_US
    old, new, unstated = (SV.engine(_job(kb, v), gpu) for v in ("0.8.5", "0.11.0", None))
    assert old.layer_overhead == pytest.approx(24e-6)
    assert new.layer_overhead == pytest.approx(10e-6) and unstated.layer_overhead == pytest.approx(10e-6)
    rep = SV.choose(_job(kb), gpu, 1).replica
    for batch in (1.0, 16.0, 64.0):
        slow = SV.step(_job(kb, "0.8.5"), old, rep, batch, 0.0, 264.0, 0.0).seconds
        fast = SV.step(_job(kb, "0.11.0"), new, rep, batch, 0.0, 264.0, 0.0).seconds
        assert slow - fast == pytest.approx(28 * 14e-6, rel=1e-9)


def test_vendor_builds_keep_their_own_layer_figure(kb):
    """The ROCm build's per-layer figure (vllm's amd vendor override, 11 us) applies whatever the release."""
    gpu = kb.gpus["mi300x"]
    for version in ("0.8.5", "0.11.0", None):
        assert SV.engine(_job(kb, version), gpu).layer_overhead == pytest.approx(11e-6)


def test_unstated_release_gets_the_current_graphs_unsaid(kb):
    """No framework_version: today's builds (full-graph decode) are priced, as for vLLM's ROCm paged-attention
    kernel (legacy_kv), without an assumption line: only a stated earlier release pays the piecewise gap."""
    assert not [a for a in _job(kb).assumptions if a.field == "workload.framework_version"]
