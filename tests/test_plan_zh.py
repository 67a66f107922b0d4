"""A plan's full report in Chinese and yuan is Chinese and yuan throughout (issues 24 item 5 and 25
item 4), by the same checks as the other reports (tests/test_report_zh_all.py): no "$" outside quoted
sources, no run of English words outside quotes, code and names, full-width punctuation beside
Chinese. Hosted-API providers' names (knowledge/apis.yaml) stay as written, like other names."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

import gpuwise
from gpuwise.knowledge import load
from gpuwise.render import plan_view
from tests.test_report_zh_all import check

ROOT = Path(__file__).resolve().parent.parent
PLANS = [ROOT / "examples" / "plan-team-4090.yaml", *sorted((ROOT / "tests" / "data" / "plans").glob("*.yaml"))]


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "1000")


@cache
def result(path: Path):
    return gpuwise.plan(str(path), currency="CNY")


def test_the_plans_checked_include_a_china_team():
    assert any(p.name == "china-team-cny.yaml" for p in PLANS)


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
@pytest.mark.parametrize("path", PLANS, ids=lambda p: p.stem)
def test_a_full_chinese_yuan_plan_is_chinese_and_yuan_throughout(path: Path, fmt: str):
    kb = load()
    providers = tuple(p.name for p in kb.apis.providers) if kb.apis else ()
    out = plan_view.render(result(path), fmt, lang="zh", detail="full")
    assert check(out, providers) == []


def test_an_api_price_sold_in_dollars_is_shown_in_yuan():
    """Groq sells Llama 3.3 70B at $0.59 / $0.79 per million tokens (knowledge/apis.yaml): a CNY plan
    shows it at the plan's rate, e.g. 0.59 x 7.1 = 4.19 yuan."""
    r = result(PLANS[0])
    out = plan_view.render(r, "text", lang="zh", detail="full")
    api = next(a for a in r.api if a.price_currency == "USD")
    shown = f"¥{api.input_per_million * r.usd_cny:.3g} / ¥{api.output_per_million * r.usd_cny:.3g}"
    assert shown in out
