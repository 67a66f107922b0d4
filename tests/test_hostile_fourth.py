"""A fourth round of hostile inputs (issue 26 items 5-6), tried as an attacker and as a careless
user would after tests/test_hostile_inputs.py, test_hostile_more.py and test_hostile_third.py were
closed: a seller's nvidia-smi reports (many GPUs, absurd readings, retyped units), house rules,
overlays, output paths, batches and the environment. These are the cases that broke the promise
(one line naming the file and field and exit 2 for bad input, bounded memory, no hang, nothing
replaced, never an internal error), each fixed; they run in-process where a process adds nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from tests.clirun import gpuwise
from tests.conftest import load_yaml
from tests.test_hostile_more import one_line

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest: one question's audits share its search

ROOT = Path(__file__).parent.parent
SMI = ROOT / "examples" / "nvidia-smi" / "rtx3080-like-healthy.xml"


def _seller(tmp_path: Path, xml: str, cards: int = 1) -> Path:
    """The mining proposal (four used RTX 3090s) with ``cards`` cards naming one report ``r.xml``."""
    (tmp_path / "r.xml").write_text(xml)
    doc = load_yaml((ROOT / "examples" / "proposal-used-3090-mining.yaml").read_text())
    doc["hardware"]["count"] = max(cards, 4)
    doc["used_cards"] = [{"nvidia_smi": "r.xml"} for _ in range(cards)]
    prop = tmp_path / "p.yaml"
    prop.write_text(yaml.safe_dump(doc))
    return prop


def _with_gpus(n: int) -> str:
    text = SMI.read_text()
    head = re.sub(r"<attached_gpus>\d+</attached_gpus>", f"<attached_gpus>{n}</attached_gpus>",
                  text[: text.index("<gpu id=")])
    return head + "<gpu/>" * n + "</nvidia_smi_log>\n"


def test_a_report_of_thousands_of_gpus_is_refused_before_its_cards_are_judged(tmp_path: Path) -> None:
    """3.6 MB of empty ``<gpu/>`` elements (600,000 GPUs, under the 4 MB size cap) were each judged
    as the card on offer: memory passed 16 GB before the run was killed. One host's report lists at
    most a few dozen GPUs; more is refused naming the card's report."""
    from gpuwise.decide.smi_report import MAX_GPUS

    prop = _seller(tmp_path, _with_gpus(MAX_GPUS + 1))
    one_line(gpuwise("audit", str(prop)), "used_cards[0].nvidia_smi (r.xml)", f"more than {MAX_GPUS} <gpu>")
    (tmp_path / "ok").mkdir()
    r = gpuwise("audit", str(_seller(tmp_path / "ok", _with_gpus(MAX_GPUS))), "--format", "json")
    assert r.returncode in (0, 1) and len(json.loads(r.stdout)["cards"]) == MAX_GPUS  # each GPU judged


def test_cards_times_the_gpus_of_their_report_are_bounded(tmp_path: Path) -> None:
    """1,000 cards without a serial naming one 64-GPU report were 64,000 card facts: 50 s and
    1.6 GB, and 10,000 such cards (the list's limit) would be 16 GB. Past 10,000 GPU readings the
    proposal is refused naming ``used_cards``."""
    from gpuwise.decide.audit import MAX_CARD_READINGS
    from gpuwise.decide.smi_report import MAX_GPUS

    cards = MAX_CARD_READINGS // MAX_GPUS + 1  # 157 cards x 64 GPUs = 10,048 readings
    r = gpuwise("audit", str(_seller(tmp_path, _with_gpus(MAX_GPUS), cards)))
    one_line(r, "p.yaml: used_cards:", f"more than {MAX_CARD_READINGS} GPU readings")


