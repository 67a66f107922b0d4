"""Bought GPUs for a full fine-tune that keeps its state in host RAM (review44): `recommend` answered "Buy 2 x RTX 3090
for a 70B full fine-tune with ZeRO-3 CPU offload: $2,188" with the 1,411 GB of host RAM the offload needs
(70.55e9 x 16 B / 0.8) only as a note of the full report (MEM-HOST-RAM-NEEDED, info), while the host priced around
the cards is tco.yaml's consumer host share ($800 a card), a server of the kind that holds about 62 GB a GPU
(runtime.yaml rented_host_ram.per_gpu_gb, the same servers rented): 124 GB for two. MEM-HOST-RAM-BUY now warns, in
the brief report, that the RAM beyond a typical server of the segment is not in the price."""
from __future__ import annotations

import json

import pytest
import yaml

from tests.clirun import gpuwise

FT = {"task": "finetune", "method": "full", "precision": "bf16", "seq_len": 2048, "zero_stage": 3,
      "gradient_checkpointing": True, "offload": "cpu", "train_tokens": 2.0e7}


def _recommend(tmp_path, model: str, gpu: str, *extra: str):
    doc = {"workload": {**FT, "model": model}, "constraints": {"gpus": [gpu], "max_gpus": 8, "acquisition": "buy"}}
    (tmp_path / "r.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    return gpuwise("recommend", "r.yaml", *extra, cwd=tmp_path)


def test_a_bought_workstation_without_the_ram_is_warned_in_the_brief_report(tmp_path):
    r = _recommend(tmp_path, "llama-3.1-70b", "rtx-3090", "--format", "json")
    assert r.returncode in (0, 1), r.stderr
    d = json.loads(r.stdout)
    warn = [f for f in d["findings"] if f["rule"] == "MEM-HOST-RAM-BUY"]
    assert warn and warn[0]["severity"] == "warning"
    ev = warn[0]["evidence"]
    assert ev["host_ram_needed_gb"] == pytest.approx(70.55e9 * 16 / 0.8 / 1e9, rel=0.01)
    # the host the price buys is a desktop build (the consumer host share): tco.yaml desktop_host_ram_gb_per_gpu,
    # 48 GB a card (tinybox green v2: 192 GB for 4), 96 GB for two (product63; a rented GeForce server's 62 before)
    assert ev["typical_host_ram_gb"] == pytest.approx(48 * ev["per_node"])
    text = _recommend(tmp_path, "llama-3.1-70b", "rtx-3090")
    assert "MEM-HOST-RAM-BUY" in text.stdout and "1,411 GB" in " ".join(text.stdout.split())


def test_the_warning_in_chinese(tmp_path):
    r = _recommend(tmp_path, "llama-3.1-70b", "rtx-3090", "--lang", "zh")
    flat = " ".join(r.stdout.split())
    assert "MEM-HOST-RAM-BUY" in flat and "主机内存" in flat


def test_a_bought_datacenter_server_that_holds_it_is_not_warned(tmp_path):
    # Qwen2.5-32B: 32.76e9 x 16 B / 0.8 = 655 GB a server; the answer, 4 x A100 80GB in one server, is a typical
    # datacenter server of 4 x 225 = 900 GB (runtime.yaml): the note, no warning
    d = json.loads(_recommend(tmp_path, "qwen2.5-32b", "a100-80gb", "--format", "json").stdout)
    assert (d["recommendation"]["gpu"], d["recommendation"]["count"]) == ("a100-80gb-sxm", 4)
    rules = [f["rule"] for f in d["findings"]]
    assert "MEM-HOST-RAM-NEEDED" in rules and "MEM-HOST-RAM-BUY" not in rules


def test_the_70b_on_four_bought_a100s_is_warned_against_the_datacenter_figure(tmp_path):
    d = json.loads(_recommend(tmp_path, "llama-3.1-70b", "a100-80gb", "--format", "json").stdout)
    warn = [f for f in d["findings"] if f["rule"] == "MEM-HOST-RAM-BUY"]
    assert warn and warn[0]["evidence"]["typical_host_ram_gb"] == 225 * warn[0]["evidence"]["per_node"]
