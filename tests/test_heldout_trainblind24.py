"""Held-out H610-H627 (branch trainblind24), scored blind on main 0038cbdd, no MLPerf: LLaMA Pro 8.3B's block-expansion
post-pretraining on 16 H800 (Wu et al., ACL 2024, arXiv:2401.02415: 15,900 steps of 1,024 x 4,096 tokens, '2830 H800 GPU
hours') and InternEvo's published 7B scaling and FLOPS tables on A100 80GB servers joined by 4 x 100 Gb RoCE
(InternLM/InternEvo doc/en/train_performance.md at 3a665e88: TGS at 8-1,024 GPUs, tensor parallel 1 / 2, ZeRO-1 over a
server's ranks or all of them, recomputation on or off). Each row's tokens, hours, batch and shape are checked here by
hand against its source; no figure of the model was set from them."""

from __future__ import annotations

import json

import pytest

from .test_heldout_trainblind11 import _rows
from .test_heldout_trainblind23 import _llama_params

IDS = [f"H{i}" for i in range(610, 628)]

# InternEvo doc/en/train_performance.md, 'Throughput Measurement' (pack_sample_into_one False, checkpoint False,
# micro_num 4, micro_bsz 2 at tp=1 and 4 at tp=2, seq_len 2048): id -> (tp, zero1 size, GPUs, TGS)
THROUGHPUT = {
    "H611": (1, 8, 8, 4078), "H612": (1, 8, 64, 3944), "H613": (1, 8, 1024, 3625), "H614": (1, -1, 256, 3209),
    "H615": (1, -1, 1024, 2271), "H616": (2, 4, 8, 3761), "H617": (2, 4, 1024, 3486), "H618": (2, -1, 256, 3094),
    "H619": (2, -1, 1024, 2785),
}
# the same doc's 'FLOPS Testing' tables (pack_sample_into_one True, TP 1, Zero1 8, seq 2048): id -> (activation
# checkpointing, GPUs, micro_bsz, micro_num, Global Bsz in M tokens, TGS, TFLOPS)
FLOPS = {
    "H620": (True, 8, 8, 1, 0.125, 3314, 193), "H621": (True, 1024, 8, 1, 16, 3163, 184),
    "H622": (True, 512, 4, 1, 4, 2963, 173), "H623": (True, 1024, 2, 1, 4, 2341, 136),
    "H624": (True, 1024, 4, 1, 8, 2796, 160), "H625": (False, 512, 2, 2, 4, 3084, 139),
    "H626": (False, 1024, 2, 1, 4, 2346, 105), "H627": (False, 1024, 2, 2, 8, 2817, 124),
}


def test_the_rows_and_their_conditions_are_entered():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid in IDS:
        assert rid in rows and rid in conds, rid
        assert rows[rid]["use"] == "1" and "trainblind24" in rows[rid]["notes"], rid
        assert "MLPerf" not in rows[rid]["source"], rid
        assert conds[rid]["hours_basis"] == ("whole" if rid == "H610" else "steady"), rid


def test_llama_pro_by_hand():
    """15,900 steps x batch 1,024 x 4,096 tokens = 66.69B (the paper's '80B tokens' is Table 6's weighted corpus);
    16 H800 for 'about 7 days' is 2,688 GPU-hours beside the stated 2,830; Llama 2 7B's block at 40 layers is 8.36B."""
    r, c = _rows("training_heldout.csv")["H610"], _rows("training_conditions.csv")["H610"]
    assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(15_900 * 1_024 * 4_096, abs=1)
    assert (r["gpu"], r["gpus"], float(r["gpu_hours"]), r["seq_len"]) == ("h800-80gb-sxm", "16", 2830.0, "4096")
    assert int(r["global_batch_tokens"]) == int(c["global_batch_tokens"]) == 1_024 * 4_096
    assert pytest.approx(2830, rel=0.06) == 16 * 7 * 24
    a = json.loads(r["architecture_json"])
    assert (a["layers"], a["hidden_size"], a["ffn_size"], a["vocab_size"]) == (40, 4096, 11008, 32000)
    assert float(r["params_b"]) == pytest.approx(_llama_params(a) / 1e9, abs=1e-3)
    assert _llama_params(a) / 1e9 == pytest.approx(8.3, abs=0.1)


