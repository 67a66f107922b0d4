"""Hostile round 48's fixed failures (benchmarks/hostile_round48.py), each failing before its fix:

* a file's currency written as people say it (``constraints.currency: RMB``, ``¥``, ``dollars``, ``人民币``; a price
  CSV's ``currency`` cell ``RMB`` or ``yuan``) was refused with the two choices alone: the one meant is offered
  (inputs/notation.py ``CURRENCY_NAMES``, the table ``--currency RMB`` has offered CNY by since round 47);
* a share given as a whole percentage (``prefix_cache_hit_rate: 80``, ``memory_fraction: 90``,
  ``speculative.acceptance_rate: 70``, a plan's ``growth_per_month: 20``) was pydantic's bound alone ('less than or
  equal to 0.99'): the fraction is offered where it is within the bound (inputs/units.py ``percent_meant``), and a
  ``growth_per_month: 10`` that takes a service past its load's bound offers 0.1 after saying so;
  ``acceptance_rate: '70%'`` was 'unable to parse string as a number': 0.7 offered, as every share field offers it;
* a number written with its unit that comes out past the field's bound (``horizon_months: 50 years``,
  ``hours_per_day: 30h``, ``prefix_cache_hit_rate: 100%``) was offered alone ('write 600'), to be refused again:
  the bound is said after it (inputs/units.py ``_offer``, the field's bounds read in inputs/strict.py);
* a price CSV with a monthly price -- a cell '$1800/month' or a column ``price_per_month`` / ``monthly_usd`` and no
  ``price`` -- was 'not a number' or 'the header lacks price', nothing offered: the price an hour is offered over
  gpuwise's month of 730 hours (ledger.HOURS_PER_MONTH, 8,760 / 12);
* a plan's service with ``targets.requests_per_s`` and ``targets.concurrency`` both was planned on the rate, the
  concurrency dropped without a word: refused, one load asked for;
* ``gpuwise prices`` with filters that match nothing together (``--gpu B200 --provider autodl``) said 'No prices
  match.' alone: it says the filters as typed and, for each, what the others match without it (prices/table.py
  ``other_matches``): the providers that list a B200, the GPUs autodl prices, the currencies of the H100's prices;
* a number written as prose (``'~1000'``, ``'about 1k'``, a range ``'16-32'`` or ``'10 to 14'``, ``'2x8'`` GPUs,
  ``'15 cents'`` or ``'12¢/kWh'`` a kWh, a date where a number of days goes) was pydantic's 'unable to parse string
  as a number': the number meant is offered (inputs/prose.py).
"""

from __future__ import annotations

import pytest
import yaml

from .clirun import gpuwise as cli

SERVE8 = {"task": "inference", "model": "llama-3.1-8b", "precision": "bf16", "prompt_tokens": 1000,
          "output_tokens": 200}
IMPORT = ("prices", "import", "c.csv", "-o", "ov", "--provider", "acme", "--as-of", "2026-11-30")


def _one_line(r) -> str:
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr


def _said(tmp_path, name: str, doc, *argv: str) -> str:
    (tmp_path / name).write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    return _one_line(cli(*argv, cwd=tmp_path))


# ---------------------------------------------------------------- a currency as people say it
@pytest.mark.parametrize(("given", "meant"), [("RMB", "CNY"), ("rmb", "CNY"), ("¥", "CNY"), ("yuan", "CNY"),
                                              ("renminbi", "CNY"), ("dollars", "USD"), ("$", "USD")])
def test_file_currency_as_people_say_it(tmp_path, given, meant):
    err = _said(tmp_path, "r.yaml", {"workload": SERVE8, "constraints": {"currency": given}}, "recommend", "r.yaml")
    assert err.rstrip().endswith(
        f"r.yaml: constraints.currency: '{given}' is not one of 'USD' or 'CNY' (did you mean {meant}?)"), err


def test_file_currency_in_chinese(tmp_path):
    err = _said(tmp_path, "r.yaml", {"workload": SERVE8, "constraints": {"currency": "人民币"}},
                "recommend", "r.yaml", "--lang", "zh")
    assert err.rstrip().endswith("（你是不是指 CNY？）"), err


