"""SGLang's Triton decode attention at a few sequences (knowledge/serving.yaml sglang ``triton_decode_walk``,
``workload.attention_backend``): each sequence's KV head is split over at most 8 programs (server_args.py
triton_attention_num_kv_splits = 8 in the sglang 0.5.7 wheel; triton_backend.py get_num_kv_splits_triton gives one
sequence all 8), each walking its share at 5.25 GB/s, read off sgl-project/sglang pull request #21775's H100 table
(Qwen3-8B at batch 1, 'Old Triton': 141.37 tok/s at 1,000 input tokens, 48.35 at 32,000)."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV


def _step(kb, accuracy, backend: str | None, gpu: str = "b200", seqs: float = 1.0) -> float:
    job = accuracy.serving_job(kb, "glm-4.7-flash", "bf16", "sglang", 4194, 422, framework_version="0.5.7",
                               options=f"attention_backend={backend}" if backend else "")
    s = SV.choose(job, kb.gpus[gpu], 1)
    return SV.point(job, s.engine, s.replica, seqs).decode_step


def test_the_program_rate_is_the_sources_slope():
    # Qwen3-8B: 36 layers x 8 KV heads x 128 x (K, V) x 2 B; a step walks 36 x 512 B / 8 splits a context token
    # a program, and the table's two ends differ by 0.439 us a step per context token
    per_token_s = (1 / 48.35 - 1 / 141.37) / (32_000 - 1_000)
    assert 36 * 512 / 8 / per_token_s / 1e9 == pytest.approx(5.25, abs=0.01)


def test_the_figure_is_the_sources(kb):
    walk = next(f for f in kb.serving.frameworks if f.id == "sglang").triton_decode_walk
    assert (walk.backend, walk.max_kv_splits, walk.program_gb_s, walk.vendors) == ("triton", 8, 5.25, ["nvidia"])


def test_one_sequence_walks_the_latent_at_8_programs(kb, accuracy):
    # GLM-4.7-Flash's latent cache: 47 layers x (512 + 64) x 2 B = 54,144 B a token, one KV head; the run's mean
    # context 4,194 + 422 / 2 = 4,405 tokens: 238.5 MB a step at 8 x 5.25 = 42 GB/s = 5.68 ms, where the default
    # backend reads it at the card's rate (the step's difference is the walk less that read)
    walked = 54_144 * 4_405 / 42e9
    assert walked == pytest.approx(5.68e-3, rel=1e-3)
    job = accuracy.serving_job(kb, "glm-4.7-flash", "bf16", "sglang", 4194, 422, framework_version="0.5.7")
    bw = SV.choose(job, kb.gpus["b200"], 1).engine.bw_kv
    gap = _step(kb, accuracy, "triton") - _step(kb, accuracy, None)
    assert gap == pytest.approx(walked - 54_144 * 4_405 / bw, rel=1e-3)


def test_another_backend_or_an_amd_gpu_is_unchanged(kb, accuracy):
    assert _step(kb, accuracy, "flashinfer") == _step(kb, accuracy, None)
    # 16 splits on a HIP build and no rate read on AMD: not priced
    assert _step(kb, accuracy, "triton", "mi300x") == _step(kb, accuracy, None, "mi300x")


def test_many_sequences_read_at_the_cards_rate(kb, accuracy):
    # 200 sequences x 42 GB/s = 8.4 TB/s, beyond a GB200's 8 TB/s x its read share: the card's bandwidth binds, as
    # before (the longest share, 1.05 x the mean here, leaves 8.0 TB/s); 50 sequences (2.1 TB/s) still walk. The
    # GB200 has no SM count in the catalog, so no residency limit. On a B200 or an H200 (smcount66: 132 SMs) the
    # GPU's resident programs bind first (sgltriton66: SMs x 2 programs x 5.25 GB/s over GLM-4.7-Flash's 2 head
    # blocks, 777 and 693 GB/s), so 200 sequences walk there (tests/test_sgltriton66.py, tests/test_smcount66.py)
    gb200 = "gb200"
    assert kb.gpus[gb200].peaks.sms is None
    assert _step(kb, accuracy, "triton", gb200, seqs=200.0) == _step(kb, accuracy, None, gb200, seqs=200.0)
    assert _step(kb, accuracy, "triton", gb200, seqs=50.0) > _step(kb, accuracy, None, gb200, seqs=50.0)
    assert _step(kb, accuracy, "triton", seqs=200.0) > _step(kb, accuracy, None, seqs=200.0)
    h200 = "h200-141gb-sxm"
    assert _step(kb, accuracy, "triton", h200, seqs=200.0) > _step(kb, accuracy, None, h200, seqs=200.0)


def test_another_framework_is_told_the_setting_is_sglangs():
    from gpuwise.inputs.schema import Requirements

    with pytest.raises(ValueError, match="attention_backend names an SGLang server setting"):
        Requirements.model_validate({"workload": {"task": "inference", "model": "glm-4.7-flash",
                                                  "framework": "vllm", "attention_backend": "triton"}})
