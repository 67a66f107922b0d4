"""review49fix: what review49 checked and left, each fixed with its test.

1. Serving Qwen3-235B-A22B in FP8 with SGLang, the weights formula called the format "FP8 E4M3 weights with
   per-tensor scales (vLLM / TensorRT-LLM)", the FP8 format's generic words, though the model's published FP8
   checkpoint is block-scaled (knowledge/serving.yaml fp8_checkpoints: Qwen/Qwen3-235B-A22B-FP8 config.json
   weight_block_size [128, 128]) and the job names SGLang. The words now follow the checkpoint and the framework.
2. An audit whose proposal cannot run (1 x RTX 4090 for a 70B in bf16: 2 blockers) said "The alternative is not
   cheaper than the proposal" ($448 against $248): a proposal that cannot run is never the cheaper option.
3. A yuan report's formula inputs read "hardware_usd = CN¥232,754": named for dollars beside yuan amounts.
4. examples/plan-team-4090.yaml buys 2 RTX PRO 6000 in month 1 that run work from month 2, yet the plan said the
   fleet "is full in months 1-12": in month 1 it holds none.
5. A plan serving Qwen3-30B-A3B showed no hosted-API section at all (its JSON "api": []): knowledge/apis.yaml
   prices no Qwen3-30B-A3B, and the report now says so.
"""
from __future__ import annotations

import json
from pathlib import Path

import yaml

from tests.clirun import ROOT, gpuwise


def _flat(s: str) -> str:
    return " ".join(s.split())


def _run(tmp_path: Path, name: str, doc: dict, *args: str):
    (tmp_path / name).write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise(*args[:1], name, *args[1:], cwd=tmp_path)
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr  # 1: an audit that rejects
    return r


def _weights(tmp_path: Path, model: str, framework: str) -> dict:
    doc = {"workload": {"task": "inference", "model": model, "precision": "fp8", "framework": framework,
                        "prompt_tokens": 2000, "output_tokens": 400, "concurrent_requests": 8},
           "constraints": {"gpus": ["H200"], "acquisition": "rent"}}
    d = json.loads(_run(tmp_path, "q.yaml", doc, "estimate", "--gpu", "H200", "--gpus", "4", "--format",
                        "json").stdout)
    return next(t for t in d["memory"]["terms"] if t["name"] == "weights")


def test_fp8_weights_are_worded_by_the_checkpoints_scaling_and_the_framework(tmp_path):
    # Qwen/Qwen3-235B-A22B-FP8 config.json: weight_block_size [128, 128] (fp8_checkpoints scaling: block)
    fmt = _weights(tmp_path, "qwen3-235b-a22b", "sglang")["inputs"]["format"]
    assert "one scale per 128 x 128 block" in fmt and "SGLang" in fmt and "Qwen3" in fmt, fmt
    assert "per-tensor" not in fmt and "vLLM" not in fmt
    # nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-FP8: ModelOpt's per-tensor FP8 (fp8_checkpoints scaling: tensor)
    fmt = _weights(tmp_path, "nvidia-nemotron-3-nano-30b-a3b", "vllm")["inputs"]["format"]
    assert "one scale per tensor" in fmt and "vLLM" in fmt and "block" not in fmt, fmt


def test_fp8_weights_of_a_model_with_no_published_checkpoint_keep_the_formats_words(tmp_path):
    # Qwen2.5 7B has no fp8_checkpoints entry: the scaling is not known, the
    # format's own words stay. Llama 3.1 8B had none until branch fp8fuse55 entered NVIDIA's ModelOpt release.
    w = _weights(tmp_path, "qwen2.5-7b", "vllm")
    assert w["inputs"]["format"].startswith("FP8 E4M3 weights with per-tensor scales")
    assert "format" not in w.get("input_phrases", {})


