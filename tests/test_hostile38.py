"""Hostile round 38's fixed failures (benchmarks/hostile_round38.py): session 37's serving.yaml entries overlaid as a
careless author would -- a release window that holds no release (``deepgemm_moe_padding`` from 0.12.0 before
0.11.1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .clirun import gpuwise as cli

V3 = ("workload: {task: inference, model: deepseek-v3, framework: vllm, precision: fp8, prompt_tokens: 1000, "
      "output_tokens: 1000, concurrent_requests: 8, framework_version: '0.11.1'}\n")
PADDING = ("frameworks:\n  - id: vllm\n    deepgemm_moe_padding:\n      first: '{first}'\n      before: '{before}'\n"
           "      block_m: 128\n      architectures: [{arch}]\n      source: ours\n")


def _estimate(tmp_path: Path, overlay: str, *more: str):
    (tmp_path / "r.yaml").write_text(V3, encoding="utf-8")
    (tmp_path / "kb").mkdir(exist_ok=True)
    (tmp_path / "kb" / "serving.yaml").write_text(overlay, encoding="utf-8")
    return cli("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--format", "json", "--knowledge", "kb", *more,
               cwd=tmp_path)


@pytest.mark.parametrize("first, before", [("0.12.0", "0.11.1"), ("0.11.1", "0.11.1"), ("0.11.1", "0.11.1.post1")])
def test_a_release_window_that_holds_no_release_refused(tmp_path: Path, first, before):
    """Round 38: the window was read as holding no release, so the padding the shipped window charges vLLM 0.11.1
    on Hopper was dropped, exit 0 (a .postN counts as the release it follows: records.version_key)."""
    r = _estimate(tmp_path, PADDING.format(first=first, before=before, arch="hopper"))
    assert r.returncode == 2, r.stdout[:200]
    assert r.stderr.strip() == (f"gpuwise: kb/serving.yaml: frameworks[0] (id vllm).deepgemm_moe_padding: before {before} "
                                f"is not after first {first}: no release is in the window")


def test_a_window_that_holds_no_release_refused_in_chinese(tmp_path: Path):
    r = _estimate(tmp_path, "frameworks:\n  - id: vllm\n    mla_whole_prefill: {first: '0.9.0', before: '0.8.0', "
                  "source: ours}\n", "--lang", "zh")
    assert r.returncode == 2 and "mla_whole_prefill" in r.stderr and "0.8.0" in r.stderr and "0.9.0" in r.stderr
    assert "no release" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_a_window_of_one_release_read(tmp_path: Path):
    """0.11.1 up to 0.11.2 holds the job's 0.11.1: the padding is charged (slower than the window 0.11.2 up to
    0.12.0, which leaves it out)."""
    tpot = {}
    for first, before in (("0.11.1", "0.11.2"), ("0.11.2", "0.12.0")):
        r = _estimate(tmp_path, PADDING.format(first=first, before=before, arch="hopper"))
        assert r.returncode == 0, r.stderr
        tpot[first] = json.loads(r.stdout)["gpu"]["serving"]["tpot_s"]
    assert tpot["0.11.1"] > 1.5 * tpot["0.11.2"]
