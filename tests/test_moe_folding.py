"""Expert parallelism wider than the data-parallel GPUs (issue 22): Megatron-Core folds the expert layers'
parallelism over the tensor x data-parallel GPUs of a pipeline stage (EP x ETP x EDP = TP x CP x DP, "MoE
parallel folding", Liu et al. 2025, arXiv:2504.14960), which NVIDIA's NeMo recipes use. Each figure by hand."""

from __future__ import annotations

import pytest

from gpuwise import estimate
from gpuwise.estimators import memory as M
from gpuwise.inputs.schema import Workload
from gpuwise.inputs.shape import from_workload


def test_expert_split_keeps_the_tensor_split_within_data_parallel_and_folds_beyond_it():
    """TP2 x DP16 (a 256-GPU, 8-stage layout): EP8 sits inside the data-parallel GPUs and keeps TP2 for the
    experts, 16 / 8 = 2 expert data-parallel ranks; EP32 spans both TP GPUs of each of the 16, each expert
    whole on its GPU (ETP 1), 2 x 16 / 32 = 1 expert data-parallel rank."""
    assert M.expert_split(2, 16, 8) == (2, 2)
    assert M.expert_split(2, 16, 16) == (2, 1)
    assert M.expert_split(2, 16, 32) == (1, 1)
    assert M.expert_split(1, 8, 1) == (1, 8)


def test_a_folded_layout_holds_each_expert_on_one_gpu(kb):
    """Qwen3-235B-A22B: 94 layers of 128 experts of 3 x 4,096 x 1,536 = 18,874,368 parameters (227.1B routed).
    TP2 PP8 EP32 on 256 GPUs: a GPU holds 1/8 of the layers and 1/32 of their experts, whole (ETP 1):
    227.1e9 / 256 = 887.1M expert parameters, the same as EP16 with the experts split over TP2."""
    shape = from_workload(Workload(task="pretrain", model="qwen3-235b-a22b"), kb.models["qwen3-235b-a22b"])
    routed = shape.routed_expert_params
    assert routed == pytest.approx(94 * 128 * 3 * 4096 * 1536, rel=1e-5)
    assert M.stage_params(shape, 2, 8, 32, 16)[1] == pytest.approx(routed / 256)
    assert M.stage_params(shape, 2, 8, 16, 16)[1] == pytest.approx(routed / 256)


def test_nemos_published_folded_layout_is_held_not_replaced(kb):
    """NVIDIA-NeMo/Megatron-Bridge docs/performance-summary-archive.md (26.02): Qwen3-235B-A22B FP8 on 256 H100
    runs TP2 PP8 VP4 EP32 at 1,633 tokens/s per GPU. Before folding, gpuwise could not hold EP32 over 16
    data-parallel GPUs and fell back to TP2 PP32 without expert parallelism (+22%); it now runs the published
    layout and lands within 25%. A stack that is not Megatron-Core (TorchTitan here: with no stack named an FP8
    run is costed as Megatron-Core) still carves experts out of DP only."""
    w = {"task": "pretrain", "model": "qwen3-235b-a22b", "precision": "fp8", "seq_len": 4096, "batch_size": 1,
         "global_batch_tokens": 8192 * 4096, "stack": "nemo", "train_tokens": 1e10,
         "parallelism": {"tp": 2, "pp": 8, "vpp": 4, "ep": 32}}
    t = estimate({"workload": w}, gpu="h100-80gb-sxm", gpus=256).gpu.training
    assert t.layout_notation.startswith("TP2 PP8x4 DP16 EP32")
    per_gpu = t.global_batch_tokens / t.step_terms.step_s / 256
    assert per_gpu == pytest.approx(1633, rel=0.25)
    middle = {**w, "stack": "torchtitan"}
    mid = estimate({"workload": middle}, gpu="h100-80gb-sxm", gpus=256).gpu.training
    assert "EP32" not in mid.layout_notation
