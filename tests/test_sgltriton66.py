"""sgltriton66: SGLang's Triton split-KV decode at many sequences (knowledge/serving.yaml sglang triton_decode_walk
programs_per_sm, block_heads; gpus.yaml B200 peaks.sms). Two things of the 0.5.7 kernel the batch-one walk left out:
the GPU holds only SMs x 2 of its programs at once (255 registers a thread x 128 threads against an SM's 65,536), a
KV head's query heads past 16 taking a second program that reads the same cache; and get_num_kv_splits_triton
sizes every sequence's share from the batch's longest sequence. Worked by hand below; the rows are the SGLang
cookbook's GLM-4.7-Flash runs on one B200 (validation SI07-SI12, README section sgltriton66)."""

from __future__ import annotations

import pytest

from gpuwise import estimate
from gpuwise.knowledge import load

# GLM-4.7-Flash (zai-org/GLM-4.7-Flash config.json): 47 layers, 20 query heads on one latent of 512 + 64 elements,
# BF16 (2 B): 47 x 576 x 2 = 54,144 B of cache a token.
TOKEN_B = 47 * 576 * 2
PROGRAM_B_S = 5.25e9  # serving.yaml triton_decode_walk program_gb_s (sgl-project/sglang pull request #21775)


def _flash(conc: int, prompt: int, output: int, backend: str | None = "triton", gpu: str = "b200") -> dict:
    w = {"task": "inference", "model": "glm-4.7-flash", "framework": "sglang", "precision": "bf16",
         "prompt_tokens": prompt, "output_tokens": output, "concurrent_requests": conc}
    if backend:
        w["attention_backend"] = backend
    return {t.name: t for t in estimate({"workload": w}, gpu=gpu, gpus=1).gpu.terms}


def test_the_knowledge_holds_the_kernels_residency() -> None:
    kb = load()
    walk = kb.framework("sglang").triton_decode_walk
    assert (walk.programs_per_sm, walk.block_heads, walk.max_kv_splits) == (2, 16, 8)
    assert "pytorch/ao pull request #4002" in walk.source and "255 registers" in walk.source
    assert kb.gpus["b200"].peaks.sms == 148


def test_the_b200_reads_a_20_head_latent_at_its_resident_programs_rate() -> None:
    # 148 SMs x 2 programs x 5.25 GB/s = 1,554 GB/s of program reads; 20 query heads on one latent are
    # cdiv(20, 16) = 2 programs a split, each reading the latent: 777 GB/s of cache at most.
    t = _flash(64, 497, 4066)["tpot_s"]
    assert "formula.serving.kv_walk_slots" in repr(t.formula_phrases) and "2 of them reading" in t.formula
    assert t.inputs["kv_walk_resident_bytes_per_s"] == pytest.approx(148 * 2 * PROGRAM_B_S)
    assert t.inputs["kv_walk_cap_bytes_per_s"] == pytest.approx(148 * 2 * PROGRAM_B_S / 2)
    # 64 sequences at a mean context of 497 + 4,066 / 2 = 2,530 tokens: 64 x 2,530 x 54,144 B = 8.767 GB a step.
    # Longest-share walk: at most 4,563 tokens x 54,144 B / (8 x 5.25 GB/s) = 5.88 ms; resident programs: 8.767 GB /
    # 777 GB/s = 11.28 ms (the B200's 7.7 TB/s is far above both): the residency sets it.
    walked = 64 * 2530 * TOKEN_B
    assert t.inputs["attention_s"] == pytest.approx(walked / (148 * PROGRAM_B_S), rel=1e-3)
    assert walked / (148 * PROGRAM_B_S) > 4563 * TOKEN_B / (8 * PROGRAM_B_S)


def test_at_a_few_sequences_the_longest_ones_share_sets_the_walk() -> None:
    # 16 sequences, 496 + 3,979 tokens: 16 x 8 splits x 2 head blocks = 256 programs, inside the 296 a B200 holds.
    # get_num_kv_splits_triton (0.5.7 triton_backend.py): kv_chunk_size = cdiv(max_seq_len, 8), so each program
    # walks at most the longest sequence's eighth whatever its own sequence's length, and the step lasts that walk.
    # 16 sequences spread evenly over their 3,979 output tokens: the longest is 16 / 17 of the way, 496 + 3,979 x
    # 16 / 17 = 4,241.1 tokens, x 54,144 B / 42 GB/s = 5.467 ms, where the mean context (2,485.5) gave 3.204 ms.
    t = _flash(16, 496, 3979)["tpot_s"]
    assert t.inputs["attention_s"] == pytest.approx((496 + 3979 * 16 / 17) * TOKEN_B / (8 * PROGRAM_B_S), rel=1e-3)
    assert t.inputs["attention_s"] > 16 * 2485.5 * TOKEN_B / (148 * PROGRAM_B_S)


