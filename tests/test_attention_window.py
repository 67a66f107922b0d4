"""Local (sliding-window) attention layers in the training FLOPs: a query attends at most the window's keys, so a
windowed layer's causal attention costs 2W - W^2/s of the sequence s where the global layers cost s (the 6 L s h of
6ND plus attention, half of a full mask's 12). FlashAttention-2 computes only the key blocks inside the window
(Dao-AILab/flash-attention csrc/flash_attn/src/flash_fwd_kernel.h: n_block_min from window_size_left; README 2.3,
'Local (i.e., sliding window) attention')."""

from __future__ import annotations

import pytest

from gpuwise.errors import UserError
from gpuwise.estimators.compute import attended_span, training_flops
from gpuwise.inputs.schema import Workload
from gpuwise.inputs.shape import from_catalog, from_workload

# Olmo 3 7B: OLMo 2 7B's layout (32 layers, 4,096 wide, 32 heads, SwiGLU 11,008) with sliding-window attention in
# three layers of four, pattern [4096, 4096, 4096, -1] (allenai/OLMo-core src/olmo_core/nn/transformer/config.py,
# olmo3_7B); the held-out SFT rows H236, H239 and H240 train it at 32,768 tokens
OLMO3 = {"layers": 32, "hidden_size": 4096, "heads": 32, "kv_heads": 32, "ffn_size": 11008, "vocab_size": 100352,
         "tied_embeddings": False, "attention_window": 4096, "window_layers_fraction": 0.75}


def _olmo3(**extra):
    return from_workload(Workload(task="finetune", method="full", params_b=7.30, architecture={**OLMO3, **extra}),
                         None)


def test_the_span_of_olmo3_at_32k_by_hand():
    """Over s = 32,768 positions a window of 4,096 attends sum(min(p, W)) = W s - W (W - 1) / 2 keys against the
    global layer's s (s + 1) / 2: twice the mean is 2 x 4,096 - 4,096^2 / 32,768 = 7,680 (to W/s), and a quarter of
    the layers attend the whole 32,768: 0.25 x 32,768 + 0.75 x 7,680 = 13,952, 42.6% of the global count."""
    shape = _olmo3()
    assert attended_span(shape, 32768) == pytest.approx(0.25 * 32768 + 0.75 * (2 * 4096 - 4096**2 / 32768))
    assert attended_span(shape, 32768) == pytest.approx(13952)
    # the exact count of keys, summed over positions, differs from 2W - W^2/s by W/s of a token a position
    s, w = 32768, 4096
    exact = 2 * (w * s - w * (w - 1) / 2) / s
    assert exact == pytest.approx(2 * w - w * w / s, abs=1.0)


def test_attention_flops_follow_the_span_and_the_linear_layers_do_not():
    """The training FLOPs of Olmo 3 at 32,768 tokens: 6 x matmul parameters plus 6 x 32 layers x 13,952 x 4,096
    a token, where the same shape without the window pays 6 x 32 x 32,768 x 4,096."""
    windowed = training_flops(_olmo3(), 1.0, 32768, "full", False)
    plain = from_workload(Workload(task="finetune", method="full", params_b=7.30,
                                   architecture={k: v for k, v in OLMO3.items() if "window" not in k}), None)
    full = training_flops(plain, 1.0, 32768, "full", False)
    assert full.inputs["attention_flops_per_token"] == pytest.approx(6 * 32 * 32768 * 4096)
    assert windowed.inputs["attention_flops_per_token"] == pytest.approx(6 * 32 * 13952 * 4096)
    assert windowed.inputs["matmul_params"] == full.inputs["matmul_params"]
    assert full.value - windowed.value == pytest.approx(6 * 32 * (32768 - 13952) * 4096)
    # the printed inputs let a reader redo it: the span, and the window and share it comes from
    assert windowed.inputs["attended_span"] == pytest.approx(13952)
    assert (windowed.inputs["attention_window"], windowed.inputs["window_layers_fraction"]) == (4096, 0.75)
    assert "attended_span" not in full.inputs  # a global model's formula names seq itself


def test_a_sequence_inside_the_window_and_a_global_model_pay_the_whole_sequence(kb):
    """A sequence no longer than the window attends causally as a global layer does; Llama 2 7B names no window."""
    assert attended_span(_olmo3(), 4096) == 4096
    assert attended_span(_olmo3(), 2048) == 2048
    assert attended_span(from_catalog(kb.models["llama-2-7b"]), 32768) == 32768


def test_gpt_oss_in_the_catalog_by_hand(kb):
    """gpt-oss-20b alternates 128-token sliding windows with global layers (knowledge/models.yaml: window 128 on
    half the layers): at 8,192 tokens 0.5 x 8,192 + 0.5 x (256 - 128^2 / 8,192) = 4,223."""
    shape = from_catalog(kb.models["gpt-oss-20b"])
    assert attended_span(shape, 8192) == pytest.approx(0.5 * 8192 + 0.5 * (256 - 128**2 / 8192))
    assert attended_span(shape, 8192) == pytest.approx(4223)


def test_a_workload_states_the_window_with_its_share_or_not_at_all():
    """The window and the share of layers that use it go together, as in the catalog."""
    assert _olmo3().attention_window == 4096
    assert _olmo3().window_layers_fraction == 0.75
    with pytest.raises((UserError, ValueError)):
        Workload(task="pretrain", params_b=7.3,
                 architecture={k: v for k, v in OLMO3.items() if k != "window_layers_fraction"})
