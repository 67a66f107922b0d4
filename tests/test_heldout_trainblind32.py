"""Held-out H788-H813 (branch trainblind32), scored blind on main 44b2dc78, from a source no row had cited: the
summary figure of Hugging Face's nanotron scaling benchmarks (huggingface/nanotron docs/benchmark_summary.svg, added
c2528430 on 2025-03-10, the Ultra-Scale Playbook's runs): the best layout nanotron v0.5 found for four Llama-style
models (1.34B, 3.57B, 8.86B, 80.0B; multi-head attention, vocabulary 131,072) on 1 to 64 nodes of 8 H100, with its
MFU. The model shapes are scripts/scaling_benchmarks.py's (e24d2483). Each row's layout, batch, tokens and hours are
checked here by hand against the figure's cell; no figure of the model was set from them."""

from __future__ import annotations

import json

import pytest

from .test_heldout_trainblind11 import _rows

VOCAB, SEQ, GBS = 131_072, 4096, 256  # the generator's vocabulary and sequence; every cell is 256 sequences a step
PEAK = 989.5e12  # H100 SXM dense BF16, the peak the figure's MFU is read against (the row's ASSUMPTION)

# scripts/scaling_benchmarks.py model_configs: (layers, hidden, heads, intermediate); tied below an intermediate of
# 10,000; the printed size is estimate_num_params(...) with the vocabulary above
SHAPES = {"1.34B": (16, 2048, 32, 8192), "3.57B": (28, 3072, 32, 8192), "8.86B": (32, 4096, 32, 14336),
          "80.0B": (80, 8192, 64, 28672)}

# the figure's cells as printed: id -> (nodes, model, DP, TP, PP, GAS, MBS, ZeRO stage, MFU %)
CELLS = {
    "H788": (64, "1.34B", 128, 2, 2, 1, 2, 1, 5.25), "H789": (64, "3.57B", 128, 4, 1, 1, 2, 1, 10.49),
    "H790": (64, "8.86B", 128, 4, 1, 1, 2, 0, 18.69), "H791": (64, "80.0B", 32, 16, 1, 4, 2, 1, 17.79),
    "H792": (32, "1.34B", 64, 4, 1, 1, 4, 0, 23.20), "H793": (32, "3.57B", 64, 4, 1, 1, 4, 0, 26.77),
    "H794": (32, "8.86B", 32, 8, 1, 1, 8, 0, 32.71), "H795": (32, "80.0B", 4, 4, 16, 64, 1, 1, 30.75),
    "H796": (16, "1.34B", 64, 2, 1, 1, 4, 0, 29.46), "H797": (16, "3.57B", 32, 4, 1, 1, 8, 0, 34.59),
    "H798": (16, "8.86B", 16, 8, 1, 2, 8, 0, 36.33), "H799": (16, "80.0B", 1, 4, 32, 256, 1, 0, 34.29),
    "H800": (8, "1.34B", 32, 1, 2, 8, 1, 1, 32.47), "H801": (8, "3.57B", 32, 1, 2, 8, 1, 1, 35.53),
    "H802": (8, "8.86B", 32, 1, 2, 8, 1, 1, 39.50), "H803": (8, "80.0B", 1, 4, 16, 256, 1, 0, 30.65),
    "H804": (4, "1.34B", 16, 1, 2, 16, 1, 1, 38.38), "H805": (4, "3.57B", 16, 1, 2, 8, 2, 1, 40.39),
    "H806": (4, "8.86B", 16, 1, 2, 16, 1, 1, 43.31), "H807": (4, "80.0B", 1, 8, 4, 256, 1, 0, 14.76),
    "H808": (2, "1.34B", 8, 1, 2, 32, 1, 1, 41.59), "H809": (2, "3.57B", 8, 1, 2, 16, 2, 1, 43.77),
    "H810": (2, "8.86B", 4, 4, 1, 16, 4, 1, 43.94),
    "H811": (1, "1.34B", 4, 1, 2, 16, 4, 1, 44.32), "H812": (1, "3.57B", 4, 1, 2, 32, 2, 1, 46.68),
    "H813": (1, "8.86B", 2, 1, 4, 128, 1, 1, 45.22),
}


def _params(layers: int, h: int, ffn: int) -> int:
    """estimate_num_params with key/value heads = heads: embeddings (once if tied) + layers x (3 h f + 4 h^2)."""
    emb = VOCAB * h if ffn < 10_000 else 2 * VOCAB * h
    return emb + layers * (3 * h * ffn + 4 * h * h)


