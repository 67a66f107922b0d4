"""review38: a user's hour with session 33's later merges (SGLang's Triton decode walk, torchtitan's local batch,
xtuner, pinned pipeline splits, SRV-CONTEXT-BEYOND-MODEL, the Workload line). Each test fails on the code before
its fix; the whole round is benchmarks/hostile_round31.py."""

from __future__ import annotations

import pytest

from gpuwise import estimate

# Llama 3.1 8B on one H100 SXM under SGLang, one sequence, 16,384 + 16,384 tokens (the step at the mean context,
# 16,384 + 16,384 / 2 = 24,576 tokens): KV 2 x 32 layers x 8 heads x 128 x 2 B = 131,072 B a token, so
# 131,072 x 24,576 = 3,221,225,472 B read a step.
CHAT = {"task": "inference", "model": "llama-3.1-8b", "framework": "sglang", "context_len": 32768,
        "concurrent_requests": 1}


def _terms(w: dict) -> dict:
    return {t.name: t for t in estimate({"workload": w}, gpu="h100-80gb-sxm", gpus=1).gpu.terms}


def test_the_triton_walk_is_in_the_step_formula_it_prices() -> None:
    # knowledge/serving.yaml sglang triton_decode_walk: 8 programs a KV head at 5.25 GB/s each = 42 GB/s a head;
    # one sequence of 8 KV heads on one GPU: 336 GB/s, below the H100's 3.35 TB/s x 0.8, so the cache takes
    # 3,221,225,472 B / 336e9 B/s = 9.587 ms. The TPOT formula said 'max(KV bytes / (BW x f), ...)' (1.2 ms)
    # beside an attention_s of 9.587 ms: it now names the walkers' rate and carries it.
    t = _terms({**CHAT, "attention_backend": "triton"})
    for name in ("tpot_s", "decode_tokens_per_s"):
        assert "42 GB/s x sequences x KV heads" in t[name].formula and "triton_decode_walk" in t[name].formula
        assert t[name].inputs["kv_walk_bytes_per_s_per_kv_head"] == pytest.approx(42e9)
    assert t["tpot_s"].inputs["attention_s"] == pytest.approx(3_221_225_472 / 336e9, rel=1e-3)
    other = _terms({**CHAT, "attention_backend": "flashinfer"})["tpot_s"]
    assert "triton_decode_walk" not in other.formula and "kv_walk_bytes_per_s_per_kv_head" not in other.inputs
