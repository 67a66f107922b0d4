"""Held-out H390-H402 (branch trainblind12), scored blind on main 36cc00a5: more of NVIDIA's DGX Cloud Benchmarking
recipes (NVIDIA/dgxc-benchmarking): Nemotron-H 56B FP8 pretraining on H100 (nemotronh/README.md at 1f6d9f4, v25.05.04),
Nemotron-4 15B / 340B on H100 (nemotron/README_15b.md and README_340b.md at 8f5cbb3, v25.02) and 340B on GB200
(nemotron/README.md at 1f6d9f4), and the Llama 3 70B fine-tuning table's SFT FP8 and LoRA columns
(llama3/finetuning/README_70b.md at 8f5cbb3), each as 100 steps at the published time a step. The rows' figures and
the catalog shapes they use are checked here by hand against the published tables; no figure of the model was set
from them."""

from __future__ import annotations

import pytest

from gpuwise import knowledge

from .test_heldout_trainblind11 import _rows, published_mfu

# the tables: GPUs, GBS (sequences), sequence, seconds a step, tokens/s as printed, layout TP, PP, CP, VP (None: not
# stated or 1), micro-batch
TABLES = {
    "H390": (32, 96, 8192, 15.119, 52016, (8, 1, 1, None), 1),        # nemotronh/README.md, FP8
    "H391": (128, 384, 8192, 15.496, 203003, (8, 1, 1, None), 1),
    "H392": (512, 1536, 8192, 15.586, 807321, (8, 1, 1, None), 1),
    "H393": (2048, 6144, 8192, 15.723, 3201148, (8, 1, 1, None), 1),
    "H394": (64, 256, 4096, 2.845, 368568, (4, 1, None, None), 4),     # nemotron/README_15b.md, BF16
    "H395": (1024, 4096, 4096, 2.094, 8012042, (4, 1, None, None), 4),  # the same, FP8
    "H396": (128, 32, 4096, 4.61, 28432, (8, 8, None, 12), 1),         # nemotron/README_340b.md, BF16
    "H397": (2048, 512, 4096, 3.49, 600903, (8, 8, None, 12), 1),      # the same, FP8
    "H398": (128, 32, 4096, 2.189, 59877, (8, 4, None, 12), 1),        # nemotron/README.md, GB200 BF16
    "H399": (512, 512, 4096, 5.668, 369998, (8, 4, None, 12), 1),      # the same, GB200 FP8 strong scaling
    "H400": (32, 32, 4096, 2.26, 57996, (4, 4, 1, 5), 1),              # llama3/finetuning/README_70b.md, SFT FP8
    "H401": (8, 32, 4096, 9.118, 14375, (2, 4, 1, 20), 1),             # the same, LoRA BF16
    "H402": (32, 128, 4096, 7.6, 68985, (2, 4, 1, 20), 1),             # the same, LoRA FP8
}


def test_rows_match_the_published_tables_by_hand():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (n, gbs, seq, step, tps, layout, mbs) in TABLES.items():
        r, c = rows[rid], conds[rid]
        assert int(r["gpus"]) == n and int(r["seq_len"]) == seq, rid
        assert int(r["global_batch_tokens"]) == gbs * seq == int(c["global_batch_tokens"]), rid
        assert float(r["training_tokens_b"]) == pytest.approx(100 * gbs * seq / 1e9, rel=1e-9), rid
        assert float(r["gpu_hours"]) == pytest.approx(100 * step * n / 3600, rel=1e-6), rid
        assert seq * gbs / step == pytest.approx(tps, abs=1.0), rid  # the printed tokens/s: sequence x GBS / step
        stated = tuple(int(c[k]) if c[k] else None for k in ("tp", "pp", "cp", "vpp"))
        assert stated == layout and int(c["micro_batch"]) == mbs, rid
        assert c["stack"] == "nemo" and c["hours_basis"] == "steady" and not c["ep"], rid
    # the Nemotron-H tables weak-scale at three sequences a GPU (launch.sh: GBS = 3 x GPUs)
    assert all(TABLES[f"H{i}"][1] == 3 * TABLES[f"H{i}"][0] for i in range(390, 394))
    # the LoRA rows train adapters; the SFT row every weight
    assert [rows[f"H{i}"]["method"] for i in (400, 401, 402)] == ["full", "lora", "lora"]


