"""A service's yes/no figures in the JSON -- ``targets.meets_throughput_target/meets_ttft/meets_tpot``,
``rate.meets_requests_per_s`` and ``supports.gpu/precision/multi_node`` -- are the rules' verdict
on the candidate (gpuwise/decide/verdicts.py judged_serving), never a comparison in Python: the
serving estimator leaves them unset, and a candidate the rules let through a figure's rules is
shown meeting it, one they reject on it missing it, under built-in and house rules alike."""

from __future__ import annotations

import copy

import pytest
import yaml

import gpuwise
from gpuwise.decide import rulebook
from gpuwise.decide.verdicts import SERVING_JUDGED

from .conftest import ROOT
from .test_search_defers_to_rules import _house, _times

# Llama 3.1 8B answering 2,000-token prompts with 300 tokens, 3,000 output tokens/s in total, the
# first token within 1 s and a token every 20 ms.
TPS = {"workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 2000, "output_tokens": 300,
                    "target_tokens_per_s": 3000, "max_ttft_ms": 1000, "max_tpot_ms": 20},
       "constraints": {"max_gpus": 8, "project_months": 12, "gpus": ["h100-80gb-sxm", "l40s", "rtx-4090", "t4"]}}
# The same model at a request rate with p95 targets.
RATE = {"workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000, "output_tokens": 500,
                     "requests_per_s": 20, "p95_ttft_s": 1, "p95_tpot_s": 0.05},
        "constraints": {"max_gpus": 4, "project_months": 12, "gpus": ["h100-80gb-sxm", "l4"]}}

# JSON flag -> (where it is in a candidate's serving JSON, the built-in rules that decide it)
FLAGS = {
    "meets_throughput_target": (("targets", "meets_throughput_target"), {"CMP-TARGET-SPEED"}),
    "meets_ttft": (("targets", "meets_ttft"), {"CMP-TTFT-TARGET"}),
    "meets_tpot": (("targets", "meets_tpot"), {"CMP-TPOT-TARGET"}),
    # SRV-RATE-AT-LOAD reads max_requests_per_s too, only where no rate is asked (review46), so never where the flag is
    "meets_rate": (("rate", "meets_requests_per_s"), {"SRV-RATE-TARGET", "SRV-RATE-AT-LOAD"}),
    "gpu": (("supports", "gpu"), {"CMP-FRAMEWORK-GPU", "CMP-ATTENTION-BACKEND-GPU"}),
    "precision": (("supports", "precision"), {"CMP-FRAMEWORK-PRECISION"}),
    "multi_node": (("supports", "multi_node"), {"CMP-FRAMEWORK-NODES"}),
}


def _flag(sv, where: tuple[str, str]):
    block = getattr(sv, where[0], None)
    return getattr(block, where[1], None) if block is not None else None


def _judged(result, rejecting: dict[str, set[str]]):
    """(flag, candidate, value, rejected by its rules) for every candidate the compute step judged."""
    for c in result.candidates:
        if c.serving is None or c.stage == "memory":  # the compute-step rules never saw it
            continue
        for name, (where, _builtin) in FLAGS.items():
            value = _flag(c.serving, where)
            if value is None:
                continue
            yield name, f"{c.gpu} x {c.count}", value, bool(rejecting[name] & set(c.rules))


def test_every_flag_names_the_fields_its_rules_read():
    book = rulebook.load()
    for name, fields in SERVING_JUDGED.items():
        readers = {rid for rid, r in book.rules.items() if r.fact == "candidate" and r.then.action == "reject"
                   and any(c[0] in fields or (isinstance(c[2], str) and c[2][1:] in fields)
                           for c in (*r.when, *r.any))}
        assert readers == FLAGS[name][1], (name, readers)


