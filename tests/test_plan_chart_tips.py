"""A plan's HTML charts name each bar segment (its tooltip) with the figure the cash-flow table
prints for that month. They printed the axis's shortened form with six significant digits:
'Month 1: rent $1.01754k' beside the table's $1,018, and 'fleet use 26.2461%' beside its 26%."""

from __future__ import annotations

import re
from pathlib import Path

from gpuwise.render import plan_view

from .conftest import answer_of

EXAMPLE = Path(__file__).parent.parent / "examples" / "plan-team-4090.yaml"


def _table(text: str) -> dict[int, list[str]]:
    """The text report's cash flow rows by month: capex, rent, hosting + power, fees, resale, total, fleet use."""
    block = text.split("=== Cash flow by month ===")[1].split("===")[0]
    rows = {}
    for m in re.finditer(r"^\s+(\d+)(?:-(\d+))?\s+(\$.*)$", block, re.M):  # months alike are one row: '1-2'
        for month in range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1):
            rows[month] = m.group(3).split()
    return rows


def test_each_segment_tip_is_the_tables_figure():
    r = answer_of("plan", EXAMPLE)
    rows = _table(plan_view.render(r, "text"))
    html = plan_view.render(r, "html")
    tips = set(re.findall(r"<title>Month (\d+): ([^<]*)</title>", html))
    assert rows and len(rows) == len(r.months)
    for month, cells in rows.items():
        capex, rent, opex, _fees, _resale, _total, use = cells
        if rent != "$0":
            assert (str(month), f"rent {rent}") in tips
        if opex != "$0":
            assert (str(month), f"hosting + power {opex}") in tips
        if capex != "$0":
            assert (str(month), f"capex {capex}") in tips
        assert (str(month), f"fleet use {use}") in tips
    # the example's month 1 by hand: the table's $1,453 rent and 76% fleet use, never $1.45...k ($1,018 and 100%
    # before vLLM's pool was short of its start-up profile's sampler pass, serving.yaml vllm profile_sampler: the
    # RTX 4090s hold fewer sequences, so more of the load is rented)
    assert rows[1][1] == "$1,453" and rows[1][6] == "76%"
    assert ("1", "rent $1,453") in tips and ("1", "fleet use 76%") in tips
    assert not [t for _, t in tips if re.search(r"\.\d{3,}", t)]
