"""The network between several rented instances (auditnet46). A proposal renting 4 x AWS's p5.4xlarge, which
knowledge/clouds.yaml lists with 100 Gb/s EFA (ethernet-100, AWS EC2 accelerated-computing instance
specifications, network bandwidth column), stated roce-400 and was estimated at 99% scaling over 400 Gb/s a GPU
while priced as the p5.4xlarge; and 4 x GCP's a3-highgpu-8g (listed ethernet-400) with no network stated were
estimated over the 25 GbE default of the provider's cheaper a3-highgpu-1g (60% scaling) while priced as the
a3-highgpu-8g. A stated network faster than the listed one is refused in one line; none stated, the listed one is
taken and said."""
from __future__ import annotations

import json

import yaml

from tests.clirun import gpuwise

JOB = {"task": "pretrain", "model": "llama-3.1-8b", "precision": "bf16", "seq_len": 4096, "train_tokens": 1.0e10}


def _audit(tmp_path, hardware: dict, provider: str, instance: str, *extra: str):
    p = {"title": "t", "workload": JOB, "hardware": hardware,
         "acquisition": {"mode": "rent", "provider": provider, "instance": instance, "months": 1}}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(p), encoding="utf-8")
    return gpuwise("audit", "p.yaml", "--format", "json", *extra, cwd=tmp_path)


def _interconnect(d: dict) -> str:
    return next(s["conclusion"] for s in d["steps"] if s["step"] == "interconnect")


def test_a_faster_network_than_the_instance_is_listed_with_is_refused(tmp_path):
    # runtime.yaml networks: ethernet-100 12.5 GB/s a node, 15 us; roce-400 50 GB/s a GPU, 5 us: one GPU a node
    r = _audit(tmp_path, {"gpu": "h100-80gb-sxm", "count": 4, "nodes": 4, "network": "roce-400"}, "aws",
               "p5.4xlarge")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "p.yaml: hardware.network" in r.stderr
    assert "p5.4xlarge is listed with ethernet-100 between instances (12.5 GB/s a node, 15 us)" in r.stderr
    assert "not the faster roce-400 (50 GB/s a node, 5 us)" in r.stderr
    assert "give hardware.network: ethernet-100" in r.stderr


def test_a_per_gpu_network_counts_the_gpus_of_a_node(tmp_path):
    # p4d.24xlarge: 400 Gb/s EFA a node (ethernet-400, 50 GB/s); roce-400 over 8 GPUs a node = 8 x 50 = 400 GB/s
    r = _audit(tmp_path, {"gpu": "a100-40gb-sxm", "count": 32, "nodes": 4, "network": "roce-400"}, "aws",
               "p4d.24xlarge")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "(50 GB/s a node, 10 us)" in r.stderr and "roce-400 (400 GB/s a node, 5 us)" in r.stderr


def test_the_refusal_in_chinese(tmp_path):
    r = _audit(tmp_path, {"gpu": "h100-80gb-sxm", "count": 4, "nodes": 4, "network": "roce-400"}, "aws",
               "p5.4xlarge", "--lang", "zh")
    assert r.returncode == 2 and "实例间网络" in r.stderr and "ethernet-100" in r.stderr


def test_a_slower_network_or_one_instance_is_read_as_written(tmp_path):
    r = _audit(tmp_path, {"gpu": "h100-80gb-sxm", "count": 4, "nodes": 4, "network": "ethernet-25"}, "aws",
               "p5.4xlarge")
    assert r.returncode in (0, 1), r.stderr
    assert "4 nodes of one GPU each" in _interconnect(json.loads(r.stdout))
    assert "over ethernet-25" in _interconnect(json.loads(r.stdout))
    one = _audit(tmp_path, {"gpu": "a100-40gb-sxm", "count": 8, "network": "roce-400"}, "aws", "p4d.24xlarge")
    assert one.returncode in (0, 1), one.stderr


def test_no_network_stated_takes_the_listed_instances_and_says_so(tmp_path):
    # GCP a3-highgpu-8g: clouds.yaml network ethernet-400; before, the estimate ran over ethernet-25 (60% scaling,
    # NET-LOW-EFFICIENCY) while the rental was priced as the a3-highgpu-8g
    r = _audit(tmp_path, {"gpu": "h100-80gb-sxm", "count": 32, "nodes": 4}, "gcp", "a3-highgpu-8g")
    assert r.returncode in (0, 1), r.stderr
    d = json.loads(r.stdout)
    assert "4 nodes over ethernet-400" in _interconnect(d)
    said = [a for a in d["assumptions"] if a["field"] == "hardware.network"]
    assert said and said[0]["value"] == "ethernet-400" and said[0]["message_id"] == "assume.network.instance"
    assert "a3-highgpu-8g is listed with" in said[0]["reason"] and "the 4 nodes" in said[0]["reason"]
    assert not any(f["rule"] in ("NET-LOW-EFFICIENCY", "NET-SLOW-NETWORK") for f in d["findings"])


def test_an_instance_named_without_its_provider_is_estimated_on_its_listed_network(tmp_path):
    # AWS p4d.24xlarge: clouds.yaml network ethernet-400 (400 Gb/s EFA a node); with no provider named the estimate
    # ran over the catalog's datacenter default (runtime.yaml default_network_datacenter) while the p4d was priced
    p = {"title": "t", "workload": JOB, "hardware": {"gpu": "a100-40gb-sxm", "count": 32, "nodes": 4},
         "acquisition": {"mode": "rent", "instance": "p4d.24xlarge", "months": 1}}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(p), encoding="utf-8")
    r = gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
    d = json.loads(r.stdout)
    assert "4 nodes over ethernet-400" in _interconnect(d)
    assert any(a["field"] == "hardware.network" and a["value"] == "ethernet-400" for a in d["assumptions"])