@pytest.mark.parametrize("question", [TPS, RATE], ids=["throughput", "rate"])
def test_each_flag_is_what_its_rules_did_with_the_candidate(question):
    """On every candidate the compute step judged, a flag is false exactly where one of its rules
    rejected the candidate (both directions occur in these questions)."""
    r = gpuwise.recommend(question)
    seen = {}
    for name, who, value, rejected in _judged(r, {k: v[1] for k, v in FLAGS.items()}):
        assert value is (not rejected), (name, who, value)
        seen.setdefault(name, set()).add(value)
    both = {name for name, values in seen.items() if values == {True, False}}
    wanted = {"meets_throughput_target", "meets_ttft", "meets_tpot"} if question is TPS else {"meets_rate"}
    assert wanted <= both, seen


def test_a_house_rule_moves_the_flags_with_the_verdict(tmp_path):
    """A house rule that allows three times the TTFT target: the target shown is 3,000 ms, and the
    candidates its rule lets through are shown meeting it (some that missed 1,000 ms now meet it)."""
    house = _house(tmp_path, [_times("CMP-TTFT-TARGET", "ttft_ms", 3)])
    built_in, relaxed = gpuwise.recommend(TPS), gpuwise.recommend(TPS, rules=house)
    rejecting = {k: v[1] for k, v in FLAGS.items()}
    for name, who, value, rejected in _judged(relaxed, rejecting):
        assert value is (not rejected), (name, who, value)
    shown = {c.serving.targets.max_ttft_ms for c in relaxed.candidates if c.serving}
    assert shown == {3000}

    def meets(res):
        return {f"{c.gpu} x {c.count}" for c in res.candidates if c.serving and c.stage != "memory"
                and c.serving.targets.meets_ttft}

    assert meets(built_in) < meets(relaxed)


def test_supports_gpu_is_the_framework_rule_s_verdict(tmp_path):
    """vLLM lists compute capability 7.0 as its floor (knowledge/serving.yaml), so a P100 (6.0)
    serving Llama 3.2 3B is rejected by CMP-FRAMEWORK-GPU and shown ``supports.gpu: false``. A team
    running a Pascal build of vLLM replaces the rule with one that checks the vendor alone: the same
    P100 is then shown ``supports.gpu: true`` -- the estimator's own reading of the floor does not decide it."""
    q = {"workload": {"task": "inference", "model": "llama-3.2-3b", "framework": "vllm", "concurrent_requests": 4},
         "constraints": {"gpus": ["p100-16gb-pcie"], "max_gpus": 1}}

    def p100(res):
        return next(c for c in res.candidates if c.gpu == "p100-16gb-pcie" and c.count == 1)

    built = p100(gpuwise.recommend(q))
    assert built.serving.supports.gpu is False and "CMP-FRAMEWORK-GPU" in built.rules
    doc = yaml.safe_load((ROOT / "rules" / "compute.yaml").read_text())
    rule = copy.deepcopy(next(r for r in doc["rules"] if r["id"] == "CMP-FRAMEWORK-GPU"))
    rule["any"] = [c for c in rule["any"] if c[0] != "cc"]
    rule["title"] += " (house: our vLLM build runs on Pascal)"
    mine = p100(gpuwise.recommend(q, rules=_house(tmp_path, [("compute", rule)])))
    assert "CMP-FRAMEWORK-GPU" not in mine.rules
    assert mine.serving.supports.gpu is True
    assert mine.serving.supports.reason == built.serving.supports.reason  # the reading, kept


def test_the_estimator_leaves_the_verdicts_to_the_rules(kb):
    """The serving model's record has no verdict of its own; ``gpuwise estimate`` shows the rules'."""
    from gpuwise.estimators.candidate import evaluate
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    job = resolve(Requirements.model_validate(TPS), kb, "q")
    sv = evaluate(job, kb.gpus["l40s"], 2).serving
    assert (sv.meets_throughput_target, sv.meets_ttft, sv.meets_tpot, sv.meets_rate) == (None, None, None, None)
    est = gpuwise.estimate(TPS, gpu="l40s", gpus=2)
    targets = est.gpu.serving.targets
    assert {targets.meets_ttft, targets.meets_tpot, targets.meets_throughput_target} <= {True, False}
    # the same configuration in recommend is shown with the same verdicts
    same = next(c for c in gpuwise.recommend(TPS).candidates if c.gpu == "l40s" and c.count == 2)
    assert same.serving.targets == targets
