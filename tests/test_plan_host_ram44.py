"""A plan renting GPUs for a full fine-tune that keeps its state in host RAM (review44): the plan priced each GPU type
on its first rental offer without asking the host-RAM rules, so a 70B model with ZeRO-3 CPU offload was planned on
one rented H200 whose server holds 225 GB (runtime.yaml rented_host_ram: a typical rented datacenter server's RAM a
GPU, the offer stating none) where the state needs 70.55e9 x 16 B / 0.8 = 1,411 GB a server, which `estimate` and
`recommend` reject (MEM-HOST-RAM-SHORT). The plan now rents only a server the rule lets hold it: 2 GPUs hold 450 GB,
4 hold 900, 8 hold 1,800 >= 1,411, so 8 H200s in one server."""
from __future__ import annotations

import json

import yaml

from tests.clirun import gpuwise

FT = {"task": "finetune", "method": "full", "model": "llama-3.1-70b", "precision": "bf16", "seq_len": 2048,
      "zero_stage": 3, "offload": "cpu", "train_tokens": 1.0e8}


def _plan(tmp_path, acquisition: str) -> dict:
    doc = {"horizon_months": 3, "constraints": {"acquisition": acquisition, "gpus": ["h200"]},
           "workloads": [{"name": "ft", "workload": FT, "cadence": {"at_month": 1}}]}
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise("plan", "plan.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    return json.loads(r.stdout)


def test_a_rented_run_is_planned_on_a_server_whose_ram_holds_the_offloaded_state(tmp_path):
    # planfix49: a run on fewer GPUs than its instance has the whole instance's RAM and is rented on every GPU the
    # instance pays for, so the rental is the same 8 H200s; where the plan may also buy, the option's own count is
    # the fewest that fit (1, as a buy-only plan's) and `rent_count` the rented run's
    for acquisition, count in (("rent", 8), ("either", 1)):
        d = _plan(tmp_path, acquisition)
        ft = [o for o in d["options"] if o["workload"] == "ft"]
        assert [(o["count"], o["rent_count"]) for o in ft] == [(count, 8)], acquisition
        assert ft[0]["rent_per_hour"] is not None


def test_buying_only_keeps_the_smallest_count_that_fits(tmp_path):
    # a bought server's RAM is not stated in a plan: MEM-HOST-RAM-NEEDED's note, not a refusal (as recommend)
    d = _plan(tmp_path, "buy")
    assert [o["count"] for o in d["options"] if o["workload"] == "ft"] == [1]
