"""product65: four product leftovers (tests/data/validation/README.md 'product65').

1. A plan renting 1 GB200 billed a rack of 72 ('billed for 203 GPU-hours ($2,133)') without saying why, where
   recommend says it (FEE-RENT-STEP-CHOSEN); the plan now judges its rentals (PLAN-RENT-STEP, the same words) and
   its Answer sentence says them.
Each test that names a defect fails on the session base (3381ed2b); the figures are worked by hand beside them.
"""

from __future__ import annotations

import json
import math

import yaml

import gpuwise

from .clirun import ROOT
from .clirun import gpuwise as cli

# knowledge/clouds.yaml: CoreWeave's GB200 NVL72 at $10.50 a GPU-hour, rented only in whole racks of 72 (step_gpus
# 72, docs.coreweave.com/docs/platform/instances/gb200)
RACK, GB200_RATE = 72, 10.50
LORA_8B = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 2048, "train_tokens": 2.0e8}
PLAN_GB200 = {"horizon_months": 2, "workloads": [{"name": "tune", "cadence": {"at_month": 1}, "workload": LORA_8B}],
              "constraints": {"acquisition": "rent", "gpus": ["gb200"]}}


def _run(*args: str, cwd=ROOT) -> str:
    r = cli(*args, cwd=cwd)
    assert r.returncode in (0, 1) and not r.stderr.strip(), r.stderr
    return r.stdout


# ---------------------------------------------------------------- 1. the plan says why it bills a rack
def test_plan_says_why_one_gb200_bills_a_rack(tmp_path):
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(PLAN_GB200), encoding="utf-8")
    d = json.loads(_run("plan", "plan.yaml", "--format", "json", cwd=tmp_path))
    [rent] = d["answer"]["rent"]
    [line] = [ln for ln in d["lines"] if ln["kind"] == "rent"]
    i = line["inputs"]
    # the run uses 1 GPU; whole racks: ceil(1 / 72) x 72 = 72 billed, 72 x $10.50 = $756 a rack-hour
    assert i["gpus_paid"] == math.ceil(1 / RACK) * RACK == 72 and i["usd_per_hour"] == RACK * GB200_RATE
    said = "coreweave rents them only in whole steps of 72, so 72 GPUs are billed and the job uses 1"
    assert rent["billed_said"] == said
    [f] = [f for f in d["findings"] if f["rule"] == "PLAN-RENT-STEP"]
    assert f["severity"] == "warning" and f["subject"] == "tune"
    # recommend's words of the same 1-GPU rental (FEE-RENT-STEP-CHOSEN), word for word
    rec = gpuwise.recommend({"workload": LORA_8B, "constraints": {"acquisition": "rent", "gpus": ["gb200"],
                                                                   "max_gpus": 1}})
    [chosen] = [x for x in rec.findings if x.rule == "FEE-RENT-STEP-CHOSEN"]
    assert f["message"] == chosen.message
    assert chosen.message.endswith(said.removeprefix("coreweave rents them"))
    # the Answer: 72 x 2.82 h = 203 GPU-hours billed x $10.50 = $2,133, and why
    text = " ".join(_run("plan", "plan.yaml", cwd=tmp_path).split())
    assert (f"billed for {rent['billed_gpu_hours']:,.0f} GPU-hours (${rent['amount']:,.0f}): {said}.") in text
    assert "(PLAN-RENT-STEP)" in text  # the brief report's findings
    zh = "".join(_run("plan", "plan.yaml", "--lang", "zh", cwd=tmp_path).split())  # wrapped lines joined
    assert "（$2,133）：coreweave只以72块为一档整档出租，因此计费72块GPU，而任务只用1块。" in zh


def test_plan_rental_billing_its_own_gpus_says_no_step():
    # tests/data/review60: two 2-GPU RTX 4090 runs at RunPod, 2 GPUs paid each (no step): nothing to say
    d = json.loads(_run("plan", str(ROOT / "tests/data/review60/plan-two-wide-runs.yaml"), "--format", "json"))
    [rent] = d["answer"]["rent"]
    assert rent["billed_said"] == "" and not [f for f in d["findings"] if f["rule"] == "PLAN-RENT-STEP"]
