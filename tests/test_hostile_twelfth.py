"""A twelfth round of hostile inputs (issue 26 item 5), in this process: round eleven's open
questions decided (a CSV header with ``gpu`` and ``GPU``, a 5,000-workload plan, a closed standard
output, quoted yes/no and numbers, the power-limit finding's wording on a data-centre card), the
failures round twelve found (keys YAML reads as something other than text, options given twice,
a run from a removed directory, a seller's report in UTF-32, a Greek letter in a GPU name shown as
the Latin one, workload names differing only in case, a ``|``-separated CSV), and a sample of the
round's clean cases. The whole round is benchmarks/hostile_round12.py."""

from __future__ import annotations

import codecs
import copy
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.clirun import gpuwise
from tests.conftest import SAFE_DUMPER
from tests.test_hostile_eleventh import CUDA_RULE, EX, LORA, PLAN, PROP, ROOT
from tests.test_hostile_more import one_line

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest: audits of one question share the search

SMI = (ROOT / "tests/data/nvidia_smi/derived_rtx-3080-v13_as-3090-gddr6x-86c.xml").read_text()
VARIANTS = ROOT / "tests/data/nvidia_smi/variants"
USED = ("workload: {task: inference, model: llama-2-7b}\nhardware: {gpu: rtx-3090, count: 1}\n"
        "acquisition: {mode: buy, condition: used, unit_price_usd: 400}\nused_cards:\n"
        "  - {serial: '1', nvidia_smi: r.xml}\n")
IMPORT = ("prices", "import", "p.csv", "--provider", "m", "-o", "ov")


def write(tmp: Path, files: dict) -> None:
    for rel, body in files.items():
        p = tmp / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(body) if isinstance(body, bytes) else p.write_text(body, encoding="utf-8")


def plan_of(workloads: int) -> str:
    """The plan with ``workloads`` copies of its first workload (libyaml's emitter: PyYAML's own took
    about 2 s for 5,000 of them; the same text)."""
    d = yaml.safe_load(PLAN)
    d["workloads"] = [dict(copy.deepcopy(d["workloads"][0]), name=f"job-{i}") for i in range(workloads)]
    return yaml.dump(d, Dumper=SAFE_DUMPER)


def light_plan() -> str:
    """The plan's first two workloads (the second continuous) over 3 months: the same fields to read,
    a third of the solving (about 0.4 s against 1.2 s here): for checks of how the file is read."""
    d = yaml.safe_load(PLAN)
    d["workloads"], d["horizon_months"] = d["workloads"][:2], 3
    return yaml.safe_dump(d, sort_keys=False)


def renamed(i: int, name: str) -> str:
    d = yaml.safe_load(PLAN)
    d["workloads"][i]["name"] = name
    return yaml.safe_dump(d, allow_unicode=True)


# ----------------------------------------------------------------------------- round eleven's questions
def test_a_header_with_gpu_and_GPU_is_refused(tmp_path: Path) -> None:
    """Columns are matched by their exact names: the first was read and 'GPU' silently dropped."""
    write(tmp_path, {"p.csv": "gpu,GPU,gpus,price\nH100 80GB SXM,x,8,20\n"})
    one_line(gpuwise(*IMPORT, cwd=tmp_path), "p.csv", "columns 'gpu' and 'GPU' differ only in case")
    assert not (tmp_path / "ov").exists()
    one_line(gpuwise(*IMPORT, "--lang", "zh", cwd=tmp_path), "仅大小写不同")


def test_a_header_of_GPU_alone_is_offered_gpu(tmp_path: Path) -> None:
    """difflib offered 'gpus' for the missing 'gpu' over the 'GPU' the file had. (A header that names a layout's
    columns but for case is read since hostile round 53: 'prices' here keeps this one refused.)"""
    write(tmp_path, {"p.csv": "GPU,gpus,prices\nH100 80GB SXM,8,20\n"})
    one_line(gpuwise(*IMPORT, cwd=tmp_path), "did you mean 'GPU' for 'gpu'?")


