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
    ({"message": "{gpu_name} " + "x" * 2_500}, "rule HOUSE-X.then.message: must have at most 2000 characters "
     "(2,511 given)", "至多 2000 个字符"),
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
    """No built-in knowledge schema bounds a string's length yet; the loader's refusal of one (a schema with a
    bound: a name of at most 10 characters) says the limit and the length given, as an input file's field does,
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
