"""What review33 found as a new user, and the leftovers it was given: TensorRT-LLM's prompt hold accepted (and
priced) on any framework, host-server prices never judged stale by recommend or audit, and DGX Spark unpriced."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .clirun import gpuwise

SERVE = "task: inference, model: llama-3.1-8b, prompt_tokens: 1000, output_tokens: 200, concurrent_requests: 16"


def _one_line(r, code: int = 2) -> str:
    assert r.returncode == code, (r.stdout[-300:], r.stderr)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr


# ------------------------------------------------------------------ batch_wait_* off TensorRT-LLM
@pytest.mark.parametrize("framework", ["vllm", "sglang", "llama.cpp", None])
@pytest.mark.parametrize("field, value, knob", [
    ("batch_wait_steps", "40", "batch_wait_timeout_iters"),
    ("batch_wait_token_fraction", "0.8", "batch_wait_max_tokens_ratio"),
])
def test_tensorrt_llms_prompt_hold_is_refused_on_another_engine(tmp_path: Path, framework: str | None, field: str,
                                                                value: str, knob: str) -> None:
    # the hold is TensorRT-LLM's PyTorch scheduler (py_executor.py _waiting_requests, batch_wait_timeout_iters /
    # batch_wait_max_tokens_ratio); vLLM and SGLang schedule a waiting prompt at the next step. Before review33 a
    # vLLM service with batch_wait_steps 40 was accepted and its first token priced with a hold vLLM never makes.
    fw = f", framework: {framework}" if framework else ""
    (tmp_path / "r.yaml").write_text(f"workload: {{{SERVE}, {field}: {value}{fw}}}\n", encoding="utf-8")
    err = _one_line(gpuwise("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path))
    assert err == (f"gpuwise: r.yaml: workload.{field}: {value} is TensorRT-LLM's {knob}; {framework or 'vllm'} has "
                   f"no such hold of new prompts: set framework tensorrt-llm, or leave {field} out\n")
    zh = _one_line(gpuwise("recommend", "r.yaml", "--lang", "zh", cwd=tmp_path))
    assert f"workload.{field}: {value} 是 TensorRT-LLM 的 {knob}" in zh, zh


def test_the_hold_still_lengthens_tensorrt_llms_first_token(tmp_path: Path) -> None:
    ttft = {}
    for steps in (0, 40):
        (tmp_path / "r.yaml").write_text(f"workload: {{{SERVE}, framework: tensorrt-llm, requests_per_s: 4, "
                                         f"batch_wait_steps: {steps}}}\n", encoding="utf-8")
        r = gpuwise("estimate", "r.yaml", "--gpu", "h100", "--format", "json", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        ttft[steps] = json.loads(r.stdout)["gpu"]["serving"]["ttft_s"]
    assert ttft[40] > ttft[0]


def test_the_default_zero_hold_stays_accepted_on_any_engine(tmp_path: Path) -> None:
    (tmp_path / "r.yaml").write_text(f"workload: {{{SERVE}, framework: sglang, batch_wait_steps: 0, "
                                     "batch_wait_token_fraction: 0}\n", encoding="utf-8")
    assert gpuwise("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path).returncode == 0
