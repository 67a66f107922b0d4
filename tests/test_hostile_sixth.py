"""A sixth round of hostile inputs (issue 26 items 5-6).

Numbers: every file gpuwise reads takes numbers in plain decimal digits, bare or quoted. YAML 1.1
read ``0x10`` as 16, ``0b11`` as 3 and ``1_6`` as 16 (YAML 1.2, JSON and CSV readers take them as
text); Python's ``float()`` read a price CSV's fullwidth ``１６`` as 16; ``1:20`` is the base-60
number 80 to YAML 1.1. Each is now refused by file and field, saying what it would have meant
(exit 2), in requirements, proposals, plans, policy and knowledge overlays, house rules and price
CSVs alike; ``010`` stays 10 and a quoted plain number (``'0.2'``) is that number everywhere a
data file has a number field (a rule's condition compares text as text: refused there, as before).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gpuwise.inputs.notation import meant, number_text
from gpuwise.yamlio import parse_yaml
from tests.clirun import gpuwise
from tests.test_hostile_more import one_line

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest: one question's audits share its search

ROOT = Path(__file__).parent.parent
EX = ROOT / "examples"

# text -> what the one line says it would have meant (worked by hand: 0x10 = 16, 0b11 = 3,
# 0o17 = 8 + 7 = 15, 1:20 = 60 + 20 = 80, fullwidth １６ = 16, Arabic-Indic ٣ = 3)
MEANT = {
    "0x10": "'0x10' is a hexadecimal number (16 in decimal)",
    "0b11": "'0b11' is a binary number (3 in decimal)",
    "0o17": "'0o17' is an octal number (15 in decimal)",
    "-0x1F": "'-0x1F' is a hexadecimal number (-31 in decimal)",
    "1_000": "'1_000' has '_' in a number: write 1000",
    "1_6": "'1_6' has '_' in a number: write 16",
    "1_0e1": "'1_0e1' has '_' in a number: write 10e1",
    "1:20": "'1:20' is a time or a ratio, not a number (YAML 1.1 reads it as 80, in base 60)",
    "1:02:03": "'1:02:03' is a time or a ratio, not a number (YAML 1.1 reads it as 3723, in base 60)",
    "１６": "'１６' has digits other than 0-9 (U+FF11 FULLWIDTH DIGIT ONE): write 16",
    "０.５": "'０.５' has digits other than 0-9 (U+FF10 FULLWIDTH DIGIT ZERO): write 0.5",
    "٣": "'٣' has digits other than 0-9 (U+0663 ARABIC-INDIC DIGIT THREE): write 3",
}


@pytest.mark.parametrize("text", sorted(MEANT))
def test_a_number_in_another_notation_says_what_it_meant(text: str) -> None:
    said = meant(text)
    assert said is not None and str(said).startswith(MEANT[text])
    with pytest.raises(ValueError):
        number_text(text)


@pytest.mark.parametrize("text, value", [("16", 16.0), (" 0.2 ", 0.2), ("+8", 8.0), ("1.5e3", 1500.0),
                                         (".5", 0.5), ("010", 10.0)])
def test_a_plain_decimal_number_is_read(text: str, value: float) -> None:
    assert meant(text) is None and number_text(text) == value


@pytest.mark.parametrize("text", ["lots", "v1.2", "H100", "0x", "1-2", "a_b", "2024-03"])
def test_text_that_is_no_number_is_left_alone(text: str) -> None:
    assert meant(text) is None and number_text(text) is None


@pytest.mark.parametrize("text", ["0x10", "0b11", "1_000", "1_000.5", "+0x10", "1:20", "1_0e3"])
def test_yaml_keeps_other_notations_as_text(tmp_path: Path, text: str) -> None:
    """YAML 1.2's reading, not YAML 1.1's 16, 3, 1000, 80: the field then says what they meant."""
    assert parse_yaml(f"a: {text}\n".encode(), tmp_path / "x.yaml") == {"a": text}


@pytest.mark.parametrize("text, value", [("010", 10), ("08", "08"), ("16", 16), ("0.5", 0.5), (".inf", float("inf"))])
def test_yaml_decimal_numbers_are_unchanged(tmp_path: Path, text: str, value: object) -> None:
    assert parse_yaml(f"a: {text}\n".encode(), tmp_path / "x.yaml") == {"a": value}


def _requirements(tmp_path: Path, old: str, new: str) -> str:
    text = (EX / "lora-70b.yaml").read_text()
    assert old in text
    (tmp_path / "r.yaml").write_text(text.replace(old, new))
    return "r.yaml"


@pytest.mark.parametrize("field, old", [("constraints.max_gpus", "max_gpus: 16"),
                                        ("workload.seq_len", "seq_len: 4096"),
                                        ("constraints.budget_usd", "budget_usd: 20000")])
@pytest.mark.parametrize("text", ["0x10", "0b11", "1_000", "1:20", "'１６'", "'1_6'", "'0x10'"])
def test_requirements_refuse_other_notations_by_field(tmp_path: Path, field: str, old: str, text: str) -> None:
    """Each was read as 16, 3, 1000 GPUs, tokens or dollars (exit 0), or refused without saying
    what it meant."""
    key = old.split(":")[0]
    r = gpuwise("recommend", _requirements(tmp_path, old, f"{key}: {text}"), "-o", "o.json", cwd=tmp_path)
    bare = text.strip("'")
    one_line(r, f"r.yaml: {field}: ", MEANT.get(bare, bare))
    assert not (tmp_path / "o.json").exists()


def test_a_proposal_list_and_a_plan_count_refuse_them_too(tmp_path: Path) -> None:
    shutil.copytree(EX / "nvidia-smi", tmp_path / "nvidia-smi")
    text = (EX / "proposal-used-3090-mining.yaml").read_text().replace("[30, 85, 40, 90]", "[30, 0x55, 40, 90]")
    (tmp_path / "p.yaml").write_text(text)
    one_line(gpuwise("audit", "p.yaml", cwd=tmp_path), "p.yaml: used_cards[0].fan_speed_percent: ",
             "'0x55' is a hexadecimal number (85 in decimal)")
    plan = (EX / "plan-team-4090.yaml").read_text().replace("count: 8", "count: '８'")
    (tmp_path / "plan.yaml").write_text(plan)
    one_line(gpuwise("plan", "plan.yaml", cwd=tmp_path), "plan.yaml: owned[0].count: ",
             "'８' has digits other than 0-9 (U+FF18 FULLWIDTH DIGIT EIGHT): write 8")


@pytest.mark.parametrize("body, said", [
    ("scaling_efficiency_blocker: '0x10'\n", MEANT["0x10"]),
    ("scaling_efficiency_blocker: '０.５'\n", MEANT["０.５"]),
    ("scaling_efficiency_blocker: 1_0\n", "'1_0' has '_' in a number: write 10"),
    ("policy:\n  value_of_a_day_usd:\n    value: '1:20'\n", MEANT["1:20"]),
    ("policy:\n  value_of_a_day_usd:\n    value: 0b11\n", MEANT["0b11"]),
])
def test_a_policy_overlay_refuses_them_by_name(tmp_path: Path, body: str, said: str) -> None:
    """Quoted fullwidth digits and quoted hexadecimal were read (``'０.５'`` as 0.5, exit 0)."""
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "policy.yaml").write_text(body)
    name = "value_of_a_day_usd" if "value_of" in body else "scaling_efficiency_blocker"
    one_line(gpuwise("recommend", str(EX / "lora-70b.yaml"), "--knowledge", "kb", cwd=tmp_path),
             f"kb/policy.yaml: {name}: {said}")


def test_a_quoted_plain_number_in_a_policy_overlay_is_that_number(tmp_path: Path) -> None:
    """The decision: a quoted plain decimal is the number in every data file (as pydantic reads a
    requirements file's ``max_gpus: '16'``); value_of_a_day_usd '2500' and 2500 give the same answer."""
    answers = []
    for i, value in enumerate(["2500", "'2500'"]):
        kb = tmp_path / f"kb{i}"
        kb.mkdir()
        (kb / "policy.yaml").write_text(f"value_of_a_day_usd: {value}\n")
        r = gpuwise("recommend", str(EX / "lora-70b.yaml"), "--knowledge", str(kb), "--format", "json",
                    cwd=tmp_path)
        assert r.returncode in (0, 1), r.stderr
        answers.append(json.loads(r.stdout)["recommendation"]["ledger"]["total"])
    assert answers[0] == answers[1]


def test_a_knowledge_overlay_refuses_them_by_entry(tmp_path: Path) -> None:
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "tco.yaml").write_text(
        "values:\n  usd_cny:\n    value: '７.１'\n    unit: CNY per USD\n    source: a bank's rate page\n"
        "    as_of: 2026-11-01\n")
    one_line(gpuwise("recommend", str(EX / "lora-70b.yaml"), "--knowledge", "kb", cwd=tmp_path),
             "kb/tco.yaml: values.usd_cny: value: '７.１' has digits other than 0-9 (U+FF17 FULLWIDTH DIGIT SEVEN): "
             "write 7.1")


