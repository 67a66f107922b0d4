"""DeepSpeed ZeRO-3's gradient hook on every parameter (runtime.yaml training.zero3_module_fetch grad_hook;
training_job.zero3_hook_seconds; step_time.zero3_hook).

Counted in deepspeedai/DeepSpeed deepspeed/runtime/zero/stage3.py and runtime/comm/coalesced_collectives.py (the same
path at v0.16.7, v0.16.9 and v0.17.1): __add_grad_to_ipg_bucket (wait_stream, the stream entered and left, narrow,
view_as, copy_, record_stream, .data: 7 calls and a launch), reduce_scatter_coalesced (the flat view, one slice a
rank, the output's narrow: 2 calls and one a rank) and partition_grads (the group's rank, narrow, copy_ or add_,
.to, record_stream, grad = None: 5 calls and a launch). A call that launches nothing at 2 us (pytorch/pytorch issue
#41383: x*x without autograd 'approx 2 us'), a launch at 7 us (the eager operator of
training.moe_dispatch transformers_loop). The published pair it moves: ms-swift's Qwen1.5-MoE-A2.7B full SFT on 8
A800, DeepSpeed ZeRO-3 24.30 s an iteration against ZeRO-2's 6.02 s (modelscope/ms-swift
docs/source_en/Instruction/Megatron-SWIFT-Training.md, Benchmark; held-out H248 / H247)."""

from __future__ import annotations

import pytest

from gpuwise import estimate, knowledge
from gpuwise.estimators import training_job

QWEN15_MOE = {"layers": 24, "hidden_size": 2048, "heads": 16, "kv_heads": 16, "ffn_size": 1408, "vocab_size": 151936,
              "tied_embeddings": False, "experts": 60, "experts_per_token": 4, "shared_experts": 4,
              "active_params_b": 2.7}  # Qwen/Qwen1.5-MoE-A2.7B config.json
H248 = {"task": "pretrain", "train_tokens": 13107200.0, "seq_len": 8192, "precision": "bf16", "params_b": 14.3,
        "architecture": QWEN15_MOE, "global_batch_tokens": 131072.0, "stack": "deepspeed",
        "parallelism": {"tp": 1, "pp": 1, "cp": 1, "ep": 1}, "batch_size": 1, "zero_stage": 3,
        "gradient_checkpointing": True, "transformers_version": "4.52", "overlap_comm": False}


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _terms(w: dict, gpus: int = 8):
    return estimate({"workload": w, "constraints": {"max_gpus": 16384}}, gpu="a800-80gb-sxm",
                    gpus=gpus).gpu.training.step_terms


def test_the_hooks_figures_are_the_codes_calls(kb):
    """7 + 2 + 5 = 14 calls that launch nothing, one more a rank, 2 launches: with 8 ranks 22 x 2 + 2 x 7 = 58 us a
    parameter; with 16, 74 us."""
    hook = kb.runtime.training.zero3_module_fetch.grad_hook
    assert (hook.calls, hook.calls_per_rank, hook.launches) == (7 + 2 + 5, 1, 1 + 1)
    assert (hook.us_per_call, hook.us_per_launch) == (2.0, 7.0)
    assert hook.us_per_launch == kb.runtime.training.moe_dispatch.transformers_loop.us_per_op
    fixed = (hook.calls * hook.us_per_call + hook.launches * hook.us_per_launch)
    assert fixed + 8 * hook.calls_per_rank * hook.us_per_call == 58.0
    assert fixed + 16 * hook.calls_per_rank * hook.us_per_call == 74.0


def test_h248s_experts_pay_their_hooks_by_hand(monkeypatch):
    """H248's layout: each expert matrix's module is already waited on by the host (3 fetches x 0.33 ms against a few
    milliseconds of expert GEMMs a layer, tests/test_zero3_hooks.py), so every expert weight's hook adds to the step:
    2 micro-batches x 24 layers x 180 expert matrices x 58 us = 0.501 s. The other modules of a layer (attention,
    norms, router, shared expert) sit under its 8,192-token GPU work and add nothing. ZeRO-3 over ZeRO-2, published
    24.30 / 6.02 = 4.04x, reads 3.42x with the hooks (3.28x without)."""
    with_hooks = _terms(H248)
    monkeypatch.setattr(training_job, "zero3_hook_seconds", lambda job: ())
    without = _terms(H248)
    monkeypatch.undo()
    added = with_hooks.compute_s - without.compute_s
    assert added == pytest.approx(2 * 24 * 180 * 58e-6, rel=1e-6)
    assert added == pytest.approx(0.501, abs=0.001)
    zero2 = _terms({**H248, "zero_stage": 2})
    assert with_hooks.step_s / zero2.step_s == pytest.approx(3.42, abs=0.01)
    assert without.step_s / zero2.step_s == pytest.approx(3.28, abs=0.01)
    assert with_hooks.step_s / zero2.step_s < 24.30 / 6.02


def test_no_hook_off_deepspeeds_engine_nor_under_zero2(kb, monkeypatch):
    """FSDP (fsdp-hf) reduce-scatters a wrapped block's flat parameter, with no hook a parameter: nothing charged;
    ZeRO-2 takes no ZeRO-3 host term at all (H247 unchanged)."""
    assert training_job.zero3_hook_seconds(_job(kb, {**H248, "stack": "fsdp-hf"})) == ()
    assert training_job.zero3_hook_seconds(_job(kb, H248)) == pytest.approx((42e-6, 2e-6))
    z2 = _terms({**H248, "zero_stage": 2})
    monkeypatch.setattr(training_job, "zero3_hook_seconds", lambda job: ())
    assert _terms({**H248, "zero_stage": 2}).compute_s == z2.compute_s


def _job(kb, w: dict):
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    return resolve(Requirements.model_validate({"workload": w}), kb)


def test_a_lora_job_hooks_its_adapters_only(monkeypatch):
    """A LoRA job trains only its adapters: an A and a B on every Linear its targets adapt, no norm. On H248's layout
    with all-linear targets each of the 180 expert matrices a layer carries two hooked parameters: 2 x 24 x 180 x 2
    x 58 us = 1.002 s a step; with q and v only the experts carry none, and the attention's four hooks sit under a
    layer's 8,192-token GPU work: nothing added."""
    added = {}
    for targets in ("all-linear", "qv"):
        w = {**H248, "task": "finetune", "method": "lora", "lora_targets": targets}
        on = _terms(w).compute_s
        with monkeypatch.context() as m:
            m.setattr(training_job, "zero3_hook_seconds", lambda job: ())
            added[targets] = on - _terms(w).compute_s
    assert added["all-linear"] == pytest.approx(2 * 24 * 180 * 2 * 58e-6, rel=1e-6)
    assert added["qv"] == 0.0
