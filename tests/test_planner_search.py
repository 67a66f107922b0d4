"""The layout search's own optimality (issue 22 item 5): left free, does the planner pick the fastest layout that
gpuwise's own models say fits? Judged by gpuwise's memory and step models, never by published hours: the search's
pruning must not drop a layout it would have timed faster, and the candidates must hold the layouts published
recipes run."""

from __future__ import annotations

import pytest

from gpuwise.estimators import interconnect as I
from gpuwise.estimators import planner as P
from gpuwise.estimators.candidate import capacity_bytes, training_job
from gpuwise.estimators.step_time import gpu_rates, step_parts
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def _setup(kb, workload: dict, gpu: str, n: int):
    job = resolve(Requirements(workload=workload, constraints={}), kb)
    g = kb.gpus[gpu]
    topo = I.topology(g, n, kb.runtime)
    usable = capacity_bytes(g) * (1 - float(kb.policy_value("memory_headroom_fraction")))
    return training_job(job), g, topo, usable


def _exhaustive(tj, g, n, topo, usable, pins=P.NO_PINS) -> tuple[float, int]:
    """Seconds per token of the fastest candidate, every group and rung timed (no bound prunes any): within a group,
    the first fitting rung of each level as the search keeps it (planner._best's rule, not a bound)."""
    search = P._search(tj, n, topo.per_node, topo.tp_domain, pins)
    rates = gpu_rates(tj, g, topo)
    best, timed = float("inf"), 0
    for group in search.groups:
        seen = set()
        for st in group.statics:
            if st.per_gpu > usable:
                continue
            level = P.memory_level(st)
            if level in seen:
                continue
            seen.add(level)
            timed += 1
            best = min(best, sum(step_parts(tj, st, rates)[:9]) / st.tokens)
    return best, timed


JOBS = [
    # a 7B pretraining on one server and on 64 GPUs; a 70B on 256 (pipelines, interleaves); a LoRA on 8 A100;
    # an MoE on 64 H100 (expert parallelism); Megatron-Core's stack (partial recomputation rungs)
    ({"task": "pretrain", "model": "llama-2-7b", "train_tokens": 1e11}, "h100-80gb-sxm", 8),
    ({"task": "pretrain", "model": "llama-2-7b", "train_tokens": 1e11}, "a100-40gb-sxm", 64),
    ({"task": "pretrain", "model": "llama-3.1-70b", "train_tokens": 1e12, "seq_len": 8192}, "h100-80gb-sxm", 256),
    ({"task": "pretrain", "model": "llama-3.1-70b", "train_tokens": 1e12, "stack": "nemo"}, "h100-80gb-sxm", 64),
    ({"task": "finetune", "method": "lora", "model": "llama-3.1-70b", "train_tokens": 1e8}, "a100-80gb-sxm", 8),
    ({"task": "pretrain", "model": "mixtral-8x7b", "train_tokens": 1e11}, "h100-80gb-sxm", 64),
]


@pytest.mark.parametrize(("workload", "gpu", "n"), JOBS)
def test_the_bounds_drop_no_layout_the_search_would_have_timed_faster(kb, workload, gpu, n):
    """The search skips a group, or a rung of one, when its FLOPs at the GPU's rate (x (1 + bubble)) plus its
    pipeline sends, both terms step_time.step_parts charges whatever else the layout does, already reach the best
    seconds per token so far. Such a layout cannot win, so the plan's step per token equals the best of every
    candidate timed, and the bounds only spare work: the search times fewer layouts than there are fitting ones."""
    tj, g, topo, usable = _setup(kb, workload, gpu, n)
    plan = P.plan(tj, g, n, topo, usable)
    assert plan.fits
    brute, timed = _exhaustive(tj, g, n, topo, usable)
    assert plan.step.total / plan.layout.global_batch_tokens == pytest.approx(brute, rel=1e-12)
    assert plan.tried < timed


