"""reviewleft60: defects review56 found and left (tests/data/review56), each test failing before its fix.

1. knowledge/clouds.yaml charged Nebius's object storage rate, $0.0147 per GiB a month
   (docs.nebius.com/object-storage/resources/pricing), per GB: 10 TB a month read $147.00 where it is 10,000 GB x
   $0.0147 / 1.073741824 = $136.90. A provider's storage_unit states the unit its page writes the rates per; Lambda
   (its billing page's filesystems per GiB-month), CoreWeave (storage metered in binary GB) and Azure (a 1 TiB
   disk's monthly price / 1,024) are per GiB too.

2. The plan's cash flow (plan-owned-4090-past-warranty.yaml) shows months 8-9 at $408 and 10-11 at $407, months
   of the same cost: cents59's controlled rounding (money_view.rounded_table) makes every row and column add up in
   whole units, and four equal months of $407.5x cannot add up to their total otherwise. The page did not say so;
   its notes now do, in English and Chinese.

3. A service that misses its p95 targets at the rate asked (proposals/a-rent-pro6000-qwen35-spec.yaml: 4 x RTX PRO
   6000 Server Edition, Qwen3.5 122B-A10B FP8 with EAGLE-3 at 4 requests/s within p95 1.5 s / 30 ms) said in its
   Compute step 'Compute: 23 tokens/s per sequence, 2,800 tokens/s in total' (4 requests/s x 700 tokens, at a p95
   of 47 ms a token) beside its table's 2,044 within the targets. CMP-SERVES now holds where the rate asked is
   served; CMP-SERVES-PAST-RATE gives the output at the highest rate within the limits (2.92 requests/s x 700 =
   2,044 tokens/s, one over its 27.6 ms mean time per output token = 36 tokens/s a sequence; the estimator's
   rate_max_tps / rate_max_decode_tps) and names the 2,800 at the rate asked as past them; CMP-SERVES-NO-RATE-WITHIN
   where no rate is within them. Brief, full and JSON say the same figure.

4. TCO-RENT-DEARER-PROPOSED compared 2 x AWS p5.48xlarge committed 36 months (proposals/c-commit-aws-p5-3yr-
   egress.yaml) at $1,539,228, which holds $289,494 of egress and storage (36 x $3,441.50 + 200,000 GB x $0.023 x
   36), with a purchase of the same GPUs whose ledger prices no storage or transit. A rental with such fees is now
   judged by TCO-RENT-DEARER-PROPOSED-FEES: its GPUs' $1,249,734 against the purchase, the fees named and left out
   of both.

5. A plan of 8 RTX 4090 bought 2022-11 (plan-owned-4090-past-warranty.yaml) said nothing of their warranty:
   owned[].bought was only recorded. knowledge/tco.yaml warranty_years_consumer (3 years: GIGABYTE's graphics-card
   warranty page) dates its end, 2022-11 + 36 months = 2025-11; PLAN-OWNED-PAST-WARRANTY says the cards are past it
   and what that means for the plan, PLAN-OWNED-WARRANTY-ENDS where it ends inside the plan. Cards of a segment
   without a sourced term (data centre; workstation systems such as GB10: product61 sourced the workstation PCIe
   cards' 3 years) are not judged.
"""
from __future__ import annotations

import pytest

from gpuwise import knowledge
from gpuwise.estimators.cost import cloud_fees
from tests.clirun import ROOT, text_of
from tests.clirun import json_of as _json

HERE = ROOT / "tests/data/review56"
PLAN = HERE / "plan-owned-4090-past-warranty.yaml"
PRO6000 = HERE / "proposals/a-rent-pro6000-qwen35-spec.yaml"
AWS_3YR = HERE / "proposals/c-commit-aws-p5-3yr-egress.yaml"


@pytest.mark.parametrize(("provider", "kind", "rate"), [
    ("nebius", "object", 0.0147),     # docs.nebius.com/object-storage/resources/pricing: $0.0147 per GiB
    ("lambda", "premium-ssd", 0.20),  # docs.lambda.ai/public-cloud/billing: $0.20 per GiB-month
    ("coreweave", "object", 0.06),    # docs.coreweave.com pricing-storage: Hot $0.06, metered in GiB
    ("azure", "premium-ssd", 0.1320),  # P30 1 TiB $135.17 a month / 1,024 GiB
])
def test_a_storage_rate_per_gib_is_charged_per_gb_after_its_conversion(provider, kind, rate):
    fees = cloud_fees(knowledge.load().clouds, provider, egress_tb=0, cross_region_tb=0, storage_kind=kind,
                      storage_tb=10, months=1)
    assert fees.inputs["storage_usd_per_month"] == pytest.approx(10_000 * rate / 1.073741824)
    assert fees.inputs["storage_priced_as"] == kind


def test_a_rate_written_per_gb_is_charged_as_written():
    fees = cloud_fees(knowledge.load().clouds, "aws", egress_tb=0, cross_region_tb=0, storage_kind="object",
                      storage_tb=10, months=1)  # S3 Standard $0.023 per GB
    assert fees.inputs["storage_usd_per_month"] == pytest.approx(10_000 * 0.023)