@pytest.mark.parametrize("old, new, words", [
    (r"<gpu_temp>[^<]*</gpu_temp>", "<gpu_temp>99999999999 C</gpu_temp>",
     "<gpu_temp> reads 99999999999 C: not a temperature a GPU reports"),
    (r"<memory_temp>[^<]*</memory_temp>", "<memory_temp>-300 C</memory_temp>", "<memory_temp> reads -300 C"),
    (r"<current_power_limit>[^<]*</current_power_limit>", "<current_power_limit>-320.00 W</current_power_limit>",
     "<current_power_limit> is -320 W: not a power a GPU reports"),
    (r"<default_power_limit>[^<]*</default_power_limit>", "<default_power_limit>50000.00 W</default_power_limit>",
     "<default_power_limit> is 50000 W"),
])
def test_an_absurd_temperature_or_power_refuses_the_report(tmp_path: Path, old: str, new: str, words: str) -> None:
    """A GPU at 99,999,999,999 C was judged 'at or above its own limit' and a power limit of -320 W
    read as a changed limit: readings no GPU gives mean an edited or broken report, refused by name."""
    prop = _seller(tmp_path, re.sub(old, new, SMI.read_text(), count=1))
    one_line(gpuwise("audit", str(prop)), "used_cards[0].nvidia_smi (r.xml): not valid nvidia-smi XML", words)


@pytest.mark.parametrize("reading", ["108 C", "108 °C", "108 ℃", "108C"])
def test_a_gddr6x_memory_junction_near_its_throttle_point_is_a_finding_however_the_unit_is_typed(
        tmp_path: Path, reading: str) -> None:
    """Item 6: an RTX 3090's GDDR6X at 108 C under load, 0.9 x 110 C = 99 C or more, is the mining
    warning (policy ``gddr6x_memory_throttle_c``, Igor's Lab). A seller who retyped the report as
    ``108 °C`` got no finding: the reading was read as unknown."""
    xml = re.sub(r"<memory_temp>[^<]*</memory_temp>", f"<memory_temp>{reading}</memory_temp>", SMI.read_text())
    r = gpuwise("audit", str(_seller(tmp_path, xml)), "--format", "json")
    assert r.returncode == 1, r.stderr
    hot = [f for f in json.loads(r.stdout)["findings"] if f["rule"] == "USED-MEMORY-JUNCTION-HOT"]
    assert len(hot) == 1 and "GDDR6X memory at 108 °C, near the 110 °C" in hot[0]["message"]


def test_a_gddr6x_memory_junction_below_the_warning_is_quiet(tmp_path: Path) -> None:
    xml = re.sub(r"<memory_temp>[^<]*</memory_temp>", "<memory_temp>98 C</memory_temp>", SMI.read_text())
    r = gpuwise("audit", str(_seller(tmp_path, xml)), "--format", "json")
    assert r.returncode == 1, r.stderr
    assert not [f for f in json.loads(r.stdout)["findings"] if f["rule"] == "USED-MEMORY-JUNCTION-HOT"]


# ----------------------------------------------------------------------------- house rules
QLORA = str(ROOT / "examples" / "qlora-70b-4090.yaml")


def _house(tmp_path: Path, condition: str = '[need_gb, ">", 1]', message: str = "{gpu_name} is out",
           rule_id: str = "HOUSE-X", top: str = "schema_version: 1") -> Path:
    d = tmp_path / "house"
    d.mkdir(exist_ok=True)
    (d / "h.yaml").write_text(
        f"{top}\nruleset: house\nstep: memory\nrules:\n  - id: {rule_id}\n    title: A house rule\n"
        f"    fact: candidate\n    when:\n      - {condition}\n    then:\n      action: reject\n"
        f"      topic: compatibility\n      message: {json.dumps(message)}\n"
        "    rationale: \"Because the team says so.\"\n    source: \"ENG-1\"\n")
    return d


def test_an_integer_of_four_hundred_digits_in_a_house_rule_is_judged(tmp_path: Path) -> None:
    """``[need_gb, ">", 1000...0]`` (10^400) was an internal error (OverflowError: the count
    search's bounds converted it to a float); 10^29 had been fixed. It is read as the engine reads
    it, 1e15: no candidate needs more, so none is rejected by it."""
    r = gpuwise("recommend", QLORA, "--rules", str(_house(tmp_path, '[need_gb, ">", 1' + "0" * 400 + "]")),
                "--format", "json")
    assert r.returncode in (0, 1), r.stderr
    assert not [c for c in json.loads(r.stdout)["candidates"] if "HOUSE-X" in c.get("rules", [])]