def _flops_per_token(layers: int, h: int, ffn: int) -> float:
    """nanotron's get_flops (src/nanotron/models/llama.py at c2528430) a token, multi-head: forward q/k/v 6 h^2,
    attention output 2 h^2, MLP 6 h f and both s^2 products 4 s h, a layer; the LM head 2 h V; times 3."""
    return 3 * (layers * (8 * h * h + 6 * h * ffn + 4 * SEQ * h) + 2 * h * VOCAB)


def test_model_sizes_are_the_generators():
    # the figure's x-axis labels are the generator's own counts at three figures
    assert [f"{_params(L, h, f) / 1e9:.3g}" for L, h, _, f in SHAPES.values()] == ["1.34", "3.57", "8.86", "80"]
    assert _params(16, 2048, 8192) == 1_342_177_280
    rows = _rows("training_heldout.csv")
    for rid, (_, model, *_rest) in CELLS.items():
        layers, h, heads, ffn = SHAPES[model]
        arch = json.loads(rows[rid]["architecture_json"])
        assert arch == {"layers": layers, "hidden_size": h, "heads": heads, "kv_heads": heads, "ffn_size": ffn,
                        "vocab_size": VOCAB, "tied_embeddings": ffn < 10_000}, rid
        assert float(rows[rid]["params_b"]) == pytest.approx(_params(layers, h, ffn) / 1e9, abs=1e-4), rid


def test_rows_are_the_figure_by_hand():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (nodes, model, dp, tp, pp, gas, mbs, zero, mfu) in CELLS.items():
        r, c = rows[rid], conds[rid]
        gpus = 8 * nodes
        assert dp * tp * pp == gpus and dp * gas * mbs == GBS, rid  # the cell's layout fills its nodes and batch
        assert "benchmark_summary.svg" in r["source"] and f"MFU {mfu:.2f}%" in r["source"], rid
        assert f"DP: {dp} TP: {tp} PP: {pp} / GAS: {gas} MBS: {mbs} / ZeRO-{zero}" in r["source"], rid
        assert (r["gpu"], int(r["gpus"]), r["precision"], int(r["seq_len"])) == ("h100-80gb-sxm", gpus, "bf16", SEQ)
        assert int(r["global_batch_tokens"]) == GBS * SEQ == int(c["global_batch_tokens"]), rid
        assert float(r["training_tokens_b"]) == pytest.approx(100 * GBS * SEQ / 1e9, rel=1e-9), rid
        # 100 steps: the step's FLOPs over MFU x peak x GPUs is the step time; times GPUs the GPUs cancel
        layers, h, _, ffn = SHAPES[model]
        step = _flops_per_token(layers, h, ffn) * GBS * SEQ / (mfu / 100 * PEAK * gpus)
        assert float(r["gpu_hours"]) == pytest.approx(100 * step * gpus / 3600, rel=1e-6), rid
        assert f"{step:.3f} s" in r["hours_kind"], rid
        # vpp 1: nanotron's pipeline engines are all-forward-all-backward and 1F1B, neither interleaved
        assert (c["stack"], int(c["tp"]), int(c["pp"]), c["vpp"], int(c["micro_batch"]), int(c["zero"])) == (
            "", tp, pp, "1", mbs, zero), rid
        assert (c["checkpointing"], c["grad_reduce_in_fp32"], c["hours_basis"], c["network"]) == (
            "false", "true", "steady", ""), rid
        assert "trainblind32" in r["notes"] and r["use"] == "1", rid


def test_one_cell_by_hand():
    """H813, 8.86B on one node at 45.22%: 3 x (32 x (8 x 4,096^2 + 6 x 4,096 x 14,336 + 4 x 4,096 x 4,096) + 2 x
    4,096 x 131,072) = 5.6371e10 FLOP a token; x 1,048,576 tokens / (0.4522 x 989.5e12 x 8) = 16.513 s a step."""
    per_token = 3 * (32 * (8 * 4096**2 + 6 * 4096 * 14336 + 4 * 4096 * 4096) + 2 * 4096 * 131072)
    assert per_token == pytest.approx(5.6371e10, rel=1e-4)
    assert per_token * 1_048_576 / (0.4522 * 989.5e12 * 8) == pytest.approx(16.513, abs=0.001)
