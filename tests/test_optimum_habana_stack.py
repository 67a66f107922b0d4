"""optimum-habana as a training stack (knowledge/runtime.yaml training_stacks optimum-habana; rule
CPT-TRAINING-STACK-DEVICE).

Intel's MLPerf Training v4.0 Llama 2 70B LoRA on 8 x Gaudi2 (held-out row H459: mlcommons/training_results_v4.0 at
6fe9543, Intel-HabanaLabs/benchmarks/llm_finetune) ran optimum-habana on DeepSpeed ZeRO-3. Priced as `deepspeed`
while that class was 0.70 it read 2.13x slow (13.56 s a step against the log's 6.38 s). optimum-habana's Llama swaps
RMSNorm, rotary and attention for Habana's FusedRMSNorm, RotaryPosEmbeddingHelperV2 and FusedSDPA and runs in lazy
graph mode (huggingface/optimum-habana optimum/habana/transformers/models/llama/modeling_llama.py @ 0000de52), the
middle's class; since branch hfmiddle60 the plain transformers code on DeepSpeed is the middle's class too
(runtime.yaml fsdp-hf's sources), so the two price a job alike. It runs only on Gaudi: elsewhere the candidate is
refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gpuwise

from .clirun import gpuwise as cli

JOB = {"task": "finetune", "method": "lora", "model": "llama-2-70b", "precision": "bf16", "train_tokens": 26_110_000,
       "seq_len": 8192, "batch_size": 1, "global_batch_tokens": 8 * 8192, "zero_stage": 3,
       "gradient_checkpointing": True}


def _step(stack: str) -> float:
    r = gpuwise.estimate({"workload": {**JOB, "stack": stack}}, gpu="gaudi2", gpus=8)
    return r.gpu.training.step_terms.step_s


def test_the_entry_is_deepspeeds_engine_with_fused_model_code(kb):
    s, ds = kb.runtime.training_stacks["optimum-habana"], kb.runtime.training_stacks["deepspeed"]
    assert s.efficiency == 1.0 and ds.efficiency == 1.0  # both the middle's class (fused kernels; SDPA / flash code)
    assert s.devices == ["gaudi"] and ds.devices is None
    # the same DeepSpeed engine: buckets, overlap default, no pipeline engine for a transformers model
    assert (s.grad_bucket_params, s.overlap_comm, s.interleaved_pipeline, s.tensor_parallel_max_zero, s.parallelism) \
        == (ds.grad_bucket_params, ds.overlap_comm, ds.interleaved_pipeline, ds.tensor_parallel_max_zero,
            ds.parallelism)


def test_the_same_fine_tune_runs_at_the_middles_rate_on_either_entry():
    # one layout (TP1 DP8 ZeRO-3) and one engine: the stacks differ only in efficiency, both 1.0, so the same step
    # (it was 1 / 0.70 = 1.43x on deepspeed while that class was 0.70)
    fused, plain = _step("optimum-habana"), _step("deepspeed")
    assert plain / fused == pytest.approx(1.0, rel=1e-9)


def test_it_is_refused_on_a_gpu_it_does_not_run_on(tmp_path: Path) -> None:
    w = ", ".join(f"{k}: {str(v).lower() if isinstance(v, bool) else v}" for k, v in JOB.items())
    (tmp_path / "q.yaml").write_text(f"workload: {{{w}, stack: optimum-habana}}\n"
                                     "constraints: {gpus: [H100, Gaudi2]}\n", encoding="utf-8")
    r = cli("recommend", "q.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["recommendation"]["gpu"] == "gaudi2"
    h100 = [c for c in d["candidates"] if c["gpu"] == "h100-80gb-sxm"]
    # every H100 count the memory holds is refused by the rule: 4 and up on the GPUs, 1 and 2 with the frozen base
    # offloaded to the host (ZeRO-3, offered to LoRA where nothing else fits since smalls58)
    assert h100 and all(not c["feasible"] for c in h100)
    assert [c["count"] for c in h100 if "CPT-TRAINING-STACK-DEVICE" in c["rules"]] == \
        [c["count"] for c in h100 if "MEM-NO-FIT" not in c["rules"]] == [1, 2, 4, 8, 16, 32, 64]
    said = next(s for c in h100 for s in c["reasons"] if "runs only on" in s)
    # the accelerators by their maker's name (review37: it read 'on GPUs of the Intel Gaudi software')
    assert "runs only on Intel Gaudi accelerators, not on NVIDIA H100 SXM5 80GB" in said
    zh = cli("recommend", "q.yaml", "--lang", "zh", "--detail", "full", cwd=tmp_path).stdout
    assert "只能在IntelGaudi加速器上运行" in "".join(zh.split())  # the wrapped text joined


def test_a_stack_with_no_device_limit_runs_everywhere(tmp_path: Path) -> None:
    r = gpuwise.estimate({"workload": {**JOB, "stack": "deepspeed"}}, gpu="h100", gpus=8)
    assert r.gpu.training.step_terms.step_s > 0


def test_stacks_on_deepspeeds_engine_take_its_fields_and_its_mechanisms(kb):
    """optimum-habana and xtuner name DeepSpeed as their engine (training_stacks engine) rather than copying its
    buckets, overlap, pipeline engine and parallelism; DeepSpeed's ZeRO-3 mechanisms reach them (the 0.33 ms a
    module fetch of training.zero3_module_fetch, which lists deepspeed and megatron-deepspeed)."""
    from gpuwise.estimators import training_job as TJ
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.requirements import Requirements
    from gpuwise.knowledge.schema.runtime import ENGINE_FIELDS

    ds = kb.runtime.training_stacks["deepspeed"]
    for sid in ("optimum-habana", "xtuner"):
        s = kb.runtime.training_stacks[sid]
        assert s.engine == "deepspeed"
        assert all(getattr(s, f) == getattr(ds, f) for f in ENGINE_FIELDS), sid
    job = resolve(Requirements.model_validate({"workload": {**JOB, "stack": "optimum-habana"}}), kb)
    assert TJ.engine_stack(job) == "deepspeed"
    assert TJ.zero3_fetch_seconds(job) == pytest.approx(0.33e-3)
    litgpt = resolve(Requirements.model_validate({"workload": {**JOB, "stack": "litgpt"}}), kb)
    assert TJ.engine_stack(litgpt) == "litgpt" and TJ.zero3_fetch_seconds(litgpt) == 0.0


def test_an_engine_that_is_not_a_stack_of_its_own_is_refused():
    from gpuwise.errors import Said
    from gpuwise.knowledge.schema.runtime import StackSpeed, _engines_filled

    a = StackSpeed(name="a", efficiency=1.0, engine="b", source="test")
    b = StackSpeed(name="b", efficiency=1.0, engine="c", source="test")
    with pytest.raises(Said):
        _engines_filled({"a": a, "b": b})
    with pytest.raises(Said):
        _engines_filled({"a": a})
