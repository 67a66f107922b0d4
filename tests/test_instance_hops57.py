"""A serving copy whose pipeline stages sit in separate rented instances (branch leftovers57). The knowledge lists T4s
only as AWS g4dn.xlarge of one T4 each, on 'up to 25 Gb/s' (knowledge/clouds.yaml instances, from AWS's EC2
accelerated-computing instance specifications); branch multiinst56 made such a rental that many servers, but the
serving estimate still placed a copy's GPUs in 8-GPU servers, so a hop between pipeline stages on two instances was
priced as inside one server. Now the hop crosses the instances' network: 25 Gb/s = 3.125 GB/s x runtime.yaml's
link_efficiency 0.75, at the network's 20 us latency (runtime.yaml networks ethernet-25) in place of vLLM's 8 us
(serving.yaml allreduce_latency_us)."""

from __future__ import annotations

import json

import pytest
import yaml

from tests.clirun import gpuwise
from tests.test_multiinst56 import _premise

HIDDEN = 5120  # Llama 2 13B's hidden size (its config.json)
NET_B_S = 25e9 / 8 * 0.75  # 25 GbE at the link efficiency, bytes a second
EXTRA_LAT_S = 20e-6 - 8e-6  # the network's latency over vLLM's in-server figure
PP13B = {"task": "inference", "model": "llama-2-13b", "precision": "fp16", "framework": "vllm",
         "prompt_tokens": 1024, "output_tokens": 128, "concurrent_requests": 1, "parallelism": {"tp": 1, "pp": 2}}


def _serving(tmp_path, nodes: int) -> dict:
    doc = {"title": "13B over T4s", "workload": PP13B, "hardware": {"gpu": "t4", "count": 2, "nodes": nodes},
           "acquisition": {"mode": "rent", "provider": "aws"}}
    (tmp_path / "a.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise("audit", "a.yaml", "--format", "json", cwd=tmp_path)
    assert "Traceback" not in r.stderr, r.stderr
    return json.loads(r.stdout)["proposed"]["serving"]


def test_a_pipeline_hop_between_two_t4_instances_crosses_their_network(tmp_path):
    """Llama 2 13B in fp16, vLLM pinned to 2 pipeline stages on two rented T4s. Stated as two nodes (two
    g4dn.xlarge), against the same estimate on one node (which FEE-NODE-BEYOND-RENTAL refuses; its estimate is the
    in-server pricing both got before this branch). By hand, each of the 2 stages' hops:
    - decode, one sequence: 12 us more latency + 1 token x 5,120 x 2 B / 2.344 GB/s (4.37 us), x 2 = 32.7 us a step;
    - the 1,024-token prompt, one micro-batch of 512 tokens a stage: 12 us + 512 x 5,120 x 2 B / 2.344 GB/s
      (2,237 us), x 2 = 4.50 ms of TTFT (before: 0.5592 s for both; after 0.5637 s on the two instances)."""
    _premise()
    one, two = _serving(tmp_path, 1), _serving(tmp_path, 2)
    assert two["layout_label"] == one["layout_label"] == "2 pipeline stages"
    decode = 2 * (EXTRA_LAT_S + 1 * HIDDEN * 2 / NET_B_S)
    prefill = 2 * (EXTRA_LAT_S + 512 * HIDDEN * 2 / NET_B_S)
    assert two["tpot_s"] - one["tpot_s"] == pytest.approx(decode, rel=1e-3)
    assert two["ttft_s"] - one["ttft_s"] == pytest.approx(prefill, rel=1e-3)
    assert one["ttft_s"] == pytest.approx(0.5592, abs=1e-4)


def test_the_layouts_keep_tensor_parallelism_inside_an_instance():
    """serving.layouts on 16 one-GPU instances: every copy is tensor parallel 1, its stages across instances, and
    each stage's hop is the instances' network; on the usual servers the ladder is tensor parallel up to 8."""
    from gpuwise.estimators import serving as SV
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    kb = _premise()
    w = {k: v for k, v in PP13B.items() if k != "parallelism"}
    job = resolve(Requirements.model_validate({"workload": w, "constraints": {"acquisition": "rent"}}), kb)
    eng = SV.engine(job, kb.gpus["t4"])
    apart = SV.layouts(job, eng, 16, (1, "ethernet-25"))
    assert {lay.tp for lay in apart} == {1} and max(lay.pp for lay in apart) == 16
    assert max(lay.tp for lay in SV.layouts(job, eng, 16)) == 8
    rep = SV.replica(job, kb.gpus["t4"], eng, next(lay for lay in apart if lay.pp == 2))
    assert rep.hop_bw == pytest.approx(NET_B_S) and rep.hop_latency == pytest.approx(20e-6)
