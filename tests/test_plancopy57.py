"""A plan's service copy is the size whose copies carry the load for least, not always the fewest GPUs that hold it
(branch plancopy57; plan/copies.py). A few sizes are tried beside the fewest: twice and four times it, the GPUs its
rental pays for and a server's, each judged by the rules as the fewest is; the copy is the one whose copies cost
least over the months, the fewest on a tie, and the option's ``copy_sizes`` say each size tried."""

from __future__ import annotations

import math

import pytest
import yaml

from tests.clirun import json_of, write_yaml
from tests.test_multiinst56 import _premise
from tests.test_plansvc57 import CHAT13, SERVICE

HOURS = 730 * 3  # the plans' three months of 730 hours (estimators/cost.py HOURS_PER_MONTH)


def _plan(tmp_path, doc: dict) -> dict:
    return json_of(tmp_path, "plan", write_yaml(tmp_path, doc, "in.yaml"))


def _audit(tmp_path, gpu: str, count: int, nodes: int, workload: dict) -> dict:
    doc = {"title": "a copy", "workload": workload, "hardware": {"gpu": gpu, "count": count, "nodes": nodes},
           "acquisition": {"mode": "rent", "provider": "aws"}}
    return json_of(tmp_path, "audit", write_yaml(tmp_path, doc, "p.yaml"))["proposed"]["serving"]


def test_a_copy_on_four_rented_t4s_carries_the_load_the_fewest_needed_eight_copies_for(tmp_path):
    """plansvc57's service: Llama 2 13B fp16 on vLLM, 0.5 requests/s of 128 output tokens = 64 tokens/s, T4s rented
    only as one-GPU g4dn.xlarge ($0.526 an hour, knowledge/clouds.yaml). The fewest T4s that hold a copy, 2, are two
    pipeline stages over two instances and carry 9.10 tokens/s (`gpuwise audit` of two T4s on two AWS nodes): ceil(64
    / 9.10) = 8 copies on 16 T4s, by hand 16 x $0.526 x 730 h x 3 months = $18,431.04. Four T4s, four stages over four
    instances, leave the 13B's 26 GB of weights a quarter of 64 GB and carry 112.09 tokens/s (`gpuwise audit` of four
    on four nodes), one copy for the load: 4 x $0.526 x 2,190 h = $4,607.76. Eight a copy are not tried: one copy a
    month of 8 is 24 GPU-months, no fewer than the 4's 12."""
    _premise()
    d = _plan(tmp_path, SERVICE)
    opt = next(o for o in d["options"] if o["gpu"] == "t4")
    two, four = (_audit(tmp_path, "t4", n, n, {**CHAT13, "requests_per_s": 0.5}) for n in (2, 4))
    assert [c["count"] for c in opt["copy_sizes"]] == [2, 4]
    fewest, kept = opt["copy_sizes"]
    assert fewest["layout"] == "2 pipeline stages" and kept["layout"] == "4 pipeline stages"
    assert fewest["capacity"] == pytest.approx(two["max_throughput_tokens_per_s"], rel=1e-6)
    assert kept["capacity"] == pytest.approx(four["max_throughput_tokens_per_s"], rel=1e-6)
    assert fewest["capacity"] == pytest.approx(9.10, abs=0.01) and kept["capacity"] == pytest.approx(112.09, abs=0.01)
    assert (fewest["copies"], fewest["gpus"]) == (math.ceil(64 / 9.0956), 16) == (8, 16)
    assert (kept["copies"], kept["gpus"]) == (1, 4)
    assert fewest["rent_per_hour"] == pytest.approx(16 * 0.526) and kept["rent_per_hour"] == pytest.approx(4 * 0.526)
    assert fewest["rent_per_hour"] * HOURS == pytest.approx(18431.04)  # the plan before this branch
    assert opt["count"] == 4 and opt["capacity"] == kept["capacity"] and opt["layout"] == "4 pipeline stages"
    assert d["total"] == pytest.approx(4 * 0.526 * HOURS) == pytest.approx(4607.76)
    assert [(p["count"], p["copies"]) for m in d["months"] for p in m["placements"]] == [(4, 1)] * 3


def test_the_page_says_the_copy_and_the_sizes_tried(tmp_path):
    from gpuwise.plan import plan
    from gpuwise.render import plan_view

    _premise()
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(SERVICE), encoding="utf-8")
    r = plan(tmp_path / "p.yaml")
    text = " ".join(plan_view.render(r, "text", width=200, detail="full").split())
    assert ("4, the size whose copies carry the load for least (at the peak month: 2 a copy, 9.1 tokens/s: 8 on 16 "
            "GPUs, $8.42 an hour; 4 a copy, 112.1 tokens/s: 1 on 4 GPUs, $2.10 an hour)") in text
    zh = " ".join(plan_view.render(r, "text", width=200, detail="full", lang="zh").split())
    assert "承载该负载花费最少的副本规模" in zh


LLAMA8 = {"task": "inference", "model": "llama-3.1-8b", "precision": "bf16", "framework": "vllm",
          "prompt_tokens": 1024, "output_tokens": 256}
H100_SERVICE = {"horizon_months": 3,
                "workloads": [{"name": "chat8", "workload": LLAMA8, "cadence": {"continuous": True},
                               "targets": {"requests_per_s": 40}}],
                "constraints": {"gpus": ["h100-80gb-sxm"], "max_gpus": 64, "acquisition": "rent"}}


def test_on_an_eight_gpu_server_the_fewest_stay_where_they_cost_least(tmp_path):
    """Llama 3.1 8B bf16 on vLLM at 40 requests/s of 256 output tokens (10,240 tokens/s) on rented H100 SXMs (HGX
    servers of 8): one H100 a copy carries 4,170 tokens/s, ceil(10,240 / 4,170) = 3 copies on 3 GPUs; two a copy
    (tensor parallel 2) carry 7,699 tokens/s, less than twice one, 2 copies on 4 GPUs. At the cheapest offer's $2.69 a
    GPU-hour: 3 x $2.69 = $8.07 an hour against 4 x $2.69 = $10.76, so the copy stays on one GPU, as before this
    branch: 3 x $2.69 x 2,190 h = $17,673.30. Four (4 x 1) and eight (the server) a copy are not tried: one copy a
    month of 4 is already 12 GPU-months, more than the fewest's 9."""
    d = _plan(tmp_path, H100_SERVICE)
    opt = d["options"][0]
    assert opt["count"] == 1 and opt["layout"] == "one GPU"
    assert [c["count"] for c in opt["copy_sizes"]] == [1, 2]
    one, two = opt["copy_sizes"]
    assert one["capacity"] == pytest.approx(4170.0, abs=1) and two["capacity"] == pytest.approx(7699.1, abs=1)
    assert (one["copies"], two["copies"]) == (math.ceil(10240 / 4170.0), math.ceil(10240 / 7699.1)) == (3, 2)
    assert opt["rent_per_hour"] == pytest.approx(2.69)
    assert (one["rent_per_hour"], two["rent_per_hour"]) == (pytest.approx(3 * 2.69), pytest.approx(4 * 2.69))
    assert d["total"] == pytest.approx(3 * 2.69 * HOURS) == pytest.approx(17673.30)
