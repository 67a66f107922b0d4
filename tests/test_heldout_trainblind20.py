"""Held-out H554-H568 (branch trainblind20), scored blind on main e3d01a96: whole-run wall times of small 2025-26
pretraining runs (FengYe476/mini-LLM; AICrossSim/NewComputeBench's torchtitan runs; paiml/albor-370m-v1), logged
nanochat base trainings in two third-party repositories (mileswangs/mychat, jwt625/PlayGround), Tyler Romero's GPT-2
speedrun logs on 2 x RTX 4090 (tyler-romero/nanogpt-speedrun), and four MLPerf Training v5.1 Llama 3.1 8B results on
8 x B200 whose submitter system no row had used (mlcommons/training_results_v5.1 at 441d65f4). Each row's tokens,
GPU-hours, batch and shape are checked here by hand against the published figures; no figure of the model was set
from them."""

from __future__ import annotations

import json

import pytest

from .test_heldout_trainblind11 import _rows

WHOLE = ("H554", "H555", "H556", "H557", "H558", "H561")


def test_whole_run_rows_are_the_published_wall_times():
    """GPU-hours = GPUs x the published wall time: mini-LLM 7.4 h on one H100 (README 'Wall clock / cost 7.4 hours');
    NewComputeBench's 'pretrained on 2 x H100 96 GB for 1 hour' (60M) and '... for 6.5 hours' (200M), '8 x A6000 for
    21 hours' (400M), '8 x H100 96 GB for 33 hours' (1.1B); albor's 'Wall time 53 minutes' on one RTX 4090. Each is
    entered on the whole-run basis (training_conditions.csv hours_basis)."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    published = {"H554": (1, 7.4), "H555": (2, 1.0), "H556": (2, 6.5), "H557": (8, 21.0), "H558": (8, 33.0),
                 "H561": (1, 53 / 60)}
    for rid, (gpus, hours) in published.items():
        r = rows[rid]
        assert int(r["gpus"]) == gpus, rid
        assert float(r["gpu_hours"]) == pytest.approx(gpus * hours, abs=0.001), rid
        assert conds[rid]["hours_basis"] == "whole", rid
    assert set(published) == set(WHOLE)


def test_newcomputebench_tokens_are_the_configs_steps():
    """Tokens = steps x per-device batch x 2,048 x GPUs of each committed torchtitan config (60M: 7,075 x 48 x 2; 200M:
    31,686 x 32 x 2; 400M: 45,712 x 12 x 8; 1.1B: 59,846 x 24 x 8). Three of the four equal 22 x the shape's parameters
    without one embedding (torchtitan's count): the FFN is int(1.3 x int(8 x dim / 3)) rounded up to 128, 64-wide heads,
    a 49,152-token vocabulary, untied output layer."""
    rows = _rows("training_heldout.csv")
    configs = {"H555": (7075, 48, 2), "H556": (31686, 32, 2), "H557": (45712, 12, 8), "H558": (59846, 24, 8)}
    for rid, (steps, mb, gpus) in configs.items():
        r = rows[rid]
        assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(steps * mb * 2048 * gpus, abs=1), rid
        assert int(r["global_batch_tokens"]) == mb * 2048 * gpus, rid

    def shape_params(rid: str) -> tuple[int, int]:
        a = json.loads(rows[rid]["architecture_json"])
        d, layers, heads, kv = a["hidden_size"], a["layers"], a["heads"], a["kv_heads"]
        ffn = -(-int(1.3 * int(8 * d / 3)) // 128) * 128
        assert a["ffn_size"] == ffn, rid
        per_layer = 2 * d * d + 2 * d * kv * (d // heads) + 3 * d * ffn + 2 * d
        total = layers * per_layer + d + 2 * a["vocab_size"] * d
        return total, total - a["vocab_size"] * d

    for rid in ("H555", "H557", "H558"):
        total, counted = shape_params(rid)
        assert float(rows[rid]["params_b"]) == pytest.approx(total / 1e9, abs=5e-4), rid
        assert float(rows[rid]["training_tokens_b"]) * 1e9 == pytest.approx(22 * counted, rel=2e-4), rid
    total, counted = shape_params("H556")  # the 200M config's steps give 188.8M x 22, not the shape's 224.2M x 22
    assert float(rows["H556"]["training_tokens_b"]) * 1e9 / 22 == pytest.approx(188.76e6, rel=1e-3)
    assert counted == pytest.approx(224.17e6, rel=1e-3)


def test_mini_llm_shape_and_steps_by_hand():
    """mini-LLM: 12 x (4 x 768^2 + 3 x 768 x 3,072 + 2 x 768 RMSNorm) + 768 + 24,576 x 768 (tied) = 132,139,776 weights
    (the card's 132.3M counts the linear biases too); 10,967 steps of 524,288 tokens (16 x 1,024 x 32 accumulation),
    the card's 'Tokens seen 5,749,010,432'; its logged 2.44 s a step x 10,967 = 7.43 h, the 7.4 h wall clock."""
    r = _rows("training_heldout.csv")["H554"]
    a = json.loads(r["architecture_json"])
    weights = a["layers"] * (4 * 768**2 + 3 * 768 * a["ffn_size"] + 2 * 768) + 768 + a["vocab_size"] * 768
    assert weights == 132_139_776
    assert float(r["params_b"]) == pytest.approx(0.1323, abs=1e-4)
    assert int(r["global_batch_tokens"]) == 16 * 1024 * 32 == 524_288
    assert float(r["training_tokens_b"]) == pytest.approx(5.749010432)
    assert pytest.approx(float(r["gpu_hours"]), abs=0.05) == 10_967 * 2.44 / 3600


def test_nanochat_rows_by_hand():
    """nanochat d20: 20 x (4 x 1,280^2 + 2 x 1,280 x 5,120) + 2 x 65,536 x 1,280 = 560,988,160 (the report card's
    count), 21,400 x 524,288 = 11,219,763,200 tokens, 8 GPUs x 176.26 min. d16 on 2 x H100: 16 x (4 x 1,024^2 +
    2 x 1,024 x 4,096) + 2 x 65,536 x 1,024 = 335,544,320; 12,800 x 524,288 = 20 x that; 2 x 259 min, and 12,800 x
    1.217 s agrees.
    The relu^2 MLP's two matrices are entered as a three-matrix width of 2/3 of 4 x hidden."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, depth, steps, gpus, minutes in (("H559", 20, 21400, 8, 176.26), ("H560", 16, 12800, 2, 259.0)):
        r, a = rows[rid], json.loads(rows[rid]["architecture_json"])
        d = depth * 64
        params = depth * (4 * d * d + 2 * d * 4 * d) + 2 * 65536 * d
        assert (a["layers"], a["hidden_size"], a["ffn_size"]) == (depth, d, round(2 * 4 * d / 3)), rid
        assert float(r["params_b"]) == pytest.approx(params / 1e9, abs=5e-4), rid
        assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(steps * 524_288), rid
        assert float(r["gpu_hours"]) == pytest.approx(gpus * minutes / 60, abs=0.001), rid
        assert (conds[rid]["stack"], conds[rid]["hours_basis"]) == ("nanochat", "steady"), rid
    assert 560_988_160 == 20 * (4 * 1280**2 + 2 * 1280 * 5120) + 2 * 65536 * 1280
    assert 12_800 * 524_288 == 20 * 335_544_320
    assert pytest.approx(259, abs=1) == 12_800 * 1.217 / 60


def test_speedrun_logs_by_hand():
    """tyler-romero/nanogpt-speedrun logs: tokens = steps x the step's tokens, GPU-hours = 2 x train_time (ms)."""
    rows = _rows("training_heldout.csv")
    logs = {"H566": (24576, 262144, 29_266_963), "H567": (9664, 524288, 27_025_269), "H568": (6120, 524288, 14_674_581)}
    for rid, (steps, tokens, ms) in logs.items():
        r = rows[rid]
        assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(steps * tokens), rid
        assert float(r["gpu_hours"]) == pytest.approx(2 * ms / 3.6e6, abs=0.001), rid
        assert (r["gpu"], r["gpus"], int(r["global_batch_tokens"])) == ("rtx-4090", "2", tokens), rid


def test_mlperf_8b_rows_are_the_logs_by_hand():
    """mlcommons/training_results_v5.1 llama31_8b, 10 successful runs each: tokens = the mean last eval_accuracy
    samples_count x 8,192; GPU-hours = 8 x the mean summed block_start..block_stop minutes / 60; NVFP4, TP1 CP1,
    micro-batch 2."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    logs = {"H562": (176_947.2, 82.535), "H563": (174_489.6, 83.690), "H564": (178_176.0, 84.258),
            "H565": (174_489.6, 82.719)}
    for rid, (samples, minutes) in logs.items():
        r, c = rows[rid], conds[rid]
        assert (r["catalog_model"], r["gpu"], int(r["gpus"]), r["precision"]) == ("llama-3.1-8b", "b200", 8, "fp4"), rid
        assert float(r["training_tokens_b"]) == pytest.approx(samples * 8192 / 1e9, abs=1e-6), rid
        assert float(r["gpu_hours"]) == pytest.approx(8 * minutes / 60, abs=0.001), rid
        assert int(r["global_batch_tokens"]) == 16 * 8192, rid
        got = (c["stack"], c["tp"], c["cp"], c["micro_batch"], c["hours_basis"])
        assert got == ("nemo", "1", "1", "2", "steady"), rid
