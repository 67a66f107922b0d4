"""CMP-NO-ROOM-TO-SERVE states its figures per GPU of the sharded copy, never the unsharded model:
Llama 3.1 70B in BF16 on 2 x H100 at a 128K context, checked by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpuwise.decide.audit import audit

# Llama 3.1 70B: 70,553,706,496 parameters (Hugging Face safetensors total, meta-llama/Llama-3.1-70B),
# 80 layers, 8 KV heads of 128 (config.json)
PARAMS = 70_553_706_496
KV_PER_TOKEN = 80 * 8 * 128 * 2 * 2  # K and V, BF16: 327,680 B per token for the whole model


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("room")) / "p70.yaml"
    path.write_text(yaml.safe_dump({
        "title": "Serve Llama 3.1 70B BF16 on 2 x H100",
        "workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "bf16",
                     "context_len": 131072, "concurrent_requests": 1},
        "hardware": {"gpu": "H100-80G", "count": 2, "nodes": 1, "link": "nvswitch"},
        "acquisition": {"mode": "rent", "provider": "lambda", "hourly_usd": 3.99}}))
    return audit(str(path))


def _finding(res, rule):
    return next(f for f in res.findings if f.rule == rule)


def test_no_room_to_serve_states_per_gpu_figures_of_the_sharded_copy(result):
    f = _finding(result, "CMP-NO-ROOM-TO-SERVE")
    v = f.values
    # tensor parallel 2: half the BF16 weights on each GPU (70.55 GB, not the 141.1 GB of the whole model)
    assert v["serving_weights_gb"] == pytest.approx(PARAMS * 2 / 2 / 1e9, rel=1e-6)
    # vLLM keeps a sequence's prompt (65,536) and half its output (32,768) at admission, 16-token blocks:
    # 98,304 tokens x 327,680 B / 2 GPUs = 16.1 GB per GPU
    assert v["sequence_gb"] == pytest.approx(98_304 * KV_PER_TOKEN / 2 / 1e9, rel=1e-6)
    assert v["kv_free_gb"] < v["sequence_gb"]  # why not one sequence fits
    assert v["kv_free_gb"] + v["serving_weights_gb"] < 81.3  # the room is of one GPU's 81.2 GB usable
    assert "70.6 GB per GPU" in f.message and "16.1 GB per GPU" in f.message
    assert "2 GPUs per model copy" in f.message
    assert "141" not in f.message and "174" not in f.message


def test_memory_finding_names_the_layout_it_tried(result):
    """MEM-NO-FIT reads "even with tensor parallel 2", not the unfit label ("even with does not fit:
    ..."); its need is per GPU: the half weights plus one sequence's half KV cache and the working set."""
    f = _finding(result, "MEM-NO-FIT")
    assert "even with tensor parallel 2;" in f.message
    assert "does not fit" not in f.message
    half = PARAMS * 2 / 2 / 1e9 + 98_304 * KV_PER_TOKEN / 2 / 1e9  # 86.66 GB
    # + the working set of vLLM's 8,192-token step budget, held beside the decodes at the decode end (hidden 8192,
    # MLP 28672: 8 B x 8192 + 6 B x 28672 a token, and one sequence's fp32 logits of 128,256), over the 2 GPUs,
    # with the 5% allocator allowance, and the 1 GiB CUDA context (runtime.yaml)
    work = (8_192 * (8 * 8_192 + 6 * 28_672) + 4 * 128_256) / 2  # 973,335,040 B
    # + what vLLM's start-up profile run holds beyond the serving copy's working set, kept from its KV pool: the
    # dummy sampler pass over min(max_num_seqs 1,024, 8,192) requests, 37.7 B a logit of the 128,256-entry
    # vocabulary (serving.yaml vllm profile_sampler), less the step's working set with 1,024 sequences' logits
    sampler = 37.7 * 128_256 * 1_024  # 4,951,294,771 B
    beyond = sampler - (8_192 * (8 * 8_192 + 6 * 28_672) + 4 * 128_256 * 1_024) / 2  # 3,715,547,955 B
    assert f.values["need_gb"] == pytest.approx(half + (work * 1.05 + 2**30 + beyond) / 1e9, rel=1e-6)
