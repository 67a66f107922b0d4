"""CPU offload on a GPU whose memory is the system's only memory (review45): the GB10 of a DGX Spark has 128 GB of
LPDDR5x shared by its Grace CPU and its GPU (gpus.yaml memory.shared_with_host, NVIDIA's DGX Spark hardware
overview), so ZeRO-3's offloaded state lands in the same 128 GB. A 70B full fine-tune pinned to CPU offload on
2 x GB10 (705.5 GB of host RAM a node by gpuwise's count) was 'Fits in memory: yes', unrefused, and the plan
offered to buy the two; bought GPUs' RAM is otherwise unknown (MEM-HOST-RAM-NEEDED), but this one is stated."""
from __future__ import annotations

import json

import pytest
import yaml

from tests.clirun import gpuwise

FT70 = {"task": "finetune", "method": "full", "model": "llama-3.1-70b", "precision": "bf16", "seq_len": 2048,
        "zero_stage": 3, "offload": "cpu", "gradient_checkpointing": True, "train_tokens": 1.0e8}


def test_the_offload_is_judged_on_the_sparks_own_memory(tmp_path):
    (tmp_path / "r.yaml").write_text(yaml.safe_dump(
        {"workload": FT70, "constraints": {"acquisition": "buy", "gpus": ["gb10"]}}), encoding="utf-8")
    r = gpuwise("recommend", "r.yaml", "--format", "json", cwd=tmp_path)
    assert "Traceback" not in r.stderr, r.stderr
    d = json.loads(r.stdout)
    short = [f for f in d["findings"] if f["rule"] == "MEM-HOST-RAM-SHORT"]
    assert short and short[0]["severity"] == "blocker"
    ev = short[0]["evidence"]
    # one GB10 a system: 128 GB less what its GPU side holds there (users49: the same memory); Llama 3.1 70B's
    # 70.55e9 params x 16 B (fp32 master, Adam moments, bf16 copy and gradient) / 0.8 usable over the systems
    held = next(c["memory_per_gpu_bytes"] for c in d["candidates"] if c["gpu"] == "gb10" and c["count"] == ev["count"])
    assert ev["host_ram_gb"] == pytest.approx(128.0 - held / 1e9, abs=1e-4)
    assert ev["host_ram_needed_gb"] == pytest.approx(70.55e9 * 16 / 0.8 / ev["count"] / 1e9, rel=0.002)
    assert "shared_with_host" in ev["host_ram_from"]


def test_the_plan_does_not_buy_sparks_for_it(tmp_path):
    plan = {"horizon_months": 6, "workloads": [{"name": "ft70", "workload": FT70, "cadence": {"at_month": 1},
                                                 "deadline_days": 14}], "constraints": {"acquisition": "either"}}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(plan), encoding="utf-8")
    r = gpuwise("plan", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "gb10" not in {o["gpu"] for o in json.loads(r.stdout)["options"]}


def test_an_audit_of_two_bought_sparks_is_blocked(tmp_path):
    p = {"title": "t", "workload": FT70, "hardware": {"gpu": "gb10", "count": 2}, "acquisition": {"mode": "buy"}}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(p), encoding="utf-8")
    r = gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    short = [f for f in json.loads(r.stdout)["findings"] if f["rule"] == "MEM-HOST-RAM-SHORT"]
    # two systems of one GB10 each: 70.55e9 x 16 B / 0.8 / 2 = 705.5 GB a system against its 128 GB less what the
    # GPU side holds there
    held = json.loads(r.stdout)["proposed"]["memory_per_gpu_bytes"]
    assert short and short[0]["evidence"]["host_ram_gb"] == pytest.approx(128.0 - held / 1e9, abs=1e-4)
    assert short[0]["evidence"]["host_ram_needed_gb"] == pytest.approx(705.5, rel=0.002)
