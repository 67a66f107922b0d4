"""Which workload fields belong to one task: the serving knobs a training workload refuses, the training fields an
inference one refuses, and how a given value is told from its default. Kept apart from :mod:`.workload`, which
refuses them; :mod:`.job` reads the same lists for the assumptions it reports."""

from typing import Any

SERVING_ONLY = ("quantization", "disaggregated", "requests_per_s", "p95_ttft_s", "p95_tpot_s", "prefill_cuda_graphs",
                "batch_wait_steps", "batch_wait_token_fraction", "api_servers", "eplb", "scheduler_recv_interval",
                "prefill_admission_steps", "prefill_admission_floor",
                "kv_cache_tokens", "max_batch_size", "rocm_aiter", "rocm_fp4_asm_gemm", "weight_only_gemm",
                "kv_precision", "prefix_cache_hit_rate", "prefill_chunk_tokens", "prefix_cache", "memory_fraction",
                "recurrent_state_dtype", "attention_backend", "runtime_backend")
"""Inference-only scalars a training workload refuses (the ``speculative`` section is read by serving only).
A training step keeps no KV cache and prefills nothing, so ``kv_precision`` and ``prefix_cache_hit_rate`` set
on one would say the run is cheaper than it is (accepted and ignored until round 19 of the hostile corpus)."""


TRAINING_ONLY = ("lora_rank", "lora_targets", "mixed_precision", "optimizer", "batch_size", "seq_len",
                 "gradient_checkpointing", "checkpoint_every_n_layers", "attention_kernel", "zero_stage", "offload",
                 "host_cpu_cores", "train_tokens", "global_batch_tokens", "stack", "overlap_comm", "tp_comm_overlap",
                 "fp8_params", "chunked_cross_entropy", "cut_cross_entropy", "stack_version", "transformers_version",
                 "torch_compile", "liger_kernel", "grad_reduce_in_fp32", "fp8_recipe", "packing")
"""Training-only fields an inference workload refuses, as a training one refuses :data:`SERVING_ONLY`: the serving
estimate reads none of them (its batch is ``concurrent_requests`` / ``max_batch_size``, its lengths
``prompt_tokens`` / ``output_tokens``), so ``zero_stage: 3`` or ``mixed_precision: false`` on one was accepted and
ignored (hostile rounds 27-28). ``precision``, ``attention`` (the transformers framework's kernels) and
``parallelism``'s tp / pp / ep (a serving copy's pinned split) mean something to serving and stay."""

TRAINING_ONLY_PARALLELISM = ("cp", "vpp", "dp_shard", "etp")
"""``parallelism`` parts no serving layout reads: context parallelism, Megatron's virtual stages, hybrid sharding,
the experts' tensor-parallel size of a training layout."""


def _says_something(value: Any, default: Any) -> bool:
    """A serving knob given on a training job that says something: not None, not false, not its default.
    Compared by kind as well as value: ``api_servers: 0`` (no front end) equals ``False`` to Python, which let it
    pass on a fine-tune unrefused where ``api_servers: 2`` was refused (hostile round 26)."""
    if value is None or value is False:
        return False
    return not (value == default and isinstance(value, bool) == isinstance(default, bool))


def _same(value: Any, default: Any) -> bool:
    """A field at its default, compared by kind as well as value (``0`` is not ``False``)."""
    return value == default and isinstance(value, bool) == isinstance(default, bool)
