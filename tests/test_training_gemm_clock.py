"""A training step's matmuls follow the clock a part holds through dense GEMMs (runtime.yaml training.mfu_read_on,
gpus.yaml clocks; branch trainblind15), as the serving engines' efficiency already did (test_serving_gemm_clock.py).

Source: AMD's ROCm blog 'Measuring Max-Achievable FLOPs - Part 2' (28 Feb 2025), Table 1: hipBLASLt dense GEMMs,
thermally settled, MI300X (750 W) BF16 1,207 / FP8 1,230 MHz, MI325X (1,000 W) BF16 1,447 / FP8 1,464 MHz, both from
a 2,100 MHz peak with the same 304 CUs and dense peaks. runtime.mfu cdna3 was read on the MI300X, so the MI325X's
matmuls run 1,447 / 1,207 (BF16) or 1,464 / 1,230 (FP8) times as fast at the same share of the peak, while the
step's memory-bound work (x = k r / width, r = peak FLOP/s over bandwidth) does not: the step speeds up by
(1 + x) / (1 / c + x)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuwise.estimators import compute as C
from gpuwise.frozen import replaced
from tests.clirun import gpuwise
from tests.test_hostile_more import one_line

EX = Path(__file__).resolve().parents[1] / "examples"


def _speed(kb, gpu: str, precision: str, *, read_on: bool = True) -> float:
    from gpuwise.estimators.candidate import training_job
    from gpuwise.estimators.step_time import gpu_speed
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    w = {"task": "pretrain", "model": "llama-3.1-8b", "train_tokens": 1e9, "precision": precision}
    tj = training_job(resolve(Requirements.model_validate({"workload": w}), kb))
    if not read_on:  # the job as gpuwise ran it before the clocks reached training (and a fresh memo)
        tj = replaced(tj, mfu_read_on=(), memo={})
    return gpu_speed(tj, kb.gpus[gpu])[0]


def test_the_figure_is_read_on_the_mi300x(kb):
    assert kb.runtime.training.mfu_read_on.parts == {"cdna3": "mi300x"}
    assert kb.gpus["mi300x"].architecture == kb.gpus["mi325x"].architecture == "cdna3"
    mi300x, mi325x = kb.gpus["mi300x"], kb.gpus["mi325x"]
    assert C.held_clock_ratio(mi325x, mi300x, "bf16") == pytest.approx(1447 / 1207)
    assert C.held_clock_ratio(mi325x, mi300x, "fp8") == pytest.approx(1464 / 1230)
    assert C.held_clock_ratio(mi300x, mi300x, "fp8") == 1.0
    assert C.held_clock_ratio(kb.gpus["h100-80gb-sxm"], mi300x, "bf16") == 1.0  # no clock in the H100's entry


@pytest.mark.parametrize("precision", ["bf16", "fp8"])
def test_the_reference_part_is_unchanged(kb, precision):
    assert _speed(kb, "mi300x", precision) == _speed(kb, "mi300x", precision, read_on=False)


def _x(kb) -> float:
    """The memory-bound share of Llama 3.1 8B's step on an MI325X (the middle stack, full training): k r / width."""
    k = kb.runtime.training.mfu_memory_bound_k.value  # 7.5
    r = 1307.4e12 / 6000e9  # the BF16 dense peak over the HBM3E bandwidth (gpus.yaml mi325x)
    return k * r / 4096  # Llama 3.1 8B's hidden size


def test_mi325x_bf16_step_by_hand(kb):
    c, x = 1447 / 1207, _x(kb)
    got = _speed(kb, "mi325x", "bf16") / _speed(kb, "mi325x", "bf16", read_on=False)
    assert got == pytest.approx((1 + x) / (1 / c + x), rel=1e-9)
    assert 1.10 < got < c  # the matmuls only: less than the clock ratio


def test_mi325x_fp8_step_by_hand(kb):
    """Under FP8 the clock multiplies the FP8 GEMM speed-up (runtime.yaml fp8_gemm_speedup, 1.6): the step goes from
    (1 + x) / (1 / g + x) to (1 + x) / (1 / (g c) + x)."""
    g, c, x = kb.runtime.training.fp8_gemm_speedup.value, 1464 / 1230, _x(kb)
    got = _speed(kb, "mi325x", "fp8") / _speed(kb, "mi325x", "fp8", read_on=False)
    assert got == pytest.approx((1 / g + x) / (1 / (g * c) + x), rel=1e-9)


def test_a_misspelt_reference_part_is_refused(tmp_path: Path) -> None:
    """A misspelt part would leave the architecture's other parts at its figure without a word: the one-line
    unknown-gpu error, as for training.mfu_by_gpu."""
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "runtime.yaml").write_text(
        'training:\n  mfu_read_on:\n    parts: {cdna3: mi300}\n    source: "a test"\n')
    one_line(gpuwise("recommend", str(EX / "lora-70b.yaml"), "--knowledge", "kb", cwd=tmp_path),
             "kb/runtime.yaml: training.mfu_read_on: unknown gpu 'mi300' (did you mean mi300x?)")
