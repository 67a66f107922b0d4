"""A run on a server the plan buys uses the server's GPUs (planfix50). H100 SXM is sold only as HGX servers of 4 or 8
GPUs (knowledge/prices.yaml units.sizes [4, 8]); an 8B full fine-tune sized for 1 H100 (ZeRO-1 with CPU offload,
61.7 h a run) ran on 1 GPU of the 4-GPU server the plan bought while 3 paid GPUs idled. It now runs on all 4 (no
offload needed there), its wall hours and GPU-hours those of the 4-GPU estimate."""
from __future__ import annotations

import json

import yaml

from tests.clirun import gpuwise

FT8 = {"task": "finetune", "method": "full", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 1.0e9}


def _plan(tmp_path, doc: dict) -> dict:
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise("plan", "plan.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    return json.loads(r.stdout)


def test_a_run_on_a_bought_server_uses_its_gpus(tmp_path):
    d = _plan(tmp_path, {"horizon_months": 6, "constraints": {"acquisition": "buy", "gpus": ["H100 SXM"]},
                         "workloads": [{"name": "sft", "workload": FT8, "cadence": {"per_month": 2}}]})
    [bought] = d["purchases"]
    assert (bought["sold_as"], bought["unit_gpus"], bought["units"]) == ("server", 4, 1)
    [o] = d["options"]
    assert o["count"] == 1 and o["buy_count"] == 4  # the fewest that fit, and the server's 4 it runs on
    assert 0 < o["buy_wall_hours"] < o["wall_hours"] / 4 * 1.5  # data parallel: about a quarter of the hours or less
    for m in d["months"][1:]:  # month 1: before the server arrives (plan_delivery_months 1), left unplaced
        [p] = m["placements"]
        assert (p["acquisition"], p["count"], p["runs"]) == ("buy", 4, 2.0)
        assert abs(p["gpu_hours"] - 2 * 4 * o["buy_wall_hours"]) < 0.01  # 2 runs x 4 GPUs x their wall hours
    # the 4-GPU run needs no host RAM for offloaded state: the 1-GPU run's note is not said of the purchase
    assert "MEM-HOST-RAM-NEEDED" not in {f["rule"] for f in d["findings"]}


def test_an_owned_type_is_widened_on_the_owned_gpus_not_a_server_bought(tmp_path):
    # on_units skips owned types: no server is bought to widen the run; the 4 owned H100s in one server take it
    # (sizing.on_owned, ownwide51: own_count 4, the owned server's, as a bought server's 4 above)
    d = _plan(tmp_path, {"horizon_months": 3, "owned": [{"gpu": "H100 SXM", "count": 4, "servers": 1}],
                         "constraints": {"acquisition": "buy", "gpus": ["H100 SXM"]},
                         "workloads": [{"name": "sft", "workload": FT8, "cadence": {"per_month": 2}}]})
    [o] = d["options"]
    assert o["buy_count"] == 0 and d["purchases"] == [] and (o["count"], o["own_count"]) == (1, 4)
    assert {(p["count"], p["acquisition"]) for m in d["months"] for p in m["placements"]} == {(4, "owned")}


def test_the_full_report_says_the_run_on_the_server(tmp_path):
    doc = {"horizon_months": 6, "constraints": {"acquisition": "buy", "gpus": ["H100 SXM"]},
           "workloads": [{"name": "sft", "workload": FT8, "cadence": {"per_month": 2}}]}
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise("plan", "plan.yaml", "--detail", "full", "--format", "md", cwd=tmp_path)
    assert "Traceback" not in r.stderr, r.stderr
    assert "| 1; on a server bought, its 4 GPUs: 9.5 h |" in r.stdout  # the options table: the fewest, and the server


def test_an_offloaded_run_on_the_server_has_its_host_ram_said_of_the_server(tmp_path):
    # ZeRO-3 with CPU offload asked for: the state, 8.03e9 params x 16 B / 0.8 = 160.6 GB, sits in the RAM of the one
    # server the run spans, whose RAM a purchase does not state (MEM-HOST-RAM-NEEDED, of 4 x H200, not of 1 x)
    ft = {**FT8, "precision": "bf16", "seq_len": 2048, "zero_stage": 3, "offload": "cpu", "train_tokens": 2.0e7,
          "gradient_checkpointing": True}
    d = _plan(tmp_path, {"horizon_months": 3, "constraints": {"acquisition": "buy", "gpus": ["h200-141gb-sxm"]},
                         "workloads": [{"name": "ft", "workload": ft, "cadence": {"at_month": 3}}]})
    [p] = d["months"][2]["placements"]
    assert (p["acquisition"], p["count"]) == ("buy", 4)
    said = {f["rule"]: f for f in d["findings"]}
    assert said["MEM-HOST-RAM-NEEDED"]["message"].startswith("4 x NVIDIA H200 SXM 141GB relies on cpu offload")
    assert abs(said["MEM-HOST-RAM-NEEDED"]["values"]["host_ram_needed_gb"] - 8.03e9 * 16 / 0.8 / 1e9) < 0.2
