"""A mixed FP8 / 16-bit checkpoint's 16-bit share (branch mixtralcap64, issue 22): NVIDIA's MLPerf Mixtral 8x7B
checkpoints for Hopper and RTX PRO are ModelOpt auto_quantize searches over FP8 and unquantized layers at
``effective_bits`` 8.75, which the workload field of that name states. Worked by hand from the sources:

- mlcommons/inference_results_v5.1 at 965182b03376a00fcae415c54e560e1c83937932,
  closed/HPE/configs/HPE_Cray_XD670_H200_SXM_141GBx8/Offline/mixtral-8x7b.py (row ML24): precision 'fp8',
  trtllm_checkpoint_flags effective_bits 8.75; closed/NVIDIA/code/mixtral-8x7b/modelopt/quantize.py: q_format
  ["FP8_DEFAULT_CFG", None], mtq.auto_quantize(constraints={"effective_bits": ...}, disabled_layers=["*lm_head*"]).
- NVIDIA/TensorRT-Model-Optimizer modelopt/torch/quantization/algorithms.py: a recipe's compression is its
  num_bits / 16 (FP8 (4, 3): (4 + 3 + 1) / 16 = 0.5; None: 1.0); effective bits = 16 x the sum of each linear's
  weights x its compression over the sum of the weights, every quantizable linear counted (the disabled head at 1.0).
- knowledge/models.yaml mixtral-8x7b: 46,702,792,704 parameters, vocabulary 32,000 x hidden 4,096, untied.
"""

from __future__ import annotations

import dataclasses

import pytest

PARAMS = 46_702_792_704
EMBED = 32_000 * 4_096  # the input embedding, not a Linear; the head (lm_head) the same size
LINEAR = PARAMS - EMBED  # 46,571,720,704: the norms' 266,240 weights ride along (0.0006%)
HEAD = 32_000 * 4_096
# 8.75 x W / 16 = 0.5 x (W - H - K) + (H + K)  ->  K = W x (8.75 / 8 - 1) - H
KEPT = LINEAR * (8.75 / 8 - 1) - HEAD  # 4,235,026,816 weights beside the head
SHARE = KEPT / (LINEAR - HEAD)  # 0.091192...


@pytest.fixture(scope="module")
def kb():
    from gpuwise import knowledge

    return knowledge.load()


def _job(kb, bits: float | None = None, precision: str = "fp8"):
    from benchmarks.accuracy_serving import serving_job

    opts = "max_batch_size=3072" + (f";effective_bits={bits}" if bits is not None else "")
    return serving_job(kb, "mixtral-8x7b", precision, "tensorrt-llm", 427, 146, None, 1, 1, 1, "fp8", None, opts,
                       offline=True)


def test_share_by_hand(kb):
    from gpuwise.estimators.serving.checkpoint import sixteen_bit_share

    assert pytest.approx(4_235_026_816) == KEPT
    assert pytest.approx(0.0911922, abs=1e-6) == SHARE
    assert sixteen_bit_share(_job(kb, 8.75)) == pytest.approx(SHARE, rel=1e-9)
    assert sixteen_bit_share(_job(kb)) == 0.0  # no share stated: a plain FP8 checkpoint
    # the README's H200 recipe (closed/NVIDIA/code/mixtral-8x7b/modelopt/README.md: --effective_bits=8.5)
    assert sixteen_bit_share(_job(kb, 8.5)) == pytest.approx((LINEAR * (8.5 / 8 - 1) - HEAD) / (LINEAR - HEAD))


def test_engine_prices_the_share(kb):
    """The kept weights read at 2 bytes, their math at the 16-bit rate: on an H200, whose BF16 peak is half its FP8
    peak (989.5 / 1,979 dense TFLOP/s), the GEMMs' rate falls by 1 / (1 + s)."""
    from gpuwise.estimators.serving.engine import engine

    gpu = kb.gpus["h200-141gb-sxm"]
    plain, mixed = engine(_job(kb), gpu), engine(_job(kb, 8.75), gpu)
    assert plain.peak_gemm / plain.peak_attn == pytest.approx(2.0)
    assert mixed.peak_gemm == pytest.approx(plain.peak_gemm / (1 + SHARE), rel=1e-9)
    assert mixed.peak_attn == plain.peak_attn
    a, b = plain.mbytes, mixed.mbytes
    assert b.experts == pytest.approx(a.experts * (1 + SHARE))
    # 45,097,156,608 routed-expert weights and 1,342,443,520 dense quantized ones (attention and norms) at 1 byte,
    # the share of them at 2: +4.235 GB, the K of the hand count less the router's 1,048,576 weights' share
    routed = 32 * 8 * 3 * 4_096 * 14_336
    assert a.experts == pytest.approx(routed)
    assert b.total - a.total == pytest.approx(SHARE * (routed + a.low_dense), rel=1e-9)
    assert b.total - a.total == pytest.approx(KEPT, rel=1e-3)
    assert dataclasses.replace(b, total=a.total, experts=a.experts, low_dense=a.low_dense) == a


def test_only_fp8_states_it(kb):
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="effective_bits is a mixed FP8 / 16-bit checkpoint"):
        _job(kb, 8.75, precision="bf16")
    with pytest.raises(ValidationError, match="effective_bits"):
        _job(kb, 16.0)  # the 16-bit end is no mixture: 8 < bits < 16


def test_rows_state_the_checkpoint():
    """The rows whose config states effective_bits 8.75 with precision fp8 carry it; the B200 rows' 7.25 is an
    NVFP4 / FP8 / 16-bit mixture (precision 'fp4') no single share splits, and MP17 / MP34 (v4.1) quantized plain
    FP8 (closed/NVIDIA/code/mixtral-8x7b/tensorrt/builder.py in mlcommons/inference_results_v4.1)."""
    import csv
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "tests" / "data" / "validation"
    stated = {"ML24", "RT38", "SH141", "ST21", "ST37", "MP09", "SH122", "SH125", "SH128", "ML35", "RT27", "RT98",
              "ST26", "ST38", "MP26", "RT53", "RT92", "RT93"}
    seen = set()
    for name in ("serving_independent.csv", "serving_rate.csv"):
        with open(root / name, newline="") as f:
            for r in csv.DictReader(f):
                if "effective_bits=" in r["workload_options"]:
                    assert r["workload_options"].endswith("effective_bits=8.75") and r["precision"] == "fp8"
                    seen.add(r["id"])
    assert seen == stated
