"""LoRA on an MoE model: the host's per-expert launches when the experts are frozen (branch moelora56, issue 22
item 3). knowledge/runtime.yaml training.moe_dispatch reads 1.03 ms a local expert (Hopper) on full-weight
pretraining (NeMo 25.09-26.02's tables), where every expert trains. Counted in the code the Megatron-Bridge
verification cards ran (Transformer Engine v2.17 transformer_engine/pytorch/module/grouped_linear.py, BF16 per-expert
path; Megatron-Core's DistributedDataParallel gradient hooks), a grouped expert linear takes the host 9 steps for a
trainable expert a micro-batch (two split views, the forward, input-gradient and weight-gradient GEMMs, the dummy
weight gradient, the saved input's release, AccumulateGrad and the DDP hook) and 4 for a frozen one (the two views
and the forward and input-gradient GEMMs). Megatron-Bridge's LoRA shares one adapter over a layer's experts
(src/megatron/bridge/peft/lora.py share_expert_adapters true); Megatron-SWIFT gives every expert a grouped lora_A
and lora_B that train (modelscope/ms-swift swift/megatron/tuners/lora.py)."""

from __future__ import annotations

import csv

import pytest

from benchmarks import accuracy as A
from gpuwise import knowledge

HOPPER_MS = 1.03  # runtime.yaml training.moe_dispatch ms_per_local_expert hopper (full-weight training)
LAYER_MS = (51 + 39) * 7e-3  # runtime.yaml training.moe_dispatch layer_host_ops: a layer's own host calls


def _row(rid: str) -> tuple[dict, dict]:
    with open(A.HELDOUT_RUNS, newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == rid)
    return row, A.run_conditions()[rid]


def _steps(rid: str, **extra):
    row, cond = _row(rid)
    w = {**A.with_conditions(A.run_workload(row), cond), **extra}
    est = A.run_estimate(w, row["gpu"], int(row["gpus"]))
    return est.gpu.layout, est.gpu.training.step_terms


def test_the_counts_and_their_sources():
    ops = knowledge.load().runtime.training.moe_dispatch.lora_host_ops
    assert (ops.trainable, ops.frozen, ops.forward) == (9, 4, 2)
    assert ops.per_expert_adapter_stacks == ["megatron"]
    for where in ("grouped_linear.py", "distributed_data_parallel.py", "share_expert_adapters",
                  "swift/megatron/tuners/lora.py", "2e559f06"):
        assert where in ops.source, where


def test_h677_host_wait_by_hand():
    """H677: Qwen3-30B-A3B LoRA on linear_qkv and linear_proj (the experts frozen, no adapter on them), the card's
    TP4 EP4 on 4 x H100, GBS 32 of one 2,048-token sequence: 32 micro-batches a step on every GPU (DP1), 48 MoE
    layers (config.json num_hidden_layers, every layer sparse), 128 / EP4 = 32 local experts, no recomputation. Each
    layer's micro-batch waits on the host for 32 x 1.03 ms x 4/9 + 90 x 7 us (the layer's own calls) = 15.28 ms,
    beyond its GPU work (about 1 ms), so the compute, tensor-parallel and all-to-all terms together are 32 x 48 x
    15.28 ms = 23.47 s, the step (the card's mean: 22.35 s)."""
    lay, s = _steps("H677")
    assert (lay.tp, lay.pp, lay.ep, lay.dp, lay.grad_accum, lay.recompute_share) == (4, 1, 4, 1, 32, 0.0)
    per_layer = 128 / 4 * HOPPER_MS * 1e-3 * 4 / 9 + LAYER_MS * 1e-3
    assert per_layer == pytest.approx(0.015279, rel=1e-4)
    by_hand = 32 * 48 * per_layer
    assert s.compute_s + s.tp_s + s.ep_s == pytest.approx(by_hand, rel=1e-6)
    assert 0.9 * by_hand < s.moe_host_wait_s < by_hand  # the GPU's own work covers a few per cent of it
    assert s.step_s == pytest.approx(by_hand + s.optimizer_s + s.dp_s, rel=1e-6)


