"""Held-out H671-H690 (branch trainblind27), scored blind on main 82636a27, no MLPerf: steady step times of two
training stacks at their 2026 releases. Megatron-Bridge's model verification cards (NVIDIA-NeMo/Megatron-Bridge
examples/model_verification_cards/*/card.yaml at 067f987d: each verified training item's mean step time, tokens/s and
model TFLOP/s a GPU over its last ten steps, with the recipe and command that ran it) for the H100 items of catalog
text models not already in the performance summary; torchtitan's Qwen3-32B log lines of pull request 1690 (2025-09)
and one torchtitan run on 8 x B200 from mlc-ai/pith-train issue 79 (2026-07). Each row's tokens, hours, batch and
layout are checked here by hand against its source; no figure of the model was set from them."""

from __future__ import annotations

import pytest

from .test_heldout_trainblind11 import _rows

IDS = [f"H{i}" for i in range(671, 691)]

# card, item, GPUs, step ms, tokens/s a GPU, GBS, seq, (tp, pp, ep, vpp), zero, method, lora targets
CARDS = {
    "H671": ("qwen3-8b", "pretrain", 16, 25070.32, 10456.348, 1024, 4096, (1, 1, "", ""), "1", "", ""),
    "H672": ("qwen3-8b", "sft", 4, 7424.24, 2206.825, 32, 2048, (4, 1, "", ""), "1", "full", ""),
    "H673": ("qwen3-8b", "peft", 1, 7774.79, 8429.295, 32, 2048, (1, 1, "", ""), "", "lora", "attention"),
    "H674": ("qwen3-30b-a3b", "pretrain", 16, 30289.55, 8654.602, 1024, 4096, (1, 1, 16, ""), "1", "", ""),
    "H675": ("qwen3-30b-a3b", "pretrain_performance", 16, 20147.29, 13011.378, 1024, 4096, (1, 1, 16, ""), "1", "",
             ""),
    "H676": ("qwen3-30b-a3b", "sft", 16, 1206.32, 3395.451, 32, 2048, (1, 1, 16, ""), "1", "full", ""),
    "H677": ("qwen3-30b-a3b", "peft", 4, 22347.64, 733.142, 32, 2048, (4, 1, 4, ""), "", "lora", "attention"),
    "H678": ("gpt-oss-20b", "pretrain", 16, 22400.88, 5851.199, 512, 4096, (2, 4, 4, ""), "1", "", ""),
    "H679": ("gpt-oss-20b", "sft", 8, 6618.85, 4950.709, 128, 2048, (1, 1, 8, ""), "0", "full", ""),
    "H680": ("gpt-oss-20b", "peft", 1, 50689.94, 5171.519, 128, 2048, (1, 1, 1, ""), "", "lora", "all-linear"),
    "H681": ("gpt-oss-120b", "pretrain", 64, 16664.93, 1966.285, 512, 4096, (2, 4, 16, ""), "1", "", ""),
    "H682": ("gpt-oss-120b", "sft", 32, 8063.15, 1015.98, 128, 2048, (2, 4, 8, ""), "0", "full", ""),
    "H683": ("gpt-oss-120b", "peft", 8, 11509.1, 2847.138, 128, 2048, (1, 1, 8, ""), "", "lora", "all-linear"),
    "H684": ("deepseek-v3", "pretrain_performance", 1024, 61756.13, 1061.206, 16384, 4096, (2, 8, 64, 4), "1", "", ""),
    "H685": ("nemotron-3-super-120b-a12b", "pretrain", 64, 29368.69, 2789.365, 1280, 4096, (1, 2, 32, ""), "1", "",
             ""),
}

# pull request 1690 (Qwen3-32B, seq 4,096, full AC): GPUs, FSDP degree, TP, local batch a data-parallel rank, tps,
# compiled; pith-train issue 79: the B200 run
TORCHTITAN = {
    "H686": (8, 8, 1, 2, 1874, True),
    "H687": (32, 4, 8, 16, 876, False),
    "H688": (32, 4, 8, 32, 883, False),
    "H689": (64, 8, 8, 32, 873, False),
}


def test_the_rows_and_their_conditions_are_entered():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid in IDS:
        assert rid in rows and rid in conds, rid
        assert rows[rid]["use"] == "1" and "trainblind27" in rows[rid]["notes"], rid
        assert "MLPerf" not in rows[rid]["source"] and conds[rid]["hours_basis"] == "steady", rid
        assert len(conds[rid]["source"]) > 100, rid


