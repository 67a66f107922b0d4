"""The MoE host wait's per-layer part beside the per-expert one (branch moehost56, issue 22 item 3).

knowledge/runtime.yaml training.moe_dispatch layer_host_ops counts the host calls an MoE layer's micro-batch makes
whatever its expert count, from Megatron-Core at adfb8ec7 (the attention block's modules, the router, the alltoall
dispatcher's bookkeeping, the counts' copy to the host, the permutations, the all-to-alls, the grouped MLP's entry,
and the backward's nodes and gradient hooks): 51 forward, 39 backward, each at 7 us, PyTorch's cost model for an eager
operator on H100 (meta-pytorch/autoparallel pull request #146; pytorch/pytorch issue #41383). The per-expert figures
were then read again on NeMo 25.09-26.02's rows (tests/data/training_throughput_published.csv M06-M13) as before,
each row's implied figure less 0.63 ms over its local experts, the median per architecture."""

from __future__ import annotations

import csv
import statistics

import pytest

from benchmarks import accuracy as A
from gpuwise import knowledge
from gpuwise.estimators import step_time as S


def test_the_count_and_its_sources():
    ops = knowledge.load().runtime.training.moe_dispatch.layer_host_ops
    assert (ops.forward, ops.backward, ops.us_per_op) == (51, 39, 7.0)
    assert ops.forward == 9 + 8 + 12 + 8 + 2 + 2 + 1 + 4 + 5  # the source's groups, in its order
    assert ops.backward == 9 + 14 + 5 + 1 + 2 + 2 + 3 + 1 + 2
    for where in ("adfb8ec7", "MoEAlltoAllTokenDispatcher", "autoparallel pull request #146", "#41383", "#2053"):
        assert where in ops.source, where


def test_layer_seconds_by_hand():
    """90 calls x 7 us = 0.63 ms a layer's micro-batch; a recomputed layer makes its forward's 51 again."""

    class _Tj:
        runtime = knowledge.load().runtime

    assert S.layer_host_seconds(_Tj, 0.0) == pytest.approx(0.63e-3)
    assert S.layer_host_seconds(_Tj, 1.0) == pytest.approx((2 * 51 + 39) * 7e-6)


def test_the_figures_read_again_by_hand():
    """The implied per-expert figures first read (runtime.yaml's source: Hopper M06 1.12, M08 1.01 (1.014 unrounded),
    M10 3.18, M12 0; Blackwell M09 0.55, M11 0.666, M13 0.673, M07 28), less 0.63 ms over each row's local experts
    (16, 16, 4, 4; 16, 16, 32, 2): the medians are 1.03 and 0.64."""
    p = (51 + 39) * 7e-3
    hopper = [1.120 - p / 16, 1.014 - p / 16, 3.179 - p / 4, 0.0]
    blackwell = [0.550 - p / 16, 0.666 - p / 16, 0.673 - p / 32, 28.243 - p / 2]
    md = knowledge.load().runtime.training.moe_dispatch
    assert md.ms_per_local_expert["hopper"] == pytest.approx(statistics.median(hopper), abs=0.005)
    assert md.ms_per_local_expert["blackwell"] == pytest.approx(statistics.median(blackwell), abs=0.005)
    assert md.ms_per_local_expert["blackwell-ultra"] == md.ms_per_local_expert["blackwell"]


def test_h683_wait_by_hand(monkeypatch):
    """H683: gpt-oss-120b all-linear LoRA (Megatron-Bridge's shared expert adapters, the experts frozen) on 8 x H100
    at EP8 DP8, GBS 128 of one 2,048-token sequence: 16 micro-batches a GPU, 36 MoE layers, 128 / 8 = 16 local
    experts, no recomputation. A layer's micro-batch waits on the host for 16 x 1.03 ms x 4/9 + 0.63 ms = 7.95 ms
    (the card's step gives 20.0 ms a layer's micro-batch), beyond its GPU work (about 4 ms), so the per-layer part
    adds 16 x 36 x 0.63 ms = 0.363 s to the step's host wait."""
    with open(A.HELDOUT_RUNS, newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == "H683")
    w = A.with_conditions(A.run_workload(row), A.run_conditions()["H683"])

    def terms():
        est = A.run_estimate(w, row["gpu"], int(row["gpus"]))
        return est.gpu.layout, est.gpu.training.step_terms

    lay, s = terms()
    assert (lay.tp, lay.pp, lay.ep, lay.dp, lay.grad_accum, lay.recompute_share) == (1, 1, 8, 8, 16, 0.0)
    monkeypatch.setattr(S, "layer_host_seconds", lambda tj, recompute_share: 0.0)
    lay0, s0 = terms()
    assert (lay0.ep, lay0.grad_accum) == (8, 16)
    assert s.moe_host_wait_s - s0.moe_host_wait_s == pytest.approx(16 * 36 * 0.63e-3, rel=1e-6)
