"""Hostile round 17 (issue 26 items 5 and 6): what round 17 of benchmarks/hostile_corpus.py found,
each fix with a test that fails without it, in-process where a process adds nothing -- a seller's
report shared by a batch's proposals read once even when it is refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from tests.clirun import gpuwise
from tests.conftest import load_yaml
from tests.test_hostile_more import one_line
from tests.test_hostile_twelfth import write

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest: one question's audits share its search

ROOT = Path(__file__).resolve().parent.parent
SMI = ROOT / "examples" / "nvidia-smi" / "rtx3080-like-healthy.xml"
LORA = (ROOT / "examples" / "lora-70b.yaml").read_text()


def _proposal(report: str, serial: str) -> str:
    """The mining proposal (used RTX 3090s) with one card naming ``report``."""
    doc = load_yaml((ROOT / "examples" / "proposal-used-3090-mining.yaml").read_text())
    doc["used_cards"] = [{"serial": serial, "nvidia_smi": report}]
    return yaml.safe_dump(doc)


def _with_gpus(n: int) -> str:
    text = SMI.read_text()
    head = re.sub(r"<attached_gpus>\d+</attached_gpus>", f"<attached_gpus>{n}</attached_gpus>",
                  text[: text.index("<gpu id=")])
    return head + "<gpu/>" * n + "</nvidia_smi_log>\n"


# ----------------------------------------------------------------------------- a shared report, read once
@pytest.mark.parametrize("refused", [False, True])
def test_a_report_shared_by_a_batch_is_read_and_parsed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             refused: bool) -> None:
    """Twelve proposals whose cards name one report: it is read and parsed once for the batch. A
    report refused as input (65 GPUs, over MAX_GPUS) was read and parsed again for every proposal
    (0.1 s and 1.5 MB each for a real 65-GPU report): only a report that parsed was kept. Each
    proposal's error still names its own file and card."""
    from gpuwise.decide import smi_report

    n = smi_report.MAX_GPUS + 1 if refused else 1
    files = {f"b/p{i:02}.yaml": _proposal("r.xml", f"S{i}") for i in range(12)}
    files["b/r.xml"] = _with_gpus(n) if refused else SMI.read_text()
    write(tmp_path, files)
    counts = {"read": 0, "parse": 0}
    real_read, real_parse = smi_report.read_regular_file, smi_report._parse

    def read(*a, **k):
        counts["read"] += 1
        return real_read(*a, **k)

    def parse(*a, **k):
        counts["parse"] += 1
        return real_parse(*a, **k)

    monkeypatch.setattr(smi_report, "read_regular_file", read)
    monkeypatch.setattr(smi_report, "_parse", parse)
    r = gpuwise("audit", "b", "--format", "json", cwd=tmp_path)
    assert counts == {"read": 1, "parse": 1}, counts
    docs = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(docs) == 12
    if refused:
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
        for i, d in enumerate(docs):  # every file's own error, naming its own card
            assert d["error"].startswith(f"b/p{i:02}.yaml: used_cards[0].nvidia_smi (r.xml): not valid nvidia-smi XML: "
                                         f"more than {smi_report.MAX_GPUS} <gpu>"), d["error"]
    else:
        assert r.returncode in (0, 1) and all("verdict" in d for d in docs), r.stderr


def test_a_refused_report_read_again_names_the_card_asking(tmp_path: Path) -> None:
    """The kept error is raised again for the second proposal naming that proposal's card, not the
    first's (the message had been made with the first card's place)."""
    from gpuwise.decide import smi_report

    write(tmp_path, {"r.xml": "<nvidia_smi_log><gpu>", "a.yaml": _proposal("r.xml", "A"),
                     "b.yaml": _proposal("r.xml", "B")})
    one_line(gpuwise("audit", "a.yaml", cwd=tmp_path),
             "a.yaml: used_cards[0].nvidia_smi (r.xml): not valid nvidia-smi XML")
    with pytest.raises(smi_report.UserError) as got:
        smi_report.parse_nvidia_smi_xml(str(tmp_path / "r.xml"), where="b.yaml: card")
    assert str(got.value).startswith("b.yaml: card: not valid nvidia-smi XML"), str(got.value)
    assert "a.yaml" not in str(got.value)


