"""Branch moetrain66: the held-out MoE training rows furthest off (H981, H983 / H984, H926-H930), each run's routing and
expert all-to-all read from its own source and worked by hand. No model change was kept: an expert-load factor and a
wholly exposed all-to-all, applied to every expert-parallel run (no condition column says how a run routed), read the
held-out set worse (benchmarks/moe_train_whatif.py; tests/data/validation/README.md, branch moetrain66).

Sources:
- H981: hisohara/ai-scripts training/03_primus/run-mixtral-8x7B-8N.log at 4fb66ab5, Megatron's argument dump:
  moe_router_force_load_balancing True, moe_router_load_balancing_type aux_loss, moe_aux_loss_coeff 0.01,
  moe_token_dispatcher_type alltoall, moe_enable_deepep False, moe_permute_fusion False, moe_grouped_gemm True, topk 2;
  steady iterations 3,059-3,061 ms at 443.9 TFLOP/s a GPU by Megatron's count (iterations 46-50).
  Megatron-Core's forced balancing replaces the router's logits with standard normal draws (router.py RandomSTE /
  apply_random_logits: 'random logits of router for load-balanced benchmark').
- H983 / H984: AMD-AGI/Primus agent/workspace/qwen3_fp8_tw_gfx950_20261010/prompt.md at fb0603b6 (48 layers, hidden
  2,048, 128 experts top-8, EP8 with 16 local experts, MBS 8 x 4,096, 8 micro-batches; the profile of one step: DeepEP
  1,248 ms, intranode::dispatch 591 ms, intranode::combine 351 ms, get_dispatch_layout 132 ms, on a compute stream 97%
  busy; the baseline 'even routing'); bench_deepep_qwen3.py at c2581d95 (topk_for('even'):
  arange(T * K).view(T, K) % E, 'PrimusTopKRouter._force_even_routing').
- H926-H930: AMD-AGI/maxtext-slurm deepseek3-671b-pdbs-sweep.md at be4716fc, 'Step-time composition (per GPU per step,
  seconds, pdbs=6)' of sparse-gmm-deepep-v3."""

from __future__ import annotations

import csv
import math

import pytest

from benchmarks import accuracy_training as acc
from gpuwise import knowledge
from gpuwise.estimators.serving.step import ep_imbalance, max_normal

# H983 / H984 as prompt.md states them
LAYERS, HIDDEN, EXPERTS, TOPK, EP, MBS, SEQ, MICRO = 48, 2048, 128, 8, 8, 8, 4096, 8


def _estimate(rid: str):
    conds = acc.run_conditions()
    with open(acc.HELDOUT_RUNS, newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == rid)
    cond = conds[rid]
    w = acc.with_conditions(acc.run_workload(row), cond)
    return acc.run_estimate(w, row["gpu"], int(row["gpus"]), None, network=cond.get("network") or None)


