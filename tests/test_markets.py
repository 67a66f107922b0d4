"""Markets as dated jurisdiction facts (knowledge/prices.yaml markets, rules/market.yaml): US
export licences with their policy, date and surcharge; China's import guidance; parts sold only in
China; domestic procurement."""

from __future__ import annotations

import datetime as dt

from gpuwise.decide.recommend import recommend


def _rules(r, gpu: str) -> set[str]:
    return {rule for c in r.candidates if c.gpu == gpu for rule in c.rules}


def test_h200_bought_in_china_is_licensed_but_blocked_at_customs(kb) -> None:
    """BIS final rule of 13 Jan 2026 (case by case, in force 15 Jan 2026; 25% US share) and Reuters,
    14 Jan 2026 (Chinese customs told agents H200 imports are not permitted): the licence is a
    warning, the customs block refuses the purchase (MARKET-CHINA-IMPORT-BLOCKED; tests/test_china_import.py
    runs it through every command)."""
    m = next(m for m in kb.prices.markets if m.id == "h200-141gb-sxm")
    assert (m.licence_policy, m.licence_since, m.surcharge_pct) == ("case-by-case", dt.date(2026, 1, 15), 25)
    assert m.china_import == "blocked" and m.china_import_as_of == dt.date(2026, 1, 14)
    r = recommend({"workload": {"task": "inference", "model": "llama-3.1-70b"},
                   "constraints": {"currency": "CNY", "acquisition": "buy", "max_gpus": 8, "gpus": ["h200"]}})
    assert r.recommendation is None
    msgs = {f.rule: f.message for f in r.findings}
    assert "MARKET-EXPORT-CASE-BY-CASE" in msgs and "2026-01-15" in msgs["MARKET-EXPORT-CASE-BY-CASE"]
    assert "25 percent" in msgs["MARKET-EXPORT-CASE-BY-CASE"]
    assert "MARKET-CHINA-IMPORT-BLOCKED" in msgs and "2026-01-14" in msgs["MARKET-CHINA-IMPORT-BLOCKED"]
    severity = {f.rule: f.severity for f in r.findings}
    assert severity["MARKET-EXPORT-CASE-BY-CASE"] == "warning"
    assert severity["MARKET-CHINA-IMPORT-BLOCKED"] == "blocker"


def test_mi325x_is_licensed_case_by_case_not_denied(kb) -> None:
    m = next(m for m in kb.prices.markets if m.id == "mi325x")
    assert m.sold_in_china and m.licence_policy == "case-by-case" and m.surcharge_pct == 25
    assert "presumption of denial" not in m.rule


def test_a_china_only_part_is_not_offered_to_a_global_buyer(kb) -> None:
    r = recommend({"workload": {"task": "inference", "model": "llama-3.1-8b"},
                   "constraints": {"acquisition": "buy", "gpus": ["rtx-4090d", "rtx-4090"]}})
    assert r.recommendation.gpu == "rtx-4090"
    assert "MARKET-CHINA-ONLY" in _rules(r, "rtx-4090d")
    assert not any(c.feasible for c in r.candidates if c.gpu == "rtx-4090d")
    # the same part for a buyer in China is not blocked by it
    cn = recommend({"workload": {"task": "inference", "model": "llama-3.1-8b"},
                    "constraints": {"currency": "CNY", "acquisition": "buy", "gpus": ["rtx-4090d"]}})
    assert "MARKET-CHINA-ONLY" not in _rules(cn, "rtx-4090d")
    assert cn.recommendation is not None and cn.recommendation.gpu == "rtx-4090d"


def test_domestic_procurement_rejects_foreign_parts(kb) -> None:
    assert {m.id for m in kb.prices.markets if m.domestic} == {"ascend-910b", "ascend-910c"}
    r = recommend({"workload": {"task": "inference", "model": "llama-3.1-8b"},
                   "constraints": {"currency": "CNY", "procurement": "domestic", "gpus": ["h20", "ascend-910b"]}})
    assert "MARKET-PROCUREMENT-DOMESTIC" in _rules(r, "h20-96gb-sxm")
    assert "MARKET-PROCUREMENT-DOMESTIC" not in _rules(r, "ascend-910b")
    assert r.recommendation is None or r.recommendation.gpu == "ascend-910b"


def test_every_non_default_import_status_is_dated_and_sourced(kb) -> None:
    for m in kb.prices.markets:
        if m.china_import != "allowed":
            assert m.china_import_as_of and len(m.china_import_source) > 10 and m.china_import_note, m.id
        if m.licence_policy == "case-by-case":
            assert m.licence_since is not None, m.id
