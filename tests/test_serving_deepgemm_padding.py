"""vLLM 0.11.1 runs a block-FP8 model's routed experts on DeepGEMM's contiguous grouped GEMM at every batch on Hopper
(knowledge/serving.yaml vllm deepgemm_moe_padding): vllm-project/vllm pull request #26197 (merged 2025-10-08) made the
E8M0 flag default on for Hopper, and TritonOrDeepGemmExperts then takes DeepGEMM whatever the batch; DeepGemmExperts
sizes its buffer as 'M_sum = (M * topk) + num_experts * (block_m - 1)' rows (workspace_shapes), every one of which the
grouped GEMM multiplies. The A/B that checks it is not a validation row's figure: vllm-project/recipes pull request
#112 (2025-11-06), MiniMax-M2 TP 4 on 4 x H100 at concurrency 10, mean TPOT 32.21 ms with DeepGEMM and 16.39 without."""

from __future__ import annotations

import importlib

import pytest

from gpuwise.estimators import serving as SV

ST = importlib.import_module("gpuwise.estimators.serving.step")

# MiniMaxAI/MiniMax-M2 config.json: hidden_size 3072, intermediate_size 1536 (each expert), 256 local experts,
# 8 experts a token, 62 layers, every one MoE
HIDDEN, EXPERT_FFN, EXPERTS, TOP_K, LAYERS = 3072, 1536, 256, 8, 62


def _copy(kb, accuracy, version: str | None, gpu: str = "h100-80gb-sxm", model: str = "minimax-m2", tp: int = 4):
    job = accuracy.serving_job(kb, model, "fp8", "vllm", 2048, 942, 10, tp, 1, framework_version=version)
    return job, SV.choose(job, kb.gpus[gpu], tp)


def test_the_padded_rows_by_hand(kb, accuracy):
    """A decode step of 10 sequences at TP 4: M_sum = 10 x 8 + 256 x 127 = 32,592 rows a layer, each multiplied by a
    whole expert's three matrices (2 x 3 x 3,072 x 1,536 FLOPs), split over 4 ranks, in 62 layers: 14.30 TFLOP a GPU,
    beside the step's few dense FLOPs (10 tokens through ~3B parameters: 0.015 TFLOP a GPU)."""
    job, s = _copy(kb, accuracy, "0.11.1")
    assert (job.shape.hidden, job.shape.experts, job.shape.experts_per_token, job.shape.layers) == (
        HIDDEN, EXPERTS, TOP_K, LAYERS)
    assert s.engine.moe_pad_rows == EXPERTS * 127
    by_hand = 2 * 3 * HIDDEN * EXPERT_FFN * (10 * TOP_K + EXPERTS * 127) / 4 * LAYERS
    assert by_hand == pytest.approx(14.30e12, rel=1e-3)
    step = ST.step(job, s.engine, s.replica, 10, 0.0, 2048 + 471, 0.0)
    assert by_hand < step.flops_gpu < by_hand * 1.01


def test_the_recipes_a_b_on_h100(kb, accuracy):
    """recipes #112: 32.21 - 16.39 = 15.82 ms a token more with DeepGEMM on. gpuwise's step at 0.11.1 against 0.11.0
    (the Triton experts) differs by the padded rows at the framework's share of the H100's FP8 peak: within 20% of the
    measured difference, and the 0.11.1 TPOT within 10% of the measured 32.21 ms."""
    _, on = _copy(kb, accuracy, "0.11.1")
    _, off = _copy(kb, accuracy, "0.11.0")
    assert (on.load.tpot - off.load.tpot) * 1e3 == pytest.approx(32.21 - 16.39, rel=0.20)
    assert on.load.tpot * 1e3 == pytest.approx(32.21, rel=0.10)


@pytest.mark.parametrize(("version", "gpu", "model", "rows"), [
    ("0.11.1", "h20-141gb", "minimax-m2", EXPERTS * 127),   # Hopper, block-FP8 checkpoint, in the window
    (None, "h100-80gb-sxm", "minimax-m2", 0),               # no release stated: the current kernels
    ("0.11.0", "h100-80gb-sxm", "minimax-m2", 0),           # before pull request #26197
    ("0.12.0", "h100-80gb-sxm", "minimax-m2", EXPERTS * 127),  # 0.12.0-0.14.1: on below a MoE TP of 8 (assume52)
    ("0.14.1", "h100-80gb-sxm", "minimax-m2", EXPERTS * 127),
    ("0.15.0", "h100-80gb-sxm", "minimax-m2", 0),           # 0.15.x not read (no sdist), 0.16.0 another oracle
    ("0.11.1", "b200", "minimax-m2", 0),                    # another architecture
    ("0.11.1", "h100-80gb-sxm", "llama-3.1-8b", 0),         # a dense model
])
def test_the_window(kb, accuracy, version, gpu, model, rows):
    _, s = _copy(kb, accuracy, version, gpu, model)
    assert s.engine.moe_pad_rows == rows


def test_row_sw01_within_2x(kb, accuracy):
    """serving_independent.csv SW01 (recipes #99: MiniMax-M2 TP 4 on 4 x H20-3e, the vLLM nightly of 2025-10-27,
    DeepGEMM on, 2048 in at concurrency 10): 115.95 output tok/s, mean TPOT 82.82 ms. It read +317.6% (TPOT 20.4 ms)
    without the padded rows; the mechanism was checked on the H100 A/B above, not set on this row."""
    job = accuracy.serving_job(kb, "minimax-m2", "fp8", "vllm", 2048, 987, 10, 4, 1, framework_version="0.11.1")
    got = SV.choose(job, kb.gpus["h20-141gb"], 4).load
    assert 115.95 / 2 < got.throughput < 115.95 * 2
    assert got.tpot * 1e3 == pytest.approx(82.82, rel=0.5)


@pytest.mark.parametrize(("version", "tp", "padded"), [
    ("0.11.1", 8, True),    # inside the window every layout pads
    ("0.13.0", 4, True),    # 0.12.0-0.14.1: the DeepGEMM MoE stays on below a MoE TP of 8 ...
    ("0.13.0", 8, False),   # ... and is off from 8 ('DeepGEMM MoE is disabled by default when TP size is >= 8')
    ("0.14.1", 4, True),
    ("0.15.0", 4, False),   # past the last release read
])
def test_the_moe_tp_gate_after_the_window(kb, accuracy, version, tp, padded):
    """vllm 0.12.0 / 0.13.0 quantization/fp8.py and 0.14.0 / 0.14.1 fused_moe/oracle/fp8.py (sdists on PyPI): the
    default turns DeepGEMM's MoE off only where FusedMoEParallelConfig.tp_size >= 8; compute_aligned_M still pads. The
    step's expert FLOPs at one decode step of 10 sequences carry the 256 x 127 padding rows only where it is on."""
    job, s = _copy(kb, accuracy, version, tp=tp)
    step = ST.step(job, s.engine, s.replica, 10, 0.0, 2048 + 471, 0.0)
    by_hand = 2 * 3 * HIDDEN * EXPERT_FFN * (10 * TOP_K + EXPERTS * 127) / tp * LAYERS
    assert (step.flops_gpu > by_hand) is padded
