"""The serving screen says when a release leaves a listed model's fused small kernels off on the job's GPU
(review45): DeepSeek-R1 FP8 at one stream on 8 x H20 under SGLang 0.5.8 read 81.3 tok/s and under 0.5.13 125.3 tok/s,
the step's overhead 8.9 ms against 4.6 ms, with no word of why: the 0.5.7-0.5.12 wheels' server_args.py require
'not is_h20_device' before turning the FlashInfer all-reduce fusion on (serving.yaml fused_kernel_models
gpus_excluded, flashinfer-ai/flashinfer #2204), so each counted small kernel costs SGLang's own 6 us (serving.yaml
sglang kernel_floor_us), not the fused entry's figure."""
from __future__ import annotations

import json

import pytest
import yaml

from tests.clirun import gpuwise

R1 = {"task": "inference", "model": "deepseek-r1", "precision": "fp8", "framework": "sglang", "prompt_tokens": 1000,
      "output_tokens": 1000, "concurrent_requests": 1}


def _decode(tmp_path, version: str, gpu: str = "h20-96gb-sxm") -> dict:
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": {**R1, "framework_version": version}}),
                                     encoding="utf-8")
    r = gpuwise("estimate", "r.yaml", "--gpu", gpu, "--gpus", "8", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return next(t for t in json.loads(r.stdout)["gpu"]["terms"] if t["name"] == "decode_tokens_per_s")


def test_the_unfused_kernels_on_the_h20_are_said(tmp_path):
    t = _decode(tmp_path, "0.5.8")
    assert t["inputs"]["kernel_floor_s"] == pytest.approx(6e-6)
    assert "unfused on the NVIDIA H20 96GB" in t["formula"] and "6 us a small kernel" in t["formula"]


@pytest.mark.parametrize("version, gpu", [("0.5.13", "h20-96gb-sxm"), ("0.5.8", "h200-141gb-sxm")])
def test_nothing_is_said_where_the_fusion_runs(tmp_path, version, gpu):
    t = _decode(tmp_path, version, gpu)
    assert "kernel_floor_s" not in t["inputs"] and "unfused" not in t["formula"]
