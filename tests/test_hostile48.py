"""Hostile round 48's fixed failures (benchmarks/hostile_round48.py), each failing before its fix:

* a file's currency written as people say it (``constraints.currency: RMB``, ``¥``, ``dollars``, ``人民币``; a price
  CSV's ``currency`` cell ``RMB`` or ``yuan``) was refused with the two choices alone: the one meant is offered
  (inputs/notation.py ``CURRENCY_NAMES``, the table ``--currency RMB`` has offered CNY by since round 47).
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