def test_fp8_checkpoint_words_are_translated(tmp_path):
    doc = {"workload": {"task": "inference", "model": "qwen3-235b-a22b", "precision": "fp8", "framework": "sglang",
                        "prompt_tokens": 2000, "output_tokens": 400, "concurrent_requests": 8},
           "constraints": {"gpus": ["H200"], "acquisition": "rent"}}
    zh = _flat(_run(tmp_path, "q.yaml", doc, "estimate", "--gpu", "H200", "--gpus", "4", "--lang", "zh").stdout)
    assert "每个 128 × 128 块一个缩放因子" in zh and "SGLang" in zh
    assert "one scale per" not in zh


BLOCKED = {"title": "one rented RTX 4090 to serve a 70B",
           "workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "bf16", "prompt_tokens": 1000,
                        "output_tokens": 200, "concurrent_requests": 8},
           "hardware": {"gpu": "RTX 4090", "count": 1}, "acquisition": {"mode": "rent", "months": 1}}


def test_a_proposal_that_cannot_run_is_not_weighed_as_the_cheaper_option(tmp_path):
    d = json.loads(_run(tmp_path, "p.yaml", BLOCKED, "audit", "--format", "json").stdout)
    # 70B in bf16 is ~141 GB of weights, a 24 GB card holds none of it: the proposal is blocked and infeasible
    assert d["verdict"] == "reject" and d["proposed"]["feasible"] is False
    alt = d["alternative"]["total_cost_usd"]
    assert d["proposed"]["total_cost_usd"] < alt  # the case: the blocked proposal's price is the lower one
    text = _flat(_run(tmp_path, "p.yaml", BLOCKED, "audit").stdout)
    assert "not cheaper than the proposal" not in text
    assert (f"The proposal cannot run as written, so its price is not weighed against the alternative's: the "
            f"alternative, at ${alt:,.0f}, is the best option found that can.") in text
    zh = _flat(_run(tmp_path, "p.yaml", BLOCKED, "audit", "--lang", "zh").stdout)
    assert "原方案按原样无法运行" in zh


def test_a_feasible_proposal_cheaper_than_the_alternative_still_says_so():
    """The sound LoRA proposal (8 x H100 at Lambda, 7.8 h; 7.9 h before branch hfrecompute59) is cheaper than the
    alternative the ranking puts first (64 x H100, 1.2 h): the verdict says by how much it is dearer and why it still
    ranks first (a day sooner weighed at constraints.value_of_a_day_usd, decide/rank.py), where it said only "not
    cheaper" (lead, session 42). The amount is the two ledgers' totals apart, from the JSON."""
    text = _flat(gpuwise("audit", "examples/proposal-good-lora-8xh100.yaml").stdout)
    d = json.loads(gpuwise("audit", "examples/proposal-good-lora-8xh100.yaml", "--format", "json").stdout)
    dearer = d["alternative"]["total_cost_usd"] - d["proposed"]["total_cost_usd"]
    assert dearer > 0 and d["alternative"]["wall_days"] < d["proposed"]["wall_days"]
    # as the two totals are shown, whole dollars each (review58: '$43.40 more' beside $252 and $296)
    dearer = round(d["alternative"]["total_cost_usd"]) - round(d["proposed"]["total_cost_usd"])
    assert (f"The alternative costs ${dearer:,} more and finishes sooner (1.2 hours against the proposal's "
            f"7.8 hours): it ranks first because each day sooner is weighed at constraints.value_of_a_day_usd."
            ) in text


