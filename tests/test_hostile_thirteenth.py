"""A thirteenth round of hostile inputs (issue 26 items 5 and 6), in this process: the failures round
thirteen found (a subnormal hourly price that crashed the rule engine, a subnormal cadence the plan's
solver could not use) and a sample of its clean cases that pin the promise (memory junction
temperature against the GDDR6X throttle point at and around it). The whole round is
benchmarks/hostile_round13.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from benchmarks.hostile_round13 import ids_in
from tests.clirun import gpuwise
from tests.test_hostile_eleventh import PLAN, PROP
from tests.test_hostile_more import one_line
from tests.test_hostile_twelfth import SMI, USED, write

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest: audits of one question share the search


def _set(text: str, path: str, value: object) -> str:
    d = yaml.safe_load(text)
    cur = d
    keys = path.split(".")
    for k in keys[:-1]:
        cur = cur[int(k)] if isinstance(cur, list) else cur[k]
    cur[keys[-1]] = value
    return yaml.safe_dump(d, allow_unicode=True)


@pytest.mark.parametrize("value", [5e-324, 1e-300, 0.0005])
def test_a_proposal_hourly_price_below_a_tenth_of_a_cent_is_refused(tmp_path: Path, value: float) -> None:
    """``hourly_usd: 5e-324`` passed the proposal's check (> 0), made a cost per token of inf and
    stopped the rule engine: 'internal error' and exit 3. The knowledge base's offers are refused
    below $0.001 an hour (knowledge/schema/clouds.py); a proposal's price now has the same floor."""
    write(tmp_path, {"p.yaml": _set(PROP, "acquisition.hourly_usd", value)})
    one_line(gpuwise("audit", "p.yaml", cwd=tmp_path), "p.yaml: acquisition.hourly_usd:", "below 0.001")


def test_a_proposal_hourly_price_at_the_floor_is_read(tmp_path: Path) -> None:
    """$0.001 an hour is the floor itself: read, not refused (the proposal's 8 x H100 at that price)."""
    write(tmp_path, {"p.yaml": _set(PROP, "acquisition.hourly_usd", 0.001)})
    r = gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr


@pytest.mark.parametrize("value", [5e-324, 1e-300, 0.009])
def test_a_cadence_rarer_than_once_in_a_hundred_months_is_refused(tmp_path: Path, value: float) -> None:
    """``per_month: 5e-324`` reached the plan's solver as a coefficient it could not use: exit 2 with
    'the plan's program could not be solved (Empty)', naming no field. A monthly cadence is now at
    least 0.01 (once in 100 months; a rarer run is one run, ``at_month``), refused at its field."""
    write(tmp_path, {"plan.yaml": _set(PLAN, "workloads.0.cadence.per_month", value)})
    one_line(gpuwise("plan", "plan.yaml", cwd=tmp_path), "workloads[0].cadence.per_month", "0.01")


def _ids(stdout: str) -> set[str]:
    """The finding ids of an audit's JSON answer (the corpus's own reading: benchmarks/hostile_round13.py)."""
    return ids_in(json.loads(stdout))


@pytest.mark.parametrize("temp, hot", [("98 C", False), ("98.9 C", False), ("99 C", True), ("110 C", True),
                                       ("111 C", True), ("230 F", True), ("N/A", False)])
def test_gddr6x_memory_junction_is_judged_against_its_throttle_point(tmp_path: Path, temp: str, hot: bool) -> None:
    """knowledge/policy.yaml: GDDR6X throttles at 110 deg C (Igor's Lab's junction measurements,
    2020-09) and a used card is warned at 0.9 of it: 0.9 x 110 = 99 deg C. 98 and 98.9 are below,
    99 is at it, 230 F is (230 - 32) x 5 / 9 = 110 deg C; N/A is no reading."""
    xml = SMI.replace("<memory_temp>86 C</memory_temp>", f"<memory_temp>{temp}</memory_temp>", 1)
    write(tmp_path, {"p.yaml": USED, "r.xml": xml})
    r = gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
    assert ("USED-MEMORY-JUNCTION-HOT" in _ids(r.stdout)) == hot


