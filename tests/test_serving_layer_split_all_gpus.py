"""A layer-split engine (llama.cpp) spreads one copy's layers over every GPU it is given: its default split
mode puts a contiguous slice of layers on each visible GPU (ggml-org/llama.cpp docs/multi-gpu.md, 'layer
(default): pipeline parallelism'). The doubling ladder of copy sizes (1, 2, 4... GPUs) would leave a third
card idle and call a model that needs all three too big for the rig."""

from __future__ import annotations

import pytest

from gpuwise import knowledge
from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.engine import engine as serving_engine
from gpuwise.estimators.serving.layout import layouts
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _job(kb, model: str, precision: str, framework: str):
    w = {"task": "inference", "model": model, "precision": precision, "framework": framework,
         "prompt_tokens": 512, "output_tokens": 128, "concurrent_requests": 1}
    return resolve(Requirements.model_validate({"workload": w}), kb)


def test_three_cards_hold_gpt_oss_120b_in_one_layer_split_copy(kb):
    """gpt-oss-120b's MXFP4 GGUF is 59.02 GiB (llama-bench's size column, llama.cpp pull request #15525): more than
    two 24 GB RTX 4090s hold, less than three (72 GB)."""
    job = _job(kb, "gpt-oss-120b", "fp4", "llama.cpp")
    s = SV.choose(job, kb.gpus["rtx-4090"], 3)
    assert s.replica.fits and s.layout.pp == 3 and s.layout.replicas == 1
    assert not SV.choose(_job(kb, "gpt-oss-120b", "fp4", "llama.cpp"), kb.gpus["rtx-4090"], 2).replica.fits


def test_the_whole_rig_copy_is_offered_only_where_the_ladder_misses_it(kb):
    job = _job(kb, "gpt-oss-120b", "fp4", "llama.cpp")
    eng = serving_engine(job, kb.gpus["rtx-4090"])
    assert [lay.pp for lay in layouts(job, eng, 3)] == [1, 2, 3]
    assert [lay.pp for lay in layouts(job, eng, 4)] == [1, 2, 4]  # a power of two: the ladder's own
    vjob = _job(kb, "gpt-oss-120b", "fp4", "vllm")  # tensor-split engines keep the ladder
    assert all(lay.gpus_per_copy in (1, 2) for lay in layouts(vjob, serving_engine(vjob, kb.gpus["h100-80gb-sxm"]), 3))
