"""A run on owned GPUs may use more of them (ownwide51), and the saving the answer says is the difference of the
totals it shows.

review47's plan (/tmp/review47/b-plan.yaml, below as PLAN): a lab owns 8 A100 80GB SXM in one server, a 3B pretrain
in month 3 and an 8B full fine-tune twice a month. The fine-tune's fewest A100s are 1 (ZeRO-1 with CPU offload, 141 GB
of host RAM a server, 58.6 h a run); the plan placed it there while the other 7 owned GPUs idled. `gpuwise estimate`
of the same job on 8 A100s: ZeRO-1 over 2 pipeline stages, no offload, 6.08 h a run, one server. Owned GPUs are paid
for whatever runs on them (their hosting), so the run may use all 8: 2 runs x 8 GPUs x 6.08 h = 97.2 GPU-hours a month
(1,166 over 12 months, against 2 x 58.6 = 117.2 a month, 1,406, on one)."""
from __future__ import annotations

import json

import yaml

from tests.clirun import gpuwise

FT8 = {"task": "finetune", "method": "full", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 5.0e8}
PLAN = {"horizon_months": 12,
        "owned": [{"gpu": "A100 80GB SXM", "count": 8, "servers": 1, "hosting": "datacenter", "bought": "2022-09",
                   "paid_usd": 150000}],
        "workloads": [{"name": "pretrain-3b", "workload": {"task": "pretrain", "params_b": 3.0, "seq_len": 4096,
                                                           "train_tokens": 1.0e12},
                       "cadence": {"at_month": 3}, "deadline_days": 30},
                      {"name": "finetune-8b", "workload": FT8, "cadence": {"per_month": 2}, "deadline_days": 5}],
        "constraints": {"budget_total_usd": 250000, "acquisition": "either"}}


def _run(tmp_path, doc: dict, *args: str):
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise("plan", "plan.yaml", *args, cwd=tmp_path)
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    return r


def _plan(tmp_path, doc: dict) -> dict:
    return json.loads(_run(tmp_path, doc, "--format", "json").stdout)


def test_an_offloaded_run_on_one_owned_gpu_uses_the_owned_server(tmp_path):
    d = _plan(tmp_path, PLAN)
    [o] = [o for o in d["options"] if o["workload"] == "finetune-8b" and o["gpu"] == "a100-80gb-sxm"]
    assert o["count"] == 1 and o["layout"] == "ZeRO-1 + CPU offload"  # the fewest, as before
    assert o["own_count"] == 8 and o["buy_count"] == 0  # and the owned server's 8
    # the 8-GPU estimate of the same job (gpuwise estimate --gpu "A100 80GB SXM" --gpus 8): 6.08 h a run
    e = json.loads(gpuwise("estimate", "ft.yaml", "--gpu", "A100 80GB SXM", "--gpus", "8", "--format", "json",
                           cwd=_write(tmp_path, "ft.yaml", {"workload": FT8})).stdout)
    assert e["memory"]["offload_target"] == "none"
    assert abs(o["own_wall_hours"] - e["gpu"]["wall_hours"]) < 1e-6 and 5.5 < o["own_wall_hours"] < 6.5
    for m in d["months"]:
        [p] = [p for p in m["placements"] if p["workload"] == "finetune-8b"]
        assert (p["gpu"], p["acquisition"], p["count"], p["runs"]) == ("a100-80gb-sxm", "owned", 8, 2.0)
        assert abs(p["gpu_hours"] - 2 * 8 * o["own_wall_hours"]) < 0.01  # 97.2, not 2 x 1 x 58.6 = 117.2
    # on 8 GPUs the state stays on them: no host RAM said of the owned servers
    assert "PLAN-OWNED-HOST-RAM-NEEDED" not in {f["rule"] for f in d["findings"]}


def _write(tmp_path, name: str, doc: dict):
    (tmp_path / name).write_text(yaml.safe_dump(doc), encoding="utf-8")
    return tmp_path


def test_the_owned_run_is_widened_only_within_max_gpus(tmp_path):
    # constraints.max_gpus 4: the run may use 4 of the 8 owned, no more (the 4-GPU estimate: ZeRO-3, no offload)
    doc = {**PLAN, "constraints": {**PLAN["constraints"], "max_gpus": 4}}
    d = _plan(tmp_path, doc)
    [o] = [o for o in d["options"] if o["workload"] == "finetune-8b" and o["gpu"] == "a100-80gb-sxm"]
    assert (o["count"], o["own_count"]) == (1, 4) and o["own_wall_hours"] < o["wall_hours"] / 4


def test_the_saving_is_the_difference_of_the_totals_shown(tmp_path):
    d = _plan(tmp_path, PLAN)
    a = d["answer"]
    assert a["beats"] == "rent_all"
    # the report shows whole dollars from $100 (render.fmt.Fmt.local); the saving is their difference
    assert a["saving"] == round(d["baselines"]["rent_all"]) - round(d["total"])
    text = _run(tmp_path, PLAN).stdout
    shown = f"It beats renting everything (${round(d['baselines']['rent_all']):,}) by ${round(a['saving']):,}."
    assert shown in text and f"Cost over 12 months: ${round(d['total']):,}," in text
    zh = _run(tmp_path, PLAN, "--lang", "zh").stdout
    assert f"比全部租用（${round(d['baselines']['rent_all']):,}）节省 ${round(a['saving']):,}。" in zh


def test_review47s_totals_differ_by_the_saving_said(tmp_path):
    # before the change: totals $77,474 and $78,240 shown, "by $767" said (78,240.40 - 77,473.53 = 766.87 rounded);
    # the same rounding of the unrounded figures, on the plan with the run kept on one owned GPU (max_gpus 1 there
    # would change the pretrain too, so the check is on the rounding itself)
    from gpuwise.plan.result import Answer
    assert Answer.shown_saving(78240.39972847891, 77473.5303063772) == 766
    assert Answer.shown_saving(150.49, 99.99) == 50.01  # below $100 the report shows cents
    assert Answer.shown_saving(60.30, 50.40) == 9.9