def test_a_groups_sends_bound_is_the_step_models_own_pipeline_term(kb):
    """The sends a group is charged before any of its layouts is built are step_time's PP term exactly: 2 sends a
    micro-batch per virtual stage, each micro-batch x sequence / cp x hidden x 2 bytes / tp, over the network when
    the stages span servers; with the bubble they run in. Llama 3.1 70B (hidden 8,192, 80 layers) on 256 H100 at
    TP8 PP4 x 2: micro-batch 1 of 8,192 tokens, 8 replicas."""
    w = {"task": "pretrain", "model": "llama-3.1-70b", "train_tokens": 1e12, "seq_len": 8192,
         "global_batch_tokens": 8192 * 512, "batch_size": 1}
    tj, g, topo, _ = _setup(kb, w, "h100-80gb-sxm", 256)
    rungs, _ = P._rungs(tj, 8, 4, P.NO_PINS)
    group = P._Group(tj, 256, (8, 4, 1, 1, 2), rungs)
    ga = 512 // 8  # micro-batches a replica
    assert group.lay.grad_accum == ga
    bubble = 3 / (ga * 2)
    tokens = 8 * 8192 * ga
    assert group.sends[0] == pytest.approx(2 * ga * 2 / tokens * (1 + bubble), rel=1e-12)
    assert group.sends[1] == pytest.approx(2 * ga * 2 * 8192 * 8192 * 2 / 8 / tokens * (1 + bubble), rel=1e-12)
    rates = gpu_rates(tj, g, topo)
    st = group.static(0)
    pp = step_parts(tj, st, rates)[2]  # the PP term, over the network: 32 servers, stages on different ones
    assert topo.nodes > 1
    assert pp * (1 + bubble) / st.tokens == pytest.approx(
        group.sends[0] * rates.net_lat + group.sends[1] / rates.net_bw, rel=1e-12)


def test_interleave_depths_the_search_tries():
    """Powers of two up to one layer a virtual stage, and one layer a virtual stage where the stages share the layers
    evenly: Nemotron-4 340B's 96 layers over 8 stages (12 a rank) give 2, 4, 8, 12; Llama 3.1 405B's 126 over 8
    (15.75 a rank, uneven) 2, 4, 8; no pipeline, no interleave."""
    assert P.interleaves(96, 8) == [2, 4, 8, 12]
    assert P.interleaves(126, 8) == [2, 4, 8]
    assert P.interleaves(80, 4) == [2, 4, 8, 16, 20]
    assert P.interleaves(40, 40) == []
    assert P.interleaves(32, 1) == []


NEMOTRON_340B = {"task": "pretrain", "model": "nemotron-4-340b", "precision": "bf16", "seq_len": 4096,
                 "global_batch_tokens": 32 * 4096, "batch_size": 1, "stack": "nemo", "stack_version": "24.12",
                 "tp_comm_overlap": False, "train_tokens": 100 * 32 * 4096}


def test_the_planner_finds_the_one_layer_interleave_nemotron_4_340b_ran():
    """NVIDIA dgxc-benchmarking v25.02 (nemotron/README_340b.md at 8f5cbb3) trains Nemotron-4 340B on 128 H100 at
    TP8 PP8 VP12 (one of the 96 layers a virtual stage), micro-batch 1, GBS 32: 16 micro-batches a replica. With
    TP8 PP8 stated and the schedule left free, the planner used to stop at 4 virtual stages; it now takes 12, as
    the recipe did. By the step model's own terms: the bubble is (8 - 1) / (16 x v) of the pipeline's work
    (compute + TP + sends), the sends are 2 a micro-batch a virtual stage (three times VP4's at VP12), and the
    rest of the step does not change, so VP12 is faster by VP4's bubble less its own and less the extra sends."""
    from gpuwise import estimate

    def step(**par):
        w = {**NEMOTRON_340B, "parallelism": {"tp": 8, "pp": 8, **par}}
        return estimate({"workload": w}, gpu="h100-80gb-sxm", gpus=128).gpu.training

    free, v4, v12 = step(), step(vpp=4), step(vpp=12)
    assert free.requested_layout.interleave == 12 and free.requested_layout.grad_accum == 16
    assert free.step_terms.step_s == v12.step_terms.step_s
    a, b = v4.step_terms, v12.step_terms
    assert b.pp_p2p_s == pytest.approx(3 * a.pp_p2p_s, rel=1e-12)
    for s, v in ((a, 4), (b, 12)):
        assert s.pp_bubble_s == pytest.approx(7 / (16 * v) * (s.compute_s + s.tp_s + s.pp_p2p_s), rel=1e-9)
    assert (a.compute_s, a.tp_s, a.dp_s, a.optimizer_s) == (b.compute_s, b.tp_s, b.dp_s, b.optimizer_s)
    gain = (a.pp_bubble_s - b.pp_bubble_s) - (b.pp_p2p_s - a.pp_p2p_s)
    assert a.step_s - b.step_s == pytest.approx(gain, rel=1e-9) and gain > 0
