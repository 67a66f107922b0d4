"""review37: a user's hour with session 33's merges (optimum-habana, recurrent_state_dtype, Gemma 4, the Spark
priced per system). Each test fails on the code before its fix; the whole round is benchmarks/hostile_round30.py."""

from __future__ import annotations

import json
from pathlib import Path

from .clirun import gpuwise as cli

TUNE = {"task": "finetune", "method": "lora", "model": "llama-2-70b", "train_tokens": 100_000_000,
        "stack": "optimum-habana"}
CHAT = {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000, "output_tokens": 200,
        "concurrent_requests": 16}


def _plan(tmp_path: Path, acquisition: str) -> dict:
    (tmp_path / "plan.yaml").write_text(json.dumps({
        "horizon_months": 3,
        "workloads": [{"name": "chat", "workload": CHAT, "cadence": {"continuous": True},
                       "targets": {"requests_per_s": 2}},
                      {"name": "tune", "workload": TUNE, "cadence": {"per_month": 1}}],
        "constraints": {"acquisition": acquisition}}), encoding="utf-8")
    r = cli("plan", "plan.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def test_a_plan_never_places_an_optimum_habana_fine_tune_off_gaudi(tmp_path: Path) -> None:
    # optimum-habana runs only on Intel Gaudi (runtime.yaml training_stacks devices). The plan judged each GPU with
    # the first acquisition mode, and a GPU no cloud rents was refused by the cost rules (TCO-NO-RENTAL) before the
    # pitfalls step where CPT-TRAINING-STACK-DEVICE stood: the fine-tune was placed on 2 x H200 (rent) or bought
    # B300s (either). Now the rule is judged with the estimate, before the cost.
    either = _plan(tmp_path, "either")
    placed = {pl["gpu"] for m in either["months"] for pl in m["placements"] if pl["workload"] == "tune"}
    assert placed and all(g.startswith("gaudi") for g in placed), placed
    tune = next(w for w in either["workloads"] if w["name"] == "tune")
    assert "CPT-TRAINING-STACK-DEVICE" in tune["why_not"]["h200-141gb-sxm"]
    assert "CPT-TRAINING-STACK-DEVICE" in tune["why_not"]["b300"]
    rent = _plan(tmp_path, "rent")  # no cloud in the knowledge base rents a Gaudi: the fine-tune is not placed
    assert [u["workload"] for u in rent["unplaced"]] == ["tune"]
    assert not [pl for m in rent["months"] for pl in m["placements"] if pl["workload"] == "tune"]


def test_recommend_says_the_stack_rule_of_a_gpu_no_cloud_rents(tmp_path: Path) -> None:
    # a B300 the cost rules refuse to rent (no offer of 8) was refused for its price alone, never for the stack
    (tmp_path / "q.yaml").write_text(json.dumps({"workload": TUNE, "constraints": {
        "gpus": ["b300"], "acquisition": "rent"}}), encoding="utf-8")
    r = cli("recommend", "q.yaml", "--format", "json", cwd=tmp_path)
    d = json.loads(r.stdout)
    fits = [c for c in d["candidates"] if "MEM-NO-FIT" not in c["rules"]]
    assert fits and all("CPT-TRAINING-STACK-DEVICE" in c["rules"] for c in fits)
