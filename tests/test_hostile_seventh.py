"""A seventh round of hostile inputs (issue 26 items 5-6).

First the six cases left questionable at the last stop, each now decided: a quoted ``'1'`` as a
house rule's or overlay's ``schema_version`` is the number 1 (a quoted plain decimal is the number
in every data file, docs/formats.md); an hourly price below 0.001 (or a purchase below 1) is
refused by its field; a seller's report listing more ``<gpu>`` than its ``<attached_gpus>`` is
refused; a line break inside a CSV cell is a space; a FIFO among the house rules is 'not a regular
file'; a CSV separated by semicolons or tabs says so. Then the new cases of round seven.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from tests.clirun import gpuwise
from tests.test_hostile_fourth import SMI, _seller
from tests.test_hostile_more import one_line

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest: audits of one question share the search

ROOT = Path(__file__).parent.parent
EX = ROOT / "examples"

HOUSE = ("schema_version: {version}\nruleset: house\nstep: memory\nrules:\n  - id: HOUSE-X\n"
         "    title: A house rule\n    fact: candidate\n    when:\n      - [need_gb, \">\", 1]\n    then:\n"
         "      action: finding\n      severity: info\n      topic: compatibility\n"
         "      message: \"{{gpu_name}} is listed\"\n    rationale: \"Because the team says so.\"\n"
         "    source: \"ENG-1\"\n")


def _house(tmp_path: Path, version: str) -> Path:
    d = tmp_path / "house"
    d.mkdir(exist_ok=True)
    (d / "h.yaml").write_text(HOUSE.format(version=version))
    return d


# ----------------------------------------------------------------------------- schema_version '1'
@pytest.mark.parametrize("version", ["1", "'1'", "\"1\"", "' 1 '", "'1.0'"])
def test_a_quoted_schema_version_is_the_number(tmp_path: Path, version: str) -> None:
    """``schema_version: '1'`` was refused with "'1' is not one of 1" while ``'16'`` is 16 GPUs in
    a requirements file: a quoted plain decimal is the number in every data file."""
    r = gpuwise("recommend", str(EX / "qlora-70b-4090.yaml"), "--rules", str(_house(tmp_path, version)),
                "--format", "json")  # any answered question the house rule fires on
    assert r.returncode in (0, 1), r.stderr
    assert "HOUSE-X" in r.stdout


@pytest.mark.parametrize("version, said", [
    ("'2'", "schema_version: "),
    ("'0x1'", "'0x1' is a hexadecimal number (1 in decimal)"),
    ("'１'", "'１' has digits other than 0-9 (U+FF11 FULLWIDTH DIGIT ONE): write 1"),
    ("'1e400'", "schema_version: "),  # was an internal error (OverflowError) once read as a number
    ("'one'", "schema_version: "),
])
def test_another_schema_version_is_still_refused(tmp_path: Path, version: str, said: str) -> None:
    one_line(gpuwise("recommend", str(EX / "lora-70b.yaml"), "--rules", str(_house(tmp_path, version))),
             "h.yaml: ", said)


def test_a_quoted_schema_version_in_a_knowledge_overlay_is_the_number(tmp_path: Path) -> None:
    """"schema_version '1' is not supported (this gpuwise reads 1)" in a clouds.yaml overlay."""
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "clouds.yaml").write_text("schema_version: '1'\ngpu_hour_prices: []\n")
    r = gpuwise("recommend", str(EX / "lora-70b.yaml"), "--knowledge", "kb", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    (tmp_path / "kb" / "clouds.yaml").write_text("schema_version: '2'\ngpu_hour_prices: []\n")
    one_line(gpuwise("recommend", str(EX / "lora-70b.yaml"), "--knowledge", "kb", cwd=tmp_path),
             "kb/clouds.yaml: schema_version '2' is not supported (this gpuwise reads 1)")


# ----------------------------------------------------------------------------- a price floor
PRICE = ("schema_version: 1\ngpu_hour_prices:\n  - {{provider: lambda, gpu: h100-80gb-sxm, {field}, "
         "as_of: 2026-11-01, source: lambda.ai/pricing}}\n")
INSTANCE = "schema_version: 1\ninstances:\n  - {{id: x1, provider: lambda, gpu: h100-80gb-sxm, gpus: 8, {field}, " \
           "as_of: 2026-11-01, source: lambda.ai/pricing{more}}}\n"


@pytest.mark.parametrize("body, where", [
    (PRICE.format(field="usd_per_gpu_hour: 1.0e-300"), "gpu_hour_prices[0].usd_per_gpu_hour: 1e-300 an hour"),
    (PRICE.format(field="cny_per_gpu_hour: 0.0001"), "gpu_hour_prices[0].cny_per_gpu_hour: 0.0001 an hour"),
    (PRICE.format(field="usd_per_gpu_hour: 2, spot_usd_per_gpu_hour: 1e-9"),
     "gpu_hour_prices[0].spot_usd_per_gpu_hour: 1e-09 an hour"),
    (INSTANCE.format(field="usd_per_hour: 5e-324", more=""), "instances[0] (id x1).usd_per_hour: 4.94066e-324 an hour"),
    (INSTANCE.format(field="usd_per_hour: 20", more=", reserved_per_hour: {1-year: 1e-9}, sold_as_source: the page, "
                                                     "terms_as_of: 2026-11-01"),
     "instances[0] (id x1): reserved_per_hour: 1e-09 an hour"),
])
def test_an_overlay_price_below_the_floor_is_refused_by_its_field(tmp_path: Path, body: str, where: str) -> None:
    """An overlay price of $1e-300 an hour was accepted: every rental was free ($0.00 for 8 x H100,
    exit 0). Below 0.001 an hour (a tenth of a cent; the cheapest GPU-hour listed costs cents) the
    field is refused, named as the overlay writes it: the entry's index was the merged list's
    (``gpu_hour_prices[37]`` for the overlay's first entry)."""
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "clouds.yaml").write_text(body)
    one_line(gpuwise("recommend", str(EX / "lora-70b.yaml"), "--knowledge", "kb", cwd=tmp_path),
             f"kb/clouds.yaml: {where} is below 0.001: no GPU rents for so little")


