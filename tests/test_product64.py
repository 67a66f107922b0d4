"""product64: four product leftovers of session 48 (tests/data/validation/README.md, 'product64'), each failing
before its fix, with its figures worked by hand here.

1. TCO-UNIT-PRICE-ABOVE-MARKET set a proposal's price a GPU (the GPU alone: the audit adds a host share beside it)
   against a street price that, for a part sold in whole servers, holds the host (317,000 / 8 = 39,625 for an H100
   SXM); both are now a GPU without its host (39,625 - 7,000 = 32,625), and the finding says which basis.
2. recommend billed a whole GB200 rack of 72 for a 64-GPU layout and never judged 72: the count a rental bills whole
   is now judged beside the count below it (training), and the cost step says what each takes and costs.
3. CoreWeave's GB200 racks took the Ethernet default between them: they are on InfiniBand NDR 400 Gb/s a GPU (its
   MLPerf Training v5.0 system description), sourced with its date.
4. ``--currency usd`` was taken on ``prices`` alone: every command takes a code in any case.
"""

from __future__ import annotations

import json

import pytest
import yaml

from .clirun import ROOT
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


# ---------------------------------------------------------------- 2. the count a rental bills whole
# knowledge/clouds.yaml: CoreWeave's GB200 NVL72 at $10.50 a GPU-hour, rented in whole racks of 72 (step_gpus 72,
# docs.coreweave.com/docs/platform/instances/gb200); runtime.yaml job_setup_hours 0.25
GB200_RATE, RACK, SETUP_H = 10.50, 72, 0.25
FT70 = ("workload: {task: finetune, method: full, model: llama-3.1-70b, seq_len: 4096, train_tokens: 1.0e9}\n"
        "constraints: {gpus: [gb200], max_gpus: %d, acquisition: rent}\n")


