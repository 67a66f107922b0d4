"""spotfix62: two spot-rental defects review58 left; each test fails before its fix.

1. The spot proposal of 8 H100 on AWS for 3 months (examples/proposal-spot-h100-pretrain.yaml) read, in its brief,
   'Compute: 5,479 GPU-hours of training, 28.5 days wall-clock with the start-up' (the run on demand) beside its
   table's 'Wall-clock time 38.5 days' (the run with the spot reclaims' redone work and the waits for capacity).
   review50 added the time table to the full report only, so the brief had nothing between the two. The Compute
   line now says the table's wall-clock time and what it holds (candidate facts wall_clock_days, wall_clock_with).

2. A spot rental's offer was chosen by offers.as_sold on the term price of the run's hours, then billed at its spot
   price. 8 H200 on AWS, spot, no instance named (tests/data/spotfix62/audit-spot-8-h200-aws.yaml) took the
   p5e.48xlarge (its 1-month Capacity Block, $39.80 an hour, is cheaper than the p5en.48xlarge's $54.92) and billed
   it at the fallback spot rate, $107 x (1 - 0.55) = $48.15 an hour ($6.02 a GPU-hour, $32,026 of rent), beside the
   p5en.48xlarge's published spot price of $27.20 ($3.40). A spot job's offer is now the one with the lowest spot
   rate (offers.as_spot), and the network a named provider's rental is estimated on is that offer's.
"""
from __future__ import annotations

import pytest

from tests.clirun import ROOT, json_of, text_of

SPOT = ROOT / "examples/proposal-spot-h100-pretrain.yaml"
H200 = ROOT / "tests/data/spotfix62/audit-spot-8-h200-aws.yaml"




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


def test_a_spot_rental_takes_the_offer_with_the_lowest_spot_price(tmp_path):
    data = json_of(tmp_path, "audit", str(H200))
    led = data["proposed"]["ledger"]
    (rent,) = [ln for ln in led["lines"] if ln["kind"] == "rent"]
    i = rent["inputs"]
    # knowledge/clouds.yaml aws: p5en.48xlarge (8 H200) spot_usd_per_hour 27.20, as_of 2026-08-01 (dstack PR #4110);
    # p5e.48xlarge (8 H200) lists no spot price, so its spot rate would be the fallback 107.0 x (1 - 0.55) = 48.15
    assert (i["instance"], i["usd_per_hour"], i["spot_price_known"]) == ("p5en.48xlarge", 27.20, True)
    assert 27.20 < 107.0 * (1 - 0.55)
    # the rent line is the spot rate x the run's hours x (1 + 0.08 restart overhead); the 0.25 h start-up beside it
    assert rent["amount"] == pytest.approx(27.20 * i["hours"] * 1.08, rel=1e-9)
    assert led["period"]["hours"] == pytest.approx(i["hours"] * 1.08 + 0.25, rel=1e-9)
    (used,) = [p for p in data["prices_used"] if p["kind"] == "rent" and not p.get("alternative")]
    assert (used["instance"], used["term"], used["as_of"]) == ("p5en.48xlarge", "spot", "2026-08-01")
    assert used["amount"] == pytest.approx(27.20 / 8)  # $3.40 a GPU-hour
    text = " ".join(text_of(tmp_path, "audit", str(H200), "--detail", "full").split())
    assert "8 GPUs (p5en.48xlarge) on aws, spot" in text and "renting from aws at $3.40 per GPU-hour" in text
    assert "p5e.48xlarge" not in text and "$6.02" not in text


def test_an_on_demand_rental_still_takes_the_cheaper_term(tmp_path):
    # the same 8 H200 on demand over 665 hours (under a month): the p5e.48xlarge's 1-month block, $39.80 an hour for
    # 730 h = $29,054, is the lowest bill (p5en's block $54.92 x 730; its on-demand $63.296 x the run's hours)
    path = tmp_path / "on-demand.yaml"
    path.write_text(H200.read_text().replace("spot: true", "spot: false"))
    data = json_of(tmp_path, "audit", str(path))
    (rent,) = [ln for ln in data["proposed"]["ledger"]["lines"] if ln["kind"] == "rent"]
    assert rent["inputs"]["instance"] == "p5e.48xlarge" and rent["inputs"]["usd_per_hour"] == pytest.approx(39.80)
