"""``workload.memory_fraction``: the server's memory setting as it was started, read by each framework's own meaning
(knowledge/serving.yaml ``memory_fraction``; gpuwise/estimators/serving/layout.py ``stated_pool``).

- vLLM --gpu-memory-utilization (vllm/config/cache.py CacheConfig.gpu_memory_utilization): the share of the GPU's
  memory the instance's executor may use, weights, profiled activation peak, CUDA context and KV cache together.
- SGLang --mem-fraction-static (python/sglang/srt/model_executor/model_runner.py profile_max_num_token, in 0.5.x
  model_runner_kv_cache_mixin.py): rest_memory = available_gpu_memory - total_gpu_memory x (1 - mem_fraction_static),
  i.e. the share of the device less the weights and the CUDA context; the working set lies outside it.
- TensorRT-LLM KvCacheConfig.free_gpu_memory_fraction (tensorrt_llm/llmapi/llm_args.py): the share of the memory
  still free once the model is loaded that goes to the KV cache.
"""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements, Workload
from gpuwise.inputs.workload import MEMORY_FRACTION_FRAMEWORKS

from .clirun import gpuwise as gpuwise_cli

H100_BYTES = 81559 * 2**20  # the H100 SXM's memory as nvidia-smi gives it (gpus.yaml)
LLAMA8B_WEIGHTS = 8_030_261_248 * 2  # Llama-3.1-8B's parameters in BF16
# a sequence of 1000 + 1000 tokens, admitted at its current length (1000 + 500) in whole 16-token blocks (vLLM), of
# 2 x 32 layers x 8 KV heads x 128 x 2 B = 131,072 B a token
LLAMA8B_SEQ = 131_072 * math.ceil(1500 / 16) * 16


def job_of(kb, **w):
    w.setdefault("task", "inference")
    w.setdefault("model", "llama-3.1-8b")
    w.setdefault("prompt_tokens", 1000)
    w.setdefault("output_tokens", 1000)
    return resolve(Requirements.model_validate({"workload": w}), kb)


def _vllm_beside(kb):
    """What an H100 holds beside vLLM's KV pool for Llama-3.1-8B (tests/test_serving.py test_kv_capacity_by_hand):
    the weights, the larger of one 8,192-token prefill chunk's working set (with 1,024 sequences' sampled logits,
    fp32) and the start-up profile's dummy sampler pass (37.7 B a logit x 128,256 x min(max_num_seqs 1,024,
    max_num_batched_tokens 8,192) = 4.95 GB: serving.yaml vllm profile_sampler; the two peaks come one after the
    other), the CUDA context and the allocator allowance on that working set."""
    act = (8 * 4096 + 6 * 14336) * 8192 + 4 * 128256 * 1024
    sampler = 37.7 * 128256 * 1024
    return LLAMA8B_WEIGHTS + max(act, sampler) + kb.runtime.cuda_context_bytes.value + \
        kb.runtime.allocator_overhead_fraction.value * act


