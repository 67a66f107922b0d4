"""The leftovers of session 43's plan and message notes (branch planleft59), each failing before its fix.

* SRV-COPIES-BEYOND-RATE read 'the 5.00 requests/s asked need 1 of the copies, so the GPUs of the others are paid
  for' at one copy needed: the copies needed and the copies beside them are worded for one and for several, in
  English and in Chinese (rate.copies_needed*, rate.copies_spare* in reports/messages.yaml).
* A price written in another currency than its row's ('¥15/h' in a USD row of a price CSV, '¥250000' for a
  prices.yaml point in USD) was refused as 'not a number' (pydantic's 'Input should be a valid number' in an
  overlay): the refusal names the currency given and the row's, exit 2.
* A string past its length in a --rules rule book or a --knowledge file kept pydantic's 'String should have at
  most N characters': it is said as an input file's field says it (the limit and the length given), through the
  one helper (inputs/error_words.too_long_text).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import yaml

from .clirun import ROOT, text_of
from .clirun import gpuwise as cli

COPIES_RULE = ROOT / "tests" / "rules" / "SRV-COPIES-BEYOND-RATE" / "input.yaml"  # 4 x H100, one copy a GPU, 5 r/s
MI355X = ROOT / "tests" / "data" / "review54" / "proposal-gptoss-mi355x-rent.yaml"  # 8 x MI355X, 12 requests/s
PYDANTIC = ("Input should be", "String should have", "valid number")


def _finding(tmp_path: Path, proposal: str, *more: str) -> tuple[dict, str]:
    r = cli("audit", proposal, "--format", "json", cwd=tmp_path)
    d = json.loads(r.stdout)
    (f,) = [x for x in d["findings"] if x["rule"] == "SRV-COPIES-BEYOND-RATE"]
    return f, text_of(tmp_path, "audit", proposal, *more)


def _count(tmp_path: Path, src: Path, n: int) -> str:
    doc = yaml.safe_load(src.read_text(encoding="utf-8"))
    doc["hardware"]["count"] = n
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    return str(tmp_path / "p.yaml")


def test_copies_beyond_the_rate_at_one_copy_needed(tmp_path):
    """The rule's own case: 4 H100s, a copy on each; one copy serves 5 requests/s within p95 1 s / 50 ms (the
    rule's expected.yaml), so ceil(5 x 4 / max_requests_per_s) = 1 copy is needed and 3 are beside it. Before:
    'need 1 of the copies, so the GPUs of the others are paid for'."""
    f, en = _finding(tmp_path, str(COPIES_RULE))
    ev = f["evidence"]
    assert ev["serving_copies"] == 4 and ev["copies_for_rate"] == math.ceil(5 * 4 / ev["max_requests_per_s"]) == 1
    assert "asked need one of the copies, so the GPUs of the other 3 are paid for a rate nobody asked for" in en
    assert "need 1 of the copies" not in en and "of the others" not in en
    zh = "".join(text_of(tmp_path, "audit", str(COPIES_RULE), "--lang", "zh").split())
    assert "只需其中1个副本，其余3个副本的GPU是在为无人要求的请求速率付费" in zh


def test_copies_beyond_the_rate_at_one_copy_spare(tmp_path):
    """Two H100s for the same service: one copy needed, and one beside it -- 'the other copy'."""
    f, en = _finding(tmp_path, _count(tmp_path, COPIES_RULE, 2))
    assert (f["evidence"]["serving_copies"], f["evidence"]["copies_for_rate"]) == (2, 1)
    assert "need one of the copies, so the GPUs of the other copy are paid for" in en
    zh = "".join(text_of(tmp_path, "audit", _count(tmp_path, COPIES_RULE, 2), "--lang", "zh").split())
    assert "只需其中1个副本，另外1个副本的GPU是在为无人要求的请求速率付费" in zh


def test_copies_beyond_the_rate_at_several(tmp_path):
    """review54's 8 MI355X copies of gpt-oss-120b at 12 requests/s: ceil(12 x 8 / 92.65) = 2 needed (test_review54),
    6 beside them."""
    f, en = _finding(tmp_path, str(MI355X))
    assert (f["evidence"]["serving_copies"], f["evidence"]["copies_for_rate"]) == (8, 2)
    assert "asked need 2 of the copies, so the GPUs of the other 6 are paid for a rate nobody asked for" in en
    zh = "".join(text_of(tmp_path, "audit", str(MI355X), "--lang", "zh").split())
    assert "只需其中2个副本，其余6个副本的GPU是在为无人要求的请求速率付费" in zh


# ----------------------------------------------------------------------------- a price in another currency
def _import(tmp_path: Path, csv: str, *more: str):
    (tmp_path / "c.csv").write_text(csv, encoding="utf-8")
    r = cli("prices", "import", "c.csv", "-o", "ov", "--provider", "acme", "--as-of", "2026-11-30", *more,
            cwd=tmp_path)
    assert "Traceback" not in r.stderr
    return r, r.stdout + r.stderr


@pytest.mark.parametrize(("csv", "said"), [
    # the gpuwise layout's currency column absent: USD (the default)
    ("gpu,gpus,price\nH100,8,¥15/h\n", "price '¥15/h' is in CNY, and this row's prices are in USD: write the price "
                                      "in USD, or give the row's currency as CNY"),
    ("gpu,gpus,price,currency\nH100,8,$2/h,CNY\n", "price '$2/h' is in USD, and this row's prices are in CNY: write "
                                                   "the price in CNY, or give the row's currency as USD"),
    ("gpu,gpus,price,spot_price,currency\nH100,8,15,RMB 6,USD\n",
     "spot_price 'RMB 6' is in CNY, and this row's prices are in USD"),
])
def test_a_price_csv_cell_in_another_currency_names_both(tmp_path, csv, said):
    r, out = _import(tmp_path, csv)
    assert r.returncode == 2 and f"line 2: H100: {said}" in out and "is not a number" not in out, out
    assert not (tmp_path / "ov").exists()


def test_a_price_csv_cell_in_another_currency_in_chinese(tmp_path):
    r, out = _import(tmp_path, "gpu,gpus,price\nH100,8,¥15/h\n", "--lang", "zh")
    assert r.returncode == 2
    assert "price '¥15/h' 以 CNY 计，而此行的价格以 USD 计：请以 USD 写价格，或把此行的 currency 写为 CNY" in out, out


def test_a_price_in_the_rows_currency_is_still_offered_its_number(tmp_path):
    r, out = _import(tmp_path, "gpu,gpus,price,currency\nH100,8,¥15/h,CNY\n")
    assert r.returncode == 2 and "price '¥15/h' is not a number: write 15" in out, out


def _overlay(tmp_path: Path, name: str, body: str) -> str:
    kb = tmp_path / "kb"
    kb.mkdir(exist_ok=True)
    (kb / name).write_text(body, encoding="utf-8")
    return str(kb)


POINT = "{amount: %s, %scondition: new, unit: card, kind: street, as_of: 2026-02-01, source: a dealer's quote}"


@pytest.mark.parametrize(("name", "body", "said"), [
    ("prices.yaml", "gpus:\n  - id: rtx-4090\n    prices:\n      - " + POINT % ("'¥25000'", ""),
     "(id rtx-4090).prices[0]: amount: '¥25000' is in CNY, and this entry's prices are in USD: write the amount in "
     "USD, or give currency: CNY"),
    ("prices.yaml", "gpus:\n  - id: rtx-4090\n    prices:\n      - " + POINT % ("'$2500'", "currency: CNY, "),
     "(id rtx-4090).prices[0]: amount: '$2500' is in USD, and this entry's prices are in CNY: write the amount in "
     "CNY, or give currency: USD"),
    ("clouds.yaml", "gpu_hour_prices:\n  - {provider: runpod, gpu: h100-80gb-sxm, usd_per_gpu_hour: '¥15/h', "
     "max_gpus: 8, as_of: 2026-09-25, source: a price page}\n",
     "gpu_hour_prices[0]: usd_per_gpu_hour: '¥15/h' is in CNY, and this entry's prices are in USD: write the amount "
     "in USD, or give it as cny_per_gpu_hour"),
])
def test_a_knowledge_price_in_another_currency_names_both(tmp_path, name, body, said):
    """Before: 'Input should be a valid number, unable to parse string as a number (got '¥25000')'."""
    kb = _overlay(tmp_path, name, "schema_version: 1\n" + body)
    r = cli("prices", "--gpu", "rtx-4090", "--knowledge", kb, cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and said in r.stderr, r.stderr
    assert not any(w in r.stderr for w in PYDANTIC), r.stderr
    zh = cli("prices", "--gpu", "rtx-4090", "--knowledge", kb, "--lang", "zh", cwd=tmp_path)
    assert zh.returncode == 2 and "以 CNY 计" in zh.stderr and "计：请以" in zh.stderr, zh.stderr


# ----------------------------------------------------------------------------- an over-long string
def _house(tmp_path: Path, rule_id: str = "HOUSE-X", message: str = "{gpu_name} is out") -> str:
    d = tmp_path / "house"
    d.mkdir(exist_ok=True)
    (d / "h.yaml").write_text(
        f"schema_version: 1\nruleset: house\nstep: memory\nrules:\n  - id: {rule_id}\n    title: A house rule\n"
        "    fact: candidate\n    when:\n      - [need_gb, \">\", 1]\n    then:\n      action: reject\n"
        f"      topic: compatibility\n      message: {json.dumps(message)}\n"
        "    rationale: \"Because the team says so.\"\n    source: \"ENG-1\"\n", encoding="utf-8")
    return str(d)


@pytest.mark.parametrize(("change", "said", "zh"), [
    ({"message": "{gpu_name} " + "x" * 2_500}, "rule HOUSE-X.then.message: must have at most 2,000 characters "
     "(2,511 given)", "至多 2,000 个字符"),
    ({"rule_id": "HOUSE-" + "X" * 94}, "rule #0.id: must have at most 64 characters (100 given)",
     "至多 64 个字符（给出了 100 个）"),
])
def test_an_over_long_string_in_a_rule_book(tmp_path, change, said, zh):
    """Before: 'then.message: String should have at most 2000 characters'."""
    house = _house(tmp_path, **change)
    r = cli("recommend", str(ROOT / "examples" / "qlora-70b-4090.yaml"), "--rules", house, cwd=tmp_path)
    assert r.returncode == 2 and said in r.stderr and "String should have" not in r.stderr, r.stderr
    z = cli("recommend", str(ROOT / "examples" / "qlora-70b-4090.yaml"), "--rules", house, "--lang", "zh",
            cwd=tmp_path)
    assert z.returncode == 2 and zh in z.stderr, z.stderr


def test_an_over_long_string_in_a_knowledge_file_is_said_as_an_input_files():
    """The loader's refusal of an over-long string (here a schema with a tighter bound than the built-in ones' 500
    and 20,000: a name of at most 10 characters) says the limit and the length given, as an input file's field does,
    with the other problems counted."""
    from pydantic import Field

    from gpuwise.errors import KnowledgeError
    from gpuwise.knowledge import validate_file
    from gpuwise.knowledge.schema.base import Strict

    class Named(Strict):
        schema_version: int
        name: str = Field(max_length=10)
        other: int = 0

    with pytest.raises(KnowledgeError) as one:
        validate_file(Path("k.yaml"), Named, {"schema_version": 1, "name": "x" * 5_000})
    assert str(one.value) == "k.yaml: name: must have at most 10 characters (5,000 given)"
    with pytest.raises(KnowledgeError) as two:
        validate_file(Path("k.yaml"), Named, {"schema_version": 1, "name": "x" * 5_000, "other": "many"})
    assert str(two.value) == "k.yaml: name: must have at most 10 characters (5,000 given); 1 more problem"


# ----------------------------------------------------------------------------- the plan (gpuwise plan)
PLANS = ROOT / "tests" / "data" / "plans"
T4_FIXTURE = PLANS / "t4-owned-two-servers.yaml"  # 8 owned T4s in two servers of 4, Llama 2 13B fp16 (plant4_58)
BUY_4090 = PLANS / "4090-one-a-server-buy.yaml"
G4DN_XLARGE = 0.526  # USD an hour, on demand, us-east-1 (knowledge/clouds.yaml g4dn.xlarge, AWS's price page)
T4_TDP_W, SERVER_HOST_W = 70, 410  # knowledge/gpus.yaml t4 power.tdp_w; knowledge/tco.yaml host_power_w_per_gpu
RTX_4090_CARD = 3159.99  # knowledge/prices.yaml rtx-4090, new, street, 2025-07-22 (UCT: Amazon US lowest new)
CONSUMER_HOST = 800.0  # knowledge/tco.yaml server_share_usd_per_gpu_consumer, the host a bought card sits in
HOURS_PER_MONTH = 730


def _plan_json(tmp_path: Path, doc: dict, *more: str) -> dict:
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = cli("plan", "plan.yaml", "--format", "json", *more, cwd=tmp_path)
    assert "Traceback" not in r.stderr, r.stderr
    return json.loads(r.stdout)


def _option(d: dict, gpu: str) -> dict:
    (o,) = [x for x in d["options"] if x["gpu"] == gpu]
    return o


def test_the_rented_copy_s_sizes_are_given_beside_the_owned_copy_s(tmp_path):
    """plant4_58's T4 plan: the owned copy is tried at 2 and 4 T4s in a server (copy_sizes), the rented one, on
    one-T4 g4dn.xlarge instances over their network, at 2 and 4 instances in pipeline stages -- which copy_sizes did
    not give (its 4 was rent_count, 202.0 tokens/s its rent_capacity, nothing said of the 2 it was chosen against).
    Now options[].rent_copy_sizes lists them, each with its copies at the peak month and their rent: 128 tokens/s
    need ceil(128 / capacity) copies; 2 instances a copy: 5 copies on 10 instances, 10 x $0.526 = $5.26 an hour;
    4 a copy: 1 copy, 4 x $0.526 = $2.104."""
    d = _plan_json(tmp_path, yaml.safe_load(T4_FIXTURE.read_text(encoding="utf-8")))
    o = _option(d, "t4")
    assert [c["count"] for c in o["copy_sizes"]] == [2, 4] and all(c["rent_per_hour"] is None for c in o["copy_sizes"])
    rented = {c["count"]: c for c in o["rent_copy_sizes"]}  # before: no such key
    assert set(rented) == {2, 4} and o["rent_count"] == 4
    for n, c in rented.items():
        assert c["layout"] == f"{n} pipeline stages"
        assert c["copies"] == math.ceil(0.5 * 256 / c["capacity"]) and c["gpus"] == c["copies"] * n
        assert c["rent_per_hour"] == pytest.approx(c["gpus"] * G4DN_XLARGE)
    assert (rented[2]["copies"], rented[2]["gpus"], rented[4]["copies"]) == (5, 10, 1)
    assert rented[4]["capacity"] == pytest.approx(o["rent_capacity"], rel=1e-12)
    assert rented[2]["rent_per_hour"] == pytest.approx(5.26) and rented[4]["rent_per_hour"] == pytest.approx(2.104)


def test_the_full_page_labels_the_owned_and_the_rented_copy_sizes(tmp_path):
    """The full page's options table (markdown: a row a line): the count column lists the owned or bought copy's
    sizes, labelled so where the rented copy is sized apart; the provider column the rented copy's, with theirs."""
    r = cli("plan", str(T4_FIXTURE), "--detail", "full", "--format", "md", cwd=tmp_path)
    page = " ".join(r.stdout.split())
    assert ("4 on GPUs owned or bought, the size whose copies carry the load for least (at the peak month: 2 a copy, "
            "50.2 tokens/s: 3 on 6 GPUs; 4 a copy, 498.6 tokens/s: 1 on 4 GPUs)") in page
    assert ("aws: a rented copy on 4 GPUs, 202.0 tokens/s, the size whose rented copies cost least (at the peak "
            "month: 2 a copy, 26.4 tokens/s: 5 on 10 GPUs, $5.26 an hour; 4 a copy, 202.0 tokens/s: 1 on 4 GPUs, "
            "$2.10 an hour)") in page
    zh = " ".join(cli("plan", str(T4_FIXTURE), "--detail", "full", "--format", "md", "--lang", "zh",
                      cwd=tmp_path).stdout.split())
    assert "自有或购买的 GPU 上每份 4 块，承载该负载花费最少的副本规模" in zh and "租用副本花费最少的规模" in zh
    assert "共 6 块 GPU；每副本 4 块" in zh and "GPU; " not in zh  # the sizes joined as Chinese clauses are