@pytest.mark.parametrize("condition, words", [
    ('[need_gb, ">", true]', "'need_gb' is a number; True is not"),  # compared sizes with 1
    ('[need_gb, ">", "12"]', "'need_gb' is a number; '12' is not"),  # never matched: the rule did nothing
    ('[need_gb, ">", 1:30]', "'1:30' is a time or a ratio, not a number (YAML 1.1 reads it as 90, in base 60)"),
    ('[need_gb, ">", 0o17]', "'0o17' is an octal number (15 in decimal)"),  # YAML 1.2 octal: text in YAML 1.1
    ('[gpu_name, ">", 5]', "'gpu_name' is text; 5 is not"),
    ('[cuda_device, "==", 1]', "'cuda_device' is true or false; 1 is not"),
    ('[acquisition, "==", biy]', "'biy' is not a value of 'acquisition' (did you mean 'buy'?)"),
    ('[vendor, "in", [nvidia, xyz]]', "'xyz' is not a value of 'vendor' (one of nvidia, amd, intel or huawei)"),
    ('[need_gb, ">", {ref: capacity_gb, plus: 3}]', "a reference has 'ref' and 'times' only, not plus"),
])
def test_a_condition_value_of_the_wrong_kind_is_one_line(tmp_path: Path, condition: str, words: str) -> None:
    """Each of these was accepted: a boolean where a number goes, a number written as text, a
    misspelt choice and an unknown key beside ``ref`` made a rule that compared nonsense or never
    fired, silently (exit 0 or 1)."""
    d = _house(tmp_path, condition)
    one_line(gpuwise("recommend", QLORA, "--rules", str(d)), f"{d / 'h.yaml'}: rule HOUSE-X: ", words)


def test_the_right_kinds_still_work(tmp_path: Path) -> None:
    d = _house(tmp_path, '[buy_condition, "in", [used, refurbished]]')
    assert gpuwise("recommend", QLORA, "--rules", str(d), "--format", "json").returncode in (0, 1)


@pytest.mark.parametrize("change, words", [
    # (planleft59: the limit and the length given, as an input file's field says them)
    ({"message": "{gpu_name} " + "x" * 2_000_000},
     "then.message: must have at most 2,000 characters (2,000,011 given)"),
    ({"rule_id": "HOUSE-" + "X" * 100_000}, "rule #0.id: must have at most 64 characters (100,006 given)"),
    ({"top": "schema_version: true"}, "schema_version: must be the number 1, not true"),
])
def test_huge_texts_and_a_true_version_in_a_house_rule_are_one_short_line(tmp_path: Path, change: dict,
                                                                          words: str) -> None:
    """A 2 MB message was repeated for every candidate: a 210 MB report in 16 s; a 100,000-letter
    id was accepted and echoed whole; ``schema_version: true`` passed as 1."""
    r = gpuwise("recommend", QLORA, "--rules", str(_house(tmp_path, **change)))
    assert len(one_line(r, words)) < 300


# ----------------------------------------------------------------------------- knowledge overlays
def _overlay(tmp_path: Path, name: str, body: str) -> str:
    kb = tmp_path / "kb"
    kb.mkdir(exist_ok=True)
    (kb / name).write_text(body)
    return str(kb)


@pytest.mark.parametrize("name, body, words", [
    ("runtime.yaml", "mfu:\n  ampere:\n    value: true\n", "runtime.yaml: mfu.ampere: "),  # an MFU of 1.0
    ("gpus.yaml", "gpus:\n  - id: rtx-4090\n    memory: {gb: yes}\n", "(id rtx-4090).memory: "),  # a 1 GB card
    ("prices.yaml", "gpus:\n  - id: rtx-4090\n    prices:\n      - {amount: true, condition: new, unit: card, "
     "kind: street, as_of: 2026-02-01, source: mine}\n", "(id rtx-4090).prices[0]: "),  # a $1 card
])
def test_a_yes_no_value_where_an_overlay_wants_a_number_is_one_line(tmp_path: Path, name: str, body: str,
                                                                     words: str) -> None:
    """pydantic takes True as 1: each of these was accepted (exit 0) and moved the answer."""
    kb = _overlay(tmp_path, name, body)
    r = gpuwise("recommend", QLORA, "--knowledge", kb)
    one_line(r, f"{kb}/{name}", words, "a yes/no value (YAML reads yes, no, on, off, true and false as booleans)")