# ----------------------------------------------------------------------------- ask --answers FILE without a terminal
def _no_terminal(r, *words: str) -> str:
    """``ask``'s refusal without a terminal: exit 2, one line (its own ``gpuwise ask:`` prefix)."""
    assert r.returncode == 2 and r.stdout == "", (r.returncode, r.stderr)
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("gpuwise ask"), r.stderr
    for w in words:
        assert w in r.stderr, (w, r.stderr)
    return r.stderr


@pytest.mark.parametrize("name, body, command", [
    ("a.yaml", (ROOT / "examples" / "lora-70b.yaml").read_text(), "gpuwise recommend a.yaml -o a-report.md"),
    ("my plan.yaml", (ROOT / "examples" / "plan-team-4090.yaml").read_text(),
     "gpuwise plan 'my plan.yaml' -o 'my plan-report.md'"),
])
def test_ask_with_saved_answers_and_no_terminal_names_the_command_for_them(tmp_path: Path, name: str, body: str,
                                                                           command: str) -> None:
    """``ask --answers FILE < /dev/null`` (a script, cron) is refused, as the contract has ``ask``
    a questionnaire in the terminal, but the line told to write a requirements file that is
    already there. With saved answers it names the command that writes, without a question, the
    report ``ask`` would have written (``plan`` for a plan file), quoted for the shell."""
    write(tmp_path, {name: body})
    r = _no_terminal(gpuwise("ask", "--answers", name, cwd=tmp_path), "needs an interactive terminal", f"`{command}`")
    assert "write a requirements file" not in r
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # nothing written
    # no answers file yet: the plain line, as before
    _no_terminal(gpuwise("ask", "--answers", "new.yaml", cwd=tmp_path), "write a requirements file")
    _no_terminal(gpuwise("ask", cwd=tmp_path), "write a requirements file")
    zh = _no_terminal(gpuwise("ask", "--answers", name, "--lang", "zh", cwd=tmp_path), f"`{command}`")
    assert "需要交互式终端" in zh


def test_ask_without_a_terminal_escapes_the_answers_name(tmp_path: Path) -> None:
    """The answers file's name is shown as the other lines show a file name: no ESC reaches the
    terminal, and ``-o`` is never read as an option in the command given."""
    write(tmp_path, {"e\x1b[2J.yaml": LORA, "-x.yaml": LORA})
    r = _no_terminal(gpuwise("ask", "--answers", "e\x1b[2J.yaml", cwd=tmp_path), "e\\x1b[2J.yaml")
    assert "\x1b" not in r
    _no_terminal(gpuwise("ask", "--answers=-x.yaml", cwd=tmp_path), "`gpuwise recommend ./-x.yaml -o ./-x-report.md`")


# ----------------------------------------------------------------------------- a seller's report saved again as ANSI
HOT_3090 = (ROOT / "tests" / "data" / "nvidia_smi" / "derived_rtx-3080-v13_as-3090-hot-gddr6x.xml").read_text()
USED = ("workload: {task: inference, model: llama-2-7b}\nhardware: {gpu: rtx-3090, count: 1}\n"
        "acquisition: {mode: buy, condition: used, unit_price_usd: 400}\nused_cards:\n"
        "  - {serial: '%s', nvidia_smi: r.xml}\n")


def _rules(r) -> list[str]:
    assert r.returncode in (0, 1), r.stderr
    return [f["rule"] for f in json.loads(r.stdout)["findings"]]


@pytest.mark.parametrize("codec, text", [("cp1252", "C:\\Users\\José\\miner.exe"), ("cp1252", "\u201cquoted\u201d"),
                                         ("latin-1", "caf\xe9")])
def test_a_report_saved_again_in_the_windows_code_page_is_read(tmp_path: Path, codec: str, text: str) -> None:
    """nvidia-smi writes UTF-8; a copy opened and saved again in Notepad as "ANSI" (cp1252), with a
    process path or a note that is not ASCII, was refused as 'not well-formed (invalid token):
    line 30, column 13'. It is read (the readings are ASCII) and judged as the UTF-8 copy is: the
    hot GDDR6X memory still found."""
    assert "<?xml version=\"1.0\" ?>" in HOT_3090  # no encoding declared, as nvidia-smi before 535 writes
    body = HOT_3090.replace("<serial>", f"<serial>{text}", 1)
    write(tmp_path, {"p.yaml": USED % "x", "r.xml": body.encode(codec)})
    assert "USED-MEMORY-JUNCTION-HOT" in _rules(gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path))
    write(tmp_path, {"r.xml": body.encode("utf-8")})
    assert "USED-MEMORY-JUNCTION-HOT" in _rules(gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path))


