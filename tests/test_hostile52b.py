"""Hostile round 52's three leftovers (tests/data/validation/README.md, 'Branch hostile52b'), each failing before its
fix:

* a whole server's quote written in a purchase's ``unit_price_usd`` (289,000 for 8 H100) drew the above-market
  warning alone: TCO-UNIT-PRICE-SERVER says it reads as the machine's price and gives the price a GPU to write (the
  machine's share a GPU less the host share the audit adds beside a GPU's price);
* a price CSV's totals row ('Total', '合计') was listed as a row whose GPU count is not a number: left out with a
  note naming its line;
* a Compose-style ``x-`` key kept for its YAML anchor listed the valid keys: said to be an extension key gpuwise does
  not read, with where an anchor goes (unknown keys stay an error, as docs/formats.md promises).

The guards beside them (passing before too): a reseller's 60,000 a GPU stays a mark-up, a 'Total' GPU name beside a
GPU in another column is no totals row, a key spelt without the dash is an unknown key with its valid keys.
"""

from __future__ import annotations

import json

import pytest
import yaml

from gpuwise.prices.catalog_csv import _totals_label

from .clirun import ROOT
from .clirun import gpuwise as cli
from .test_hostile51 import _one_line, _write

SERVE8 = {"task": "inference", "model": "llama-3.1-8b", "precision": "bf16", "prompt_tokens": 1000,
          "output_tokens": 200}
LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
H100X8 = {"gpu": "H100 SXM", "count": 8, "nodes": 1}
# knowledge/prices.yaml: Thinkmate's HGX H100 8-GPU server quotation, 317,000 USD (2024-08-22), host included;
# knowledge/tco.yaml: server_share_usd_per_gpu_sxm 7,000 USD, the host share the audit adds beside an SXM GPU's price;
# usd_cny 6.7661 CNY per USD
SERVER_8 = 317_000
SHARE_SXM = 7_000
USD_CNY = 6.7661




