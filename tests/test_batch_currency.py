"""A batch of proposals written in different currencies: each section keeps its own file's currency
(the first file no longer sets it for all), and the summary says so with each rate; --currency
converts every section to the one asked for."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from gpuwise.decide.audit import audit
from gpuwise.render import report

from .clirun import gpuwise

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest: audits of one question share the search

ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = Path(tmp_path_factory.mktemp("cur"))
    doc = yaml.safe_load((ROOT / "examples" / "proposal-good-lora-8xh100.yaml").read_text())
    # priced above the cheapest offers, so each proposal has an alternative that saves (fees now run
    # for the job's ~6 billed hours only, not 6 months, so the example's own price saves nothing)
    doc = {**doc, "acquisition": {**doc["acquisition"], "hourly_usd": 12.0}}
    (d / "b-usd.yaml").write_text(yaml.safe_dump(doc))
    cny = {**doc, "title": "In yuan", "constraints": {**doc["constraints"], "currency": "CNY"},
           "acquisition": {**doc["acquisition"], "hourly_usd": 86.0}}
    (d / "a-cny.yaml").write_text(yaml.safe_dump(cny))  # first in name order
    return d / "a-cny.yaml", d / "b-usd.yaml"


def _money(amount: float) -> str:
    return f"{round(amount):,}"


def _saved(r, rate: float = 1.0) -> str:
    """The saving as the two totals are shown, each rounded to whole units first (review58: the difference a reader
    works out from the totals shown)."""
    return _money(round(r.proposed.total_cost_usd * rate) - round(r.alternative.total_cost_usd * rate))


def test_each_section_in_its_own_files_currency(files):
    cny, usd = files
    r_cny, r_usd = audit(str(cny)), audit(str(usd))
    rate = r_cny.currency.usd_cny
    run = gpuwise("audit", str(cny), str(usd))
    out = run.stdout
    assert run.returncode in (0, 1), run.stderr
    # the savings of each proposal (USD in the results) as its own file writes amounts
    assert f"saves CN¥{_saved(r_cny, rate)}" in out
    assert f"saves ${_saved(r_usd)}" in out
    assert "Each proposal's amounts are in the currency its file writes them in" in out
    assert "Amounts are in US dollars." in out and "Amounts are in Chinese yuan at" in out
    # the USD file's section shows no yuan
    section = out[out.rindex("The proposal: 8 × NVIDIA H100"):]
    assert "¥" not in section.split("=== Assumptions")[0] and "$" in section


def test_currency_flag_converts_every_section(files):
    cny, usd = files
    run = gpuwise("audit", str(cny), str(usd), "--currency", "CNY")
    out = run.stdout
    assert run.returncode in (0, 1), run.stderr
    r_usd = audit(str(usd))
    rate = r_usd.currency.usd_cny if r_usd.currency else audit(str(cny)).currency.usd_cny
    assert f"saves CN¥{_saved(r_usd, rate)}" in out
    assert not re.search(r"(?<![A-Z])\$\d", out)
    assert "Each proposal's amounts" not in out


def test_summary_currency_note_unchanged_for_one_currency(files):
    _cny, usd = files
    r = audit(str(usd))
    text = report.render_audit_summary([(str(usd), r, ""), (str(usd), r, "")], "text")
    assert "Amounts are in US dollars." in text and "Each proposal's amounts" not in text
