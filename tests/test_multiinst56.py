"""A candidate rented only as smaller instances than one server (branch multiinst56): eight T4s, which the knowledge
lists only as AWS g4dn.xlarge of one T4 each (knowledge/clouds.yaml instances; runtime.yaml rented_host_ram gives it
16 GiB, and clouds.yaml its 'up to 25 Gb/s' network, from AWS's EC2 accelerated-computing instance specifications).
Before the branch such a candidate was estimated as one 8-GPU server: the eight instances' RAM added together as one
machine's (8 x 16 GiB = 137 GB), its GPUs joined by one server's PCIe (15.75 GB/s), which separate instances do not
share. Now it is eight servers of one GPU on the instances' network, each with its own 16 GiB."""

from __future__ import annotations

import json

import pytest

from tests.clirun import gpuwise

GIB = 2**30 / 1e9
T4_RAM_GB = 16 * GIB  # a g4dn.xlarge's 16 GiB
NET_25G_GB_S = 25 / 8  # 25 Gb/s, one direction, in GB/s

FT_7B = {"task": "finetune", "method": "full", "model": "llama-2-7b", "precision": "fp16", "optimizer": "adamw",
         "batch_size": 1, "seq_len": 2048, "gradient_checkpointing": True, "zero_stage": 3, "offload": "cpu",
         "train_tokens": 2.0e7}
# Llama 2 7B's 6.74e9 parameters x 16 B of offloaded state (fp32 master weights, both Adam moments, the fp32
# gradients' host copy) over the 8 GPUs, over the usable 0.8 of host RAM: 16.85 GB for each one-GPU server
NEED_PER_T4_SERVER_GB = 6.74e9 * 16 / 8 / 0.8 / 1e9


