"""Training layouts (gpuwise/estimators/planner.py): the split, the search, the user's settings kept,
MoE, and the mechanisms of the step time checked by hand."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuwise import estimate
from gpuwise.estimators import interconnect as I
from gpuwise.estimators import planner as P
from gpuwise.estimators.candidate import capacity_bytes, training_job
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def _job(kb, workload: dict, **constraints):
    return resolve(Requirements(workload=workload, constraints=constraints or {}), kb)


FREE = P.Pins()


def _plan(kb, workload: dict, gpu: str, n: int, pins: P.Pins = FREE):
    job = _job(kb, workload)
    g = kb.gpus[gpu]
    topo = I.topology(g, n, kb.runtime)
    usable = capacity_bytes(g) * (1 - float(kb.policy_value("memory_headroom_fraction")))
    return training_job(job), P.plan(training_job(job), g, n, topo, usable, pins), g, topo, usable


PRETRAIN_7B = {"task": "pretrain", "model": "llama-2-7b", "train_tokens": 1e11}


@settings(max_examples=25, deadline=None)
@given(model=st.sampled_from(["llama-2-7b", "llama-3.1-70b", "mixtral-8x7b", "qwen2.5-14b"]),
       n=st.sampled_from([1, 2, 4, 8, 16, 24, 64, 256, 1024]),
       gpu=st.sampled_from(["h100-80gb-sxm", "a100-40gb-sxm", "l40s", "mi300x"]))
def test_the_split_covers_every_gpu_exactly_once(kb, model, n, gpu):
    """tp x pp x dp = N; expert and context parallelism are carved out of dp (contract, version 2)."""
    _, plan, _, topo, _ = _plan(kb, {"task": "pretrain", "model": model, "train_tokens": 1e10}, gpu, n)
    lay = plan.layout
    assert lay.tp * lay.pp * lay.dp == n
    assert lay.dp % lay.ep == 0 and lay.dp % lay.cp == 0
    assert lay.tp <= max(1, topo.tp_domain)  # tensor parallel only inside the fast-link domain
    assert lay.global_batch_tokens == lay.grad_accum * lay.micro_batch * lay.replicas * 2048


def test_the_global_batch_default_is_published_practice_and_an_assumption(kb):
    """7B: 4M tokens per step (LLaMA / Llama 2); a given value is used as it is."""
    r = estimate({"workload": PRETRAIN_7B}, gpu="H100-80G", gpus=64)
    assert r.gpu.layout.global_batch_tokens == 4194304  # 64 x 2048 x 32 micro-batches
    assert r.gpu.layout.dp * r.gpu.layout.grad_accum * 2048 == 4194304
    why = [a for a in r.assumptions if a.field == "workload.global_batch_tokens"]
    assert why and "Llama 2" in why[0].reason
    given = estimate({"workload": {**PRETRAIN_7B, "global_batch_tokens": 1048576}}, gpu="H100-80G", gpus=64)
    assert given.gpu.layout.global_batch_tokens == 1048576
    assert not [a for a in given.assumptions if a.field == "workload.global_batch_tokens"]


def test_explicit_settings_are_kept_and_reported_as_not_fitting(kb):
    """zero_stage 0, offload none, no checkpointing on 8 x A100-80G cannot hold a 70B full fine-tune
    (16-18 B of state per parameter = 1.1-1.3 TB against 640 GB): fits_as_requested is false, and what
    gpuwise would change comes back as data."""
    w = {"task": "finetune", "model": "llama-2-70b", "train_tokens": 1e8, "zero_stage": 0, "offload": "none",
         "gradient_checkpointing": False}
    r = estimate({"workload": w}, gpu="A100-80G", gpus=8)
    g = r.gpu
    assert g.fits_as_requested is False
    req = g.training.requested_layout
    assert req.zero == 0 and req.offload == "none" and req.checkpointing is False
    assert g.training.requested_memory_per_gpu_bytes > capacity_bytes(kb.gpus["a100-80gb-sxm"])
    changes = {c.field for c in g.training.suggested_changes}
    assert changes & {"zero_stage", "offload", "gradient_checkpointing"}
    assert g.fits  # with the changes


def test_absent_settings_are_chosen_and_fit_as_requested(kb):
    """Nothing given: gpuwise chooses the layout, so what was asked is what fits."""
    r = estimate({"workload": {"task": "finetune", "model": "llama-2-7b", "train_tokens": 1e8}}, gpu="H100-80G",
                 gpus=8)
    assert r.gpu.fits and r.gpu.fits_as_requested
    assert r.gpu.training.suggested_changes == []


def test_pinned_parallelism_is_honoured(kb):
    w = {**PRETRAIN_7B, "parallelism": {"tp": 2, "pp": 4}}
    r = estimate({"workload": w}, gpu="H100-80G", gpus=64)
    assert (r.gpu.layout.tp, r.gpu.layout.pp, r.gpu.layout.dp) == (2, 4, 8)
    assert r.gpu.training.pins.model_dump() == {"tp": 2, "pp": 4}


def test_zero_2_and_3_never_combine_with_pipeline_stages(kb):
    """DeepSpeed and Megatron run pipelines with ZeRO-1 at most; a pinned ZeRO-3 means data parallel."""
    w = {"task": "finetune", "model": "llama-2-7b", "train_tokens": 1e8, "zero_stage": 3,
         "gradient_checkpointing": True}
    _, plan, *_ = _plan(kb, w, "rtx-3090", 8, P.Pins(zero=3, checkpointing=True))
    assert plan.layout.pp == 1 and plan.layout.zero == 3 and plan.layout.dp == 8


def test_the_chosen_layout_is_the_fastest_that_fits(kb):
    """Brute force over every split and rung the planner considers: none that fits is faster."""
    tj, plan, g, topo, usable = _plan(kb, {"task": "pretrain", "model": "llama-2-13b", "train_tokens": 1e10},
                                      "a100-40gb-sxm", 32)
    rates = P.gpu_rates(tj, g, topo)
    best = math.inf
    for tp, pp, cp, ep in P.splits(tj, 32, topo.per_node, topo.tp_domain, P.Pins()):
        plain, _ = P._rungs(tj, 32 // (tp * pp), pp, P.Pins())
        for v in (1, 2, 4):
            if v > 1 and (pp == 1 or tj.shape.layers < 2 * pp * v):
                continue
            for rung in plain:
                s = P.figures(tj, P._layout(tj, 32, tp, pp, cp, ep, v, rung))
                if s.per_gpu <= usable:
                    best = min(best, P.step_time(tj, s, rates).total)
    assert plan.fits and plan.step.total == pytest.approx(best, rel=1e-9)


def test_tensor_parallel_costs_four_collectives_per_layer_and_micro_batch(kb):
    """Megatron TP with sequence parallelism: 2 forward + 2 backward all-gather/reduce-scatter pairs per
    layer (all-reduce volume), 2 more when the forward is recomputed (Korthikanti et al. 2022)."""
    tj = training_job(_job(kb, PRETRAIN_7B))
    lay = P._layout(tj, 64, 8, 1, 1, 1, 1, (1, False, "none"))
    s = P.figures(tj, lay)
    assert s.tp_count == 32 * lay.grad_accum * 4
    assert s.tp_bytes == 2048 * 4096 * 2  # micro-batch tokens x hidden x bf16
    ck = P.figures(tj, P._layout(tj, 64, 8, 1, 1, 1, 1, (1, True, "none")))
    assert ck.tp_count == 32 * lay.grad_accum * 6


def test_pipeline_bubble_by_hand(kb):
    """1F1B: (p - 1) / m; interleaved with v virtual stages: (p - 1) / (m v) (Narayanan et al. SC'21)."""
    tj = training_job(_job(kb, PRETRAIN_7B))
    one = P.figures(tj, P._layout(tj, 64, 1, 4, 1, 1, 1, (1, False, "none")))
    assert one.layout.grad_accum == 128 and one.bubble == pytest.approx(3 / 128)
    inter = P.figures(tj, P._layout(tj, 64, 1, 4, 1, 1, 2, (1, False, "none")))
    assert inter.bubble == pytest.approx(3 / (128 * 2))


def test_first_pipeline_stage_holds_pp_micro_batches(kb):
    """1F1B keeps min(pp, micro-batches) micro-batches in flight on the first stage, so its activations
    are those of all layers of one micro-batch (Korthikanti et al. 2022, section 4.2.3)."""
    tj = training_job(_job(kb, PRETRAIN_7B))
    lay = P._layout(tj, 64, 1, 4, 1, 1, 1, (1, False, "none"))
    assert tj.setup(lay).inflight == 4
    few = P.Layout(tp=1, pp=4, dp=16, grad_accum=2)
    assert tj.setup(few).inflight == 2
    v2 = P.Layout(tp=1, pp=4, dp=16, grad_accum=8, interleave=2)
    assert tj.setup(v2).inflight == pytest.approx(4 * (1 + 3 / 8))


def test_data_parallel_gradients_move_once_per_optimizer_step(kb):
    """ZeRO-1 reduce-scatters gradients and all-gathers weights once per step: doubling the micro-batches
    of a step doubles compute but not that traffic."""
    w = {**PRETRAIN_7B}
    job_a = _job(kb, {**w, "global_batch_tokens": 2 ** 21})
    job_b = _job(kb, {**w, "global_batch_tokens": 2 ** 22})
    g = kb.gpus["h100-80gb-sxm"]
    topo = I.topology(g, 64, kb.runtime, network="ethernet-100")
    steps = []
    for job in (job_a, job_b):
        tj = training_job(job)
        s = P.figures(tj, P._layout(tj, 64, 1, 1, 1, 1, 1, (1, False, "none")))
        rates = P.gpu_rates(tj, g, topo)
        parts = P.step_time(tj, s, rates)
        steps.append((parts.compute, parts.dp + 0.5 * parts.compute / s.layout.grad_accum))
    assert steps[1][0] == pytest.approx(2 * steps[0][0])
    assert steps[1][1] - steps[1][0] / 2 / 32 == pytest.approx(steps[0][1] - steps[0][0] / 2 / 16, rel=1e-6)


def test_moe_pretrain_on_64_h100_scales_with_experts_inside_the_node(kb):
    """Mixtral 8x7B on 64 H100: FLOPs from the 12.9B active parameters, not the 46.7B; experts split
    inside the NVLink domain; the scaling efficiency is reported and high."""
    w = {"task": "pretrain", "model": "mixtral-8x7b", "train_tokens": 1e11}
    r = estimate({"workload": w}, gpu="H100-80G", gpus=64)
    m = kb.models["mixtral-8x7b"]
    flops_per_token = r.compute.flops / 1e11
    assert 6 * m.active_params_b * 1e9 < flops_per_token < 6 * 1.15 * m.active_params_b * 1e9
    lay = r.gpu.layout
    assert lay.tp * lay.pp * lay.dp == 64
    assert lay.ep * lay.tp <= 8 or lay.ep == 1
    assert r.gpu.scaling_efficiency > 0.7
    assert r.gpu.fits


def test_expert_parallel_shards_the_experts_memory(kb):
    """EP divides the routed experts' weights, gradients and optimizer state, not the dense parts."""
    tj = training_job(_job(kb, {"task": "pretrain", "model": "mixtral-8x7b", "train_tokens": 1e10}))
    one = P.figures(tj, P._layout(tj, 64, 1, 2, 1, 1, 1, (1, False, "none")))
    eight = P.figures(tj, P._layout(tj, 64, 1, 2, 1, 8, 1, (1, False, "none")))
    assert eight.grad_expert == pytest.approx(one.grad_expert / 8)
    assert eight.grad_dense == pytest.approx(one.grad_dense)
    assert eight.ep_count > 0 and one.ep_count == 0


def test_fp8_is_a_speed_up_of_the_matmuls_not_the_fp8_peak(kb):
    """FP8 on H100 runs faster than BF16 by less than the 2x of the datasheet peaks. An FP8 job with no stack
    named is costed as Megatron-Core (training_job.default_stack), so both run on that stack here."""
    same = {**PRETRAIN_7B, "stack": "megatron"}
    bf = estimate({"workload": {**same, "precision": "bf16"}}, gpu="H100-80G", gpus=8)
    f8 = estimate({"workload": {**PRETRAIN_7B, "precision": "fp8"}}, gpu="H100-80G", gpus=8)
    ratio = bf.gpu.gpu_hours / f8.gpu.gpu_hours
    assert 1.2 < ratio < 1.6
    a100 = estimate({"workload": {**PRETRAIN_7B, "precision": "fp8"}}, gpu="A100-80G", gpus=8)
    a100_bf = estimate({"workload": same}, gpu="A100-80G", gpus=8)
    assert a100.gpu.gpu_hours == pytest.approx(a100_bf.gpu.gpu_hours, rel=1e-6)  # no FP8 units


def test_without_gpus_the_count_meets_the_deadline(kb):
    r = estimate({"workload": PRETRAIN_7B, "constraints": {"deadline_days": 10, "max_gpus": 512}}, gpu="H100-80G")
    why = [a for a in r.assumptions if a.field == "--gpus"]
    assert why and "deadline" in why[0].reason
    assert r.gpu.wall_hours / 24 <= 10
    half = estimate({"workload": PRETRAIN_7B}, gpu="H100-80G", gpus=r.gpu.count // 2)
    assert half.gpu.wall_hours / 24 > 10  # the fewest that make it


def test_more_gpus_never_need_more_memory_per_gpu(kb):
    """The least memory any layout needs falls as GPUs are added (the chosen, fastest one need not)."""
    w = {"task": "pretrain", "model": "llama-3.1-70b", "train_tokens": 1e10}
    tj = training_job(_job(kb, w))
    needs = [P._search(tj, n, min(n, 8), min(n, 8), P.Pins()).frugal(False).per_gpu for n in (8, 16, 32, 64)]
    assert all(a >= b for a, b in itertools.pairwise(needs))
    assert needs[-1] < needs[0] / 2


def test_slow_networks_cost_scaling_efficiency(kb):
    """Between nodes, 25 GbE per node against 400 Gb/s InfiniBand per GPU: the same layout search ends
    slower and with less efficiency."""
    w = {"task": "pretrain", "model": "llama-2-13b", "train_tokens": 1e10}
    job = _job(kb, w)
    g = kb.gpus["h100-80gb-sxm"]
    usable = capacity_bytes(g) * 0.95
    tj = training_job(job)
    ib = P.plan(tj, g, 64, I.topology(g, 64, kb.runtime, network="infiniband-400"), usable)
    eth = P.plan(tj, g, 64, I.topology(g, 64, kb.runtime, network="ethernet-25"), usable)
    assert eth.step.total > ib.step.total
    assert eth.scaling_efficiency < ib.scaling_efficiency


def test_goodput_falls_with_the_gpu_count(kb):
    """Llama 3: about 90% effective training time on 16,384 GPUs (Dubey et al. 2024, 3.3.4), times the
    whole-run efficiency every run loses."""
    from gpuwise.estimators.compute import goodput

    f = kb.runtime.training
    at = goodput(16384, f.failures_per_gpu_hour.value, f.hours_lost_per_failure.value).value
    assert at == pytest.approx(0.9, abs=0.01)
    assert goodput(8, f.failures_per_gpu_hour.value, f.hours_lost_per_failure.value).value > 0.999


def test_offload_time_by_hand():
    """ZeRO-3 with CPU offload, 1e9 parameters a GPU owns, 4 micro-batches: 16-bit gradients down
    every micro-batch and weights up once (2 B x 4 + 2 B), the weights' shard up for every forward
    and backward (4 B x 4), over 25 GB/s of PCIe = 1.04 s; Adam on 12 cores at 1e7 parameters/s
    each = 8.33 s (the cores, not the 28 B x 1e9 / 100 GB/s = 0.28 s of memory traffic, set it)."""
    import types

    from gpuwise.estimators.step_time import offload_seconds
    from gpuwise.estimators.training_layout import Layout

    g = types.SimpleNamespace(pcie_gb_s=25.0, host_gb_s_per_gpu=100.0, nvme_gb_s_per_gpu=1.5,
                              cpu_adam_params_per_s_per_gpu=12 * 1e7, zero3_copies=(),
                              zero3_copy_slowdown=1.0, zero12_copies=(), offload_prefetch=False,
                              offload_on_gpu=False)
    lay = Layout(zero=3, offload="cpu", grad_accum=4)
    assert offload_seconds(1e9, lay, g) == pytest.approx(26e9 / 25e9 + 1e9 / 1.2e8)
    nvme = Layout(zero=3, offload="nvme", grad_accum=4)
    assert offload_seconds(1e9, nvme, g) == pytest.approx(26e9 / 25e9 + 1e9 / 1.2e8 + 32e9 / 1.5e9)


def test_the_training_stack_scales_the_compute():
    """A stack's efficiency (runtime.yaml training_stacks) divides the compute time: Megatron-DeepSpeed at 0.95 of
    the calibrated middle (BLOOM-176B's ~150 TFLOP/s per A100, BigScience 2022); FSDP with the HF Trainer at the
    middle itself (1.0: ms-swift's same-job Megatron / DeepSpeed pair, MosaicML's LLM Foundry table, transformers'
    SDPA steps on an H200; runtime.yaml fsdp-hf), so the same compute; no stack named: the middle, said as an
    assumption. On an A100, where attention runs at the GEMMs' rate (runtime.yaml attention_kernels has no Ampere
    figure), the ratio is the efficiency alone."""
    w = {"task": "finetune", "model": "llama-3.2-1b", "method": "full", "train_tokens": 1e8, "seq_len": 2048,
         "batch_size": 4, "gradient_checkpointing": True}
    mid = estimate({"workload": w}, gpu="a100-80gb-sxm", gpus=1)
    hf = estimate({"workload": {**w, "stack": "fsdp-hf"}}, gpu="a100-80gb-sxm", gpus=1)
    mds = estimate({"workload": {**w, "stack": "megatron-deepspeed"}}, gpu="a100-80gb-sxm", gpus=1)
    assert hf.gpu.training.step_terms.compute_s == pytest.approx(mid.gpu.training.step_terms.compute_s, rel=1e-9)
    assert mds.gpu.training.step_terms.compute_s == pytest.approx(
        mid.gpu.training.step_terms.compute_s / 0.95, rel=1e-9)
    assert any(a.field == "workload.stack" for a in mid.assumptions)
    assert not any(a.field == "workload.stack" for a in hf.assumptions)


def test_the_default_batch_grows_with_the_cluster_within_published_practice(kb):
    """No batch given: the size's published batch (4M tokens for 7B-70B, LLaMA/Llama 2), raised on a
    large cluster to 2,048 tokens per GPU, the median of nine published runs on about 1,000 GPUs or more
    (Llama 3 405B: 16M tokens on 8,192 H100, Dubey et al. 2024, Table 4; Megatron-LM: one 2,048-token
    sequence per GPU, 1T on 3,072 A100, Narayanan et al. 2021, Table 1), a dense model's up to Llama 3
    405B's 16M (16,777,216), a mixture of experts' up to DeepSeek-V3's 15,360 x 4,096 = 62,914,560
    tokens, the largest published batch. Said as an assumption with its values."""
    w = {"task": "pretrain", "model": "llama-3.1-70b", "train_tokens": 1.5e13, "seq_len": 8192}
    tj = training_job(_job(kb, w))
    assert tj.batch_tokens(64) == 4194304 and tj.batch_tokens(2048) == 4194304  # 2,048 x 2,048 = 4M
    assert tj.batch_tokens(4096) == 8 * 1048576  # 4,096 x 2,048
    assert tj.batch_tokens(8192) == 16 * 1048576 and tj.batch_tokens(16384) == 16 * 1048576  # the dense cap
    moe = training_job(_job(kb, {**w, "model": "deepseek-v3"}))
    assert moe.batch_tokens(16384) == 16384 * 2048 and moe.batch_tokens(131072) == 15360 * 4096  # capped
    r = estimate({"workload": w}, gpu="H100-80G", gpus=16384)
    assert r.gpu.layout.global_batch_tokens >= 16 * 1048576
    assert r.gpu.layout.global_batch_tokens < 16 * 1048576 * 1.1  # rounded up to whole micro-batches only
    why = next(a for a in r.assumptions if a.field == "workload.global_batch_tokens")
    assert why.message_id == "assume.global_batch.pretrain_cluster"
    assert why.values["per_gpu"] == 2048 and why.values["max"] == 16777216 and "Llama 3" in why.values["cluster_source"]
    # a batch the user gives is kept on any cluster; fine-tuning keeps its own default
    given = training_job(_job(kb, {**w, "global_batch_tokens": 2 ** 21}))
    assert given.batch_tokens(16384) == 2 ** 21
    ft = training_job(_job(kb, {"task": "finetune", "model": "llama-3.1-8b", "train_tokens": 1e8}))
    assert ft.batch_tokens(1024) == ft.global_batch_tokens


def test_a_block_of_recomputed_layers_can_beat_zero3_for_a_lora_base(kb):
    """Each recomputation level's first fitting rung is timed, not only the first rung without full
    recomputation: for a LoRA run ZeRO-3 gathers the whole frozen base every micro-batch, which on PCIe cards
    costs more than recomputing a block of layers with ZeRO-1. Llama 2 70B LoRA in FP8 with FP8 parameters on
    8 H200 NVL at TP1 PP1 CP2 (Dell's MLPerf v5.0 config, tests/data/training_heldout.csv H135): ZeRO-1 with 1/8
    of the 80 layers recomputed (10 layers) fits 141 GB and steps faster than ZeRO-3 without recomputation."""
    w = {"task": "finetune", "method": "lora", "lora_targets": "attention", "model": "llama-2-70b",
         "precision": "fp8", "stack": "nemo", "fp8_params": True, "seq_len": 8192, "global_batch_tokens": 65536,
         "train_tokens": 2.6e7, "parallelism": {"tp": 1, "pp": 1, "cp": 2}}
    free = estimate({"workload": w}, gpu="h200-nvl-141gb", gpus=8).gpu.training
    z3 = estimate({"workload": {**w, "zero_stage": 3}}, gpu="h200-nvl-141gb", gpus=8).gpu.training
    assert free.requested_layout.zero == 1 and free.requested_layout.recompute_share == pytest.approx(10 / 80)
    assert z3.requested_layout.zero == 3 and z3.requested_layout.recompute_share == 0.0
    assert free.step_terms.step_s < z3.step_terms.step_s
    # the base gathered over PCIe costs more than recomputing 10 layers' forward
    assert z3.step_terms.dp_s > free.step_terms.compute_s - z3.step_terms.compute_s > 0


def test_context_parallel_spans_more_than_a_server_for_the_longest_sequences(kb):
    """Ring attention splits one sequence over as many GPUs as its length needs (Liu et al. 2023,
    arXiv:2310.01889); Llama 3's long-context stage ran CP16 at 131,072 tokens (arXiv:2407.21783, Table 4), and
    Gradient's Llama-3-8B-Instruct-Gradient-1048k card puts 16 sequences of 524,288 tokens a step on 512 L40S
    (32 GPUs a sequence). The planner offers CP up to 64 while each GPU keeps at least 4,096 tokens; at 8,192
    tokens it still offers CP2 at most."""
    w = {"task": "pretrain", "model": "llama-3-8b", "train_tokens": 4.194304e8, "seq_len": 524288,
         "global_batch_tokens": 16 * 524288}
    tj, plan, *_ = _plan(kb, w, "l40s", 512)
    topo_args = (512, 8, 8, FREE)
    assert {cp for _, _, cp, _ in P.splits(tj, *topo_args)} == {1, 2, 4, 8, 16, 32, 64}
    assert plan.fits and plan.layout.cp == 32 and plan.layout.pp == 1
    short, *_ = _plan(kb, dict(PRETRAIN_7B, seq_len=8192), "h100-80gb-sxm", 64)
    assert {cp for _, _, cp, _ in P.splits(short, 64, 8, 8, FREE)} == {1, 2}
