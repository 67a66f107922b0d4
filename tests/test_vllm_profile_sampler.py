"""vLLM's V1 worker sizes its KV cache as gpu_memory_utilization x the device less the weights, the start-up profile
run's torch peak and its non-torch memory, and that run ends in a dummy sampler pass over min(max_num_seqs,
max_num_batched_tokens) requests with the whole vocabulary's logits on every rank (knowledge/serving.yaml vllm
profile_sampler). Checked against the startup logs llm-d/llm-d-benchmark read term by term
(config_explorer/empirical-vllm-memory-results.md @ 4f4d44943c39b76b28e30dfa1fb0dfaf1ee894b5: vLLM 0.11 on H100 SXM,
79.18 GiB, server defaults: max_num_seqs 1,024, max_num_batched_tokens 8,192, gpu_memory_utilization 0.9)."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.profile import sampler_peak

GIB = 2**30


def _served(kb, accuracy, model: str, precision: str, tp: int, version: str | None = "0.11.0", **opts):
    options = ";".join(f"{k}={v}" for k, v in opts.items())
    job = accuracy.serving_job(kb, model, precision, "vllm", 1000, 1000, 64, tp, framework_version=version,
                               options=options)
    return job, SV.choose(job, kb.gpus["h100-80gb-sxm"], tp)


def test_the_sampler_peak_is_its_bytes_a_logit_times_vocabulary_times_requests(kb, accuracy):
    """Llama-3.1-8B (vocabulary 128,256) at 1,024 requests: 37.7 x 128,256 x 1,024 = 4,951,216,538 B = 4.61 GiB,
    the log's torch peak 4.76 GiB less its forward's own retained outputs; a stated max_num_seqs of 256 samples a
    quarter as many rows (4.61 / 4 = 1.15 GiB)."""
    job, s = _served(kb, accuracy, "llama-3.1-8b", "bf16", 1)
    assert s.engine.max_batch == 1024 and s.engine.chunk == 8192
    assert sampler_peak(job, s.engine, "nvidia") == pytest.approx(37.7 * 128_256 * 1_024)
    assert sampler_peak(job, s.engine, "nvidia") / GIB == pytest.approx(4.76, abs=0.2)
    small, s2 = _served(kb, accuracy, "llama-3.1-8b", "bf16", 1, max_batch_size=256)
    assert sampler_peak(small, s2.engine, "nvidia") == pytest.approx(37.7 * 128_256 * 256)


@pytest.mark.parametrize(("model", "precision", "tp", "logged_kv_gib"), [
    ("llama-3.1-8b", "bf16", 1, 51.38),   # 71.26 - 14.99 weights - 4.76 peak - 0.13 non-torch
    ("qwen3-32b", "bf16", 1, 4.45),       # 71.26 - 61.03 - 5.64 - 0.14
    ("qwen3-32b", "bf16", 2, 34.49),      # 71.26 - 30.59 - 5.64 - 0.54
    ("qwen3-0.6b", "bf16", 1, 64.45),     # 71.26 - 1.12 - 5.56 - 0.13
    ("llama-3.3-70b", "fp8", 2, 32.00),   # 71.26 - 33.88 - 4.84 - 0.55
])
def test_the_kv_cache_vllm_logged_on_one_h100(kb, accuracy, model, precision, tp, logged_kv_gib):
    """Each GPU's pool within 0.4 GiB of the log's 'Available KV cache memory'; without the sampler's peak gpuwise
    left 2.9 to 4.6 GiB more (its working set is the forward's alone: 0.8-2.1 GiB a GPU), the pool of Qwen3-32B on
    one H100 1.7 times the log's."""
    _, s = _served(kb, accuracy, model, precision, tp)
    rep = s.replica
    assert rep.pool_kind == "total" and rep.pool_share == 0.9
    assert rep.free_gpu / GIB == pytest.approx(logged_kv_gib, abs=0.4)
    assert (rep.free_gpu + rep.profile_gpu) / GIB - logged_kv_gib > 2.5


def test_only_the_v1_releases_and_their_vendors_profile_so(kb, accuracy):
    """A job stating a V0 release (0.7.3) keeps the forward's working set alone; one stating none is taken as the
    current releases, which sample; an Ascend or Intel build runs its own worker (not read)."""
    old, s_old = _served(kb, accuracy, "llama-3.1-8b", "bf16", 1, version="0.7.3")
    assert sampler_peak(old, s_old.engine, "nvidia") == 0.0 and s_old.replica.profile_gpu == 0.0
    now, s_now = _served(kb, accuracy, "llama-3.1-8b", "bf16", 1, version=None)
    assert sampler_peak(now, s_now.engine, "nvidia") > 0.0
    assert sampler_peak(now, s_now.engine, "huawei") == 0.0 and sampler_peak(now, s_now.engine, "intel") == 0.0


def test_a_stated_utilization_holds_the_same_peak(kb, accuracy):
    """At a stated gpu_memory_utilization (workload.memory_fraction, 0.9 here) the pool is the same as at the
    default: the profile run is the same."""
    _, s = _served(kb, accuracy, "qwen3-32b", "bf16", 2, memory_fraction=0.9)
    _, d = _served(kb, accuracy, "qwen3-32b", "bf16", 2)
    assert s.replica.free_gpu == pytest.approx(d.replica.free_gpu)
    assert s.replica.profile_gpu == pytest.approx(d.replica.profile_gpu) and s.replica.profile_gpu > 0
