"""vLLM's ROCm V1 build on gfx908 (MI100) decodes on a Triton kernel with one program a (sequence, KV head) (knowledge/
serving.yaml vllm ``rocm_paged_decode_walk``): the 0.8.5 wheel's vllm/attention/ops/chunked_prefill_paged_decode.py
takes AMD's custom kernel only where vllm/platforms/rocm.py ``on_mi250_mi300()`` (gfx90a, gfx942) holds and else
launches ``kernel_paged_attention_2d`` on (num_seqs, num_kv_heads), walking cdiv(seq_len, 16) cache blocks; the 0.9.1
wheel's default ``unified_attention`` launches ``kernel_unified_attention_2d`` on (query blocks, KV heads), one cache
block a loop iteration, and its custom-kernel gate (``ON_GFX9``: gfx90a, gfx942, gfx950) still leaves gfx908 out. A
block takes 3.12 us, as the unified walk's tile (SGLang's Triton decode program on an H100, sgl-project/sglang pull
request #21775): not timed on an MI100."""

from __future__ import annotations

import importlib

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.support import rocm_paged_walk

ST = importlib.import_module("gpuwise.estimators.serving.step")

# Qwen3-32B (its config.json: 64 layers, 8 KV heads of 128) at TP 4: 2 KV heads a GPU; a BF16 cache token of one head
# is K and V, 2 x 128 x 2 B = 512 B, so 64 x 2 x 512 = 65,536 B a token on each GPU
HEAD_BYTES = 2 * 128 * 2
TOKEN_BYTES_GPU = 64 * 2 * HEAD_BYTES
# one program walks a 16-token block of one head per 3.12 us: 16 x 512 B / 3.12 us = 2.626 GB/s
PROGRAM_B_S = 16 * HEAD_BYTES / 3.12e-6


def _job(accuracy, kb, version: str | None = "0.9.0", precision: str = "int4", options: str = "quantization=gptq"):
    # validation row ST30's conditions: 4 x MI100, TP 4, 1,024 in / 120 out at concurrency 1
    return accuracy.serving_job(kb, "qwen3-32b", precision, "vllm", 1024, 120, 1, 4, 1, framework_version=version,
                                options=options)


def _attention(kb, accuracy, gpu: str, seqs: float, ctx: float, **kw) -> float:
    job = _job(accuracy, kb, **kw)
    s = SV.choose(job, kb.gpus[gpu], 4)
    return ST.step(job, s.engine, s.replica, seqs, 0.0, ctx, 0.0).attention


def test_the_figures_are_the_codes(kb):
    walk = next(f for f in kb.serving.frameworks if f.id == "vllm").rocm_paged_decode_walk
    assert (walk.first, walk.before, walk.vendors, walk.architectures) == ("0.8.5", "0.11.0", ["amd"], ["cdna1"])
    assert (walk.tile_tokens, walk.iteration_us) == (16, 3.12)
    assert kb.gpus["mi100"].architecture == "cdna1"
    # the window ends where the unified kernel's split-KV walk begins
    unified = next(f for f in kb.serving.frameworks if f.id == "vllm").rocm_unified_attention_walk
    assert unified.first == walk.before


def test_one_program_a_head_walks_at_the_blocks_rate(kb, accuracy):
    fw = next(f for f in kb.serving.frameworks if f.id == "vllm")
    rate = rocm_paged_walk(_job(accuracy, kb), fw, kb.gpus["mi100"], 2.0)
    assert rate == (pytest.approx(PROGRAM_B_S, rel=1e-12), pytest.approx(PROGRAM_B_S, rel=1e-12), 0)
    assert pytest.approx(2.626e9, rel=1e-3) == PROGRAM_B_S


def test_one_sequence_at_st30s_context_walks_13_5_ms_a_step(kb, accuracy):
    # a 1,024-token prompt and a mean of 60 generated tokens: 1,084 tokens x 65,536 B = 71.04 MB a GPU, walked by
    # 2 programs (1 sequence x 2 KV heads) at 5.25 GB/s: 13.53 ms, 64 layers x 67.75 blocks x 3.12 us. The card's
    # rate (1.2 TB/s HBM2) would read it in under 0.1 ms
    kv = 1_084 * TOKEN_BYTES_GPU
    assert kv / (2 * PROGRAM_B_S) == pytest.approx(64 * 1_084 / 16 * 3.12e-6, rel=1e-9)
    assert kv / (2 * PROGRAM_B_S) == pytest.approx(13.53e-3, rel=1e-3)
    assert _attention(kb, accuracy, "mi100", 1, 1_084) == pytest.approx(kv / (2 * PROGRAM_B_S), rel=1e-9)


def test_each_sequence_brings_its_own_programs(kb, accuracy):
    # 10 sequences walk ten times the cache with ten times the programs: the same time, while under the card's rate
    assert _attention(kb, accuracy, "mi100", 10, 1_084) == pytest.approx(
        _attention(kb, accuracy, "mi100", 1, 1_084), rel=1e-9)


def test_the_bf16_rows_release_walks_too(kb, accuracy):
    # ST17 / ST18: vLLM 0.8.5, BF16 (a BF16 cache: the same 512 B a head token)
    assert _attention(kb, accuracy, "mi100", 1, 1_084, version="0.8.5", precision="bf16", options="") == (
        pytest.approx(1_084 * TOKEN_BYTES_GPU / (2 * PROGRAM_B_S), rel=1e-9))


@pytest.mark.parametrize("gpu,version", [("mi100", "0.8.4"), ("mi100", None), ("mi250x", "0.9.0"),
                                         ("mi300x", "0.8.5")])
def test_outside_the_window_or_on_a_part_with_the_custom_kernel_nothing_walks(kb, accuracy, gpu, version):
    # before 0.8.5 (not read), a job that states no release, and gfx90a / gfx942, which on_mi250_mi300 / ON_GFX9 admit
    job = _job(accuracy, kb, version=version)
    s = SV.choose(job, kb.gpus[gpu], 4)
    assert s.engine.kv_walk == 0.0


def test_from_0_11_0_the_unified_kernels_split_walk_takes_over(kb, accuracy):
    # ST19 (0.11.0): 16 programs a (sequence, KV head) at a small batch, rocm_unified_attention_walk's rate
    s = SV.choose(_job(accuracy, kb, version="0.11.0", precision="bf16", options=""), kb.gpus["mi100"], 4)
    assert s.engine.kv_walk == pytest.approx(16 * PROGRAM_B_S, rel=1e-12)
    assert s.engine.kv_walk_grid == 128


def test_the_report_names_the_paged_kernel(kb, accuracy):
    # the formula's part says which kernel walks, and its rate: 2 heads' programs are priced per KV head, 2.63 GB/s
    from gpuwise.estimators.serving.report import _kv_walk

    s = SV.choose(_job(accuracy, kb), kb.gpus["mi100"], 4)
    phrases, values = _kv_walk(s)
    assert "formula.serving.kv_walk_paged" in repr(phrases)
    assert values == {"kv_walk_bytes_per_s_per_kv_head": pytest.approx(PROGRAM_B_S, rel=1e-12)}
