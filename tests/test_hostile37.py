"""Hostile round 37's fixed failures (benchmarks/hostile_round37.py): session 36's merges used as a careless
author would -- the Python API's ``fx_rate``, ..."""

from __future__ import annotations

from pathlib import Path

import pytest

import gpuwise
from gpuwise.errors import UserError

PLAN = """horizon_months: 3
constraints: {acquisition: rent, gpus: [rtx-4090]}
workloads:
  - name: lora-8b
    workload: {task: finetune, method: lora, model: llama-3.1-8b, seq_len: 4096, train_tokens: 2.0e+8}
    cadence: {per_month: 1}
"""
LORA = {"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096,
                     "train_tokens": 2.0e8}}


@pytest.mark.parametrize("rate, words", [
    # round 37: 0 stopped inside the plan with ZeroDivisionError, 'abc' with float()'s ValueError; -1, NaN, inf
    # and True were taken and every amount converted at them (the command line's --fx-rate refuses all six)
    (0, "fx_rate: 0 is not a rate of CNY per USD from 1e-06 to 1e+06"),
    (-1, "fx_rate: -1 is not a rate of CNY per USD from 1e-06 to 1e+06"),
    (float("nan"), "fx_rate: nan is not a rate of CNY per USD"),
    (float("inf"), "fx_rate: inf is not a rate of CNY per USD"),
    ("abc", "fx_rate: 'abc' is not a number"),
    (True, "fx_rate: True is not a number"),
])
def test_plan_api_fx_rate_refused(tmp_path: Path, rate, words):
    (tmp_path / "plan.yaml").write_text(PLAN, encoding="utf-8")
    with pytest.raises(UserError) as err:
        gpuwise.plan(str(tmp_path / "plan.yaml"), fx_rate=rate)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_recommend_api_fx_rate_zero_refused():
    with pytest.raises(UserError, match="fx_rate: 0 is not a rate of CNY per USD"):
        gpuwise.recommend(LORA, fx_rate=0)


def test_api_fx_rate_in_range_kept(tmp_path: Path):
    """7.1 CNY per USD (and an int, 7) is the rate the plan converts at, undated, as --fx-rate's is."""
    (tmp_path / "plan.yaml").write_text(PLAN, encoding="utf-8")
    for rate in (7.1, 7):
        info = gpuwise.plan(str(tmp_path / "plan.yaml"), fx_rate=rate, currency="CNY").model_dump()["currency_info"]
        assert (info["usd_cny"], info["as_of"]) == (rate, "")
