"""A formula's money inputs are shown in the report's currency and house style (review47: a yuan audit's buy
formula read 'inputs: capex = 7.704e+04, ..., host_usd = 64,000, ..., resale_usd = 5214' in USD beside the line
with the numbers in ¥: three number styles and two currencies in one formula)."""

from __future__ import annotations

import re

import gpuwise
from gpuwise.render import report

PROPOSAL = {
    "title": "8 x RTX 3090, bought, yuan",
    "workload": {"task": "finetune", "method": "lora", "model": "qwen3-32b", "seq_len": 4096,
                 "gradient_checkpointing": True, "train_tokens": 2.0e8},
    "constraints": {"currency": "CNY", "deadline_days": 14},
    # one 8-GPU server: the rent-instead line rents it from AutoDL, whose rental is one host of at most 8
    # (knowledge/clouds.yaml max_gpus; 16 on 2 nodes were rented from it before autodl53, no longer)
    "hardware": {"gpu": "RTX 3090", "count": 8, "nodes": 1, "link": "pcie-4", "host_ram_gb": 256},
    "acquisition": {"mode": "buy", "condition": "used", "unit_price_usd": 4500, "months": 12},
}


def _inputs_line(text: str, head: str) -> str:
    block = text[text.index(head):]
    start = block.index("输入：")
    return " ".join(block[start:block.index("\n\n", start)].split())


def test_buy_formula_inputs_are_yuan_in_house_style():
    result = gpuwise.audit(PROPOSAL)
    rate = result.currency.usd_cny  # the report's rate (knowledge/fx: ECB cross rate), stated once in the report
    text = report.render(result, "text", detail="full", lang="zh", currency="CNY")
    line = _inputs_line(text, "购买总成本")
    assert not re.search(r"\de[+-]\d", line), line  # no 7.704e+04
    # each amount is the estimator's USD input x the rate, whole yuan at 100 or more (as the assumptions show one):
    # host_usd 32,000 x 6.7661 = ¥216,515
    term = next(t for s in result.steps for t in s.terms if t.name == "buy_usd")
    # (review49fix: an input named for dollars is named for the yuan it is shown in; the JSON keeps host_usd)
    for key, shown in (("capex", "capex"), ("host_usd", "host_cny"), ("hardware_usd", "hardware_cny"),
                       ("resale_usd", "resale_cny")):
        assert f"{shown} = ¥{term.inputs[key] * rate:,.0f}" in line, (key, line)
    assert "_usd" not in line and "host_cny = 32,000" not in line and "licences_cny = ¥0" in line
    rent = _inputs_line(text, "租用 = ")
    assert "cny_per_hour = ¥" in rent and "/h" in rent and "usd_per_hour" not in rent