def test_yes_no_fields_of_an_overlay_still_take_yes_and_no(tmp_path: Path) -> None:
    kb = _overlay(tmp_path, "models.yaml", "models:\n  - id: llama-3.1-8b\n    tied_embeddings: no\n")
    assert gpuwise("recommend", QLORA, "--knowledge", kb, "--format", "json").returncode in (0, 1)


def test_a_policy_integer_of_four_hundred_digits_is_out_of_range(tmp_path: Path) -> None:
    """``price_max_age_days: 10^400`` was an internal error (OverflowError in the range check)."""
    kb = _overlay(tmp_path, "policy.yaml", "price_max_age_days: 1" + "0" * 400 + "\n")
    one_line(gpuwise("recommend", QLORA, "--knowledge", kb), "policy.yaml: price_max_age_days: 1000",
             "is out of range: must be between 1 and 1e+12")


def test_a_model_of_a_trillion_layers_in_an_overlay_is_refused(tmp_path: Path) -> None:
    """A requirements file's architecture stops at 1,000 layers; an overlay's model had no limit
    (llama-3.1-8b with 10^12 layers was estimated, exit 1)."""
    kb = _overlay(tmp_path, "models.yaml", "models:\n  - id: llama-3.1-8b\n    layers: 1000000000000\n")
    one_line(gpuwise("recommend", QLORA, "--knowledge", kb), "(id llama-3.1-8b).layers",
             "must be at most 1000")


def test_an_overlay_file_named_in_capitals_is_not_skipped(tmp_path: Path) -> None:
    """``POLICY.YAML`` was skipped unread (exit 0, the built-in policy used): on a file system that
    ignores case it would have been read, so it is named as an unknown knowledge file."""
    kb = _overlay(tmp_path, "POLICY.YAML", "memory_headroom_fraction: 0.2\n")
    one_line(gpuwise("recommend", QLORA, "--knowledge", kb), "unknown knowledge file POLICY.YAML",
             "did you mean policy.yaml?")  # the name it stands for (hostile round 47), where the ten were listed


# ----------------------------------------------------------------------------- output paths
def test_an_output_path_longer_than_the_system_allows_is_one_line(tmp_path: Path) -> None:
    """``-o`` of 30 directories of 200 letters (over PATH_MAX, 4,096) was an internal error: the
    check that the output's directory exists raised ENAMETOOLONG."""
    target = "/".join(["d" * 200] * 30) + "/r.md"
    r = gpuwise("recommend", QLORA, "-o", target, cwd=tmp_path)
    assert len(one_line(r, "gpuwise: dddd")) <= 2010  # the name first, the line capped


@pytest.mark.parametrize("name, shown", [("r\nx.md", "wrote r\\nx.md"), ("r\x1b[31m.md", "wrote r\\x1b[31m.md")])
def test_a_control_character_in_the_output_name_is_escaped_in_the_wrote_line(tmp_path: Path, name: str,
                                                                              shown: str) -> None:
    """'gpuwise: wrote NAME' printed the name raw: a newline split the line in two, an escape
    sequence reached the terminal."""
    r = gpuwise("recommend", QLORA, "-o", name, cwd=tmp_path)
    assert r.returncode in (0, 1) and r.stderr == f"gpuwise: {shown}\n", r.stderr
    assert (tmp_path / name).is_file()
    prop = ROOT / "examples" / "proposal-good-lora-8xh100.yaml"
    r = gpuwise("audit", str(prop), str(prop), "-o", "b" + name, cwd=tmp_path)
    assert r.stderr == f"gpuwise: {shown.replace('wrote ', 'wrote b')}\n", r.stderr


