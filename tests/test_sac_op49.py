"""Per-op selective activation checkpointing (workload.gradient_checkpointing 'selective_op'), against a hand count
(branch ttrecipe49).

The policy is torchtitan's (torchtitan/models/llama3/parallelize_llama.py at 820504e, ``_save_list`` and
``_custom_policy``, the code of held-out rows H516-H521 and H524-H533): inside each transformer block it counts the
``aten.mm`` calls and saves the output of every odd one, of attention (``_scaled_dot_product_*_attention``) and of
the reduce-scatters; the rest is recomputed in the backward. A Llama block calls wq, wk, wv, wo, then w1, w3, w2
(``w2(silu(w1(x)) * w3(x))``), so wk, wo and w3 run again, and under tensor parallelism the two sequence-parallel
all-gathers (not in the list) run again too.

Llama 3 8B (hidden 4,096, 32 heads of 128, 8 KV heads: kv_dim 1,024, ffn 14,336, 32 layers), one layer a token:
  forward matmuls = 2 x (4,096 x 4,096 [wq] + 4,096 x 1,024 [wk] + 4,096 x 1,024 [wv] + 4,096 x 4,096 [wo]
                         + 3 x 4,096 x 14,336 [w1, w3, w2]) = 436,207,616 FLOPs
  recomputed        = 2 x (4,096 x 1,024 + 4,096 x 4,096 + 4,096 x 14,336) = 159,383,552 FLOPs (36.5%)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from gpuwise.estimators.compute import sac_op_recomputed_params, sac_op_saved_elements, sac_op_supported
from gpuwise.inputs.shape import from_catalog

from .clirun import gpuwise
from .test_tp_collectives import _one_allreduce

H, KV, F, L = 4096, 1024, 14336, 32


def test_the_recomputed_matmuls_of_one_llama_3_8b_layer_by_hand(kb):
    shape = from_catalog(kb.models["llama-3.1-8b"])
    assert (shape.hidden, shape.kv_dim, shape.ffn, shape.layers) == (H, KV, F, L)
    recomputed = 2 * sac_op_recomputed_params(shape)
    assert recomputed == 2 * (H * KV + H * H + H * F) == 159_383_552
    forward = 2 * (H * H + 2 * H * KV + H * H + 3 * H * F)
    assert forward == 436_207_616
    assert recomputed / forward == pytest.approx(0.3654, abs=1e-4)
    assert sac_op_supported(shape)
    assert not sac_op_supported(from_catalog(kb.models["deepseek-v3"]))  # MLA and routed experts: refused


def test_what_a_layer_keeps_by_hand(kb):
    shape = from_catalog(kb.models["llama-3.1-8b"])
    # the block's input, wq's output, wv's, attention's, w1's and w2's: 4,096 + 4,096 + 1,024 + 4,096 + 14,336 + 4,096
    assert sac_op_saved_elements(shape) == 31_744
    # TP 8: all of it sequence-sharded or split by the ranks, and the two reduce-scatters' outputs (4,096 each over
    # 8), except w2's whole-sequence partial sum (row-parallel, saved before its reduce-scatter)
    assert sac_op_saved_elements(shape, 8) == (H + 2 * H + KV + F + 2 * H) / 8 + H == 8_576


def _run(tmp_path: Path, w: dict, gpus: int) -> dict:
    path = tmp_path / "job.yaml"
    path.write_text(yaml.safe_dump({"workload": w}))
    r = gpuwise("estimate", str(path), "--gpu", "h100-80gb-sxm", "--gpus", str(gpus), "--format", "json",
                cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _h516(ckpt: bool | str) -> dict:  # held-out row H516's layout (tests/test_tp_collectives.py)
    return {"task": "pretrain", "model": "llama-3.1-8b", "precision": "bf16", "train_tokens": 1e10, "seq_len": 8192,
            "global_batch_tokens": 786432, "batch_size": 12, "zero_stage": 3, "gradient_checkpointing": ckpt,
            "stack": "torchtitan", "parallelism": {"tp": 8}}


def test_the_all_gathers_run_again_and_the_recomputed_flops_are_charged(tmp_path):
    op = _run(tmp_path, _h516("selective_op"), 64)["gpu"]["training"]
    plain = _run(tmp_path, _h516(False), 64)["gpu"]["training"]
    assert op["layout_notation"].startswith("TP8 PP1 DP8") and op["layout_notation"].endswith("ckpt-op")
    # four all-reduce equivalents a layer, and the two all-gathers again (half an all-reduce's volume each): 5 x 32
    assert op["step_terms"]["tp_s"] == pytest.approx(32 * 5 * _one_allreduce(), rel=1e-6)
    # compute grows by the recomputed matmuls' FLOPs over the step's plain FLOPs, at one rate: the plain count is
    # 6 N + attention a token, N = the catalog's matmul parameters (compute.training_flops); the step's extra is
    # 32 x 159.4 MFLOP = 5.10 GFLOP a token
    ratio = op["step_terms"]["compute_s"] / plain["step_terms"]["compute_s"]
    from gpuwise.estimators.compute import training_flops
    from gpuwise.knowledge import load
    shape = from_catalog(load().models["llama-3.1-8b"])
    per_token = training_flops(shape, 1.0, 8192, "full", False).value
    assert ratio == pytest.approx(1 + L * 159_383_552 / per_token, rel=1e-6)
    assert 1.08 < ratio < 1.10  # 5.10 of 54-55 GFLOP a token


def test_h524_memory_against_torchao_published_peak(tmp_path):
    # pytorch/ao torchao/float8/README.md at 8c81863b, 'Training benchmarks': torchtitan Llama3-8b on 8 H100, FSDP2,
    # batch 1, sequence 8,192, torch.compile, per-op SAC, bfloat16: peak memory 47.65 GB
    w = {"task": "pretrain", "model": "llama-3.1-8b", "precision": "bf16", "train_tokens": 1e10, "seq_len": 8192,
         "global_batch_tokens": 65536, "batch_size": 1, "zero_stage": 3, "gradient_checkpointing": "selective_op",
         "stack": "torchtitan", "torch_compile": True, "parallelism": {"tp": 1, "pp": 1, "cp": 1}}
    out = _run(tmp_path, w, 8)
    assert out["gpu"]["training"]["layout_notation"] == "TP1 PP1 DP8 ZeRO-3 ckpt-op"
    assert out["memory"]["per_gpu_bytes"] == pytest.approx(47.65e9, rel=0.10)


@pytest.mark.parametrize("gpus, precision, published_gib", [(128, "fp8", 61.8), (8, "fp8", 76.8)])
def test_torchtitan_llama_3_1_8b_memory_against_its_published_tables(tmp_path, gpus, precision, published_gib):
    # pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md, Tables 3 and 1: Llama 3.1 8B, FSDP over 128 / 8
    # H100, local batch 2 of 8,192, selective (per-op) activation checkpointing, FSDP + torch.compile + Float8: 61.8 /
    # 76.8 GiB (held-out rows H172 / H171; the 8-GPU run needed its 96 GB part, over the 80 GB SXM's usable memory)
    w = {"task": "pretrain", "model": "llama-3.1-8b", "precision": precision, "train_tokens": 1e10, "seq_len": 8192,
         "global_batch_tokens": 2 * 8192 * gpus, "batch_size": 2, "zero_stage": 3, "offload": "none",
         "gradient_checkpointing": "selective_op", "stack": "torchtitan", "torch_compile": True,
         "parallelism": {"tp": 1, "pp": 1, "cp": 1}}
    got = _run(tmp_path, w, gpus)["gpu"]["training"]["requested_memory_per_gpu_bytes"]
    assert got == pytest.approx(published_gib * 2**30, rel=0.05)


def test_a_moe_model_is_refused_in_one_line(tmp_path):
    path = tmp_path / "moe.yaml"
    path.write_text(yaml.safe_dump({"workload": {"task": "pretrain", "model": "deepseek-v3", "train_tokens": 1e9,
                                                 "gradient_checkpointing": "selective_op"}}))
    r = gpuwise("estimate", str(path), "--gpu", "h100-80gb-sxm", "--gpus", "64", cwd=tmp_path)
    assert r.returncode == 2
    assert "per-op selective checkpointing" in r.stderr and len(r.stderr.strip().splitlines()) == 1
