"""SGLang's Triton fused-MoE kernel for a block-FP8 checkpoint's experts on a B200 (knowledge/serving.yaml sglang
``triton_block_fp8_moe``; engine.py ``triton_block_fp8_floor_us``).

Which kernel, read in the sglang 0.5.7-0.5.9 wheels from PyPI (python/sglang/srt/server_args.py
_handle_model_specific_adjustments): with ``--moe-runner-backend auto`` and no all-to-all backend, SM100 hands an FP8
checkpoint's experts to FlashInfer's TRT-LLM MoE only for DeepseekV3ForCausalLM, Qwen3MoeForCausalLM, Qwen3Next and
Llama4; MiniMaxM2ForCausalLM stays on the Triton runner (layers/quantization/fp8.py Fp8MoEMethod.create_moe_runner).

Its fixed time per grouped GEMM on a B200, from sgl-project/sglang pull request #11816 (Oct 2025): the Triton kernel
at one token on DeepSeek-R1's TP 8 shape takes 52.65 us a fused-MoE call (two grouped GEMMs) for 9 active experts of
N=256 (gate and up 2 x 256 rows, down 256 columns) over the hidden size 7168, in FP8; less those experts streamed at
0.8 of the catalog's 7,700 GB/s, halved."""

from __future__ import annotations

import importlib

import pytest

from gpuwise.estimators import serving as SV

ST = importlib.import_module("gpuwise.estimators.serving.step")

LAYERS = 62  # MiniMax-M2's config.json num_hidden_layers, every one a MoE layer


def test_the_floor_is_the_pull_requests_reading_divided(kb):
    experts_bytes = 9 * (2 * 256 * 7168 + 256 * 7168)  # 9 active experts (8 routed + the fused shared one), 1 B each
    assert experts_bytes == 49_545_216
    stream_us = experts_bytes / (0.8 * 7700e9) * 1e6
    assert stream_us == pytest.approx(8.04, abs=0.01)
    floor = (52.65 - stream_us) / 2
    span = kb.framework("sglang").triton_block_fp8_moe
    assert span.grouped_gemm_floor_us == pytest.approx(floor, abs=0.05)  # 22.3 us
    # first: the 0.5.4.post3 wheel, the first with models/minimax_m2.py (branch assume52)
    assert span.first == "0.5.4.post3" and span.architectures == ["sm100"] and "minimax-m2" in span.models


def _engine(kb, accuracy, model: str, gpu: str, count: int, version: str | None, precision: str = "fp8",
            framework: str = "sglang", tp: int = 8, ep: int | None = 8):
    job = accuracy.serving_job(kb, model, precision, framework, 1000, 1000, tp=tp, ep=ep, framework_version=version)
    s = SV.choose(job, kb.gpus[gpu], count)
    return job, s


@pytest.mark.parametrize(("model", "gpu", "version", "precision", "framework", "floor_us"), [
    ("minimax-m2", "b200", "0.5.8", "fp8", "sglang", 22.3),   # DQ05 / CK03-CK06's server: Triton block-FP8
    ("minimax-m2", "b200", "0.5.9", "fp8", "sglang", 22.3),
    ("minimax-m2", "b200", None, "fp8", "sglang", 22.3),      # no release stated: as the newest read
    ("minimax-m2", "b200", "0.5.5", "fp8", "sglang", 22.3),   # 0.5.5's server_args.py names no MiniMax (assume52)
    ("minimax-m2", "b200", "0.5.4", "fp8", "sglang", 14.0),   # before its model file: the Blackwell BF16 figure
    ("minimax-m2", "h100-80gb-sxm", "0.5.9", "fp8", "sglang", 13.0),  # Hopper keeps its own block-FP8 reading
    ("minimax-m2", "gb300", "0.5.10", "fp8", "sglang", 17.0),  # SM103 was not timed: the framework's figure
    ("minimax-m2", "b300", "0.5.9", "fp8", "sglang", 17.0),
    # SM120 (the RTX PRO 6000, 8 x 96 GB holds MiniMax-M2's FP8 weights) is not the B200's chip: its own Triton reading
    # (serving.yaml sglang architecture_overrides.sm120), where the architecture key once gave it the B200's 22.3
    ("minimax-m2", "rtx-pro-6000-blackwell-server", "0.5.9", "fp8", "sglang", 5.0),
    ("minimax-m2", "b200", "0.5.8", "bf16", "sglang", 14.0),   # BF16 experts: the BF16 reading
    ("deepseek-r1", "b200", "0.5.8", "fp8", "sglang", 14.0),   # DeepseekV3ForCausalLM: FlashInfer TRT-LLM MoE
    ("qwen3-235b-a22b", "b200", "0.5.8", "fp8", "sglang", 14.0),  # Qwen3MoeForCausalLM: likewise
])
def test_which_jobs_take_it(kb, accuracy, model, gpu, version, precision, framework, floor_us):
    _, s = _engine(kb, accuracy, model, gpu, 8, version, precision, framework)
    assert s.engine.grouped_floor == pytest.approx(floor_us * 1e-6)


def test_vllm_is_not_concerned(kb, accuracy):
    """vLLM's own Blackwell figure (its architecture_overrides.blackwell, the BF16 reading) stands."""
    _, s = _engine(kb, accuracy, "minimax-m2", "b200", 8, "0.16.0", framework="vllm")
    assert s.engine.grouped_floor == pytest.approx(14e-6)


def test_dq05_step_by_hand(kb, accuracy):
    """DQ05's server (MiniMax-M2.5 FP8, 8 x B200, --tp 8 --ep 8, SGLang 0.5.8) at one sequence: two grouped GEMMs
    a MoE layer, 62 layers, each 22.3 - 14 = 8.3 us longer than at the Blackwell BF16 figure: 1.029 ms a step."""
    import dataclasses

    job, s = _engine(kb, accuracy, "minimax-m2", "b200", 8, "0.5.8")
    eng = s.engine
    bf16_floor = dataclasses.replace(eng, grouped_floor=14e-6)
    kv = 1000 + 500
    with_it = ST.consts(job, eng, s.replica)
    without = ST.consts(job, bf16_floor, s.replica)
    longer = ST.seconds_of(with_it, 1.0, 0.0, kv, 0.0) - ST.seconds_of(without, 1.0, 0.0, kv, 0.0)
    assert longer == pytest.approx(2 * LAYERS * (22.3 - 14.0) * 1e-6, rel=1e-6)