def test_verification_card_rows_by_hand():
    """A step is GBS x seq tokens (token slots: packed SFT bins count whole); the card's tokens/s a GPU is that over
    its mean step time and the GPUs (to its rounding); a row is 100 steps at the card's step time on every GPU."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (card, item, g, ms, toks, gbs, seq, (tp, pp, ep, vpp), zero, method, targets) in CARDS.items():
        r, c = rows[rid], conds[rid]
        tokens = gbs * seq
        assert tokens / (ms / 1000) / g == pytest.approx(toks, rel=2e-4), rid
        assert int(r["global_batch_tokens"]) == int(c["global_batch_tokens"]) == tokens, rid
        assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(100 * tokens, abs=1), rid
        assert float(r["gpu_hours"]) == pytest.approx(100 * ms / 1000 * g / 3600, rel=1e-5), rid
        assert (r["gpu"], r["gpus"], r["seq_len"], r["precision"]) == ("h100-80gb-sxm", str(g), str(seq), "bf16"), rid
        assert f"model_verification_cards/{card}/card.yaml" in r["source"] and f"items.{item}.H100" in r["source"]
        assert f"{ms:,.2f}" in r["source"], rid
        assert (c["stack"], c["tp"], c["pp"], c["ep"], c["vpp"]) == ("nemo", str(tp), str(pp), str(ep), str(vpp)), rid
        assert c["micro_batch"] == "1" and c["zero"] == zero, rid
        assert (r["method"], r["lora_targets"]) == (method, targets), rid
        assert r["moe"] == ("1" if ep else "0"), rid
        # the MoE rows keep each routed expert whole (ETP 1) as their recipes and cards say
        assert c["etp"] == ("1" if ep and rid not in ("H679", "H680", "H682", "H683") else ""), rid


def test_the_two_qwen3_30b_pretraining_items_are_one_layout():
    """H674 (natural routing, real data) and H675 (forced balancing, mock data, EP communication overlap) share
    TP1 PP1 EP16 at GBS 1,024 x 4,096: the forced, overlapped recipe steps 1.50x faster, which no column states."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    keys = ("tp", "pp", "ep", "etp", "cp", "micro_batch", "zero", "checkpointing", "global_batch_tokens")
    assert [conds["H674"][k] for k in keys] == [conds["H675"][k] for k in keys]
    assert float(rows["H674"]["gpu_hours"]) / float(rows["H675"]["gpu_hours"]) == pytest.approx(
        30289.55 / 20147.29, rel=1e-5)


def test_torchtitan_qwen3_32b_rows_by_hand():
    """torchtitan's tps is a GPU's: its data-parallel rank's tokens over the step time and its TP GPUs, so the
    GPU-hours of 100 steps are 100 x local batch x data-parallel ranks x 4,096 / tps / 3,600."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (g, fsdp, tp, lbs, tps, compiled) in TORCHTITAN.items():
        r, c = rows[rid], conds[rid]
        assert fsdp * tp == g, rid
        tokens = lbs * fsdp * 4096
        assert int(r["global_batch_tokens"]) == int(c["global_batch_tokens"]) == tokens, rid
        assert float(r["gpu_hours"]) == pytest.approx(100 * tokens / tps / 3600, rel=1e-5), rid
        assert (r["catalog_model"], r["gpu"], r["gpus"]) == ("qwen3-32b", "h100-80gb-sxm", str(g)), rid
        assert f"tps: {tps:,}" in r["source"] and "pull request 1690" in r["source"], rid
        assert (c["stack"], c["tp"], c["micro_batch"], c["zero"], c["checkpointing"]) == (
            "torchtitan", str(tp), str(lbs), "3", "true"), rid
        assert c["torch_compile"] == ("true" if compiled else "false"), rid


def test_torchtitan_b200_row_by_hand():
    """pith-train issue 79: MBS 8 x 8,192 on FSDP8 = GBS 64; 19.52k tokens/s a GPU; the eight-chunk loss holds no
    full logits (cut_cross_entropy, entered after the blind scoring)."""
    r, c = _rows("training_heldout.csv")["H690"], _rows("training_conditions.csv")["H690"]
    tokens = 8 * 8 * 8192
    assert int(r["global_batch_tokens"]) == int(c["global_batch_tokens"]) == tokens == 64 * 8192
    assert float(r["gpu_hours"]) == pytest.approx(100 * tokens / 19_520 / 3600, rel=1e-5)
    assert (r["catalog_model"], r["gpu"], r["gpus"], r["seq_len"]) == ("qwen3-30b-a3b", "b200", "8", "8192")
    assert (c["stack"], c["ep"], c["micro_batch"], c["zero"], c["torch_compile"]) == ("torchtitan", "1", "8", "3",
                                                                                        "true")
    assert c["checkpointing"] == "" and c["cut_cross_entropy"] == "true"
    assert "19.52k" in r["source"] and "entered after the blind scoring" in c["source"]


# the second batch: the cards' Blackwell MXFP8 items of catalog models the performance summary does not hold
BLACKWELL = {
    "H691": ("qwen3-30b-a3b", "pretrain.GB200", "gb200", 12362.34, 21205.047, 4096, "qwen3-30b-a3b"),
    "H692": ("nemotron-3-nano-30b-a3b", "pretrain_performance.GB300", "gb300", 12455.14, 42094.107, 8192,
             "nvidia-nemotron-3-nano-30b-a3b"),
}


def test_second_batch_rows_by_hand():
    """8 GPUs, MBS 4, GBS 512 (16 micro-batches a rank at EP8 over DP8); tokens/s a GPU = 512 x seq / step / 8."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (card, item, gpu, ms, toks, seq, cat) in BLACKWELL.items():
        r, c = rows[rid], conds[rid]
        tokens = 512 * seq
        assert tokens / (ms / 1000) / 8 == pytest.approx(toks, rel=2e-4), rid
        assert int(r["global_batch_tokens"]) == int(c["global_batch_tokens"]) == tokens, rid
        assert float(r["gpu_hours"]) == pytest.approx(100 * ms / 1000 * 8 / 3600, rel=1e-5), rid
        assert (r["catalog_model"], r["gpu"], r["gpus"]) == (cat, gpu, "8"), rid
        assert (r["precision"], r["seq_len"]) == ("fp8", str(seq)), rid
        assert f"model_verification_cards/{card}/card.yaml" in r["source"] and f"items.{item}" in r["source"], rid
        assert (c["stack"], c["ep"], c["micro_batch"], c["checkpointing"]) == ("nemo", "8", "4", "false"), rid
        assert "trainblind27, second batch" in r["notes"], rid
