"""Hostile round 56's fixed failures (benchmarks/hostile_round56.py: hostile round 55's four leftovers), each failing
on b1b6781c (before this branch's fixes); the guards beside them pass there too and say what must not change:

* a rental's price with its pricing plan ('$2.49/GPU-hr (1-yr reserved)', '(spot)') was 'must be a number' / 'not a
  number': the price offered and the plan's field said (a proposal's months or spot, a price CSV's term or
  spot_price), so a commitment's rate is never taken for an on-demand one;
* a price CSV's as_of as a month ('Dec 2026'), a day that could be either ('12/01/2026'), a dotted date
  ('01.12.2026') or Excel's date serial ('46357') was 'not a date': its readings said;
* a key,value CSV pasted as a YAML file was 'expected a mapping of sections, got str': the line and 'key: value';
* a GGUF repository with no quant type was priced at bf16: refused, its several files and the fields said.
"""

from __future__ import annotations

import datetime as dt

import pytest

from .clirun import gpuwise as cli
from .test_hostile52 import _one_line, _write
from .test_hostile53 import IMPORT
from .test_hostile55 import _audit, _estimate_text, _import

SERVE = {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000, "output_tokens": 200}


# ---------------------------------------------------------------- a price with its pricing plan beside it
@pytest.mark.parametrize("given, said", [
    ("$2.49/GPU-hr (1-yr reserved)", "is a price on a 1-year commitment: write 2.49 in hourly_usd and months: 12"),
    ("$1.80/hr, 3-year commitment", "is a price on a 3-year commitment: write 1.8 in hourly_usd and months: 36"),
    ("2.10 (12-month term)", "is a price on a 1-year commitment: write 2.1 in hourly_usd and months: 12"),
    ("$2.49 (6-month reserved)", "is a price on a 6-month commitment: write 2.49 in hourly_usd and months: 6"),
    ("$2.10 (reserved)", "is a reserved (committed) price: write 2.1 in hourly_usd and the term it commits to"),
    ("$1.20/hr (spot)", "is a spot price: write 1.2 in hourly_usd and spot: true")])
def test_a_proposals_price_with_its_plan_says_the_plans_field(tmp_path, given, said):
    """It was 'must be a number (got ...)'; the number alone would bill a 1-year rate by the hour, as on-demand."""
    err = _one_line(_audit(tmp_path, acquisition={"hourly_usd": given}))
    assert f"acquisition.hourly_usd: '{given}' {said}" in err and "must be a number" not in err, err


def test_a_price_without_a_plan_is_as_before(tmp_path):
    """Guards: '$2.49/hr' is offered 2.49 with no term; '$2.49/hr 1 year' (no word of a commitment, no brackets) is
    not read as one; a plain 2.49 is audited."""
    err = _one_line(_audit(tmp_path, acquisition={"hourly_usd": "$2.49/hr"}))
    assert err.rstrip().endswith("write 2.49") and "months" not in err
    assert "must be a number" in _one_line(_audit(tmp_path, acquisition={"hourly_usd": "$2.49/hr 1 year"}))
    assert _audit(tmp_path).returncode in (0, 1)


@pytest.mark.parametrize("row, said", [
    # 2.49 x 8 = 19.92: the price column is the row's GPUs' together
    ("H100 80GB SXM,8,$2.49/GPU-hr (1-yr reserved),", "price '$2.49/GPU-hr (1-yr reserved)' is a 1-year commitment's "
     "price: write 19.92 (2.49 x 8 GPUs) in price and 1-year in the term column"),
    ("H100 80GB SXM,8,19.92 (3-year commitment),", "write 19.92 in price and 3-year in the term column"),
    ("H100 80GB SXM,8,19.92 (1-yr reserved),1-year", "is a 1-year price: write 19.92 (the term column says '1-year')"),
    ("H100 80GB SXM,8,19.92 (6-month reserved),", "is a 6-month price, and the term column takes 1-month, 1-year or "
     "3-year"),
    ("H100 80GB SXM,8,$19.92/hr (spot),", "is a spot price: write 19.92 in spot_price")])
def test_a_price_csvs_price_with_its_plan_says_the_column(tmp_path, row, said):
    r = _import(tmp_path, f"gpu,gpus,price,term\n{row}\n")
    out = r.stdout + r.stderr
    assert r.returncode == 2 and said in out and "is not a number\n" not in out, out