def _internevo_common(r: dict, c: dict, gbt: int, tgs: int) -> None:
    """100 steps of the global batch at the published tokens per GPU per second; the 7B shape (InternEvo
    configs/7B_sft.py, MLP 8/3 x 4,096 rounded up to a multiple of 256 = 11,008) is 7.321B without its biases."""
    tokens = 100 * gbt
    assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(tokens, rel=1e-8)
    assert float(r["gpu_hours"]) == pytest.approx(tokens / tgs / 3600, rel=1e-5)
    assert int(r["global_batch_tokens"]) == int(c["global_batch_tokens"]) == gbt
    assert (r["gpu"], r["seq_len"], r["precision"]) == ("a100-80gb-sxm", "2048", "bf16")
    assert (c["zero"], c["network"], c["overlap_comm"], c["stack"]) == ("1", "ethernet-400", "true", "")
    a = json.loads(r["architecture_json"])
    assert (a["layers"], a["hidden_size"], a["heads"], a["vocab_size"]) == (32, 4096, 32, 103168)
    assert a["ffn_size"] == 256 * -(-(4096 * 8 // 3) // 256) == 11008
    assert float(r["params_b"]) == pytest.approx(_llama_params(a) / 1e9, abs=1e-4)


def test_internevo_throughput_table_by_hand():
    """Tokens a GPU a step are the same on every row (the doc: 'consistent'): 4 micro-batches x micro_bsz x 2,048
    over tp GPUs = 16,384; zero1 = 8 (4 at tp=2) shards the optimizer within a server's data-parallel ranks (dp_shard),
    -1 over all of them (no dp_shard)."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (tp, zero1, n, tgs) in THROUGHPUT.items():
        r, c = rows[rid], conds[rid]
        mb = 2 if tp == 1 else 4
        gbt = 4 * mb * 2048 * (n // tp)
        assert gbt // n == 16_384, rid
        assert (r["gpus"], c["tp"], c["micro_batch"], c["checkpointing"]) == (str(n), str(tp), str(mb), "false"), rid
        assert c["dp_shard"] == ("" if zero1 == -1 else str(zero1)), rid
        assert zero1 == -1 or zero1 * tp == 8, rid
        _internevo_common(r, c, gbt, tgs)


def test_internevo_flops_tables_by_hand():
    """Global Bsz = micro_num x micro_bsz x 2,048 x GPUs (the doc's M = 2^20 tokens), and the published TFLOPS follow
    from the TGS by the Megatron paper's count the doc cites, 72 L h^2 (1 + s / 6h + V / 16 L h) a token, 4/3 of it with
    recomputation (Narayanan et al. 2021), within 3.5%: the table's TGS and the shape entered agree."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    layers, h, s, v = 32, 4096, 2048, 103168
    per_token = 72 * layers * h * h * (1 + s / (6 * h) + v / (16 * layers * h))
    for rid, (ckpt, n, mb, mn, gbs_m, tgs, tflops) in FLOPS.items():
        r, c = rows[rid], conds[rid]
        gbt = mn * mb * 2048 * n
        assert gbt == gbs_m * 2**20, rid
        assert (r["gpus"], c["tp"], c["micro_batch"], c["dp_shard"]) == (str(n), "1", str(mb), "8"), rid
        assert c["checkpointing"] == ("true" if ckpt else "false"), rid
        assert tgs * per_token * (4 / 3 if ckpt else 1) / 1e12 == pytest.approx(tflops, rel=0.035), rid
        _internevo_common(r, c, gbt, tgs)
    # the FLOPS table's recomputation-off row on 1,024 GPUs at 16M tokens repeats the throughput table's TGS 3,625
    # (H613); it is not entered twice
    assert sum("/ 3,625 tokens/s" in rows[rid]["hours_kind"] for rid in IDS) == 1
