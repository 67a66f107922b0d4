"""Under LoRA, NVIDIA's recipes leave the fused QKV projection's tensor-parallel collectives unoverlapped
(knowledge/runtime.yaml training_stacks nemo tp_comm_overlap_lora_unhidden 0.25: Megatron-Bridge's LoRA performance
configs and MLPerf's llama2_70b_lora megatron_gpt_peft_tuning_config.yaml set tp_comm_overlap_disable_qkv, so its
forward all-gather and backward reduce-scatter, 2 of a layer's 8 sequence-parallel collectives, run on NCCL; a
frozen weight runs no weight-gradient GEMM for Transformer Engine's bulk overlap to hide them behind). The exposed
share of a LoRA job's TP traffic on NeMo is then 0.25 + 0.75 x (1 - 0.75) = 0.4375, against full training's 0.25."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from .clirun import gpuwise


def _tp_seconds(tmp_path: Path, method: str, overlap: bool | None) -> float:
    w = {"task": "finetune", "method": method, "model": "llama-2-70b", "precision": "bf16", "train_tokens": 1e8,
         "seq_len": 8192, "batch_size": 1, "parallelism": {"tp": 2, "pp": 1, "cp": 1}, "stack": "nemo"}
    if method != "full":
        w["lora_targets"] = "attention"
    if overlap is not None:
        w["tp_comm_overlap"] = overlap
    path = tmp_path / f"{method}-{overlap}.yaml"
    path.write_text(yaml.safe_dump({"workload": w, "constraints": {"max_gpus": 64}}))
    r = gpuwise("estimate", str(path), "--gpu", "h200", "--gpus", "64", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["gpu"]["training"]["step_terms"]["tp_s"]


def test_lora_exposes_the_qkv_collectives_beside_what_nemo_leaves(tmp_path):
    lora, lora_off = _tp_seconds(tmp_path, "lora", None), _tp_seconds(tmp_path, "lora", False)
    assert lora > 0 and lora == pytest.approx(lora_off * (0.25 + 0.75 * (1 - 0.75)), rel=1e-9)
    full, full_off = _tp_seconds(tmp_path, "full", None), _tp_seconds(tmp_path, "full", False)
    assert full == pytest.approx(full_off * (1 - 0.75), rel=1e-9)  # full training: NeMo's own share, unchanged
