"""AITER's assembly MXFP4 GEMMs on the MI355X (knowledge/serving.yaml ``mxfp4_asm_gemm``; support.py
``mxfp4_asm_gemm_rate``): vLLM's ROCm build with AITER on and VLLM_ROCM_USE_AITER_FP4_ASM_GEMM=1 runs its W4A4 MXFP4
linears on aiter's gemm_a4w4, whose tuned table gives each shape's time.

Source: ROCm/aiter aiter/configs/a4w4_blockscale_tuned_gemm.csv at 6af8b687480509d67f42a69bca7ed092c432e8dc (the
aiter commit AMD's MLPerf Inference v6.0 llama2-70b runs name), cu_num 256 (gfx950), Llama 2 70B's four projections
at TP1. The share is the slope of a layer's time against its FLOPs, over the MI355X's dense FP4 peak; the step at a
decode batch is the weights' streaming time plus that math (step.linear_time), checked here by hand at RT16's batch
(MLPerf v6.0 AMD 87 x MI355X llama2-70b Server, tests/data/validation/serving_rate.csv).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from gpuwise import knowledge
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

ROOT = Path(__file__).resolve().parents[1]
SV = importlib.import_module("gpuwise.estimators.serving")
ST = importlib.import_module("gpuwise.estimators.serving.step")

# M -> microseconds of qkv (N=10240 K=8192), o (8192, 8192), gate-up (57344, 8192), down (8192, 28672)
TABLE = {256: (21.2222, 19.3865, 72.0921, 58.8912), 512: (30.453, 25.2603, 114.8863, 78.9979),
         1024: (50.0769, 38.4657, 217.2024, 113.0494), 2048: (93.3564, 60.7364, 395.6913, 181.0399),
         4096: (158.7063, 117.687, 757.5215, 345.2111)}
LAYER_PARAMS = 10240 * 8192 + 8192 * 8192 + 57344 * 8192 + 8192 * 28672  # 855,638,016
MI355X_FP4_TFLOPS = 10066.3  # gpus.yaml mi355x peaks.fp4 (dense)
OPTS = "max_batch_size=3096;prefill_chunk_tokens=40960;rocm_aiter=true;prefix_cache=false;api_servers=0"


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _job(kb, options: str):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    return accuracy.serving_job(kb, "llama-2-70b", "fp4", "vllm", 222, 283, None, 1, 1, None, "fp8", "0.14.0",
                                options)


def test_the_share_is_the_tables_slope_over_the_fp4_peak(kb):
    layer = {m: sum(t) for m, t in TABLE.items()}
    flops = 2 * LAYER_PARAMS * (4096 - 256)  # the FLOPs M=4096 adds over M=256, one layer
    slope = flops / ((layer[4096] - layer[256]) * 1e-6)
    assert slope == pytest.approx(5.442e15, rel=1e-3)
    assert slope / (MI355X_FP4_TFLOPS * 1e12) == pytest.approx(0.5406, abs=5e-4)
    # every other pair of the five row counts reads 5.18-5.62 PFLOP/s
    ms = sorted(layer)
    pairs = [2 * LAYER_PARAMS * (b - a) / ((layer[b] - layer[a]) * 1e-6) for a in ms for b in ms if b > a]
    assert min(pairs) > 5.17e15 and max(pairs) < 5.63e15
    entry = kb.serving.mxfp4_asm_gemm
    assert entry.peak_share == pytest.approx(slope / (MI355X_FP4_TFLOPS * 1e12), abs=0.005)
    assert entry.gpus == ["mi355x"] and entry.frameworks == ["vllm"]
    assert kb.gpus["mi355x"].peaks.fp4 == MI355X_FP4_TFLOPS


def test_the_sum_with_the_weights_reproduces_the_table_within_six_percent(kb):
    # the weights stream at vLLM's AMD bandwidth share (0.70 x 8 TB/s), MXFP4 at 4.25 bits
    stream_us = LAYER_PARAMS * 4.25 / 8 / (0.70 * 8e12) * 1e6
    assert stream_us == pytest.approx(81.17, abs=0.01)
    rate = kb.serving.mxfp4_asm_gemm.peak_share * MI355X_FP4_TFLOPS * 1e12
    for m, times in TABLE.items():
        model = stream_us + m * 2 * LAYER_PARAMS / rate * 1e6
        assert model / sum(times) == pytest.approx(1.0, abs=0.06), m


def test_the_dense_rate_needs_aiter_the_asm_flag_and_the_gpu_read(kb):
    E = importlib.import_module("gpuwise.estimators.serving.engine")
    on = _job(kb, OPTS + ";rocm_fp4_asm_gemm=true")
    eng = E.engine(on, kb.gpus["mi355x"], "vllm")
    assert eng.peak_dense == pytest.approx(0.54 * MI355X_FP4_TFLOPS * 1e12)
    # the flag off (vLLM's default: aiter's Triton FP4 GEMM): vLLM's AMD efficiency, 0.30 of the peak (the flag with
    # AITER off is refused at input since hostile round 42: vLLM reads it only with AITER on, tests/test_hostile42.py)
    eng = E.engine(_job(kb, OPTS), kb.gpus["mi355x"], "vllm")
    assert eng.peak_dense == pytest.approx(0.30 * MI355X_FP4_TFLOPS * 1e12)
    # the MI350X was not timed: it keeps vLLM's efficiency of its own 9,227.5 TFLOP/s
    eng = E.engine(on, kb.gpus["mi350x"], "vllm")
    assert eng.peak_dense == pytest.approx(0.30 * 9227.5e12)


def test_rt16s_decode_step_at_its_batch_by_hand(kb):
    # RT16: 3,647.85 requests/s over 87 GPUs, TTFT 311.8 ms, TPOT 95.8 ms, 283 out: Little's law ~1,150 a GPU
    seqs = 3647.85 / 87 * (0.3118 + 283 * 0.0958)
    assert seqs == pytest.approx(1150, abs=2)
    job = _job(kb, OPTS + ";rocm_fp4_asm_gemm=true")
    s = SV.choose(job, kb.gpus["mi355x"], 87)
    st = ST.step(job, s.engine, s.replica, 1150, 0, 222 + 283 / 2, 0)
    # the linears: 80 layers of MXFP4 weights (4.25 bits) and the 16-bit output head streamed at 0.70 x 8 TB/s,
    # then 1,150 rows of their FLOPs, the MXFP4 ones at 0.54 x 10,066.3 TFLOP/s, the head's at 0.30 x 2,516.6 (BF16)
    head = 8192 * 32000
    stream = (80 * LAYER_PARAMS * 4.25 / 8 + head * 2) / (0.70 * 8e12)
    math = 1150 * (2 * 80 * LAYER_PARAMS / (0.54 * MI355X_FP4_TFLOPS * 1e12) + 2 * head / (0.30 * 2516.6e12))
    assert stream == pytest.approx(6.587e-3, rel=1e-3) and math == pytest.approx(29.76e-3, rel=1e-3)
    assert st.gemm == pytest.approx(stream + math, rel=1e-3)
    # at vLLM's efficiency (0.30 of the FP4 peak) the same math took 1.8 x as long: 52.1 ms against 29.0
    old = 1150 * 2 * 80 * LAYER_PARAMS / (0.30 * MI355X_FP4_TFLOPS * 1e12)
    assert old == pytest.approx(52.1e-3, rel=1e-2)


def _said(kb, gpu, **flags):
    w = {"task": "inference", "model": "llama-2-70b", "precision": "fp4", "framework": "vllm",
         "prompt_tokens": 222, "output_tokens": 283, **flags}
    job = resolve(Requirements.model_validate({"workload": w, "constraints": {"gpus": [gpu]}}), kb)
    return [(a.value, a.message_id) for a in job.assumptions if a.field == "workload.rocm_fp4_asm_gemm"]


def test_an_unstated_flag_is_said_where_it_moves_the_cost(kb):
    assert _said(kb, "mi355x", rocm_aiter=True) == [(False, "assume.default.workload.rocm_fp4_asm_gemm")]
    # stated, AITER off (the flag then does nothing), or a GPU the table was not read on: nothing said
    assert _said(kb, "mi355x", rocm_aiter=True, rocm_fp4_asm_gemm=False) == []
    assert _said(kb, "mi355x", rocm_aiter=False) == [] and _said(kb, "mi350x", rocm_aiter=True) == []
