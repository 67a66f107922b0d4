"""Qwen3-Next-80B-A3B BF16 on SGLang at a stated concurrency (serving_independent.csv SQ01-SQ05, branch serveblind12).

Ximingwang-09's SGLang pull requests #10404 (opened 2025-09-13; H200 at TP 2/4/8) and #10467 (2025-09-15; the 96 GB
H20 at TP 4/8, where 'TP=2 will cause RuntimeError: Not enough memory' for the BF16 checkpoint) time
sglang.bench_serving --backend sglang-oai --num-prompts 100 --dataset-name random --random-input-len 1000
--random-output-len 2000 --random-range-ratio 1 --warmup-requests 5 at --max-concurrency 8 (H200) and 32 (H20), with
the tuned fused-MoE config the pull request adds: 937.94 / 1,137.94 / 1,239.43 and 2,233.44 / 2,704.56 output tok/s.
Neither prints the release; both ran SGLang main between the 0.5.2 release candidates and 0.5.2 (THUDM/slime pull
request #360, 2025-09-19: 'no v0.5.2rc2 images for GB200 ... patches for SGLang v0.5.2'), before 0.5.3 (2025-10), so
the rows state 0.5.2 (CORRECTED after the blind round, flagged in each row): the 0.4.6 entry's constants."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

PUBLISHED = {"SQ01": 937.94, "SQ02": 1137.94, "SQ03": 1239.43, "SQ04": 2233.44, "SQ05": 2704.56}


def _served(kb, version: str | None, gpu: str = "h200-141gb-sxm", tp: int = 8, conc: int = 8):
    w = {"task": "inference", "model": "qwen3-next-80b-a3b", "precision": "bf16", "framework": "sglang",
         "prompt_tokens": 1000, "output_tokens": 2000, "concurrent_requests": conc, "parallelism": {"tp": tp, "pp": 1}}
    if version:
        w["framework_version"] = version
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    return SV.choose(job, kb.gpus[gpu], tp)


def test_a_build_of_mid_september_2025_takes_the_046_constants(kb):
    """serving.yaml sglang releases: 0.4.6 (2025-04) sets kernel_floor_us 6, 0.5.3 (2025-10) keeps 6, 0.5.7 (2026-01,
    NVIDIA builds) 2. A 0.5.2 build is priced at 6 us a small kernel; a row with no release at the newest, 2 us."""
    assert _served(kb, "0.5.2").engine.kernel_floor == pytest.approx(6e-6)
    assert _served(kb, None).engine.kernel_floor == pytest.approx(2e-6)


def test_the_rows_against_the_pull_requests(kb, accuracy):
    """Blind (release blank) the round read +12.8 / +25.7 / +40.1 / -6.9 / +17.1%; at 0.5.2 +2.4 / +10.5 / +20.1 /
    -11.4 / +8.7%. Held within 0.85x-1.25x of the published figures; TP 8 on H200 (SQ03) stays the worst, the
    model's step shrinking with TP faster than the runs' (README, serveblind12)."""
    got = {c[0].split()[0]: c[1] / c[2] for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT)
           if c[0].split()[0] in PUBLISHED}
    assert set(got) == set(PUBLISHED)
    for rid, ratio in got.items():
        assert 0.85 < ratio < 1.25, (rid, ratio)
    assert max(got, key=got.get) == "SQ03"


def test_the_published_tp_scaling_is_flatter_than_the_step(kb):
    """The runs' own TP scaling on 8 concurrent requests (H200): TP 8 serves 1,239.43 / 937.94 = 1.32x TP 2's output.
    The model's step gives 1.55x at 0.5.2 (its decode step 8.04 ms at TP 2 against 5.09 ms at TP 8: the weights' share
    shrinks with TP, the per-layer kernels and all-reduces do not). Recorded, not set: this test holds the gap's sign
    and size so a change to the step that closes it shows here."""
    two = _served(kb, "0.5.2", tp=2).load.throughput
    eight = _served(kb, "0.5.2", tp=8).load.throughput
    published = 1239.43 / 937.94
    assert published == pytest.approx(1.3214, abs=1e-4)
    assert 1.4 < eight / two < 1.7
