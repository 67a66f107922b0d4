"""Whether a configuration fits is the rules' verdict, not a comparison in Python: ``estimate``'s
``fits``/``fits_as_requested`` are what the memory step's pass rule set (gpuwise/decide/verdicts.py),
and the capacity plan sizes each workload with the rule book in force, so a house rule that keeps
more of each card free moves both."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml

import gpuwise
from gpuwise.decide import engine, rulebook, verdicts
from gpuwise.estimators.candidate import evaluate
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

from .conftest import ROOT, answer_of

RULES = ROOT / "rules" / "memory.yaml"
LORA_8B = {"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 1024,
                        "train_tokens": 2e8}}


def _memory_rules(tmp_path: Path, share: float) -> str:
    """The built-in memory pass and reject rules, comparing the need with ``share`` of each card
    instead of capacity x (1 - memory_headroom_fraction): a team that keeps more of a card free."""
    doc = yaml.safe_load(RULES.read_text())
    rules = []
    for r in doc["rules"]:
        if r["id"] in ("MEM-FITS", "MEM-FITS-WITH-CHANGES", "MEM-NO-FIT"):
            r = copy.deepcopy(r)
            for c in r["when"]:
                if isinstance(c[2], dict) and c[2].get("ref") == "capacity_gb":
                    c[2] = {"ref": "capacity_gb", "times": share}
            rules.append(r)
    d = tmp_path / "house"
    d.mkdir()
    (d / "memory.yaml").write_text(yaml.safe_dump({"schema_version": 1, "ruleset": "house-memory",
                                                    "step": "memory", "rules": rules}, sort_keys=False))
    return str(d)


@pytest.mark.parametrize("question", ["lora-70b", "finetune-full-13b", "inference-70b", "qlora-70b-4090"])
def test_fits_is_the_memory_step_verdict_and_agrees_with_the_numbers(kb, question):
    """Over GPUs and counts: the rules' fits is the need against capacity x (1 - headroom) (MEM-FITS /
    MEM-FITS-WITH-CHANGES, knowledge/policy.yaml), fits_as_requested the requested layout's need."""
    job = resolve(Requirements.model_validate(yaml.safe_load((ROOT / "examples" / f"{question}.yaml").read_text())),
                  kb)
    book = rulebook.load(None, kb.policy_values())
    keep = 1 - float(kb.policy_value("memory_headroom_fraction"))
    evs = [evaluate(job, kb.gpus[g], n, defer=True) for g in ("rtx-4090", "a100-80gb-sxm", "h100-80gb-sxm", "mi300x")
           for n in (1, 2, 8)]
    got = verdicts.judge(book, job, evs)
    both = set()
    for ev, v in zip(evs, got, strict=True):
        limit = ev.capacity * keep
        assert v.fits == (ev.memory.per_gpu <= limit), (ev.gpu.id, ev.count)
        assert v.fits_as_requested == (ev.requested_memory_per_gpu <= limit), (ev.gpu.id, ev.count)
        both.add(v.fits)
    assert both == {True, False}
    assert engine.live_sessions() == 0


def test_estimates_fits_key_is_the_rules_verdict(tmp_path):
    """8B LoRA on one RTX 4090 fits (about 79 % of the card); with half of each card kept free
    (a policy overlay, which the memory rules read) the same estimate says it does not."""
    out = gpuwise.estimate(LORA_8B, gpu="rtx-4090", gpus=1)
    need, usable = out.memory.per_gpu_bytes, out.memory.usable_per_gpu_bytes
    assert out.gpu.fits is True and need <= usable
    (tmp_path / "policy.yaml").write_text("memory_headroom_fraction: 0.5\n")
    half = gpuwise.estimate(LORA_8B, gpu="rtx-4090", gpus=1, knowledge=str(tmp_path))
    assert half.memory.per_gpu_bytes > 0.5 * half.memory.capacity_per_gpu_bytes
    assert half.gpu.fits is False


def test_a_house_rule_moves_the_memory_verdict(kb, tmp_path):
    """The same estimate, judged by a rule book whose memory rules keep 40 % of each card free."""
    job = resolve(Requirements.model_validate(LORA_8B), kb)
    ev = evaluate(job, kb.gpus["rtx-4090"], 1)
    share = ev.memory.per_gpu / ev.capacity
    assert 0.6 < share < 1 - float(kb.policy_value("memory_headroom_fraction"))
    builtin = verdicts.judge(rulebook.load(None, kb.policy_values()), job, [ev])[0]
    house = verdicts.judge(rulebook.load(_memory_rules(tmp_path, 0.6), kb.policy_values()), job, [ev])[0]
    assert builtin.fits and builtin.fits_as_requested and not builtin.rejected
    assert not house.fits and house.rejected == ("MEM-NO-FIT",)


def test_the_plan_sizes_with_the_house_memory_rules(tmp_path):
    """plan-team-4090: the 8B LoRA (4,096 tokens) is sized on 2 x RTX 4090 and on one H100 under the
    built-in rules; with a house rule that keeps 40 % of each card free, every size the plan keeps
    needs at most 60 % of its cards (the estimate of that size says so) and the 24 GB and 80 GB
    cards drop out, as they would from recommend."""
    path = ROOT / "examples" / "plan-team-4090.yaml"
    workload = yaml.safe_load(path.read_text())["workloads"][0]
    assert workload["name"] == "lora-8b"

    def sized(result) -> dict[str, int]:
        return {o["gpu"]: o["count"] for o in json.loads(result.model_dump_json())["options"]
                if o["workload"] == "lora-8b"}

    base = sized(answer_of("plan", path))  # the built-in rules' plan, computed once per test process
    house = sized(gpuwise.plan(path, rules=_memory_rules(tmp_path, 0.6)))
    assert base["rtx-4090"] == 2 and base["h100-80gb-sxm"] == 1
    assert house and "rtx-4090" not in house and "h100-80gb-sxm" not in house
    for gpu, n in house.items():
        est = gpuwise.estimate({"workload": workload["workload"]}, gpu=gpu, gpus=n)
        assert est.memory.per_gpu_bytes <= 0.6 * est.memory.capacity_per_gpu_bytes, (gpu, n)