@pytest.mark.parametrize("workloads, got", [(51, "(got 51)"), (5000, "(got more than 4,761)")])
def test_a_plan_over_its_workload_limit_names_the_field_and_limit(tmp_path: Path, workloads: int, got: str) -> None:
    """5,000 workloads were 'invalid YAML ...: more than 100000 values', naming neither the field nor
    the plan's limit of 50 (PlanFile.workloads max_length): the file's value limit, reached inside
    that list, is said as the list's (each workload is 21 values: 4,761 of them reach 100,000)."""
    write(tmp_path, {"plan.yaml": plan_of(workloads)})
    one_line(gpuwise("plan", "plan.yaml", cwd=tmp_path), f"plan.yaml: workloads: must have at most 50 item(s) {got}")


def test_the_value_limit_names_the_list_it_hit() -> None:
    """A list without a schema limit still says the limit and where it was reached."""
    from gpuwise.errors import UserError
    from gpuwise.yamlio import parse_yaml

    text = "rows:\n" + "".join(f"  - {i}\n" for i in range(100_001))
    with pytest.raises(UserError) as caught:
        parse_yaml(text.encode(), Path("x.yaml"))
    said = str(caught.value)  # the mapping, its key and the list are 3 values: 99,998 entries cross 100,000
    assert "more than 100,000 values" in said and "'rows' had 99,998 entries so far" in said


def test_list_caps_come_from_the_schema() -> None:
    from gpuwise.inputs.schema import list_caps
    from gpuwise.plan.schema import PlanFile

    assert list_caps(PlanFile) == {"owned": 100, "workloads": 50}


def test_a_closed_stdout_refuses_a_report(monkeypatch: pytest.MonkeyPatch) -> None:
    """``>&-`` left sys.stdout None: the report went nowhere with exit 0 or 1 (a rejected audit read
    as its verdict, an approval with nothing to show). A report to a file is still written."""
    import sys

    from gpuwise.errors import UserError
    from gpuwise.render import output

    monkeypatch.setattr(sys, "stdout", None)
    with pytest.raises(UserError, match="standard output is closed: the report would be lost"):
        output.refuse_closed_stdout(None)
    with pytest.raises(UserError):
        output.refuse_closed_stdout("-")
    output.refuse_closed_stdout("report.md")  # a file: nothing to refuse


def test_the_answer_memo_never_replays_onto_a_closed_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memo's key read isatty() of a closed stdout as False, as for a file: the replay wrote
    nothing and returned the recorded 0."""
    from gpuwise import memo

    real = os.fstat

    def closed_stdout(fd: int):
        if fd == 1:
            raise OSError(9, "Bad file descriptor")
        return real(fd)

    monkeypatch.delenv("GPUWISE_NO_CACHE", raising=False)
    monkeypatch.setattr(os, "fstat", closed_stdout)
    assert memo.key(["explain", "MEM-FITS"]) is None


def test_a_removed_working_directory_is_no_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from a directory removed after it was entered, os.getcwd() raised FileNotFoundError in
    the memo's key, before the run began: a traceback."""
    from gpuwise import memo

    def gone() -> str:
        raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.delenv("GPUWISE_NO_CACHE", raising=False)
    monkeypatch.setattr(os, "getcwd", gone)
    assert memo.key(["explain", "MEM-FITS"]) is None


@pytest.mark.parametrize("value, ok", [("yes", True), ("true", True), ("1", True), ("no", False), ("off", False),
                                       ("maybe", None)])
def test_a_quoted_yes_or_no_is_read_as_unquoted(tmp_path: Path, value: str, ok: bool | None) -> None:
    """Decided: a quoted yes/no reads as the unquoted one (docs/formats.md says why); another word is
    refused naming the field. 'no' is false: the cadence then names no kind and is refused."""
    light = light_plan()
    assert "continuous: true" in light
    write(tmp_path, {"plan.yaml": light.replace("continuous: true", f"continuous: '{value}'")})
    r = gpuwise("plan", "plan.yaml", "--format", "json", cwd=tmp_path)
    if ok:
        assert r.returncode in (0, 1), r.stderr
    else:
        one_line(r, "workloads[1].cadence", "continuous" if ok is None else "give exactly one of")


