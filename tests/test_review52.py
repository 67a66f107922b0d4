"""review52: review51's leftovers, the decision document as the person who signs it reads it.

1. A proposal that gives its hourly rate and names no provider is priced at provider 'proposal'; the page says
   'the proposal's provider' (review51), but the JSON's English still read '8 GPUs on proposal' (the ledger
   item), 'renting from proposal at $2.95 per GPU-hour' (the TCO-RENT step) and 'proposal per GPU-hour' (the
   prices used): the English a result carries is filled the way the page words the value.

2. A plan said 'the H100 fleet is full in months 13-24' beside a Fleet use column of 7-50%: the binding row was
   the count of GPUs held at once (plan/solve.py count[g,m]: every GPU held by a workload's copies, however many
   hours each runs), while Fleet use counts GPU-hours. The words now say which row is full: 'all the ... GPUs are
   held at once' (count), 'every schedulable hour of the ... fleet is used' (hours), or both.

3. A recommendation's brief counted the answer's warnings and its full report every candidate's, under the same
   unlabelled heading ('Blockers and warnings (0 blockers, 3 warnings, 2 notes)' in one, '4 warnings' in the
   other): each count now says what it counts (the answer's; the answer's and other GPUs'; every candidate's).
   A heading too wide for the page keeps its closing '===' on its last line.

4. In Chinese, a slot spaced for a Latin name kept its spaces around a Chinese value: '从 提案中的云服务商 以每 GPU
   小时', '来自 提案中的云服务商：', '提案中的云服务商 上的 8 块 GPU'. Filling a slot (messages.fill, Fmt._,
   Fmt.ngettext) drops a space where a CJK value meets CJK text; a Latin value or neighbour keeps it.

5. FEE-NODE-BEYOND-RENTAL read 'one rental there holds at most 1 GPUs' for AWS's T4 (g4dn.xlarge holds one):
   now 'the largest rental there is 1 x NVIDIA T4 16GB on one machine', right for one GPU or eight.
"""
from __future__ import annotations

import json

from tests.clirun import gpuwise
from tests.clirun import json_of as _json
from tests.clirun import text_of as _text
from tests.clirun import write_yaml as _write

# 8 MI355X rented at the proposal's own $2.95 a GPU-hour, no provider named (as tests/test_review51.py)
MI355X_RATE_ONLY = {
    "title": "Rent 8 x MI355X for long-context Llama 3.1 70B FP8 on vLLM without AITER",
    "workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "fp8", "framework": "vllm",
                 "framework_version": "0.15.1", "rocm_aiter": False, "prompt_tokens": 32000,
                 "output_tokens": 1000, "concurrent_requests": 16},
    "hardware": {"gpu": "MI355X", "count": 8, "nodes": 1},
    "acquisition": {"mode": "rent", "hourly_usd": 2.95, "months": 12}}



def test_the_json_names_the_proposals_provider_as_the_page_does(tmp_path):
    d = _json(tmp_path, "audit", _write(tmp_path, MI355X_RATE_ONLY, "p.yaml"))
    rent = d["proposed"]["ledger"]["lines"][0]
    assert rent["kind"] == "rent" and rent["item"] == "8 GPUs on the proposal's provider"
    assert round(rent["amount"]) == 206_736  # 8 x $2.95 x 8,760 h
    assert rent["item_phrases"][0][2]["provider"] == "proposal"  # the value stays the key a report words
    said = [s["conclusion"] for s in d["steps"]] + [p["item"] for p in d["prices_used"]]
    assert any("renting from the proposal's provider at $2.95 per GPU-hour" in s for s in said)
    assert any("(the proposal's provider per GPU-hour" in s for s in said)
    assert not any("from proposal" in s or "(proposal per" in s for s in said)