def test_published_mfu_is_the_tables_own_arithmetic():
    """The READMEs print MFU = GBS x model FLOPs a sequence / step / GPUs / peak: 2.816e15 for Nemotron-H 56B,
    434.5e12 and 1.01e16 for Nemotron-4 15B / 340B (v25.02), 8.62124e15 for 340B (v25.05.04), 1.70e15 for the 70B
    SFT at 4,096 and two thirds of it for LoRA; peaks 989 / 1,979 TFLOPS (H100 BF16 / FP8), 2,450 / 4,900 (GB200)."""
    mfu = published_mfu
    assert mfu(96, 2.816e15, 15.119, 32, 1979) == pytest.approx(0.2823, abs=0.0005)        # H390: 28.23%
    assert mfu(6144, 2.816e15, 15.723, 2048, 1979) == pytest.approx(0.2715, abs=0.0005)    # H393: 27.15%
    assert mfu(256, 434.5e12, 2.845, 64, 989) == pytest.approx(0.6177, abs=0.0005)         # H394: 61.77%
    assert mfu(4096, 434.5e12, 2.094, 1024, 1979) == pytest.approx(0.4194, abs=0.0005)     # H395: 41.94%
    assert mfu(32, 1.01e16, 4.61, 128, 989) == pytest.approx(0.5538, abs=0.0005)           # H396: 55.38%
    assert mfu(512, 1.01e16, 3.49, 2048, 1979) == pytest.approx(0.3656, abs=0.0005)        # H397: 36.56%
    assert mfu(32, 8.62124e15, 2.189, 128, 2450) == pytest.approx(0.402, abs=0.0005)       # H398: 40.2%
    assert mfu(512, 8.62124e15, 5.668, 512, 4900) == pytest.approx(0.310, abs=0.0005)      # H399: 31%
    assert mfu(32, 1.70e15, 2.26, 32, 1979) == pytest.approx(0.380, abs=0.001)             # H400: 38%
    assert mfu(32, 1.70e15, 9.118, 8, 989) * 2 / 3 == pytest.approx(0.503, abs=0.0005)     # H401: 50.3%
    assert mfu(128, 1.70e15, 7.6, 32, 1979) * 2 / 3 == pytest.approx(0.301, abs=0.0005)    # H402: 30.1%


def test_nemotron4_catalog_shapes_by_hand():
    """Nemotron-4 15B / 340B as NeMo's nemotron.py builds them (squared-ReLU MLP of two matrices, LayerNorm with
    bias, no linear bias, untied 256,000-entry embeddings): the catalog's totals, the reports' embedding and
    non-embedding split (arXiv:2402.16819: 3.2B + 12.5B; arXiv:2406.11704: 9.4B + 331.6B), and the v25.05.04
    README's own FLOP count of a sequence of 4,096 (3.85e14 and 8.62124e15) from the same shapes."""
    kb = knowledge.load()
    for mid, emb_b, other_b, flops in (("nemotron-4-15b", 3.2, 12.5, 3.85e14),
                                       ("nemotron-4-340b", 9.4, 331.6, 8.62124e15)):
        m = kb.models[mid]
        h, f, n_layers, v = m.hidden_size, m.ffn_size, m.layers, m.vocab_size
        kv = m.kv_heads * (h // m.heads)
        layer = 2 * h * h + 2 * h * kv + 2 * h * f + 4 * h  # q and o, k and v, up and down, two LayerNorms
        emb = 2 * v * h
        assert m.mlp_matrices == 2 and not m.tied_embeddings
        assert n_layers * layer + emb + 2 * h == pytest.approx(m.params_b * 1e9, abs=1)
        # within the reports' one decimal (the 15B report prints 3.2 for 3,145,728,000)
        assert emb / 1e9 == pytest.approx(emb_b, abs=0.06)
        assert n_layers * layer / 1e9 == pytest.approx(other_b, abs=0.05)
        s = 4096
        attn = 12 * n_layers * h * h * (1 + m.kv_heads / m.heads + s / h)
        assert s * (attn + 12 * n_layers * h * f + 6 * v * h) == pytest.approx(flops, rel=0.002)


def test_nemotron_h_flops_and_the_ssd_share_by_hand():
    """The nemotronh README's FLOP count of one 8,192-token sequence of Nemotron-H 56B (2.816e15) from the catalog's
    shape (54 Mamba-2 blocks of 256 heads x 64, state 256, 8 groups, expand 2; 10 attention and 54 MLP blocks) with the
    README's chunk 256: the SSD terms beyond the projections (intra-chunk, state and inter-chunk) are 1.24% of it."""
    m = knowledge.load().models["nemotron-h-56b"]
    s, h, f, v = 8192, m.hidden_size, m.ffn_size, m.vocab_size
    heads, hdim, state, groups, chunk, expand = 256, 64, 256, 8, 256, 2
    mamba_layers, attn_layers = m.recurrent.layers, m.attention_layers
    mlp_layers = m.layers - mamba_layers - attn_layers
    mlp = 2 * s * h * f * mlp_layers
    attn = (2 * s * h * m.heads * m.head_dim + 2 * s * h * m.kv_heads * m.head_dim + 2 * s * s * h) * attn_layers
    proj = s * h * (heads * hdim * 3 + groups * state * 2 + heads)
    ssd = s * h * expand * chunk + 2 * s * h * expand * state + s * chunk * state * groups
    total = 6 * (mlp + attn + (proj + ssd) * mamba_layers + s * h * v)
    assert (mamba_layers, attn_layers, mlp_layers) == (54, 10, 54)
    assert total == pytest.approx(2.816e15, rel=0.001)
    assert 6 * ssd * mamba_layers / total == pytest.approx(0.0124, abs=0.0002)
