"""Held-out training rows H941-H960 (branch trainblind44), scored blind on main e9d34e74's code.

- H941-H943: alfredyu24/amd-mi350-benchmarks benchmark_results.md at fde88246, 'Benchmark 5: MAD Framework Training
  (Qwen3-8B)': AMD's MAD harness (pyt_train_qwen3-8b, torchtune) on 8 MI350X, batch 14 x 8,192, compile and activation
  checkpointing on: full fine-tune BF16 14,471 and FP8 20,497 tokens/s a GPU, LoRA BF16 16,312;
- H944: the same repository's DEEPSEEK_REPRODUCTION.md at 2babf614: open-r1's SFT of Qwen2.5-Math-7B on 8 MI350X
  (DeepSpeed ZeRO-2, 4 packed 4,096-token sequences x 4 accumulation, Liger, eager attention): 4,681 tokens/s a GPU,
  ~14 s a step;
- H945-H960: invergent-ai/surogate benchmarks/speed.md at 10977026, the 'Unsloth BF16' column (LoRA r16 on every
  projection, 2 packed 2,048-token sequences x 4 accumulation, one GPU): Qwen3 0.6B-32B on B200, H200, H100 SXM and
  Qwen3-8B on an RTX 5090.

Each row is 100 optimizer steps at the published throughput; tokens, hours and layout are checked here against the
sources' own figures. One mechanism set after the blind round: a training job that states attention eager (H944's
attn_implementation eager, training_conditions.csv's new attention column) runs attention no faster than its score
traffic allows, 60 B a score counted from transformers' eager_attention_forward (compute.EAGER_SCORE_BYTES)."""

from __future__ import annotations

import statistics

import pytest

from benchmarks import accuracy_training as acc
from gpuwise import knowledge
from gpuwise.estimators import compute as C

from .test_heldout_trainblind11 import _rows
from .test_heldout_trainblind42 import rows_now

IDS = {f"H{i}" for i in range(941, 961)}
# blind (e9d34e74's model, unchanged), gpuwise against the published GPU-hours with the row's conditions, in %
BLIND = {"H941": -8.2, "H942": -1.8, "H943": -5.3, "H944": -78.2,
         "H945": -79.7, "H946": -65.7, "H947": -44.7, "H948": -36.1, "H949": -26.9, "H950": -16.2,
         "H951": -61.3, "H952": -35.6, "H953": -15.3, "H954": -10.6,
         "H955": -48.2, "H956": -21.6, "H957": -3.7, "H958": -3.9, "H959": -0.9, "H960": 18.3}
# after the branch's one change (eager attention priced by its score traffic, compute.EAGER_SCORE_BYTES): H944 alone
NOW = {**BLIND, "H944": -60.9}
# unsloth64: a dense layer's host launches on Unsloth's LoRA path (runtime.yaml training.dense_layer_host) set the step
# of the small models, whose layers' GPU work is shorter (tests/test_unsloth_host64.py); 4B and up on Hopper keep theirs
# and the copy back of each recomputed layer's input from host memory (training.checkpoint_offload) the larger ones
NOW.update({"H945": -28.7, "H946": -24.2, "H947": -29.0, "H948": -33.1, "H949": -24.1, "H950": -13.9,
            "H951": -19.0, "H952": -20.1, "H953": -11.7, "H954": -6.4, "H955": -8.5, "H956": -14.1,
            "H957": 0.0, "H958": 0.3, "H959": 2.6, "H960": 19.85})
# and H944's padding-free row under eager attention (training_conditions.csv packing, unsloth64): 4 x the score traffic
NOW["H944"] = -5.3

# (gpu, gpus, sequences a GPU a micro-step, accumulation steps, sequence, published tokens/s a GPU, stack, method)
ROWS = {
    "H941": ("mi350x", 8, 14, 1, 8192, 14471, "torchtitan", "full"),
    "H942": ("mi350x", 8, 14, 1, 8192, 20497, "torchtitan", "full"),
    "H943": ("mi350x", 8, 14, 1, 8192, 16312, "torchtitan", "lora"),
    "H944": ("mi350x", 8, 4, 4, 4096, 4681, "deepspeed", "full"),
}
# speed.md's 'Unsloth BF16' figures as printed ('12,4K' is 12.4 thousand tokens/s)
UNSLOTH = {
    "H945": ("b200", "qwen3-0.6b", "19,1k"), "H946": ("b200", "qwen3-1.7b", "20,3K"),
    "H947": ("b200", "qwen3-4b", "14,8K"), "H948": ("b200", "qwen3-8b", "12,4K"),
    "H949": ("b200", "qwen3-14b", "8,6k"), "H950": ("b200", "qwen3-32b", "4,2k"),
    "H951": ("h200-141gb-sxm", "qwen3-0.6b", "21,7k"), "H952": ("h200-141gb-sxm", "qwen3-1.7b", "21,4k"),
    "H953": ("h200-141gb-sxm", "qwen3-4b", "12,8k"), "H954": ("h200-141gb-sxm", "qwen3-8b", "9,1k"),
    "H955": ("h100-80gb-sxm", "qwen3-0.6b", "24,5k"), "H956": ("h100-80gb-sxm", "qwen3-1.7b", "23k"),
    "H957": ("h100-80gb-sxm", "qwen3-4b", "13,1k"), "H958": ("h100-80gb-sxm", "qwen3-8b", "9,1k"),
    "H959": ("h100-80gb-sxm", "qwen3-14b", "5,6k"), "H960": ("rtx-5090", "qwen3-8b", "3,5k"),
}
for _rid, (_gpu, _model, _shown) in UNSLOTH.items():
    _tps = float(_shown.lower().rstrip("k").replace(",", ".")) * 1000
    ROWS[_rid] = (_gpu, 1, 2, 4, 2048, _tps, "unsloth", "lora")
