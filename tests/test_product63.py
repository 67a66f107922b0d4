"""product63: where what the buyer sees did not match what gpuwise assumed; each test fails before its fix.

1. Spot rentals. A provider that publishes no spot price was priced at its on-demand price less the assumed 55%
   (knowledge/clouds.yaml spot.fallback_discount), and that guess could win the spot ranking: 8 H100 on spot with no
   provider named took RunPod at 8 x $2.69 x 0.45 = $9.684 an hour beside Google Cloud's published spot price for
   its a3-highgpu-8g, $35.3957 an hour (clouds.yaml, Cloud Billing Catalog 2025-03-06). A published spot price now
   ranks before every guess (offers.as_spot); a rental billed at a guess (RunPod named) says so
   (FEE-SPOT-PRICE-ASSUMED), and a proposal's own spot price is billed as quoted, not discounted again.
"""
from __future__ import annotations

import pytest

from tests.clirun import ROOT, json_of, text_of

DATA = ROOT / "tests/data/product63"
SPOT = DATA / "audit-spot-8-h100.yaml"
SPOT_RUNPOD = DATA / "audit-spot-8-h100-runpod.yaml"


def _rent(data: dict) -> dict:
    (rent,) = [ln for ln in data["proposed"]["ledger"]["lines"] if ln["kind"] == "rent"]
    return rent


def _rules(data: dict) -> set[str]:
    return {f["rule"] for f in data["findings"]}


def test_a_published_spot_price_ranks_before_an_assumed_one(tmp_path):
    data = json_of(tmp_path, "audit", str(SPOT))
    i = _rent(data)["inputs"]
    # clouds.yaml gcp a3-highgpu-8g (8 H100): spot_usd_per_hour 35.3957. RunPod's H100 SXM at $2.69 a GPU-hour
    # (runpod.io/pricing, 2026-09-25) publishes no spot price: its guess, 8 x 2.69 x (1 - 0.55) = $9.684 an hour,
    # is lower but is no price anyone quoted
    assert pytest.approx(9.684) == 8 * 2.69 * (1 - 0.55)
    assert (i["provider"], i["instance"], i["usd_per_hour"], i["spot_price_known"]) == (
        "gcp", "a3-highgpu-8g", 35.3957, True)
    assert "FEE-SPOT-PRICE-ASSUMED" not in _rules(data)


def test_a_rental_billed_at_an_assumed_spot_price_says_so(tmp_path):
    data = json_of(tmp_path, "audit", str(SPOT_RUNPOD))
    i = _rent(data)["inputs"]
    # RunPod named: its only H100 SXM offers are on demand; the cheaper, $2.69 a GPU-hour, less 55% is $1.2105
    assert (i["provider"], i["spot_price_known"]) == ("runpod", False)
    assert i["usd_per_hour"] == pytest.approx(8 * 2.69 * 0.45)
    (f,) = [f for f in data["findings"] if f["rule"] == "FEE-SPOT-PRICE-ASSUMED"]
    assert f["severity"] == "warning" and data["verdict"] == "revise"
    assert f["message"] == ("runpod publishes no spot price gpuwise knows for NVIDIA H100 SXM5 80GB: the spot rate "
                            "billed, $1.21 a GPU-hour, is its on-demand $2.69 less an assumed 55%, not a quoted price")
    zh = "".join(text_of(tmp_path, "audit", str(SPOT_RUNPOD), "--lang", "zh").split())
    assert "是其按需价格$2.69减去假设的55%折扣，并非报价" in zh


def test_a_proposals_own_spot_price_is_billed_as_quoted(tmp_path):
    path = tmp_path / "own.yaml"
    path.write_text(SPOT_RUNPOD.read_text().replace("  provider: runpod", "  provider: runpod\n  hourly_usd: 4.0"))
    data = json_of(tmp_path, "audit", str(path))
    rent = _rent(data)
    # $4.00 a GPU-hour on spot for 8 GPUs is $32.00 an hour, billed for the run's hours x (1 + 0.08 restart
    # overhead); it was billed at 32 x 0.45 = $14.40, the assumed discount taken off a price already spot
    assert rent["inputs"]["usd_per_hour"] == pytest.approx(32.0)
    assert rent["inputs"]["spot_price_known"] is True
    assert rent["amount"] == pytest.approx(32.0 * rent["inputs"]["hours"] * 1.08, rel=1e-9)
    assert "FEE-SPOT-PRICE-ASSUMED" not in _rules(data)
