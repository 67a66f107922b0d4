"""What the capacity plan may buy is the market rules' verdict (gpuwise/decide/verdicts.py
buy_refused), as for ``recommend``'s candidates: a part not sold into China (MARKET-EXPORT-BUY) or
sold only there (MARKET-CHINA-ONLY) cannot be bought, and a house rule in their place -- a team
with an export licence, or one that buys no consumer cards -- moves the plan's purchases with it."""

from __future__ import annotations

import copy
from types import SimpleNamespace

import yaml

from gpuwise import messages
from gpuwise.decide import rulebook
from gpuwise.decide.recommend import recommend
from gpuwise.decide.verdicts import buy_refusal, buy_refused
from gpuwise.plan.solve import fleet_for

from .conftest import ROOT

ANY = SimpleNamespace(procurement="any")


def _house(tmp_path, rules: list[dict], step: str = "tco") -> str:
    d = tmp_path / "house"
    d.mkdir(exist_ok=True)
    (d / f"{step}.yaml").write_text(yaml.safe_dump({"schema_version": 1, "ruleset": "house", "step": step,
                                                    "rules": rules}, sort_keys=False))
    return str(d)


def _builtin(rule_id: str) -> dict:
    doc = yaml.safe_load((ROOT / "rules" / "market.yaml").read_text())
    return copy.deepcopy(next(r for r in doc["rules"] if r["id"] == rule_id))


def _fleet(kb, gpu: str, market: str, book=None, constraints=ANY):
    book = book or rulebook.load(None, kb.policy_values())
    return fleet_for(kb, kb.gpus[gpu], 0, "office", electricity=0.15, hosting=None, market=market, usd_cny=7.0,
                     refused=buy_refusal(book, kb, kb.gpus[gpu], constraints, market))


def test_the_export_rules_decide_what_the_plan_may_buy(kb):
    """Built in: an H100 bought in China is refused by MARKET-EXPORT-BUY (BIS: not sold into China),
    an RTX 4090 D bought outside China by MARKET-CHINA-ONLY; an H20 in China and an H100 outside
    it are not refused -- the plan prices one unit of them (one 8-GPU server of H100)."""
    book = rulebook.load(None, kb.policy_values())
    assert buy_refused(book, kb, kb.gpus["h100-80gb-sxm"], ANY, "china") == ["MARKET-EXPORT-BUY"]
    assert buy_refused(book, kb, kb.gpus["rtx-4090d"], ANY, "global") == ["MARKET-CHINA-ONLY"]
    assert buy_refused(book, kb, kb.gpus["h20-96gb-sxm"], ANY, "china") == []
    assert buy_refused(book, kb, kb.gpus["h100-80gb-sxm"], ANY, "global") == []
    no = _fleet(kb, "h100-80gb-sxm", "china")
    assert no.unit == 0 and [p[1] for p in no.buy_reason] == ["buy.china_blocked"]
    assert "cannot be bought in mainland China" in messages.phrase_text(no.buy_reason)
    yes = _fleet(kb, "h100-80gb-sxm", "global")
    assert yes.unit >= 1 and yes.unit_capex > 0


def test_a_house_rule_moves_what_the_plan_may_buy_as_it_moves_recommend(kb, tmp_path):
    """A team that buys through a licensed channel replaces MARKET-EXPORT-BUY with a warning: the
    plan may then buy H100 in China, and recommend's H100 purchase in China is no longer rejected.
    A team that buys no consumer cards (a house rule on segment): the plan may not buy an RTX 4090,
    and recommend rejects buying one."""
    licensed = _builtin("MARKET-EXPORT-BUY")
    licensed["then"] = {**licensed["then"], "action": "finding", "severity": "warning"}
    licensed["then"].pop("fix", None)
    no_consumer = {"id": "HOUSE-NO-CONSUMER-BUY", "title": "We buy no consumer cards", "fact": "candidate",
                   "when": [["acquisition", "==", "buy"], ["segment", "==", "consumer"]],
                   "then": {"action": "reject", "topic": "cost",
                            "message": "{gpu_name}: consumer cards are not bought here"},
                   "rationale": "A team's purchasing policy.", "source": "the team's purchasing policy"}
    rules = _house(tmp_path, [licensed, no_consumer], step="tco")
    book = rulebook.load(rules, kb.policy_values())
    assert buy_refused(book, kb, kb.gpus["h100-80gb-sxm"], ANY, "china") == []
    assert buy_refused(book, kb, kb.gpus["rtx-4090"], ANY, "global") == ["HOUSE-NO-CONSUMER-BUY"]
    assert buy_refused(rulebook.load(None, kb.policy_values()), kb, kb.gpus["rtx-4090"], ANY, "global") == []

    cn = recommend({"workload": {"task": "inference", "model": "llama-3.1-8b"},
                    "constraints": {"acquisition": "buy", "currency": "CNY", "gpus": ["h100-sxm"], "max_gpus": 8}},
                   rules=rules)
    eight = next(c for c in cn.candidates if c.count == 8)  # sold as one 8-GPU server
    assert "MARKET-EXPORT-BUY" in eight.rules and eight.feasible  # said, no longer refused
    g = recommend({"workload": {"task": "inference", "model": "llama-3.1-8b"},
                   "constraints": {"acquisition": "buy", "gpus": ["rtx-4090"], "max_gpus": 1}}, rules=rules)
    assert all("HOUSE-NO-CONSUMER-BUY" in c.rules and not c.feasible for c in g.candidates)


def test_the_plans_buy_reason_is_the_refusing_rules_own(kb, tmp_path):
    """``buy_reason`` says why each refusing rule refuses the purchase, not always the export rule's
    words: China's customs (H200 SXM in China: MARKET-CHINA-IMPORT-BLOCKED, Reuters 14 Jan 2026 as
    knowledge/prices.yaml dates it), a part sold only in China bought outside it (RTX 4090 D:
    MARKET-CHINA-ONLY), a domestic-only procurement (an H20 is not a Chinese design:
    MARKET-PROCUREMENT-DOMESTIC), a house rule (named by its id)."""
    def said(f):
        return [p[1] for p in f.buy_reason], messages.phrase_text(f.buy_reason)

    mids, text = said(_fleet(kb, "h200-141gb-sxm", "china"))
    assert "buy.china_import_blocked" in mids and "imports are blocked" in text and "2026-01-14" in text
    assert "buy.china_blocked" not in mids  # not sold-into-China's wording: the H200 may be licensed
    assert said(_fleet(kb, "rtx-4090d", "global")) == (
        ["buy.china_only"], "NVIDIA GeForce RTX 4090 D 24GB (China) is sold only in mainland China")
    domestic = SimpleNamespace(procurement="domestic")
    mids, text = said(_fleet(kb, "h20-96gb-sxm", "china", constraints=domestic))
    assert mids == ["buy.not_domestic"] and "domestic parts only" in text
    no_consumer = {"id": "HOUSE-NO-CONSUMER-BUY", "title": "We buy no consumer cards", "fact": "candidate",
                   "when": [["acquisition", "==", "buy"], ["segment", "==", "consumer"]],
                   "then": {"action": "reject", "topic": "cost",
                            "message": "{gpu_name}: consumer cards are not bought here"},
                   "rationale": "A team's purchasing policy.", "source": "the team's purchasing policy"}
    book = rulebook.load(_house(tmp_path, [no_consumer]), kb.policy_values())
    mids, text = said(_fleet(kb, "rtx-4090", "global", book=book))
    assert mids == ["buy.refused"] and "HOUSE-NO-CONSUMER-BUY" in text