def test_a_full_fleet_says_whether_gpus_or_hours_are_full():
    # the team example held to copies of 2 RTX 4090s (tests/data/plans/team-4090-two-a-copy.yaml): since plancopy57
    # the example itself serves on copies of 4 and buys nothing; this plan still buys, binds and finds what it did
    d = json.loads(gpuwise("plan", "tests/data/plans/team-4090-two-a-copy.yaml", "--format", "json").stdout)
    cap = {b["subject"]: b for b in d["binding"] if b["kind"] == "capacity"}
    pro = cap["rtx-pro-6000-blackwell"]
    assert pro["held_months"] == list(range(2, 13)) and pro["hours_months"] == []
    assert pro["note"].startswith("all the NVIDIA RTX PRO 6000 Blackwell Workstation Edition 96GB GPUs are held at "
                                  "once in months 2-12 (Fleet use counts the hours they run)")
    # by hand from the plan's own months: in each held month the workloads' owned and bought copies hold every
    # GPU of the type the fleet has (the count row is the one that binds), whatever the month's Fleet use
    for b in cap.values():
        for m in b["held_months"]:
            month = d["months"][m - 1]
            held = sum(p["count"] for p in month["placements"]
                       if p["gpu"] == b["subject"] and p["acquisition"] in ("owned", "buy"))
            assert held == month["fleet"][b["subject"]], (b["subject"], m)
    # (the full report: since product66's Data freshness block the brief folds what decided the plan to its first row)
    text = _text_of(gpuwise("plan", "tests/data/plans/team-4090-two-a-copy.yaml", "--detail", "full").stdout)
    # plansolve62: month 4's 2-GPU pretraining run and the two 2-GPU LoRA runs take turns on the 2 owned RTX 4090 the 6
    # serving leave free (249 + 2 x 17.8 of its 657 schedulable hours): the 4090s are no longer all held at once there,
    # where runs counted as holding their GPUs all month (6 + 2 + 2 > 8) rented the LoRA runs
    # plan64: month 4 still not (the runs take turns); the months their copies hold all 8 owned and the plan rents more
    # 4090s (1, 5-6, 8-12) now say it: the value sat on the owned and bought power rates' rows, which the reading
    # counted only since a 2-card desktop gave the RTX PRO 6000 a second rate too (reading.capacity_months)
    rented = sorted({m["month"] for m in d["months"] for p in m["placements"]
                     if p["gpu"] == "rtx-4090" and p["acquisition"] == "rent"})
    assert cap["rtx-4090"]["held_months"] == rented == [1, 5, 6, 8, 9, 10, 11, 12]
    assert "fleet is full" not in text and "GPUs are held at once in months 2-12 (Fleet use counts the hours" in text
    zh = _text_of(gpuwise("plan", "tests/data/plans/team-4090-two-a-copy.yaml", "--lang", "zh", "--detail",
                          "full").stdout)
    assert "NVIDIA RTX PRO 6000 Blackwell Workstation Edition 96GB 的全部 GPU 在第 2-12 个月同时被占用" in zh


def _text_of(out: str) -> str:
    return " ".join(out.split())


def test_each_count_of_findings_says_what_it_counts(tmp_path):
    d = json.loads(gpuwise("recommend", "examples/inference-70b.yaml", "--format", "json").stdout)
    every = {sev: sum(1 for x in d["findings"] if x["severity"] == sev) for sev in ("blocker", "warning", "info")}
    brief = _text_of(gpuwise("recommend", "examples/inference-70b.yaml").stdout)
    assert "Blockers and warnings (the answer's: 0 blockers, 3 warnings, 2 notes) ===" in brief
    full = _text_of(gpuwise("recommend", "examples/inference-70b.yaml", "--detail", "full").stdout)
    assert (f"=== Findings (every candidate's: {every['blocker']} blockers, {every['warning']} warnings, "
            f"{every['info']} notes) ===") in full and every["warning"] == 4  # the A100's NET-TP-OVER-PCIE too
    assert "=== Blockers and warnings (the answer's and other GPUs': 0 blockers, 4 warnings, 2 notes) ===" in full
    zh = _text_of(gpuwise("recommend", "examples/inference-70b.yaml", "--lang", "zh").stdout)
    assert "阻断问题与警告（推荐方案：0 个阻断问题，3 个警告，2 条提示）" in zh


