"""vLLM's V1 releases before asynchronous scheduling became the default (0.8.0 up to 0.12.0: knowledge/serving.yaml
vllm sync_host_floor) run the host's work for a step -- schedule, prepare the inputs, launch the forward, sample,
update -- between forwards, so a step lasts at least the host's 4.5 ms, whatever the GPU. The figure is read on
sariekr/gpu_conc (Aug 2025): gpt-oss-20b at concurrency 1 steps in 1000 / 220.79 = 4.53 ms on an H200 (vLLM 0.10.0)
and 1000 / 219.77 = 4.55 ms on a B200 (0.10.1), parts whose bandwidths differ 1.6x (4.8 and 7.7 TB/s). A job that
states no release, or one outside the span, keeps the GPU step."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.engine import sync_host_floor


def _single(kb, accuracy, model: str, precision: str, version: str | None, gpu: str, framework: str = "vllm"):
    job = accuracy.serving_job(kb, model, precision, framework, 1000, 1000, framework_version=version)
    s = SV.choose(job, kb.gpus[gpu], 1)
    return s.engine, SV.point(job, s.engine, s.replica, 1.0)


def test_the_published_pair_is_gpu_independent(kb):
    """The two runs differ by 0.5% while the parts' bandwidths differ 1.6x (gpus.yaml: 4,800 and 7,700 GB/s)."""
    h200, b200 = 1000 / 220.79, 1000 / 219.77
    assert h200 == pytest.approx(4.53, abs=0.01) and b200 == pytest.approx(4.55, abs=0.01)
    assert b200 / h200 == pytest.approx(1.0, abs=0.01)
    assert kb.gpus["b200"].memory.bandwidth_gb_s / kb.gpus["h200-141gb-sxm"].memory.bandwidth_gb_s == pytest.approx(
        7.7 / 4.8, rel=0.01)


@pytest.mark.parametrize(("version", "floor"), [
    ("0.7.3", 0.0),    # V0: before the span
    ("0.8.0", 4.5e-3),  # the first V1-default release
    ("0.10.1", 4.5e-3),
    ("0.11.2", 4.5e-3),
    ("0.12.0", 0.0),   # asynchronous scheduling by default (pull request #27614)
    ("0.19.1", 0.0),
    (None, 0.0),       # no release stated: the current scheduling
])
def test_the_floor_applies_to_the_synchronous_releases_only(kb, version, floor):
    assert sync_host_floor(kb.framework("vllm"), version) == pytest.approx(floor)


def test_a_small_models_step_is_the_hosts_on_a_fast_gpu(kb, accuracy):
    """gpt-oss-20b on one B200: the GPU step (weights, 24 layers, routing kernels, 0.4 ms of host work) is 3.1 ms
    with no release stated; at 0.10.1 the step is the host's 4.5 ms, the excess counted as host overhead."""
    eng0, free = _single(kb, accuracy, "gpt-oss-20b", "fp4", None, "b200")
    eng1, sync = _single(kb, accuracy, "gpt-oss-20b", "fp4", "0.10.1", "b200")
    assert eng0.host_floor == 0.0 and eng1.host_floor == pytest.approx(4.5e-3)
    assert free.decode_step < 4.5e-3
    assert sync.decode_step == pytest.approx(4.5e-3)
    assert 1 / sync.decode_step == pytest.approx(222.2, abs=0.1)


def test_a_step_longer_than_the_floor_is_unchanged(kb, accuracy):
    """Qwen3-14B BF16 on one A100 streams 28 GB a step (17 ms): the floor does not bind, and the stated release (0.11.0,
    full CUDA graphs as the current releases: no piecewise term) gives the same step as none to the last bit."""
    _, free = _single(kb, accuracy, "qwen3-14b", "bf16", None, "a100-80gb-sxm")
    _, sync = _single(kb, accuracy, "qwen3-14b", "bf16", "0.11.0", "a100-80gb-sxm")
    assert free.decode_step > 4.5e-3
    assert sync.decode_step == free.decode_step


def test_sglang_overlaps_its_host_work(kb, accuracy):
    """SGLang's overlap scheduler (from 0.4) runs the host's work beside the forward: no floor."""
    eng, _ = _single(kb, accuracy, "gpt-oss-20b", "fp4", "0.5.1.post3", "b200", framework="sglang")
    assert eng.host_floor == 0.0
