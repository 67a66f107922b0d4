"""``rocm_aiter`` for SGLang on AMD (knowledge/serving.yaml sglang ``rocm_triton_moe_tile``; engine.py
``expert_tile_rows``, ``block_fp8_k_block``; inputs/job.py ``_note_aiter``).

SGLang reads SGLANG_USE_AITER only on a HIP build, as false when unset; its ROCm images set it to 1
(sgl-project/sglang docker/rocm.Dockerfile). With SGLANG_USE_AITER=0 the sglang 0.5.7 wheel runs a block-FP8
checkpoint's routed experts on its Triton fused-MoE kernel, and for a shape with no tuned file
(fused_moe_triton_config.py: E=<local experts>,N=<intermediate per rank>,device_name=AMD_Instinct_MI300X,
dtype=fp8_w8a8,block_shape=[128, 128].json; the wheel's only block-FP8 MI300X file is E=256,N=256)
get_default_config gives BLOCK_SIZE_M 64: an expert with fewer tokens is multiplied as 64 rows.
Qwen3-Coder-480B-A35B (config.json: 160 experts, moe_intermediate_size 2560, top 8) at --tp 8 --ep 2 is E=80, N=640
(the cookbook's MI300X launch: sgl-project/sgl-cookbook docs/autoregressive/Qwen/Qwen3-Coder.md at bc13814)."""

from __future__ import annotations

import importlib

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

ST = importlib.import_module("gpuwise.estimators.serving.step")
CODER = "qwen3-coder-480b-a35b"


def _job(accuracy, kb, model=CODER, precision="fp8", version="0.5.7", aiter="false", framework="sglang", ep=2):
    return accuracy.serving_job(kb, model, precision, framework, 1000, 1000, tp=8, ep=ep,
                                framework_version=version, options=f"rocm_aiter={aiter}" if aiter else "")


def test_the_local_shape_has_no_tuned_file(kb):
    """E=160/2 = 80 local experts of 2560/(8/2) = 640 columns: not the one file (E=256, N=256) the wheel ships."""
    m = kb.models[kb.model(CODER).id]
    assert (m.moe.experts // 2, m.ffn_size // (8 // 2)) == (80, 640) != (256, 256)
    span = kb.framework("sglang").rocm_triton_moe_tile
    assert span.tile_rows == 64 and span.architectures == ["cdna3"] and CODER in span.models
    assert kb.framework("sglang").expert_tile_tokens == 16


@pytest.mark.parametrize(("gpu", "model", "precision", "version", "aiter", "rows"), [
    ("mi300x", CODER, "fp8", "0.5.7", "false", 64),        # DQ02 / CK10 / CK11: SGLANG_USE_AITER=0
    ("mi300x", CODER, "fp8", "0.5.7", "true", 16),         # aiter's fused MoE
    ("mi300x", CODER, "fp8", "0.5.7", "", 16),             # not given: the ROCm image's AITER on
    ("mi300x", CODER, "fp8", "0.5.8", "false", 16),        # a release whose config lookup was not read
    ("mi300x", CODER, "bf16", "0.5.7", "false", 16),       # 16-bit experts: not the block-FP8 default
    ("mi300x", "deepseek-r1", "fp8", "0.5.7", "false", 16),  # E=256 N=256 at TP 8: a tuned file ships
    ("h200-141gb-sxm", CODER, "fp8", "0.5.7", "false", 16),  # the CUDA build: not modelled here
])
def test_which_jobs_take_the_64_row_tile(kb, accuracy, gpu, model, precision, version, aiter, rows):
    job = _job(accuracy, kb, model, precision, version, aiter)
    assert SV.choose(job, kb.gpus[gpu], 8).engine.expert_tile == rows


def test_one_token_multiplies_four_times_the_expert_rows(kb, accuracy):
    """At one sequence each of the 8 routed experts gets one token, padded to the tile: 64 rows where 16 were
    charged, so the expert FLOPs of a step are 64 / 16 = 4 times; the weights read do not change. At --tp 8 alone
    (E=160, N=320: no tuned file either), where no expert-parallel imbalance weighs the padded rows."""
    jobs = [_job(accuracy, kb, aiter=a, ep=None) for a in ("true", "false")]
    c_on, c_off = (ST.consts(j, s.engine, s.replica) for j, s in
                   ((j, SV.choose(j, kb.gpus["mi300x"], 8)) for j in jobs))
    p_on, p_off = ST._parts(c_on, 1.0, 0.0, 1000.0, 0.0), ST._parts(c_off, 1.0, 0.0, 1000.0, 0.0)
    dense = c_on.f_dense / c_on.ranks / c_on.pp
    assert (p_off[10] - dense) == pytest.approx(4 * (p_on[10] - dense), rel=1e-9)
    assert p_off[8] == pytest.approx(p_on[8])


def test_aiters_walk_is_not_charged_with_aiter_off(kb, accuracy):
    """rocm_block_fp8_walk is aiter's gemm_a8w8_blockscale: DeepSeek-R1 (block FP8) at 0.5.7 on MI300X walks it
    at 2.0 us a 128-deep block with AITER on or unstated, and not with rocm_aiter false (SGLang's own Triton
    block-FP8 GEMM then runs; its walk on gfx942 was not timed)."""
    walk = {a: SV.choose(_job(accuracy, kb, "deepseek-r1", aiter=a), kb.gpus["mi300x"], 8).engine.k_block
            for a in ("true", "", "false")}
    assert walk == {"true": pytest.approx(2.0e-6), "": pytest.approx(2.0e-6), "false": 0.0}


def _said(kb, framework, aiter=None):
    w = {"task": "inference", "model": "deepseek-r1", "precision": "fp8", "framework": framework,
         "prompt_tokens": 1024, "output_tokens": 1024}
    if aiter is not None:
        w["rocm_aiter"] = aiter
    job = resolve(Requirements.model_validate({"workload": w, "constraints": {"gpus": ["mi300x"]}}), kb)
    return [(a.value, a.message_id) for a in job.assumptions if a.field == "workload.rocm_aiter"]


def test_an_unstated_switch_is_said_per_framework(kb):
    assert _said(kb, "sglang") == [(True, "assume.default.workload.rocm_aiter.image_on")]
    assert _said(kb, "vllm") == [(False, "assume.default.workload.rocm_aiter")]
    assert _said(kb, "sglang", False) == [] and _said(kb, "vllm", True) == []
