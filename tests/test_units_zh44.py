"""A serving estimate's term in sequences (review44): `gpuwise estimate ... --lang zh` of DeepSeek-R1 on 8 x H200
wrote 'max_concurrent_sequences = 423 sequences', the unit in English, where every other unit of the screen is
worded (the catalog's '%(n)s sequences' is '%(n)s 个序列')."""
from __future__ import annotations

import re

import yaml

from tests.clirun import ROOT, gpuwise

R1 = {"task": "inference", "model": "deepseek-r1", "framework": "sglang", "precision": "fp8", "prompt_tokens": 1000,
      "output_tokens": 1000, "concurrent_requests": 1}


def _estimate(tmp_path, *extra: str) -> str:
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": R1}), encoding="utf-8")
    r = gpuwise("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", *extra, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return " ".join(r.stdout.split())


def test_the_sequences_term_is_worded_in_chinese(tmp_path):
    flat = _estimate(tmp_path, "--lang", "zh")
    got = re.search(r"显存可同时容纳的序列数 = ([\d,]+) (\S+)", flat)  # the term's label since review54
    assert got and got.group(2) == "个序列", flat[:200]


def test_and_in_english(tmp_path):
    got = re.search(r"Sequences memory holds at once = ([\d,]+) (\S+)", _estimate(tmp_path))
    assert got and got.group(2) == "sequences"


FT70 = {"task": "finetune", "method": "full", "model": "llama-3.1-70b", "precision": "bf16", "seq_len": 2048,
        "zero_stage": 3, "offload": "cpu", "train_tokens": 2.0e7, "gradient_checkpointing": True}


def test_an_offloaded_estimate_says_the_host_ram_it_needs(tmp_path):
    # the '8 x RTX 4090 fine-tuning a 70B needs 1.4 TB of host RAM': the estimate's screen said nothing of
    # it (the JSON's memory.host_ram_bytes_per_node only); 70.55e9 x 16 B / 0.8 usable = 1,411 GB a server
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": FT70}), encoding="utf-8")
    for lang, words in (("en", "Host RAM needed per node for offload: 1.41 TB"),
                        ("zh", "卸载所需的每节点主机内存：1.41 TB")):
        r = gpuwise("estimate", "r.yaml", "--gpu", "rtx-3090", "--gpus", "2", "--lang", lang, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert words in " ".join(r.stdout.split())


def test_the_typical_rented_server_is_worded_in_chinese(tmp_path):
    # the buyer question (c) at RunPod's Community Cloud price, whose offer states no RAM: the blocker named 'a
    # typical rented consumer server' in the Chinese report as '典型的租用 consumer 服务器'
    p = yaml.safe_load((ROOT / "tests/data/buyer_questions/proposal-rent-8x4090-70b-full-offload.yaml").read_text())
    p["acquisition"]["hourly_usd"] = 0.34
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(p), encoding="utf-8")
    zh = " ".join(gpuwise("audit", "p.yaml", "--lang", "zh", cwd=tmp_path).stdout.split())
    assert "MEM-HOST-RAM-SHORT" in zh and "典型的租用消费级服务器" in zh and "consumer" not in zh
    en = " ".join(gpuwise("audit", "p.yaml", cwd=tmp_path).stdout.split())
    assert "a typical rented consumer server's 62 GB per GPU" in en
