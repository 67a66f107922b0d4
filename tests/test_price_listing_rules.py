"""``gpuwise prices`` marks a stale price with the data-freshness rules' verdict, not with an age
compared in the view: DATA-STALE-PRICE against ``price_max_age_days`` (365 days), DATA-STALE-FX
against ``fx_max_age_days`` (90 days: the exchange rate was marked by the price limit before), and
a house rule or a policy overlay in their place moves the marks."""

from __future__ import annotations

import yaml

from gpuwise.decide import rulebook, verdicts
from gpuwise.prices.table import price_rows, render_text

from .conftest import ROOT


def _limit(kb, r) -> float:
    return float(kb.policy_value("fx_max_age_days" if r.kind == "fx" else "price_max_age_days"))


def test_the_listing_marks_what_the_freshness_rules_call_stale(kb):
    rows = price_rows(kb)
    got = verdicts.stale(rulebook.load(None, kb.policy_values()), rows)
    assert float(kb.policy_value("price_max_age_days")) == 365 and float(kb.policy_value("fx_max_age_days")) == 90
    dated = [i for i, r in enumerate(rows) if r.age_days is not None]
    assert len(dated) > 100 and got
    for i in dated:
        r = rows[i]
        assert (i in got) == (r.age_days > _limit(kb, r)), (r.kind, r.item, r.age_days)
        if i in got:
            assert got[i] == ["DATA-STALE-FX" if r.kind == "fx" else "DATA-STALE-PRICE"]
    text = render_text(rows, 365, "en", got).splitlines()
    assert sum("!;" in line for line in text) == len(got)  # "age (d): 400!;" once per stale row


def test_a_house_rule_moves_the_listings_marks(kb, tmp_path):
    """A team that calls a price stale after 30 days (DATA-STALE-PRICE replaced): every dated price
    over 30 days is marked, none under."""
    doc = yaml.safe_load((ROOT / "rules" / "data-freshness.yaml").read_text())
    rule = next(r for r in doc["rules"] if r["id"] == "DATA-STALE-PRICE")
    rule["when"][-1][2] = 30
    (tmp_path / "fresh.yaml").write_text(yaml.safe_dump({**doc, "ruleset": "house-fresh", "rules": [rule]}))
    rows = price_rows(kb)
    got = verdicts.stale(rulebook.load(str(tmp_path), kb.policy_values()), rows)
    builtin = verdicts.stale(rulebook.load(None, kb.policy_values()), rows)
    for i, r in enumerate(rows):
        if r.age_days is not None and r.kind != "fx":
            assert (i in got) == (r.age_days > 30), (r.item, r.age_days)
    assert len(got) > len(builtin)
