"""Held-out H510-H523 (branch trainblind18), scored blind on main fb4db35c: torchtitan's async-TP benchmark
(pytorch/torchtitan benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md, its table the image
assets/images/async-tp-perf-06-14-2025.png at c0b41b35: Llama 3.1 70B on 256 and 8B on 64 Grand Teton H100s, vanilla
and async TP in bf16, float8 tensorwise and float8 rowwise) and torchtitan's MXFP8 page (docs/mxfp8.md at b3da1a2d:
Llama 4 Scout on 256 GB200, bf16 and MXFP8). Each row is 10B tokens at the published tokens/s a GPU; the figures are
checked here by hand against the pages. No figure of the model was set from them."""

from __future__ import annotations

import pytest

from .test_heldout_trainblind11 import _rows

# id: (model, GPUs, TP, FSDP degree, local batch, precision, async TP, average TPS a GPU as printed)
ASYNC_TP = {
    "H510": ("llama-3.1-70b", 256, 8, 32, 16, "bf16", False, 597.3),
    "H511": ("llama-3.1-70b", 256, 8, 32, 16, "bf16", True, 652.4),
    "H512": ("llama-3.1-70b", 256, 8, 32, 16, "fp8", False, 809.8),   # float8 tensorwise
    "H513": ("llama-3.1-70b", 256, 8, 32, 16, "fp8", True, 942.4),
    "H514": ("llama-3.1-70b", 256, 8, 32, 16, "fp8", False, 599.6),   # float8 rowwise
    "H515": ("llama-3.1-70b", 256, 8, 32, 16, "fp8", True, 624.8),
    "H516": ("llama-3.1-8b", 64, 8, 8, 12, "bf16", False, 4378.0),
    "H517": ("llama-3.1-8b", 64, 8, 8, 12, "bf16", True, 4809.4),
    "H518": ("llama-3.1-8b", 64, 8, 8, 12, "fp8", False, 5078.1),
    "H519": ("llama-3.1-8b", 64, 8, 8, 12, "fp8", True, 5570.1),
    "H520": ("llama-3.1-8b", 64, 8, 8, 12, "fp8", False, 3708.5),
    "H521": ("llama-3.1-8b", 64, 8, 8, 12, "fp8", True, 3914.9),
}