def test_a_report_declaring_latin1_is_still_read_by_its_declaration(tmp_path: Path) -> None:
    """A declared single-byte encoding is the parser's to honour, not replaced by cp1252."""
    body = HOT_3090.replace('<?xml version="1.0" ?>', '<?xml version="1.0" encoding="ISO-8859-1"?>')
    write(tmp_path, {"p.yaml": USED % "x", "r.xml": body.replace("<serial>", "<serial>caf\xe9", 1).encode("latin-1")})
    assert "USED-MEMORY-JUNCTION-HOT" in _rules(gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path))


def test_a_report_cut_inside_a_character_is_still_said_to_be_cut(tmp_path: Path) -> None:
    data = HOT_3090.replace("<serial>", "<serial>\u00e9\u00e9", 1).encode()
    write(tmp_path, {"p.yaml": USED % "x", "r.xml": data[: data.index(b"\xc3\xa9") + 3]})
    one_line(gpuwise("audit", "p.yaml", cwd=tmp_path), "used_cards[0].nvidia_smi (r.xml)", "before the report does")


# ----------------------------------------------------------------------------- a serial of digits, unquoted
@pytest.mark.parametrize("written, report, found", [
    ("1324020012345", "1324020012345", False),  # 13 digits, as nvidia-smi prints a data-center board's
    ("0324020012345", "0324020012345", False),  # a leading zero: the serial as written, not 324020012345
    ("0123", "0123", False),
    ("1324020012345", "1324020012346", True),  # another card's report: said so, as for a quoted serial
])
def test_a_serial_of_digits_written_without_quotes_is_the_serial(tmp_path: Path, written: str, report: str,
                                                                 found: bool) -> None:
    """``serial: 1324020012345`` (unquoted, as copied from the report) was refused as
    'used_cards[0].serial: Input should be a valid string (got 1324020012345)', and ``0123`` as
    '(got 123)'. It is the serial as written, matched against the report's."""
    doc = (USED % "X").replace("serial: 'X'", f"serial: {written}")
    write(tmp_path, {"p.yaml": doc, "r.xml": re.sub(r"<serial>[^<]*", f"<serial>{report}", HOT_3090, count=1)})
    r = gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert ("USED-SERIAL-NOT-IN-REPORT" in _rules(r)) == found
    assert json.loads(r.stdout)["cards"][0]["serial"] == written


def test_a_count_written_010_is_still_ten(tmp_path: Path) -> None:
    """The number that keeps its text is still the number everywhere else (``count: 010`` is 10),
    also when the same bytes are parsed again (the memo of parsed files keeps it pickled)."""
    from gpuwise.yamlio import Written, parse_yaml

    for _ in range(2):
        got = parse_yaml(b"count: 010\nserial: 0123\n", tmp_path / "x.yaml")
        assert got == {"count": 10, "serial": 123} and isinstance(got["serial"], Written)
        assert got["serial"].written == "0123"
        assert json.dumps(got) == '{"count": 10, "serial": 123}'