def test_primus_even_routing_sends_each_token_to_one_rank():
    """Primus's forced 'even' routing gives token t the experts (t x 8 + k) mod 128, k < 8: eight consecutive experts,
    which start at a multiple of 8 and so sit inside one rank's 16 contiguous local experts. DeepEP sends a token once
    to each rank holding any of its experts (get_dispatch_layout's is_token_in_rank), so the run moved one hidden-wide
    row a token, 7/8 of them to another GPU; under independent uniform routing a token's 8 experts would span
    8 x (1 - C(112, 8) / C(128, 8)) = 5.34 ranks."""
    local = EXPERTS // EP
    spans, received = set(), [0] * EP
    for t in range(MBS * SEQ):
        ranks = {((t * TOPK + k) % EXPERTS) // local for k in range(TOPK)}
        spans.add(len(ranks))
        received[ranks.pop()] += 1
    assert spans == {1}
    assert received == [MBS * SEQ // EP] * EP  # each rank keeps 1/8 of its own tokens and sends 7/8
    uniform = EP * (1 - math.comb(EXPERTS - local, TOPK) / math.comb(EXPERTS, TOPK))
    assert uniform == pytest.approx(5.339, abs=1e-3)


def test_h983_expert_all_to_all_by_hand():
    """gpuwise's exposed expert all-to-all for H983: each of a step's 48 x 8 x 4 all-to-alls (dispatch and combine,
    forward and backward, no recomputation in the planned layout) moves 32,768 tokens x 8 routed rows x 2,048 x 2 B from
    each GPU, 7/8 of it to the other 7 GPUs over one Infinity Fabric link each (1,075 / 2 / 7 GB/s a link one way at the
    runtime's link efficiency 0.75: 57.59 GB/s), plus 7 hops of 5 us; half is hidden (ep_comm_overlap 0.5): 1.817 s.
    The run moved one row a token (the test above): priced the same way that is 0.50 s before the overlap, where the
    profile gives DeepEP 1,248 ms on the compute stream, so the two readings err in opposite directions (README)."""
    kb = knowledge.load()
    gpu, rt = kb.gpus["mi355x"], kb.runtime
    mesh_share = rt.training.meshes[gpu.link.kind].intra_share
    link = gpu.link.bandwidth_gb_s / 2 * mesh_share / (gpu.link.domain_gpus - 1) * rt.link_efficiency.value * 1e9
    assert link == pytest.approx(57.589e9, rel=1e-4)
    calls = LAYERS * MICRO * 4
    one = MBS * SEQ * TOPK * HIDDEN * 2 / EP / link + (EP - 1) * 5e-6
    exposed = calls * one * (1 - rt.training.ep_comm_overlap.value)
    t = _estimate("H983").gpu.training
    assert t.requested_layout.recompute_share == 0.0 and t.requested_layout.ep == EP
    assert t.step_terms.ep_s == pytest.approx(exposed, rel=1e-6)
    assert exposed == pytest.approx(1.8168, abs=1e-3)
    one_row = calls * (MBS * SEQ * HIDDEN * 2 / EP / link + (EP - 1) * 5e-6)
    assert one_row == pytest.approx(0.5012, abs=1e-3)
    # the profile's DeepEP kernels at the run's rows: 768 dispatches and 768 combines of 117.4 MB off-rank a GPU
    off_rank = MBS * SEQ * HIDDEN * 2 * (EP - 1) / EP
    assert 2 * LAYERS * MICRO * off_rank / 0.591 / 1e9 == pytest.approx(152.6, abs=0.1)  # GB/s, dispatch
    assert 2 * LAYERS * MICRO * off_rank / 0.351 / 1e9 == pytest.approx(257.0, abs=0.1)  # GB/s, combine
    assert (EP - 1) * link / 1e9 == pytest.approx(403.1, abs=0.1)  # gpuwise's rate out of one GPU


def test_h981_forced_balancing_leaves_only_sampling_skew():
    """H981 routed on random logits (forced balancing), not by its aux-loss router: each token's top-2 of 8 experts is
    uniform and independent. The busiest of the 8 expert-parallel GPUs (one expert each) then carries, over the mean,
    1 + z sqrt((ep - 1)(E - k) / (tokens k (E - 1))) with z = 1.434 (Blom's expected maximum of 8 normals) and the EP
    group's 8 x 2 x 4,096 = 65,536 tokens a micro-batch: 1.0097. Routing skew is 1% of the experts' time; the run is
    23% slower than gpuwise's step (README: the ROCm grouped GEMM and unfused permute without Primus-Turbo)."""
    tokens = EP * 2 * 4096
    z = max_normal(8)
    assert z == pytest.approx(1.4342, abs=1e-4)
    by_hand = 1 + z * math.sqrt((EP - 1) * (8 - 2) / (tokens * 2 * (8 - 1)))
    _, f_c = ep_imbalance(8, 2, 8, tokens)
    assert f_c == pytest.approx(by_hand, rel=1e-9)
    assert f_c == pytest.approx(1.0097, abs=1e-4)
    t = _estimate("H981").gpu.training
    assert (t.requested_layout.ep, t.requested_layout.micro_batch) == (8, 2)
    # the logged steady step over gpuwise's: 23% more than the 1% sampling skew could add to the experts' share
    assert 3.0605 / t.step_terms.step_s == pytest.approx(1.30, abs=0.01)


def test_maxtext_profile_against_gpuwise_step():
    """The sweep's pdbs=6 profile of the blog's kernels (sparse-gmm-deepep-v3): grouped and dense GEMMs 6.71 s, flash
    attention 1.27 s, RCCL 8.18 s, the valid-rows mask 0.83 s, other fusions 2.10 s, 19.13 s of kernels on any stream
    in a 23.9 s step: the FSDP collectives are mostly not hidden and 4.77 s is idle. gpuwise at pdbs 4 and 7 (H926,
    H927), interpolated to 6: 5.89 s of compute against the profile's 7.98 s of GEMM and attention, 11.81 s of FSDP
    traffic of which it hides 5.78 s, where the run's 8.18 s of RCCL kernels overlap little (README)."""
    kernels = 0.04 + 0.83 + 8.18 + 6.71 + 1.27 + 2.10  # input_scatter, mask, RCCL, GEMM, attention, other
    assert kernels == pytest.approx(19.13, abs=0.01)
    assert 23.9 - kernels == pytest.approx(4.77, abs=0.01)
    t4, t7 = _estimate("H926").gpu.training, _estimate("H927").gpu.training
    compute6 = t4.step_terms.compute_s + (t7.step_terms.compute_s - t4.step_terms.compute_s) * 2 / 3
    assert compute6 == pytest.approx(5.887, abs=0.01)
    assert t7.dp_traffic.traffic_s == pytest.approx(t4.dp_traffic.traffic_s, rel=1e-9)  # one gather set a step
    assert t7.dp_traffic.traffic_s == pytest.approx(11.806, abs=0.01)
    hidden6 = t4.dp_traffic.hidden_s + (t7.dp_traffic.hidden_s - t4.dp_traffic.hidden_s) * 2 / 3
    assert hidden6 == pytest.approx(5.79, abs=0.02)
    assert (6.71 + 1.27) / compute6 == pytest.approx(1.36, abs=0.01)
