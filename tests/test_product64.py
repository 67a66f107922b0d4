"""product64: four product leftovers of session 48 (tests/data/validation/README.md, 'product64'), each failing
before its fix, with its figures worked by hand here.

1. TCO-UNIT-PRICE-ABOVE-MARKET set a proposal's price a GPU (the GPU alone: the audit adds a host share beside it)
   against a street price that, for a part sold in whole servers, holds the host (317,000 / 8 = 39,625 for an H100
   SXM); both are now a GPU without its host (39,625 - 7,000 = 32,625), and the finding says which basis.
"""

from __future__ import annotations

import json

import pytest
import yaml

from .clirun import gpuwise as cli

# knowledge/prices.yaml: Thinkmate's HGX H100 8-GPU server quotation, 317,000 USD (2024-08-22), host included;
# knowledge/tco.yaml: server_share_usd_per_gpu_sxm 7,000 USD, server_share_usd_per_gpu_consumer 800 USD (the host
# shares the audit adds beside a proposal's price a GPU); the RTX 4090's card price 3,159.99 USD (2025-07-22); the DGX
# Spark (GB10) whole system 4,699 USD (2026-02-23); knowledge/policy.yaml unit_price_ratio_warning 1.3
SERVER_8, SHARE_SXM, SHARE_DESKTOP = 317_000, 7_000, 800
CARD_4090, SPARK = 3_159.99, 4_699
RATIO = 1.3
LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 2048, "train_tokens": 2.0e7}


def _write(tmp_path, name: str, doc) -> None:
    (tmp_path / name).write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")


def _price_findings(tmp_path, gpu: str, count: int, price: float, *extra: str) -> dict:
    _write(tmp_path, "p.yaml", {"title": "t", "workload": LORA8, "hardware": {"gpu": gpu, "count": count},
                                "acquisition": {"mode": "buy", "unit_price_usd": price}})
    r = cli("audit", "p.yaml", "--format", "json", *extra, cwd=tmp_path)
    assert r.returncode in (0, 1) and not r.stderr.strip(), r.stderr
    return {f["rule"]: f for f in json.loads(r.stdout)["findings"] if f["rule"].startswith("TCO-UNIT-PRICE")}


# ---------------------------------------------------------------- 1. like with like
def test_a_gpu_only_quote_is_set_beside_the_servers_price_a_gpu_without_its_host(tmp_path):
    # 45,000 a GPU: 45,000 / 39,625 = 1.14 (host in the street figure, no warning before); like with like,
    # 45,000 / (317,000 / 8 - 7,000) = 45,000 / 32,625 = 1.38 > 1.3
    street = SERVER_8 / 8 - SHARE_SXM
    assert street == 32_625
    f = _price_findings(tmp_path, "H100 SXM", 8, 45_000)["TCO-UNIT-PRICE-ABOVE-MARKET"]
    assert f["evidence"]["market_price_usd"] == pytest.approx(street)
    assert f["evidence"]["price_ratio"] == pytest.approx(45_000 / street, abs=1e-4)
    assert 45_000 / (SERVER_8 / 8) < RATIO < 45_000 / street
    assert "($32,625, a GPU without its host, as unit_price_usd is: the 8-GPU server's $317,000 (as of 2024-08-22) " \
           "/ 8 less the $7,000 a GPU the audit adds for the host beside either)" in f["message"]


def test_a_quote_within_the_spread_of_the_gpu_alone_draws_nothing(tmp_path):
    # guard: 42,000 / 32,625 = 1.29, inside 1.3
    assert 42_000 / (SERVER_8 / 8 - SHARE_SXM) < RATIO
    assert _price_findings(tmp_path, "H100 SXM", 8, 42_000) == {}


def test_a_cards_price_is_the_gpu_alone_already(tmp_path):
    # a card's street price holds no host: 5,000 / 3,159.99 = 1.58, the desktop's 800 a card said beside either
    f = _price_findings(tmp_path, "RTX 4090", 1, 5_000)["TCO-UNIT-PRICE-ABOVE-MARKET"]
    assert f["evidence"]["market_price_usd"] == pytest.approx(CARD_4090)
    assert f["evidence"]["price_ratio"] == pytest.approx(5_000 / CARD_4090, abs=1e-4)
    assert f"the card's price (as of 2025-07-22); the audit adds ${SHARE_DESKTOP} a GPU for the host" in f["message"]


def test_a_one_gpu_system_is_compared_whole(tmp_path):
    # a DGX Spark is bought whole (gpus.yaml link.server_gpus 1): 7,000 / 4,699 = 1.49, both with the host
    f = _price_findings(tmp_path, "DGX Spark", 1, 7_000)["TCO-UNIT-PRICE-ABOVE-MARKET"]
    assert f["evidence"]["market_price_usd"] == pytest.approx(SPARK)
    assert f["evidence"]["price_ratio"] == pytest.approx(7_000 / SPARK, abs=1e-4)
    assert "the whole one-GPU system with its host" in f["message"]


def test_the_servers_reading_says_the_same_basis(tmp_path):
    # 289,000 (the 8-GPU server's quote in the GPU's field) is 289,000 / 32,625 = 8.9x the GPU alone
    found = _price_findings(tmp_path, "H100 SXM", 8, 289_000)
    f = found["TCO-UNIT-PRICE-SERVER"]
    assert f["evidence"]["price_ratio"] == pytest.approx(289_000 / 32_625, abs=1e-4)
    assert "8.9x the street price gpuwise knows for NVIDIA H100 SXM5 80GB ($32,625, a GPU without its host" \
        in f["message"]