@pytest.mark.parametrize("argv, words", [
    (("recomend", "r.yaml"), ("invalid choice: 'recomend'", "did you mean recommend?")),
    (("RECOMMEND", "r.yaml"), ("did you mean recommend?",)),
    (("recommend", "r.yaml", "--formt", "json"), ("unrecognized arguments: --formt json", "did you mean --format?")),
    (("recommend", "r.yaml", "--format", "JSON"), ("invalid choice: 'JSON'", "did you mean json?")),
    # product64: 'usd' is taken as USD on every command (an ISO code in any case); a misspelt code keeps its match
    (("audit", "p.yaml", "--currency", "usdd"), ("did you mean USD?",)),
])
def test_a_misspelt_command_option_or_choice_gets_its_close_match(tmp_path: Path, argv: tuple, words: tuple) -> None:
    """The command line's own words were refused with the list of every choice and no close match
    ('recomend', '--formt', 'JSON' for json), where a file's misspelt field gets one."""
    write(tmp_path, {"r.yaml": "workload: {task: finetune}\n", "p.yaml": PROP})
    r = gpuwise(*argv, cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    for w in words:
        assert w in r.stderr, r.stderr


def test_a_far_word_gets_no_close_match(tmp_path: Path) -> None:
    """'help' is no command and close to none: no guess is offered."""
    r = gpuwise("help", cwd=tmp_path)
    assert r.returncode == 2 and "did you mean" not in r.stderr, r.stderr


def test_the_close_match_is_in_chinese_with_lang_zh(tmp_path: Path) -> None:
    r = gpuwise("recomend", "x.yaml", "--lang", "zh", cwd=tmp_path)
    assert r.returncode == 2 and "你是不是指 recommend？" in r.stderr, r.stderr


@pytest.mark.parametrize("command, given, words", [
    ("recommend", "p.yaml", ("p.yaml: this is a proposal, not a requirements file (it has hardware)",
                             "`gpuwise audit p.yaml`")),
    ("estimate", "p.yaml", ("this is a proposal, not a requirements file", "`gpuwise audit p.yaml`")),
    ("recommend", "plan.yaml", ("plan.yaml: this is a plan file, not a requirements file (it has workloads)",
                                "`gpuwise plan plan.yaml`")),
    ("audit", "plan.yaml", ("this is a plan file, not a proposal (it has workloads)",)),
    ("audit", "r.yaml", ("r.yaml: this is a requirements file, not a proposal (it has no hardware)",
                         "`gpuwise recommend r.yaml`")),
    ("plan", "p.yaml", ("p.yaml: this is a proposal, not a plan file (it has hardware)",)),
    ("plan", "r.yaml", ("r.yaml: this is a requirements file, not a plan file (it has no workloads)",)),
])
def test_a_file_of_another_kind_is_named_with_its_command(tmp_path: Path, command: str, given: str,
                                                          words: tuple) -> None:
    """A plan given to ``recommend`` was refused as 'constraints.budget_per_quarter_usd: unknown key
    (did you mean 'budget_usd'?)', sending its writer to edit a right file; a proposal as 'title:
    unknown key; 3 more problems'. The file is now named for what it is and the command that reads it."""
    write(tmp_path, {"r.yaml": (Path(__file__).parent.parent / "examples/lora-70b.yaml").read_text(),
                     "p.yaml": PROP, "plan.yaml": PLAN})
    argv = (command, given, "--gpu", "H100-80G") if command == "estimate" else (command, given)
    one_line(gpuwise(*argv, cwd=tmp_path), *words)


def test_a_proposal_with_a_bad_field_is_still_refused_by_its_field(tmp_path: Path) -> None:
    """Only a file of another kind is named so: a proposal's own mistake keeps its field's message."""
    write(tmp_path, {"p.yaml": _set(PROP, "hardware.count", -1)})
    one_line(gpuwise("audit", "p.yaml", cwd=tmp_path), "hardware.count")


@pytest.mark.parametrize("path, value, close", [("constraints.currency", "cny", "CNY"),
                                                ("acquisition.mode", "RENT", "rent")])
def test_a_choice_in_the_wrong_case_gets_its_close_match(tmp_path: Path, path: str, value: str, close: str) -> None:
    """``currency: cny`` was refused as "'cny' is not one of 'USD' or 'CNY'" with no close match:
    difflib's match is case-sensitive and 'cny' is no closer to 'CNY' than to 'USD'."""
    write(tmp_path, {"p.yaml": _set(PROP, path, value)})
    one_line(gpuwise("audit", "p.yaml", cwd=tmp_path), f"did you mean {close}?")


@pytest.mark.parametrize("value", [5e-324, 1e-9, 0.5])
def test_a_card_price_below_one_is_refused(tmp_path: Path, value: float) -> None:
    """``unit_price_usd: 5e-324`` was read: 8 x H100 bought for nothing, the audit's total was the
    hosting alone (exit 0). A card costs at least 1 in the file's currency."""
    d = yaml.safe_load(PROP)
    d["acquisition"] = {"mode": "buy", "unit_price_usd": value}
    write(tmp_path, {"p.yaml": yaml.safe_dump(d)})
    one_line(gpuwise("audit", "p.yaml", cwd=tmp_path), "acquisition.unit_price_usd", "must be at least 1")


def test_an_ambiguous_model_is_not_told_about_form_factors(tmp_path: Path) -> None:
    """'model: mistral' was refused with the GPUs' hint, 'a name without the form factor is the SXM
    part': a model has no form factor. It is told to give the variant, with one of the list."""
    write(tmp_path, {"r.yaml": "workload: {task: inference, model: mistral}\n"})
    err = one_line(gpuwise("recommend", "r.yaml", cwd=tmp_path), "'mistral' is ambiguous", "give the variant, e.g. ")
    assert "SXM" not in err and "form factor" not in err


def _card_rule(condition: str) -> str:
    """The example house rule made a card rule (a warning) with one condition."""
    return (Path(__file__).parent.parent / "examples/house-rules/cuda-only.yaml").read_text().replace(
        "fact: candidate", "fact: card").replace('[cuda_device, "==", false]', condition).replace(
        "action: reject", "action: finding\n      severity: warning").replace("{gpu_name} is not", "{serial} is not")


def test_a_house_rule_comparing_a_number_with_a_text_field_is_refused(tmp_path: Path) -> None:
    """``[mem_temp_c, ">=", "$mem_type"]`` (a temperature against the memory type's name) was read
    and never matched: the rule was silently off. A literal of the wrong kind was refused already
    (round 9); a ``$field`` of another kind now is too."""
    rule = _card_rule('[mem_temp_c, ">=", "$mem_type"]')
    write(tmp_path, {"p.yaml": USED, "r.xml": SMI, "h/r.yaml": rule})
    one_line(gpuwise("audit", "p.yaml", "--rules", "h", cwd=tmp_path), "h/r.yaml", "'mem_temp_c' and 'mem_type'",
             "never compare")


def test_a_house_rule_comparing_two_number_fields_is_read(tmp_path: Path) -> None:
    """Two number fields compare (``mem_temp_c`` against ``mem_throttle_c``, as USED-MEMORY-JUNCTION-HOT
    does through a reference): the check refuses only fields of different kinds."""
    rule = _card_rule('[mem_temp_c, ">=", "$mem_throttle_c"]')
    write(tmp_path, {"p.yaml": USED, "r.xml": SMI, "h/r.yaml": rule})
    r = gpuwise("audit", "p.yaml", "--rules", "h", cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr


@pytest.mark.parametrize("as_of", ["", "20260105"])
def test_an_import_date_not_written_yyyy_mm_dd_is_refused(tmp_path: Path, as_of: str) -> None:
    """``--as-of ""`` (a script's ``--as-of "$DAY"`` with the variable unset) was taken for no date:
    the prices were dated by the file's time, silently (exit 0). ``20260105`` was read though the
    hint asks for YYYY-MM-DD. Both are refused; nothing is written."""
    write(tmp_path, {"p.csv": "gpu,gpus,price\nH100 80GB SXM,8,20\n"})
    one_line(gpuwise("prices", "import", "p.csv", "--provider", "m", "-o", "ov", "--as-of", as_of, cwd=tmp_path),
             "--as-of", "is not a date", "YYYY-MM-DD")
    assert not (tmp_path / "ov").exists()


@pytest.mark.parametrize("patch, words", [
    ("peaks: {bf16: 1.0e-9}", ("peaks.bf16", "1e-09 is below 0.01")),
    ("peaks: {fp8: 50}", ("peaks", "fp8 50 is below bf16 989.5", "never slower")),
    ("peaks: {fp4: 100}", ("fp4 100 is below fp8 1979",)),
])
def test_an_overlay_gpu_with_contradictory_peaks_is_refused(tmp_path: Path, patch: str, words: tuple) -> None:
    """An overlay's H100 with ``bf16: 1.0e-9`` (TFLOP/s) or an FP8 peak of 50 under its BF16 of 989.5
    (NVIDIA H100 datasheet, dense: FP8 1,979 = 2 x BF16) was read and recommended from (exit 0)."""
    write(tmp_path, {"r.yaml": (Path(__file__).parent.parent / "examples/lora-70b.yaml").read_text(),
                     "k/gpus.yaml": "gpus:\n  - id: h100-80gb-sxm\n    " + patch + "\n"})
    one_line(gpuwise("recommend", "r.yaml", "--knowledge", "k", cwd=tmp_path), "k/gpus.yaml", *words)


def test_an_overlay_gpu_without_a_bf16_path_is_read(tmp_path: Path) -> None:
    """0 is no hardware path (as a V100's BF16): not refused by the floor."""
    write(tmp_path, {"r.yaml": (Path(__file__).parent.parent / "examples/lora-70b.yaml").read_text(),
                     "k/gpus.yaml": "gpus:\n  - id: h100-80gb-sxm\n    peaks: {bf16: 0}\n"})
    r = gpuwise("recommend", "r.yaml", "--knowledge", "k", cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
