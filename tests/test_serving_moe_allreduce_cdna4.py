"""vLLM's tensor-parallel all-reduce on CDNA 4 (serving.yaml vllm architecture_overrides.cdna4): the ROCm custom
all-reduce timed alone on 8 x MI355X (vllm-project/vllm pull request #39080, TP8 BF16 at hidden 3,072, column
'vllm'): 6.3 us at 4 tokens (24 KB), 7.6 us at 16 tokens (96 KB), 13.1 us at 64 tokens (384 KB). The step prices
each all-reduce as that latency plus the ring share 2 x 7/8 of the message over the link figure. Figures by hand."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.step import _tp_allreduce_stage, consts
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

HIDDEN_R1 = 7168  # DeepSeek-R1's hidden size (config.json hidden_size)
LAYERS_R1 = 61  # num_hidden_layers: two all-reduces a layer at tensor parallel 8


def _r1(kb, gpu: str):
    w = {"task": "inference", "model": "deepseek-r1", "precision": "fp8", "framework": "vllm",
         "prompt_tokens": 1024, "output_tokens": 1024, "parallelism": {"tp": 8, "pp": 1}}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(job, kb.gpus[gpu], 8)
    assert s.replica.layout.tp == 8 and s.replica.layout.dp_attention == 1
    return job, consts(job, s.engine, s.replica)


def test_mi355x_takes_the_kernels_latency_and_mi300x_keeps_the_vendor_figure(kb):
    _, c = _r1(kb, "mi355x")
    assert c.allreduce_latency == pytest.approx(6.3e-6)
    _, c = _r1(kb, "mi300x")
    assert c.allreduce_latency == pytest.approx(25e-6)  # vendor_overrides.amd, a whole-step reading on CDNA 3


def test_one_all_reduce_lies_between_the_published_readings_around_its_size(kb):
    """R1 at 4 sequences: 4 x 7,168 x 2 B = 57,344 B, between the pull request's 48 KB (6.7 us) and 96 KB (7.6 us)
    points. The step's figure: 6.3 us + 1.75 x 57,344 B / link = 6.3 + 0.25 = 6.55 us at the MI355X's 403 GB/s
    (gpus.yaml 1,075 GB/s at the layout's share); the measured pair brackets it within 3%."""
    _, c = _r1(kb, "mi355x")
    one = _tp_allreduce_stage(c, 4.0) / (2 * LAYERS_R1)
    by_hand = 6.3e-6 + 2 * 7 / 8 * 4 * HIDDEN_R1 * 2 / c.link_bw
    assert one == pytest.approx(by_hand)
    assert 6.3e-6 <= one <= 7.6e-6


def test_a_decode_step_of_four_pays_a_fifth_of_what_the_vendor_figure_charged(kb):
    """122 all-reduces a step: 122 x 6.55 us = 0.80 ms on MI355X, where 25 us each gave 3.08 ms (the AM01 step of
    session 22's reading: 3.1 ms of its 16.4 ms)."""
    _, c = _r1(kb, "mi355x")
    step = _tp_allreduce_stage(c, 4.0)
    assert step == pytest.approx(2 * LAYERS_R1 * (6.3e-6 + 1.75 * 4 * HIDDEN_R1 * 2 / c.link_bw))
    assert 0.75e-3 < step < 0.85e-3
