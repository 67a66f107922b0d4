"""Held-out H586-H602 (branch trainblind22), scored blind on main 4a10518a: seventeen MLPerf Training
v6.0 submitter-system pairs no row had used (Richardyu114/training_results_v6.0, a copy of
mlcommons/training_results_v6.0 at commit eabf23a0): Llama 3.1 8B pretraining, gpt-oss-20b pretraining and Llama 2 70B
LoRA on B300, B200, GB200, GB300, GH200, H100, H200 NVL, MI350X and MI355X, 8 to 72 GPUs, on NVIDIA's NeMo recipes and
AMD's Primus. Each row's tokens (run_stop samples x 8,192), GPU-hours (GPUs x steps x the logged step time, or the
summed training blocks) and batch are checked here by hand against the logs; no figure of the model was set from
them."""

from __future__ import annotations

import pytest

from .test_heldout_trainblind11 import _rows

IDS = [f"H{i}" for i in range(586, 603)]

# id: (GPU, GPUs, run_stop samples, global batch in sequences, seconds a step as logged (None: summed blocks), stack)
STEPPED = {
    "H586": ("b300", 8, 172_032, 16, 0.398554, "nemo"),            # last two 768-step block means 0.398552 / 0.398555
    "H587": ("b300", 8, 196_608, 24, (0.561838 + 0.562021) / 2, "nemo"),
    "H588": ("h200-nvl-141gb", 8, 3_456, 8, (5.57947 + 5.57913 + 5.57917 + 5.58060) / 4, "nemo"),
    "H590": ("mi350x", 8, 184_320, 32, (418.511 + 417.158 + 417.622 + 418.264) / 4 / 384, "megatron"),
    "H592": ("gh200-96gb", 32, 3_456, 8, (1.17392 + 1.18641 + 1.17606 + 1.18404 + 1.19084) / 5, "nemo"),
    "H593": ("b200", 16, 4_608, 16, (1.28890 + 1.28782 + 1.28779 + 1.28763 + 1.28775) / 5, "nemo"),
    "H595": ("gb200", 32, 245_760, 64, 0.495042, "nemo"),
    "H596": ("h100-80gb-sxm", 64, 233_472, 32, (0.425587 + 0.425564 + 0.425565) / 3, "nemo"),
    "H597": ("h100-80gb-sxm", 64, 180_224, 32, 0.351402, "nemo"),
    "H598": ("b200", 8, 196_608, 16, (0.453342 + 0.453090) / 2, "nemo"),
    "H599": ("gb300", 8, 208_896, 24, (0.490697 + 0.490711 + 0.490698) / 3, "nemo"),
    "H600": ("b200", 8, 172_032, 16, 0.440177, "nemo"),             # the log's 'Average train_step_time'
    "H601": ("gb300", 72, 3_096, 9, (0.161792 + 0.161759 + 0.161934 + 0.161984) / 4, "nemo"),  # 9 replicas (CP8)
    "H602": ("gb300", 32, 294_912, 64, (0.352876 + 0.352375) / 2, "nemo"),
}
# AMD Primus LoRA logs: block_start..block_stop seconds of the five training blocks (0-1,536 samples, then 384 each)
BLOCKS = {
    "H589": ("mi355x", (210.114, 51.801, 52.427, 51.798, 71.084)),   # HPE XD685, run_duration 489.3 s
    "H591": ("mi355x", (212.196, 53.319, 54.276, 53.191, 74.709)),   # MiTAC, run_duration 502.21 s
    "H594": ("mi350x", (251.027, 62.659, 63.238, 62.759, 83.922)),   # AMD, run_duration 587.34 s
}


def test_the_rows_and_their_conditions_are_entered():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    assert set(STEPPED) | set(BLOCKS) == set(IDS)
    for rid in IDS:
        assert rid in rows and rid in conds, rid
        assert rows[rid]["use"] == "1" and conds[rid]["hours_basis"] == "steady", rid
        assert "training_results_v6.0" in rows[rid]["source"], rid


def test_stepped_rows_are_steps_times_the_logged_step_time():
    """tokens = run_stop samples x 8,192; GPU-hours = GPUs x (samples / global batch) steps x the logged seconds a
    step."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (gpu, gpus, samples, gbs, step_s, stack) in STEPPED.items():
        r = rows[rid]
        assert (r["gpu"], int(r["gpus"]), conds[rid]["stack"]) == (gpu, gpus, stack), rid
        assert samples % gbs == 0, rid
        assert float(r["training_tokens_b"]) == pytest.approx(samples * 8192 / 1e9, abs=1e-6), rid
        assert int(r["global_batch_tokens"]) == gbs * 8192, rid
        assert float(r["gpu_hours"]) == pytest.approx(gpus * samples / gbs * step_s / 3600, abs=5e-4), rid


def test_primus_lora_rows_are_the_summed_training_blocks():
    """Llama 2 70B LoRA to the 0.925 target at 3,072 packed samples (384 steps of 8), the hours the five training blocks
    took on 8 GPUs (evaluations between them excluded); each block sum sits under the log's run_duration."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    durations = {"H589": 489.3, "H591": 502.21, "H594": 587.34}
    for rid, (gpu, blocks) in BLOCKS.items():
        r = rows[rid]
        assert (r["gpu"], r["gpus"], r["method"], r["lora_targets"], r["precision"]) == (
            gpu, "8", "lora", "attention", "fp4"), rid
        assert float(r["training_tokens_b"]) == pytest.approx(3072 * 8192 / 1e9, abs=1e-6), rid
        assert float(r["gpu_hours"]) == pytest.approx(8 * sum(blocks) / 3600, abs=5e-4), rid
        assert sum(blocks) < durations[rid], rid
        assert (conds[rid]["stack"], conds[rid]["tp"], conds[rid]["micro_batch"]) == ("megatron", "1", "1"), rid


def test_layouts_as_the_launch_configs_name_them():
    """The DLPAL launch names and config files: Dell's XE7745 TP2 CP2, Krai's GH200 TP4, Cisco's 64-H100 gpt-oss TP2 EP4
    (config_DGXH100_16x8x1xtp2pp1cp1ep4.sh: FP8_PARAMS True) and 8B TP2, micro-batches 2 / 3 on the one-node runs."""
    conds = _rows("training_conditions.csv")
    expect = {"H588": ("2", "", "2", "1"), "H592": ("4", "", "1", "1"), "H596": ("2", "4", "1", "1"),
              "H597": ("2", "", "1", "1"), "H586": ("1", "", "1", "2"), "H587": ("1", "1", "1", "3"),
              "H599": ("1", "1", "1", "3"), "H598": ("1", "1", "1", "2"), "H601": ("1", "", "8", "1"),
              "H602": ("1", "1", "1", "2")}
    for rid, (tp, ep, cp, mb) in expect.items():
        c = conds[rid]
        assert (c["tp"], c["ep"], c["cp"], c["micro_batch"]) == (tp, ep, cp, mb), rid
    assert conds["H596"]["fp8_params"] == "true" and conds["H596"]["network"] == "roce-400"
    # the logged configuration summaries: Megatron-FSDP (data_parallel_sharding_strategy optim_grads_params)
    assert {rid for rid in IDS if conds[rid]["zero"] == "3"} == {"H586", "H587", "H598", "H599", "H602"}