def test_file_currency_of_another_country_offers_none(tmp_path):
    err = _said(tmp_path, "r.yaml", {"workload": SERVE8, "constraints": {"currency": "EUR"}}, "recommend", "r.yaml")
    assert err.rstrip().endswith("'EUR' is not one of 'USD' or 'CNY'"), err


@pytest.mark.parametrize(("given", "tail"), [("RMB", ": write CNY"), ("yuan", ": write CNY"), ("US$", ": write USD"),
                                             ("EUR", "")])
def test_price_csv_currency_as_people_say_it(tmp_path, given, tail):
    (tmp_path / "c.csv").write_text(f"gpu,gpus,price,currency\nH100,8,15,{given}\n", encoding="utf-8")
    r = cli(*IMPORT, cwd=tmp_path)
    assert r.returncode == 2 and not (tmp_path / "ov").exists(), r.stderr
    assert f"line 2: H100: currency '{given}' is not USD or CNY{tail}\n" in r.stderr, r.stderr


# ---------------------------------------------------------------- a share given as a whole percentage
SHARE = "is a fraction, 0.1 for ten percent: write {meant} if {given} is a percentage"


@pytest.mark.parametrize(("field", "given", "meant", "bound"), [
    ("prefix_cache_hit_rate", 80, "0.8", "at most 0.99"),
    ("memory_fraction", 90, "0.9", "at most 1"),
    ("speculative.acceptance_rate", 70, "0.7", "less than 1"),
])
def test_share_given_as_a_whole_percentage(tmp_path, field, given, meant, bound):
    workload = {**SERVE8, "framework": "vllm"}
    head, _, leaf = field.rpartition(".")
    if head:
        workload[head] = {"method": "eagle3", leaf: given}
    else:
        workload[leaf] = given
    err = _said(tmp_path, "r.yaml", {"workload": workload}, "estimate", "r.yaml", "--gpu", "h100")
    assert err.rstrip().endswith(f"r.yaml: workload.{field}: must be {bound} (got {given}) "
                                 f"({leaf} {SHARE.format(meant=meant, given=given)})"), err


@pytest.mark.parametrize("given", [1.0, 100, 150])
def test_share_past_its_bound_as_a_percentage_too_offers_nothing(tmp_path, given):
    """1.0 is the whole, not one percent; 100 and 150 percent are past 0.99 as fractions too."""
    err = _said(tmp_path, "r.yaml", {"workload": {**SERVE8, "prefix_cache_hit_rate": given}},
                "estimate", "r.yaml", "--gpu", "h100")
    assert err.rstrip().endswith(f"must be at most 0.99 (got {given})"), err


def test_acceptance_rate_as_a_percentage_sign(tmp_path):
    err = _said(tmp_path, "r.yaml", {"workload": {**SERVE8, "speculative": {"method": "eagle3",
                                                                           "acceptance_rate": "70%"}}},
                "estimate", "r.yaml", "--gpu", "h100")
    assert err.rstrip().endswith("workload.speculative.acceptance_rate: '70%': acceptance_rate is a fraction, 0.1 "
                                 "for ten percent: write 0.7"), err


def _chat_plan(horizon: int, **cadence) -> dict:
    return {"horizon_months": horizon, "workloads": [
        {"name": "chat", "workload": SERVE8, "cadence": {"continuous": True, "hours_per_day": 24, **cadence},
         "targets": {"requests_per_s": 2}}]}


def test_plan_growth_past_its_field_bound_as_a_percentage(tmp_path):
    err = _said(tmp_path, "plan.yaml", _chat_plan(6, growth_per_month=20), "plan", "plan.yaml")
    assert err.rstrip().endswith("workloads[0].cadence.growth_per_month: must be at most 1 "
                                 "(got 20) (growth_per_month " + SHARE.format(meant="0.2", given=20) + ")"), err


