"""``weight_only_gemm``: vLLM's forced Marlin kernels for FP8 / FP4 weights (VLLM_TEST_FORCE_FP8_MARLIN=1,
--linear-backend marlin, --moe-backend marlin) read the narrow weights and multiply in 16 bits, the path vLLM takes
on a GPU without FP8 / FP4 tensor cores (knowledge/serving.yaml vllm precisions fp8 / fp4 ``fallback_compute``).

Published data: djangodevreng/dgx-spark-benchmarks at 56365367, one DGX Spark (GB10) under vLLM 0.26.0, 10-monday-peak
(4,004 / 501 tokens at 25 in flight): Qwen3.6-27B BF16 49.04 tok/s, TTFT 8.34 s; Qwen3.6-27B-FP8 through FP8 Marlin
49.35 tok/s, TTFT 14.73 s (tests/data/validation rows SH67 / SH68): the FP8 run's math is no faster than BF16's.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from gpuwise import knowledge

ROOT = Path(__file__).resolve().parents[1]
E = importlib.import_module("gpuwise.estimators.serving.engine")
GB10_BF16_TFLOPS, GB10_FP8_TFLOPS = 125.0, 250.0  # gpus.yaml gb10 peaks (dense)
OPTS = "memory_fraction=0.9"


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _job(kb, precision: str = "fp8", framework: str = "vllm", options: str = OPTS):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    return accuracy.serving_job(kb, "qwen3.5-27b", precision, framework, 4004, 501, 25, 1, 1, None, "fp8", "0.26.0",
                                options)


def test_the_gemms_run_at_the_16_bit_rate_on_the_narrow_weights(kb):
    gb10 = kb.gpus["gb10"]
    assert (gb10.peaks.bf16, gb10.peaks.fp8) == (GB10_BF16_TFLOPS, GB10_FP8_TFLOPS)
    off = E.engine(_job(kb), gb10, "vllm")
    on = E.engine(_job(kb, options=OPTS + ";weight_only_gemm=true"), gb10, "vllm")
    assert (off.compute, off.weight_only) == ("fp8", False)
    assert (on.compute, on.weight_only) == ("bf16", True)
    # the same efficiency on the BF16 peak instead of the FP8 one: half the rate (125 / 250 TFLOPS)
    assert on.peak_gemm / off.peak_gemm == pytest.approx(GB10_BF16_TFLOPS / GB10_FP8_TFLOPS)
    assert on.peak_dense / off.peak_dense == pytest.approx(GB10_BF16_TFLOPS / GB10_FP8_TFLOPS)


def test_the_forced_marlin_row_reads_below_the_native_fp8_estimate(kb):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    cases = {c[0].split()[0]: c for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT)
             if c[0].split()[0] in ("SH67", "SH68")}
    bf16_est, bf16_pub = cases["SH67"][1], cases["SH67"][2]
    fp8_est, fp8_pub = cases["SH68"][1], cases["SH68"][2]
    assert fp8_pub / bf16_pub == pytest.approx(1.0, abs=0.01)  # 49.35 against 49.04: FP8 Marlin no faster
    # priced as W8A16 the FP8 run gains on BF16 only its weights' halved bytes, far less than the native path's 1.75x
    assert 1.0 < fp8_est / bf16_est < 1.45


@pytest.mark.parametrize(("precision", "framework", "word"), [("bf16", "vllm", "precision"),
                                                               ("fp8", "sglang", "framework")])
def test_it_is_refused_where_vllm_would_not_read_it(kb, precision, framework, word):
    from gpuwise.errors import UserError

    with pytest.raises((UserError, ValueError)) as err:
        _job(kb, precision, framework, OPTS + ";weight_only_gemm=true")
    assert "weight_only_gemm" in str(err.value) and word in str(err.value)
