"""AutoDL rents GPUs in one shared host per instance, never a multi-node cluster (autodl53).

review48: a CNY LoRA of Qwen2.5-7B on RTX 4090s was answered 'Rent 64 x RTX 4090 from autodl' over 8 nodes on
the 25 GbE default, though AutoDL's market rents an instance as a container on one host, its GPU count picked from
that host's free GPUs (autodl.com/market/list, the console's 租用实例 page); the console API lists a host's GPUs as
gpu_all_num 8 (the response recorded in github.com/xiaoti12/autodl_bot's notes, 2024-11). knowledge/clouds.yaml now
gives both AutoDL offers max_gpus 8, so a count above one host is not rented from AutoDL unless a proposal names it.
"""

from __future__ import annotations

import json

import pytest
import yaml

from gpuwise.estimators.offers import rent_offers
from tests.clirun import gpuwise


def test_autodl_offers_rent_at_most_one_eight_gpu_host(kb):
    autodl = [p for p in kb.clouds.gpu_hour_prices if p.provider == "autodl"]
    assert {p.gpu for p in autodl} == {"rtx-4090", "rtx-3090"}
    assert all(p.max_gpus == 8 for p in autodl)


def test_autodl_is_not_offered_beyond_one_host(kb):
    rate = kb.tco.values["usd_cny"].value
    [eight] = [o for o in rent_offers(kb.clouds, "rtx-4090", 8, rate) if o.provider == "autodl"]
    assert eight.gpus == 8 and eight.usd_per_hour == pytest.approx(8 * 1.98 / rate)  # 15.84 CNY an hour
    assert not [o for o in rent_offers(kb.clouds, "rtx-4090", 16, rate) if o.provider == "autodl"]
    assert not [o for o in rent_offers(kb.clouds, "rtx-3090", 64, rate) if o.provider == "autodl"]
    # a proposal that names AutoDL still prices its own count (several instances, said to be joined by the
    # network the provider states, the assumed default here)
    named = [o for o in rent_offers(kb.clouds, "rtx-4090", 16, rate, named="autodl") if o.provider == "autodl"]
    assert named and named[0].gpus == 16


CN_LORA = {"workload": {"task": "finetune", "method": "lora", "model": "qwen2.5-7b", "train_tokens": 1.0e8},
           "constraints": {"gpus": ["RTX 4090"], "acquisition": "rent", "currency": "CNY"}}


def test_recommend_rents_autodl_on_one_host(tmp_path):
    (tmp_path / "r.yaml").write_text(yaml.safe_dump(CN_LORA), encoding="utf-8")
    r = gpuwise("recommend", "r.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    d = json.loads(r.stdout)
    rec = d["recommendation"]
    # before: 64 x RTX 4090 over 8 nodes of ethernet-25 at CN¥65.03; now within one 8-GPU host
    assert (rec["gpu"], rec["count"], rec["nodes"]) == ("rtx-4090", 8, 1)
    assert rec["ledger"]["lines"][0]["inputs"]["provider"] == "autodl"
    # the 8-node candidate is not rented: no offer in the knowledge base gives 64 RTX 4090s in one rental
    [blocked] = [f for f in d["findings"] if f["rule"] == "TCO-NO-RENTAL"]
    assert "64 x NVIDIA GeForce RTX 4090" in blocked["message"]


def _audit_rules(tmp_path, count: int, nodes: int) -> dict[str, str]:
    doc = {"title": "LoRA at AutoDL", "workload": CN_LORA["workload"],
           "constraints": {"market": "china", "currency": "CNY"},
           "hardware": {"gpu": "rtx-4090", "count": count, "nodes": nodes},
           "acquisition": {"mode": "rent", "provider": "autodl"}}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1, 2) and "Traceback" not in r.stderr, r.stderr
    return {f["rule"]: f["message"] for f in json.loads(r.stdout)["findings"]}


def test_an_audited_node_larger_than_one_autodl_host_is_a_blocker(tmp_path):
    # 16 on one node: one AutoDL rental is one host of at most 8 (max_gpus), so that node cannot be rented
    one = _audit_rules(tmp_path, 16, 1)
    assert one["FEE-NODE-BEYOND-RENTAL"].startswith("16 x NVIDIA GeForce RTX 4090 24GB on one node rented from "
                                                    "autodl: the largest rental there is 8 x NVIDIA GeForce RTX "
                                                    "4090 24GB on one machine")
    # two nodes of 8 are two rentals of one host each: the rule is quiet (their network is the assumed default)
    assert "FEE-NODE-BEYOND-RENTAL" not in _audit_rules(tmp_path, 16, 2)
    assert "FEE-NODE-BEYOND-RENTAL" not in _audit_rules(tmp_path, 8, 1)