STEPS = 100


@pytest.mark.parametrize("rid", sorted(ROWS))
def test_rows_by_hand(rid):
    r, c = _rows("training_heldout.csv")[rid], _rows("training_conditions.csv")[rid]
    gpu, gpus, mb, accum, seq, tps, stack, method = ROWS[rid]
    step_tokens = gpus * mb * accum * seq  # packed sequences: every position is a token
    assert int(r["global_batch_tokens"]) == int(c["global_batch_tokens"]) == step_tokens
    assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(STEPS * step_tokens, rel=1e-9)
    # GPU-hours: the tokens over the published tokens/s a GPU (the whole job's rate over its GPUs)
    assert float(r["gpu_hours"]) == pytest.approx(STEPS * step_tokens / tps / 3600, abs=1e-6)
    assert (r["gpu"], int(r["gpus"]), int(r["seq_len"]), r["method"], r["moe"]) == (gpu, gpus, seq, method, "0")
    assert r["lora_targets"] == ("all-linear" if method == "lora" else "")
    assert (c["stack"], c["micro_batch"], c["checkpointing"], c["hours_basis"]) == (stack, str(mb), "true", "steady")


def test_blind_band():
    """Blind: 19.9% median over 20 (signed -18.9%), worst 4.92x (H945: Unsloth's Qwen3-0.6B on B200); beyond 2x
    H944, H945, H946 and H951, all read slower than gpuwise gives them."""
    assert statistics.median(abs(v) for v in BLIND.values()) == pytest.approx(19.9, abs=0.1)
    ratio = {rid: 1 + v / 100 for rid, v in BLIND.items()}
    assert max(max(x, 1 / x) for x in ratio.values()) == pytest.approx(4.93, abs=0.01)
    assert {rid for rid, x in ratio.items() if not 0.5 <= x <= 2} == {"H944", "H945", "H946", "H951"}


def test_rows_read_now(tmp_path):
    rows_now(tmp_path, IDS, NOW)


def test_eager_attention_runs_at_its_score_traffic():
    """H944 (open-r1, attn_implementation eager; Qwen2.5-7B's 28 layers, 28 heads of 128, 4 x 4 packed 4,096-token
    sequences a GPU a step, every layer recomputed) on MI350X: the eager scores' 60 B each at 0.8 of 8,000 GB/s cap
    attention at 6 x 3,584 x 6.4e12 / (28 x 60) = 81.92 TFLOP/s of the causal count, so the step's attention,
    6 x 28 x 4,096 x 3,584 FLOP a token x 65,536 tokens x 4/3 (the recomputed forward) = 215.5 TFLOP, takes 2.63 s;
    the same job without eager keeps its fused kernel, and the eager step is that one less its attention plus 2.63 s."""
    kb = knowledge.load()
    bw = kb.gpus["mi350x"].memory.bandwidth_gb_s * 1e9 * kb.runtime.decode_bandwidth_efficiency.value
    shape_rate = 6 * 3584 * bw / (28 * 60)
    assert shape_rate == pytest.approx(81.92e12, rel=1e-9)
    row, cond = _rows("training_heldout.csv")["H944"], _rows("training_conditions.csv")["H944"]
    assert cond["attention"] == "eager"
    # one row a sequence (the row's padding-free packing, unsloth64, is tests/test_unsloth_host64.py's)
    eager = {k: v for k, v in acc.with_conditions(acc.run_workload(row), cond).items() if k != "packing"}
    fused = {k: v for k, v in eager.items() if k != "attention"}
    s_eager = acc.run_estimate(eager, "mi350x", 8).gpu.training.step_terms.compute_s
    s_fused = acc.run_estimate(fused, "mi350x", 8).gpu.training.step_terms.compute_s
    attention = 6 * 28 * 4096 * 3584 * 65536 * 4 / 3 / shape_rate
    assert attention == pytest.approx(2.6307, abs=1e-4)
    assert attention < s_eager < s_fused + attention  # the fused attention's own time comes out
    assert s_eager - s_fused > 0.85 * attention  # the fused kernel took under 15% of what eager takes
    assert C.EAGER_SCORE_BYTES == 24 + 36  # forward 24 B a score, backward 36 B (compute.py's count)