def test_async_tp_rows_are_the_table_by_hand():
    """GPUs = FSDP x TP; a step is local batch x FSDP sequences of 8,192 (the toml's seq_len at 820504e); GPU-hours =
    10B tokens / TPS / 3,600 (the GPU count cancels); async TP is in the source, not in the conditions."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (model, gpus, tp, dp, mb, prec, asyn, tps) in ASYNC_TP.items():
        r, c = rows[rid], conds[rid]
        assert (r["catalog_model"], int(r["gpus"]), r["precision"], r["gpu"]) == (model, gpus, prec, "h100-80gb-sxm")
        assert gpus == tp * dp
        assert int(r["global_batch_tokens"]) == mb * dp * 8192
        assert float(r["gpu_hours"]) == pytest.approx(10e9 / tps / 3600, abs=0.05), rid
        assert (c["stack"], c["tp"], c["micro_batch"], c["zero"], c["torch_compile"]) == (
            "torchtitan", str(tp), str(mb), "3", "true"), rid
        assert ("enable_async_tensor_parallel" in r["source"]) == asyn, rid
        assert c["checkpointing"] == ("true" if model == "llama-3.1-70b" else "selective_op"), rid  # full AC / SAC


def test_async_speedups_are_the_pages():
    """The image's last column is async TPS / vanilla TPS: 1.09 / 1.16 / 1.04 for the 70B, 1.10 / 1.10 / 1.06 for
    the 8B (bf16, float8 tensorwise, float8 rowwise)."""
    t = {k: v[-1] for k, v in ASYNC_TP.items()}
    got = [round(t[f"H{a + 1}"] / t[f"H{a}"], 2) for a in range(510, 522, 2)]
    assert got == [1.09, 1.16, 1.04, 1.10, 1.10, 1.06]


def test_scout_rows_by_hand():
    """docs/mxfp8.md: 256 GB200 (64 nodes x 4), EP 16; median 6,169 tokens/s in bf16 and
    7,401 with MXFP8: 450.3 and 375.3 GPU-hours for 10B tokens. The two medians are 1.200x apart, where the page's
    column prints +20.3% (torchao's README, which first published the table, prints 1.20x). The local batch is
    torchao's (pytorch/ao torchao/prototype/moe_training/README.md at 2f903f81: 1 sequence of 8,192 a GPU), where
    torchtitan's page says 10, which the rows were scored blind with."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, prec, tps in (("H522", "bf16", 6169), ("H523", "fp8", 7401)):
        r, c = rows[rid], conds[rid]
        assert (r["catalog_model"], r["gpu"], int(r["gpus"]), r["precision"], r["moe"]) == (
            "llama-4-scout-17b-16e", "gb200", 256, prec, "1")
        assert int(r["global_batch_tokens"]) == 1 * 256 * 8192
        assert float(r["gpu_hours"]) == pytest.approx(10e9 / tps / 3600, abs=0.05)
        assert (c["ep"], c["micro_batch"], c["checkpointing"]) == ("16", "1", "false")
    ratio = 7401 / 6169
    assert ratio == pytest.approx(1.200, abs=0.001)


# H524-H533, pytorch/ao's torchtitan tables (Llama3-8b on one node of 8, 1 sequence of 8,192 a GPU, FSDP2, per-op SAC,
# torch.compile): id -> (GPU, precision, float8 all-gather, median tokens/s as printed)
TORCHAO = {
    "H524": ("h100-80gb-sxm", "bf16", "", 6150.0),      # torchao/float8/README.md at 8c81863b
    "H525": ("h100-80gb-sxm", "fp8", "true", 7689.5),   # tensorwise with float8 all-gather, +25.03%
    "H526": ("h100-80gb-sxm", "fp8", "false", 6768.0),  # rowwise with bfloat16 all-gather, +10.05%
    "H527": ("mi300x", "bf16", "", 5376.5),             # the same file at 853f87d1
    "H528": ("mi300x", "fp8", "true", 6166.0),          # +14.68%
    "H529": ("mi300x", "fp8", "false", 5891.0),         # rowwise, +9.57%
    "H530": ("b200", "bf16", "", 8307.5),               # torchao/prototype/mx_formats/README.md at d8bb51f6
    "H531": ("b200", "fp8", "true", 10417.0),           # float8 tensorwise (f8 all-gather), +25.4%
    "H532": ("b200", "fp8", "false", 9969.0),           # mxfp8_cublas, +20.0%
    "H533": ("b200", "fp8", "false", 8640.5),           # float8 rowwise, +4.0%
}


def test_torchao_rows_by_hand():
    """8 GPUs, a step of 8 x 8,192 tokens; GPU-hours = 10B tokens / tokens/s / 3,600; the speed-ups the tables print
    are the printed medians' ratios to two decimals of a percent or better."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (gpu, prec, f8ag, tps) in TORCHAO.items():
        r, c = rows[rid], conds[rid]
        assert (r["gpu"], int(r["gpus"]), r["precision"], r["catalog_model"]) == (gpu, 8, prec, "llama-3.1-8b"), rid
        assert int(r["global_batch_tokens"]) == 8 * 8192
        assert float(r["gpu_hours"]) == pytest.approx(10e9 / tps / 3600, abs=0.05), rid
        got = (c["tp"], c["micro_batch"], c["zero"], c["fp8_params"], c["checkpointing"])
        assert got == ("1", "1", "3", f8ag, "selective_op"), rid  # per-op SAC (ttrecipe49)
    t = {k: v[-1] for k, v in TORCHAO.items()}
    assert round(t["H525"] / t["H524"] - 1, 4) == pytest.approx(0.2503, abs=1e-4)
    assert round(t["H528"] / t["H527"] - 1, 4) == pytest.approx(0.1468, abs=1e-4)
    assert round(t["H531"] / t["H530"] - 1, 3) == pytest.approx(0.254, abs=1e-3)