def test_a_gpuhunt_price_with_its_plan_names_gpuwises_layout(tmp_path):
    r = _import(tmp_path, "instance_name,location,price,gpu_count,gpu_name,gpu_memory,spot\n"
                          "p5,us,19.92 (1-yr reserved),8,H100,80,False\n")
    out = r.stdout + r.stderr
    assert "is a 1-year price, and this layout's prices are on-demand: give it in gpuwise's layout" in out, out


def test_a_term_in_its_column_is_as_before(tmp_path):
    """Guard: a 1-year row in the term column beside its on-demand row is imported onto the offer."""
    r = _import(tmp_path, "gpu,gpus,price,term\nH100 80GB SXM,8,20,\nH100 80GB SXM,8,15,1-year\n")
    assert r.returncode == 0 and "imported 1 offer" in r.stdout, r.stdout + r.stderr


# ---------------------------------------------------------------- a price CSV's as_of as a sheet writes it
# Excel's 1900 date system counts serial 1 as 1900-01-01 and the phantom 1900-02-29 as serial 60, so a serial past 60
# is days after 1899-12-30: 46357 = 2026-12-01 (Microsoft support, 'Date systems in Excel'); the 1904 system's
# serial 0 is 1904-01-01, 1,462 days later.
@pytest.mark.parametrize("given, said", [
    ("Dec 2026", "'Dec 2026' is a month, and as_of is the day the price was read: write the day, 2026-12-DD"),
    ("2026-11", "'2026-11' is a month"),
    ("12/01/2026", "'12/01/2026' could be 2026-12-01 (month first, as the US writes it) or 2026-01-12 (day first)"),
    ("01.12.2026", "'01.12.2026' is 2026-12-01 read day first, as a date with dots is written (DD.MM.YYYY): write "
     "2026-12-01, or 2026-01-12 if it is month first"),
    ("46357", "'46357' is a spreadsheet's date serial: 2026-12-01 in Excel's 1900 date system: write 2026-12-01"),
    ("40000", "'40000' is a spreadsheet's date serial: 2009-07-06 in Excel's 1900 date system, 2013-07-07 in the "
     "1904 system")])
def test_a_rows_as_of_as_a_sheet_writes_it_says_its_readings(tmp_path, given, said):
    assert dt.date(1899, 12, 30) + dt.timedelta(46357) == dt.date(2026, 12, 1)
    r = _import(tmp_path, f"gpu,gpus,price,as_of\nH100 80GB SXM,8,20,{given}\n")
    assert said in r.stdout + r.stderr, r.stdout + r.stderr


def test_as_of_flag_says_both_readings(tmp_path):
    (tmp_path / "c.csv").write_text("gpu,gpus,price\nH100 80GB SXM,8,20\n", encoding="utf-8")
    err = _one_line(cli(*IMPORT[:-1], "12/01/2026", cwd=tmp_path))
    assert "--as-of: not a date written YYYY-MM-DD: '12/01/2026' could be 2026-12-01" in err, err
    assert "2026-01-12 (day first)" in err, err


def test_a_date_read_surely_and_no_date_are_as_before(tmp_path):
    """Guards: '13/01/2026' is offered 2026-01-13; 'soon' is no date and nothing is offered."""
    r = _import(tmp_path, "gpu,gpus,price,as_of\nH100 80GB SXM,8,20,13/01/2026\nA100 80GB SXM,8,12,soon\n")
    out = r.stdout + r.stderr
    assert "write 2026-01-13" in out and "'soon' is not a date\n" in out, out


# ---------------------------------------------------------------- a key,value CSV pasted as YAML
@pytest.mark.parametrize("text, line, said", [
    ("task,inference\nmodel,llama-3.1-8b\n", 1, "(write 'task: inference', indented under its section"),
    ("key,value\ntask,inference\nmodel,llama-3.1-8b\n", 2, "(write 'task: inference', indented under its section"),
    ("workload.task,inference\nworkload.model,llama-3.1-8b,,\n", 1, "(write 'task: inference', indented under "
     "'workload:')"),
    ("workload:\n  task,inference\n  model,llama-3.1-8b\n", 2, "(write 'task: inference', indented under "
     "'workload:')")])
def test_a_key_value_csv_as_yaml_names_its_line(tmp_path, text, line, said):
    """It was 'expected a mapping of sections, got str' (under a section: 'must be a section of keys' with every
    key listed)."""
    err = _one_line(_estimate_text(tmp_path, text))
    assert f"invalid YAML at line {line}: " in err and "is a key and its value separated by a comma" in err, err
    assert said in err, err


