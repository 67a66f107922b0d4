"""A plan's two leftovers of branch leftovers57 (branch plansvc57).

1. A service on a GPU type the plan only rents, sold only as smaller instances than a server: T4s, which the knowledge
   lists only as AWS g4dn.xlarge of one T4 each on 'up to 25 Gb/s' (knowledge/clouds.yaml instances, from AWS's EC2
   accelerated-computing instance specifications). Its copy was sized as one server (tensor parallel 2 over one
   server's PCIe, 30.3 tokens/s a copy), which two instances are not; now it is sized on the instances over their
   network, as recommend estimates the rental: tensor parallelism inside an instance, the pipeline hop across.
2. A training run on owned GPUs spanning two owned servers kept the hours of the GPUs in one server; now its hours are
   estimated over the owned servers on the network between them (the default for the GPU's class,
   knowledge/runtime.yaml default_network_*, which the plan's assumptions name), and the plan's page says which.
"""

from __future__ import annotations

import math

import pytest
import yaml

from tests.clirun import json_of, write_yaml
from tests.test_multiinst56 import _premise

HOURS_PER_MONTH = 730


def _run(tmp_path, command: str, doc: dict, *args: str) -> dict:
    return json_of(tmp_path, command, write_yaml(tmp_path, doc, "in.yaml"), *args)


CHAT13 = {"task": "inference", "model": "llama-2-13b", "precision": "fp16", "framework": "vllm",
          "prompt_tokens": 1024, "output_tokens": 128}
SERVICE = {"horizon_months": 3,
           "workloads": [{"name": "chat13", "workload": CHAT13, "cadence": {"continuous": True},
                          "targets": {"requests_per_s": 0.5}}],
           "constraints": {"gpus": ["t4"], "max_gpus": 16, "acquisition": "rent"}}


def test_a_service_on_t4s_rented_only_as_one_gpu_instances_is_sized_on_them(tmp_path):
    """Llama 2 13B fp16 on vLLM, 0.5 requests/s of 128 output tokens = 64 tokens/s, rented T4s only. The fewest T4s
    a copy fits is 2; as two g4dn.xlarge they are 2 pipeline stages over the instances' network (before: tensor
    parallel 2, 30.29 tokens/s a copy, 3 copies on 6 T4s, $6,911.64 over 3 months). The copy's capacity is the one
    `gpuwise audit` gives two T4s on two nodes from AWS (the same serving estimate reached as a proposal), 9.10
    tokens/s: ceil(64 / 9.10) = 8 copies on 16 instances, by hand 16 x $0.526 (g4dn.xlarge on demand, the plan's
    rent of a copy over its 2 GPUs) x 730 h x 3 months = $18,431.04."""
    _premise()
    d = _run(tmp_path, "plan", SERVICE)
    opt = next(o for o in d["options"] if o["gpu"] == "t4")["copy_sizes"][0]  # the fewest (plancopy57: the copy is
    assert opt["count"] == 2 and opt["layout"] == "2 pipeline stages"  # now 4, tests/test_plancopy57.py)
    proposal = {"title": "13B on two T4 instances", "workload": {**CHAT13, "requests_per_s": 0.5},
                "hardware": {"gpu": "t4", "count": 2, "nodes": 2}, "acquisition": {"mode": "rent", "provider": "aws"}}
    audited = _run(tmp_path, "audit", proposal)["proposed"]["serving"]
    assert opt["capacity"] == pytest.approx(audited["max_throughput_tokens_per_s"], rel=1e-6)
    assert opt["capacity"] == pytest.approx(9.10, abs=0.01)
    copies = math.ceil(0.5 * 128 / opt["capacity"])
    assert copies == 8 == opt["copies"] and opt["gpus"] == 16
    per_instance = opt["rent_per_hour"] / 16  # the 8 copies' rent an hour
    assert per_instance == pytest.approx(0.526)
    assert opt["rent_per_hour"] * HOURS_PER_MONTH * 3 == pytest.approx(18431.04, rel=1e-6)


# fp32 master weights stated: left out, a one-GPU layout keeps every state in bf16 (branch bare62)
FT8 = {"task": "finetune", "method": "full", "model": "llama-3.1-8b", "seq_len": 2048, "train_tokens": 1.0e8,
       "mixed_precision": True}
OWNED_5090 = {"horizon_months": 3, "owned": [{"gpu": "rtx-5090", "count": 8, "servers": 2, "host_ram_gb": 64}],
              "workloads": [{"name": "ft8", "workload": FT8, "cadence": {"at_month": 1}, "deadline_days": 30}],
              "constraints": {"gpus": ["rtx-5090"], "max_gpus": 8}}


