"""Held-out fine-tunes H871-H899 (branch trainblind37), scored blind on main ae835c35, from two benchmark sources no
row had cited:

- Hugging Face PEFT's MetaMathQA method comparison (huggingface/peft method_comparison/MetaMathQA/results/*.json):
  Llama-3.2-3B on one NVIDIA L40S, 5,000 steps of 4 length-bucketed samples, 4,198,051 tokens ('train total
  tokens'), 20 logged intervals of 250 steps with their 'train time' (the summed step durations) and 'tokens / sec';
  full fine-tune and LoRA r32 / r64 on q_proj and v_proj, at commit 51c2ff666 (runs of July 2026) and f650b08ab
  (runs of June 2025).
- IBM's fms-acceleration reference benchmark (foundation-model-stack/fms-acceleration
  scripts/benchmarks/refs/a100_80gb.csv at 24bdadb, 2025-02-07): fms-hf-tuning's Trainer, 100 steps of packed
  4,096-token blocks (benchmark.py defaults: packing True, max_seq_len 4,096; defaults.yaml max_steps 100), effective
  batch 4 or 8 split over 1 or 2 A100 80GB, train_runtime and train_tokens_per_second as published; the second batch
  (H889-H895) is the same benchmark's PowerLM-3b file (refs/a100_80gb_granite.csv at fc78b55, 2024-10-18), the third
  (H896-H899) the first file's QLoRA rows through fms' own bitsandbytes loading plugin (accelerated-peft-bnb).

Each row's tokens, hours and batch are checked here by hand against those figures; no figure of the model was set
from them."""

from __future__ import annotations

import json

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
    # second batch: refs/a100_80gb_granite.csv at fc78b55, ibm/PowerLM-3b (framework none, then baseline-peft-bnb)
    "H889": ("full", 1, 4, 321.2872, 5099.488),
    "H890": ("full", 2, 4, 178.9566, 4577.647),
    "H891": ("full", 1, 8, 627.2531, 5224.047),
    "H892": ("lora", 1, 4, 325.5188, 5033.196),
    "H893": ("lora", 2, 4, 205.3199, 3989.872),
    "H894": ("qlora", 1, 4, 390.2779, 4198.034),
    "H895": ("qlora", 2, 4, 217.3217, 3769.527),
    # third batch: a100_80gb.csv at 24bdadb, framework accelerated-peft-bnb (fms' own bnb loading plugin)
    "H896": ("qlora", 1, 4, 455.6536, 3595.714),   # Mistral-7B-v0.1
    "H897": ("qlora", 2, 4, 277.8786, 2948.05),
    "H898": ("qlora", 1, 4, 833.7459, 1965.107),   # Mixtral-8x7B-Instruct-v0.1
    "H899": ("qlora", 1, 4, 3528.2836, 464.362),   # NousResearch/Llama-2-70b-hf on one GPU
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


def test_powerlm_3b_shape_by_hand():
    """PowerLM-3B's shape as the Power Scheduler paper's Table 4 gives it (arXiv:2408.13359): embedding 2,304,
    40 layers, 36 heads of 64 (and 36 KV heads), SwiGLU 9,216; the vocabulary (49,152, tied) is the rows'
    stated assumption."""
    held = _rows("training_heldout.csv")
    for rid in ("H889", "H890", "H891", "H892", "H893", "H894", "H895"):
        r = held[rid]
        arch = json.loads(r["architecture_json"])
        assert arch["heads"] * 64 == arch["hidden_size"] == 2304 and arch["kv_heads"] == 36
        shape = (arch["layers"], arch["ffn_size"], arch["vocab_size"], arch["tied_embeddings"])
        assert shape == (40, 9216, 49152, True)
        weights = 49152 * 2304 + 40 * (4 * 2304 ** 2 + 3 * 2304 * 9216)
        assert weights == 3_510_632_448 and float(r["params_b"]) == pytest.approx(weights / 1e9, abs=1e-3)
        assert "ASSUMPTION (vocabulary)" in r["notes"] and r["catalog_model"] == ""


def test_ids_are_this_rounds_own():
    held, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    ours = set(PEFT) | set(FMS)
    assert ours == {f"H{i}" for i in range(871, 900)} and ours <= set(held) and ours <= set(conds)
