"""The serving layout a GPU type x count is served with is chosen among the copy sizes the rules in
force let serve (gpuwise/decide/verdicts.py ``copy_allowed``, bound by ``plan_within``), not among
those the built-in CMP-FRAMEWORK-NODES would: a house rule that lets ExLlama span servers, or one
that keeps copies small, changes the layouts the serving model prefers exactly as judging every
layout through the engine does (the reference: each layout pinned with ``workload.parallelism``,
estimated in full and run through the rule book as a candidate)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from gpuwise.decide import bounds, engine
from gpuwise.decide.consult import rulebook_for
from gpuwise.decide.recommend import recommend
from gpuwise.decide.subjects import candidate_fact
from gpuwise.decide.verdicts import COPY, reads
from gpuwise.estimators import serving as SV
from gpuwise.estimators.candidate import evaluate
from gpuwise.estimators.serving.choice import evaluate_layout
from gpuwise.estimators.serving.engine import engine as serving_engine
from gpuwise.estimators.serving.layout import layouts
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

from .conftest import ROOT, load_yaml


def _span_allowed(tmp_path: Path) -> str:
    """CMP-FRAMEWORK-NODES replaced by a warning: this team runs ExLlama over several servers."""
    doc = load_yaml((ROOT / "rules" / "compute.yaml").read_text())
    r = copy.deepcopy(next(x for x in doc["rules"] if x["id"] == "CMP-FRAMEWORK-NODES"))
    r["then"] = {**r["then"], "action": "finding", "severity": "warning"}
    r["title"] = "Copies span servers (house: allowed, warned)"
    return _write(tmp_path / "span", "compute", [r])


def _small_copies(tmp_path: Path) -> str:
    """A house rule that tightens the copy rule: no model copy over 2 GPUs (say, for fault isolation)."""
    r = {"id": "HOUSE-SMALL-COPIES", "title": "Model copies of at most 2 GPUs", "fact": "candidate",
         "when": [["training", "==", False], ["copy_gpus", ">", 2]],
         "then": {"action": "reject", "topic": "interconnect",
                  "message": "{count} x {gpu_name}: a copy of {copy_gpus} GPUs; the house serves copies of 2 at most",
                  "fix": "Use GPUs with more memory."},
         "rationale": "A failed GPU takes down one small copy only.", "source": "House standard (test)"}
    return _write(tmp_path / "small", "compute", [r])


def _write(d: Path, step: str, rules: list[dict]) -> str:
    d.mkdir()
    (d / f"{step}.yaml").write_text(yaml.safe_dump({"schema_version": 1, "ruleset": f"house-{d.name}",
                                                     "step": step, "rules": rules}, sort_keys=False))
    return str(d)


# 405B in int4 (about 203 GB of weights) on 24 GB RTX 4090s with ExLlama (layer split, one machine:
# knowledge/serving.yaml exllama multi_node: false): no copy fits one 8-GPU server.
EXLLAMA_405B = {"workload": {"task": "inference", "model": "llama-3.1-405b", "precision": "int4",
                             "framework": "exllama", "context_len": 8192, "concurrent_requests": 64},
                "constraints": {"max_gpus": 32, "gpus": ["rtx-4090"], "acquisition": "buy"}}
VLLM_70B = {"workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "bf16", "framework": "vllm",
                         "context_len": 8192, "concurrent_requests": 32},
            "constraints": {"max_gpus": 8, "gpus": ["h100-80gb-sxm"], "acquisition": "rent"}}

CASES = [("builtin-exllama", None, EXLLAMA_405B, "rtx-4090", (16, 32)),
         ("span-exllama", _span_allowed, EXLLAMA_405B, "rtx-4090", (16, 32)),
         ("builtin-vllm", None, VLLM_70B, "h100-80gb-sxm", (2, 4, 8)),
         ("small-copies-vllm", _small_copies, VLLM_70B, "h100-80gb-sxm", (2, 4, 8))]


def _job(kb, question: dict, rules: str | None, pins: dict | None = None):
    q = copy.deepcopy(question)
    if pins:
        q["workload"]["parallelism"] = pins
    job = resolve(Requirements.model_validate(q), kb)
    return job, rulebook_for(job, rules)


def _engine_allows(kb, question: dict, rules: str | None, gpu: str, count: int, lay) -> bool:
    """Judging one layout: the question with this layout pinned, estimated in full on ``count`` x
    ``gpu`` and run through the rule book as a candidate; whether no rule that judges a copy's size
    rejected it."""
    pins = {"tp": lay.tp, "pp": lay.pp}
    job, book = _job(kb, question, rules, pins)
    ev = evaluate(job, kb.gpus[gpu], count).complete()
    assert ev.serving is not None and ev.serving.layout.gpus_per_copy == lay.gpus_per_copy  # the pin held
    fact = {**candidate_fact(job, ev, "rent"), "detail": 0}
    rejected: set[str] = set()
    for step in {book.step_of[rid] for rid, r in book.rules.items() if reads(r, COPY)}:
        # asserted at that step (what the steps before would pass it with included): an earlier
        # step's rejection (it does not fit in memory) does not hide the copy rule's verdict
        session = engine.run(book, [{**bounds._prepared(book).chain, **fact, "stage": step}])
        rejected |= {rid for rid, _i, _s in session.firings if book.rules[rid].then.action == "reject"}
    return not any(reads(book.rules[rid], COPY) for rid in rejected)


@pytest.mark.parametrize(("name", "house", "question", "gpu", "counts"), CASES, ids=[c[0] for c in CASES])
def test_each_layout_is_allowed_exactly_where_judging_it_lets_it_through(kb, tmp_path, name, house, question,
                                                                          gpu, counts):
    rules = house(tmp_path) if house else None
    job, _book = _job(kb, question, rules)
    g = kb.gpus[gpu]
    eng = serving_engine(job, g)
    seen = set()
    for n in counts:
        for lay in layouts(job, eng, n):
            if lay.pp > 1 and lay.tp > 1:
                continue  # a pin of tp and pp together is not one vLLM layout of this model here
            mine = evaluate_layout(job, g, eng, lay, n).allowed
            assert mine == _engine_allows(kb, question, rules, gpu, n, lay), (n, lay)
            seen.add(mine)
    # built in, ExLlama's copies over 8 GPUs are refused and vLLM's never; the house rules turn each around
    assert seen == ({True, False} if name in ("builtin-exllama", "small-copies-vllm") else {True})


def test_a_house_rule_letting_exllama_span_servers_changes_the_layout_chosen(kb, tmp_path):
    """32 x RTX 4090 for 405B int4: built in, no ExLlama copy may span servers, so nothing the rules
    allow fits and the layout reported is the one that holds least per GPU (one copy over all 32);
    with the house rule, two copies of 16 (each over two servers) fit, are allowed, and serve more
    (each copy's batch is capped, so two copies hold twice the sequences)."""
    g = kb.gpus["rtx-4090"]
    builtin, _ = _job(kb, EXLLAMA_405B, None)
    house, _ = _job(kb, EXLLAMA_405B, _span_allowed(tmp_path))
    a, b = SV.choose(builtin, g, 32), SV.choose(house, g, 32)
    assert (a.layout.pp, a.layout.replicas, a.allowed) == (32, 1, False)
    assert (b.layout.pp, b.layout.replicas, b.allowed) == (16, 2, True)
    assert b.max_concurrent == 2 * a.max_concurrent and b.load.throughput > a.load.throughput


def test_recommend_serves_exllama_over_servers_only_under_the_house_rule(tmp_path):
    """Bought, 32 x RTX 4090: built in, the one copy over four servers is refused (nothing
    recommended); under the house rule two copies of 16 serve, CMP-FRAMEWORK-NODES only warns, and
    that is the recommendation."""
    built_in = recommend(copy.deepcopy(EXLLAMA_405B))
    house = recommend(copy.deepcopy(EXLLAMA_405B), rules=_span_allowed(tmp_path))
    assert built_in.recommendation is None
    refused = next(c for c in built_in.candidates if c.count == 32)
    assert refused.serving.layout.gpus_per_copy == 32 and "CMP-FRAMEWORK-NODES" in refused.rules
    assert [s.id for s in refused.reason_sentences] == ["CMP-FRAMEWORK-NODES"]
    rec = house.recommendation
    assert rec is not None and rec.count == 32 and rec.serving is not None
    assert (rec.serving.layout.gpus_per_copy, rec.serving.layout.replicas) == (16, 2)
    assert rec.serving.supports.multi_node is True
    warned = [f for f in house.findings if f.rule == "CMP-FRAMEWORK-NODES"]
    assert warned and {f.severity for f in warned} == {"warning"}


def test_a_house_rule_keeping_copies_small_keeps_them_small(kb, tmp_path):
    """70B bf16 (about 141 GB of weights) on 8 x H100 80GB: built in, vLLM may use copies of 4 or 8;
    under HOUSE-SMALL-COPIES every layout chosen is a copy of 2 (the only size that fits and the
    house allows: 2 x 80 GB hold the weights)."""
    g = kb.gpus["h100-80gb-sxm"]
    house, _ = _job(kb, VLLM_70B, _small_copies(tmp_path))
    for n in (2, 4, 8):
        s = SV.choose(house, g, n)
        assert s.allowed and s.layout.gpus_per_copy == 2, (n, s.layout)


def test_the_plan_sizes_a_service_within_the_copy_rule(tmp_path):
    """gpuwise plan sizes a service with the same verdict: built in, 405B int4 with ExLlama on RTX
    4090s needs a copy over two servers, which CMP-FRAMEWORK-NODES refuses, so the service is left
    unplaced with that rule as the reason (it was placed on 64 GPUs in copies of 16); under the house
    rule that lets ExLlama span servers it is placed."""
    from gpuwise.plan.build import plan

    service = {"name": "chat-405b", "workload": {**EXLLAMA_405B["workload"], "prompt_tokens": 1000,
                                                  "output_tokens": 300},
               "cadence": {"continuous": True, "hours_per_day": 24},
               "targets": {"requests_per_s": 0.2, "p95_ttft_ms": 20000}}
    service["workload"].pop("context_len")
    service["workload"].pop("concurrent_requests")
    question = {"horizon_months": 3, "owned": [], "workloads": [service],
                "constraints": {"acquisition": "either", "gpus": ["rtx-4090"]}}
    built_in = plan(copy.deepcopy(question))
    assert [u.workload for u in built_in.unplaced] == ["chat-405b"] and built_in.unplaced[0].months == [1, 2, 3]
    assert "CMP-FRAMEWORK-NODES" in built_in.unplaced[0].reason
    house = plan(copy.deepcopy(question), rules=_span_allowed(tmp_path))
    placed = {(p.gpu, p.count) for m in house.months for p in m.placements}
    assert placed and all(g == "rtx-4090" and n > 8 for g, n in placed)
