"""The tensor-parallel term of the training step, against a hand calculation (branch tptrain45).

What it pins, and where each figure comes from:

* the collectives a layer runs: two all-reduces forward (after the attention block and after the MLP) and two
  backward (the input gradients of the column-parallel QKV and first MLP matrices); with sequence parallelism each
  all-reduce becomes an all-gather plus a reduce-scatter of the same volume (Korthikanti et al. 2022, 'Reducing
  Activation Recomputation in Large Transformer Models', arXiv:2205.05198, its Sequence Parallelism section), so
  four all-reduce equivalents a layer, and two more when the layer's forward is recomputed;
* each is a micro-batch's activations, tokens x hidden x 2 bytes, moved by a ring: 2 (n - 1) / n of the bytes over
  each GPU's link (NCCL's bus bandwidth: busbw = algbw x 2 (n - 1) / n for all-reduce, NVIDIA/nccl-tests
  doc/PERFORMANCE.md), at the link's one-direction rate (H100 SXM NVLink 4: 18 links x 25 GB/s = 450 GB/s) times
  runtime.yaml link_efficiency, plus 2 (n - 1) ring steps of 5 us;
* nothing hidden on torchtitan, whose async TP is opt-in (runtime.yaml training.tp_comm_overlap 0).

The layout is held-out row H516's (torchtitan's async-TP benchmark, Llama 3.1 8B on 64 H100, FSDP 8 x TP 8, 12
sequences of 8,192 tokens a data-parallel rank, one micro-step).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from .clirun import gpuwise

ROOT = Path(__file__).parent.parent


def _terms(tmp_path: Path, checkpointing: bool) -> dict:
    w = {"task": "pretrain", "model": "llama-3.1-8b", "precision": "bf16", "train_tokens": 1e10, "seq_len": 8192,
         "global_batch_tokens": 786432, "batch_size": 12, "zero_stage": 3, "gradient_checkpointing": checkpointing,
         "stack": "torchtitan", "parallelism": {"tp": 8}}
    path = tmp_path / f"tp-{checkpointing}.yaml"
    path.write_text(yaml.safe_dump({"workload": w}))
    r = gpuwise("estimate", str(path), "--gpu", "h100-80gb-sxm", "--gpus", "64", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    t = json.loads(r.stdout)["gpu"]["training"]
    assert t["layout_notation"].startswith("TP8 PP1 DP8")  # the row's layout: one micro-step of 12 sequences
    return t["step_terms"]


def _one_allreduce() -> float:
    eff = yaml.safe_load((ROOT / "knowledge" / "runtime.yaml").read_text())["link_efficiency"]["value"]
    nbytes = 12 * 8192 * 4096 * 2  # 12 sequences x 8,192 tokens x hidden 4,096 x 2 bytes = 805 MB
    n = 8
    return 2 * (n - 1) / n * nbytes / (450e9 * eff) + 2 * (n - 1) * 5e-6


def test_four_all_reduce_equivalents_a_layer_without_recomputation(tmp_path):
    # 32 layers x 4 = 128 collectives of 4.25 ms at link_efficiency 0.75: 0.543 s of the 2.06 s step
    assert _terms(tmp_path, False)["tp_s"] == pytest.approx(32 * 4 * _one_allreduce(), rel=1e-6)


def test_a_recomputed_forward_runs_its_two_again(tmp_path):
    # full recomputation: 32 x 6 = 192 collectives, 0.815 s
    assert _terms(tmp_path, True)["tp_s"] == pytest.approx(32 * 6 * _one_allreduce(), rel=1e-6)