def test_outgrows_counts_the_growth_at_the_rented_copy_s_size(tmp_path):
    """The T4 plan at 5 requests/s (1,280 output tokens/s), renting beside the 8 owned T4s and buying none: the 8
    owned carry 2 copies of 4 (tensor parallel 4, 498.6 tokens/s each, 997.2); the rest, 282.8 tokens/s, is rented
    as copies of 4 g4dn.xlarge in 4 pipeline stages (202.0 each): 2 copies, 8 instances -- 16 T4s, as the plan
    places them. PLAN-SERVING-OUTGROWS said 12, ceil(1,280 / 498.6) = 3 copies of the owned size.
    The plan: the 8 owned T4s' power, 8 x (70 + 410) W x $0.15 a kWh x 730 h x 3 = $1,261.44, and 8 instances
    rented, 8 x $0.526 x 730 x 3 = $9,215.52: $10,476.96."""
    doc = yaml.safe_load(T4_FIXTURE.read_text(encoding="utf-8"))
    doc["horizon_months"] = 3
    doc["workloads"][0]["targets"] = {"requests_per_s": 5}
    doc["constraints"]["acquisition"] = "rent"
    d = _plan_json(tmp_path, doc)
    o = _option(d, "t4")
    owned_carry = 2 * o["capacity"]
    rented = math.ceil((5 * 256 - owned_carry) / o["rent_capacity"])
    assert rented == 2 and o["rent_count"] == 4
    for month in d["months"]:
        assert sorted((p["acquisition"], p["count"], p["copies"]) for p in month["placements"]) == [
            ("owned", 8, 2), ("rent", 8, 2)]
    (f,) = [f for f in d["findings"] if f["rule"] == "PLAN-SERVING-OUTGROWS"]
    assert f["evidence"]["outgrows_gpus"] == 8 + rented * 4 == 16  # before: 12
    assert "from month 1 the load needs 16 NVIDIA T4 16GB, more than the 8 owned" in f["message"]
    assert d["total"] == pytest.approx(8 * (T4_TDP_W + SERVER_HOST_W) / 1000 * 0.15 * HOURS_PER_MONTH * 3
                                       + 8 * G4DN_XLARGE * HOURS_PER_MONTH * 3, abs=0.01)
    assert d["total"] == pytest.approx(10476.96, abs=0.01)


