"""The warranty a plan's owned cards are judged against, by segment and form factor (branch product61).

Only consumer cards had a sourced term (knowledge/tco.yaml warranty_years_consumer), so an owned RTX 6000 Ada bought
in 2021 was planned for a year with no word of its warranty (PLAN-OWNED-PAST-WARRANTY judged nothing). PNY, NVIDIA's
board partner for its professional cards, gives 'Professional Graphic Cards : 3 years' (pny.com/en-eu/legal/
warranty-emea): tco.yaml warranty_years_workstation_pcie 3, read before the segment's own term, so the workstation
segment's PCIe cards are judged and GB10 (DGX Spark, a system of that segment) is not. The data-centre segment stays
unjudged: a DGX's term is its NVIDIA support contract's (the same PNY page), and an HGX server's is its maker's,
which on Supermicro's terms excludes third parties' components.
"""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace as NS

from gpuwise import knowledge
from gpuwise.plan.judge import _warranties

KB = knowledge.load()


def _owned(gpu: str, bought: str) -> dict:
    pl = NS(kb=KB, inp=NS(H=12), pf=NS(owned=[NS(gpu=gpu, count=4, bought=bought)]))
    (got,) = _warranties(pl, dt.date(2026, 12, 7))
    return got


def test_a_workstation_card_carries_its_makers_three_years():
    v = KB.tco.values["warranty_years_workstation_pcie"]
    assert v.value == 3 and "Professional Graphic Cards : 3 years" in " ".join(v.source.split())
    # bought 2021-05, 3 x 12 months: ended 2024-05, 31 months before the plan's first month (2026-12)
    got = _owned("rtx-6000-ada", "2021-05")
    assert (got["warranty_years"], got["warranty_ends"], got["months_past"]) == (3.0, "2024-05", 31)
    # bought 2024-06: ends 2027-06, month 7 of the 12-month plan
    got = _owned("rtx-pro-6000-blackwell", "2024-06")
    assert (got["warranty_ends"], got["ends_in_month"]) == ("2027-06", 7)


def test_a_system_or_a_data_centre_part_is_not_judged():
    assert KB.gpus["gb10"].segment == "workstation" and KB.gpus["gb10"].form_factor != "pcie"
    for gpu in ("gb10", "h100", "a100-80gb-sxm"):
        assert _owned(gpu, "2021-01")["warranty_years"] == -1, gpu
    assert "warranty_years_datacenter" not in KB.tco.values


def test_a_consumer_card_keeps_the_consumer_term():
    got = _owned("rtx-4090", "2022-11")
    assert (got["warranty_years"], got["warranty_ends"]) == (3.0, "2025-11")
