"""Hostile round 28: the three gaps round 27 saw and left, and what round 28 of benchmarks/hostile_corpus.py found,
each fix with a test that fails without it. The whole round is benchmarks/hostile_round28.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .clirun import gpuwise


def _one_line(r, code: int = 2) -> str:
    assert r.returncode == code, (r.stdout[-300:], r.stderr)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr


# ------------------------------------------------------------------ training-only knobs on an inference workload
SERVE = "task: inference, model: llama-3.1-8b, prompt_tokens: 1000, output_tokens: 200"


@pytest.mark.parametrize("knob, field", [
    ("zero_stage: 3", "zero_stage"),
    ("mixed_precision: false", "mixed_precision"),
    ("tp_comm_overlap: true", "tp_comm_overlap"),  # refused as training-only before its stack is asked for
    ("stack: nemo", "stack"),
    ("global_batch_tokens: 1.0e+6", "global_batch_tokens"),
    ("optimizer: adamw-8bit", "optimizer"),
    ("batch_size: 8", "batch_size"),  # a serving batch is concurrent_requests or max_batch_size
    ("offload: cpu", "offload"),
    ("gradient_checkpointing: true", "gradient_checkpointing"),
    ("train_tokens: 1.0e+9", "train_tokens"),
    ("torch_compile: true", "torch_compile"),
    ("parallelism: {tp: 2, cp: 2}", "parallelism.cp"),
    ("parallelism: {vpp: 2}", "parallelism.vpp"),
])
def test_a_training_knob_on_an_inference_workload_is_refused(tmp_path: Path, knob: str, field: str) -> None:
    # round 27's seen-and-left: zero_stage: 3 or mixed_precision: false on a service was accepted and ignored (the
    # serving estimate reads none of them), where kv_cache_tokens on a fine-tune is refused (round 26)
    (tmp_path / "r.yaml").write_text(f"workload: {{{SERVE}, {knob}}}\n", encoding="utf-8")
    err = _one_line(gpuwise("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path))
    assert err.startswith(f"gpuwise: r.yaml: workload.{field}: {field} is a training setting (task pretrain or "
                          "finetune), which an inference estimate does not read: leave it out"), err
    zh = _one_line(gpuwise("recommend", "r.yaml", "--lang", "zh", cwd=tmp_path))
    assert f"workload.{field}: {field} 是训练设置" in zh, zh


@pytest.mark.parametrize("knob", [
    "mixed_precision: true", "zero_stage: 0", "global_batch_tokens: auto", "offload: auto",  # the defaults say nothing
    "parallelism: {tp: 2}", "attention: eager", "precision: fp8",  # these a serving estimate reads
])
def test_a_field_serving_reads_or_a_default_stays_accepted(tmp_path: Path, knob: str) -> None:
    (tmp_path / "r.yaml").write_text(f"workload: {{{SERVE}, {knob}}}\n", encoding="utf-8")
    r = gpuwise("estimate", "r.yaml", "--gpu", "h100", "--gpus", "2", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr


def test_a_training_knob_is_refused_in_a_proposal_and_a_plan_naming_its_place(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(f"title: t\nworkload: {{{SERVE}, zero_stage: 3}}\nhardware: {{gpu: H100 SXM, "
                                     "count: 2}\nacquisition: {mode: rent, provider: lambda}\n", encoding="utf-8")
    assert "p.yaml: workload.zero_stage: zero_stage is a training setting" in _one_line(
        gpuwise("audit", "p.yaml", cwd=tmp_path))
    (tmp_path / "plan.yaml").write_text(f"horizon_months: 2\nworkloads: [{{name: a, workload: {{{SERVE}, "
                                        "mixed_precision: false}, cadence: {continuous: true}}]\n", encoding="utf-8")
    assert "plan.yaml: workloads[0].workload.mixed_precision: mixed_precision is a training setting" in _one_line(
        gpuwise("plan", "plan.yaml", cwd=tmp_path))