def test_vllm_gpu_memory_utilization_by_hand(kb):
    """--gpu-memory-utilization 0.8: the pool is 0.8 x 81,559 MiB less the weights, the profiled peak and context
    (43.08 GiB), and the copy holds floor(pool / 196,608,000 B) sequences (vLLM's default 0.9 holds 278; 0.8 holds
    234)."""
    s = SV.choose(job_of(kb, framework="vllm", memory_fraction=0.8), kb.gpus["h100-80gb-sxm"], 1)
    pool = 0.8 * H100_BYTES - _vllm_beside(kb)
    assert s.replica.free_gpu == pytest.approx(pool, rel=1e-9)
    assert s.max_concurrent == int(pool // LLAMA8B_SEQ) == 234
    assert s.replica.share_stated and s.replica.pool_share == 0.8 and s.replica.pool_kind == "total"
    default = SV.choose(job_of(kb, framework="vllm"), kb.gpus["h100-80gb-sxm"], 1)
    assert default.max_concurrent == int((0.9 * H100_BYTES - _vllm_beside(kb)) // LLAMA8B_SEQ) == 278


def test_a_stated_setting_passes_gpuwise_headroom_never_the_device(kb):
    """0.98 is the engine's own allocation: past gpuwise's usable 0.95 of the card (memory_headroom_fraction 0.05),
    still the vLLM formula; 1.0 is the whole device less what it holds beside the pool."""
    assert float(kb.policy_value("memory_headroom_fraction")) == 0.05
    high = SV.choose(job_of(kb, framework="vllm", memory_fraction=0.98), kb.gpus["h100-80gb-sxm"], 1)
    assert high.replica.free_gpu == pytest.approx(0.98 * H100_BYTES - _vllm_beside(kb), rel=1e-9)
    assert high.replica.free_gpu > high.engine.usable - _vllm_beside(kb)
    whole = SV.choose(job_of(kb, framework="vllm", memory_fraction=1.0), kb.gpus["h100-80gb-sxm"], 1)
    assert whole.replica.free_gpu == pytest.approx(H100_BYTES - _vllm_beside(kb), rel=1e-9)


def test_a_setting_that_leaves_no_room_serves_nothing_on_that_copy(kb):
    """0.2 x 85.5 GB = 17.1 GB cannot hold 16.1 GB of weights and a working set: vLLM does not start on one GPU."""
    s = SV.choose(job_of(kb, framework="vllm", memory_fraction=0.2), kb.gpus["h100-80gb-sxm"], 1)
    assert not s.replica.fits and s.max_concurrent == 0


def test_sglang_mem_fraction_static_by_hand(kb):
    """--mem-fraction-static 0.8 on the newest release: the pool is 0.8 x 81,559 MiB less the weights and the CUDA
    context (the working set outside it), where the release's default from the device's memory was 0.835
    (serving.yaml reserved_memory: 13,440 MiB reserved on an 81,559-MiB H100 at TP 1)."""
    s = SV.choose(job_of(kb, framework="sglang", memory_fraction=0.8), kb.gpus["h100-80gb-sxm"], 1)
    ctx = kb.runtime.cuda_context_bytes.value
    pool = 0.8 * H100_BYTES - LLAMA8B_WEIGHTS - ctx
    assert s.replica.free_gpu == pytest.approx(pool, rel=1e-9)
    block = s.engine.fw.kv_block_tokens  # SGLang's token-granular pool: 1
    per_seq = 131_072 * math.ceil(1500 / block) * block
    assert s.max_concurrent == int(pool // per_seq)
    assert s.replica.share_stated and s.replica.pool_share == 0.8 and s.replica.pool_kind == ""
    default = SV.choose(job_of(kb, framework="sglang"), kb.gpus["h100-80gb-sxm"], 1)
    assert default.replica.pool_share == pytest.approx(1 - 13_440 / 81_559, abs=1e-3)
    assert default.replica.free_gpu == pytest.approx(default.replica.pool_share * H100_BYTES - LLAMA8B_WEIGHTS - ctx,
                                                     rel=1e-9)


def test_sglang_stated_share_replaces_the_early_releases_table(kb):
    """SGLang 0.4.3.post2 on 8 x H200 at TP 8 takes 0.81 when not given (server_args.py); --mem-fraction-static 0.7
    sizes the pool at 0.7 x capacity - weights - context instead."""
    w = {"model": "deepseek-v3", "precision": "fp8", "framework": "sglang", "framework_version": "0.4.3.post2",
         "prompt_tokens": 1, "output_tokens": 512, "concurrent_requests": 10000, "parallelism": {"tp": 8, "pp": 1}}
    s = SV.choose(job_of(kb, **w, memory_fraction=0.7), kb.gpus["h200-141gb-sxm"], 8)
    eng, rep = s.engine, s.replica
    assert rep.free_gpu == pytest.approx(0.7 * eng.capacity - rep.weights_gpu - eng.context_bytes, rel=1e-12)
    default = SV.choose(job_of(kb, **w), kb.gpus["h200-141gb-sxm"], 8).replica
    assert default.free_gpu - rep.free_gpu == pytest.approx(0.11 * eng.capacity, rel=1e-9)


def test_tensorrt_llm_free_fraction_by_hand(kb):
    """free_gpu_memory_fraction 0.5: half of what the weights, working set and context leave of the device."""
    s = SV.choose(job_of(kb, framework="tensorrt-llm", memory_fraction=0.5), kb.gpus["h100-80gb-sxm"], 1)
    default = SV.choose(job_of(kb, framework="tensorrt-llm"), kb.gpus["h100-80gb-sxm"], 1)
    beside = default.replica.held_gpu  # the same copy's weights, working set and context
    assert default.replica.free_gpu == pytest.approx(0.9 * (H100_BYTES - beside), rel=1e-9)
    assert s.replica.free_gpu == pytest.approx(0.5 * (H100_BYTES - beside), rel=1e-9)


def test_the_formula_names_the_stated_setting(kb):
    """The capacity line says the share is the job's (workload.memory_fraction), not the engine's default."""
    from gpuwise.estimators.serving.report import _kv_capacity

    s = SV.choose(job_of(kb, framework="sglang", memory_fraction=0.8), kb.gpus["h100-80gb-sxm"], 1)
    term = _kv_capacity(s, {})
    assert term.formula_phrases[0][1] == "formula.serving.kv_capacity_stated_share"


# ------------------------------------------------------------------------------ refusals
@pytest.mark.parametrize("framework", ["llama.cpp", "exllama", "transformers"])
def test_a_framework_without_the_setting_refuses_it(framework):
    """llama.cpp (-c / --ctx-size sizes its cache), ExLlamaV2 (the cache's max_seq_len) and transformers (the
    generate() call's own tensors) have no share of GPU memory to set."""
    with pytest.raises(ValidationError, match=rf"{framework} has no setting for the share of GPU memory"):
        Workload(task="inference", model="llama-3.1-8b", framework=framework, memory_fraction=0.8)


def test_the_frameworks_that_take_it_are_those_with_a_setting(kb):
    """The input's list and the knowledge's entries agree: a framework accepted has a meaning to read it by."""
    assert set(MEMORY_FRACTION_FRAMEWORKS) == {f.id for f in kb.serving.frameworks if f.memory_fraction}


@pytest.mark.parametrize("value", [0, -0.1, 1.01])
def test_out_of_range_is_refused(value):
    with pytest.raises(ValidationError):
        Workload(task="inference", model="llama-3.1-8b", memory_fraction=value)


def test_a_training_job_refuses_it():
    with pytest.raises(ValidationError, match="memory_fraction applies to task inference only"):
        Workload(task="finetune", method="lora", model="llama-3.1-8b", memory_fraction=0.8)


def test_refusal_exits_2_with_one_line(tmp_path):
    f = tmp_path / "req.yaml"
    f.write_text("workload: {task: inference, model: llama-3.1-8b, framework: llama.cpp, memory_fraction: 0.8}\n")
    p = gpuwise_cli("recommend", str(f))
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "memory_fraction" in p.stderr, p.stderr
