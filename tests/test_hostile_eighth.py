"""An eighth round of hostile inputs (issue 26 item 5).

First the cases left questionable at the last stop, each decided as a user would expect: a catalog
figure far beyond every part made (an overlay GPU of 1e9 GB) and an hourly price of $1e300 are
refused by their field as a typo or a unit slip, as prices below the floor already were; a spot
price above its offer's on-demand price is refused in an overlay (the clouds cap spot at on-demand:
it is the same machine at a discount), and ``prices import`` keeps such an offer without its spot
price; an answers file's ``params_b: 0x10`` is refused in the number-form words every other file
uses (it was 'unknown model'); an empty overlay file, or one of comments only, changes nothing
(docs/knowledge.md: an overlay file only needs what it changes). Then the new cases of round eight.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.clirun import gpuwise
from tests.test_hostile_more import one_line

ROOT = Path(__file__).parent.parent
EX = ROOT / "examples"
LORA = str(EX / "lora-70b.yaml")


def _overlay(tmp_path: Path, name: str, body: str) -> Path:
    d = tmp_path / "kb"
    d.mkdir(exist_ok=True)
    (d / name).write_text(body)
    return d


# ----------------------------------------------------------------------------- catalog ceilings
@pytest.mark.parametrize("patch, said", [
    ("memory: {gb: 1e9}", "gpus[0] (id rtx-4090).memory.gb: 1e+09 is above 10,000"),
    ("memory: {smi_mib: 99999999999}", "gpus[0] (id rtx-4090).memory.smi_mib: 1e+11 is above 9,536,743"),
    ("memory: {bandwidth_gb_s: 1e300}", "gpus[0] (id rtx-4090).memory.bandwidth_gb_s: 1e+300 is above 1,000,000"),
    ("peaks: {fp8: 1e300}", "gpus[0] (id rtx-4090).peaks.fp8: 1e+300 is above 1,000,000"),
    ("peaks: {fp32: 2000000}", "gpus[0] (id rtx-4090).peaks.fp32: 2e+06 is above 1,000,000"),
    ("link: {bandwidth_gb_s: 5e6}", "gpus[0] (id rtx-4090).link.bandwidth_gb_s: 5e+06 is above 1,000,000"),
    ("power: {tdp_w: 45000}", "gpus[0] (id rtx-4090).power.tdp_w: 45000 is above 5,000"),
])
def test_a_gpu_figure_beyond_any_part_made_is_refused(tmp_path: Path, patch: str, said: str) -> None:
    """An overlay RTX 4090 of 1e9 GB was read and fitted every model. The ceilings are tens of
    times the largest figure in gpus.yaml (288 GB, 8,000 GB/s, 15,000 TFLOP/s of FP4, 1,400 W)."""
    kb = _overlay(tmp_path, "gpus.yaml", f"gpus:\n  - id: rtx-4090\n    {patch}\n")
    one_line(gpuwise("recommend", LORA, "--knowledge", str(kb)), f"kb/gpus.yaml: {said}",
             "beyond any GPU made: a typo or a unit slip")


def test_a_gpu_figure_under_the_ceiling_is_read(tmp_path: Path) -> None:
    """A card of 1 TB (a part announced for 2027 has about that much HBM) is still a GPU."""
    kb = _overlay(tmp_path, "gpus.yaml", "gpus:\n  - id: rtx-4090\n    memory: {gb: 1000, smi_mib: 1023000}\n")
    r = gpuwise("gpus", "--knowledge", str(kb), "--format", "json")
    assert r.returncode == 0, r.stderr
    assert {g["id"]: g for g in json.loads(r.stdout)["gpus"]}["rtx-4090"]["memory"]["gb"] == 1000


# ----------------------------------------------------------------------------- price ceilings
OFFER = ("gpu_hour_prices:\n  - {{provider: lambda, gpu: h100-80gb-sxm, {price}, as_of: 2026-11-01, "
         "source: lambda.ai/pricing}}\n")


@pytest.mark.parametrize("price, said", [
    ("usd_per_gpu_hour: 1e300", "gpu_hour_prices[0].usd_per_gpu_hour: 1e+300 an hour is above 100,000: "
                                "no GPU rents for so much"),
    ("cny_per_gpu_hour: 200000", "gpu_hour_prices[0].cny_per_gpu_hour: 200000 an hour is above 100,000"),
    ("usd_per_gpu_hour: 0.5, spot_usd_per_gpu_hour: 50",
     "gpu_hour_prices[0]: spot_usd_per_gpu_hour 50 is above the on-demand price 0.5: a spot price is the same "
     "machine at a discount"),
])
def test_an_hourly_price_above_the_ceiling_or_a_spot_above_on_demand_is_refused(tmp_path: Path, price: str,
                                                                                said: str) -> None:
    """$1e300 an hour was read (and only never chosen); a spot price of 50 over an on-demand 0.5 was
    read as a spot offer never worth its risk. Both are slips: refused by their field."""
    kb = _overlay(tmp_path, "clouds.yaml", OFFER.format(price=price))
    one_line(gpuwise("recommend", LORA, "--knowledge", str(kb)), f"kb/clouds.yaml: {said}")


def test_an_instances_spot_above_its_on_demand_is_refused(tmp_path: Path) -> None:
    kb = _overlay(tmp_path, "clouds.yaml", "instances:\n  - {id: x1, provider: lambda, gpu: h100-80gb-sxm, gpus: 8, "
                                           "usd_per_hour: 20, spot_usd_per_hour: 20.5, as_of: 2026-11-01, "
                                           "source: lambda.ai/pricing}\n")
    one_line(gpuwise("recommend", LORA, "--knowledge", str(kb)),
             "kb/clouds.yaml: instances[0] (id x1): spot_usd_per_hour 20.5 is above the on-demand price 20")


def test_a_spot_price_equal_to_on_demand_is_read(tmp_path: Path) -> None:
    kb = _overlay(tmp_path, "clouds.yaml", OFFER.format(price="usd_per_gpu_hour: 2, spot_usd_per_gpu_hour: 2"))
    assert gpuwise("recommend", LORA, "--knowledge", str(kb)).returncode == 0


def test_a_purchase_price_above_the_ceiling_is_refused(tmp_path: Path) -> None:
    kb = _overlay(tmp_path, "prices.yaml", "gpus:\n  - id: rtx-4090\n    prices:\n      - {amount: 1e300, "
                                           "condition: new, unit: card, kind: street, as_of: 2026-02-01, "
                                           "source: a shop's page}\n")
    one_line(gpuwise("recommend", str(EX / "qlora-70b-4090.yaml"), "--knowledge", str(kb)),
             "kb/prices.yaml: gpus[0] (id rtx-4090).prices[0].amount: 1e+300 is above 1,000,000,000: "
             "no GPU sells for so much")


def test_an_import_skips_a_price_above_the_ceiling_and_drops_a_spot_above_on_demand(tmp_path: Path) -> None:
    """The import writes nothing its overlay would refuse: a row of $1e300 an hour is a row it could
    not use; an offer whose spot price is above its on-demand one keeps its on-demand price only."""
    (tmp_path / "p.csv").write_text("gpu,gpus,price,spot_price\nH100 80GB SXM,8,20,30\nH100 80GB SXM,4,10,5\n"
                                    "H100 80GB SXM,2,1e300,\n")
    r = gpuwise("prices", "import", "p.csv", "--provider", "mycloud", "-o", "ov", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "line 4: H100 80GB SXM x2: price: 1e+300 an hour is above 100,000" in r.stdout, r.stdout
    assert "spot price 30 is above the on-demand price 20" in r.stdout and "left out" in r.stdout
    overlay = (tmp_path / "ov" / "clouds.yaml").read_text()
    assert "spot_usd_per_hour: 5.0" in overlay and "spot_usd_per_hour: 30" not in overlay
    assert gpuwise("recommend", LORA, "--knowledge", "ov", cwd=tmp_path).returncode == 0


# ----------------------------------------------------------------------------- empty overlay files
@pytest.fixture(scope="module")
def plain_answer() -> dict:
    r = gpuwise("recommend", LORA, "--format", "json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["recommendation"]


@pytest.mark.parametrize("name, body", [
    ("policy.yaml", "# value_of_a_day_usd: 20000\n# memory_headroom_fraction: 0.10\n"),
    ("policy.yaml", ""), ("clouds.yaml", "\n\n"), ("gpus.yaml", "---\n"), ("prices.yaml", "~\n"),
])
def test_an_empty_overlay_file_changes_nothing(tmp_path: Path, name: str, body: str, plain_answer: dict) -> None:
    """'kb/policy.yaml: expected a mapping at the top level' for a template whose lines were all
    commented out: an overlay gives only what it changes, and an empty one changes nothing (the
    same answer as no overlay)."""
    kb = _overlay(tmp_path, name, body)
    r = gpuwise("recommend", LORA, "--format", "json", "--knowledge", str(kb))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["recommendation"] == plain_answer


def test_an_overlay_file_that_is_a_list_is_still_refused(tmp_path: Path) -> None:
    kb = _overlay(tmp_path, "clouds.yaml", "[]\n")
    one_line(gpuwise("recommend", LORA, "--knowledge", str(kb)), "kb/clouds.yaml: expected a mapping at the top level")


# ----------------------------------------------------------------------------- an answers file's size
@pytest.mark.parametrize("value, said", [
    ("0x10", "workload.params_b: '0x10' is a hexadecimal number (16 in decimal)"),
    ("'1_6'", "workload.params_b: '1_6' has '_' in a number: write 16"),
    ("'１６'", "workload.params_b: '１６' has digits other than 0-9"),
])
def test_an_answers_files_size_in_another_notation_says_so(tmp_path: Path, value: str, said: str) -> None:
    """``params_b: 0x10`` in ``gpuwise ask --answers`` said 'unknown model '0x10'' and asked again;
    the requirements file says what the number would have meant, and so does the questionnaire."""
    from gpuwise.ask.questionnaire import _start
    from gpuwise.ask.questions import load_questions

    (tmp_path / "a.yaml").write_text(f"workload:\n  params_b: {value}\n")
    _, notes = _start(load_questions(), tmp_path / "a.yaml", None, "en", None)
    assert any(said in n and "asking again" in n for n in notes), notes
    assert not any("unknown model" in n for n in notes), notes


@pytest.mark.parametrize("value", ["16", "'16'", "16b", "llama-2-7b"])
def test_an_answers_files_plain_size_or_model_is_read(tmp_path: Path, value: str) -> None:
    from gpuwise.ask.questionnaire import _start
    from gpuwise.ask.questions import load_questions

    (tmp_path / "a.yaml").write_text(f"workload:\n  params_b: {value}\n")
    session, notes = _start(load_questions(), tmp_path / "a.yaml", None, "en", None)
    assert not any("asking again" in n for n in notes), notes
    assert session.answers["workload"] in ({"params_b": 16.0}, {"model": "llama-2-7b"})


@pytest.mark.parametrize("patch, said", [
    ("memory: {gb: 1e-300}", "memory.gb: 1e-300 is below 1, beneath any GPU made"),
    ("memory: {bandwidth_gb_s: 1e-300}", "memory.bandwidth_gb_s: 1e-300 is below 10, beneath any GPU made"),
    ("peaks: {fp32: 0.001}", "peaks.fp32: 0.001 is below 0.1, beneath any GPU made"),
    ("power: {tdp_w: 0.5}", "power.tdp_w: 0.5 is below 10, beneath any GPU made"),
    ("link: {bandwidth_gb_s: 1e-300}", "link.bandwidth_gb_s: 1e-300 is below 1, beneath any GPU made"),
])
def test_a_gpu_figure_beneath_any_part_made_is_refused(tmp_path: Path, patch: str, said: str) -> None:
    """Round 8: an RTX 4090 of 1e-300 GB/s was recommended at '0 tokens/s' (exit 0). The floors are
    a tenth or less of the smallest figure in gpus.yaml (16 GB, 300 GB/s, 5.1 TFLOP/s, 70 W, 32 GB/s
    between GPUs)."""
    kb = _overlay(tmp_path, "gpus.yaml", f"gpus:\n  - id: rtx-4090\n    {patch}\n")
    one_line(gpuwise("recommend", LORA, "--knowledge", str(kb)), f"kb/gpus.yaml: gpus[0] (id rtx-4090).{said}")


def test_a_memory_size_that_disagrees_with_nvidia_smis_is_refused(tmp_path: Path) -> None:
    """Round 8: ``memory: {gb: 48}`` for a 48 GB RTX 4090 kept the built-in ``smi_mib: 24564``, and
    the fit (which counts nvidia-smi's bytes) used 24 GB: the overlay seemed to work and did
    nothing. 24,564 MiB x 1,048,576 = 25.8 GB, not near 48. With both given, the fit uses them."""
    kb = _overlay(tmp_path, "gpus.yaml", "gpus:\n  - id: rtx-4090\n    memory: {gb: 48}\n")
    one_line(gpuwise("recommend", LORA, "--knowledge", str(kb)),
             "kb/gpus.yaml: gpus[0] (id rtx-4090).memory: smi_mib 24564 MiB (25.8 GB) does not match gb 48")
    kb = _overlay(tmp_path, "gpus.yaml", "gpus:\n  - id: rtx-4090\n    memory: {gb: 48, smi_mib: 49140}\n")
    r = gpuwise("gpus", "--knowledge", str(kb), "--format", "json")
    assert r.returncode == 0, r.stderr


def test_every_built_in_gpu_has_its_sizes_in_agreement() -> None:
    """The band (0.9..1.2) holds the catalog's own pairs: 1.0014 (B300: 288 GB on NVIDIA's pages, the driver's
    275,040 MiB = 288.4 GB; product65), 1.006 (L4, A10, L40S: GDDR sold by its usable GiB) to 1.074 (A100 80GB,
    MI355X: GiB sold as GB)."""
    from gpuwise.knowledge import load

    for g in load(None).gpus.values():
        if g.memory.smi_mib:
            assert 1.001 < g.memory.smi_mib * 2**20 / 1e9 / g.memory.gb < 1.08, g.id


@pytest.mark.parametrize("body, said", [
    ("gpus:\n  - id: rtx-4090\n    aliases: [h100]\n", "the name 'h100' is given to both h100-80gb-sxm and rtx-4090"),
    ("models:\n  - id: llama-2-7b\n    aliases: [llama-3.1-8b]\n",
     "the name 'llama-3.1-8b' is given to both llama-2-7b and llama-3.1-8b"),
])
def test_an_overlay_alias_another_entry_answers_to_is_refused(tmp_path: Path, body: str, said: str) -> None:
    """Round 8: an overlay alias ``h100`` on the RTX 4090 turned every 'H100' a user typed into an
    RTX 4090 (the answer said 'Rent 1 x RTX 4090' for ``gpus: [H100]``, exit 0)."""
    name = "gpus.yaml" if body.startswith("gpus") else "models.yaml"
    kb = _overlay(tmp_path, name, body)
    one_line(gpuwise("recommend", LORA, "--knowledge", str(kb)), f"kb/{name}: {said}: a name means one entry")


@pytest.mark.parametrize("body", ["", "# a rule to come\n"])
def test_an_empty_house_rule_file_says_it_is_empty(tmp_path: Path, body: str) -> None:
    """Round 8: 'expected a mapping at the top level' for an empty rule file. A house rule file is
    a whole document (schema_version, ruleset, step, rules), not a patch: empty is an error, named."""
    (tmp_path / "hr").mkdir()
    (tmp_path / "hr" / "h.yaml").write_text(body)
    one_line(gpuwise("recommend", LORA, "--rules", "hr", cwd=tmp_path), "hr/h.yaml: the file is empty")


@pytest.mark.parametrize("link", ["built-in", "csv"])
def test_an_import_never_writes_through_a_link_to_a_file_it_reads(tmp_path: Path, link: str) -> None:
    """Round 8: ``ov/clouds.yaml`` a link to the shipped knowledge/clouds.yaml: the import merged its
    offer into the built-in file (every later run read it), exit 0. A link to the CSV itself: the
    CSV was replaced by YAML."""
    from gpuwise.paths import knowledge_dir

    (tmp_path / "p.csv").write_text("gpu,gpus,price\nH100 80GB SXM,8,20.0\n")
    (tmp_path / "ov").mkdir()
    target = knowledge_dir() / "clouds.yaml" if link == "built-in" else tmp_path / "p.csv"
    before = target.read_bytes()
    (tmp_path / "ov" / "clouds.yaml").symlink_to(target)
    one_line(gpuwise("prices", "import", "p.csv", "--provider", "m", "-o", "ov", cwd=tmp_path),
             "ov/clouds.yaml: the output would replace an input file")
    assert target.read_bytes() == before


def test_a_csv_of_thousands_of_columns_is_refused_at_once(tmp_path: Path) -> None:
    """Round 8: a header of 200,000 columns ran for minutes (each column was counted against the
    whole header to find one given twice). More than 1,000 columns is no price catalog."""
    import time

    (tmp_path / "p.csv").write_text("gpu,gpus,price," + ",".join(f"c{i}" for i in range(200_000))
                                    + "\nH100 80GB SXM,8,20\n")
    start = time.perf_counter()
    one_line(gpuwise("prices", "import", "p.csv", "--provider", "m", "-o", "ov", cwd=tmp_path),
             "p.csv: more than 1,000 columns: not a price catalog")
    assert time.perf_counter() - start < 10
    assert not (tmp_path / "ov").exists()


@pytest.mark.parametrize("body", ["gpu,gpus,price\n", "gpu,gpus,price\n\n\n"])
def test_a_csv_of_a_header_alone_is_one_line(tmp_path: Path, body: str) -> None:
    """Round 8: a header and no row printed a four-line summary of nothing ('0 rows', 'imported 0
    offers') to standard error before the error line."""
    (tmp_path / "p.csv").write_text(body)
    one_line(gpuwise("prices", "import", "p.csv", "--provider", "m", "-o", "ov", cwd=tmp_path),
             "p.csv: no rows after the header; nothing written")


@pytest.mark.parametrize("body, said", [
    ("wrkload: {task: inference, model: llama-3.1-8b}\n", "r.yaml: wrkload: unknown key"),
    ("work\u200bload: {task: inference, model: llama-3.1-8b}\n", "r.yaml: work\\u200bload: unknown key"),
])
def test_a_misspelt_section_is_named_not_reported_missing(tmp_path: Path, body: str, said: str) -> None:
    """Round 8: 'wrkload' (or 'workload' with a zero-width space inside, which no editor shows) was
    'workload: required field is missing': the file seemed to have it. The misspelling is named,
    with the key meant."""
    (tmp_path / "r.yaml").write_text(body)
    one_line(gpuwise("recommend", "r.yaml", cwd=tmp_path), said, "(did you mean 'workload'?)")


def test_a_date_where_a_number_belongs_is_shown_as_written(tmp_path: Path) -> None:
    """Round 8: 'Input should be a valid integer (got datetime.date(2026, 1, 1))': YAML reads
    2026-01-01 as a date, and the error showed Python's repr of it."""
    (tmp_path / "r.yaml").write_text("workload: {task: inference, model: llama-3.1-8b, context_len: 2026-01-01}\n")
    err = one_line(gpuwise("recommend", "r.yaml", cwd=tmp_path), "r.yaml: workload.context_len: ", "(got 2026-01-01)")
    assert "datetime" not in err


def test_ask_with_standard_input_closed_is_one_line(tmp_path: Path) -> None:
    """Round 8: ``gpuwise ask <&-`` was an internal error (exit 3: sys.stdin is None when
    descriptor 0 is closed, and has no isatty). A real process: the closed descriptor is the point."""
    import subprocess
    import sys

    r = subprocess.run(["bash", "-c", f"exec {sys.executable} -m gpuwise ask --answers a.yaml <&-"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 2, r.stderr
    assert r.stderr.count("\n") == 1 and "needs an interactive terminal" in r.stderr, r.stderr
    assert not (tmp_path / "a.yaml").exists()


def test_a_date_in_a_house_rule_condition_is_shown_as_written(tmp_path: Path) -> None:
    """Round 8: "'need_gb' is a number; datetime.date(2026, 1, 1) is not, in ['need_gb', '>',
    datetime.date(2026, 1, 1)]": the condition is quoted as the file has it."""
    text = (EX / "house-rules" / "no-second-hand.yaml").read_text()
    (tmp_path / "hr").mkdir()
    (tmp_path / "hr" / "h.yaml").write_text(text.replace(
        '      - [acquisition, "==", buy]\n      - [buy_condition, in, [used, refurbished]]\n',
        '      - [need_gb, ">", 2026-01-01]\n'))
    err = one_line(gpuwise("recommend", LORA, "--rules", "hr", cwd=tmp_path),
                   "hr/h.yaml: rule HOUSE-NO-USED: 'need_gb' is a number; 2026-01-01 is not, in "
                   "['need_gb', '>', 2026-01-01]")
    assert "datetime" not in err


def test_an_unrecognized_argument_is_quoted_escaped() -> None:
    """Round 8: ``gpuwise gpus --gpu $'H100\\e]0;x\\a'`` (an option gpus does not take) echoed the
    escape sequence raw in 'unrecognized arguments' (it retitled the terminal); 'invalid choice'
    quoted it escaped already."""
    r = gpuwise("gpus", "--gpu", "H100\x1b]0;x\x07\nnext")
    one_line(r, "unrecognized arguments: --gpu H100\\u001b]0;x\\u0007\\nnext")
    assert "\x1b" not in r.stderr and "\x07" not in r.stderr


def test_the_built_in_knowledge_as_an_overlay_changes_nothing(plain_answer: dict) -> None:
    """Round 8: ``--knowledge`` naming gpuwise's own knowledge directory laid every file on itself
    and failed on the doubled lists ('serving.yaml: frameworks[1] (id sglang): releases must be
    listed oldest first, each version once'); the built-in files are read anyway: no overlay."""
    from gpuwise.paths import knowledge_dir

    r = gpuwise("recommend", LORA, "--format", "json", "--knowledge", str(knowledge_dir()))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["recommendation"] == plain_answer
