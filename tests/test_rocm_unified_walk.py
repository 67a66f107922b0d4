"""vLLM's ROCm build with AITER off decodes on its Triton unified attention kernel (knowledge/serving.yaml vllm
``rocm_unified_attention_walk``): vllm/platforms/rocm.py of the 0.11.0-0.18.0 wheels returns TRITON_ATTN by default,
and vllm/v1/attention/ops/triton_unified_attention.py (0.15.1 wheel) gives a decode-only step of at most
128 / KV heads sequences the split-KV kernel, 16 segments (NUM_PAR_SOFTMAX_SEGMENTS) a (sequence, KV head), each
walking tiles of 16 tokens (TILE_SIZE_DECODE for a 16-bit query), and a larger batch one program a (sequence, KV head)
walking tiles of 32 (TILE_SIZE_PREFILL). A tile takes 3.12 us: SGLang's Triton decode program on an H100 (sglang
``triton_decode_walk``, 5.25 GB/s over its 32-token tile of 512 B tokens; sgl-project/sglang pull request #21775)."""

from __future__ import annotations

import importlib

import pytest

from gpuwise.estimators import serving as SV

ST = importlib.import_module("gpuwise.estimators.serving.step")

# Llama-3.3-70B at TP 8: 80 layers, 8 KV heads of 128, so one KV head a GPU; K and V in BF16 (the run's default
# cache dtype): 2 x 128 x 2 B = 512 B a token a head, 80 x 512 = 40,960 B a token on each GPU
HEAD_BYTES = 2 * 128 * 2
TOKEN_BYTES_GPU = 80 * HEAD_BYTES


def _engine(kb, accuracy, version: str = "0.15.1", options: str = "", gpu: str = "mi355x", model="llama-3.1-70b",
            precision="fp8"):
    # llm-d's MI355X table, validation row SH44: 8 x MI355X, TP 8, vLLM 0.15.1, 16,384 in / 2,048 out at 4
    job = accuracy.serving_job(kb, model, precision, "vllm", 16384, 2048, 4, 8, 1, framework_version=version,
                               options=options)
    s = SV.choose(job, kb.gpus[gpu], 8)
    return job, s.engine, s.replica


def _attention(kb, accuracy, seqs: float, ctx: float, **kw) -> float:
    job, eng, rep = _engine(kb, accuracy, **kw)
    return ST.step(job, eng, rep, seqs, 0.0, ctx, 0.0).attention


def test_the_tile_time_is_sglangs_reading(kb):
    # sglang triton_decode_walk: a 32-token tile of Qwen3-8B's 512 B head tokens at 5.25 GB/s a program
    sglang = next(f for f in kb.serving.frameworks if f.id == "sglang").triton_decode_walk
    assert 32 * 512 / (sglang.program_gb_s * 1e9) * 1e6 == pytest.approx(3.12, abs=0.005)
    walk = next(f for f in kb.serving.frameworks if f.id == "vllm").rocm_unified_attention_walk
    assert walk.iteration_us == 3.12


def test_the_figures_are_the_codes(kb):
    walk = next(f for f in kb.serving.frameworks if f.id == "vllm").rocm_unified_attention_walk
    assert (walk.segments, walk.launch_grid, walk.decode_tile_tokens, walk.prefill_tile_tokens) == (16, 128, 16, 32)
    assert (walk.first, walk.before, walk.vendors) == ("0.11.0", "0.19.0", ["amd"])


def test_four_sequences_walk_the_cache_at_their_programs_rate(kb, accuracy):
    # SH44's decode at a mean context of 16,384 + 2,048 / 2 = 17,408 tokens: 4 x 17,408 x 40,960 B = 2.852 GB on each
    # GPU, walked by 4 sequences x 1 head x 16 programs at 16 x 512 B / 3.12 us = 2.626 GB/s each (168.0 GB/s):
    # 16.97 ms a step, where the card's rate would read it in about half a millisecond
    kv = 4 * 17_408 * TOKEN_BYTES_GPU
    rate = 4 * 16 * 16 * HEAD_BYTES / 3.12e-6
    assert kv / rate == pytest.approx(16.97e-3, rel=1e-3)
    assert _attention(kb, accuracy, 4, 17_408) == pytest.approx(kv / rate, rel=1e-9)