# ----------------------------------------------------------------------------- a price CSV with blank lines above it
@pytest.mark.parametrize("head", ["\n\n", "\r\n", ",,,\n", "  \n", "\n,\n"])
def test_blank_lines_before_a_price_csv_header_are_passed_over(tmp_path: Path, head: str) -> None:
    """A sheet saved with empty rows above its table: the blank line was read as the header and
    the file refused as 'not a price catalog: the header lacks instance_name, price, ...'."""
    write(tmp_path, {"p.csv": head + "gpu,gpus,price\n\nH100 80GB SXM,8,20\n"})
    r = gpuwise("prices", "import", "p.csv", "--provider", "m", "-o", "ov", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "h100-80gb-sxm" in (tmp_path / "ov" / "clouds.yaml").read_text()
    write(tmp_path, {"q.csv": "\n\n\n"})  # nothing but blank lines: still an empty file
    one_line(gpuwise("prices", "import", "q.csv", "--provider", "m", "-o", "ov2", cwd=tmp_path), "q.csv", "empty file")


# ----------------------------------------------------------------------------- --lang as a locale, --fx-rate -1
@pytest.mark.parametrize("given, close", [("zh_CN", "zh"), ("zh-Hans", "zh"), ("ZH", "zh"), ("en_US.UTF-8", "en"),
                                          ("EN", "en")])
def test_a_language_given_as_a_locale_name_is_refused_with_its_language(given: str, close: str) -> None:
    """``--lang zh_CN`` (as ``LANG`` spells it), ``zh-Hans`` or ``ZH`` was refused with the list of
    choices only, while ``--currency cny`` got 'did you mean CNY?': words under three letters and a
    locale's region were never matched."""
    r = one_line(gpuwise("recommend", "examples/lora-70b.yaml", "--lang", given), "--lang",
                 f"did you mean {close}?")
    assert "choose from 'en', 'zh'" in r


def test_a_language_close_to_none_names_none() -> None:
    r = one_line(gpuwise("recommend", "examples/lora-70b.yaml", "--lang", "xx"), "--lang")
    assert "did you mean" not in r


@pytest.mark.parametrize("rate", ["-1", "-7.1", "-0.5"])
def test_a_negative_rate_is_said_to_be_out_of_range_not_no_number(rate: str) -> None:
    """``--fx-rate -1`` was 'is not a number': it is one, below the range the rate must be in."""
    r = one_line(gpuwise("recommend", "examples/lora-70b.yaml", "--fx-rate", rate), "--fx-rate",
                 "is not a rate of CNY per USD from 1e-06 to 1e+06")
    assert "not a number" not in r


def test_a_number_written_010_is_written_back_as_ten(tmp_path: Path) -> None:
    """``prices import`` merging into an overlay whose ``clouds.yaml`` says ``gpus: 010`` was an
    internal error ('RepresenterError: cannot represent an object', exit 3) once ``010`` kept its
    text: YAML's safe dumpers know ``int`` only. It is written back as 10, as it was read."""
    import yaml

    from gpuwise.ask.answers import render_answers
    from gpuwise.yamlio import parse_yaml

    offer = ("instances:\n- id: mine:h100x8\n  provider: mine\n  gpu: h100-80gb-sxm\n  gpus: 010\n"
             "  usd_per_hour: 16\n  as_of: 2026-12-01\n  source: a page\n  check: S\n")
    write(tmp_path, {"ov/clouds.yaml": offer, "p.csv": "gpu,gpus,price\nH100 80GB SXM,8,20\n"})
    r = gpuwise("prices", "import", "p.csv", "--provider", "m", "-o", "ov", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    kept = yaml.safe_load((tmp_path / "ov" / "clouds.yaml").read_text())["instances"]
    assert [(e["id"], e["gpus"]) for e in kept] == [("mine:h100x8", 10), ("m:H100 80GB SXM x8", 8)]
    answers = parse_yaml(b"workload:\n  task: finetune\n  model: llama-3.1-8b\n  seq_len: 01024\n", tmp_path / "a.yaml")
    assert "seq_len: 1024" in render_answers(answers)


@pytest.mark.parametrize("codec, declared, text", [
    ("gbk", "GBK", "中文"),  # Chinese Windows' ANSI code page, declared: 'multi-byte encodings are not supported'
    ("gbk", "cp936", "中文"),
    ("shift_jis", "Shift_JIS", "日本"),
    ("utf-8", "utf8", "é"),  # UTF-8 spelled without its hyphen: 'not well-formed (invalid token)'
    ("utf-8", "U8", "é"),
    ("cp1252", "windows-1252", "é"),
])
def test_a_report_declaring_its_encoding_is_read_by_it(tmp_path: Path, codec: str, declared: str, text: str) -> None:
    """The XML parser reads UTF-8, UTF-16, ISO-8859-1 and ASCII; a copy declaring GBK or
    Shift_JIS was refused ('multi-byte encodings are not supported'), and ``encoding="utf8"``
    with a non-ASCII byte as 'not well-formed'. Python's codecs read them: the same readings."""
    body = HOT_3090.replace('<?xml version="1.0" ?>', f'<?xml version="1.0" encoding="{declared}"?>')
    write(tmp_path, {"p.yaml": USED % "x", "r.xml": body.replace("<serial>", f"<serial>{text}", 1).encode(codec)})
    assert "USED-MEMORY-JUNCTION-HOT" in _rules(gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path))


def test_a_report_declaring_an_unknown_encoding_is_refused_naming_it(tmp_path: Path) -> None:
    body = HOT_3090.replace('<?xml version="1.0" ?>', '<?xml version="1.0" encoding="x-bogus"?>')
    write(tmp_path, {"p.yaml": USED % "x", "r.xml": body})
    one_line(gpuwise("audit", "p.yaml", cwd=tmp_path), "used_cards[0].nvidia_smi (r.xml)", "unknown encoding: x-bogus")