def test_a_data_centre_card_capped_is_not_called_a_miners_card(tmp_path: Path) -> None:
    """An A100 at 300 W of its 500 W default (variants/a100_v12-power-limit-lowered.xml): the finding
    said 'miners lower it for efficiency'; the wording now holds for every card class, and the
    rationale gives the reasons by class (mining on GeForce, a rack's power budget in a data centre)."""
    from gpuwise import audit
    from gpuwise.decide.rulebook import load

    (tmp_path / "card.xml").write_bytes((VARIANTS / "a100_v12-power-limit-lowered.xml").read_bytes())
    doc = {"workload": {"task": "inference", "model": "llama-3.1-8b"}, "hardware": {"gpu": "a100-80gb-sxm", "count": 1},
           "acquisition": {"mode": "buy", "condition": "used"},
           "used_cards": [{"nvidia_smi": "card.xml", "serial": "1650522003820", "manufactured": "2023-01",
                           "purchased": "2026-06"}]}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(doc))
    found = [f for f in audit(str(tmp_path / "p.yaml")).findings if f.rule == "USED-POWER-LIMIT-CHANGED"]
    assert len(found) == 1 and "300 W from the board default 500 W" in found[0].message
    assert "miner" not in found[0].message and "runs slower than its rating" in found[0].message
    rule = load().rules["USED-POWER-LIMIT-CHANGED"]
    assert "mining" in rule.rationale and "power budget" in rule.rationale


# ----------------------------------------------------------------------------- round twelve's failures
@pytest.mark.parametrize("line, shown", [
    ("~: 1\n", "the key ~ is not text: YAML read it as null"),
    ("yes: 1\n", "the key true is not text: YAML read it as a yes/no value"),
    ("1: x\n", "the key 1 is not text: YAML read it as a number"),
])
def test_a_key_that_is_not_text_is_named_as_such(tmp_path: Path, line: str, shown: str) -> None:
    """'~: 1' was 'r.yaml: None: Keys should be strings (got None)'; 'yes: 1' was '[1]: ... (got True)'."""
    write(tmp_path, {"r.yaml": LORA + line})
    err = one_line(gpuwise("recommend", "r.yaml", cwd=tmp_path), "r.yaml: ", shown, "quote it")
    assert "Keys should be strings" not in err


def test_a_date_key_inside_a_section_names_the_section(tmp_path: Path) -> None:
    write(tmp_path, {"r.yaml": LORA.replace("workload:\n", "workload:\n  2026-01-01: 1\n", 1)})
    one_line(gpuwise("recommend", "r.yaml", cwd=tmp_path), "r.yaml: workload: the key 2026-01-01", "a date")
    write(tmp_path, {"plan.yaml": PLAN + "~: 1\n"})
    one_line(gpuwise("plan", "plan.yaml", cwd=tmp_path), "plan.yaml: the key ~")


@pytest.mark.parametrize("argv, option", [
    (["recommend", "r.yaml", "--rules", "h1", "--rules", "h2"], "--rules"),
    (["recommend", "r.yaml", "--knowledge", "k1", "--knowledge", "k2"], "--knowledge"),
    (["recommend", "r.yaml", "-o", "a.md", "-o", "b.json"], "-o/--output"),
    (["audit", "p.yaml", "--format", "json", "--format", "md"], "--format"),
    (["prices", "import", "p.csv", "--provider", "m", "-o", "ov", "-o", "ov2"], "-o/--output"),
])
def test_an_option_given_twice_is_refused(tmp_path: Path, argv: list, option: str) -> None:
    """argparse kept the last: '--rules team --rules site' silently dropped the team's house rules,
    '-o a.md -o b.json' wrote b.json alone."""
    write(tmp_path, {"r.yaml": LORA, "p.yaml": PROP, "p.csv": "gpu,gpus,price\nH100 80GB SXM,8,20\n",
                     "h1/r.yaml": CUDA_RULE, "h2/x.yaml": "rules: []\n",
                     "k1/policy.yaml": "memory_headroom_fraction: 0.1\n",
                     "k2/policy.yaml": "memory_headroom_fraction: 0.2\n"})
    one_line(gpuwise(*argv, cwd=tmp_path), f"argument {option}: given twice")
    assert not (tmp_path / "a.md").exists() and not (tmp_path / "b.json").exists() and not (tmp_path / "ov").exists()


