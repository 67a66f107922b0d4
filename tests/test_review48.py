"""review48: gpuwise used as a buyer would, on fresh inputs; each bug found has its test here.

1. A plan whose owned servers' RAM is short for a run on one of their GPUs, but not for the run on more of them.
   A team owns 8 A100 80GB SXM in 2 servers of 128 GB RAM and fine-tunes Llama 3.1 8B (full, 3e8 tokens at 4,096)
   once a month. On 1 A100 the run offloads (ZeRO-1 + CPU offload, 141 GB of host RAM a server > 128 GB:
   PLAN-OWNED-HOST-RAM-SHORT); on 4 of one server (`gpuwise estimate --gpu A100-80G --gpus 4`: ZeRO-3, 69.1 GB a
   GPU, nothing offloaded) it holds. Before: the rule's reject kept the run off the owned A100s altogether, the plan
   rented 4 RTX 4090s ($24.86 a month) while the 8 owned A100s idled (0% of their hours, $4,860 of hosting and
   power), and PLAN-OWNED-CANNOT-RUN said the run 'cannot run on the owned 8 x A100'. Now the 4-GPU run is placed
   on the owned GPUs: 3 runs x 4 GPUs x 7.16 h, nothing rented.
"""
from __future__ import annotations

import json

import yaml

from tests.clirun import gpuwise

FT8 = {"task": "finetune", "method": "full", "model": "llama-3.1-8b", "train_tokens": 3.0e8, "seq_len": 4096}
PLAN = {"horizon_months": 3,
        "owned": [{"gpu": "A100-80G", "count": 8, "servers": 2, "hosting": "colocation", "host_ram_gb": 128}],
        "workloads": [{"name": "sft-8b", "workload": FT8, "cadence": {"per_month": 1}, "deadline_days": 5}],
        "constraints": {"acquisition": "either"}}


def _json(tmp_path, cmd: str, name: str, doc: dict, *args: str) -> dict:
    (tmp_path / name).write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise(cmd, name, *args, "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    return json.loads(r.stdout)


def test_owned_ram_short_for_one_gpu_places_the_wider_run_that_holds(tmp_path):
    d = _json(tmp_path, "plan", "plan.yaml", PLAN)
    [o] = [o for o in d["options"] if o["workload"] == "sft-8b" and o["gpu"] == "a100-80gb-sxm"]
    assert o["count"] == 1 and "CPU offload" in o["layout"] and o["own_count"] == 4
    # the 4-GPU run, as `estimate` gives it: nothing offloaded, so nothing asked of the 128 GB servers
    e = _json(tmp_path, "estimate", "ft.yaml", {"workload": FT8}, "--gpu", "A100-80G", "--gpus", "4")
    assert e["memory"]["offload_target"] == "none"
    assert abs(o["own_wall_hours"] - e["gpu"]["wall_hours"]) < 1e-6
    for m in d["months"]:
        assert m["rent"] == 0.0
        [p] = m["placements"]
        assert (p["gpu"], p["acquisition"], p["count"], p["runs"]) == ("a100-80gb-sxm", "owned", 4, 1.0)
        assert abs(p["gpu_hours"] - 4 * e["gpu"]["wall_hours"]) < 0.01  # 4 x 7.16 h = 28.6
    rules = {f["rule"] for f in d["findings"]}
    # the one-GPU run is still said to be short of RAM (it is), but the owned GPUs do run the workload
    assert "PLAN-OWNED-HOST-RAM-SHORT" in rules and "PLAN-OWNED-CANNOT-RUN" not in rules
    # the plan pays only the owned GPUs' hosting and power: less than renting everything
    assert d["total"] < d["baselines"]["rent_all"]
    assert abs(d["total"] - sum(m["opex"] for m in d["months"])) < 0.01


def test_owned_ram_short_for_the_wider_run_too_keeps_it_off(tmp_path):
    # offload pinned: on 4 GPUs of one server ZeRO-3 still offloads the whole state to that server (161 GB > 128):
    # the wider run does not hold either, and the workload stays off the owned A100s as before
    doc = {**PLAN, "workloads": [{**PLAN["workloads"][0], "workload": {**FT8, "offload": "cpu", "zero_stage": 3}}]}
    d = _json(tmp_path, "plan", "plan.yaml", doc)
    [o] = [o for o in d["options"] if o["workload"] == "sft-8b" and o["gpu"] == "a100-80gb-sxm"]
    assert o["own_count"] == 0
    assert all(p["acquisition"] != "owned" for m in d["months"] for p in m["placements"])
    assert {"PLAN-OWNED-HOST-RAM-SHORT", "PLAN-OWNED-CANNOT-RUN"} <= {f["rule"] for f in d["findings"]}
