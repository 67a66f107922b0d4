"""Megatron-LM splits a pipeline by transformer layers alone, so its last rank also runs the output head and the loss
and the pipeline steps at that rank's pace (branch trainblind39; runtime.yaml training_stacks pipeline_head_last).
Megatron-Core's account_for_embedding_in_pipeline_split / account_for_loss_in_pipeline_split default False
(NVIDIA/Megatron-LM megatron/core/transformer/transformer_config.py at d98e8a64), and NVIDIA's Megatron-Bridge
performance guide (docs/performance-guide.md, 'Asymmetric Transformer layer allocation across pipeline stages')
names the heavy projection of a large vocabulary as the imbalance those options remedy.

Hand calculation for Llama 3 8B at 8,192 tokens (32 layers x 4,096, vocabulary 128,256, untied): training FLOPs a
token = 6 x the matmul weights (6.9795B of decoder + the 0.5253B head) + causal attention 6 x 32 x 8,192 x 4,096
(half of a full mask's 12 L s h) = 45.03 + 6.44 = 51.47 GFLOP, of which the head is 6 x 128,256 x 4,096 = 3.152
GFLOP. On pp ranks the last holds 1/pp of the rest plus the head: its share of the mean rank's work is 1 + (pp - 1)
x 3.152 / 51.47, 1.0612 on 2, 1.1837 on 4, 1.4287 on 8. BAAI FlagPerf's Llama 3 8B sweep on one 8 x A800 node (held-
out H829 and H859, the published 3,698.7 and 2,690.3 tokens/s a GPU at PP2 DP4 and PP8 DP1, FlagOpen/FlagPerf
training/nvidia/llama3_8B-megatron/README.md) runs PP8 1.375x slower than PP2: 1.4287 / 1.0612 = 1.346 (gpuwise gave
1.008 blind)."""

from __future__ import annotations

import re

import pytest

from gpuwise import estimate, knowledge

V, H, L, S = 128256, 4096, 32, 8192
DECODER = 8.030261248e9 - 2 * V * H   # the catalog's count less the embedding and the untied head
PER_TOKEN = 6 * (DECODER + V * H) + 6 * L * S * H
HEAD = 6 * V * H


def _share(pp: int) -> float:
    return 1 + (pp - 1) * HEAD / PER_TOKEN


def _compute_s(pp: int, stack: str | None) -> float:
    w = {"task": "pretrain", "model": "llama-3-8b", "train_tokens": 1e10, "seq_len": S, "precision": "bf16",
         "global_batch_tokens": 512 * S, "batch_size": 1, "zero_stage": 1, "gradient_checkpointing": False,
         "parallelism": {"tp": 1, "pp": pp}, **({"stack": stack} if stack else {})}
    t = estimate({"workload": w}, gpu="a800-80gb-sxm", gpus=8).gpu.training
    # DP counts replicas, so DP x CP is the data-parallel GPUs (review60's notation)
    m = re.match(rf"TP1 PP{pp} DP(\d+)(?: CP(\d+))?", t.layout_notation)
    assert m and int(m[1]) * int(m[2] or 1) == 8 // pp, t.layout_notation
    return t.step_terms.compute_s


def test_the_hand_figures():
    assert pytest.approx(51.47e9, rel=1e-3) == PER_TOKEN and pytest.approx(3.152e9, rel=1e-3) == HEAD
    assert (_share(2), _share(4), _share(8)) == pytest.approx((1.0612, 1.1837, 1.4287), abs=5e-4)
    # the published PP8 / PP2 slowdown of the FlagPerf sweep (tokens/s a GPU) against the hand share: within 2.5%
    assert pytest.approx(_share(8) / _share(2), rel=0.025) == 3698.7 / 2690.3


def test_only_megatron_splits_by_layers_alone():
    stacks = knowledge.load().runtime.training_stacks
    assert {k for k, s in stacks.items() if s.pipeline_head_last} == {"megatron"}


def test_the_last_rank_sets_a_named_megatron_pipeline():
    """The same tokens on the same 8 GPUs: the compute term scales with the busiest rank's share alone."""
    assert _compute_s(8, "megatron") / _compute_s(2, "megatron") == pytest.approx(_share(8) / _share(2), rel=1e-6)
    assert _compute_s(4, "megatron") / _compute_s(2, "megatron") == pytest.approx(_share(4) / _share(2), rel=1e-6)


@pytest.mark.parametrize("stack", [None, "nemo", "torchtitan"])
def test_no_share_elsewhere(stack):
    """NeMo's figure is read from Megatron-Bridge's own tables (calibrated_on), whose recipes' splits it holds; an
    unnamed job may be either; torchtitan and DeepSpeed count the head in their splits."""
    assert _compute_s(8, stack) == pytest.approx(_compute_s(2, stack), rel=1e-9)