def test_an_option_given_twice_alike_is_one(tmp_path: Path) -> None:
    write(tmp_path, {"r.yaml": LORA, "h1/r.yaml": CUDA_RULE})
    r = gpuwise("recommend", "r.yaml", "--rules", "h1", "--rules", "h1", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and "HOUSE-CUDA-ONLY" in r.stdout


def test_an_option_given_twice_is_said_in_chinese(tmp_path: Path) -> None:
    write(tmp_path, {"p.yaml": PROP})
    err = one_line(gpuwise("audit", "p.yaml", "--format", "json", "--format", "md", "--lang", "zh", cwd=tmp_path))
    assert "给出了两次" in err and "given twice" not in err


@pytest.mark.parametrize("bom, codec", [(codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be")])
def test_a_seller_report_in_utf32_is_read(tmp_path: Path, bom: bytes, codec: str) -> None:
    """PowerShell's Out-File -Encoding utf32: its mark starts as UTF-16's, and the report was decoded
    as UTF-16 and refused as 'line 850: something follows the report's end'."""
    write(tmp_path, {"p.yaml": USED, "r.xml": bom + SMI.encode(codec)})
    utf32 = gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    write(tmp_path, {"r.xml": SMI})
    utf8 = gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert utf32.returncode == utf8.returncode == 0, utf32.stderr
    assert utf32.stdout == utf8.stdout


@pytest.mark.parametrize("gpu, shown", [("\u0397100-80G", "'\\u0397100-80G'"), ("H100\u200b-80G", "\\u200b"),
                                        ("Н100-80G", "\\u041d")])
def test_a_lookalike_letter_in_a_gpu_name_is_shown_escaped(tmp_path: Path, gpu: str, shown: str) -> None:
    """'unknown gpu 'Η100-80G'' (a Greek Eta) read exactly as the name it was not."""
    write(tmp_path, {"p.yaml": PROP.replace("gpu: H100-80G", f"gpu: {gpu}")})
    one_line(gpuwise("audit", "p.yaml", cwd=tmp_path), "unknown gpu", shown)


def test_a_line_separator_in_a_model_name_is_shown_not_collapsed(tmp_path: Path) -> None:
    """'llama\\u2028x' was shown as 'llama x' (the one-line error splits on every Unicode space)."""
    write(tmp_path, {"r.yaml": LORA.replace("model: llama-3.1-70b", 'model: "llama\\u2028x\\x85y"')})
    one_line(gpuwise("recommend", "r.yaml", cwd=tmp_path), "'llama\\u2028x\\x85y'")


def test_a_chinese_name_is_not_escaped() -> None:
    from gpuwise.knowledge.names import visible

    assert visible("英伟达H100") == "英伟达H100" and visible("Η100") == "\\u0397100"


@pytest.mark.parametrize("name, shown", [("LoRA-8B", "'LoRA-8B'"), ("lora\u200b-8b", "\\u200b"),
                                         ("ｌｏｒａ-8b", "\\uff4c")])
def test_workload_names_one_to_a_reader_are_refused(tmp_path: Path, name: str, shown: str) -> None:
    """'lora-8b' and 'LoRA-8B' (or one with a zero-width space) were two workloads a report showed
    as one name."""
    write(tmp_path, {"plan.yaml": renamed(1, name)})
    one_line(gpuwise("plan", "plan.yaml", cwd=tmp_path), "workload names 'lora-8b' and", shown, "differ only in case")


def test_a_pipe_separated_csv_says_so(tmp_path: Path) -> None:
    """Was 'the header lacks instance_name, price, ...': the file was read as one column."""
    write(tmp_path, {"p.csv": "gpu|gpus|price\nH100 80GB SXM|8|20\n"})
    one_line(gpuwise(*IMPORT, cwd=tmp_path), "p.csv", "separated by '|'")


# ----------------------------------------------------------------------------- a sample of the clean cases
@pytest.mark.parametrize("text, words", [
    ("%YAML 9.9\n---\n" + LORA, ["r.yaml"]),
    (LORA + "...\ngarbage: [\n", ["r.yaml"]),
    ("---\n", ["r.yaml", "empty"]),
    ("s: &s text\nworkload:\n  <<: *s\n", ["r.yaml"]),
    (LORA.replace("seq_len: 4096", "seq_len: *nope"), ["r.yaml"]),
    (LORA.replace("seq_len: 4096", "seq_len: !!bool true"), ["seq_len"]),
    (LORA.replace("seq_len: 4096", "seq_len: 18446744073709551617"), ["seq_len"]),
    (LORA + "k" * 100_000 + ": 1\n", ["r.yaml"]),
])
def test_yaml_at_its_boundaries_is_one_line(tmp_path: Path, text: str, words: list) -> None:
    write(tmp_path, {"r.yaml": text})
    err = one_line(gpuwise("recommend", "r.yaml", cwd=tmp_path), *words)
    assert len(err) < 3000


@pytest.mark.parametrize("raw", [codecs.BOM_UTF32_LE + LORA.encode("utf-32-le"),
                                 ("\ufeff" + LORA).replace("\n", "\r\n").encode(),
                                 LORA.replace("seq_len: 4096", "seq_len: !!str 4096").encode()])
def test_yaml_in_other_encodings_and_tags_is_read(tmp_path: Path, raw: bytes) -> None:
    write(tmp_path, {"r.yaml": raw})
    r = gpuwise("recommend", "r.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and r.stderr == "", r.stderr


@pytest.mark.parametrize("title, char", [("Rent \x9b2J now", "\x9b"), ("Rent\u2028now", "\u2028"),
                                         ("Rent\U000e0049 now", "\U000e0049")])
def test_c1_controls_and_separators_in_a_title_are_escaped(tmp_path: Path, title: str, char: str) -> None:
    d = yaml.safe_load(PROP)
    d["title"] = title
    write(tmp_path, {"p.yaml": yaml.safe_dump(d, allow_unicode=True)})
    r = gpuwise("audit", "p.yaml", cwd=tmp_path)
    assert r.returncode == 0 and char not in r.stdout + r.stderr


def test_the_report_being_the_proposal_is_refused(tmp_path: Path) -> None:
    write(tmp_path, {"p.yaml": USED.replace("r.xml", "p.yaml")})
    one_line(gpuwise("audit", "p.yaml", cwd=tmp_path), "nvidia_smi", "not valid nvidia-smi XML")


def test_a_batch_member_that_cannot_be_read_is_its_own_error(tmp_path: Path) -> None:
    """/proc/self/mem opens and fails to read (EIO): the batch judges the others."""
    write(tmp_path, {"b/a.yaml": PROP})
    (tmp_path / "b" / "m.yaml").symlink_to("/proc/self/mem")
    r = gpuwise("audit", "b", "--format", "json", cwd=tmp_path)
    assert r.returncode == 2 and "m.yaml: cannot read" in r.stderr and "a.yaml" in r.stdout


@pytest.mark.parametrize("mode", [0o640, 0o400])
def test_an_existing_report_keeps_its_mode(tmp_path: Path, mode: int) -> None:
    write(tmp_path, {"r.yaml": LORA, "o.html": "OLD\n"})
    os.chmod(tmp_path / "o.html", mode)
    r = gpuwise("recommend", "r.yaml", "-o", "o.html", cwd=tmp_path)
    assert r.returncode in (0, 1)
    assert (tmp_path / "o.html").stat().st_mode & 0o777 == mode and (tmp_path / "o.html").read_text() != "OLD\n"


# ----------------------------------------------------------------------------- closed streams, real processes
def _closed(tmp_path: Path, argv: str, redirect: str) -> int:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GPUWISE_NO_CACHE": "1"}
    return subprocess.run(f"{sys.executable} -m gpuwise {argv} {redirect}", shell=True, executable="/bin/bash",
                          cwd=tmp_path, env=env, timeout=300, capture_output=True).returncode


def test_a_report_to_a_file_is_written_with_stdout_closed(tmp_path: Path) -> None:
    """With ``>&-`` sys.stdout is None, as stream_for() of a file name is: emit() took every -o file
    for standard output and dropped the report (exit 0, no file, no 'wrote')."""
    write(tmp_path, {"p.yaml": PROP})
    assert _closed(tmp_path, "audit p.yaml -o o.md", ">&-") == 0
    assert (tmp_path / "o.md").read_text().startswith("# ")


def test_a_batch_with_stderr_closed_keeps_its_verdict(tmp_path: Path) -> None:
    """``2>&-``: the batch asked sys.stderr (None) whether it was a terminal: an internal error (exit
    3) in place of the rejected batch's 1."""
    write(tmp_path, {"b/a.yaml": PROP, "b/r.yaml": (EX / "proposal-16x4090-70b-full.yaml").read_text()})
    assert _closed(tmp_path, "audit b", "2>&- >/dev/null") == 1
