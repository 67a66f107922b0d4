"""prices61: catalog61's cards with a dated purchase price are costed end to end; the others say why not.

The prices are knowledge/prices.yaml's, each read in its source: the RTX A5000's is the United-Compute
gpu-price-tracker's last Amazon US point in data/NVIDIA_RTX_A5000.json ($1,815.99 on 2025-08-24, commit 70a1a5f);
the RX 7900 XTX's is AMD's $999 launch list price (on sale 13 December 2022), stated as a list price.
"""

from __future__ import annotations

import datetime

import pytest

from gpuwise import recommend

from .clirun import gpuwise as cli

A5000_USD = 1815.99  # UCT data/NVIDIA_RTX_A5000.json, 2025-08-24
LORA_8B = {"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "train_tokens": 2.0e7,
                        "seq_len": 2048, "batch_size": 1, "gradient_checkpointing": True},
           "constraints": {"acquisition": "buy", "gpus": ["RTX A5000", "RTX 3080"], "max_gpus": 1,
                           "project_months": 12, "electricity_usd_per_kwh": 0.12}}


def test_a_lora_on_one_rtx_a5000_is_costed_by_hand(kb) -> None:
    """One A5000 bought for a year: the card ($1,815.99) + tco.yaml's desktop host share, the one a GeForce card in
    the same office workstation carries ($800; it was charged the PCIe server's $4,000 before hostshare62) +
    electricity for the job's GPU-hours at (230 W TDP + 250 W desktop host) x PUE 1.0 (office) x $0.12 - resale
    after 12 months at 0.70 a year of the card's price."""
    r = recommend(LORA_8B)
    c = next(c for c in r.candidates if c.gpu == "rtx-a5000" and c.count == 1)
    assert c.feasible and "TCO-BUY" in c.rules
    tco = kb.tco.values
    assert tco["server_share_usd_per_gpu_consumer"].value == 800 and tco["resale_fraction_per_year"].value == 0.70
    power = 0.480 * c.gpu_hours * 0.12
    assert c.buy_cost_usd == pytest.approx(A5000_USD + 800 + power - 0.70 * A5000_USD, rel=1e-6)
    assert c.buy_cost_usd == pytest.approx(1345.1, abs=0.5)  # the card's part alone: $1,815.99 x 0.30 = $544.80
    [used] = [p for p in r.prices_used if p.kind == "buy"]
    assert used.amount == A5000_USD and used.as_of == "2025-08-24" and "NVIDIA_RTX_A5000.json" in used.source
    # the RTX 3080 has no dated price: not costed
    assert all(c.buy_cost_usd is None for c in r.candidates if c.gpu == "rtx-3080")


@pytest.mark.parametrize("typed,amount,date", [("A5000", "1,816 USD", "2025-08-24"),
                                               ("RX 7900 XTX", "999 USD", "2022-12-13"),
                                               ("RTX 5070 Ti", "749 USD", "2025-01-07")])
def test_the_price_listing_gives_each_new_price_its_age_and_source(tmp_path, typed, amount, date) -> None:
    out = cli("prices", "--gpu", typed, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    # the listing is a table where its row fits the width, "label: value" lines where it does not (review59)
    age = (datetime.date.today() - datetime.date.fromisoformat(date)).days
    assert date in text and amount in text and "age (d)" in text and f"{age}!" in text and "Sources:" in text


def test_the_cards_left_unpriced_say_why(kb) -> None:
    excluded = {e.id: e.reason for e in kb.prices.excluded}
    priced = {g.id for g in kb.prices.gpus}
    assert {"rtx-a5000", "rtx-a4000", "rtx-4000-ada", "rtx-5000-ada", "rtx-3090-ti", "rtx-4080-super", "rtx-5080",
            "rtx-5070-ti", "rx-7900-xtx"} <= priced
    for gid in ("rtx-3080", "rtx-4080", "mi210", "radeon-pro-w7900"):
        assert gid in excluded and "catalog61 added" not in excluded[gid]
    # a launch list price is labelled as one, never as a street price
    kinds = {g.id: {p.kind for p in g.prices} for g in kb.prices.gpus}
    assert kinds["rx-7900-xtx"] == kinds["rtx-5070-ti"] == {"vendor-list"}
