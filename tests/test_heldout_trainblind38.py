"""Held-out pretraining throughput H850-H855 (branch trainblind38), scored blind on main 07d2dbb5, from two personal
write-ups no row had cited:

- Sebastian Raschka's 'PyTorch Performance Tips for Faster LLM Training' (rasbt/LLMs-from-scratch
  ch05/10_llm-training-speed/README.md, 2025-02, read at 28c65cdf): the book's GPT-2 124M (untied head) on A100, one
  modification at a time, each step's printed tokens a second; each row is the hours of 1B tokens at that rate.
- Debtirtha Saha's 'Eight A100s, $61, and 124M parameters' (debtirthasaha.github.io/blog/2026/gpt2-124m/):
  build-nanogpt's GPT-2 124M, 19,073 steps of 524,288 tokens on 8 x A100 SXM4 at the sustained 1.1M tokens/s.

Each row's tokens, hours, batch and shape are checked here by hand against those figures; no figure of the model was
set from them."""

from __future__ import annotations

import json

import pytest

from .test_heldout_trainblind11 import _rows

# Raschka's README: GPUs, sequences a GPU, vocabulary, tokens/s as printed (all GPUs), torch.compile
RASCHKA = {
    "H850": (1, 8, 50257, 91901, "false"),    # '7. Using FlashAttention': Avg tok/sec 91901
    "H851": (1, 8, 50257, 112046, "true"),    # '8. Using pytorch.compile': Step tok/sec 112046
    "H852": (1, 8, 50304, 127345, "true"),    # '9. Using a nicer vocab size value': 127345
    "H853": (1, 32, 50304, 142156, "true"),   # '10. Increasing the batch size': 142156
    "H854": (4, 32, 50304, 419259, "true"),   # 'After (4 GPUs)': Step tok/sec 419259
}


def _gpt2_params(vocab: int, tied: bool) -> int:
    """GPT-2 124M's weights: token embedding (and an untied head), 1,024 learned positions, 12 blocks of attention
    (4 x 768^2) and the GELU MLP (2 x 768 x 3,072); norms and biases left out."""
    return (1 if tied else 2) * vocab * 768 + 1024 * 768 + 12 * (4 * 768 ** 2 + 2 * 768 * 3072)


def _shape(row: dict) -> tuple:
    arch = json.loads(row["architecture_json"])
    return (arch["layers"], arch["hidden_size"], arch["heads"], arch["kv_heads"], arch["ffn_size"])


@pytest.mark.parametrize("rid", sorted(RASCHKA))
def test_raschka_speed_tips_by_hand(rid):
    r, c = _rows("training_heldout.csv")[rid], _rows("training_conditions.csv")[rid]
    gpus, batch, vocab, tps, compiled = RASCHKA[rid]
    # the hours of 1B tokens at the printed rate, every GPU counted
    assert float(r["training_tokens_b"]) == 1.0 and int(r["gpus"]) == gpus
    assert float(r["gpu_hours"]) == pytest.approx(gpus * 1e9 / tps / 3600, abs=1e-6)
    # the GELU MLP of 3,072 as the three-matrix width 2,048: the same weights (2 x 3,072 = 3 x 2,048)
    assert _shape(r) == (12, 768, 12, 12, 2048) and 2 * 3072 == 3 * 2048
    arch = json.loads(r["architecture_json"])
    assert arch["vocab_size"] == vocab and arch["tied_embeddings"] is False
    assert float(r["params_b"]) == pytest.approx(_gpt2_params(vocab, False) / 1e9, abs=1e-6)
    assert int(r["global_batch_tokens"]) == int(c["global_batch_tokens"]) == gpus * batch * 1024
    assert int(c["micro_batch"]) == batch and c["torch_compile"] == compiled
    # the model cast to bfloat16 with AdamW on it: no fp32 master; DDP without sharding on 4
    assert c["mixed_precision"] == "false" and c["zero"] == ("0" if gpus > 1 else "")
    assert (c["hours_basis"], c["checkpointing"], r["gpu"]) == ("steady", "false", "a100-40gb-sxm")
    assert "ASSUMPTION (GPU part)" in r["notes"] and "trainblind38" in r["notes"] and "07d2dbb5" in r["notes"]


def test_build_nanogpt_blog_by_hand():
    r, c = _rows("training_heldout.csv")["H855"], _rows("training_conditions.csv")["H855"]
    tokens = 19073 * 524288  # max_steps x total_batch_size (2^19)
    assert tokens == 9_999_745_024 and float(r["training_tokens_b"]) * 1e9 == pytest.approx(tokens)
    # 8 GPUs at the sustained 1.1M tokens/s; ~127 steps a minute gives the same rate within 2%
    assert float(r["gpu_hours"]) == pytest.approx(8 * tokens / 1.1e6 / 3600, abs=1e-4)
    per_minute = 127 * 524288 / 60
    assert per_minute == pytest.approx(1.1e6, rel=0.02)
    # B 64 x T 1,024 on each of 8 GPUs is the whole 524,288-token step: no accumulation
    assert 64 * 1024 * 8 == 524288 == int(r["global_batch_tokens"]) and int(c["micro_batch"]) == 64
    assert _shape(r) == (12, 768, 12, 12, 2048) and json.loads(r["architecture_json"])["tied_embeddings"] is True
    assert float(r["params_b"]) == pytest.approx(_gpt2_params(50304, True) / 1e9, abs=1e-6)
    assert (c["torch_compile"], c["hours_basis"], r["gpu"], r["gpus"]) == ("false", "steady", "a100-80gb-sxm", "8")
    assert "ASSUMPTION (GPU part)" in r["notes"] and "trainblind38" in r["notes"]


def test_ids_are_this_rounds_own():
    held, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    ours = set(RASCHKA) | {"H855"}
    assert ours == {f"H{i}" for i in range(850, 856)} and ours <= set(held) and ours <= set(conds)
