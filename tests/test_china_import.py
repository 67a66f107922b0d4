"""China's import guidance decides alike in every command, by its rules alone (rules/market.yaml):
a part whose import customs block (knowledge/prices.yaml markets ``china_import: blocked``; H200,
Reuters 14 Jan 2026: Chinese customs told agents H200 chips are not permitted to enter China) cannot
be bought in the China market -- MARKET-CHINA-IMPORT-BLOCKED rejects the purchase in ``recommend``,
makes an audit of it a ``reject`` and keeps the capacity plan from buying it -- while a part whose
purchase is only discouraged (H20, CAC and Reuters, Aug 2025) is bought with MARKET-CHINA-IMPORT's
warning -- in the plan too, said of the GPU type it buys. Renting imports nothing: the rule does not
touch it. The severity lives in the rule YAML only: a house rule with the same id and another
action moves all three commands."""

from __future__ import annotations

import copy

import pytest
import yaml

import gpuwise
from gpuwise.decide import rulebook
from gpuwise.decide.verdicts import buy_refused

from .conftest import ROOT, load_yaml

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest: audits of one question share the search

BLOCKED, DISCOURAGED = "MARKET-CHINA-IMPORT-BLOCKED", "MARKET-CHINA-IMPORT"
CN = {"currency": "CNY", "market": "china"}

# recommend: a 70B service bought in China on H200 (8-GPU HGX servers)
SERVICE = {"workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "int4", "concurrent_requests": 8},
           "constraints": {**CN, "acquisition": "buy", "max_gpus": 8, "gpus": ["h200"]}}
# audit: a proposal to buy one 8 x H200 server in China for the same service
PROPOSAL = {"title": "One HGX H200 server for a 70B service in Beijing",
            "workload": SERVICE["workload"], "constraints": CN,
            "hardware": {"gpu": "H200 SXM", "count": 8, "link": "nvlink"},
            "acquisition": {"mode": "buy", "unit_price_usd": 32000, "months": 24}}
# plan: the same service run for six months, bought only, on H200
PLAN = {"horizon_months": 6,
        "workloads": [{"name": "chat-70b", "workload": {"task": "inference", "model": "llama-3.1-70b",
                                                        "precision": "int4", "prompt_tokens": 1000,
                                                        "output_tokens": 300},
                       "cadence": {"continuous": True, "hours_per_day": 24}, "targets": {"requests_per_s": 1}}],
        "constraints": {**CN, "acquisition": "buy", "gpus": ["h200"], "hosting": "colocation"}}


def _builtin(rule_id: str) -> dict:
    doc = load_yaml((ROOT / "rules" / "market.yaml").read_text())
    return copy.deepcopy(next(r for r in doc["rules"] if r["id"] == rule_id))


def _house(tmp_path, rule: dict) -> str:
    d = tmp_path / "house"
    d.mkdir(exist_ok=True)
    (d / "market.yaml").write_text(yaml.safe_dump({"schema_version": 1, "ruleset": "house", "step": "tco",
                                                    "rules": [rule]}, sort_keys=False))
    return str(d)


def _as(rule_id: str, action: str, severity: str | None = None) -> dict:
    """The built-in rule with another action (a finding of ``severity``, or a reject)."""
    r = _builtin(rule_id)
    r["then"]["action"] = action
    if severity is None:
        r["then"].pop("severity", None)
    else:
        r["then"]["severity"] = severity
    return r


def _write(tmp_path, name: str, doc: dict):
    p = tmp_path / name
    p.write_text(yaml.safe_dump(doc, sort_keys=False))
    return p


def _three(tmp_path, rules: str | None = None):
    extra = {"rules": rules} if rules else {}
    rec = gpuwise.recommend(SERVICE, **extra)
    aud = gpuwise.audit(_write(tmp_path, "proposal.yaml", PROPOSAL), **extra)
    plan = gpuwise.plan(_write(tmp_path, "plan.yaml", PLAN), **extra)
    return rec, aud, plan


def _severities(result, rule_id: str) -> set[str]:
    return {f.severity for f in result.findings if f.rule == rule_id}


def test_the_knowledge_says_h200_is_blocked_and_h20_discouraged(kb):
    marks = {m.id: m.china_import for m in kb.prices.markets}
    assert marks["h200-141gb-sxm"] == marks["h200-nvl-141gb"] == "blocked"
    assert marks["h20-96gb-sxm"] == "discouraged"
    book = rulebook.load(None, kb.policy_values())
    assert book.rules[BLOCKED].then.action == "reject"
    assert (book.rules[DISCOURAGED].then.action, book.rules[DISCOURAGED].then.severity) == ("finding", "warning")


