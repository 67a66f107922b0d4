"""Two plan defects with owned servers (hostile round 45, branch plant4_58), on the plan file
tests/data/plans/t4-owned-two-servers.yaml: 8 owned T4s in two servers of 4, Llama 2 13B fp16 at 0.5 requests/s of
256 output tokens = 128 tokens/s.

1. The owned copies were never offered a larger size: a copy of 4 T4s was tried, but dropped because its rental (AWS
   sells T4s only as one-GPU g4dn.xlarge, knowledge/clouds.yaml) is smaller instances than the server it was
   estimated in -- a reason that holds for a rented copy, not for one in an owned server. The owned GPUs now get the
   copy-size choice (copies.cheapest), and a rental that does not hold the copy is left off it.
2. Renting everything rented those copies of tensor parallel 2 on one-GPU instances (NET-TP-ACROSS-INSTANCES); the
   rented copies are now sized as a plan that only rents sizes them (on the instances over their network), so the
   baseline rents what the same plan without the owned T4s rents.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
import yaml

from tests.clirun import json_of, write_yaml

FIXTURE = Path(__file__).parent / "data" / "plans" / "t4-owned-two-servers.yaml"
HOURS_PER_MONTH = 730
G4DN_XLARGE = 0.526  # USD an hour, on demand, us-east-1 (knowledge/clouds.yaml g4dn.xlarge, AWS's price page)
G4DN_XLARGE_1Y = 0.331  # USD an hour, 1-year Standard Reserved, no upfront (the same entry)


def _plan(tmp_path, doc: dict) -> dict:
    return json_of(tmp_path, "plan", write_yaml(tmp_path, doc, "plan.yaml"))


def _doc() -> dict:
    return yaml.safe_load(FIXTURE.read_text())


def test_the_owned_copies_get_the_copy_size_choice(tmp_path):
    """A copy of 2 T4s (tensor parallel 2) carries about 50 tokens/s, so 128 tokens/s needed ceil(128 / 50.2) = 3
    copies on 6 owned T4s; a copy of 4 (tensor parallel 4, one owned server) carries about 499 tokens/s, 1 copy on 4.
    Fewer GPU-months on the owned GPUs (12 x 4 = 48 against 12 x 6 = 72): the copy is 4. The plan pays the owned T4s'
    power only: 4 busy GPUs x (70 W, the T4's TDP in knowledge/gpus.yaml, + 410 W, a GPU server's host power a GPU,
    knowledge/tco.yaml host_power_w_per_gpu) at an office's PUE of 1.0 x $0.15 a kWh (the default) x 8,760 hours =
    $2,522.88 (6 GPUs before: $3,784.32)."""
    d = _plan(tmp_path, _doc())
    o = next(x for x in d["options"] if x["gpu"] == "t4")
    tried = {c["count"]: c for c in o["copy_sizes"]}
    assert set(tried) == {2, 4}  # before: [] (4 never tried)
    assert tried[2]["copies"] == math.ceil(128 / tried[2]["capacity"]) == 3 and tried[2]["gpus"] == 6
    assert tried[4]["copies"] == math.ceil(128 / tried[4]["capacity"]) == 1 and tried[4]["gpus"] == 4
    assert tried[2]["layout"] == "tensor parallel 2" and tried[4]["layout"] == "tensor parallel 4"
    assert o["count"] == 4 and o["layout"] == "tensor parallel 4"
    for month in d["months"]:
        assert [(p["count"], p["acquisition"], p["copies"]) for p in month["placements"]] == [(4, "owned", 1)]
    assert d["total"] == pytest.approx(4 * (70 + 410) / 1000 * 1.0 * 0.15 * 12 * HOURS_PER_MONTH, abs=0.01)
    assert d["total"] == pytest.approx(2522.88, abs=0.01)


def test_renting_everything_rents_what_the_plan_would_rent(tmp_path):
    """Without the owned T4s (acquisition rent) the plan sizes a rented copy on g4dn.xlarge instances over their
    network: 4 pipeline stages, one copy carrying the load; renting everything now rents that copy, where it rented
    3 copies of tensor parallel 2 on 6 one-GPU instances ($17,397.36 over 12 months; $6,911.64 = 6 x $0.526 x 730 x 3
    over 3). By hand, over 12 months the 4 instances on the 1-year reserved rate: 4 x $0.331 x 8,760 h =
    $11,598.24; over 3 months on demand: 4 x $0.526 x 730 x 3 = $4,607.76 -- each the rent-only plan's own total."""
    d = _plan(tmp_path, _doc())
    o = next(x for x in d["options"] if x["gpu"] == "t4")
    rent_only = {k: v for k, v in _doc().items() if k != "owned"}
    rent_only["constraints"] = {**rent_only["constraints"], "acquisition": "rent"}
    r = _plan(tmp_path, rent_only)
    ro = next(x for x in r["options"] if x["gpu"] == "t4")
    assert ro["count"] == 4 and ro["layout"] == "4 pipeline stages"
    assert o["rent_count"] == ro["count"] and o["rent_capacity"] == pytest.approx(ro["capacity"], rel=1e-9)
    assert o["rent_per_hour"] == pytest.approx(4 * G4DN_XLARGE)
    assert d["baselines"]["rent_all"] == pytest.approx(4 * G4DN_XLARGE_1Y * 12 * HOURS_PER_MONTH, abs=0.01)
    assert d["baselines"]["rent_all"] == pytest.approx(r["total"], abs=0.01) == pytest.approx(11598.24, abs=0.01)

    three = {**_doc(), "horizon_months": 3}
    d3 = _plan(tmp_path, three)
    assert d3["baselines"]["rent_all"] == pytest.approx(4 * G4DN_XLARGE * HOURS_PER_MONTH * 3, abs=0.01)
    assert d3["baselines"]["rent_all"] == pytest.approx(4607.76, abs=0.01)