def _recommend(tmp_path, text: str) -> dict:
    (tmp_path / "r.yaml").write_text(text, encoding="utf-8")
    r = cli("recommend", "r.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0 and not r.stderr.strip(), r.stderr
    return json.loads(r.stdout)


def test_the_rack_billed_for_64_gb200_is_judged_whole_and_chosen(tmp_path):
    d = _recommend(tmp_path, FT70 % 128)
    rec = d["recommendation"]
    assert (rec["gpu"], rec["count"]) == ("gb200", RACK)  # the ladder (64, 128) never held 72
    assert {c["count"] for c in d["candidates"]} >= {64, 72, 128}
    rent, setup = rec["ledger"]["lines"][:2]
    assert rent["inputs"]["usd_per_hour"] == setup["inputs"]["usd_per_hour"] == pytest.approx(RACK * GB200_RATE)
    # 64 are billed the same 72 x $10.50 = $756 an hour for the same work spread over fewer GPUs:
    # hours(64) = GPU-hours / 64 = hours(72) x 72 / 64 (the same GPU-hours within the scaling's 1%)
    h72 = rent["inputs"]["hours"]
    (step,) = [t for t in d["trace"] if t["rule"] == "TCO-RENT-STEP-FILLED"]
    assert step["subject"] == "gb200x72:rent" and step["action"] == "pass"
    said = step["values"]["step_filled_said_phrases"][0][2]
    assert said["below"] == 64 and said["usd"] == pytest.approx(RACK * GB200_RATE * (h72 + SETUP_H))
    assert said["below_usd"] == pytest.approx(RACK * GB200_RATE * (h72 * 72 / 64 + SETUP_H), rel=0.01)
    assert said["usd"] < said["below_usd"] and said["days"] < said["below_days"]
    # the batch fills the GPUs: one 4,096-token sequence a replica, 72 x 4,096 against 64 x 4,096
    assert (said["tokens"], said["below_tokens"]) == (72 * 4096, 64 * 4096)
    brief = " ".join(cli("recommend", "r.yaml", cwd=tmp_path).stdout.split())
    assert "it rents them only in whole steps of 72, so 64 GPUs would be billed as 72 too, and this layout uses " \
           "every GPU billed: 72 GPUs (294,912 tokens a step)" in brief


def test_a_cap_below_the_rack_keeps_the_count_billed_whole(tmp_path):
    # guard: max_gpus 64 rules 72 out; 64 stay the answer, billed 72, and FEE-RENT-STEP-CAPPED says so (wording65:
    # FEE-RENT-STEP-CHOSEN's fix, to size the job to whole racks, is where the cap allows the rack)
    d = _recommend(tmp_path, FT70 % 64)
    assert d["recommendation"]["count"] == 64 and 72 not in {c["count"] for c in d["candidates"]}
    assert any(f["rule"] == "FEE-RENT-STEP-CAPPED" for f in d["findings"])
    assert not any(f["rule"] == "FEE-RENT-STEP-CHOSEN" for f in d["findings"])
    assert not any(t["rule"] == "TCO-RENT-STEP-FILLED" for t in d["trace"])


# ---------------------------------------------------------------- 3. CoreWeave's network between GB200 racks
def test_coreweaves_gb200_racks_are_joined_by_infiniband(kb, tmp_path):
    # clouds.yaml: CoreWeave's GB200 offer on infiniband-400, sourced to its MLPerf Training v5.0 system description
    # (Carina: 4 x ConnectX-7 IB NDR 400 Gb/s a 4-GPU node) with its date; runtime.yaml infiniband-400 50 GB/s a GPU
    (o,) = [o for o in kb.clouds.gpu_hour_prices if o.provider == "coreweave" and o.gpu == "gb200"]
    assert o.network == "infiniband-400" and str(o.network_as_of) == "2025-06-04"
    assert "4x ConnectX-7 IB NDR 400Gb/s" in o.network_source
    assert kb.runtime.networks["infiniband-400"].gb_s == 400 / 8
    _write(tmp_path, "p.yaml", yaml.safe_load((ROOT / "tests/data/product63/audit-gb200-100.yaml").read_text()))
    d = json.loads(cli("audit", "p.yaml", "--format", "json", cwd=tmp_path).stdout)
    (net,) = [a for a in d["assumptions"] if a["field"] == "hardware.network"]
    assert net["value"] == "infiniband-400" and net["values"]["provider"] == "coreweave"
    assert "NET-SLOW-NETWORK" not in {f["rule"] for f in d["findings"]}


def test_a_network_source_comes_with_its_date_and_network():
    from gpuwise.knowledge.schema.clouds import GpuHourPrice

    base = {"provider": "x", "gpu": "gb200", "usd_per_gpu_hour": 10.5, "as_of": "2026-09-20", "source": "a page"}
    GpuHourPrice.model_validate({**base, "network": "infiniband-400", "network_source": "a system description",
                                 "network_as_of": "2025-06-04"})
    for bad in ({"network": "infiniband-400", "network_source": "a system description"},
                {"network_source": "a system description", "network_as_of": "2025-06-04"}):
        with pytest.raises(ValueError, match="network_source and network_as_of"):
            GpuHourPrice.model_validate({**base, **bad})


# ---------------------------------------------------------------- 4. --currency in any case, on every command
@pytest.mark.parametrize("argv", [("recommend", "examples/lora-70b.yaml"), ("estimate", "examples/lora-70b.yaml",
                                  "--gpu", "4090"), ("audit", "tests/rules/TCO-UNIT-PRICE-ABOVE-MARKET/input.yaml"),
                                  ("plan", "examples/plan-team-4090.yaml"), ("gpus",)])
def test_a_currency_code_in_any_case_is_that_code(argv):
    # 'cny' was "invalid choice: 'cny' ... did you mean CNY?" everywhere but `prices`: the report is the one
    # `--currency CNY` writes, its footer saying the code in capitals
    lower, upper = cli(*argv, "--currency", " cny"), cli(*argv, "--currency", "CNY")
    assert lower.returncode == upper.returncode and lower.returncode in (0, 1), lower.stderr
    assert lower.stdout == upper.stdout and "CNY" in lower.stdout


@pytest.mark.parametrize("given, close", [("usdd", "did you mean USD?"), ("RMB", "did you mean CNY?"),
                                          ("EUR", "choose from 'USD', 'CNY'")])
def test_an_unknown_code_is_one_line_with_its_close_match(given, close):
    r = cli("recommend", "examples/lora-70b.yaml", "--currency", given)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and close in r.stderr, r.stderr
