"""plansolve62: a run holds its GPUs together for its hours; a brief's rental cost line adds up.

1. ``gpuwise plan`` charged a training run's GPUs in the fleet's GPUs-at-once row as n x its share of the month's runs
   (solve.py use_count, n / R a run): review57's 16-GPU pretraining run was placed 0.26 on the 16 owned A100 while 4
   of them served all month, as if it could borrow fractions of GPUs. A run on the fleet now holds a switch
   (``held``) whose n GPUs must be free together beside every copy (which serves all month); runs take turns, their
   GPU-hours bounded by the month's schedulable hours.
2. The brief's Cost line 'renting from nebius at $7.15 per GPU-hour costs $86,170' stood beside 'Compute 12,036
   GPU-hours of training': 7.15 x 12,036 = $86,057; the $114 start-up (0.25 h x 64 GPUs x $7.15) was only in the full
   report's 'Cost, line by line'. The brief's Cost line now says the lines: 'that is rent $86,056 + start-up $114'.

Figures worked by hand from the knowledge files the plan reads; each test but the one that fits fails on the base
(e113951e).
"""

from __future__ import annotations

import re

import pytest

from gpuwise.knowledge import load
from gpuwise.plan.build import plan
from gpuwise.render import plan_view
from tests.clirun import ROOT, json_of, text_of

KB = load()
HOURS = 730.0  # a month's hours as the plan bills them (gpuwise/ledger.py HOURS_PER_MONTH: 8,760 / 12)
REVIEW57 = ROOT / "tests/data/review57"
PLAN = REVIEW57 / "plan-owned-a100-pretrain-qwen35.yaml"
MXFP8 = REVIEW57 / "recommend-mxfp8-pretrain.yaml"
TDP_4090 = 450.0  # RTX 4090 total graphics power (its knowledge/gpus.yaml power.tdp_w)
DESKTOP_W = 250.0  # tco.yaml workstation_host_w: one desktop's host, shared by the cards in it
RATE = 0.20  # $/kWh, as the plans below state; the office's PUE is 1.0


def chat() -> dict:
    """Llama 3.1 8B served one sequence at a time all day: one copy on one GPU, held all month."""
    return {"name": "chat-8b", "workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 500,
                                            "output_tokens": 200},
            "cadence": {"continuous": True, "hours_per_day": 24}, "targets": {"concurrency": 1}}


def tune(name: str) -> dict:
    """A LoRA of Llama 3.1 8B on 2e8 tokens in month 2 within a day: on RTX 4090s, two of them (one misses the day)."""
    return {"name": name, "workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b",
                                       "seq_len": 2048, "train_tokens": 2.0e8},
            "cadence": {"at_month": 2}, "deadline_days": 1}


def owned_4090(count: int, workloads: list[dict]):
    return plan({"horizon_months": 3, "owned": [{"gpu": "RTX 4090", "count": count, "hosting": "office"}],
                 "workloads": workloads,
                 "constraints": {"acquisition": "rent", "electricity_usd_per_kwh": RATE, "gpus": ["rtx-4090"]}})


def power_per_gpu_hour(owned: int) -> float:
    """One owned RTX 4090's GPU-hour of power: the card and its share of the one desktop they sit in, office PUE 1.0."""
    return (TDP_4090 + DESKTOP_W / owned) / 1000 * 1.0 * RATE


def test_a_run_wider_than_the_gpus_a_copy_leaves_free_is_rented():
    """2 owned RTX 4090, one serving all month: the 2-GPU LoRA cannot have both at once, so it is rented whole (RunPod
    $0.34 a GPU-hour, knowledge/clouds.yaml). The base placed half of it on the owned pair (1 + 2 x 0.5 = 2 GPUs 'at
    once') and rented the other half."""
    r = owned_4090(2, [chat(), tune("tune")])
    o = next(o for o in r.options if o.workload == "tune")
    assert o.count == 2 and o.rent_per_hour == pytest.approx(2 * 0.34)
    placed = [(p.workload, p.acquisition, p.runs) for m in r.months for p in m.placements if p.workload == "tune"]
    assert placed == [("tune", "rent", 1.0)]
    # the copy's 730 GPU-hours a month on the owned card at (450 + 250 / 2) W x $0.20 = $0.115 an hour, and the run
    # rented for its wall hours: 3 x 730 x 0.115 + 0.68 x 16.69 = 251.85 + 11.35
    assert r.total == pytest.approx(3 * HOURS * power_per_gpu_hour(2) + 2 * 0.34 * o.wall_hours, rel=1e-6)
    (cap,) = [b for b in r.binding if b.kind == "capacity"]
    assert (cap.narrow_months, cap.held_months) == ([2], [])
    text = plan_view.render(r, "text", detail="full", width=300)
    assert ("in month 2 a run needs more of the NVIDIA GeForce RTX 4090 24GB GPUs at once than the copies serving on "
            "them leave free") in text


def test_a_run_that_fits_beside_the_copy_runs_on_the_owned_gpus():
    """3 owned: the copy holds one, the 2-GPU run has the other two for its 16.7 hours. Power only:
    (3 x 730 + 2 x 16.69) GPU-hours x (450 + 250 / 3) W x $0.20."""
    r = owned_4090(3, [chat(), tune("tune")])
    o = next(o for o in r.options if o.workload == "tune")
    placed = [(p.workload, p.acquisition, p.runs) for m in r.months for p in m.placements if p.workload == "tune"]
    assert placed == [("tune", "owned", 1.0)]
    assert r.total == pytest.approx((3 * HOURS + 2 * o.wall_hours) * power_per_gpu_hour(3), rel=1e-6)


