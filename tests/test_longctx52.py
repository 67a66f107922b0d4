"""Gradient AI's context-extension stages: the layout their cards' tables give, and the ring's cost over four L40S
servers by hand (branch longctx52).

The cards first printed 'Batch Size' 1 beside 'Ring parallelism' 64 / 16 / 8 / 1 (Llama-3-70B-Instruct-Gradient-1048k,
the table before commit 32295b6) and 'Batch Size' 1 / 1 / 2 / 2 beside 'Ring parallelism' 1 / 1 / 8 / 8 (the 8B card,
before 51a5569); the corrections replaced both rows by 'Batch Size' 64 / 16 / 8 / 1 and 1 / 1 / 16 / 16, which the
Total Tokens row needs (83,886,080 = 20 steps x 64 x 65,536). So 'Ring parallelism' counted rings side by side, and a
ring spans the stage's GPUs over its rings: the conditions' cp and micro-batch."""
from __future__ import annotations

import csv

import pytest

from benchmarks import accuracy

from .conftest import DATA

# id: (GPUs, rings ('Ring parallelism'), sequences a ring ('Batch Size' first printed), accumulation, steps), as printed
CARDS = {
    "H228": (8, 1, 1, 32, 30),
    "H229": (32, 1, 1, 16, 24),
    "H230": (512, 8, 2, 1, 50),
    "H232": (512, 64, 1, 1, 20),
    "H233": (512, 16, 1, 1, 25),
    "H234": (512, 8, 1, 2, 25),
    "H235": (128, 1, 1, 4, 8),
}


def _rows(name: str) -> dict[str, dict]:
    with open(DATA / name, newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh)}


@pytest.mark.parametrize("rid", sorted(CARDS))
def test_gradient_layout_is_the_cards(rid):
    gpus, rings, per_ring, accum, steps = CARDS[rid]
    run, cond = _rows("training_heldout.csv")[rid], _rows("training_conditions.csv")[rid]
    seq = int(run["seq_len"])
    # the corrected 'Batch Size' (rings x sequences a ring) times accumulation and steps is the card's Total Tokens
    assert float(run["global_batch_tokens"]) == rings * per_ring * accum * seq
    assert round(float(run["training_tokens_b"]) * 1e9) == steps * rings * per_ring * accum * seq
    assert int(run["gpus"]) == gpus
    assert int(cond["cp"]) == gpus // rings  # H232: 512 / 64 = 8 GPUs a ring, one 8-GPU server
    assert int(cond["micro_batch"]) == per_ring


def test_h231_left_unpinned():
    # its two cards disagree on the batch under one Total Tokens (the criterion column quotes both)
    cond = _rows("training_conditions.csv")["H231"]
    assert cond["cp"] == "" and cond["micro_batch"] == ""


def test_ring_over_four_l40s_servers_by_hand():
    """H229, one ring of 32 L40S over four servers, 16 sequences of 262,144 tokens a step: a rank's chunk is
    262,144 / 32 = 8,192 tokens of Llama 3 8B's 1,024 K (and V) values at 2 B, passed 31 times; 32 layers x 16
    micro-batches x (3 + 1 recomputed) passes. gpuwise prices a pass as an all-to-all over the ring's 32 ranks, 24 of
    32 parts across the network (InfiniBand 400 Gb/s a GPU, the catalog's default, 37.5 GB/s) and 7 of 32 over
    PCIe 4.0 (23.6 GB/s), the slower of the two, half of it exposed."""
    row = _rows("training_heldout.csv")["H229"]
    cond = accuracy.run_conditions()["H229"]
    est = accuracy.run_estimate(accuracy.with_conditions(accuracy.run_workload(row), cond), "l40s", 32)
    t = est.gpu.training
    assert t.layout_notation.startswith("TP1 PP1 DP1 CP32")  # one ring of 32: 1 x 1 x 1 x 32 GPUs (review60)
    chunk = 2 * 1024 * 8192 * 2
    passes = 32 * 16 * 4
    inter = chunk * 31 * 24 / 32 / 37.5e9
    intra = chunk * 31 * 7 / 32 / 23.6e9
    assert inter > intra
    per_pass = inter + 7 * 5e-6 + 2e-6  # NCCL's ring steps inside a server, one network hop's latency
    assert t.step_terms.cp_s == pytest.approx(passes * per_pass * 0.5, rel=0.01)  # 21.3 s
    # the card's 555 minutes over 24 steps: 1,387.5 s a step, 4.1x gpuwise's whole step
    assert 555 * 60 / 24 / t.step_terms.step_s == pytest.approx(4.14, abs=0.05)
