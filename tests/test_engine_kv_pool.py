"""The KV pool an engine sizes itself from the device's memory (serving.yaml ``kv_pool``).

TensorRT-LLM gives the KV cache KvCacheConfig.free_gpu_memory_fraction (0.9) of the memory free once the model is
loaded and warmed up (tensorrt_llm/llmapi/llm_args.py); vLLM lets the weights, activations and KV cache take
gpu_memory_utilization (0.9) of the device's total (vllm/engine/arg_utils.py). The smaller of that and gpuwise's
headroom policy (0.95 of the card) bounds the pool. Memory is the driver's total (gpus.yaml smi_mib)."""

from __future__ import annotations

import pytest

from gpuwise.estimators import memory as M
from gpuwise.estimators import serving as SV
from tests.conftest import validation_row

MIB = 2**20


def _choice(kb, accuracy, rid: str):
    row = validation_row("serving_independent.csv", rid)
    conc = int(row["prompts"]) if row["concurrency"] == "max" else int(row["concurrency"])
    job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                               int(row["output_tokens"]), conc, int(row["tp"]), int(row["pp"]),
                               int(row["ep"]) if row["ep"] else None, row["kv_precision"] or None,
                               row["framework_version"] or None, row["workload_options"] or "",
                               offline=accuracy.offline_metric(row["metric"]))
    return SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))


def _held(kb, r) -> float:
    """What a GPU holds before its KV cache: weights, working set, CUDA context and allocator allowance."""
    rt = kb.runtime
    return M.total_bytes(r.weights_gpu + r.act_gpu, r.act_gpu,
                         (rt.cuda_context_bytes.value, rt.allocator_overhead_fraction.value))


def test_tensorrt_llm_pool_is_its_share_of_the_free_memory(kb, accuracy):
    """Y09 (gpt-oss-20b on one B200, trtllm-bench): the pool is 0.9 x (192.27 GB - 13.8 GB of weights - working set
    - context, 17.4 GB held in all) = 157.4 GB, below the 0.95 x 192.27 - 17.4 = 165.3 GB gpuwise's headroom
    would leave."""
    s = _choice(kb, accuracy, "Y09")
    r, cap = s.replica, 183359 * MIB
    assert r.pool_kind == "free" and r.pool_share == 0.9
    assert r.free_gpu == pytest.approx(0.9 * (cap - _held(kb, r)), rel=1e-9)
    assert r.free_gpu < 0.95 * cap - _held(kb, r)
    assert r.free_gpu == pytest.approx(157.4e9, abs=0.1e9)


def test_vllm_pool_is_its_share_of_the_whole_memory(kb, accuracy):
    """TT01 (Qwen3-32B BF16 on one H100, 'vllm serve' defaults): weights, working set and KV pool share 0.9 x
    81,559 MiB = 76.97 GB; the 65.5 GB of BF16 weights, the working set and the context (68.9 GB) leave 8.0 GB, not
    the 12.3 GB of 0.95, and the start-up profile's sampler pass takes 3.65 GB more of it: 37.7 B x 151,936 x 1,024
    = 5.87 GB against the forward's 2.22 GB working set (serving.yaml vllm profile_sampler; the larger of the two
    peaks, which come one after the other): a 4.39 GB pool."""
    s = _choice(kb, accuracy, "TT01")
    r, cap = s.replica, 81559 * MIB
    assert r.pool_kind == "total" and r.pool_share == 0.9
    assert r.profile_gpu == pytest.approx(37.7 * 151_936 * 1_024 - r.act_gpu, rel=1e-9)
    assert r.free_gpu == pytest.approx(0.9 * cap - _held(kb, r) - r.profile_gpu, rel=1e-9)
    assert r.free_gpu + r.profile_gpu == pytest.approx(8.0e9, abs=0.1e9)
    assert r.free_gpu == pytest.approx(4.39e9, abs=0.01e9)
    assert 0.95 * cap - _held(kb, r) == pytest.approx(12.3e9, abs=0.1e9)


def test_a_pool_the_engine_cannot_start_with_leaves_the_headroom_policy(kb, accuracy):
    """Y03 (DeepSeek-R1 NVFP4, DEP4 on 4 x B200): 110.5 GB of weights a GPU; TensorRT-LLM's 0.9 of the 79.3 GB left
    (71.4 GB) is more than gpuwise's 0.95 x 192.27 - 112.7 = 69.6 GB, so the headroom policy bounds the pool."""
    r = _choice(kb, accuracy, "Y03").replica
    assert r.pool_kind == ""
    assert r.free_gpu == pytest.approx(0.95 * 183359 * MIB - _held(kb, r), rel=1e-9)