def test_outgrows_counts_the_owned_copies_at_their_own_capacity(tmp_path):
    """4 owned RTX 4090s one to a server: a copy of Llama 3.1 70B int4 on 2 spans two servers and carries
    own_capacity (about 59.1 tokens/s) where tensor parallel 2 in one server carries 86.1. 0.5 requests/s x 300 =
    150 tokens/s: the 2 owned copies carry 118.1, so the plan rents a copy beside them (RunPod, a pod holds both
    GPUs). PLAN-SERVING-OUTGROWS was not said at all: ceil(150 / 86.1) x 2 = 4 GPUs, not more than the 4 owned.
    Now: the 4 owned and ceil((150 - 118.1) / 86.1) = 1 rented copy of 2, 6 GPUs."""
    doc = yaml.safe_load(BUY_4090.read_text(encoding="utf-8"))
    doc.update(horizon_months=3, owned=[{"gpu": "RTX 4090", "count": 4, "servers": 4, "hosting": "office"}])
    doc["workloads"][0]["targets"]["requests_per_s"] = 0.5
    doc["constraints"] = {"acquisition": "rent", "gpus": ["rtx-4090"]}
    d = _plan_json(tmp_path, doc)
    o = _option(d, "rtx-4090")
    assert o["count"] == 2 and 0 < o["own_capacity"] < 0.75 * o["capacity"]
    assert 2 * o["own_capacity"] < 150 <= 2 * o["capacity"]
    extra = math.ceil((150 - 2 * o["own_capacity"]) / o["capacity"])
    for month in d["months"]:
        assert sorted((p["acquisition"], p["count"]) for p in month["placements"]) == [("owned", 4), ("rent", 2)]
    (f,) = [f for f in d["findings"] if f["rule"] == "PLAN-SERVING-OUTGROWS"]  # before: none
    assert f["evidence"]["outgrows_gpus"] == 4 + 2 * extra == 6 and f["evidence"]["outgrows_month"] == 1


