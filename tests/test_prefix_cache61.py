"""A prefix cache hit rate on a framework that keeps no prefix cache (branch product61).

workload.prefix_cache_hit_rate was applied on every framework: a chat service on transformers' generate() stating
half of each prompt cached was priced with half the prefill, though generate() builds a new KV cache each call
(huggingface/transformers docs/source/en/kv_cache.md, 'Re-use Cache to continue generation': a prefix is reused only
where the caller passes a cache it filled), and a vLLM release before 0.8.0 likewise, whose default V0 engine keeps
no prefixes unless started with --enable-prefix-caching (vllm/engine/arg_utils.py: 'V1 enables prefix caching by
default', V1 the default engine from 0.8.0). knowledge/serving.yaml frameworks prefix_cache now says what each
keeps; where the job's server keeps none the hit rate is not applied (the whole prompt prefilled) and a finding says
so: SRV-PREFIX-CACHE-NONE (transformers), SRV-PREFIX-CACHE-OFF (vLLM before 0.8.0, unless the job states
prefix_cache: true). SGLang (its radix cache, on unless --disable-radix-cache), TensorRT-LLM and llama.cpp keep the
hit rate.
"""

from __future__ import annotations

import pytest

import gpuwise

W = {"task": "inference", "model": "llama-3.1-8b", "precision": "bf16", "prompt_tokens": 2000, "output_tokens": 200,
     "concurrent_requests": 8}


def _ttft(**extra) -> float:
    return gpuwise.estimate({"workload": {**W, **extra}}, gpu="l40s", gpus=1).gpu.serving.ttft_s


def _findings(**extra) -> dict[str, str]:
    got = gpuwise.recommend({"workload": {**W, **extra}, "constraints": {"gpus": ["l40s"], "max_gpus": 1}})
    return {f.rule: f.message for f in got.findings if f.rule.startswith("SRV-PREFIX-CACHE")}


def test_transformers_prefills_every_prompt_whole():
    assert _ttft(framework="transformers", prefix_cache_hit_rate=0.5) == pytest.approx(
        _ttft(framework="transformers"), rel=1e-12)
    found = _findings(framework="transformers", prefix_cache_hit_rate=0.5)
    assert set(found) == {"SRV-PREFIX-CACHE-NONE"}
    assert "keeps no prompt prefixes from one request to the next" in found["SRV-PREFIX-CACHE-NONE"]
    assert "hit rate of 0.50 is not applied" in found["SRV-PREFIX-CACHE-NONE"]


def test_vllm_before_its_v1_default_keeps_none_unless_stated_on():
    old = {"framework": "vllm", "framework_version": "0.7.3"}
    assert _ttft(**old, prefix_cache_hit_rate=0.5) == pytest.approx(_ttft(**old), rel=1e-12)
    found = _findings(**old, prefix_cache_hit_rate=0.5)
    assert set(found) == {"SRV-PREFIX-CACHE-OFF"}
    assert "vLLM 0.7.3 keeps prompt prefixes only when started with its prefix caching on (by default from 0.8.0)" in \
        found["SRV-PREFIX-CACHE-OFF"]
    # --enable-prefix-caching stated: applied, no finding
    assert _ttft(**old, prefix_cache_hit_rate=0.5, prefix_cache=True) < 0.7 * _ttft(**old)
    assert not _findings(**old, prefix_cache_hit_rate=0.5, prefix_cache=True)


@pytest.mark.parametrize("extra", [{"framework": "vllm"}, {"framework": "vllm", "framework_version": "0.8.0"},
                                   {"framework": "sglang"}, {"framework": "tensorrt-llm"}])
def test_a_server_that_keeps_prefixes_applies_the_hit_rate(extra):
    assert _ttft(**extra, prefix_cache_hit_rate=0.5) < 0.7 * _ttft(**extra)
    assert not _findings(**extra, prefix_cache_hit_rate=0.5)


def test_no_hit_rate_no_finding():
    assert not _findings(framework="transformers")
    assert not _findings(framework="vllm", framework_version="0.7.3")
