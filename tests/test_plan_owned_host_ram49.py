"""An offloaded run the plan places on owned GPUs (planfix49, hostile round 36): a 70B full fine-tune with ZeRO-3 CPU
offload on one owned L4 said nothing of the host RAM its state needs, 70,553,706,496 params (models.yaml
llama-3.1-70b) x 16 B / 0.8 = 1,411.07 GB; the rules now say it of the owned servers (rules/plan.yaml
PLAN-OWNED-HOST-RAM-*), judged on owned[].host_ram_gb where the plan states it."""
from __future__ import annotations

import json

import pytest
import yaml

from tests.clirun import gpuwise

FT70 = {"task": "finetune", "method": "full", "precision": "bf16", "seq_len": 2048, "zero_stage": 3,
        "offload": "cpu", "train_tokens": 2.0e7, "gradient_checkpointing": True, "model": "llama-3.1-70b"}
NEED_GB = 70_553_706_496 * 16 / 0.8 / 1e9  # 1,411.07 GB a server holding the whole run


def _plan(tmp_path, owned: dict, deadline_days: float = 60, placed: bool = True) -> dict:
    """The plan; ``placed``: whether the run goes on the owned L4s. Where their stated RAM is short the rules keep it
    off them before the program (planfix50), and no rented L4 server holds 1,411 GB either: it is left unplaced (exit
    1), the rule the owned GPUs' reason."""
    doc = {"horizon_months": 3, "owned": [owned], "constraints": {"acquisition": "rent", "gpus": ["l4"]},
           "workloads": [{"name": "ft", "workload": FT70, "cadence": {"at_month": 1},
                          "deadline_days": deadline_days}]}
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise("plan", "plan.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == (0 if placed else 1) and "Traceback" not in r.stderr, r.stderr
    d = json.loads(r.stdout)
    assert [(p["gpu"], p["acquisition"]) for p in d["months"][0]["placements"]] == ([("l4", "owned")] if placed else [])
    if not placed:
        [u] = d["unplaced"]
        assert "ruled out by PLAN-OWNED-HOST-RAM-SHORT" in u["reason"]
    return d


def _said(d: dict) -> dict[str, dict]:
    return {f["rule"]: f for f in d["findings"] if f["rule"].startswith("PLAN-OWNED-HOST-RAM")}


def test_unstated_owned_ram_is_noted_with_what_the_run_needs(tmp_path):
    said = _said(_plan(tmp_path, {"gpu": "l4", "count": 1}))
    assert list(said) == ["PLAN-OWNED-HOST-RAM-NEEDED"]
    f = said["PLAN-OWNED-HOST-RAM-NEEDED"]
    assert f["severity"] == "info" and f["subject"] == "ft"
    assert abs(f["values"]["host_ram_needed_gb"] - NEED_GB) < 0.01 and "plan 1,411 GB" in f["message"]


@pytest.mark.parametrize("ram, blocked", [(512, True), (2048, False)])
def test_stated_owned_ram_is_judged(tmp_path, ram: float, blocked: bool):
    said = _said(_plan(tmp_path, {"gpu": "l4", "count": 1, "host_ram_gb": ram}, placed=not blocked))
    assert list(said) == (["PLAN-OWNED-HOST-RAM-SHORT"] if blocked else [])
    if blocked:
        f = said["PLAN-OWNED-HOST-RAM-SHORT"]
        assert f["severity"] == "blocker" and f["subject"] == "ft" and f["values"]["host_ram_gb"] == 512
        assert ("needs 1,411 GB of host RAM per server, and the owned servers have 512 GB: the plan does not place it "
                "there") in f["message"]


def test_a_run_over_two_owned_servers_needs_half_the_state_on_each(tmp_path):
    # a 1-day deadline takes 8 L4s (4 finish in 27 h); the 8 owned sit 4 to a server, so the run spans 2 of them:
    # 1,411.07 / 2 = 705.5 GB a server, more than 512
    f = _said(_plan(tmp_path, {"gpu": "l4", "count": 8, "servers": 2, "host_ram_gb": 512}, deadline_days=1.0,
                    placed=False))
    short = f["PLAN-OWNED-HOST-RAM-SHORT"]
    assert short["values"]["count"] == 8 and abs(short["values"]["host_ram_needed_gb"] - NEED_GB / 2) < 0.01


def test_owned_ram_below_one_gb_is_refused(tmp_path):
    doc = {"horizon_months": 3, "owned": [{"gpu": "l4", "count": 1, "host_ram_gb": 0}],
           "workloads": [{"name": "ft", "workload": FT70, "cadence": {"at_month": 1}}]}
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise("plan", "plan.yaml", cwd=tmp_path)
    assert r.returncode == 2 and "owned[0].host_ram_gb" in r.stderr and len(r.stderr.strip().splitlines()) == 1