def _run(tmp_path, command: str, doc: dict) -> tuple[int, dict]:
    import yaml

    (tmp_path / "q.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise(command, "q.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    return r.returncode, json.loads(r.stdout)


def _premise():
    """The knowledge these tests read: every T4 offer of the global market a one-GPU instance (were a larger T4
    server listed, AWS's g4dn.metal of 8, the eight would be one server and these cases would not arise)."""
    from gpuwise.estimators.offers import rent_offers
    from gpuwise.knowledge import load

    kb = load()
    shapes = {i.id: i.gpus for i in kb.clouds.instances}
    offers = [o for o in rent_offers(kb.clouds, "t4", 8, 7.2) if o.market != "china"]
    assert offers and all(o.instance and shapes[o.instance] == 1 for o in offers), "a larger T4 server is listed"
    return kb


def test_instance_split_only_where_no_offer_holds_the_server():
    """rental.instance_split: eight T4s are eight g4dn.xlarge on their 25 GbE; one T4 is one instance; four A10Gs
    are one g5.12xlarge (four A10Gs) and two L4s fit a g6.48xlarge (eight): no split there."""
    from gpuwise.estimators.rental import instance_split
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    kb = _premise()
    job = resolve(Requirements.model_validate({"workload": FT_7B, "constraints": {"acquisition": "rent"}}), kb)
    assert instance_split(job, kb.gpus["t4"], 8) == (8, "ethernet-25")
    assert instance_split(job, kb.gpus["t4"], 1) is None
    assert instance_split(job, kb.gpus["a10g"], 4) is None
    assert instance_split(job, kb.gpus["l4"], 2) is None


def test_eight_single_t4_instances_are_eight_servers_each_with_its_own_ram(tmp_path):
    """Recommend up to 8 T4s for the 7B full fine-tune with ZeRO-3 CPU offload. Before: 'Rent 8 x T4 from aws, 8 GPUs
    on 1 node', over PCIe at 99% scaling, 3.3 hours, held on 137 GB of host RAM (the eight instances' summed). Now the
    8 are 8 nodes over the instances' 25 GbE (3.125 GB/s a node), each node's RAM its instance's 17.18 GB against
    its 16.85 GB of state: held, but more than half of each step waits for the network (NET-COMM-BOUND), and fewer
    T4s have too little RAM: no T4 rental runs it."""
    _premise()
    doc = {"workload": FT_7B, "constraints": {"gpus": ["t4"], "max_gpus": 8, "deadline_days": 60,
                                              "acquisition": "rent"}}
    code, d = _run(tmp_path, "recommend", doc)
    assert code == 1 and d["recommendation"] is None
    eight = next(c for c in d["candidates"] if c["count"] == 8)
    assert eight["nodes"] == 8 and eight["instance"] == "g4dn.xlarge" and not eight["feasible"]
    assert "NET-COMM-BOUND" in eight["rules"]
    held = next(f for f in d["findings"] if f["rule"] == "MEM-HOST-RAM-HELD")["evidence"]
    assert held["count"] == 8 and held["host_ram_gb"] == pytest.approx(T4_RAM_GB, abs=0.01)
    assert held["host_ram_needed_gb"] == pytest.approx(NEED_PER_T4_SERVER_GB, rel=0.01)
    slow = next(f for f in d["findings"] if f["rule"] == "NET-SLOW-NETWORK")["evidence"]
    assert slow["nodes"] == 8 and slow["network_gb_s"] == pytest.approx(NET_25G_GB_S)


def test_a_plan_renting_t4s_runs_on_the_instances_as_recommend_estimates_them(tmp_path):
    """The same run in a plan that only rents T4s: before, 8 T4s in one server, 3.29 hours; now on the eight
    instances over 25 GbE, the wall hours recommend estimates for them (6.60)."""
    _premise()
    plan = {"horizon_months": 3, "constraints": {"acquisition": "rent", "gpus": ["t4"], "max_gpus": 8},
            "workloads": [{"name": "ft", "workload": FT_7B, "cadence": {"at_month": 1}}]}
    _, p = _run(tmp_path, "plan", plan)
    [o] = [o for o in p["options"] if o["workload"] == "ft"]
    rec = {"workload": FT_7B, "constraints": {"gpus": ["t4"], "max_gpus": 8, "deadline_days": 60,
                                              "acquisition": "rent"}}
    _, d = _run(tmp_path, "recommend", rec)
    eight = next(c for c in d["candidates"] if c["count"] == 8)
    assert o["count"] == 8 and o["wall_hours"] == pytest.approx(eight["wall_days"] * 24, rel=1e-6)
    assert o["wall_hours"] > 6.0  # one server's estimate was 3.29 h


def test_a_serving_copy_over_single_t4_instances_runs_in_pipeline_stages(tmp_path):
    """Llama 2 70B in fp16 on up to 16 rented T4s: the only count that holds it is 16. Before multiinst56 it was
    recommended on two 8-T4 servers, one copy in tensor parallel 8 x 2 pipeline stages; multiinst56 refused that copy
    on sixteen one-GPU instances (NET-TP-ACROSS-INSTANCES: each all-reduce would cross the 25 GbE, which the serving
    estimate does not count) and recommended nothing. Since leftovers57 the serving layouts keep tensor parallelism
    inside an instance: one copy in 16 pipeline stages, each hop over the instances' network, rented as 16
    g4dn.xlarge. Pinned to tensor parallel 8 x 2 stages, the rule still refuses the copy, naming why."""
    _premise()
    w = {"task": "inference", "model": "llama-2-70b", "precision": "fp16", "framework": "vllm",
         "prompt_tokens": 1024, "output_tokens": 256, "concurrent_requests": 8}
    c = {"gpus": ["t4"], "max_gpus": 16, "acquisition": "rent"}
    code, d = _run(tmp_path, "recommend", {"workload": w, "constraints": c})
    rec = d["recommendation"]
    assert code == 0 and rec["count"] == 16 and rec["nodes"] == 16 and rec["instance"] == "g4dn.xlarge"
    assert rec["serving"]["layout"]["tp"] == 1 and rec["serving"]["layout"]["pp"] == 16
    code, d = _run(tmp_path, "recommend", {"workload": {**w, "parallelism": {"tp": 8, "pp": 2}}, "constraints": c})
    assert code == 1 and d["recommendation"] is None
    sixteen = next(c for c in d["candidates"] if c["count"] == 16)
    assert sixteen["nodes"] == 16 and "NET-TP-ACROSS-INSTANCES" in sixteen["rules"]
    why = next(f for f in d["findings"] if f["rule"] == "NET-TP-ACROSS-INSTANCES")["message"]
    assert "separate aws instances of 1 x NVIDIA T4 16GB" in why and "share no NVLink or PCIe" in why


@pytest.mark.parametrize("provider", ["aws", None])
def test_an_audited_node_of_eight_t4s_is_not_rented_as_one_machine(tmp_path, provider):
    """A proposal of 8 T4s on one node, renting from AWS (or naming no provider: the offer chosen is AWS's): one
    g4dn.xlarge holds one T4, so FEE-NODE-BEYOND-RENTAL blocks it, naming the offer's provider. Before: approved,
    estimated as one server over PCIe with the eight instances' RAM summed."""
    _premise()
    doc = {"title": "8 T4s in one server", "workload": FT_7B, "constraints": {"deadline_days": 60},
           "hardware": {"gpu": "t4", "count": 8, "nodes": 1}, "acquisition": {"mode": "rent"}}
    if provider:
        doc["acquisition"]["provider"] = provider
    code, d = _run(tmp_path, "audit", doc)
    assert code == 1 and d["verdict"] == "reject"
    f = next(f for f in d["findings"] if f["rule"] == "FEE-NODE-BEYOND-RENTAL")
    assert f["severity"] == "blocker" and f["evidence"]["rental_max_gpus"] == 1
    assert "rented from aws: the largest rental there is 1 x NVIDIA T4 16GB on one machine" in f["message"]
