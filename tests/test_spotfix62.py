"""spotfix62: two spot-rental defects review58 left; each test fails before its fix.

1. The spot proposal of 8 H100 on AWS for 3 months (examples/proposal-spot-h100-pretrain.yaml) read, in its brief,
   'Compute: 5,479 GPU-hours of training, 28.5 days wall-clock with the start-up' (the run on demand) beside its
   table's 'Wall-clock time 38.5 days' (the run with the spot reclaims' redone work and the waits for capacity).
   review50 added the time table to the full report only, so the brief had nothing between the two. The Compute
   line now says the table's wall-clock time and what it holds (candidate facts wall_clock_days, wall_clock_with).
"""
from __future__ import annotations

import pytest

from tests.clirun import ROOT, json_of, text_of

SPOT = ROOT / "examples/proposal-spot-h100-pretrain.yaml"




def test_the_spot_brief_says_the_wall_clock_time_its_table_shows(tmp_path):
    data = json_of(tmp_path, "audit", str(SPOT))
    tl = data["proposed"]["timeline"]
    parts = {p["name"]: p["hours"] for p in tl["parts"]}
    # knowledge/clouds.yaml spot: restart_overhead 0.08, availability 0.80. The run's own hours (all parts but the
    # start-up) x 0.08 are redone, and (run + redone) x (1 / 0.80 - 1) are spent waiting for capacity:
    run = sum(h for k, h in parts.items() if k not in ("start-up and wind-down", "work redone after spot reclaims",
                                                         "waiting for spot capacity"))
    assert parts["work redone after spot reclaims"] == pytest.approx(run * 0.08, rel=1e-6)
    assert parts["waiting for spot capacity"] == pytest.approx(run * 1.08 * 0.25, rel=1e-6)
    wall = run * 1.08 / 0.80 + 0.25  # 684.9 h x 1.35 + 0.25 h start-up = 924.9 h
    assert tl["wall_hours"] == pytest.approx(wall, rel=1e-6)
    assert round(wall / 24, 1) == 38.5  # the table's 'Wall-clock time 38.5 days'; the run on demand is 28.5 days
    text = " ".join(text_of(tmp_path, "audit", str(SPOT)).split())
    assert "Wall-clock time 38.5 days" in text
    assert ("5,479 GPU-hours of training, 38.5 days wall-clock with the start-up, the work redone after spot "
            "reclaims and the waits for spot capacity, at 93% scaling efficiency") in text
    assert "28.5 days wall-clock" not in text
    zh = "".join(text_of(tmp_path, "audit", str(SPOT), "--lang", "zh").split())
    assert "含启动、竞价实例回收后重做的工作与等待竞价容量的实际耗时38.5天" in zh


def test_an_on_demand_run_keeps_its_compute_line(tmp_path):
    # the same proposal on demand: no reclaims, no waits; the table and the Compute line both say the run's time
    src = SPOT.read_text().replace("spot: true", "spot: false")
    path = tmp_path / "on-demand.yaml"
    path.write_text(src)
    data = json_of(tmp_path, "audit", str(path))
    days = data["proposed"]["timeline"]["wall_hours"] / 24
    said = f"{days:.1f} days"
    text = " ".join(text_of(tmp_path, "audit", str(path)).split())
    assert f"Wall-clock time {said}" in text
    assert f"5,479 GPU-hours of training, {said} wall-clock with the start-up, at 93% scaling efficiency" in text
    zh = "".join(text_of(tmp_path, "audit", str(path), "--lang", "zh").split())
    assert f"含启动的实际耗时{days:.1f}天" in zh
