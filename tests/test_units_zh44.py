"""A serving estimate's term in sequences (review44): `gpuwise estimate ... --lang zh` of DeepSeek-R1 on 8 x H200
wrote 'max_concurrent_sequences = 423 sequences', the unit in English, where every other unit of the screen is
worded (the catalog's '%(n)s sequences' is '%(n)s 个序列')."""
from __future__ import annotations

import re

import yaml

from tests.clirun import gpuwise

R1 = {"task": "inference", "model": "deepseek-r1", "framework": "sglang", "precision": "fp8", "prompt_tokens": 1000,
      "output_tokens": 1000, "concurrent_requests": 1}


def _estimate(tmp_path, *extra: str) -> str:
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": R1}), encoding="utf-8")
    r = gpuwise("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", *extra, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return " ".join(r.stdout.split())


def test_the_sequences_term_is_worded_in_chinese(tmp_path):
    flat = _estimate(tmp_path, "--lang", "zh")
    got = re.search(r"max_concurrent_sequences = ([\d,]+) (\S+)", flat)
    assert got and got.group(2) == "个序列", flat[:200]


def test_and_in_english(tmp_path):
    got = re.search(r"max_concurrent_sequences = ([\d,]+) (\S+)", _estimate(tmp_path))
    assert got and got.group(2) == "sequences"
