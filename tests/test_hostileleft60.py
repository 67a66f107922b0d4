"""What hostile round 48 saw and left (hostileleft60), each fix with the test that failed before it:

* ``growth_per_month: 10`` over 6 months (2 requests/s to 2 x 11^5 = 3.2e5, within requests_per_s's bound of 1e7)
  was planned as 1,000% growth a month, nothing said: the field's bound is now 1 (a load doubling every month), and
  10 is refused offering 0.1, as a share written as a whole percentage is (inputs/units.py ``percent_meant``);
* a bound refusal was pydantic's English ('Input should be less than or equal to 60 (got 600)') in English and
  the catalog's words in Chinese ('必须不大于 60'): the house's words in both ('must be at most 60 (got 600)'),
  for an input file, a knowledge overlay and a rule file (inputs/error_words.py ``bound_words``);
* ``gpuwise ask`` typed '50 years' at the plan's horizon offered 600 alone, past horizon_months's 60: the bound
  follows, as a file's field says it (inputs/strict.py ``field_bounds``);
* an amount in EUR ('€20,000', '20000 EUR', a price CSV's '€2.50') was 'not an amount' / 'not a number': EUR is
  named as a currency gpuwise does not price in, and USD and CNY as the ones it takes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from .clirun import gpuwise as cli
from .test_hostile48 import IMPORT, SERVE8, SHARE, _chat_plan, _said

# ---------------------------------------------------------------- growth_per_month as a whole percentage


@pytest.mark.parametrize(("growth", "meant"), [(10, "0.1"), (5, "0.05"), (2, "0.02")])
def test_growth_as_a_whole_percentage_within_the_load_bound_is_refused(tmp_path, growth, meant):
    """Before: 6 months at 10 took 2 requests/s to 2 x 11^5 = 322,102 (under 1e7) and was planned, 1,000% a month."""
    err = _said(tmp_path, "plan.yaml", _chat_plan(6, growth_per_month=growth), "plan", "plan.yaml")
    assert err.rstrip().endswith(
        f"plan.yaml: workloads[0].cadence.growth_per_month: must be at most 1 (got {growth}) (growth_per_month "
        + SHARE.format(meant=meant, given=growth) + ")"), err


def test_growth_of_a_doubling_a_month_is_planned(tmp_path):
    """1 (100% a month) is the bound itself: planned, the peak month's load 2 x 2^5 = 64 requests/s."""
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(_chat_plan(6, growth_per_month=1)), encoding="utf-8")
    r = cli("plan", "plan.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and not r.stderr.strip(), r.stderr


def test_growth_bound_in_chinese(tmp_path):
    err = _said(tmp_path, "plan.yaml", _chat_plan(6, growth_per_month=10), "plan", "plan.yaml", "--lang", "zh")
    assert "growth_per_month: 必须不大于 1（给出的是 10）" in err and "请写作 0.1" in err, err


# ---------------------------------------------------------------- bounds in the house's words
@pytest.mark.parametrize(("doc", "name", "en"), [
    ({**_chat_plan(6), "horizon_months": 600}, "plan.yaml", "horizon_months: must be at most 60 (got 600)"),
    ({"workload": {**SERVE8, "requests_per_s": 1e9}}, "r.yaml",
     "workload.requests_per_s: must be at most 10000000 (got 1000000000.0)"),
    ({"workload": {"task": "inference", "params_b": 1e-7}}, "r.yaml",
     "workload.params_b: must be at least 0.000001 (got 1e-07)"),
    ({"workload": {**SERVE8, "context_len": 0}}, "r.yaml", "workload.context_len: must be at least 1 (got 0)"),
])
def test_a_bound_in_the_house_words_in_english(tmp_path, doc, name, en):
    """Before: 'Input should be less than or equal to 60 (got 600)', 'less than or equal to 10000000',
    'greater than or equal to 0.000001': pydantic's, beside the house's 'must be at most' in Chinese."""
    command = "plan" if name == "plan.yaml" else "recommend"
    err = _said(tmp_path, name, doc, command, name)
    assert err.rstrip().endswith(f"{name}: {en}"), err
    assert "Input should be" not in err


def test_a_bound_in_chinese_keeps_the_bound_as_written(tmp_path):
    """Before: '必须不大于 10000000.0' and '必须不小于 1e-06' (the float's repr), where English said 10000000."""
    err = _said(tmp_path, "r.yaml", {"workload": {**SERVE8, "requests_per_s": 1e9}}, "recommend", "r.yaml",
                "--lang", "zh")
    assert "workload.requests_per_s: 必须不大于 10000000（给出的是 1000000000.0）" in err, err


def test_a_rule_file_bound_in_the_house_words(tmp_path):
    """A house rule file's bound: the rule book's loader said pydantic's words in English too."""
    from gpuwise.decide.rulebook import _complaint
    from gpuwise.errors import _say

    said = _complaint({"type": "greater_than_equal", "loc": ("x",), "msg": "Input should be greater than or equal "
                       "to 0", "input": -1, "ctx": {"ge": 0}})
    assert _say(said["message"], said["values"], "en") == "must be at least 0 (got -1)"
    assert "msgid" not in said


# ---------------------------------------------------------------- ask: a unit's number past the field's bound
def test_plan_ask_years_past_the_horizon_bound(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: "'50 years': horizon_months is a number of months: write 600", and 600 refused at once."""
    from .test_ask_units59 import _said as said_lines
    from .test_plan_ask import PLAN, text
    from .test_plan_ask import drive as drive_plan

    rc = drive_plan([PLAN, text("50 years"), text("5 years")], tmp_path / "p.yaml")
    said = said_lines(capsys)
    assert rc == 130
    assert said == ["✗ '50 years': horizon_months is a number of months: write 600; 600 is past its bound: "
                    "horizon_months must be at most 60",
                    "✗ '5 years': horizon_months is a number of months: write 60"]


def test_plan_ask_growth_bound_said_in_percent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The growth question is asked in percent: 150% is past the field's 1, said as 100 (was read as 1.5 a month);
    -95% past its -0.9, said as -90 (was 'must be greater than or equal to -0.9')."""
    from .test_ask_units59 import _said as said_lines
    from .test_plan_ask import NO, PLAN, text
    from .test_plan_ask import drive as drive_plan

    keys = [PLAN, text("6"), NO, "\r", text("llama-3.1-8b"), "\r", "\r", "\r", text("0.5"), "\r", "\r", "\r", "\r",
            text("150"), text("-95"), text("10")]
    rc = drive_plan(keys, tmp_path / "p.yaml")
    said = said_lines(capsys)
    assert rc == 130
    assert said == ["✗ must be at most 100", "✗ must be at least -90"], said  # -0.9 x 100, not -90.00000000000001


# ---------------------------------------------------------------- an amount in a currency gpuwise does not price in
@pytest.mark.parametrize(("given", "code"), [("€20,000", "EUR"), ("20000 EUR", "EUR"), ("20k euros", "EUR"),
                                             ("£15,000", "GBP")])
def test_a_file_amount_in_another_currency_names_it(tmp_path, given, code):
    """Before: "'€20,000' is not an amount (write e.g. 200000, "$200,000" or "1500000 CNY")"."""
    err = _said(tmp_path, "r.yaml", {"workload": SERVE8, "constraints": {"budget_usd": given}}, "recommend", "r.yaml")
    assert err.rstrip().endswith(f"r.yaml: constraints.budget_usd: '{given}' is an amount in {code}, a currency "
                                 "gpuwise does not price in: write it in USD or CNY"), err


def test_a_file_amount_in_another_currency_in_chinese(tmp_path):
    err = _said(tmp_path, "r.yaml", {"workload": SERVE8, "constraints": {"budget_usd": "€20,000"}}, "recommend",
                "r.yaml", "--lang", "zh")
    assert "'€20,000' 是以 EUR 计的金额，gpuwise 不以该货币计价：请以 USD 或 CNY 填写" in err, err


@pytest.mark.parametrize("cell", ["€2.50", "2.50 EUR/hr"])
def test_a_price_csv_cell_in_another_currency_names_it(tmp_path, cell):
    """Before: "price '€2.50' is not a number"."""
    (tmp_path / "c.csv").write_text(f"gpu,gpus,price\nH100,1,{cell}\n", encoding="utf-8")
    r = cli(*IMPORT, cwd=tmp_path)
    assert r.returncode == 2 and not (tmp_path / "ov").exists(), r.stderr
    assert (f"line 2: H100: price '{cell}' is in EUR, a currency gpuwise does not price in: write the price in USD "
            "or CNY\n") in r.stdout + r.stderr, r.stdout + r.stderr


def test_ask_budget_in_another_currency_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: "'€20,000' is not a number (examples: 4096, 2e9, 2B, 50k)"."""
    from .test_ask_units59 import _said as said_lines
    from .test_questionnaire import ENTER, drive, saved, text

    rc, path = drive(tmp_path, [ENTER, ENTER, ENTER, ENTER, ENTER, text("€20,000"), text("20000"), "\x03"])
    said = said_lines(capsys)
    assert rc == 130
    assert said == ["✗ '€20,000' is an amount in EUR, a currency gpuwise does not price in: write it in USD or CNY"]
    assert saved(path)["constraints"]["budget_usd"] == 20000


def test_ask_requirements_question_reads_its_fields_bound() -> None:
    """The requirements questions read their field's bound from Requirements: '60 years' at project_months (at most
    600) offers 720 and says the bound; '50 years' offers 600 alone (at the bound)."""
    from types import SimpleNamespace

    from gpuwise.ask.answers import _Invalid
    from gpuwise.ask.terminal import _number

    from .test_questionnaire import QN

    q = QN.by_key("constraints.project_months")
    s = SimpleNamespace(currency="USD", lang="en")
    with pytest.raises(_Invalid) as said:
        _number(s, q, "60 years")  # type: ignore[arg-type]
    assert said.value.raw == ("'60 years': project_months is a number of months: write 720; 720 is past its bound: "
                              "project_months must be at most 600")
    with pytest.raises(_Invalid) as said:
        _number(s, q, "50 years")  # type: ignore[arg-type]
    assert said.value.raw == "'50 years': project_months is a number of months: write 600"