def test_one_sequence_and_other_backends_keep_their_walk() -> None:
    # One sequence: its own length is the longest, 8 programs a head block at 5.25 GB/s (the batch-one reading):
    # 496 + 3,979 / 2 = 2,485.5 tokens x 54,144 B / 42 GB/s = 3.204 ms.
    one = _flash(1, 496, 3979)["tpot_s"]
    assert one.inputs["attention_s"] == pytest.approx(2485.5 * TOKEN_B / (8 * PROGRAM_B_S), rel=1e-3)
    other = _flash(64, 497, 4066, backend=None)["tpot_s"]
    assert "kv_walk_cap_bytes_per_s" not in other.inputs and "kv_walk_bytes_per_s_per_kv_head" not in other.inputs


def test_a_gpu_without_an_sm_count_gets_no_residency_limit() -> None:
    # The GB200's SM count is not in the catalog (peaks.sms None; the H200's is since smcount66): the walk is 8
    # programs a sequence, 42 GB/s x 64 sequences = 2,688 GB/s, below its 8 TB/s; the longest share (497 + 4,066 x
    # 64 / 65 = 4,500.4 tokens) sets it: 4,500.4 x 54,144 B / 42 GB/s = 5.80 ms.
    assert load().gpus["gb200"].peaks.sms is None
    t = _flash(64, 497, 4066, gpu="gb200")["tpot_s"]
    assert "kv_walk_cap_bytes_per_s" not in t.inputs
    assert t.inputs["attention_s"] == pytest.approx((497 + 4066 * 64 / 65) * TOKEN_B / (8 * PROGRAM_B_S), rel=1e-3)


def test_one_sequence_a_gpu_keeps_its_own_length(kb, accuracy) -> None:
    # A kernel that holds one sequence splits it by its own length: of n = 1 the longest is the mean, (n - 1) /
    # (n + 1) = 0, so a GPU of one sequence (concurrency 1, or one per rank under attention data parallel) walks as
    # at batch one whatever the load's spread; at 3 sequences the longest stands 3 / 4 of the way: 496 + 3,979 x 3 /
    # 4 = 3,480.25 tokens, the walk 3,480.25 / 2,485.5 = 1.400 times the mean's.
    from gpuwise.estimators import serving as SV
    from gpuwise.estimators.serving.step import _parts, consts

    job = accuracy.serving_job(kb, "glm-4.7-flash", "bf16", "sglang", 496, 3979, framework_version="0.5.7",
                               options="attention_backend=triton")
    s = SV.choose(job, kb.gpus["b200"], 1)
    c = consts(job, s.engine, s.replica)
    mean, end = 496 + 3979 / 2, 496 + 3979
    assert _parts(c, 1.0, 0.0, mean, 0.0, end)[2] == _parts(c, 1.0, 0.0, mean, 0.0)[2]
    walk = 3 * mean * TOKEN_B / (3 * 8 * PROGRAM_B_S)
    assert _parts(c, 3.0, 0.0, mean, 0.0)[2] == pytest.approx(walk, rel=1e-9)
    assert _parts(c, 3.0, 0.0, mean, 0.0, end)[2] == pytest.approx(walk * 3480.25 / 2485.5, rel=1e-9)


def test_the_cookbooks_triton_rows_read_closer(tmp_path) -> None:
    # SI07-SI12 (the SGLang cookbook's GLM-4.7-Flash runs on one B200 with --attention-backend triton, validation
    # README 'Rows SI01-SI18'): est / published output tok/s was 1.332 / 1.252 / 1.533 / 1.715 / 1.740 / 2.114 with
    # the batch-one walk alone (README section sgltriton66, 'before'). The 64- and 100-client runs, whose grids pass
    # the B200's 296 resident programs, and the 16-client 1k/8k run, whose lengths run 496 to 4,475, now read within
    # 1.35x; every row still reads fast (the runs' drain, and the 8k-prompt runs' prefills, are not this kernel's).
    from .validation_rows import serving_ratios

    ratios = serving_ratios(load(), tmp_path, {"SI07", "SI08", "SI09", "SI10", "SI11", "SI12"})
    for row_id in ("SI08", "SI09", "SI10"):
        assert 1.0 < ratios[row_id] < 1.35, (row_id, ratios[row_id])
    assert 1.0 < ratios["SI12"] < 1.5 and all(r > 1.0 for r in ratios.values())