# ----------------------------------------------------------------------------- environment
@pytest.mark.parametrize("xdg, home", [("rel/cache", None), ("", ""), ("", "/nonexistent-home/x")])
def test_no_cache_is_written_into_the_working_directory_or_an_invented_home(tmp_path: Path, monkeypatch, xdg: str,
                                                                            home: str | None) -> None:
    """A relative ``XDG_CACHE_HOME`` put ``rel/cache/gpuwise`` into the working directory (the XDG
    spec says to ignore it: the default is used), ``HOME=`` wrote ``/.cache/gpuwise`` and
    ``HOME=/nonexistent-home/x`` created that whole tree. With no such place there is no cache."""
    from gpuwise import cache

    (tmp_path / "home").mkdir()
    (tmp_path / "cwd").mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    monkeypatch.setenv("HOME", str(tmp_path / "home") if home is None else home)
    monkeypatch.setenv("GPUWISE_NO_CACHE", "0")
    monkeypatch.chdir(tmp_path / "cwd")
    cache.put("knowledge", "0" * 64, {"x": 1})
    assert list((tmp_path / "cwd").iterdir()) == [] and not Path("/nonexistent-home").exists()
    if home is None:
        assert cache.directory() == tmp_path / "home" / ".cache" / "gpuwise"
        assert cache.get("knowledge", "0" * 64) == {"x": 1}
    else:
        assert cache.directory() is None and cache.get("knowledge", "0" * 64) is None


def test_a_cache_directory_others_may_write_is_not_read(tmp_path: Path, monkeypatch) -> None:
    """An entry is a pickle: one planted in a shared or world-writable cache directory
    (``XDG_CACHE_HOME=/tmp``) would run as the user. Such a directory is neither read nor written."""
    import os

    from gpuwise import cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("GPUWISE_NO_CACHE", "0")
    cache.put("knowledge", "1" * 64, {"x": 1})
    assert cache.get("knowledge", "1" * 64) == {"x": 1}  # the user's own 0700 directory: used
    os.chmod(tmp_path / "gpuwise", 0o777)
    assert cache.get("knowledge", "1" * 64) is None
    cache.put("knowledge", "2" * 64, {"x": 2})
    assert not (tmp_path / "gpuwise" / f"knowledge-{'2' * 64}.pickle").exists()


@pytest.mark.parametrize("body, words", [
    ("default_network: ethernet-52\n", "default_network: unknown network 'ethernet-52' (did you mean ethernet-25?)"),
    ("default_discount_schedule: monthly\n", "default_discount_schedule: unknown discount schedule 'monthly' (one of"),
])
def test_an_overlays_default_network_or_discount_must_exist(tmp_path: Path, body: str, words: str) -> None:
    """A misspelt default network was accepted (never checked against runtime.yaml's networks),
    and a misspelt discount schedule silently meant no discount."""
    kb = _overlay(tmp_path, "clouds.yaml", body)
    one_line(gpuwise("recommend", QLORA, "--knowledge", kb), f"{kb}/clouds.yaml: ", words)


# ----------------------------------------------------------------------------- --help in Chinese
@pytest.mark.parametrize("command", [(), ("ask",), ("recommend",), ("audit",), ("plan",), ("estimate",), ("gpus",),
                                     ("prices",), ("prices", "import"), ("rules",), ("explain",)])
def test_help_in_chinese_words_every_option_and_fits_the_terminal(command: tuple[str, ...]) -> None:
    """``--lang zh --help`` translated the usage line only: every option's description, the
    headings and argparse's own '-h' line stayed English. Now each is the catalog's, wrapped by
    display width (a Chinese character is two columns) to COLUMNS; English help is as before."""
    from gpuwise.render.fmt import display_width

    zh = gpuwise(*command, "--lang", "zh", "--help", env={"COLUMNS": "80"})
    assert zh.returncode == 0 and zh.stdout.startswith("用法：gpuwise"), zh.stderr
    assert "显示此帮助信息并退出" in zh.stdout and "选项" in zh.stdout
    assert max(display_width(line) for line in zh.stdout.splitlines()) <= 80
    described = [line for line in zh.stdout.splitlines() if re.match(r"  \S.*\S {2,}\S", line)]
    assert all(re.search(r"[\u4e00-\u9fff]", line) for line in described), described  # no English description
    en = gpuwise(*command, "--help", env={"COLUMNS": "80"})
    assert "show this help message and exit" in en.stdout and not re.search(r"[\u4e00-\u9fff]", en.stdout)
