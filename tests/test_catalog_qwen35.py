"""Qwen3.5-397B-A17B, the Qwen3-Next design at a larger size (knowledge/models.yaml cites the shapes:
NVIDIA/Megatron-LM examples/mimo/configs/qwen35_vlm.py @ 1e38b879, stated there to match the Hugging Face
text_config, and THUDM/slime scripts/models/qwen3.5-397B-A17B.sh @ aa84536b for the vocabulary): 60 layers of 4,096,
every 4th gated attention (32 heads of 256 over 2 KV heads), the other 45 gated DeltaNet (16 key heads and 64 value
heads of 128, conv kernel 4); 512 experts of 1,024, top-10, one gated shared expert of 1,024; vocabulary 248,320,
untied. The DeltaNet state is sized as vLLM sizes Qwen3-Next's (tests/test_hybrid_models.py)."""

from __future__ import annotations

import pytest

from gpuwise.inputs.shape import from_catalog


def _params() -> tuple[int, int]:
    h, vocab, expert = 4096, 248320, 3 * 4096 * 1024
    attn = h * 32 * 256 * 2 + 2 * h * 2 * 256 + 32 * 256 * h + 2 * 256  # gated q, k, v, o, q/k RMSNorm
    key, value = 16 * 128, 64 * 128
    # in_proj_qkvz, in_proj_ba, depthwise conv (no bias), dt_bias and A_log, gated norm, out_proj
    deltanet = h * (2 * key + 2 * value) + h * 2 * 64 + (2 * key + value) * 4 + 2 * 64 + 128 + value * h
    moe = 512 * expert + h * 512 + expert + h  # routed experts, router, shared expert and its gate
    total = 2 * vocab * h + 15 * attn + 45 * deltanet + 60 * (moe + 2 * h) + h
    return total, total - 60 * (512 - 10) * expert


def test_params_follow_from_the_shapes(kb):
    """396,346,350,336 total (the '397B' of the name also holds the vision tower and the MTP layer, not counted
    here) and 17,349,040,896 active (the 'A17B')."""
    total, active = _params()
    assert (total, active) == (396_346_350_336, 17_349_040_896)
    m = kb.models["qwen3.5-397b-a17b"]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert m.active_params_b * 1e9 == pytest.approx(active, abs=0.5)


def test_the_state_and_the_kv_cache_by_hand(kb):
    """45 x (64 x 128 x 128 x 4 B + 3 x (2 x 16 x 128 + 64 x 128) x 2 B) = 192,061,440 B a sequence (the recurrent
    state in float32 as Qwen3.5's mamba_ssm_dtype asks: tests/test_qwen35_state.py); the 15 attention layers keep
    15 x 2 x 2 x 256 x 2 B = 30,720 B of KV cache a token."""
    shape = from_catalog(kb.models["qwen3.5-397b-a17b"])
    state = 45 * (64 * 128 * 128 * 4 + 3 * (2 * 16 * 128 + 64 * 128) * 2)
    assert shape.state_bytes_per_sequence == state == 192_061_440
    assert shape.attn_layers == 15
    assert shape.kv_heads * shape.head_dim * 2 * 2 * shape.attn_layers == 30_720


def test_the_names_resolve(kb):
    for name in ("Qwen/Qwen3.5-397B-A17B", "Qwen/Qwen3.5-397B-A17B-FP8", "amd/Qwen3.5-397B-A17B-MXFP4"):
        assert kb.model(name).id == "qwen3.5-397b-a17b"