def test_a_copy_on_bought_gpus_counts_at_its_own_capacity(tmp_path):
    """tests/data/plans/4090-one-a-server-buy.yaml: the owned copy spans the two owned servers (own_capacity, about
    59.1 tokens/s); a copy on 4090s bought sits in one machine bought (the cards gather in a machine that holds
    them), tensor parallel 2 there, about 86.1. The plan counted bought copies at the owned figure: 11 copies for
    600 tokens/s, 20 4090s bought ($79,199.80). Now the bought copies carry capacity: ceil(600 / 86.1) = 7 copies
    on 14 GPUs bought, 14 x ($3,159.99 + $800 host share) = $55,439.86, and the owned copy adds nothing the 7 do
    not carry (59.1 + 6 x 86.1 = 575.5 < 600)."""
    d = _plan_json(tmp_path, yaml.safe_load(BUY_4090.read_text(encoding="utf-8")))
    o = _option(d, "rtx-4090")
    assert o["count"] == 2 and o["own_capacity"] < 0.75 * o["capacity"]
    copies = math.ceil(600 / o["capacity"])
    assert copies == 7 and o["own_capacity"] + (copies - 1) * o["capacity"] < 600
    # plan64: the 14 cards in desktops of 4 and one of 2 (3 x 4 + 2), as recommend prices that many cards (one
    # host's 250 W over its cards), the same capex
    ps = d["purchases"]
    assert sorted((p["units"], p["unit_gpus"]) for p in ps) == [(1, 2), (3, 4)]
    assert {(p["month"], p["arrives"]) for p in ps} == {(1, 2)} and sum(p["count"] for p in ps) == 2 * copies  # was 20
    amount = sum(p["amount"] for p in ps)
    assert amount == pytest.approx(2 * copies * (RTX_4090_CARD + CONSUMER_HOST), abs=0.01)
    assert amount == pytest.approx(55439.86, abs=0.01)
    assert d["unplaced"][0]["months"] == [1]  # before the delivery: the owned copy alone
    for month in d["months"][1:]:
        assert [(x["acquisition"], x["count"], x["copies"]) for x in month["placements"]] == [("buy", 14, 7)]
        assert sum(x["copies"] * o["capacity"] for x in month["placements"]) >= 600