def test_the_walk_takes_the_same_time_at_4_and_16_sequences(kb, accuracy):
    # each sequence brings its own 16 programs: the step's attention follows the context, not the load (llm-d's
    # median TPOTs grow 9.7 and 8.4 ms from 4k to 16k contexts at 4 and 16 sequences)
    assert _attention(kb, accuracy, 16, 17_408) == pytest.approx(_attention(kb, accuracy, 4, 17_408), rel=1e-9)


def test_past_the_launch_grid_one_program_walks_a_sequence(kb, accuracy):
    # 256 sequences x 1 KV head > 128: the 2D kernel, one program a sequence at 32 x 512 B / 3.12 us = 5.25 GB/s,
    # 1.344 TB/s together, below the card's rate: 256 x 1,152 x 40,960 B = 12.08 GB in 8.99 ms
    kv = 256 * 1_152 * TOKEN_BYTES_GPU
    rate = 256 * 32 * HEAD_BYTES / 3.12e-6
    assert kv / rate == pytest.approx(8.99e-3, rel=1e-3)
    assert _attention(kb, accuracy, 256, 1_152) == pytest.approx(kv / rate, rel=1e-9)


def test_aiter_on_reads_the_cache_at_the_cards_rate(kb, accuracy):
    eng = _engine(kb, accuracy, options="rocm_aiter=true")[1]
    assert eng.kv_walk == 0.0
    assert _attention(kb, accuracy, 4, 17_408, options="rocm_aiter=true") == pytest.approx(
        4 * 17_408 * TOKEN_BYTES_GPU / eng.bw_kv, rel=1e-9)


@pytest.mark.parametrize("kw", [{"version": "0.10.0"}, {"version": "0.19.0"}, {"gpu": "h100-80gb-sxm"}])
def test_outside_the_releases_read_or_off_amd_nothing_walks(kb, accuracy, kw):
    assert _engine(kb, accuracy, **kw)[1].kv_walk == 0.0


def test_a_job_that_states_no_release_gets_the_current_default(kb, accuracy):
    # 0.19.0 ranks ROCM_ATTN first (vllm-project/vllm pull request #36702): not this kernel
    job = accuracy.serving_job(kb, "llama-3.1-70b", "fp8", "vllm", 16384, 2048, 4, 8, 1)
    assert SV.choose(job, kb.gpus["mi355x"], 8).engine.kv_walk == 0.0


def test_the_aiter_runs_say_so():
    # InferenceX's gpt-oss-120b runs on MI300X (vLLM 0.17.0): benchmarks/single_node/gptoss_fp4_mi300x.sh at 509c9b6b
    # and 5261b0a2 exports VLLM_ROCM_USE_AITER=1 and passes --attention-backend ROCM_AITER_UNIFIED_ATTN, so the rows
    # state AITER on and their attention is not this kernel's
    import csv
    from pathlib import Path

    data = Path(__file__).resolve().parent / "data" / "validation"
    want = {"E04": "decode_independent.csv", **{f"V{n:02d}": "serving_independent.csv" for n in range(8, 13)}}
    got = {}
    for name in set(want.values()):
        with (data / name).open(newline="") as fh:
            got.update({r["id"]: r for r in csv.DictReader(fh) if want.get(r["id"]) == name})
    assert sorted(got) == sorted(want)
    for rid, row in got.items():
        assert "rocm_aiter=true" in row["workload_options"].split(";"), rid
        assert row["framework_version"] == "0.17.0", rid
