"""Held-out training rows H937-H940 (branch trainblind43), scored blind on main 35ee7b88's code.

MLPerf Training v6.0 Llama 3.1 8B pretraining logs no row had used (Richardyu114/training_results_v6.0, a copy of
mlcommons/training_results_v6.0 at commit eabf23a0), each read as its sibling row reads its own:

- H937: HPE/results/HPE-GB200-ngpu16_ngc25.09/llama31_8b/result_1.txt (16 GB200, NVFP4; the last block's logged mean,
  as H595);
- H938: HPE/results/HPE-GB200-ngpu8_ngc25.09/llama31_8b/result_1.txt (8 GB200, NVFP4; the last block's logged mean);
- H939: HPE/results/HPE-Compute-XD685-B200-SXM5-192GB_n2_25.09/llama31_8b/result_1.txt (16 B200, NVFP4; the log's
  average step, as H600);
- H940: MiTAC/results/8xMI355X_2xEPYC_9755/llama31_8b/result_0.txt (8 MI355X, Primus MXFP4; the last four blocks'
  block_start..block_stop times, as H712).

Each row's tokens, hours and layout are checked by hand against the log's figures; nothing in gpuwise changed."""

from __future__ import annotations

import statistics

import pytest

from .test_heldout_trainblind11 import _rows
from .test_heldout_trainblind42 import rows_now

IDS = {f"H{i}" for i in range(937, 941)}
# blind (35ee7b88's model, unchanged), gpuwise against the published GPU-hours with the row's conditions, in %
BLIND = {"H937": 12.8, "H938": -0.0, "H939": 1.4, "H940": -15.1}
NOW = BLIND  # no change was made on the branch

SEQ = 8192
# (gpu, gpus, steps to run_stop, samples at run_stop, seconds a step as the log gives them, stack, micro-batch)
ROWS = {
    "H937": ("gb200", 16, 6912, 221184, 0.4098478252565201, "nemo", 2),  # last block's logged mean
    "H938": ("gb200", 8, 10752, 172032, 0.46368582160289407, "nemo", 2),  # last block's logged mean
    "H939": ("b200", 16, 6528, 208896, 0.46527678705751896, "nemo", 1),  # 'Average train_step_time'
    # the last four 384-step blocks, block_start..block_stop in ms (samples 147,456-196,608)
    "H940": ("mi355x", 8, 6144, 196608, None, "megatron", 2),
}
H940_BLOCKS_MS = ((1778048153853, 1778048498980), (1778048508274, 1778048852434),
                  (1778048861784, 1778049206234), (1778049215601, 1778049560721))


def _step_seconds(rid: str) -> float:
    step = ROWS[rid][4]
    if step is not None:
        return step
    return statistics.mean((stop - start) / 1000 for start, stop in H940_BLOCKS_MS) / 384


@pytest.mark.parametrize("rid", sorted(ROWS))
def test_rows_by_hand(rid):
    r, c = _rows("training_heldout.csv")[rid], _rows("training_conditions.csv")[rid]
    gpu, gpus, steps, samples, _, stack, mb = ROWS[rid]
    assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(samples * SEQ, rel=1e-6)
    assert float(r["gpu_hours"]) == pytest.approx(gpus * steps * _step_seconds(rid) / 3600, abs=1e-4)
    assert (r["gpu"], int(r["gpus"]), r["precision"], r["moe"], r["catalog_model"]) == (
        gpu, gpus, "fp4", "0", "llama-3.1-8b")
    # the global batch the log states: samples at run_stop over its steps, all data-parallel (TP = PP = CP = 1)
    gbs = samples // steps
    assert int(r["global_batch_tokens"]) == gbs * SEQ
    assert gbs % (gpus * mb) == 0  # whole micro-batches on every replica (H939 and H940: two accumulation steps)
    assert (c["stack"], c["tp"], c["pp"], c["cp"], c["micro_batch"], c["hours_basis"]) == (
        stack, "1", "1", "1", str(mb), "steady")


def test_h940_blocks_by_hand():
    # 345.127 / 344.160 / 344.450 / 345.120 s for 384 steps each: 0.897693 s a step
    assert _step_seconds("H940") == pytest.approx(0.897693, abs=1e-6)


def test_blind_band():
    """Blind: 7.1% median over 4 (signed +0.7%), worst 1.18x (H940, as its MI355X siblings H207 / H712 read)."""
    assert statistics.median(abs(v) for v in BLIND.values()) == pytest.approx(7.1)
    assert max(max(1 + v / 100, 1 / (1 + v / 100)) for v in BLIND.values()) == pytest.approx(1.178, abs=1e-3)


def test_rows_read_now(tmp_path):
    got = rows_now(tmp_path, IDS, NOW)
    # gpuwise gives the two GB200 rows the same step a GPU (two sequences of 8,192, no accumulation): the logs'
    # typical steps agree too (0.41 s), H938's last block holding a few slow ones
    s937 = got["H937"][0] * 3600 / (16 * 6912)
    s938 = got["H938"][0] * 3600 / (8 * 10752)
    assert s937 == pytest.approx(s938, rel=0.01)