def test_the_floor_itself_is_a_price(tmp_path: Path) -> None:
    """0.001 an hour is at the floor: read. 8 GPUs x $0.001 x 3.5 hours is under a dollar."""
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "clouds.yaml").write_text(PRICE.format(field="usd_per_gpu_hour: 0.001"))
    r = gpuwise("recommend", str(EX / "lora-70b.yaml"), "--knowledge", "kb", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert 0 < json.loads(r.stdout)["recommendation"]["total_cost_usd"] < 1


def test_a_purchase_price_below_one_is_refused(tmp_path: Path) -> None:
    """``amount: 1e-300`` made a card free to buy."""
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "prices.yaml").write_text(
        "gpus:\n  - id: rtx-4090\n    prices:\n      - {amount: 1e-300, condition: new, unit: card, kind: street, "
        "as_of: 2026-02-01, source: a shop's page}\n")
    one_line(gpuwise("recommend", str(EX / "qlora-70b-4090.yaml"), "--knowledge", "kb", cwd=tmp_path),
             "kb/prices.yaml: gpus[0] (id rtx-4090).prices[0].amount: 1e-300 is below 1: no GPU sells for so little")


def test_an_overlay_entry_is_named_by_its_place_in_the_overlay(tmp_path: Path) -> None:
    """The second of two new offers is ``gpu_hour_prices[1]``, whatever the built-in list holds."""
    (tmp_path / "kb").mkdir()
    good = PRICE.format(field="usd_per_gpu_hour: 2")
    bad = PRICE.format(field="usd_per_gpu_hour: -2").split("\n", 2)[2]
    (tmp_path / "kb" / "clouds.yaml").write_text(good + bad)
    one_line(gpuwise("recommend", str(EX / "lora-70b.yaml"), "--knowledge", "kb", cwd=tmp_path),
             "kb/clouds.yaml: gpu_hour_prices[1].usd_per_gpu_hour: ")