def test_a_wide_heading_keeps_its_closing_mark():
    from gpuwise.render.textfit import wrap_line

    lines = wrap_line("=== " + "word " * 20 + "end ===", 40)
    assert lines[0].startswith("=== ") and lines[-1].endswith(" end ===") and all(len(x) <= 40 for x in lines)
    assert not any(x.strip() == "===" for x in lines)


def test_a_cjk_value_meets_cjk_text_without_spaces(tmp_path):
    from gpuwise import messages
    from gpuwise.render.fmt import Fmt

    assert messages.fill("从 {p} 以每 GPU 小时", {"p": "提案中的云服务商"}) == "从提案中的云服务商以每 GPU 小时"
    assert messages.fill("从 {p} 以每 GPU 小时", {"p": "aws"}) == "从 aws 以每 GPU 小时"  # a Latin name keeps them
    assert messages.fill("第 {m} 个月", {"m": "4"}) == "第 4 个月"
    assert messages.fill("{p} 上的 {n} 块 GPU", {"p": "提案中的云服务商", "n": 8}) == "提案中的云服务商上的 8 块 GPU"
    assert messages.fill("on {p} x", {"p": "提案"}) == "on 提案 x"  # Latin text beside it keeps its space
    f = Fmt("zh")
    assert f._("%(mode)s, from %(where)s", mode="租用", where="提案中的云服务商") == "租用，来自提案中的云服务商"
    zh = _text(tmp_path, "audit", _write(tmp_path, MI355X_RATE_ONLY, "p.yaml"), "--lang", "zh", "--detail", "full")
    assert "从提案中的云服务商以每 GPU 小时 $2.95" in zh and "来自提案中的云服务商：" in zh
    assert "提案中的云服务商上的 8 块 GPU" in zh and "从 提案中的云服务商" not in zh


def test_a_rental_of_one_gpu_is_said_as_one(tmp_path):
    # 8 T4s on one node from AWS, whose only listed T4 instance is the one-GPU g4dn.xlarge (knowledge/clouds.yaml)
    doc = {"title": "8 T4s in one server", "constraints": {"deadline_days": 60},
           "workload": {"task": "finetune", "method": "lora", "model": "llama-2-7b", "train_tokens": 2.0e7},
           "hardware": {"gpu": "t4", "count": 8, "nodes": 1}, "acquisition": {"mode": "rent", "provider": "aws"}}
    d = _json(tmp_path, "audit", _write(tmp_path, doc, "t4.yaml"))
    f = next(f for f in d["findings"] if f["rule"] == "FEE-NODE-BEYOND-RENTAL")
    assert f["evidence"]["rental_max_gpus"] == 1
    said = ("8 x NVIDIA T4 16GB on one node rented from aws: the largest rental there is 1 x NVIDIA T4 16GB on one "
            "machine, so a node of 8 is not rented there")
    assert f["message"] == said
    assert "1 GPUs" not in f["message"]


def test_a_fleet_full_of_hours_or_of_both_says_so():
    from types import SimpleNamespace

    from gpuwise.plan.build import _capacity_note
    from gpuwise.render.fmt import Fmt
    from gpuwise.render.plan_view import _binding

    assert _capacity_note("NVIDIA H100", [], [5, 6]) == ("every schedulable hour of the NVIDIA H100 fleet is used in "
                                                         "months 5-6: more of them would lower the cost")
    assert _capacity_note("NVIDIA H100", [13, 14], [7]) == (
        "all the NVIDIA H100 GPUs are held at once in months 13-14 and every schedulable hour of them is used in "
        "month 7: more of them would lower the cost")
    b = SimpleNamespace(kind="capacity", subject="h100", months=[7, 13, 14], held_months=[13, 14], hours_months=[7],
                        gpus=[])
    assert _binding(b, Fmt("zh"), str) == ("h100 的全部 GPU 在第 13-14 个月同时被占用，"
                                          "在第 7 个月可调度时数全部用满：增加数量可降低成本")
    b = SimpleNamespace(kind="capacity", subject="h100", months=[4], held_months=[], hours_months=[], gpus=[])
    assert _binding(b, Fmt("en"), str).startswith("the h100 fleet is full in month 4")  # an older file