def test_a_blocked_import_is_a_blocker_in_recommend_audit_and_plan(kb, tmp_path):
    rec, aud, plan = _three(tmp_path)
    # recommend: no H200 purchase is recommended; each count bought is rejected by the rule
    assert rec.recommendation is None
    bought = [c for c in rec.candidates if c.acquisition == "buy" and c.count >= 4]
    assert bought and all(BLOCKED in c.rules and not c.feasible for c in bought)
    assert _severities(rec, BLOCKED) == {"blocker"}
    # audit: buying the server is rejected (exit status 1), the rule a blocker on the proposal
    assert aud.verdict == "reject"
    assert BLOCKED in aud.proposed.rules and _severities(aud, BLOCKED) == {"blocker"}
    # plan: the rules refuse the purchase, so nothing is bought and the service is not placed
    book = rulebook.load(None, kb.policy_values())
    assert buy_refused(book, kb, kb.gpus["h200-141gb-sxm"], SERVICE["constraints"], "china") == [BLOCKED]
    assert plan.purchases == [] and [u.workload for u in plan.unplaced] == ["chat-70b"]


def test_renting_is_not_an_import(kb):
    """Renting H200 for a team in China (from a cloud that runs them) is not refused by the rule."""
    rent = gpuwise.recommend({**SERVICE, "constraints": {**SERVICE["constraints"], "acquisition": "rent"}})
    assert rent.recommendation is not None and rent.recommendation.gpu == "h200-141gb-sxm"
    assert not any(BLOCKED in c.rules for c in rent.candidates)


def test_a_house_rule_that_makes_it_a_warning_moves_all_three(kb, tmp_path):
    """A team whose channel clears customs replaces the rule with a warning: recommend buys the
    server with the warning, the audit no longer rejects the proposal for it, the plan buys it."""
    rules = _house(tmp_path, _as(BLOCKED, "finding", "warning"))
    rec, aud, plan = _three(tmp_path, rules)
    assert rec.recommendation is not None and rec.recommendation.gpu == "h200-141gb-sxm"
    assert rec.recommendation.acquisition == "buy" and _severities(rec, BLOCKED) == {"warning"}
    assert aud.verdict != "reject" and _severities(aud, BLOCKED) == {"warning"}
    assert BLOCKED not in (aud.proposed.reasons or [])
    assert [p.gpu for p in plan.purchases] == ["h200-141gb-sxm"]
    # bought only: the month before the server arrives (plan_delivery_months) is unplaced, not rented (hostile 27)
    assert [(u.workload, u.months) for u in plan.unplaced] == [("chat-70b", [1])]
    assert not [x for x in plan.lines if x.kind == "rent"]
    assert _severities(plan, BLOCKED) == {"warning"}  # said of the purchase, as recommend says it
    assert {f.subject for f in plan.findings if f.rule == BLOCKED} == {"h200-141gb-sxm"}
    book = rulebook.load(rules, kb.policy_values())
    assert buy_refused(book, kb, kb.gpus["h200-141gb-sxm"], SERVICE["constraints"], "china") == []


@pytest.mark.parametrize("severity", ["info", "warning"])
def test_the_discouraged_rule_made_a_blocker_refuses_h20_everywhere(kb, tmp_path, severity):
    """The other way: a state-linked buyer makes MARKET-CHINA-IMPORT (discouraged) a reject; the H20
    server is then bought nowhere. Built in (or lowered to info) it is bought with the finding."""
    h20 = {**SERVICE, "constraints": {**SERVICE["constraints"], "gpus": ["h20"]}}
    relaxed = _house(tmp_path, _as(DISCOURAGED, "finding", severity))
    r = gpuwise.recommend(h20, rules=relaxed)
    assert r.recommendation is not None and r.recommendation.gpu == "h20-96gb-sxm"
    assert _severities(r, DISCOURAGED) == {severity}
    (tmp_path / "strict").mkdir()
    strict = _house(tmp_path / "strict", _as(DISCOURAGED, "reject"))
    r = gpuwise.recommend(h20, rules=strict)
    assert r.recommendation is None and _severities(r, DISCOURAGED) == {"blocker"}
    proposal = {**PROPOSAL, "constraints": CN, "hardware": {"gpu": "H20", "count": 8, "link": "nvlink"}}
    assert gpuwise.audit(_write(tmp_path, "h20.yaml", proposal), rules=strict).verdict == "reject"
    plan = copy.deepcopy(PLAN)
    plan["constraints"]["gpus"] = ["h20"]
    assert gpuwise.plan(_write(tmp_path, "p.yaml", plan), rules=strict).purchases == []
    built_in = gpuwise.plan(_write(tmp_path, "p.yaml", plan))
    assert [p.gpu for p in built_in.purchases] == ["h20-96gb-sxm"]
    assert _severities(built_in, DISCOURAGED) == {"warning"}
    assert _severities(gpuwise.plan(_write(tmp_path, "p.yaml", plan), rules=relaxed), DISCOURAGED) == {severity}
