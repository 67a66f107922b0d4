"""The held-out runs gpuwise reads more than 2x slow (branch train2x57): what their figures are, by hand.

H553 (Pythia-1B on 4 A100, apoorvkh/academic-pretraining at 21bdb9e): the published training_days are steps x a step
time that src/benchmarking/step_time.py builds from host timers (time.perf_counter(), no torch.cuda.synchronize in
the repository): estimate_step_time returns 'mean_acc_time * accumulation_steps + mean_optim_time', one micro-batch a
timed step, so the kernels a micro-step leaves queued are waited for outside its timer (in the optimizer step's,
counted once, not 16 times, or in the next batch's untimed copy to the GPU). The figure's rate is above what the
A100's matmuls alone reach in a published benchmark.

H686 (Qwen3-32B on torchtitan): the run's H100s hold 95 GiB (its log line), the catalog's nearest part 80 GB; by
hand the FSDP8 states alone take most of an 80 GB part."""
from __future__ import annotations

import csv

import pytest

from .conftest import DATA


def _rows(name: str) -> dict[str, dict]:
    with open(DATA / name, newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh)}


def test_h553_figure_is_above_the_a100s_measured_matmul_rate():
    r, c = _rows("training_heldout.csv")["H553"], _rows("training_conditions.csv")["H553"]
    steps, seq, gpus, micro, accum = 143_000, 2048, 4, 16, 16
    assert (int(c["micro_batch"]), int(r["global_batch_tokens"])) == (micro, gpus * micro * accum * seq)
    seconds = float(r["gpu_hours"]) / gpus * 3600  # 17.571102 days
    assert seconds / 86_400 == pytest.approx(17.571102, abs=1e-3)
    step_s = seconds / steps  # the benchmark's step: 16 micro-step timers + one optimizer-step timer
    assert step_s == pytest.approx(10.616, abs=0.01)
    tokens_per_gpu_s = micro * accum * seq / step_s
    # 6 x the matmul parameters (1,011,781,632 less the 50,304 x 2,048 input embedding) + causal attention
    flop_per_token = 6 * (1_011_781_632 - 50_304 * 2048) + 6 * 16 * 2048 * 2048
    rate = tokens_per_gpu_s * flop_per_token
    assert rate / 1e12 == pytest.approx(289, abs=1)
    # torch.matmul's best BF16 rate on an A100 SXM 80GB over 1,024-10,240 cubes (zzc0721/torch-performance-test-data
    # database.md at 0785868): 264.53 TFLOPS, 0.85 of 312; the whole step's figure is above it
    assert rate > 264.53e12 and rate / 312e12 == pytest.approx(0.93, abs=0.01)


def test_h553_criterion_names_the_code_that_made_the_figure():
    crit = _rows("training_heldout.csv")["H553"]["criterion"]
    assert crit.startswith("outside: ")
    for quoted in ("time.perf_counter()", "mean_acc_time * accumulation_steps", "torch.cuda.synchronize",
                   "21bdb9e", "264.53"):
        assert quoted in crit


def test_h686_states_do_not_leave_room_on_an_80_gb_part():
    """Qwen3-32B (32.76B) under FSDP2 over 8 GPUs: fp32 master weights, fp32 gradients and two fp32 AdamW moments,
    16 B a parameter, sharded 8 ways: 65.5 GB a GPU before one activation; the run's log reserved 81.85 GiB
    (87.9 GB) of its part's 95 GiB (86.17%), above the 80 GB part's 81,559 MiB (85.5 GB) as nvidia-smi reports it."""
    r = _rows("training_heldout.csv")["H686"]
    params = float(r["params_b"]) * 1e9
    states = params * 16 / 8
    assert states / 1e9 == pytest.approx(65.5, abs=0.1)
    logged = 81.85 * 2**30
    assert logged / 0.8617 / 2**30 == pytest.approx(95.0, abs=0.05)  # the part: 95 GiB
    assert logged > 81_559 * 2**20  # more than the 80 GB part holds
