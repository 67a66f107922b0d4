"""The GB200 (branch gb200eff46): its training GEMMs run at the share of its 2,500 TFLOPS datasheet peak measured on
it (runtime.yaml training.mfu_by_gpu gb200), read against the B200 that runtime.mfu blackwell is kept for, in one
benchmark that measured both with the same script (stas00/ml-engineering compute/accelerator/README.md, Maximum
Achievable Matmul FLOPS comparison table, GB200 row added at commit 68cd2e59). Each figure by hand."""

from __future__ import annotations

import pytest

from tests.mfu_by_hand import flop_per_byte, mfu_by_gpu_by_hand

# mamf-finder.py, BF16 and FP8 (float8_e4m3fn) torch.matmul, TFLOPS: (measured, the table's theory column)
B200_BF16, GB200_BF16 = (1745.0, 2250), (1822.0, 2500)
B200_FP8, GB200_FP8 = (3432.5, 4500), (3615.6, 5000)
# the same page's clock table: device-reported maximum SM clock, MHz
B200_MHZ, GB200_MHZ = 1965, 2062


def test_the_gb200_figure_is_the_benchmark_and_the_memory_bound_share_by_hand(kb):
    """Shares: GB200 1,822.0 / 2,500 = 0.7288, B200 1,745.0 / 2,250 = 0.7756 (0.940x). runtime.mfu blackwell (0.60)
    holds the B200's memory-bound share at the reference width (1 + 7.5 x 292.2 / 8,192 = 1.2675, r = 2,250e12 /
    7.7e12); the GB200's is 1 + 7.5 x 312.5 / 8,192 = 1.2861 (r = 2,500e12 / 8.0e12): 0.60 x 0.940 x 1.2675 / 1.2861
    = 0.556."""
    gb200, b200 = GB200_BF16[0] / GB200_BF16[1], B200_BF16[0] / B200_BF16[1]
    assert (gb200, b200) == (pytest.approx(0.7288, abs=1e-4), pytest.approx(0.7756, abs=1e-4))
    # the benchmark's theory column is the catalog's dense peak of each part
    assert (kb.gpus["b200"].peaks.bf16, kb.gpus["gb200"].peaks.bf16) == (B200_BF16[1], GB200_BF16[1])
    assert (kb.gpus["b200"].peaks.fp8, kb.gpus["gb200"].peaks.fp8) == (B200_FP8[1], GB200_FP8[1])
    r_b200, r_gb200 = flop_per_byte(kb, "b200"), flop_per_byte(kb, "gb200")
    assert (r_b200, r_gb200) == (pytest.approx(292.2, abs=0.1), pytest.approx(312.5, abs=1e-9))
    k, ref = kb.runtime.training.mfu_memory_bound_k.value, kb.runtime.training.mfu_reference_hidden.value
    assert (k, ref) == (7.5, 8192)
    by_hand = mfu_by_gpu_by_hand(kb, "blackwell", gb200 / b200, "b200", "gb200")
    assert by_hand == pytest.approx(0.5557, abs=1e-4)
    got = kb.runtime.training.mfu_by_gpu["gb200"].value
    assert got == pytest.approx(by_hand, abs=0.001)
    # the matmul share the formula gives back on each part is the ratio measured between them
    assert (got * (1 + k * r_gb200 / ref)) / (kb.runtime.mfu["blackwell"].value * (1 + k * r_b200 / ref)) \
        == pytest.approx(gb200 / b200, abs=0.002)
    # FP8 GEMMs keep the same ratio (0.948 against 0.940), so the FP8 speed-up needs no term of its own
    fp8 = (GB200_FP8[0] / GB200_FP8[1]) / (B200_FP8[0] / B200_FP8[1])
    assert fp8 == pytest.approx(gb200 / b200, abs=0.01)
    # the sustained rates differ about as the parts' highest clocks do (1.044x against 1.049x), not as the
    # datasheets' peaks (1.111x): the GB200's peak is counted at its highest clock, the B200's below it
    assert GB200_BF16[0] / B200_BF16[0] == pytest.approx(GB200_MHZ / B200_MHZ, abs=0.006)
    assert GB200_BF16[1] / B200_BF16[1] == pytest.approx(1.111, abs=0.001)
    # the B200 keeps the architecture's figure
    assert "b200" not in kb.runtime.training.mfu_by_gpu


def test_a_gb200_training_step_runs_at_that_figure(kb):
    """Llama 3 70B (hidden 8,192, the reference width) on the middle stack's k: the GB200's MFU is the entry itself
    where runtime.mfu blackwell gave 0.60; the B200 keeps 0.60."""
    from gpuwise.estimators import step_time
    from gpuwise.estimators.candidate import training_job
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    w = {"task": "pretrain", "model": "llama-3-70b", "seq_len": 8192, "train_tokens": 1e12,
         "global_batch_tokens": 8388608, "stack": "megatron"}
    tj = training_job(resolve(Requirements.model_validate({"workload": w}), kb))
    gb200 = step_time.gpu_speed(tj, kb.gpus["gb200"])[1].value
    b200 = step_time.gpu_speed(tj, kb.gpus["b200"])[1].value
    assert gb200 == pytest.approx(0.556, abs=1e-6)
    assert b200 == pytest.approx(0.60, abs=1e-6)
