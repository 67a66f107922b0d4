"""What review30 found reading a team's year planned, a MoE service recommended and 16 x H100 audited for a 70B
fine-tune, as a team lead and an approver would."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from .test_review29 import H200, _audit


@pytest.mark.parametrize(("lang", "label", "sentence"), [
    ("en", "renting passes buying's cash out after 17.0 months",
     "The lines cross after 17.0 months of use: renting for longer than that costs more than buying's cash out."),
    ("zh", "租用在 17.0 个月 后超过购买的现金支出", "两条线在使用 17.0 个月 后相交"),
])
def test_the_cost_charts_crossing_is_a_span_of_use(tmp_path: Path, lang: str, label: str, sentence: str) -> None:
    """The 8 x H200 bought for 36 months (tests/test_review29.py): the chart's mark read 'break-even: month 17.0'
    ('第 17.0 个月' in Chinese), a month numbered with a decimal, and named break-even where the table's and
    TCO-BREAK-EVEN's break-even is month 6. The lines cross after 292,000 / (28.72 x 730 - 3,756) = 16.97
    months of use (tests/test_review29.py), against buying's cash out: the mark says that."""
    out = html.unescape(_audit(tmp_path, H200, "--format", "html", "--lang", lang))
    assert label in out and sentence in out
    assert "month 17.0" not in out and "第 17.0 个月" not in out


def test_the_consumer_host_share_says_why_its_2019_figure_stands(kb) -> None:
    """The workstation host share ($800 a card) is dated 2019, the newest self-built build with dated part
    prices. The one dated 2026 figure is a 4-card box bought built, tinygrad's tinybox red v2: $12,000 with
    4 x Radeon RX 9070 XT at AMD's $599 launch price (tinygrad/tinyxxx index.html @ b6c5a89, 2026-04-10),
    (12,000 - 4 x 599) / 4 = $2,401 a card for the host, the builder's work and its margin: a bound from
    above, which the source states with its arithmetic, and where to set the figure for a box bought built."""
    v = kb.tco.values["server_share_usd_per_gpu_consumer"]
    source = " ".join(v.source.split())
    assert v.value == 800 and str(v.as_of) == "2019-01-01"
    assert "$12,000 (tinygrad/tinyxxx index.html @ b6c5a89, 2026-04-10)" in source
    assert f"leaves ${12000 - 4 * 599:,}, ${(12000 - 4 * 599) / 4:,.0f} per card" in source
    assert v.value < (12000 - 4 * 599) / 4
    assert "tco.yaml overlay (--knowledge DIR)" in source
