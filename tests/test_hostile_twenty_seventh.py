"""Hostile round 27: what round 27 of benchmarks/hostile_corpus.py found, each fix with a test that
fails without it. The whole round is benchmarks/hostile_round27.py."""

from __future__ import annotations

import json
from pathlib import Path

from .clirun import gpuwise

# one copy of Qwen3-Next-80B-A3B in bf16 needs 8 RTX 4090s; one is owned, the plan may only buy
BUY_ONLY = """horizon_months: 3
owned: [{gpu: RTX 4090, count: 1, servers: 1}]
workloads:
  - {name: big, workload: {task: inference, model: qwen3-next-80b-a3b, prompt_tokens: 1000, output_tokens: 200},
     cadence: {continuous: true}, targets: {requests_per_s: 1}}
constraints: {acquisition: buy, gpus: [rtx-4090]}
"""


def _one_line(r, code: int = 2) -> str:
    assert r.returncode == code, (r.stdout[-300:], r.stderr)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr


def test_a_buy_only_plan_rents_nothing_while_its_purchase_is_delivered(tmp_path: Path) -> None:
    # round 27: the buy-for-the-peak baseline rented the months before the purchase arrives
    # (plan_delivery_months 1) even under acquisition: buy, and, cheaper than leaving month 1 unplaced, it was
    # chosen as the plan: 'Rent NVIDIA GeForce RTX 4090 24GB for 5,840 GPU-hours in months 1 ($1,986)' under
    # 'no way that keeps to the constraints costs less' (docs/formats.md: buy, nothing rented)
    (tmp_path / "plan.yaml").write_text(BUY_ONLY, encoding="utf-8")
    r = gpuwise("plan", "plan.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 1, r.stderr  # month 1 has nothing to run on: unplaced, as the contract says
    d = json.loads(r.stdout)
    assert not [x for x in d["lines"] if x["kind"] == "rent"]
    assert [(u["workload"], u["months"]) for u in d["unplaced"]] == [("big", [1])]
    # 7 bought (8 a copy, 1 owned) in month 1, arriving in month 2
    assert [(p["month"], p["count"], p["arrives"]) for p in d["purchases"]] == [(1, 7, 2)]
    peak = next(b for b in d["baseline_details"] if b["name"] == "buy_for_peak")
    assert not peak["allowed"] and peak["why_not"] == "unplaced"
    text = gpuwise("plan", "plan.yaml", cwd=tmp_path).stdout
    assert "Rent NVIDIA" not in text and "runs on rented GPUs" not in text