def test_formula_inputs_named_for_dollars_are_named_for_the_reports_currency():
    cny = gpuwise("recommend", "examples/inference-70b.yaml", "--currency", "CNY", "--detail", "full").stdout
    block = _flat(cny[cny.index("hardware + host + network"):])
    line = block[block.index("inputs:"):block.index("resale_cny = ") + 40]
    d = json.loads(gpuwise("recommend", "examples/inference-70b.yaml", "--format", "json").stdout)
    rate = d["currency"]["usd_cny"]  # knowledge/tco.yaml usd_cny (ECB cross rate), the rate the report states
    buy = next(t for s in d["steps"] for t in s["terms"] if t["name"] == "buy_usd")
    assert set(buy["inputs"]) >= {"hardware_usd", "host_usd", "resale_usd"}  # the JSON keeps the CONTRACT's names
    assert "_usd" not in line, line
    for key in ("hardware", "host", "resale"):  # each is the USD input x the rate, whole yuan
        assert f"{key}_cny = CN¥{buy['inputs'][key + '_usd'] * rate:,.0f}" in line, (key, line)
    usd = _flat(gpuwise("recommend", "examples/inference-70b.yaml", "--detail", "full").stdout)
    assert "hardware_usd = $" in usd and "hardware_cny" not in usd


def test_a_bought_fleet_is_full_only_in_the_months_it_runs_work():
    # the team example held to copies of 2 RTX 4090s (tests/data/plans/team-4090-two-a-copy.yaml): since plancopy57
    # the example itself serves on copies of 4 and buys nothing; this plan still buys, binds and finds what it did
    d = json.loads(gpuwise("plan", "tests/data/plans/team-4090-two-a-copy.yaml", "--format", "json").stdout)
    bought = [p for p in d["purchases"] if p["gpu"] == "rtx-pro-6000-blackwell"]
    assert bought and min(p["arrives"] for p in bought) == 2  # bought in month 1, runs work from month 2
    cap = next(b for b in d["binding"] if b["constraint"] == "capacity[rtx-pro-6000-blackwell]")
    held = {m["month"]: m["fleet"].get("rtx-pro-6000-blackwell", 0) for m in d["months"]}
    assert held[1] == 0 and 1 not in cap["months"] and cap["months"] == list(range(2, 13)), cap["months"]
    # the full report lists every binding limit (the brief names the first, the 4090s' month 4, on this plan)
    text = _flat(gpuwise("plan", "tests/data/plans/team-4090-two-a-copy.yaml", "--detail", "full").stdout)
    assert "GPUs are held at once in months 2-12" in text and "months 1-12" not in text  # review52's words


def test_the_plan_says_no_hosted_api_is_known(tmp_path):
    apis = yaml.safe_load((ROOT / "knowledge" / "apis.yaml").read_text(encoding="utf-8"))
    priced = {p["model"] for prov in apis["providers"] for p in prov["prices"]}
    assert "qwen3-30b-a3b" not in priced  # the catalog prices no Qwen3-30B-A3B (the case)
    plan = yaml.safe_load((ROOT / "examples" / "plan-team-4090.yaml").read_text(encoding="utf-8"))
    svc = next(w for w in plan["workloads"] if w["name"] == "chat-70b")
    svc["name"] = "chat-30b"
    svc["workload"].update(model="qwen3-30b-a3b", precision="bf16")
    d = json.loads(_run(tmp_path, "plan.yaml", plan, "plan", "--format", "json").stdout)
    assert d["api"] == [] and d["api_unpriced"] == [{"workload": "chat-30b", "model": "qwen3-30b-a3b"}]
    said = ("No hosted API in the catalog (knowledge/apis.yaml) is known to serve qwen3-30b-a3b: chat-30b is not "
            "compared with one.")
    for fmt in ("text", "md", "html"):
        out = _flat(_run(tmp_path, "plan.yaml", plan, "plan", "--format", fmt).stdout)
        assert "Hosted APIs for the services" in out and said in out, fmt
    zh = _flat(_run(tmp_path, "plan.yaml", plan, "plan", "--lang", "zh").stdout)
    assert "没有已知提供 qwen3-30b-a3b 的托管 API" in zh
    # a priced service keeps its table and says nothing of the kind
    d = json.loads(gpuwise("plan", "examples/plan-team-4090.yaml", "--format", "json").stdout)
    assert d["api"] and d["api_unpriced"] == []