def test_rented_copies_sized_apart_are_placed_and_shown_at_their_size(tmp_path):
    """2 owned T4s in one server and 1 request/s (256 tokens/s): an owned copy of tensor parallel 2 carries about 50
    tokens/s, a rented copy of 4 g4dn.xlarge (4 pipeline stages) about 202, so the load needs 2 rented copies and the
    owned copy's 50 + one rented 202 fall short of 256: the plan rents 2 copies on 8 instances, by hand 2 x 4 x $0.526
    x 730 h = $3,071.84 a month. The rented placement counts 4 GPUs a copy, and the page's 'A copy' says 4 (it said
    the owned copy's 2); the full page's option says the rented copy's size and capacity."""
    doc = {"horizon_months": 3, "owned": [{"gpu": "T4", "count": 2, "servers": 1}],
           "workloads": [{**_doc()["workloads"][0], "targets": {"requests_per_s": 1.0}}],
           "constraints": {"gpus": ["t4"]}}
    d = _plan(tmp_path, doc)
    o = d["options"][0]
    assert (o["count"], o["rent_count"]) == (2, 4)
    assert math.ceil(256 / o["rent_capacity"]) == 2 and o["capacity"] + o["rent_capacity"] < 256
    for month in d["months"]:
        assert [(p["count"], p["acquisition"], p["copies"]) for p in month["placements"]] == [(8, "rent", 2)]
    rent = [x["amount"] for x in d["lines"] if x["kind"] == "rent"]
    assert rent == pytest.approx([2 * 4 * G4DN_XLARGE * HOURS_PER_MONTH] * 3) and rent[0] == pytest.approx(3071.84)
    write = write_yaml(tmp_path, doc, "mix.yaml")
    from tests.clirun import gpuwise

    page = gpuwise("plan", write, "--detail", "full", cwd=tmp_path).stdout
    row = next(line for line in page.splitlines() if line.strip().startswith("chat-13b") and "rented" in line)
    assert re.search(r"T4 16GB\s+(\d+)\s+rented", row).group(1) == "4", row  # the 'A copy' column
    assert "aws: a rented copy on 4 GPUs" in " ".join(page.split())


def test_a_plan_that_may_buy_rents_the_rent_only_plans_copy(tmp_path):
    """The same service with no owned T4s and acquisition either (the default): the bought copy is sized in a server
    (tensor parallel 4), and the rented one as the rent-only plan sizes it. Before, the plan rented 3 copies of
    tensor parallel 2 on 6 one-GPU g4dn.xlarge, $6,911.64 over 3 months (NET-TP-ACROSS-INSTANCES's layout); now one
    copy on 4 instances, 4 x $0.526 x 730 x 3 = $4,607.76, the rent-only plan's total."""
    doc = {"horizon_months": 3, "workloads": _doc()["workloads"], "constraints": {"gpus": ["t4"]}}
    d = _plan(tmp_path, doc)
    o = d["options"][0]
    assert (o["count"], o["layout"], o["rent_count"]) == (4, "tensor parallel 4", 4)
    assert d["total"] == pytest.approx(4 * G4DN_XLARGE * HOURS_PER_MONTH * 3, abs=0.01) == d["baselines"]["rent_all"]
    assert [(p["count"], p["acquisition"]) for p in d["months"][0]["placements"]] == [(4, "rent")]