def test_plan_growth_past_the_load_bound_as_a_percentage(tmp_path):
    """Round 48: 2 requests/s x 11^11 = 5.71e11 in month 12, past requests_per_s's 1e7, said with 0.1 offered after;
    since hostileleft60 the field's own bound (1, doubling a month) refuses 10 first, 0.1 offered."""
    err = _said(tmp_path, "plan.yaml", _chat_plan(12, growth_per_month=10), "plan", "plan.yaml")
    assert err.rstrip().endswith(
        "workloads[0].cadence.growth_per_month: must be at most 1 (got 10) (growth_per_month "
        + SHARE.format(meant="0.1", given=10) + ")"), err


# ---------------------------------------------------------------- a number with its unit, past the field's bound
@pytest.mark.parametrize(("where", "given", "tail"), [
    (("horizon_months",), "50 years", "horizon_months: '50 years': horizon_months is a number of months: write 600; "
                                      "600 is past its bound: horizon_months must be at most 60"),
    (("workloads", 0, "cadence", "hours_per_day"), "30h",
     "workloads[0].cadence.hours_per_day: '30h': hours_per_day is a number of hours: write 30; 30 is past its "
     "bound: hours_per_day must be at most 24"),
])
def test_plan_number_with_its_unit_past_the_bound(tmp_path, where, given, tail):
    doc = _chat_plan(6)
    cur = doc
    for k in where[:-1]:
        cur = cur[k]
    cur[where[-1]] = given
    err = _said(tmp_path, "plan.yaml", doc, "plan", "plan.yaml")
    assert err.rstrip().endswith(f"plan.yaml: {tail}"), err


def test_plan_number_with_its_unit_within_the_bound_offers_it_alone(tmp_path):
    err = _said(tmp_path, "plan.yaml", {**_chat_plan(6), "horizon_months": "5 years"}, "plan", "plan.yaml")
    assert err.rstrip().endswith("horizon_months: '5 years': horizon_months is a number of months: write 60"), err


def test_share_percentage_past_the_bound(tmp_path):
    err = _said(tmp_path, "r.yaml", {"workload": {**SERVE8, "prefix_cache_hit_rate": "100%"}},
                "estimate", "r.yaml", "--gpu", "h100")
    assert err.rstrip().endswith("'100%': prefix_cache_hit_rate is a fraction, 0.1 for ten percent: write 1; 1 is "
                                 "past its bound: prefix_cache_hit_rate must be at most 0.99"), err


def test_past_the_bound_in_chinese(tmp_path):
    err = _said(tmp_path, "plan.yaml", {**_chat_plan(6), "horizon_months": "10 years"}, "plan", "plan.yaml",
                "--lang", "zh")
    assert err.rstrip().endswith("请写作 120；120 超出其范围：horizon_months 至多为 60"), err


# ---------------------------------------------------------------- a price CSV with a monthly price
def _import(tmp_path, body: str, *more: str):
    (tmp_path / "c.csv").write_text(body, encoding="utf-8")
    return cli(*IMPORT, *more, cwd=tmp_path)


@pytest.mark.parametrize(("cell", "meant", "amount"), [("$1800/month", "2.466", "1800"),
                                                       ("1800 per month", "2.466", "1800"),
                                                       ("$14,600/mo", "20", "14600")])
def test_price_cell_a_month(tmp_path, cell, meant, amount):
    """1800 / 730 = 2.4658 an hour; 14,600 / 730 = 20."""
    r = _import(tmp_path, f'gpu,gpus,price\nH100,8,"{cell}"\n')
    assert r.returncode == 2 and not (tmp_path / "ov").exists(), r.stderr
    assert (f"line 2: H100: price '{cell}' is a price a month, and price is the price an hour: write {meant} "
            f"({amount} / 730 hours) if it is billed by the month\n") in r.stderr, r.stderr


def test_price_cell_a_month_in_another_currency(tmp_path):
    r = _import(tmp_path, "gpu,gpus,price\nH100,8,¥13000/mo\n")
    assert "price '¥13000/mo' is in CNY, and this row's prices are in USD" in r.stderr, r.stderr


def test_price_cell_an_hour_still_offered_as_before(tmp_path):
    r = _import(tmp_path, "gpu,gpus,price\nH100,8,$2.50/hr\n")
    assert "price '$2.50/hr' is not a number: write 2.5\n" in r.stderr, r.stderr


