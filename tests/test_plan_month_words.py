"""Plan lines that count months say one month in the singular, through the catalogs' ``{x:months}`` format
(users31): 'resold after 1 months' and 'the 1-year commitment's 1 months after the plan' were written before."""

from __future__ import annotations

import pytest

from gpuwise.messages import template
from gpuwise.render.fmt import Fmt

RESOLD = {"count": 2, "gpu": "RTX 4090", "gpu_id": "rtx-4090"}
AFTER = {"workload": "chat", "count": 1, "gpu": "H100", "gpu_id": "h100", "term": "1-year", "provider": "P"}


@pytest.mark.parametrize(("lang", "months", "resold", "after"), [
    ("en", 1, "2 RTX 4090 resold after 1 month", "chat on 1 H100: the 1-year commitment's 1 month after the plan (P)"),
    ("en", 6, "2 RTX 4090 resold after 6 months",
     "chat on 1 H100: the 1-year commitment's 6 months after the plan (P)"),
    ("zh", 1, "2 块 RTX 4090，1 个月后转售", "chat：1 块 H100：1-year 承诺在规划期之后的 1 个月（P）"),
])
def test_months_of_a_plan_line(lang: str, months: int, resold: str, after: str) -> None:
    f = Fmt(lang)
    assert f.sentence(template("item.plan.resold"), RESOLD | {"months": months}) == resold
    assert f.sentence(template("item.plan.committed_after"), AFTER | {"months": months}) == after
