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
"""
from __future__ import annotations

import pytest

from gpuwise import knowledge
from gpuwise.estimators.cost import cloud_fees
from tests.clirun import ROOT, text_of

HERE = ROOT / "tests/data/review56"
PLAN = HERE / "plan-owned-4090-past-warranty.yaml"


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
    assert ("Amounts are rounded to whole units so that every month and every total adds up: a month may read one "
            "unit more or less than its own amount, so months of the same cost can differ by one.") in out
    zh = text_of(tmp_path, "plan", str(PLAN), "--lang", "zh")
    assert "因此成本相同的月份可能相差一。" in zh