def test_commas_in_yaml_values_are_as_before(tmp_path):
    """Guard: a value holding commas, a title 'a,b' and a block's text are YAML's own."""
    ok = _estimate_text(tmp_path, "workload:\n  task: inference\n  model: llama-3.1-8b\n  notes: |\n    a,b\n")
    assert "comma" not in ok.stderr
    ok = _estimate_text(tmp_path, "workload:\n  task: inference\n  model: llama-3.1-8b\n")
    assert ok.returncode == 0, ok.stderr


# ---------------------------------------------------------------- a GGUF repository as the model
def _serve(tmp_path, **w):
    _write(tmp_path, "r.yaml", {"workload": {**SERVE, **w}})
    return cli("estimate", "r.yaml", "--gpu", "h100", "--format", "json", cwd=tmp_path)


@pytest.mark.parametrize("model", ["Qwen2.5-72B-Instruct-GGUF", "bartowski/Qwen2.5-72B-Instruct-GGUF"])
def test_a_gguf_repository_with_no_quant_type_is_asked_which(tmp_path, model):
    """It was priced at bf16 (about 145 GB of weights for Qwen2.5 72B, two bytes a parameter), the repository read as
    its base model."""
    err = _one_line(_serve(tmp_path, model=model))
    assert f"workload.model: {model} is a GGUF repository, which holds one file for each of several quantizations" \
           in err and f"({model}:Q4_K_M)" in err and "set precision" in err, err


@pytest.mark.parametrize("model, quant, bits", [("Qwen2.5-72B-Instruct-GGUF:Q5_K_M", "Q5_K_M", 5),
                                                ("Qwen2.5-72B-Instruct-GGUF/qwen2.5-72b-instruct-q6_k.gguf", "Q6_K", 6),
                                                ("Qwen2.5-72B-Instruct-Q3_K_M-GGUF", "Q3_K_M", 3)])
def test_a_gguf_quant_type_with_no_precision_of_its_own_is_said(tmp_path, model, quant, bits):
    err = _one_line(_serve(tmp_path, model=model))
    assert f"names the GGUF quant type {quant}, {bits}-bit weights" in err and "precision int8" in err, err


def test_the_errors_are_said_in_chinese(tmp_path):
    """Each new message has its zh translation (--lang zh): the catalog's words, not the English."""
    _write(tmp_path, "r.yaml", "workload:\n  task,inference\n")
    err = _one_line(cli("--lang", "zh", "estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path))
    assert "是以逗号分隔的键和值" in err and "请写作 'task: inference'" in err, err
    _write(tmp_path, "r.yaml", {"workload": {**SERVE, "model": "Qwen2.5-72B-Instruct-GGUF"}})
    assert "是一个 GGUF 仓库" in _one_line(cli("--lang", "zh", "estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path))
    err = _one_line(_audit(tmp_path, acquisition={"hourly_usd": "$2.49/GPU-hr (1-yr reserved)"}))
    assert "months: 12" in err
    r = _import(tmp_path, "gpu,gpus,price,as_of\nH100 80GB SXM,8,20,46357\n")
    zh = cli("--lang", "zh", *IMPORT, cwd=tmp_path)
    assert "是电子表格的日期序列号" in zh.stdout + zh.stderr and r.returncode == 2, zh.stdout + zh.stderr


def test_a_gguf_named_with_its_precision_is_as_before(tmp_path):
    """Guards: a Q4_K_M / Q8_0 file is read as int4 / int8; the repository beside precision int4 is estimated; IQ4_XS
    (4-bit) is read as int4."""
    for model, layout in (("Qwen2.5-72B-Instruct-GGUF:Q4_K_M", "int4"), ("Qwen2.5-72B-Instruct-GGUF:Q8_0", "int8"),
                          ("Qwen2.5-72B-Instruct-GGUF:IQ4_XS", "int4")):
        r = _serve(tmp_path, model=model)
        assert r.returncode in (0, 1) and f"({layout} weights" in r.stdout, (model, r.stderr)
    r = _serve(tmp_path, model="Qwen2.5-72B-Instruct-GGUF", precision="int4")
    assert r.returncode in (0, 1) and "(int4 weights" in r.stdout, r.stderr
