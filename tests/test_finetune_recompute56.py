"""A full fine-tune that names neither its stack nor gradient_checkpointing recomputes every layer (runtime.yaml
training.finetune_recompute, branch trainbare56): the fine-tuning tools turn activation checkpointing on unless told
not to -- TRL's SFTConfig (gradient_checkpointing True where transformers' TrainingArguments has False;
huggingface/trl trl/trainer/sft_config.py at 016013e8), ms-swift (swift/trainers/arguments.py at 0037257c:
gradient_checkpointing: bool = True), LLaMA-Factory (disable_gradient_checkpointing False, model_args.py at 00577a85,
applied in model_utils/checkpointing.py prepare_model_for_training at 06d78ff1) and torchtune's full fine-tune configs
(recipes/configs/llama3_1/8B_full.yaml at 04781656: enable_activation_checkpointing True)."""

from __future__ import annotations

import pytest

from gpuwise.decide.estimate import estimate

FT = {"task": "finetune", "method": "full", "model": "llama-3.1-8b", "train_tokens": 1e8, "seq_len": 4096}


def _est(**over):
    return estimate({"workload": {**FT, **over}}, gpu="h100-80gb-sxm", gpus=8)


def test_the_default_is_every_layer_and_its_sources_are_the_tools(kb):
    f = kb.runtime.training.finetune_recompute
    assert f.value == 1.0
    for cited in ("trl/trainer/sft_config.py", "swift/trainers/arguments.py", "disable_gradient_checkpointing",
                  "enable_activation_checkpointing"):
        assert cited in f.source


def test_an_unstated_full_fine_tune_is_priced_as_one_stating_recomputation():
    """Nothing said prices as gradient_checkpointing true stated (the same layout and hours), and the assumption
    says why in place of 'on only where the layout needs it'."""
    bare, stated = _est(), _est(gradient_checkpointing=True)
    assert bare.gpu.gpu_hours == pytest.approx(stated.gpu.gpu_hours, rel=1e-9)
    assert bare.gpu.training.layout_notation == stated.gpu.training.layout_notation
    said = [a.message_id for a in bare.assumptions if a.field == "workload.gradient_checkpointing"]
    assert said == ["assume.default.workload.gradient_checkpointing.finetune"]
    # 8 N against 6 N a token for the weights' matmuls (the forward again): the recomputing step is dearer
    assert bare.gpu.gpu_hours > _est(gradient_checkpointing=False).gpu.gpu_hours


@pytest.mark.parametrize("over", [{"gradient_checkpointing": False}, {"stack": "deepspeed"}, {"method": "lora"},
                                  {"precision": "fp8"}, {"task": "pretrain"}])
def test_a_stated_stack_or_choice_adapters_fp8_and_pretraining_keep_memory_s_choice(over):
    """A stated stack or recomputation is the user's; LoRA and pretraining have no one practice read; FP8 and FP4
    assume Megatron-Core (default_stack), whose recipes are not these tools'. Each fits on 8 x H100 without
    recompute."""
    if "task" in over:
        w = {k: v for k, v in FT.items() if k != "method"} | {"task": "pretrain"}
        est = estimate({"workload": w}, gpu="h100-80gb-sxm", gpus=8)
    else:
        est = _est(**over)
    assert not est.gpu.training.layout_notation.endswith("ckpt")
    assert all(a.message_id != "assume.default.workload.gradient_checkpointing.finetune" for a in est.assumptions)