def test_a_run_over_two_owned_servers_is_timed_over_the_network_between_them(tmp_path):
    """A full fine-tune of Llama 3.1 8B on 8 owned RTX 5090s in two servers of 4, 64 GB of RAM each (fewer of them
    cannot hold its offloaded state there): 8 pipeline stages, micro-batch 1 of 2,048 tokens, 64 micro-batches a
    step. Before, its hours were one 8-GPU server's (2.403 h, stages over PCIe; 2.438 h while the recompute ran the
    output head again, before branch hfrecompute59). Over the two servers on the default network of the class,
    ethernet-25 (3.125 GB/s a server, shared by its 4 GPUs, runtime.yaml networks, at link_efficiency 0.75, 20 us),
    by hand a step is the same compute and optimizer, plus:
    - pipeline sends: 2 x 64 = 128 a step, each 2,048 x 4,096 (hidden) x 2 B = 16,777,216 B at 3.125e9 / 4 x 0.75 =
      585.9 MB/s = 28.633 ms + 20 us: 3.6676 s;
    - the bubble: (8 - 1) / 64 of the compute and the sends;
    steps: 1e8 / (64 x 2,048) = 762.94, over the estimate's goodput, plus the 0.25 h set-up: 3.488 h (3.526 h with the
    head recomputed)."""
    from gpuwise.estimators.candidate import evaluate
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements
    from gpuwise.knowledge import load

    kb = load()
    job = resolve(Requirements.model_validate({"workload": FT8}), kb)
    one = evaluate(job, kb.gpus["rtx-5090"], 8, host_ram_ahead_gb=128.0)  # as sized: one node, 2 x 64 GB
    assert one.plan.layout.pp == 8 and one.plan.layout.grad_accum == 64 and one.plan.layout.micro_batch == 1
    sends = 2 * 64 * (2048 * 4096 * 2 / (3.125e9 / 4 * 0.75) + 20e-6)
    assert sends == pytest.approx(3.6676, abs=1e-4)
    compute, optimizer = one.plan.step.compute, one.plan.step.optimizer
    step = compute + sends + 7 / 64 * (compute + sends) + optimizer
    wall = 1e8 / (64 * 2048) * step / one.plan.goodput / 3600 + 0.25

    d = _run(tmp_path, "plan", OWNED_5090)
    opt = d["options"][0]
    assert opt["count"] == 8 and opt["layout"] == "PP8 + gradient checkpointing"
    assert one.speed.wall_hours == pytest.approx(2.403, abs=1e-3)  # the hours it had before
    assert opt["wall_hours"] == pytest.approx(wall, rel=1e-6)
    assert opt["wall_hours"] == pytest.approx(3.488, abs=1e-3)
    placed = d["months"][0]["placements"]
    assert [(p["count"], p["acquisition"]) for p in placed] == [(8, "owned")]
    assert placed[0]["gpu_hours"] == pytest.approx(8 * wall, abs=1e-3)
    assert d["owned"][0]["network"] == "ethernet-25"
    said = next(a for a in d["assumptions"] if a["field"] == "owned[].servers")
    assert said["values"]["network"] == "ethernet-25" and "a run's hours estimated over it" in said["reason"]


# fp32 master weights stated: left out, a one-GPU layout keeps every state in bf16 (branch bare62)
FT13 = {"task": "finetune", "method": "full", "model": "llama-2-13b", "seq_len": 4096, "train_tokens": 5.0e8,
        "mixed_precision": True}
OWNED_A100 = {"horizon_months": 6, "owned": [{"gpu": "a100-40gb-sxm", "count": 8, "servers": 2, "host_ram_gb": 128}],
              "workloads": [{"name": "ft13", "workload": FT13, "cadence": {"at_month": 1}, "deadline_days": 10}],
              "constraints": {"gpus": ["a100-40gb-sxm"], "max_gpus": 8}}


def test_the_owned_run_and_its_rental_keep_their_own_servers(tmp_path):
    """test_plan_owned_ram57's case: the 13B full fine-tune placed on 8 owned A100 40GB in two servers of 4. Its
    owned hours are those `gpuwise audit` gives 8 A100s on 2 nodes over infiniband-400 (the datacenter class's
    default), 10.917 h; renting the 8 is one 8-GPU server, its 10.773 h as before (rent_wall_hours). The page says
    the network the run crosses."""
    d = _run(tmp_path, "plan", OWNED_A100)
    opt = d["options"][0]
    proposal = {"title": "13B FT on 2 x 4 A100", "workload": FT13,
                "hardware": {"gpu": "a100-40gb-sxm", "count": 8, "nodes": 2, "network": "infiniband-400"},
                "acquisition": {"mode": "buy"}}
    audited = _run(tmp_path, "audit", proposal)["proposed"]
    assert opt["wall_hours"] == pytest.approx(audited["wall_days"] * 24, rel=1e-9)
    assert opt["wall_hours"] == pytest.approx(10.917, abs=1e-3)
    assert opt["rent_count"] == 0 and opt["rent_wall_hours"] == pytest.approx(10.773, abs=1e-3)
    from gpuwise.plan import plan
    from gpuwise.render import plan_view

    (tmp_path / "p.yaml").write_text(yaml.safe_dump(OWNED_A100), encoding="utf-8")
    r = plan(tmp_path / "p.yaml")
    text = plan_view.render(r, "text", width=120)
    assert "8 × NVIDIA A100 SXM4 40GB  owned, over 2 servers on infiniband-400" in text
    assert "自有，跨 2 台服务器（经 infiniband-400）" in plan_view.render(r, "text", width=120, lang="zh")
