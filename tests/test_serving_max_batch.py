"""A stated scheduler batch limit (``workload.max_batch_size``) caps the sequences a copy runs at once, per attention
data-parallel rank; the memory's own bound still holds below it.

Rows: serving_independent.csv Y06-Y09 (TensorRT-LLM's performance overview, developer-guide/perf-overview.md at
NVIDIA/TensorRT-LLM commit 03e27c7d) and TR12 (its release 1.2 edition): trtllm-bench throughput with
--extra_llm_api_options and no --max_batch_size / --max_num_tokens. trtllm-bench then sizes both itself
(tensorrt_llm/bench/benchmark/utils/general.py get_settings -> bench/build/build.py get_benchmark_engine_settings):
from the KV cache (bench/build/tuning.py) only for a checkpoint whose quantization is one of TUNED_QUANTS (NVFP4,
FP8, FP8_BLOCK_SCALES, none); any other takes BuildConfig's defaults, max_batch_size 2048 and max_num_tokens 8192
(tensorrt_llm/builder.py). gpt-oss's MXFP4 checkpoint loads as W4A8_MXFP4_MXFP8 on Blackwell (ModelConfig
load_hf_quant_config / get_mxfp4_quant_algo in tensorrt_llm/_torch/model_config.py), outside that set: 2048."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from tests.conftest import validation_row


def _row(rid: str) -> dict:
    return validation_row("serving_independent.csv", rid)


def _choice(kb, accuracy, row: dict, options: str):
    job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                               int(row["output_tokens"]), int(row["prompts"]), int(row["tp"]), int(row["pp"]),
                               int(row["ep"]) if row["ep"] else None, row["kv_precision"] or None,
                               row["framework_version"] or None, options, offline=True)
    return job, SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))


def test_the_rows_state_trtllm_bench_default_for_mxfp4(kb, accuracy):
    """The gpt-oss rows of both editions carry the batch trtllm-bench gives an MXFP4 checkpoint (module docstring)."""
    for rid in ("Y06", "Y07", "Y08", "Y09", "TR12"):
        assert _row(rid)["workload_options"] == "max_batch_size=2048"


def test_a_stated_limit_caps_what_the_memory_holds(kb, accuracy):
    """Y08 (gpt-oss-20b on one B200, 1,024 / 1,024, 3,000 requests queued at once): the memory holds 3,127 sequences
    of 2,048 tokens at FP8 KV (24 layers x 8 KV heads x 64 x 2 x 1 B = 24,576 B a token: 50.3 MB) in TensorRT-LLM's
    pool, 0.9 of what the weights, working set and context (17.3 GB) leave of the driver's 183,359 MiB (192.27 GB):
    157.4 GB; 3,052 while the card was counted at 180e9 B and 0.95 of it. More than the 2,048
    trtllm-bench allows; so the copy runs 2,048 and the other 952 queued requests wait for a slot. (3,071 while the
    checkpoint's attention was counted at MXFP4's 4.25 bits: its BF16 attention, serving.yaml fp4_checkpoints, holds
    0.636 B x (2 - 4.25 / 8) B = 0.934 GB more, 19 sequences of 2,048 x 24,576 B = 50.3 MB.)"""
    row = _row("Y08")
    stated = _choice(kb, accuracy, row, "max_batch_size=2048")[1]
    worked = _choice(kb, accuracy, row, "")[1]
    assert worked.replica.max_seqs == 3127
    assert stated.replica.max_seqs == 2048
    assert stated.replica.free_gpu == worked.replica.free_gpu  # the memory is the same; only the limit is stated


def test_the_limit_holds_per_attention_rank(kb, accuracy):
    """Y06 (gpt-oss-120b DEP2 on 2 x B200): attention data parallel runs one scheduler a rank, each with its own
    max_batch_size, so 2,048 a rank leaves the memory's 1,839 a rank (3,678 a copy: TensorRT-LLM's 0.9 of the
    154.4 GB the weights, working set and context leave of 192.27 GB, over 75.5 MB a sequence; 1,762 at the catalog's
    former 180e9 B) in place; 1,000 a rank caps the copy at 2,000. (1,781 a rank while the attention, which every
    attention rank holds whole, was counted at MXFP4's bits: the checkpoint's BF16 attention is 0.955 B x
    (2 - 4.25 / 8) B = 1.40 GB more a GPU, 19 sequences of 2,048 tokens x 36 layers x 8 x 64 x 2 x 1 B = 75.5 MB.)"""
    row = _row("Y06")
    assert _choice(kb, accuracy, row, "")[1].replica.max_seqs == 3678
    assert _choice(kb, accuracy, row, "max_batch_size=2048")[1].replica.max_seqs == 3678
    assert _choice(kb, accuracy, row, "max_batch_size=1000")[1].replica.max_seqs == 2000


def test_the_capped_batch_meets_the_published_throughput(kb, accuracy):
    """At maximum load every TensorRT-LLM step carries prompts and runs eagerly (the PyTorch backend captures CUDA
    graphs for decode-only batches), so the TPOT is the copy's eager launch floor, and a request's own prefill is
    short beside its 1,024 steps: the throughput is close to 2,048 / TPOT (Little's law, the queued requests
    beyond the 2,048 waiting for a slot). Y08 published 53,491 output tok/s on one B200 (gpuwise 81,094 at the
    memory's 3,000, +52%); TR12 34,737 on one B300 (45,210 at 2,504, +30%)."""
    from gpuwise.estimators.serving.step import consts

    for rid, published in (("Y08", 53491.0), ("TR12", 34737.0)):
        row = _row(rid)
        job, s = _choice(kb, accuracy, row, "max_batch_size=2048")
        got = s.load
        assert got.tpot == pytest.approx(consts(job, s.engine, s.replica).prefill_floor, rel=1e-3)
        assert got.throughput == pytest.approx(2048 / got.tpot, rel=0.01)
        assert got.throughput / published == pytest.approx(1.0, abs=0.10)


def test_the_capacity_formula_names_a_cap_that_binds():
    """The max_concurrent_sequences term says when a scheduler cap, not the memory, sets it, so the figure agrees
    with its formula: Qwen3-Coder-480B FP8 on 8 x MI300X (SGLang, two TP-4 copies, ~60 GB of KV room a GPU, far
    more than 8 sequences of 1,500 tokens) with max_batch_size 8 holds 2 copies x 1 rank x 8 = 16."""
    from gpuwise import estimate

    w = {"task": "inference", "model": "qwen3-coder-480b-a35b", "precision": "fp8", "framework": "sglang",
         "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 16, "max_batch_size": 8}
    g = estimate({"workload": w}, gpu="mi300x", gpus=8).model_dump(mode="json")["gpu"]
    term = next(t for t in g["terms"] if t["name"] == "max_concurrent_sequences")
    assert term["inputs"]["batch_cap_per_rank"] == 8 and term["inputs"]["replicas"] == 2
    assert term["value"] == 2 * 1 * 8 == 16
    assert "workload.max_batch_size" in term["formula"] and "usable -" not in term["formula"]
    # without the cap the memory sets it, as the usual formula says
    g = estimate({"workload": {**w, "max_batch_size": None}}, gpu="mi300x", gpus=8).model_dump(mode="json")["gpu"]
    term = next(t for t in g["terms"] if t["name"] == "max_concurrent_sequences")
    assert "batch_cap_per_rank" not in term["inputs"] and term["value"] > 16