@pytest.mark.parametrize("value, said", [("0x10", MEANT["0x10"]), ("1_000", MEANT["1_000"]),
                                         ("'１６'", MEANT["１６"])])
def test_a_house_rule_condition_says_what_it_meant(tmp_path: Path, value: str, said: str) -> None:
    d = tmp_path / "house"
    d.mkdir()
    (d / "h.yaml").write_text(
        "schema_version: 1\nruleset: house\nstep: memory\nrules:\n  - id: HOUSE-X\n    title: A house rule\n"
        f"    fact: candidate\n    when:\n      - [need_gb, \">\", {value}]\n    then:\n      action: reject\n"
        "      topic: compatibility\n      message: \"{gpu_name} needs too much\"\n"
        "    rationale: \"Because the team says so.\"\n    source: \"ENG-1\"\n")
    one_line(gpuwise("recommend", str(EX / "lora-70b.yaml"), "--rules", str(d), cwd=tmp_path),
             "h.yaml: rule HOUSE-X: ", said)


def test_a_price_csv_refuses_other_digits_row_by_row(tmp_path: Path) -> None:
    """``float()`` read fullwidth and Arabic-Indic digits and ``2_0`` as 8 GPUs or $20 an hour."""
    (tmp_path / "p.csv").write_text("gpu,gpus,price\nH100 80GB SXM,８,20.0\nH100 80GB SXM,8,٢٠\n"
                                    "H100 80GB SXM,8,2_0\nH100 80GB SXM,8, inf\nH100 80GB SXM,8,20\n")
    r = gpuwise("prices", "import", "p.csv", "--provider", "mycloud", "-o", "ov", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "imported 1 offer (" in r.stdout and "could not use 4 rows" in r.stdout
    for line in ("line 2: H100 80GB SXM: gpu count: '８' has digits other than 0-9 (U+FF18 FULLWIDTH DIGIT EIGHT): "
                 "write 8",
                 "line 3: H100 80GB SXM: price: '٢٠' has digits other than 0-9 (U+0662 ARABIC-INDIC DIGIT TWO): "
                 "write 20",
                 "line 4: H100 80GB SXM: price: '2_0' has '_' in a number: write 20",
                 "line 5: H100 80GB SXM: price is not a finite number"):
        assert line in r.stdout, r.stdout
    assert "gpus: 8\n  usd_per_hour: 20.0\n" in (tmp_path / "ov" / "clouds.yaml").read_text()  # line 6 only


# ----------------------------------------------------------------------------- used cards' memory
def test_each_memory_throttle_point_has_a_source() -> None:
    """Issue 26 item 6: a used card's memory junction temperature is judged against its memory
    type's throttle point (policy ``<type>_memory_throttle_c``, read by gpuwise/decide/audit.py).
    GDDR6X's 110 deg C is sourced (Igor's Lab, the chip's own junction sensor), HBM2e's 95 deg C is
    the limit NVIDIA's driver gives an A100 (round 14), HBM3's 95 deg C the one it gives an H800
    (round 16); no primary source was found for GDDR6, GDDR7 or HBM2/HBM3e, so none is set, and the
    policy says so."""
    from gpuwise.knowledge import load

    kb = load()
    points = {name: v for name, v in kb.policy.items() if name.endswith("_memory_throttle_c")}
    assert set(points) == {"gddr6x_memory_throttle_c", "hbm2e_memory_throttle_c", "hbm3_memory_throttle_c"}
    gddr6x = points["gddr6x_memory_throttle_c"]
    assert gddr6x.value == 110 and "igorslab.de" in gddr6x.source and "no primary source" in gddr6x.rationale
    kinds = {g.memory.type.lower() for g in kb.gpus.values()}
    assert {"gddr6x", "gddr6", "gddr7", "hbm3"} <= kinds  # the types a report can be judged for


# ----------------------------------------------------------------------------- round six: seller files, CSVs
@pytest.mark.parametrize("reading", ["１０８ C", "٩٠ C", "１０８ °C"])
def test_a_retyped_report_with_other_digits_is_refused_by_field(tmp_path: Path, reading: str) -> None:
    """``<memory_temp>１０８ C`` (fullwidth, as a CJK input method types it) was read as 108 C, and
    Arabic-Indic ٩٠ as 90: nvidia-smi writes ASCII digits only, so such a report was retyped and
    is refused by its field, as ``0x6C C`` is."""
    from tests.test_hostile_fourth import SMI, _seller

    xml = SMI.read_text().replace("<memory_temp>N/A</memory_temp>", f"<memory_temp>{reading}</memory_temp>")
    one_line(gpuwise("audit", str(_seller(tmp_path, xml))), "used_cards[0].nvidia_smi (r.xml)",
             f"<memory_temp> reads '{reading.replace('°C', 'C').replace(' °', ' ')}': not a number as nvidia-smi "
             "writes it")


def test_a_price_column_given_twice_is_refused(tmp_path: Path) -> None:
    """``price,price``: each row's price was the last column's (30, not 20), exit 0."""
    (tmp_path / "p.csv").write_text("gpu,gpus,price,price\nH100 80GB SXM,8,20,30\n")
    one_line(gpuwise("prices", "import", "p.csv", "--provider", "x", "-o", "ov", cwd=tmp_path),
             "p.csv: column 'price' is in the header twice")
    assert not (tmp_path / "ov").exists()


@pytest.mark.parametrize("raw, words", [
    ("gpu,gpus,price\nH100 80GB SXM,8,20\n".encode("utf-16-le"), "UTF-16 text without a byte-order mark"),
    (b"gpu,gpus,price\nH100 80GB SXM,8,2\x000\n", "contains NUL bytes"),
])
def test_a_csv_that_is_not_text_is_refused_as_a_yaml_file_is(tmp_path: Path, raw: bytes, words: str) -> None:
    """UTF-16 without its mark was 'the header lacks price ... did you mean \\x00p\\x00r...'."""
    (tmp_path / "p.csv").write_bytes(raw)
    one_line(gpuwise("prices", "import", "p.csv", "--provider", "x", "-o", "ov", cwd=tmp_path), f"p.csv: {words}")


@pytest.mark.parametrize("spec, refused", [("=10", True), (",", True), (".2f", True), (">30", False), ("^12", False)])
def test_a_house_message_format_is_checked_against_its_fields_kind(tmp_path: Path, spec: str, refused: bool) -> None:
    """``{gpu_name:=10}`` passed the check (it was tried on a number) and was dropped when the
    message was written ('=' alignment is no format for text): the rule's words silently lost
    their format. Text fields are now checked with text."""
    d = tmp_path / "house"
    d.mkdir()
    (d / "h.yaml").write_text(
        "schema_version: 1\nruleset: house\nstep: memory\nrules:\n  - id: HOUSE-X\n    title: A house rule\n"
        "    fact: candidate\n    when:\n      - [need_gb, \">\", 1]\n    then:\n      action: finding\n"
        f"      severity: info\n      topic: compatibility\n      message: \"{{gpu_name:{spec}}} is listed\"\n"
        "    rationale: \"Because the team says so.\"\n    source: \"ENG-1\"\n")
    r = gpuwise("recommend", str(EX / "lora-70b.yaml"), "--rules", str(d), "--format", "json", cwd=tmp_path)
    if refused:
        one_line(r, "h.yaml: rule HOUSE-X: the message: unknown format", f"{{gpu_name:{spec}}}")
    else:
        assert r.returncode in (0, 1), r.stderr
        assert f"{'NVIDIA H100 SXM5 80GB':{spec}} is listed" in r.stdout


@pytest.mark.parametrize("name", ["o.json/", "out.md/"])
def test_an_output_name_ending_in_a_slash_names_a_directory(tmp_path: Path, name: str) -> None:
    """``-o o.json/`` wrote a file named o.json (exit 0): the slash says a directory was meant."""
    r = gpuwise("recommend", str(EX / "lora-70b.yaml"), "-o", name, cwd=tmp_path)
    one_line(r, f"{name}: is a directory, not a file")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("times, said", [("0x2", MEANT["0x10"].replace("0x10", "0x2").replace("16", "2")),
                                         ("memory_headroom_fraction * 1_0", "'1_0' has '_' in a number: write 10"),
                                         ("0o7", "'0o7' is an octal number (7 in decimal)")])
def test_a_house_rule_factor_reads_numbers_as_every_file_does(tmp_path: Path, times: str, said: str) -> None:
    """``{ref: need_gb, times: 0x2}`` (or ``1_0``, ``0o7`` inside an expression) was read by
    Python's parser as 2, 10 and 7 (exit 0), while the same text in any number field is refused."""
    d = tmp_path / "house"
    d.mkdir()
    (d / "h.yaml").write_text(
        "schema_version: 1\nruleset: house\nstep: memory\nrules:\n  - id: HOUSE-X\n    title: A house rule\n"
        f"    fact: candidate\n    when:\n      - [need_gb, \">\", {{ref: need_gb, times: \"{times}\"}}]\n"
        "    then:\n      action: reject\n      topic: compatibility\n      message: \"{gpu_name} needs too much\"\n"
        "    rationale: \"Because the team says so.\"\n    source: \"ENG-1\"\n")
    one_line(gpuwise("recommend", str(EX / "lora-70b.yaml"), "--rules", str(d), cwd=tmp_path),
             "h.yaml: rule HOUSE-X: ", said)


def test_a_mapping_of_numbers_in_a_knowledge_file_refuses_other_notations() -> None:
    """``storage_usd_per_gb_month: {object: '1_0'}``: pydantic reads the text '1_0' as 10."""
    from gpuwise.errors import Said
    from gpuwise.knowledge.schema.clouds import Provider

    good = {"id": "x", "name": "X", "kind": "gpu-cloud", "egress_tiers": [], "cross_region_usd_per_gb": 0,
            "as_of": "2026-11-01", "source": "a price page", "storage_usd_per_gb_month": {"object": "0.02"}}
    assert Provider.model_validate(good).storage_usd_per_gb_month == {"object": 0.02}  # a quoted plain number
    with pytest.raises(ValueError, match="storage_usd_per_gb_month: '1_0' has '_' in a number: write 10") as err:
        Provider.model_validate({**good, "storage_usd_per_gb_month": {"object": "1_0"}})
    assert isinstance(err.value.errors()[0]["ctx"]["error"], Said)


def test_other_digits_are_named_where_the_terminal_is_ascii(tmp_path: Path) -> None:
    """On an ASCII terminal '１６' is shown as '16': "'16' has digits other than 0-9" read as
    nonsense. The first such character is named by its code point, which every terminal shows."""
    from tests.clirun import process

    path = Path(_requirements(tmp_path, "max_gpus: 16", "max_gpus: '１６'"))
    r = process("recommend", str(tmp_path / path), env={"PYTHONIOENCODING": "ascii"})
    assert r.returncode == 2 and "(U+FF11 FULLWIDTH DIGIT ONE): write 16" in r.stderr, r.stderr
