"""Held-out H374-H389 (branch trainblind11), scored blind on main d7239247: NVIDIA's DGX Cloud Benchmarking recipes
(NVIDIA/dgxc-benchmarking; v25.02 at commit 8f5cbb3 with NeMo 24.12, v25.05.04 at commit 1f6d9f4 with NeMo
25.04.01): Llama 3.1 8B / 70B / 405B, Grok-1 314B, DeepSeek-V3 and Llama 4 Maverick pretraining on H100 and GB200,
and (H389) the recipes' Llama 3 70B full SFT on 32 H100, each as 100 steps at the published time a step. The rows'
own figures are checked here by hand against the published tables; no figure of the model was set from them."""

from __future__ import annotations

import csv

import pytest

from .conftest import DATA


def _rows(name: str) -> dict[str, dict[str, str]]:
    with open(DATA / name, newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh)}


# the recipe tables: GPUs, GBS (sequences), sequence, seconds a step, tokens/s as printed (None: not printed),
# and the layout columns TP, PP, EP, CP, VP (None: 1 or not stated)
TABLES = {
    "H374": (576, 252, 8192, 17.50, 117964, (8, 9, None, 2, 7)),      # llama3.1/README_405b.md, BF16
    "H375": (2304, 1008, 8192, 11.20, 737280, (8, 9, None, 2, 7)),    # the same, FP8
    "H376": (2048, 4096, 8192, 14.84, 2260623, (4, 4, None, 2, 5)),   # llama3.1/README_70b.md, BF16
    "H377": (64, 128, 8192, 10.46, 100275, (4, 4, None, 2, 5)),       # the same, FP8
    "H378": (128, 2048, 8192, 13.16, 1275155, (1, 1, None, 2, None)),  # llama3.1/README_8b.md, BF16
    "H379": (128, 64, 8192, 9.347, 56092, (4, 8, None, 2, 8)),        # llama3.1/README.md, GB200 BF16
    "H380": (512, 256, 8192, 6.244, 335867, (4, 8, None, 2, 8)),      # the same, GB200 FP8
    "H381": (512, 256, 8192, 13.020, None, (8, 8, None, 2, 8)),       # the same, H100 FP8
    "H382": (2048, 4096, 8192, 21.29, 1576065, (4, 8, 8, 2, 8)),      # grok1/README_314b.md, BF16
    "H383": (512, 1024, 8192, 15.933, 526493, (4, 8, 8, 2, 8)),       # grok1/README.md, H100 BF16
    "H384": (256, 512, 8192, 5.224, 802891.27, (4, 1, 8, 1, None)),   # the same, GB200 FP8
    "H385": (1024, 8192, 4096, 52.04, None, (2, 16, 64, 1, 1)),       # deepseek_v3/pretraining/README.md, H100
    "H386": (128, 1024, 4096, 34.168, None, (2, 4, 32, 1, 1)),        # the same, GB200
    "H387": (128, 1024, 8192, 7.781, None, (1, 2, 64, 1, 12)),        # llama4/README.md, GB200 BF16
    "H388": (512, 1024, 8192, 3.855, None, (4, 1, 128, 1, None)),     # the same, H100 FP8
    "H389": (32, 32, 4096, 3.36, 39009, (4, 4, None, 1, 5)),          # ft_llama3/README_70b.md, SFT BF16
}


def test_rows_match_the_published_tables_by_hand():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (n, gbs, seq, step, tps, layout) in TABLES.items():
        r, c = rows[rid], conds[rid]
        assert int(r["gpus"]) == n and int(r["seq_len"]) == seq, rid
        assert int(r["global_batch_tokens"]) == gbs * seq, rid
        assert float(r["training_tokens_b"]) == pytest.approx(100 * gbs * seq / 1e9, rel=1e-6), rid
        assert float(r["gpu_hours"]) == pytest.approx(100 * step * n / 3600, rel=1e-6), rid
        if tps is not None:  # the printed tokens/s is the same figure: sequence x GBS / step
            assert seq * gbs / step == pytest.approx(tps, rel=0.0005), rid
        stated = tuple(int(c[k]) if c[k] else None for k in ("tp", "pp", "ep", "cp", "vpp"))
        assert stated == layout, rid
        assert c["stack"] == "nemo" and c["hours_basis"] == "steady" and c["micro_batch"] == "1", rid


def published_mfu(gbs: float, flops: float, step: float, n: int, peak_tflops: float) -> float:
    """MFU as NVIDIA's benchmark READMEs print it: GBS x model FLOPs a sequence / step / GPUs / peak."""
    return gbs * flops / step / n / (peak_tflops * 1e12)


