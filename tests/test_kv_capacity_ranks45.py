"""The serving estimate's ``max_concurrent_sequences`` term under attention data parallelism (review45): DeepSeek-V3.2
at 128K context on 8 x H200 (vLLM, attention DP 8 + EP 8) read '32 sequences' while its formula said
'replicas x floor((0.90 x capacity - weights - context - working set) per GPU / KV per sequence per GPU)', which its
own inputs make 1 x floor(32.2e9 / (78,324 B x 98,304 tokens)) = 4: each of the 8 attention ranks holds its own
sequences (layout.replica: max_seqs = per_rank x dp_attention), and the formula did not say so."""
from __future__ import annotations

import json
import math

import pytest
import yaml

from tests.clirun import gpuwise

V32 = {"task": "inference", "model": "deepseek-v3.2", "precision": "fp8", "context_len": 131072,
       "concurrent_requests": 8}


def _term(tmp_path, *extra: str) -> dict:
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": V32}), encoding="utf-8")
    r = gpuwise("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--format", "json", *extra, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return next(t for t in json.loads(r.stdout)["gpu"]["terms"] if t["name"] == "max_concurrent_sequences")


def test_the_count_follows_from_its_formula_and_inputs(tmp_path):
    t = _term(tmp_path)
    i = t["inputs"]
    assert "attention data parallel 8" in i["layout"]
    # the KV cache a token and layer with DSA: 61 x (576 x 2 B + 132 B) = 78,324 B (models.yaml, the MLA entry and
    # the indexer's key); a sequence's mean span 65,536 + 65,536 / 2 = 98,304 tokens
    assert i["kv_bytes_per_token_per_gpu"] == 61 * (576 * 2 + 132) and i["tokens_per_sequence"] == 98_304
    per_rank = math.floor(i["kv_free_per_gpu_bytes"] / (i["kv_bytes_per_token_per_gpu"] * i["tokens_per_sequence"]))
    # 3 a rank, 4 before vLLM's pool was short of its start-up profile's sampler pass (37.7 B x 129,280 x 1,024 =
    # 4.99 GB a GPU, serving.yaml vllm profile_sampler; the working set printed holds it): 32.2e9 -> ~27.5e9 B
    forward = (i["working_set_per_gpu_bytes"] - i["profile_sampler_per_gpu_bytes"]) / 1.05  # its 5 % allowance
    assert i["profile_sampler_per_gpu_bytes"] + forward == pytest.approx(37.7 * 129_280 * 1_024, rel=1e-9)
    assert per_rank == 3
    assert t["value"] == i["replicas"] * i["attention_ranks_per_copy"] * per_rank == 24
    assert "8 attention data-parallel ranks" in t["formula"]


def test_the_ranks_worded_in_chinese(tmp_path):
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": V32}), encoding="utf-8")
    r = gpuwise("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--lang", "zh", cwd=tmp_path)
    flat = "".join(r.stdout.split())
    assert "8个注意力数据并行rank" in flat and "attentiondata-parallel" not in flat


def test_the_kv_cache_says_the_span_a_sequence_holds(tmp_path):
    # context_len 131,072 split evenly (65,536 + 65,536); vLLM allocates KV blocks as tokens are written
    # (serving.yaml kv_reserve: current), so the memory screen's 98,304 tokens a sequence is 65,536 + 65,536 / 2:
    # the screen gave the figure with no word of why it is not the 131,072 of the context
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": V32}), encoding="utf-8")
    r = gpuwise("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--format", "json", cwd=tmp_path)
    kv = next(t for t in json.loads(r.stdout)["memory"]["terms"] if t["name"] == "kv_cache")
    assert kv["inputs"]["tokens"] == 65_536 + 65_536 / 2 == 98_304
    # one sequence a GPU (8 requests over 8 attention ranks): 61 x 1,284 B x 98,304 = 7.70 GB
    assert kv["value"] == 61 * (576 * 2 + 132) * 98_304
    assert "65,536 + 65,536 / 2 = 98,304 tokens" in kv["note"]