def test_a_plan_whose_whole_units_are_rounded_to_add_up_says_so(tmp_path):
    out = text_of(tmp_path, "plan", str(PLAN))
    assert "8-9 $0 $0 $408 $0 — $408" in out and "10-11 $0 $0 $407 $0 — $407" in out
    assert "Rounded so that rows and totals add up: equal months may differ by one unit." in out
    zh = text_of(tmp_path, "plan", str(PLAN), "--lang", "zh")
    assert "成本相同的月份可能相差一个单位。" in zh


def test_a_service_past_its_p95_targets_says_what_it_serves_within_them(tmp_path):
    d = _json(tmp_path, "audit", str(PRO6000))
    rate = d["proposed"]["serving"]["rate"]
    best = rate["at_max"]
    assert rate["meets_requests_per_s"] is False and rate["requests_per_s"] == 4
    # by hand from the rate answer's best point: 2.92 requests/s x 700 output tokens, 1 / its mean TPOT
    tps, seq = best["requests_per_s"] * 700, 1 / best["mean_tpot_s"]
    assert f"{tps:,.0f}" == "2,044" and f"{seq:,.0f}" == "36"
    step = next(s for s in d["steps"] if s["step"] == "compute")
    assert step["rule"] == "CMP-SERVES-PAST-RATE"
    assert step["values"]["rate_max_tps"] == pytest.approx(tps)
    assert step["values"]["rate_max_decode_tps"] == pytest.approx(seq)
    assert step["conclusion"].endswith(
        ": 36 tokens/s per sequence, 2,044 tokens/s in total at 2.92 requests/s, the most it serves within its "
        "limits; the 4.00 requests/s asked would give 2,800 tokens/s past them")
    brief = text_of(tmp_path, "audit", str(PRO6000))
    assert "Output tokens/s 2,044 2,800" in brief  # the table: the proposal's within the targets, the alternative's
    assert "Compute 36 tokens/s per sequence, 2,044 tokens/s in total at 2.92 requests/s" in brief
    assert "Compute 23 tokens/s per sequence, 2,800 tokens/s in total" not in brief
    zh = text_of(tmp_path, "audit", str(PRO6000), "--lang", "zh")
    assert "在其限值内最多承载每秒 2.92 个请求，此时单序列 36 词元/秒，合计 2,044" in zh


def test_a_rental_with_fees_is_compared_with_a_purchase_without_them(tmp_path):
    d = _json(tmp_path, "audit", str(AWS_3YR))
    lines = d["proposed"]["ledger"]["lines"]
    fees = sum(ln["amount"] for ln in lines if ln["kind"] == "fee")
    assert fees == pytest.approx(36 * 3441.50 + 200_000 * 0.023 * 36, abs=1)  # review56's $289,494 by hand
    f = next(x for x in d["findings"] if x["rule"].startswith("TCO-RENT-DEARER-PROPOSED"))
    assert f["rule"] == "TCO-RENT-DEARER-PROPOSED-FEES"
    assert f["values"]["rent_fees_usd"] == pytest.approx(fees)
    assert f["values"]["rent_gpus_usd"] == pytest.approx(2 * 23.77728 * 26_280, rel=1e-3)  # 3-year rate x the term
    buy = f["values"]["buy_usd"]
    out = text_of(tmp_path, "audit", str(AWS_3YR))
    assert ("as proposed costs $1,249,734 for the GPUs, before its $289,494 of transfer and storage fees, left out as "
            f"the purchase prices no storage or transit; buying the same and reselling it at the end comes to "
            f"${buy:,.0f} net") in out


def test_owned_cards_past_their_warranty_are_named_in_the_plan(tmp_path):
    d = _json(tmp_path, "plan", str(PLAN))
    f = next(x for x in d["findings"] if x["rule"] == "PLAN-OWNED-PAST-WARRANTY")
    assert f["severity"] == "warning" and f["subject"] == "rtx-4090"
    assert ("8 x NVIDIA GeForce RTX 4090 24GB owned, bought 2022-11: out of the maker's 3-year warranty since "
            "2025-11") in f["message"]  # 2022-11 + 3 x 12 months (wording65: worded for any count)
    assert knowledge.load().tco.values["warranty_years_consumer"].value == 3
    zh = text_of(tmp_path, "plan", str(PLAN), "--lang", "zh")
    assert "自2025-11起已过厂商3年的保修期" in "".join(zh.split())


def test_a_warranty_is_dated_from_the_month_bought():
    """_warranties by hand on a stand-in plan: bought 2026-06, 3 years, the plan's first month 2026-12: it ends
    2029-06, 30 months on, plan month 31 of 36; a data-centre card (no sourced term) is given -1."""
    import datetime as dt
    from types import SimpleNamespace as NS

    from gpuwise.plan.judge import _warranties

    kb = knowledge.load()
    pl = NS(kb=kb, inp=NS(H=36), pf=NS(owned=[NS(gpu="RTX 4090", count=8, bought="2026-06"),
                                              NS(gpu="H100 SXM", count=8, bought="2023-01"),
                                              NS(gpu="RTX 4090", count=2, bought=None)]))
    got = _warranties(pl, dt.date(2026, 12, 7))
    assert len(got) == 2
    keys = ("warranty_years", "warranty_ends", "months_past", "ends_in_month", "count")
    assert {k: got[0][k] for k in keys} == {"warranty_years": 3.0, "warranty_ends": "2029-06", "months_past": -30,
                                            "ends_in_month": 31, "count": 8}
    assert got[1]["warranty_years"] == -1 and got[1]["warranty_ends"] == "" and got[1]["ends_in_month"] == -1