@pytest.mark.parametrize("column", ["price_per_month", "monthly_usd", "USD/mo"])
def test_price_column_a_month(tmp_path, column):
    r = _import(tmp_path, f"gpu,gpus,{column}\nH100,8,1800\n")
    err = _one_line(r)
    assert not (tmp_path / "ov").exists()
    assert err.rstrip().endswith(
        f"c.csv: not a price catalog: the header lacks price (read as the gpuwise layout) ('{column}' reads as a "
        "price a month, and the layout's price is an hour's: divide each by 730 hours (gpuwise's month) into a "
        "column 'price')"), err


def test_price_column_a_month_in_chinese(tmp_path):
    err = _one_line(_import(tmp_path, "gpu,gpus,price_per_month\nH100,8,1800\n", "--lang", "zh"))
    assert "'price_per_month' 看来是月价" in err and "730" in err, err


# ---------------------------------------------------------------- a plan's service given two loads
def test_plan_targets_with_a_rate_and_a_concurrency(tmp_path):
    doc = _chat_plan(6)
    doc["workloads"][0]["targets"]["concurrency"] = 16
    err = _said(tmp_path, "plan.yaml", doc, "plan", "plan.yaml")
    assert err.rstrip().endswith(
        "plan.yaml: workloads[0].targets: give requests_per_s or concurrency, not both: each is the service's load "
        "in its first month (requests arriving a second, or requests in flight), and the plan would read the rate "
        "alone"), err


