"""Every price in the knowledge base carries its date and its source, read from the YAML files
themselves (not through the schemas' defaults): a rental rate, a spot or reserved rate, a fee
table, a purchase price, a network part, a hosting rent, an exchange rate, an API's token price.
A price without a date cannot be judged for freshness (rules/data-freshness.yaml), and one without
a source cannot be checked; the test fails naming the file, the entry and what is missing."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
import yaml

KNOWLEDGE = Path(__file__).parent.parent / "knowledge"

# tco.yaml values that are not prices observed in a market, so carry no date (each says why)
NOT_A_MARKET_PRICE = {
    "electricity_usd_per_kwh_default": "the contract's default tariff, replaced by the user's own",
}


def _load(name: str) -> dict[str, Any]:
    """A knowledge file as plain data, read with libyaml's loader where there is one (the same data)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load((KNOWLEDGE / name).read_text(encoding="utf-8"), Loader=loader)


def _dated(entry: dict[str, Any], date_key: str = "as_of") -> bool:
    v = entry.get(date_key)
    return isinstance(v, dt.date) or (isinstance(v, str) and bool(v))


def _sourced(entry: dict[str, Any], key: str = "source") -> bool:
    return isinstance(entry.get(key), str) and len(entry[key].strip()) >= 3


def _problems(where: str, entry: dict[str, Any]) -> list[str]:
    out = []
    if not _dated(entry):
        out.append(f"{where}: no as_of")
    if not _sourced(entry):
        out.append(f"{where}: no source")
    return out


def _rental(where: str, e: dict[str, Any]) -> list[str]:
    out = _problems(where, e)
    if e.get("reserved_per_hour") or e.get("cluster_per_gpu_hour") or e.get("multi_node") == "reserved":  # terms age
        if not _dated(e, "terms_as_of"):
            out.append(f"{where}: reserved terms without terms_as_of")
        if not _sourced(e, "sold_as_source"):
            out.append(f"{where}: reserved terms without sold_as_source")
    return out


def price_problems() -> list[str]:
    out: list[str] = []
    clouds = _load("clouds.yaml")
    for p in clouds["providers"]:
        out += _problems(f"clouds.yaml providers ({p['id']}) fees", p)
    for i, e in enumerate(clouds["instances"]):
        out += _rental(f"clouds.yaml instances[{i}] ({e.get('id')})", e)
    for i, e in enumerate(clouds.get("gpu_hour_prices") or []):
        out += _rental(f"clouds.yaml gpu_hour_prices[{i}] ({e.get('provider')} {e.get('gpu')})", e)
    prices = _load("prices.yaml")
    for g in prices["gpus"]:
        for j, pp in enumerate(g["prices"]):
            out += _problems(f"prices.yaml gpus ({g['id']}) prices[{j}]", pp)
    for f in prices.get("fabrics") or []:
        out += _problems(f"prices.yaml fabrics ({f['id']})", f)
    tco = _load("tco.yaml")
    for key, v in tco["values"].items():
        money = str(v.get("unit", "")).startswith(("USD", "CNY")) or key == "usd_cny"
        if money and key not in NOT_A_MARKET_PRICE:
            out += _problems(f"tco.yaml values.{key}", v)
    for key, h in (tco.get("hosting") or {}).items():
        if any(float(v) > 0 for k, v in h.items() if k.endswith("usd_per_kw_month")):
            out += _problems(f"tco.yaml hosting.{key}", h)
    for p in _load("apis.yaml")["providers"]:
        for j, pr in enumerate(p["prices"]):
            out += _problems(f"apis.yaml providers ({p['id']}) prices[{j}] ({pr.get('model')})", pr)
    return out


def test_every_price_has_a_date_and_a_source() -> None:
    assert price_problems() == []


def test_the_check_fails_on_a_price_without_a_date_or_a_source(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check itself can fail: an offer missing its date, a reserved rate missing its source."""
    real = _load

    def patched(name: str) -> dict[str, Any]:
        data = real(name)
        if name == "clouds.yaml":
            del data["gpu_hour_prices"][0]["as_of"]
            data["instances"][0]["reserved_per_hour"] = {"1-year": 1.0}
        return data

    monkeypatch.setitem(globals(), "_load", patched)
    found = price_problems()
    assert any("gpu_hour_prices[0]" in p and "no as_of" in p for p in found)
    assert any("instances[0]" in p and "terms_as_of" in p for p in found)
    assert any("instances[0]" in p and "sold_as_source" in p for p in found)