def test_a_csv_price_below_the_floor_is_a_skipped_row_in_the_overlays_words(tmp_path: Path) -> None:
    """The import's floor was 1e-6 (the overlay's 6 decimals): a 0.0005 row was written into an
    overlay that the floor then refuses. Rows are skipped at the same floor."""
    (tmp_path / "p.csv").write_text("gpu,gpus,price\nH100 80GB SXM,8,0.0005\nH100 80GB SXM,4,10\n")
    r = gpuwise("prices", "import", "p.csv", "--provider", "mycloud", "-o", "ov", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "line 2: H100 80GB SXM x8: price: 0.0005 an hour is below 0.001" in r.stdout, r.stdout
    assert gpuwise("recommend", str(EX / "lora-70b.yaml"), "--knowledge", "ov", cwd=tmp_path).returncode == 0


# ----------------------------------------------------------------------------- attached_gpus
def _two_gpus(attached: str) -> str:
    text = SMI.read_text()
    block = text[text.index("<gpu id="): text.index("</gpu>") + len("</gpu>")]
    text = text.replace(block, block + "\n" + block.replace('id="', 'id="1').replace("<uuid>GPU-", "<uuid>GPU-1"))
    return re.sub(r"<attached_gpus>[^<]*</attached_gpus>", f"<attached_gpus>{attached}</attached_gpus>", text)


@pytest.mark.parametrize("attached", ["1", "0"])
def test_more_gpus_than_the_report_counts_is_refused(tmp_path: Path, attached: str) -> None:
    """A card's ``<gpu>`` block copied to show a second healthy card, under ``<attached_gpus>1``,
    was read as two GPUs. nvidia-smi writes one block per GPU it counts (fewer with ``-i``), never
    more: such a report was edited or joined, and is refused, as two reports in one file are."""
    one_line(gpuwise("audit", str(_seller(tmp_path, _two_gpus(attached)))), "used_cards[0].nvidia_smi (r.xml)",
             f"it lists 2 <gpu> entries but <attached_gpus> says {attached}")


@pytest.mark.parametrize("attached", ["2", "8", "N/A"])
def test_as_many_or_fewer_gpus_than_counted_is_read(tmp_path: Path, attached: str) -> None:
    """Two of eight (``nvidia-smi -q -x -i 0,1``), or a count the report does not give: read."""
    r = gpuwise("audit", str(_seller(tmp_path, _two_gpus(attached))), "--format", "json")
    assert r.returncode in (0, 1), r.stderr
    assert len(json.loads(r.stdout)["cards"]) == 2


def test_an_attached_count_in_another_notation_is_refused(tmp_path: Path) -> None:
    one_line(gpuwise("audit", str(_seller(tmp_path, _two_gpus("0x2")))), "<attached_gpus> reads '0x2'")


# ----------------------------------------------------------------------------- price CSVs
def test_a_line_break_inside_a_csv_cell_is_a_space(tmp_path: Path) -> None:
    """``"H100\\n80GB SXM"`` (wrapped text in a spreadsheet) was read as 'H10080GB SXM' -- the two
    lines glued -- and the next rows' line numbers were one short."""
    (tmp_path / "p.csv").write_text('gpu,gpus,price\n"H100\n80GB SXM",8,20\nH100 80GB SXM,4,x\n')
    r = gpuwise("prices", "import", "p.csv", "--provider", "mycloud", "-o", "ov", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "H100 80GB SXM x8" in r.stdout and "H10080GB" not in r.stdout
    assert "line 4: H100 80GB SXM: price 'x' is not a number" in r.stdout, r.stdout  # the row after the 2-line one
    assert "- id: mycloud:H100 80GB SXM x8\n" in (tmp_path / "ov" / "clouds.yaml").read_text()


@pytest.mark.parametrize("sep, said", [(";", "';'"), ("\t", "tabs")])
def test_a_csv_separated_otherwise_says_so(tmp_path: Path, sep: str, said: str) -> None:
    """A semicolon CSV (Excel in a decimal-comma locale: ``20,5``) was 'the header lacks
    instance_name, price, gpu_count, gpu_name (read as the gpuhunt layout)'."""
    (tmp_path / "p.csv").write_text(sep.join(["gpu", "gpus", "price"]) + "\n"
                                    + sep.join(["H100 80GB SXM", "8", "20,5"]))
    one_line(gpuwise("prices", "import", "p.csv", "--provider", "x", "-o", "ov", cwd=tmp_path),
             f"p.csv: the columns are separated by {said}, not by commas")
    assert not (tmp_path / "ov").exists()


# ----------------------------------------------------------------------------- house rule files
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_among_the_house_rules_is_not_a_regular_file(tmp_path: Path) -> None:
    """A FIFO named ``f.yaml`` in the ``--rules`` directory read as empty: 'expected a mapping at
    the top level'."""
    d = tmp_path / "house"
    d.mkdir()
    os.mkfifo(d / "f.yaml")
    one_line(gpuwise("recommend", str(EX / "lora-70b.yaml"), "--rules", "house", cwd=tmp_path),
             "house/f.yaml: is not a regular file, not a YAML file")


def test_a_dangling_link_among_the_house_rules_says_so(tmp_path: Path) -> None:
    d = tmp_path / "house"
    shutil.copytree(EX / "house-rules", d)
    (d / "gone.yaml").symlink_to(tmp_path / "nowhere.yaml")
    one_line(gpuwise("recommend", str(EX / "lora-70b.yaml"), "--rules", "house", cwd=tmp_path),
             "house/gone.yaml: a link to nothing (dangling symbolic link)")


# ----------------------------------------------------------------------------- T.Limit thresholds
ADA = "telegraf_rtx-4000-sff-ada-v13.xml"


def test_limits_given_relative_to_t_limit_are_read() -> None:
    """influxdata/telegraf's RTX 4000 SFF Ada report (driver 595.84) gives its limits only as
    margins to T.Limit, and the parser read none: a hot Ada card raised no finding. By hand:
    38 C now + 49 C margin = a limit of 87 C; slowdown 87 - (-2) = 89 C; shutdown 87 - (-7) = 94 C;
    max operating 87 - 0 = 87 C."""
    from gpuwise.decide.smi_report import parse_nvidia_smi_xml

    gpu = parse_nvidia_smi_xml(ROOT / "tests" / "data" / "nvidia_smi" / ADA).gpus[0]
    assert (gpu.temperature_c, gpu.gpu_max_operating_temp_c, gpu.gpu_slowdown_temp_c, gpu.gpu_shutdown_temp_c) == \
        (38, 87, 89, 94)


def test_absolute_limits_win_over_t_limit_margins() -> None:
    """A report that gives both (the A100's, driver 535: tlimit N/A) keeps its absolute figures."""
    from gpuwise.decide.smi_report import parse_nvidia_smi_xml

    text = (ROOT / "tests" / "data" / "nvidia_smi" / "telegraf_a100-sxm4-v12.xml").read_text()
    gpu = parse_nvidia_smi_xml(text.replace("<gpu_temp_tlimit>N/A", "<gpu_temp_tlimit>10 C").encode()).gpus[0]
    assert (gpu.gpu_max_operating_temp_c, gpu.gpu_slowdown_temp_c, gpu.gpu_shutdown_temp_c) == (85, 89, 92)


@pytest.mark.parametrize("now, margin, hot", [("88", "-1", True), ("87", "0", True), ("86", "1", False)])
def test_a_hot_ada_card_is_judged_against_its_t_limit(tmp_path: Path, now: str, margin: str, hot: bool) -> None:
    """The same report at 88 C with a margin of -1 C (limit 87 C): USED-GPU-HOT, as an A100 at its
    85 C max operating temperature is; at 86 C (margin 1 C) it is not."""
    from tests.test_inspect_card import derive, used_findings

    xml = derive(ADA, [(r"<gpu_temp>38 C", f"<gpu_temp>{now} C"),
                       (r"<gpu_temp_tlimit>49 C", f"<gpu_temp_tlimit>{margin} C")])
    _, used = used_findings(tmp_path, xml, "rtx-4090")
    assert (("USED-GPU-HOT", "warning") in used) is hot, used


def test_a_blackwell_reports_t_limit_margins_too() -> None:
    """influxdata/telegraf plugins/inputs/nvidia_smi/testdata/pro-6000-maxq-blackwell-v13.xml
    (RTX PRO 6000 Blackwell Max-Q, driver 590.44.01), its temperature block: 24 C now, a margin of
    68 C, shutdown -5 C, slowdown -2 C, max operating 0 C. By hand: limit 24 + 68 = 92 C, slowdown
    94 C, shutdown 97 C."""
    from gpuwise.decide.smi_report import parse_nvidia_smi_xml
    from tests.test_inspect_card import minimal

    block = ("<temperature><gpu_temp>24 C</gpu_temp><gpu_temp_tlimit>68 C</gpu_temp_tlimit>"
             "<gpu_temp_max_tlimit_threshold>-5 C</gpu_temp_max_tlimit_threshold>"
             "<gpu_temp_slow_tlimit_threshold>-2 C</gpu_temp_slow_tlimit_threshold>"
             "<gpu_temp_max_gpu_tlimit_threshold>0 C</gpu_temp_max_gpu_tlimit_threshold>"
             "<gpu_target_temperature>N/A</gpu_target_temperature><memory_temp>N/A</memory_temp>"
             "<gpu_temp_max_mem_tlimit_threshold>N/A</gpu_temp_max_mem_tlimit_threshold></temperature>")
    gpu = parse_nvidia_smi_xml(minimal(block)).gpus[0]
    assert (gpu.gpu_max_operating_temp_c, gpu.gpu_slowdown_temp_c, gpu.gpu_shutdown_temp_c) == (92, 94, 97)
    assert gpu.memory_max_operating_temp_c is None  # a margin with no memory reading to add it to


# ----------------------------------------------------------------------------- round seven: what failed
@pytest.mark.parametrize("section, copy", [
    ("temperature", "<temperature><gpu_temp>30 C</gpu_temp></temperature>"),
    ("ecc_errors", "<ecc_errors><volatile></volatile></ecc_errors>"),
    ("gpu_temp", None),
])
def test_a_section_given_twice_is_refused(tmp_path: Path, section: str, copy: str | None) -> None:
    """A healthy ``<temperature>`` block put before the real one (95 C): the parser read the first,
    and the hot card passed. nvidia-smi writes each section once; a second one was pasted in."""
    text = SMI.read_text()
    if copy is not None:
        text = text.replace(f"<{section}>", copy + f"<{section}>", 1)
        where = "<gpu>"
    else:  # a second reading inside the section
        text = re.sub(r"(<gpu_temp>[^<]*</gpu_temp>)", r"<gpu_temp>30 C</gpu_temp>\1", text, count=1)
        where = "<gpu/temperature>"
    one_line(gpuwise("audit", str(_seller(tmp_path, text))), "used_cards[0].nvidia_smi (r.xml)",
             f"{where} has <{section}> twice: nvidia-smi writes it once")


def test_every_real_report_has_each_section_once() -> None:
    """The check must not refuse a real report: lists (processes, MIG devices, clocks) repeat."""
    from gpuwise.decide.smi_report import parse_nvidia_smi_xml

    for path in sorted((ROOT / "tests" / "data" / "nvidia_smi").glob("*.xml")):
        if "negative" not in path.name:  # a retired count of -1 is refused on purpose
            assert parse_nvidia_smi_xml(path).gpus, path


def test_a_condition_of_thousands_of_items_says_what_is_wrong(tmp_path: Path) -> None:
    """A condition of 3,000 items was quoted whole: the line was cut at 2,000 characters before it
    said what was wrong with it."""
    d = tmp_path / "house"
    d.mkdir()
    cond = "[" + ", ".join(['[need_gb, ">", 1]'] * 3000) + "]"
    (d / "h.yaml").write_text(HOUSE.format(version=1).replace('[need_gb, ">", 1]', cond))
    err = one_line(gpuwise("recommend", str(EX / "lora-70b.yaml"), "--rules", str(d)),
                   "h.yaml: rule HOUSE-X: condition [", "... must be [field, op, value]")
    assert len(err) < 300


@pytest.mark.parametrize("body, said", [
    ("gpu_hour_prices:\n  - {provider: lambda, gpu: h100-80gb-sxm, usd_per_gpu_hour: 2, as_of: 9999-12-31, "
     "source: lambda.ai/pricing}\n", "kb/clouds.yaml: gpu_hour_prices[0].as_of: as_of 9999-12-31 is after today"),
    ("gpu_hour_prices:\n  - {provider: lambda, gpu: h100-80gb-sxmm, usd_per_gpu_hour: 2, as_of: 2026-11-01, "
     "source: lambda.ai/pricing}\n",
     "kb/clouds.yaml: gpu_hour_prices[0]: unknown gpu 'h100-80gb-sxmm' (did you mean h100-80gb-sxm?)"),
])
def test_checks_after_the_merge_name_the_overlays_entry(tmp_path: Path, body: str, said: str) -> None:
    """A future date and an unknown GPU in the overlay's first offer were 'gpu_hour_prices[37]'
    (the merged list's index), and the unknown GPU had no close match."""
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "clouds.yaml").write_text(body)
    one_line(gpuwise("recommend", str(EX / "lora-70b.yaml"), "--knowledge", "kb", cwd=tmp_path), said)


def test_one_gpu_listed_twice_is_refused(tmp_path: Path) -> None:
    """A card's ``<gpu>`` block copied, with ``<attached_gpus>`` raised to 2, was read as two
    healthy cards. A GPU's UUID and bus id are its own: one report never lists one twice."""
    text = SMI.read_text()
    block = text[text.index("<gpu id="): text.index("</gpu>") + len("</gpu>")]
    text = re.sub(r"<attached_gpus>[^<]*</attached_gpus>", "<attached_gpus>2</attached_gpus>",
                  text.replace(block, block + "\n" + block.replace('id="', 'id="1')))
    one_line(gpuwise("audit", str(_seller(tmp_path, text))), "used_cards[0].nvidia_smi (r.xml)",
             "lists GPU GPU-19d6d965-2acc-f646-00f8-4c76979aabb4 twice")


@pytest.mark.parametrize("raw, said", [
    (b"\x1f\x8b\x08\x00\x00\x00\x00\x00", "p.csv: a gzip file, not CSV text"),
    (b"PK\x03\x04\x14\x00", "p.csv: a zip file, not CSV text"),
    (b"sep=;\ngpu;gpus;price\nH100 80GB SXM;8;20\n", "p.csv: the columns are separated by ';', not by commas"),
])
def test_a_csv_that_is_something_else_says_what_it_is(tmp_path: Path, raw: bytes, said: str) -> None:
    """A gzip'd catalog was 'not UTF-8 text (byte 1)'; Excel's ``sep=;`` first line was 'the header
    lacks instance_name, price, gpu_count, gpu_name'."""
    (tmp_path / "p.csv").write_bytes(raw)
    one_line(gpuwise("prices", "import", "p.csv", "--provider", "x", "-o", "ov", cwd=tmp_path), said)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_nothing_writes_to_says_so(tmp_path: Path) -> None:
    """``gpuwise recommend r.yaml`` where r.yaml is a FIFO no program writes to said 'the file is
    empty'; ``<(cat r.yaml)`` (a FIFO a program writes) is read as before."""
    os.mkfifo(tmp_path / "r.yaml")
    one_line(gpuwise("recommend", "r.yaml", cwd=tmp_path), "r.yaml: a named pipe (FIFO) that nothing wrote to")


def test_answers_with_terminal_escapes_are_shown_escaped(tmp_path: Path) -> None:
    """An answers file's ``model: "\\e[2J evil"`` reached the terminal raw in 'unknown model ...
    - asking again' (the screen was cleared): what the questionnaire prints is escaped."""
    pytest.importorskip("pexpect")
    from tests.test_ask_pty import _spawn

    answers = tmp_path / "a.yaml"
    answers.write_text('workload:\n  model: "\\e[2J evil"\n')
    child = _spawn(tmp_path, answers)
    try:
        child.expect("asking again")
        assert "\\u001b[2J evil" in child.before and "\x1b[2J evil" not in child.before, child.before
    finally:
        child.terminate(force=True)


@pytest.mark.parametrize(("edit", "words"), [
    (("step: tco", "stepp: tco"), "stepp: unknown key (did you mean 'step'?)"),
    (("rules:", "rulez:"), "rulez: unknown key (did you mean 'rules'?)"),
    (("    fact: candidate", "    fcat: candidate"), "rule HOUSE-NO-USED.fcat: unknown key (did you mean 'fact'?)"),
    (("      topic:", "      topc:"), "rule HOUSE-NO-USED.then.topc: unknown key (did you mean 'topic'?)"),
    (("    fact: candidate", "    zzzz: candidate"), "rule HOUSE-NO-USED.zzzz: unknown key"),
])
def test_a_misspelt_house_rule_key_is_named_with_its_close_match(tmp_path: Path, edit: tuple[str, str],
                                                                 words: str) -> None:
    """A misspelt key is also a missing one (``stepp`` given, ``step`` missing): the error said
    'step: Field required'. It names the misspelling and the key meant (a rule file, a rule, its
    ``then``); a key near nothing is 'unknown key' alone."""
    from gpuwise.decide import rulebook
    from gpuwise.errors import UserError

    text = (EX / "house-rules" / "no-second-hand.yaml").read_text()
    old, new = edit
    assert f"\n{old}" in text
    (tmp_path / "h.yaml").write_text(text.replace(f"\n{old}", f"\n{new}", 1))
    with pytest.raises(UserError) as err:
        rulebook.load(tmp_path)
    assert str(err.value) == f"{tmp_path / 'h.yaml'}: {words}"


def test_a_misspelt_card_in_the_per_card_mfu_is_refused(tmp_path: Path) -> None:
    """runtime.yaml's training.mfu_by_gpu (new in session 15) keys a card's own share of its peak by GPU id: a
    misspelt id kept the card on its architecture's figure without a word. Now the one-line unknown-gpu error."""
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "runtime.yaml").write_text(
        'training:\n  mfu_by_gpu:\n    rtx-4009:\n      value: 0.7\n      source: "a test"\n')
    one_line(gpuwise("recommend", str(EX / "lora-70b.yaml"), "--knowledge", "kb", cwd=tmp_path),
             "kb/runtime.yaml: training.mfu_by_gpu: unknown gpu 'rtx-4009' (did you mean rtx-4090?)")
