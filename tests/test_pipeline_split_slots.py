"""A pinned interleaved schedule on Megatron-Core may count the embedding and the loss as a layer each (branch
trainblind16): NVIDIA/Megatron-LM megatron/core/transformer/transformer_config.py (at d98e8a64) has
account_for_embedding_in_pipeline_split and account_for_loss_in_pipeline_split, and transformer_block.py's
get_num_layers_to_build then splits num_layers + 2 over the pipeline ranks and their virtual stages, one transformer
layer fewer on the first and the last. XTuner's Megatron MoE benchmark (InternLM/xtuner
docs/en/benchmark/megatron_moe_benchmark.md at b934f462; held-out H475, H480, H482, H483) ran Qwen3-235B-A22B's 94
layers on PP32 with VPP3 that way: 32 x 3 = 96 places. gpuwise refused the layout before (96 > 94)."""

from __future__ import annotations

import pytest

from gpuwise import estimate, knowledge
from gpuwise.errors import UserError


def _run(stack: str | None, vpp: int):
    w = {"task": "pretrain", "model": "qwen3-235b-a22b", "train_tokens": 1e10, "seq_len": 4096, "precision": "bf16",
         "global_batch_tokens": 2048 * 4096, "batch_size": 1, "zero_stage": 1,
         "parallelism": {"tp": 2, "pp": 32, "ep": 8, "vpp": vpp}, **({"stack": stack} if stack else {})}
    return estimate({"workload": w}, gpu="h800-80gb-sxm", gpus=256).gpu.training


def test_megatron_core_stacks_place_the_embedding_and_the_loss_and_no_other_does():
    stacks = knowledge.load().runtime.training_stacks
    assert {k for k, s in stacks.items() if s.pipeline_split_slots} == {"megatron", "nemo"}
    assert stacks["megatron"].pipeline_split_slots == stacks["nemo"].pipeline_split_slots == 2


@pytest.mark.parametrize("stack", ["megatron", "nemo"])
def test_pp32_vpp3_on_94_layers_runs_on_megatron_core(stack):
    """94 layers + the embedding + the loss = 96 = 32 ranks x 3 virtual stages."""
    t = _run(stack, 3)
    assert t.layout_notation.startswith("TP2 PP32x3 DP4 EP8"), t.layout_notation


@pytest.mark.parametrize("stack, vpp, says", [
    (None, 3, "3 virtual stages on each of 32 pipeline ranks need 96 layers; the model has 94"),
    ("torchtitan", 3, "need 96 layers; the model has 94"),
    # 32 x 4 = 128 places less the embedding's and the loss's two: 126 layers; the hint's most, (94 + 2) // 32 = 3
    ("megatron", 4, "4 virtual stages on each of 32 pipeline ranks need 126 layers; the model has 94"),
])
def test_a_schedule_the_places_cannot_fill_is_still_an_input_error(stack, vpp, says):
    with pytest.raises(UserError) as e:
        _run(stack, vpp)
    line = e.value.line()
    assert "workload.parallelism.vpp" in line and says in line and "\n" not in line
    assert ("use vpp 3 or less" if stack == "megatron" else "use vpp 2 or less") in line
