"""An offloaded run is kept off owned GPUs whose stated host RAM cannot hold its state (planfix50). A 70B full
fine-tune with ZeRO-3 CPU offload needs 70,553,706,496 params (models.yaml llama-3.1-70b) x 16 B / 0.8 = 1,411 GB of
host RAM; the team owns one L4 in a server of 512 GB. The program placed the run on that L4 anyway (139 GPU-hours,
PLAN-OWNED-HOST-RAM-SHORT said afterwards); the rules now judge the owned servers before the program, so the run is
rented where a server holds it (8 x H200: an 8-GPU instance, the state 1/8 a GPU)."""
from __future__ import annotations

import json

import yaml

from tests.clirun import gpuwise

FT70 = {"task": "finetune", "method": "full", "precision": "bf16", "seq_len": 2048, "zero_stage": 3,
        "offload": "cpu", "train_tokens": 2.0e7, "gradient_checkpointing": True, "model": "llama-3.1-70b"}


def _plan(tmp_path, ram: float | None) -> tuple[int, dict]:
    owned = {"gpu": "l4", "count": 1, **({"host_ram_gb": ram} if ram else {})}
    doc = {"horizon_months": 3, "owned": [owned], "constraints": {"acquisition": "rent", "gpus": ["l4", "H200"]},
           "workloads": [{"name": "ft", "workload": FT70, "cadence": {"at_month": 1}, "deadline_days": 60}]}
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise("plan", "plan.yaml", "--format", "json", cwd=tmp_path)
    assert "Traceback" not in r.stderr, r.stderr
    return r.returncode, json.loads(r.stdout)


def test_short_owned_ram_keeps_the_run_off_them(tmp_path):
    rc, d = _plan(tmp_path, 512)
    assert rc == 0 and d["unplaced"] == []
    [p] = d["months"][0]["placements"]
    assert (p["gpu"], p["acquisition"]) == ("h200-141gb-sxm", "rent")  # not ("l4", "owned")
    said = {f["rule"]: f for f in d["findings"]}
    assert said["PLAN-OWNED-HOST-RAM-SHORT"]["values"]["host_ram_gb"] == 512
    assert "the plan does not place it there" in said["PLAN-OWNED-HOST-RAM-SHORT"]["message"]
    assert "ruled out by PLAN-OWNED-HOST-RAM-SHORT" in said["PLAN-OWNED-CANNOT-RUN"]["message"]


def test_unstated_owned_ram_still_places_the_run_there(tmp_path):
    # the rule stays a note where the RAM is not stated: the owned L4 (power only) is cheaper than any rental
    rc, d = _plan(tmp_path, None)
    assert rc == 0
    assert [(p["gpu"], p["acquisition"]) for p in d["months"][0]["placements"]] == [("l4", "owned")]
    assert "PLAN-OWNED-HOST-RAM-NEEDED" in {f["rule"] for f in d["findings"]}
