"""Held-out fine-tunes H871-H888 (branch trainblind37), scored blind on main ae835c35, from two benchmark sources no
row had cited:

- Hugging Face PEFT's MetaMathQA method comparison (huggingface/peft method_comparison/MetaMathQA/results/*.json):
  Llama-3.2-3B on one NVIDIA L40S, 5,000 steps of 4 length-bucketed samples, 4,198,051 tokens ('train total
  tokens'), 20 logged intervals of 250 steps with their 'train time' (the summed step durations) and 'tokens / sec';
  full fine-tune and LoRA r32 / r64 on q_proj and v_proj, at commit 51c2ff666 (runs of July 2026) and f650b08ab
  (runs of June 2025).
- IBM's fms-acceleration reference benchmark (foundation-model-stack/fms-acceleration
  scripts/benchmarks/refs/a100_80gb.csv at 24bdadb, 2025-02-07): fms-hf-tuning's Trainer, 100 steps of packed
  4,096-token blocks (benchmark.py defaults: packing True, max_seq_len 4,096; defaults.yaml max_steps 100), effective
  batch 4 or 8 split over 1 or 2 A100 80GB, train_runtime and train_tokens_per_second as published.

Each row's tokens, hours and batch are checked here by hand against those figures; no figure of the model was set
from them."""

from __future__ import annotations

import pytest

from .test_heldout_trainblind11 import _rows

# PEFT MetaMathQA: the sum of the 20 'train time' intervals (s) and the slowest / fastest interval's 'tokens / sec'
PEFT = {
    "H871": ("full", None, 1812.971, 2268.7, 2359.2),   # full-finetuning--llama-3.2-3B-lr_0.00001 @ 51c2ff666
    "H872": ("lora", 32, 585.191, 6999.4, 7299.5),      # lora--llama-3.2-3B-rank32 @ 51c2ff666
    "H873": ("lora", 64, 594.485, 6938.2, 7265.7),      # lora--llama-3.2-3B-rank64 @ 51c2ff666
    "H874": ("full", None, 1812.720, 2274.4, 2360.5),   # full-finetuning @ f650b08ab
    "H875": ("lora", 32, 619.342, 6630.7, 6897.2),      # lora rank32 @ f650b08ab
    "H876": ("lora", 64, 630.415, 6556.6, 6753.0),      # lora rank64 @ f650b08ab
}
PEFT_TOKENS = 4_198_051  # the logs' 'train total tokens': 20,000 samples' unpadded lengths plus one EOS each

# fms-acceleration a100_80gb.csv: GPUs, effective batch (sequences a step), train_runtime (s), train_tokens_per_second
FMS = {
    "H877": ("full", 1, 4, 534.9538, 3062.694),    # Mistral-7B-v0.1, framework none
    "H878": ("full", 2, 4, 294.9755, 2777.18),
    "H879": ("full", 1, 8, 1042.5316, 3143.118),
    "H880": ("lora", 1, 4, 492.8771, 3324.155),
    "H881": ("lora", 2, 4, 278.0431, 2946.306),
    "H882": ("lora", 1, 8, 977.0384, 3353.809),
    "H883": ("qlora", 1, 4, 564.2301, 2903.78),    # baseline-peft-bnb
    "H884": ("qlora", 2, 4, 277.7698, 2949.205),
    "H885": ("qlora", 2, 4, 1889.605, 433.53),     # NousResearch/Llama-2-70b-hf, baseline-peft-bnb
    "H886": ("lora", 2, 4, 521.3771, 1571.223),    # Mixtral-8x7B-Instruct-v0.1, framework none
    "H887": ("qlora", 1, 4, 1072.2023, 1528.07),   # Mixtral, baseline-peft-bnb
    "H888": ("qlora", 2, 4, 518.5422, 1579.814),
}


@pytest.mark.parametrize("rid", sorted(PEFT))
def test_peft_metamathqa_by_hand(rid):
    r, c = _rows("training_heldout.csv")[rid], _rows("training_conditions.csv")[rid]
    method, rank, seconds, tps_lo, tps_hi = PEFT[rid]
    assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(PEFT_TOKENS)
    assert float(r["gpu_hours"]) == pytest.approx(seconds / 3600, abs=1e-6) and r["gpus"] == "1"
    # the whole run's tokens over the summed step time lie within the intervals' published rates
    assert tps_lo <= PEFT_TOKENS / seconds <= tps_hi
    # 20,000 samples (5,000 steps x 4): a mean of 209.9 tokens with the EOS, the row's 210; 4 a step
    assert round(PEFT_TOKENS / 20_000) == int(r["seq_len"]) == 210
    assert int(r["global_batch_tokens"]) == 4 * 210 and int(c["micro_batch"]) == 4
    assert (r["gpu"], r["catalog_model"], r["method"]) == ("l40s", "llama-3.2-3b", method)
    assert r["lora_targets"] == ("qv" if rank else "")
    if rank:
        assert f"r {rank}," in r["source"]
    # pure bf16 (use_amp false): no fp32 master for the full fine-tunes; no checkpointing, no compile
    assert (c["checkpointing"], c["torch_compile"], c["hours_basis"]) == ("false", "false", "steady")
    assert c["mixed_precision"] == ("false" if method == "full" else "")
    assert "trainblind37" in r["notes"] and "ae835c35" in r["notes"] and r["use"] == "1"


@pytest.mark.parametrize("rid", sorted(FMS))
def test_fms_acceleration_by_hand(rid):
    r, c = _rows("training_heldout.csv")[rid], _rows("training_conditions.csv")[rid]
    method, gpus, eff, runtime, tps = FMS[rid]
    tokens = 100 * eff * 4096  # 100 steps of the effective batch of packed 4,096-token blocks
    assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(tokens)
    # the published tokens a second a GPU are these tokens over the runtime and the GPUs (to 0.01%)
    assert tokens / runtime / gpus == pytest.approx(tps, rel=1e-4)
    assert float(r["gpu_hours"]) == pytest.approx(runtime * gpus / 3600, abs=1e-6)
    assert int(r["gpus"]) == gpus and int(c["micro_batch"]) * gpus == eff
    assert int(r["global_batch_tokens"]) == int(c["global_batch_tokens"]) == eff * 4096
    assert (r["method"], r["gpu"], r["seq_len"]) == (method, "a100-80gb-sxm", "4096")
    assert r["lora_targets"] == ("" if method == "full" else "attention")
    # FSDP FULL_SHARD over two GPUs (ZeRO-3), nothing offloaded; gradient checkpointing on (defaults.yaml)
    assert c["zero"] == ("3" if gpus == 2 else "") and c["offload"] == "none" and c["checkpointing"] == "true"
    assert c["mixed_precision"] == ("false" if method == "full" else "")
    assert "ASSUMPTION (GPU part)" in r["notes"] and "trainblind37" in r["notes"] and r["use"] == "1"


def test_ids_are_this_rounds_own():
    held, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    ours = set(PEFT) | set(FMS)
    assert ours == {f"H{i}" for i in range(871, 889)} and ours <= set(held) and ours <= set(conds)
