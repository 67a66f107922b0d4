"""Freshness as policy: the prices an answer rests on, listed with their age (``prices_used``);
a winner on a price older than the policy's limit flagged by name and date; the exchange rate's
age judged the same way; resale per GPU family."""

from __future__ import annotations

import datetime as dt

import pytest

from gpuwise.decide.recommend import recommend
from gpuwise.estimators import cost as K


def _age(d: str) -> int:
    """Age on today's date, read when asked: a run that crosses midnight must not compare
    yesterday's age with today's."""
    return (dt.date.today() - dt.date.fromisoformat(d)).days


def test_a_yuan_answer_names_its_rate_and_flags_it_when_old(kb) -> None:
    r = recommend({"workload": {"task": "inference", "model": "llama-3.1-70b"},
                   "constraints": {"currency": "CNY", "acquisition": "buy", "max_gpus": 8}})
    fx = kb.tco_value("usd_cny")
    used = {e.item: e for e in r.prices_used}
    rate = used["USD to CNY exchange rate"]
    assert rate.amount == fx.value and rate.as_of == fx.as_of.isoformat()
    assert rate.age_days == _age(fx.as_of.isoformat()) and rate.source
    limit = kb.policy_value("fx_max_age_days")
    flagged = [f for f in r.findings if f.rule == "DATA-STALE-FX"]
    assert bool(flagged) == (rate.age_days > limit)
    if flagged:
        assert fx.as_of.isoformat() in flagged[0].message and f"{fx.value:g}" in flagged[0].message
    # the card's own price is there too, with the date and source the cost step used
    buy = next(e for k, e in used.items() if k.startswith("buy "))
    assert buy.as_of and buy.source and buy.age_days == _age(buy.as_of)


def test_a_dollar_answer_does_not_carry_the_rate(kb) -> None:
    r = recommend({"workload": {"task": "inference", "model": "llama-3.1-8b"},
                   "constraints": {"acquisition": "rent"}})
    assert r.prices_used and all("CNY" not in e.item for e in r.prices_used)
    rent = r.prices_used[0]
    rec = r.recommendation
    assert rent.item.startswith("rent ") and rec.provider in rent.item
    assert rent.unit == "per GPU-hour" and rent.age_days == _age(rent.as_of)
    assert not [f for f in r.findings if f.rule == "DATA-STALE-FX"]


def test_a_winner_on_an_old_price_is_flagged_with_the_date(kb, tmp_path) -> None:
    """An overlay that makes a 2023 quote the cheapest offer: the answer takes it and says how old it is."""
    (tmp_path / "clouds.yaml").write_text(
        "gpu_hour_prices:\n  - {provider: lambda, gpu: h100-80gb-sxm, usd_per_gpu_hour: 0.50, as_of: 2023-06-01,\n"
        "     source: 'an old quote'}\n")
    r = recommend({"workload": {"task": "inference", "model": "llama-3.1-8b"},
                   "constraints": {"acquisition": "rent", "gpus": ["h100-80gb-sxm"]}}, knowledge=str(tmp_path))
    assert r.prices_used[0].as_of == "2023-06-01" and r.prices_used[0].amount == 0.50
    stale = [f for f in r.findings if f.rule == "DATA-STALE-PRICE"]
    assert stale and "2023-06-01" in stale[0].message and "NVIDIA H100 SXM5 80GB" in stale[0].message
    assert {"what": "rent NVIDIA H100 SXM5 80GB (lambda)", "as_of": "2023-06-01", "age_days": _age("2023-06-01"),
            "what_phrases": [["", "price.what.rent", {"gpu": "NVIDIA H100 SXM5 80GB", "provider": "lambda"}]],
            "answer": True} \
        in [s.model_dump() for s in r.stale_prices]


def test_resale_follows_the_family(kb) -> None:
    """Two years: NVIDIA 0.70^2 = 0.49; Gaudi 0.45^2 = 0.2025 (tco.yaml resale, a thin second-hand market);
    Ascend 0.50^2 = 0.25; a long project never goes below each family's floor."""
    assert K.resale_fraction(kb.tco, 24, family="hopper") == pytest.approx(0.49)
    assert K.resale_fraction(kb.tco, 24, family="gaudi3") == pytest.approx(0.2025)
    assert K.resale_fraction(kb.tco, 24, family="davinci") == pytest.approx(0.25)
    assert K.resale_fraction(kb.tco, 600, family="gaudi3") == pytest.approx(0.03)
    g = kb.gpus["gaudi3-128gb-oam"]
    b = K.buy_cost(g, 8, months=24, busy_hours=1000, electricity=0.1, tco=kb.tco, prices=kb.prices)
    assert b.resale.inputs["curve"] == "gaudi" and b.resale.value == pytest.approx(-b.plan.hardware_usd * 0.2025)