def test_plan_targets_with_a_concurrency_alone_is_planned(tmp_path):
    doc = _chat_plan(6)
    doc["workloads"][0]["targets"] = {"concurrency": 16}
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = cli("plan", "plan.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and not r.stderr.strip(), r.stderr


# ---------------------------------------------------------------- price filters that match nothing together
def _prices_json(*filters: str) -> list[dict]:
    import json

    r = cli("prices", *filters, "--format", "json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["prices"]


def test_prices_filters_that_match_nothing_say_what_each_other_matches():
    """The expected lists are read from the JSON of each filter alone, not from the view."""
    assert _prices_json("--gpu", "B200", "--provider", "autodl") == []
    lists_b200 = sorted({p["provider"] for p in _prices_json("--gpu", "B200") if p["provider"]})
    autodl_gpus = sorted({p["gpu"] for p in _prices_json("--provider", "autodl") if p["gpu"]})
    r = cli("prices", "--gpu", "B200", "--provider", "autodl")
    assert r.returncode == 0 and not r.stderr, r.stderr
    assert r.stdout == ("No prices match --gpu B200 --provider autodl.\n"
                        f"  without --gpu: for {', '.join(autodl_gpus[:8])}"
                        f"{f' and {len(autodl_gpus) - 8} more' if len(autodl_gpus) > 8 else ''}\n"
                        f"  without --provider: listed by {', '.join(lists_b200)}\n"), r.stdout
    assert "runpod" in lists_b200 and "rtx-4090" in autodl_gpus  # knowledge/clouds.yaml's offers


def test_prices_currency_that_matches_nothing_names_the_currencies():
    currencies = sorted({p["currency"] for p in _prices_json("--gpu", "H100")})
    r = cli("prices", "--gpu", "H100", "--currency", "CNY")
    # after how 'H100' was read (the SXM module; review61)
    assert r.returncode == 0 and r.stdout.startswith("'H100' read as NVIDIA H100 SXM5 80GB"), r.stdout
    assert "\n\nNo prices match --gpu H100 --currency CNY.\n" in r.stdout, r.stdout
    assert r.stdout.splitlines()[-1] == f"  without --currency: in {', '.join(currencies)}", r.stdout


def test_prices_filters_that_match_nothing_in_json_is_an_empty_list():
    assert _prices_json("--gpu", "B200", "--provider", "autodl") == []


# ---------------------------------------------------------------- numbers written as prose
@pytest.mark.parametrize(("field", "given", "tail"), [
    ("workload.prompt_tokens", "~1000", "'~1000': prompt_tokens takes the number alone: write 1000"),
    ("workload.prompt_tokens", "about 1k", "'about 1k': prompt_tokens is a number of tokens: write 1024 if k is "
                                           "1,024, or 1000 if it is 1,000"),
    ("workload.concurrent_requests", "16-32", "'16-32' is a range, and concurrent_requests takes one number: write "
                                              "16 or 32, or one between"),
    ("workload.concurrent_requests", "16–32", "'16–32' is a range, and concurrent_requests takes one number: write "
                                              "16 or 32, or one between"),
    ("constraints.deadline_days", "10 to 14", "'10 to 14' is a range, and deadline_days takes one number: write 10 "
                                              "or 14, or one between"),
    ("constraints.max_gpus", "2x8", "'2x8': max_gpus is the number of GPUs in all: write 16 (2 x 8)"),
    ("constraints.max_gpus", "4 × 8 GPUs", "'4 × 8 GPUs': max_gpus is the number of GPUs in all: write 32 (4 x 8)"),
    ("constraints.electricity_usd_per_kwh", "15 cents", "'15 cents': electricity_usd_per_kwh is a number in the "
                                                        "file's currency (constraints.currency): write 0.15"),
    ("constraints.electricity_usd_per_kwh", "12¢/kWh", "'12¢/kWh': electricity_usd_per_kwh is a number in the "
                                                       "file's currency (constraints.currency): write 0.12"),
])
def test_number_written_as_prose(tmp_path, field, given, tail):
    section, _, leaf = field.partition(".")
    doc = {"workload": {**SERVE8}, "constraints": {}}
    doc[section][leaf] = given
    err = _said(tmp_path, "r.yaml", doc, "recommend", "r.yaml")
    assert err.rstrip().endswith(f"r.yaml: {field}: {tail}"), err


def test_a_range_the_wrong_way_round_or_a_negative_is_no_range(tmp_path):
    err = _said(tmp_path, "r.yaml", {"workload": {**SERVE8, "concurrent_requests": "-5"}}, "recommend", "r.yaml")
    assert "range" not in err and "must be at least 1" in err, err
    err = _said(tmp_path, "r.yaml", {"workload": {**SERVE8, "concurrent_requests": "32-16"}}, "recommend", "r.yaml")
    assert "range" not in err, err


def test_a_date_for_a_number_of_days(tmp_path):
    import datetime as dt

    ahead = dt.date.today() + dt.timedelta(days=30)
    (tmp_path / "r.yaml").write_text("workload: {task: finetune, method: lora, model: llama-3.1-8b, "
                                     f"train_tokens: 1.0e+8}}\nconstraints: {{deadline_days: {ahead.isoformat()}}}\n",
                                     encoding="utf-8")
    err = _one_line(cli("recommend", "r.yaml", cwd=tmp_path))
    assert err.rstrip().endswith(
        f"r.yaml: constraints.deadline_days: {ahead.isoformat()} is a date, and deadline_days is a number of days: "
        f"write 30 if the work starts today ({dt.date.today().isoformat()})"), err


def test_a_past_date_for_a_number_of_days_offers_none(tmp_path):
    doc = {"horizon_months": 6, "workloads": [{"name": "ft", "workload": {
        "task": "finetune", "method": "lora", "model": "llama-3.1-8b", "train_tokens": 1e8},
        "cadence": {"per_month": 1}, "deadline_days": "2020-01-31"}]}
    err = _said(tmp_path, "plan.yaml", doc, "plan", "plan.yaml")
    assert "workloads[0].deadline_days: '2020-01-31' is a date, and deadline_days is a number of days from the " \
           "work's start (that date is not after today, " in err and "write" not in err, err


def test_prose_in_chinese(tmp_path):
    err = _said(tmp_path, "r.yaml", {"workload": {**SERVE8, "concurrent_requests": "16-32"}},
                "recommend", "r.yaml", "--lang", "zh")
    assert err.rstrip().endswith("'16-32' 是一个范围，而 concurrent_requests 只取一个数："
                                 "请写作 16 或 32，或两者之间的一个数"), err