def test_published_mfu_is_the_tables_own_arithmetic():
    """The recipes print MFU = GBS x model FLOPs a sequence / step / GPUs / peak, with 2.17e16 FLOPs a sequence for
    Llama 3.1 405B and 4.27e15 for Grok-1 (their notes), peaks 989 / 1,979 TFLOPS (H100 BF16 / FP8) and 2,450 / 4,900
    (GB200): the rows' GBS and step times give back the printed figures."""
    mfu = published_mfu
    assert mfu(252, 2.17e16, 17.50, 576, 989) == pytest.approx(0.5485, abs=0.001)     # H374: 54.85%
    assert mfu(1008, 2.17e16, 11.20, 2304, 1979) == pytest.approx(0.4283, abs=0.001)   # H375: 42.83%
    assert mfu(64, 2.17e16, 9.347, 128, 2450) == pytest.approx(0.474, abs=0.001)       # H379: 47.4%
    assert mfu(256, 2.17e16, 6.244, 512, 4900) == pytest.approx(0.355, abs=0.001)      # H380: 35.5%
    assert mfu(4096, 4.27e15, 21.29, 2048, 989) == pytest.approx(0.4056, abs=0.001)    # H382: 40.56%
    assert mfu(1024, 4.27e15, 15.933, 512, 989) == pytest.approx(0.542, abs=0.001)     # H383: 54.2%
    assert mfu(32, 1.70e15, 3.36, 32, 989) == pytest.approx(0.511, abs=0.001)         # H389: 51.1% (SFT)


def test_grok1_shape_counts_by_hand():
    """Grok-1 as the recipe's grok1_314b.yaml builds it (64 layers, hidden 6,144, 48 heads of 128, 8 query groups,
    8 experts of FFN 32,768 with top-2 routing, untied embeddings of the Llama 3 tokenizer's 128,256 entries): the
    row's total and active parameters."""
    import json

    r = _rows("training_heldout.csv")["H382"]
    a = json.loads(r["architecture_json"])
    h, f, layers, v = a["hidden_size"], a["ffn_size"], a["layers"], a["vocab_size"]
    attn = 2 * h * h + 2 * h * a["kv_heads"] * (h // a["heads"])
    expert = 3 * h * f
    router = h * a["experts"]
    total = layers * (attn + a["experts"] * expert + router) + 2 * v * h
    active = layers * (attn + a["experts_per_token"] * expert + router) + 2 * v * h
    assert total / 1e9 == pytest.approx(float(r["params_b"]), abs=0.01)       # 316.45B
    assert active / 1e9 == pytest.approx(a["active_params_b"], abs=0.01)      # 84.53B
    assert float(r["active_params_b"]) == a["active_params_b"]


def test_each_row_states_the_nemo_release_its_repository_release_pins():
    """dgxc-benchmarking v25.02 (8f5cbb3) runs the NeMo 24.12 container and v25.05.04 (1f6d9f4) NeMo 25.04.01, as
    each row's source says; training_conditions.csv's stack_version carries it to workload.stack_version, which
    sets what a release changes (here: DeepSeek-V3's attention unfused on GB200 before 25.07,
    tests/test_blackwell_training.py)."""
    held, cond = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid in [*TABLES, *(f"H{n}" for n in range(390, 403))]:
        said = " ".join(held[rid].values())
        want = "25.04.01" if "NeMo 25.04.01" in said else "24.12"
        assert ("NeMo " + want) in said and cond[rid]["stack_version"] == want, rid
    assert cond["H386"]["stack_version"] == "25.04.01" and cond["H374"]["stack_version"] == "24.12"
    # no other row states a release but NeMo's own 24.07 performance summary, H421-H438 (branch trainblind14), and its
    # long-sequence page's NeMo 24.03.01 (H100) and 25.04.rc2 (B200) containers, H484-H500 (branch trainblind17)
    assert {r["id"] for r in cond.values() if r["stack_version"] == "24.07"} == {f"H{n}" for n in range(421, 439)}
    assert {r["id"] for r in cond.values() if r["stack_version"] == "24.03"} == {f"H{n}" for n in range(484, 493)}
    assert {r["id"] for r in cond.values() if r["stack_version"] == "25.04"} == {f"H{n}" for n in range(493, 501)}
    # trainblind27's Megatron-Bridge verification cards (H671-H685, H691-H692) state the NeMo release each card names
    cards = {f"H{n}" for n in (*range(671, 686), 691, 692)}
    # and trainblind34's Megatron-Bridge 26.06 performance tables (H819-H828 SFT / LoRA, H830-H835 pretraining) the
    # NeMo 26.06 container they were measured on
    bridge = {f"H{n}" for n in (*range(819, 829), *range(830, 836))}
    assert {cond[r]["stack_version"] for r in bridge} == {"26.06"}
    # and trainblind48's Qwen3-235B-A22B verification card (H995) the NeMo 26.08 its card names
    card26 = {"H995"}
    assert {cond[r]["stack_version"] for r in card26} == {"26.08"}
    with_release = {r["id"] for r in cond.values() if r["stack_version"] and int(r["id"][1:]) >= 655}
    assert with_release == cards | bridge | card26
    assert sum(1 for r in cond.values() if r["stack_version"]) == 29 + 18 + 17 + len(cards) + len(bridge) + 1