def test_share_by_method_targets_and_stack():
    """A job that trains its experts (a full fine-tune, any pretraining) is charged the figure as read; LoRA's frozen
    experts 4 of its 9 steps, with Megatron-SWIFT's per-expert lora_A and lora_B on all-linear 4 + 2 x 9; and the
    share of them a recomputed layer repeats is the forward's."""
    from gpuwise.estimators.training_job import moe_host_forward, moe_host_share

    class _W:
        task, method, lora_targets, stack = "finetune", "full", "all-linear", "megatron"

    class _Shape:
        moe = True

    class _Job:
        kb = knowledge.load()
        w = _W()
        shape = _Shape()

    # a recomputed layer repeats the forward's steps: 2 of a trainable expert's 9 (its host time x 11/9, not the
    # 1.5 of its memory passes), 2 of a frozen one's 4, 2 + 2 + 2 of SWIFT's 22
    assert moe_host_share(_Job(), "nemo") == 1.0 and moe_host_forward(_Job()) == pytest.approx(2 / 9)
    _Job.w.method = "lora"
    assert moe_host_share(_Job(), "nemo") == pytest.approx(4 / 9)
    assert moe_host_share(_Job(), "megatron") == pytest.approx((4 + 2 * 9) / 9)  # lora_A and lora_B per expert
    assert moe_host_forward(_Job()) == pytest.approx(6 / 22)
    _Job.w.lora_targets = "attention"
    assert moe_host_share(_Job(), "megatron") == pytest.approx(4 / 9)
    assert moe_host_forward(_Job()) == pytest.approx(2 / 4)
    _Job.w.task = "pretrain"
    assert moe_host_share(_Job(), "megatron") == 1.0


def test_h651_recomputed_swift_layer_by_hand():
    """H651: Megatron-SWIFT all-linear LoRA on 4 x H20 (Hopper), EP4 over the four data-parallel ranks, GBS 16 of one
    8,192-token sequence: 4 micro-batches a GPU, 48 MoE layers, 32 local experts, every layer recomputed. Each
    expert's grouped linear takes the frozen base's 4 steps and a trainable lora_A's and lora_B's 9 each, 22, of
    which the forwards' 2 + 2 + 2 repeat when the layer is recomputed: 28 / 9 of the figure read on a trainable
    expert's 9, 32 x 1.03 ms x 28 / 9 = 102.5 ms, and the layer's own calls, 51 x 2 + 39 at 7 us = 0.99 ms, a
    layer's micro-batch, beyond the H20's own work on it, so the compute, tensor-parallel and all-to-all terms are
    4 x 48 x 103.5 ms = 19.87 s (the script's 17.2 s/it)."""
    lay, s = _steps("H651")
    assert (lay.tp, lay.pp, lay.ep, lay.grad_accum, lay.recompute_share) == (1, 1, 4, 4, 1.0)
    by_hand = 4 * 48 * (32 * HOPPER_MS * 1e-3 * (4 + 2 * 9 + 3 * 2) / 9 + (2 * 51 + 39) * 7e-6)
    assert s.compute_s + s.tp_s + s.ep_s == pytest.approx(by_hand, rel=1e-6)
    assert by_hand == pytest.approx(19.87, rel=1e-3)


def test_swift_adapters_launch_per_expert():
    """H651's Megatron-SWIFT all-linear LoRA (EP4 on 4 x H20, full recomputation, 8,192-token micro-batches): its
    experts' adapters are grouped linears of their own that train, so a layer's host time is (4 + 2 x 9) / 9 of the
    full-weight figure where Megatron-Bridge's shared adapter leaves 4 / 9: the SWIFT run, on the nemo stack, would
    wait less."""
    _, swift = _steps("H651")
    _, bridge = _steps("H651", stack="nemo")
    assert swift.moe_host_wait_s > bridge.moe_host_wait_s