def test_runs_take_turns_on_the_owned_gpus():
    """2 owned and two 2-GPU runs in month 2, 16.7 hours each: one after the other on the pair (33.4 of the month's
    730 hours). The base counted each run's 2 GPUs at once for the month, 2 + 2 > 2, and rented half a run's worth."""
    r = owned_4090(2, [tune("a"), tune("b")])
    o = next(o for o in r.options if o.workload == "a")
    placed = sorted((p.workload, p.acquisition, p.runs) for m in r.months for p in m.placements)
    assert placed == [("a", "owned", 1.0), ("b", "owned", 1.0)]
    assert r.total == pytest.approx(2 * 2 * o.wall_hours * power_per_gpu_hour(2), rel=1e-6)


def test_review57_pretraining_run_is_not_time_shared_with_the_service(tmp_path):
    """16 owned A100 SXM4 80GB serve qwen35-chat on 4 (months 1-7) and 8 (8-12) all month: the 16-GPU pretraining run
    (0.34 a month) cannot have its 16 at once, so every run is rented on 2 B200 at RunPod's $5.98 a GPU-hour:
    12 x 0.34 x 2 x 327.18 h = 2,669.8 GPU-hours, $15,965.53. The base placed 0.255 of each month's runs on the owned
    A100 (0.17 from month 8) and rented 946 GPU-hours."""
    data = json_of(tmp_path, "plan", str(PLAN))
    a100 = next(o for o in data["options"] if o["workload"] == "pretrain-3b" and o["gpu"] == "a100-80gb-sxm")
    b200 = next(o for o in data["options"] if o["workload"] == "pretrain-3b" and o["gpu"] == "b200")
    assert (a100["count"], b200["count"]) == (16, 2)
    for m in data["months"]:
        serving = sum(p["count"] for p in m["placements"] if p["workload"] == "qwen35-chat"
                      and p["acquisition"] == "owned")
        assert serving in (4, 8)
        assert not [p for p in m["placements"] if p["workload"] == "pretrain-3b" and p["acquisition"] == "owned"]
    (rent,) = data["answer"]["rent"]
    gpu_hours = 12 * 0.34 * 2 * b200["wall_hours"]
    assert rent["gpu_hours"] == pytest.approx(gpu_hours, abs=0.05)
    assert rent["amount"] == pytest.approx(gpu_hours * 5.98, rel=1e-9)
    assert sum(m["rent"] for m in data["months"]) == pytest.approx(rent["amount"], abs=0.01)
    (cap,) = [b for b in data["binding"] if b["kind"] == "capacity"]
    assert cap["narrow_months"] == list(range(1, 13)) and cap["held_months"] == []


@pytest.mark.parametrize(("lang", "words"), [("en", "costs {total}; that is rent {rent} + start-up {setup}"),
                                             ("zh", "即租用 {rent} + 启动 {setup}")])
def test_the_brief_rental_cost_line_adds_up(tmp_path, lang, words):
    """64 B200 rented from Nebius at $7.15 a GPU-hour ($457.60 an hour): rent 188.06 h = $86,056, start-up and
    wind-down 0.25 h = $114, total $86,170 (the full report's 'Cost, line by line'), now in the brief's Cost line."""
    data = json_of(tmp_path, "recommend", str(MXFP8))
    led = data["recommendation"]["ledger"]
    rent = next(ln["amount"] for ln in led["lines"] if ln["kind"] == "rent")
    setup = next(ln["amount"] for ln in led["lines"] if ln["kind"] == "setup")
    assert setup == pytest.approx(64 * 7.15 * 0.25, rel=1e-6)  # $114.40
    assert rent + setup == pytest.approx(led["total"], rel=1e-12)
    text = " ".join(text_of(tmp_path, "recommend", str(MXFP8), "--detail", "brief", "--lang", lang).split())
    want = words.format(rent=f"${round(rent):,}", setup=f"${round(setup):,}", total=f"${round(led['total']):,}")
    assert want == ("costs $86,170; that is rent $86,056 + start-up $114" if lang == "en" else
                    "即租用 $86,056 + 启动 $114")
    assert want in text, re.findall(r"\$[\d,]+", text)


def test_runs_wider_than_half_the_owned_gpus_take_turns_within_the_month():
    """3 owned RTX 4090 and two 2-GPU LoRA runs of 394.8 hours each in month 2 (4.8e9 tokens within 20 days): no two
    at once (2 + 2 > 3), so on the owned GPUs they run one after the other within the month's schedulable hours,
    0.9 x 730 = 657 (policy.yaml plan_owned_availability). The hours row alone let both run there (2 x 2 x 394.8 =
    1,579 of 3 x 657 = 1,971 GPU-hours), a schedule that takes 790 hours. This branch placed 657 / 394.8 = 1.664 runs
    there and rented 0.336 of a run; plan63 places each run whole (tests/test_plan63.py): one run there (394.8 of the
    657 hours), the other rented at RunPod's 2 x $0.34."""
    def long_tune(name: str) -> dict:
        return {**tune(name), "workload": {**tune(name)["workload"], "train_tokens": 4.8e9}, "deadline_days": 20}

    r = owned_4090(3, [long_tune("a"), long_tune("b")])
    o = next(o for o in r.options if o.workload == "a")
    assert o.count == 2 and o.wall_hours > 657 / 2
    schedulable = KB.policy_value("plan_owned_availability") * HOURS
    owned = sum(p.runs for m in r.months for p in m.placements if p.acquisition == "owned")
    rented = sum(p.runs for m in r.months for p in m.placements if p.acquisition == "rent")
    assert owned * o.wall_hours <= schedulable and (owned, rented) == (1.0, 1.0)
    assert r.total == pytest.approx(owned * o.wall_hours * 2 * power_per_gpu_hour(3)
                                    + rented * o.wall_hours * 2 * 0.34, rel=1e-4)
