"""workload.grad_reduce_in_fp32 (branch trainblind14): false holds, accumulates and reduces the main gradients in the
16-bit training dtype, 2 B a parameter instead of Megatron's fp32 4 B (Megatron-Core DistributedDataParallelConfig
grad_reduce_in_fp32; NeMo 1's optim.grad_sync_dtype bf16, which megatron_gpt_model.py setup_mcore_distributed_parallel
at NVIDIA/NeMo 876c8511 passes on as grad_reduce_in_fp32 = (grad_sync_dtype == 'fp32')). NeMo 24.07's 70B SFT on 16
H100 (H435; NeMo-Framework-Launcher examples/peft/llama/h100/70b_2node.sh and conf/peft/llama/sft.yaml at 3dd35614)
set it so."""

from __future__ import annotations

from pathlib import Path

import pytest

import gpuwise

from .clirun import gpuwise as gpuwise_cli
from .test_heldout_trainblind11 import _rows


def _sft(**more):
    w = {"task": "finetune", "method": "full", "model": "llama-2-70b", "train_tokens": 1.31072e7, "seq_len": 4096,
         "precision": "fp8", "stack": "nemo", "batch_size": 1, "global_batch_tokens": 32 * 4096,
         "gradient_checkpointing": True, "offload": "none", "parallelism": {"tp": 4, "pp": 4, "vpp": 20}, **more}
    return gpuwise.estimate({"workload": w}, gpu="h100-80gb-sxm", gpus=16).gpu.training


def test_sixteen_bit_main_gradients_save_two_bytes_a_local_parameter():
    """At TP4 PP4 DP1 each GPU holds its stage's whole gradients: 20 of the 80 layers (855.6M parameters each: q and o
    2 x 8,192^2, k and v 2 x 8,192 x 1,024, the MLP 3 x 8,192 x 28,672) over TP4, 4.278B, and on the first stage a
    quarter of the 32,000 x 8,192 embedding, 65.5M more: 2 B less a parameter is 8.69 GB, and with the allocator's 5%
    allowance on it (runtime.yaml allocator_overhead_fraction) 9.12 GB less at the GPU's peak; true is the layout's
    own fp32."""
    fp32, none, bf16 = _sft(grad_reduce_in_fp32=True), _sft(), _sft(grad_reduce_in_fp32=False)
    assert fp32.requested_memory_per_gpu_bytes == pytest.approx(none.requested_memory_per_gpu_bytes, rel=1e-12)
    saved = none.requested_memory_per_gpu_bytes - bf16.requested_memory_per_gpu_bytes
    layer = 2 * 8192**2 + 2 * 8192 * 1024 + 3 * 8192 * 28672
    stage = 20 * layer / 4 + 32000 * 8192 / 4
    assert saved == pytest.approx(2 * stage * 1.05, rel=0.002)


def test_h435_states_what_its_launch_script_set():
    c = _rows("training_conditions.csv")["H435"]
    assert (c["grad_reduce_in_fp32"], c["fp8_params"], c["vpp"]) == ("false", "true", "20")
    assert "grad_sync_dtype bf16" in c["source"] and "70b_2node.sh" in c["source"]
    # no other row states it but the six NeMo 24.07 fine-tunes, KempnerForge's FSDP2 runs (trainblind26: its
    # FSDP2 reduces the gradients in fp32, kempnerforge/config/training.py) and the Megatron-Bridge verification
    # cards' recipes that set it (trainblind27: the LoRA rows H673 / H680 / H683 leave it to the stack)
    rows = _rows("training_conditions.csv")
    said = {rid for rid, r in rows.items() if r["grad_reduce_in_fp32"]}
    cards = {f"H{n}" for n in (*range(671, 686), 691, 692)} - {"H673", "H680", "H683"}
    # trainblind32's nanotron grid (H788-H813: gradients reduced in fp32), trainblind33's Llemma configs (H817 / H818:
    # fp32 gradient accumulation) and trainblind34's Megatron-Bridge 26.06 SFT / LoRA recipes (H819-H828: false)
    # and trainblind40's swiss-ai/Megatron-LM scripts (H902-H907, H909, H910: --main-grads-dtype bf16, false), and
    # trainblind42's Megatron-LM GB200 DeepSeek-V3 guide (H931 / H932: --main-grads-dtype fp32, true), and
    # trainblind45's Modalities sweep (H961-H978: its mfu.py wants FSDP to reduce in the param dtype, bf16: false), and
    # trainblind46's AMD Primus / Megatron-LM logs (H979-H982: accumulate_allreduce_grads_in_fp32 True, true), and
    # trainblind47's Apertus Megatron logs and Crusoe's torchtitan table (H985-H994: gradients reduced in fp32,
    # torchtitan's mixed_precision_reduce float32 default; true), and trainblind48's Qwen3.5 SFT card (H996: 'FP32
    # gradient reduction', true) and torchtitan's DeepEP table (H998-H1004: torchtitan's default again, true)
    later = {f"H{n}" for n in (*range(788, 814), 817, 818, *range(819, 829), *range(902, 908), 909, 910, 931, 932,
                                *range(961, 983), *range(985, 995), 996, *range(998, 1005))}
    assert said == {f"H{n}" for n in (*range(433, 439), *range(636, 650))} | cards | later
    assert all(rows[f"H{n}"]["grad_reduce_in_fp32"] == "false" for n in (*range(819, 829), *range(902, 908), 909, 910,
                                                                           *range(961, 979)))
    assert all(rows[f"H{n}"]["grad_reduce_in_fp32"] == "true" for n in (*range(979, 983), *range(985, 995), 996,
                                                                         *range(998, 1005)))
    assert all("main gradients in bf16" in rows[f"H{n}"]["source"] for n in (*range(902, 908), 909, 910))
    kempner = [rows[f"H{n}"] for n in range(636, 650)]
    assert all(r["grad_reduce_in_fp32"] == "true" and "FSDP2 reduces them in fp32" in r["source"] for r in kempner)


def test_an_inference_workload_refuses_it(tmp_path: Path):
    (tmp_path / "r.yaml").write_text("workload: {task: inference, model: llama-3.1-8b, grad_reduce_in_fp32: false}\n",
                                     encoding="utf-8")
    out = gpuwise_cli("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path)
    assert out.returncode == 2
    assert "workload.grad_reduce_in_fp32: grad_reduce_in_fp32 is a training setting" in out.stderr