# ---------------------------------------------------------------- a server's quote as the price a GPU
def _audit(tmp_path, price: float, hardware: dict | None = None, **top) -> dict:
    _write(tmp_path, "p.yaml", {"title": "t", "workload": LORA8, "hardware": hardware or H100X8,
                                "acquisition": {"mode": "buy", "unit_price_usd": price}, **top})
    r = cli("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and not r.stderr.strip(), r.stderr
    return {f["rule"]: f for f in json.loads(r.stdout)["findings"]}


def test_a_servers_quote_as_the_price_a_gpu_is_said(tmp_path):
    found = _audit(tmp_path, 289_000)  # an HGX H100 8-GPU server's quote (hostile round 52's case)
    assert "TCO-UNIT-PRICE-ABOVE-MARKET" in found  # 289,000 / 39,625 = 7.3x, as before
    f = found["TCO-UNIT-PRICE-SERVER"]
    assert f["severity"] == "warning"
    assert f["evidence"]["server_gpus"] == 8
    assert f["evidence"]["server_price_usd"] == pytest.approx(SERVER_8)
    assert f["evidence"]["server_as_of"] == "2024-08-22"
    assert "reads as the whole 8-GPU machine's price" in f["message"]
    # 289,000 / 8 = 36,125 a GPU of the server, less the 7,000 host share the audit adds: 29,125
    assert f"unit_price_usd is ${289_000 / 8 - SHARE_SXM:,.0f}" in f["fix"] == (
        "If $289,000 is the machine's price, unit_price_usd is $29,125, the price of one GPU without its host, "
        "which the audit adds ($7,000 a GPU): $289,000 / 8 - $7,000 (in the file's currency).")


def test_a_four_gpu_servers_quote_is_read_over_its_four(tmp_path):
    # 4 H100 on their one node at 158,500, half the 8-GPU server (buy_plan's pro rata of the 8-GPU price point)
    f = _audit(tmp_path, SERVER_8 / 2, {**H100X8, "count": 4})["TCO-UNIT-PRICE-SERVER"]
    assert f["evidence"]["server_gpus"] == 4 and f["evidence"]["server_price_usd"] == pytest.approx(SERVER_8 / 2)
    assert f"unit_price_usd is ${SERVER_8 / 2 / 4 - SHARE_SXM:,.0f}," in f["fix"]  # 39,625 - 7,000 = 32,625


def test_one_servers_quote_over_two_nodes_is_a_nodes_price(tmp_path):
    f = _audit(tmp_path, 289_000, {**H100X8, "count": 16, "nodes": 2})["TCO-UNIT-PRICE-SERVER"]
    assert f["evidence"]["server_gpus"] == 8 and "priced the purchase 8 times over" in f["message"]


def test_a_servers_quote_in_yuan_is_said_in_yuan(tmp_path):
    found = _audit(tmp_path, round(289_000 * USD_CNY), constraints={"currency": "CNY"})
    f = found["TCO-UNIT-PRICE-SERVER"]  # the JSON in USD: the file's yuan converted at usd_cny
    assert f["evidence"]["unit_price_usd"] == pytest.approx(289_000, rel=1e-5)
    r = cli("audit", "p.yaml", "--detail", "full", cwd=tmp_path)
    text = " ".join(r.stdout.split())
    # (289,000 / 8 - 7,000) x 6.7661 = 197,063 yuan; 7,000 x 6.7661 = 47,363
    said = "unit_price_usd is CN¥197,063, the price of one GPU without its host, which the audit adds (CN¥47,363 a GPU)"
    assert said in text


def test_a_mark_up_is_no_servers_price(tmp_path):
    # guard: 60,000 a GPU is 1.5x the street price and far from any server's (60,000 / 158,500 = 0.38)
    found = _audit(tmp_path, 60_000)
    assert "TCO-UNIT-PRICE-ABOVE-MARKET" in found and "TCO-UNIT-PRICE-SERVER" not in found


def test_a_servers_price_a_gpu_near_the_street_price_is_not_read_so(tmp_path):
    found = _audit(tmp_path, 39_625)  # the street price itself: no finding on the price
    assert "TCO-UNIT-PRICE-SERVER" not in found and "TCO-UNIT-PRICE-ABOVE-MARKET" not in found


# ---------------------------------------------------------------- a price CSV's totals row
@pytest.mark.parametrize("cells, header, fmt, label", [
    (["Total", "", "6.08"], ["gpu", "gpus", "price"], "gpuwise", "Total"),
    (["Grand total:", "16", "6.08"], ["gpu", "gpus", "price"], "gpuwise", "Grand total:"),
    (["合计", "", "6.08"], ["gpu", "gpus", "price"], "gpuwise", "合计"),
    (["", "总计", "6.08"], ["instance", "gpu", "price"], "gpuwise", "总计"),
    (["SUM", "", "", "6.08"], ["instance_name", "gpu_name", "gpu_count", "price"], "gpuhunt", "SUM"),
    # guards: a GPU named beside the label, a GPU row, a name holding the word
    (["Total", "H100 SXM", "8", "4.29"], ["instance", "gpu", "gpus", "price"], "gpuwise", ""),
    (["H100 SXM", "8", "4.29"], ["gpu", "gpus", "price"], "gpuwise", ""),
    (["Totally H100", "8", "4.29"], ["gpu", "gpus", "price"], "gpuwise", "")])
def test_a_totals_label(cells, header, fmt, label):
    assert _totals_label(cells, header, fmt) == label


def test_a_totals_row_is_left_out_with_a_note(tmp_path):
    _write(tmp_path, "lam.csv", "gpu,gpus,price\nH100 SXM,8,34.32\nA100 80GB SXM,8,14.32\nTotal,,48.64\n")
    r = cli("prices", "import", "lam.csv", "-o", "ov", "--as-of", "2026-09-25", cwd=tmp_path)
    assert r.returncode == 0 and not r.stderr, r.stderr
    assert "left out 1 totals row (line 4): a sheet's sum, not an offer" in r.stdout
    assert "could not use" not in r.stdout and "gpu count" not in r.stdout
    r = cli("prices", "import", "lam.csv", "-o", "ov", "--as-of", "2026-09-25", "--format", "json", cwd=tmp_path)
    doc = json.loads(r.stdout)
    assert doc["totals"] == [{"line": 4, "label": "Total"}] and doc["skipped"] == [] and len(doc["imported"]) == 2


def test_a_chinese_totals_row_in_a_chinese_summary(tmp_path):
    _write(tmp_path, "lam.csv", "gpu,gpus,price\nH100 SXM,8,34.32\n合计,8,34.32\n")
    r = cli("prices", "import", "lam.csv", "-o", "ov", "--as-of", "2026-09-25", "--lang", "zh", cwd=tmp_path)
    assert r.returncode == 0 and "合计行" in r.stdout and "第 3 行" in r.stdout, r.stdout


# ---------------------------------------------------------------- a Compose-style x- key
ANCHORED = "x-serve: &s\n  task: inference\n  model: llama-3.1-8b\nworkload:\n  <<: *s\n  prompt_tokens: 1000\n"


def test_an_x_key_holding_an_anchor_is_said_to_be_no_key_gpuwise_reads(tmp_path):
    _write(tmp_path, "r.yaml", ANCHORED)
    err = _one_line(cli("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path))
    assert "r.yaml: x-serve: unknown key: gpuwise reads no x- extension keys" in err
    assert "workload: &serve" in err and "valid keys" not in err


def test_an_x_key_in_a_plan_and_in_chinese(tmp_path):
    plan = yaml.safe_load((ROOT / "examples" / "plan-team-4090.yaml").read_text())
    _write(tmp_path, "plan.yaml", {"x-defaults": {"seq_len": 4096}, **plan})
    err = _one_line(cli("plan", "plan.yaml", "--lang", "zh", cwd=tmp_path))
    assert "plan.yaml: x-defaults:" in err and "x- 扩展键" in err


def test_the_anchor_where_the_hint_puts_it_is_read(tmp_path):
    # the hint's advice holds: the anchor on the section's own value, merged again with <<
    _write(tmp_path, "r.yaml", "workload: &serve\n  task: inference\n  model: llama-3.1-8b\n  prompt_tokens: 1000\n")
    r = cli("estimate", "r.yaml", "--gpu", "h100", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0 and json.loads(r.stdout)["gpu"]["id"] == "h100-80gb-sxm", r.stderr


def test_a_key_without_the_dash_is_an_unknown_key_as_before(tmp_path):
    _write(tmp_path, "r.yaml", {"xserve": 1, "workload": SERVE8})
    err = _one_line(cli("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path))
    assert "xserve: unknown key" in err and "x- extension" not in err
