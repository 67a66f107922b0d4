"""A third round of hostile inputs (issue 26 item 5's kinds), tried against ``prices``, ``prices
import``, overlays, house rules, seller nvidia-smi files, output paths and the environment after
tests/test_hostile_inputs.py and tests/test_hostile_more.py were closed. About ninety cases were
tried; these are the ones that broke the promise (one line naming the file and field, exit 2,
nothing replaced, never an internal error), each fixed."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from tests.clirun import gpuwise
from tests.test_hostile_more import one_line

ROOT = Path(__file__).parent.parent
EX = str(ROOT / "examples" / "inference-8b-int4.yaml")
RTX = ("gpus:\n  - id: rtx-4090\n    units: {sold_as: workstation, sizes: [1], max_per_node: 4, "
       "reason: 'bought one by one', source: mine}\n    prices:\n"
       "      - {amount: 1500, condition: new, unit: card, kind: street, as_of: %s, source: mine}\n")


def test_a_price_an_overlay_dates_after_today_is_refused(tmp_path: Path) -> None:
    """An overlay price dated 2999-11-01 was listed and used, and never called stale (its age is
    negative); ``prices import`` already skipped such rows. The date is refused by its place."""
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "prices.yaml").write_text(RTX % "2999-11-01")
    one_line(gpuwise("prices", "--knowledge", "kb", cwd=tmp_path),
             "kb/prices.yaml", "gpus[0].prices[0].as_of", "2999-11-01 is after today")  # the overlay's own entry
    (tmp_path / "kb2").mkdir()
    (tmp_path / "kb2" / "prices.yaml").write_text(RTX % (dt.date.today() - dt.timedelta(days=1)).isoformat())
    assert gpuwise("prices", "--knowledge", "kb2", "--gpu", "rtx-4090", cwd=tmp_path).returncode == 0


def test_an_exchange_rate_dated_after_today_or_of_zero_is_refused(tmp_path: Path) -> None:
    """``usd_cny`` of 0 CNY per USD was accepted (every yuan amount would be divided by it), and one
    dated 2999 would never be old (rule DATA-STALE-FX)."""
    (tmp_path / "kb").mkdir()
    rate = "values:\n  usd_cny: {value: %s, unit: CNY per USD, as_of: %s, source: mine}\n"
    (tmp_path / "kb" / "tco.yaml").write_text(rate % (0, "2026-11-01"))
    one_line(gpuwise("prices", "--knowledge", "kb", "--currency", "CNY", cwd=tmp_path),
             "kb/tco.yaml", "usd_cny", "more than 0")
    (tmp_path / "kb2").mkdir()
    (tmp_path / "kb2" / "tco.yaml").write_text(rate % (7.1, "2999-11-01"))
    one_line(gpuwise("recommend", EX, "--knowledge", "kb2", "--currency", "CNY", cwd=tmp_path),
             "kb2/tco.yaml", "values.usd_cny.as_of", "after today")


def test_a_policy_number_with_an_exponent_is_that_number(tmp_path: Path) -> None:
    """YAML 1.1 reads ``1e3`` (no dot) as text: an overlay's ``price_max_age_days: 1e3`` was refused
    as 'a text policy value must be a date'. It is 1,000 days; ``1e999`` is out of range by name."""
    from gpuwise.knowledge import load

    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "policy.yaml").write_text("price_max_age_days:\n  value: 1e3\n  source: mine\n")
    assert load(tmp_path / "kb").policy["price_max_age_days"].value == 1000.0
    assert gpuwise("recommend", EX, "--knowledge", "kb", cwd=tmp_path).returncode == 0
    (tmp_path / "kb2").mkdir()  # another directory: the knowledge base is cached per directory
    (tmp_path / "kb2" / "policy.yaml").write_text("price_max_age_days:\n  value: 1e999\n  source: mine\n")
    one_line(gpuwise("recommend", EX, "--knowledge", "kb2", cwd=tmp_path),
             "kb2/policy.yaml", "price_max_age_days", "out of range")


def test_a_price_too_small_to_write_is_a_skipped_row(tmp_path: Path) -> None:
    """A CSV price of 1e-320 per hour was rounded to 0 when the overlay was written, and the offer
    schema's 'greater than 0' made it an internal error (exit 3). It is now a skipped row naming the
    overlay's floor of 0.001 an hour (round 7: 1e-300 an hour made every rental free); the other rows
    are imported."""
    (tmp_path / "p.csv").write_text("gpu,gpus,price,spot_price\nH100 80GB SXM,8,1e-320,\n"
                                    "H100 80GB SXM,4,10,1e-9\nH100 80GB SXM,2,10,\n")
    r = gpuwise("prices", "import", "p.csv", "--provider", "mycloud", "-o", "ov", "--format", "json",
                cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert [o["gpus"] for o in data["imported"]] == [2]
    assert [s["line"] for s in data["skipped"]] == [2, 3]
    assert all("an hour is below 0.001: no GPU rents for so little" in s["reason"] for s in data["skipped"])
    assert (tmp_path / "ov" / "clouds.yaml").is_file()
