"""Hostile round 20 (issue 26 item 5): what round 20 of benchmarks/hostile_corpus.py found, each fix
with a test that fails without it. The whole round is benchmarks/hostile_round20.py."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import yaml

from .clirun import gpuwise

OFFER = ("instances:\n  - id: m:h100x8\n    provider: m\n    gpu: h100-80gb-sxm\n    gpus: 8\n    usd_per_hour: 20\n"
         "    as_of: {}\n    source: the provider's price page, read by hand\n")
SKYPILOT = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region\n"


# ------------------------------------------------------------- a knowledge overlay's date given as a number
@pytest.mark.parametrize("literal", ["0", "1767225600", "'1767225600'", "2026", "20261204", "1.0e+9"])
def test_an_overlay_date_written_as_a_number_is_refused(tmp_path: Path, literal: str) -> None:
    """pydantic reads a number given for a date as seconds since 1970: ``as_of: 0`` was an offer
    priced on 1970-01-01 (20,791 days old), ``as_of: 1767225600`` one of 2026-01-01, and a year
    alone (``2026``) was refused in pydantic's words about 'datetimes with zero time'. A date is
    written YYYY-MM-DD; a number there is refused naming the file, the offer and the field."""
    (tmp_path / "k").mkdir()
    (tmp_path / "k" / "clouds.yaml").write_text(OFFER.format(literal), encoding="utf-8")
    r = gpuwise("prices", "--knowledge", "k", "--provider", "m", cwd=tmp_path)
    assert r.returncode == 2, r.stdout[-300:]
    err = r.stderr.strip()
    assert err.count("\n") == 0 and "Traceback" not in err
    assert err.startswith("gpuwise: k/clouds.yaml: instances[0]") and "as_of" in err and "YYYY-MM-DD" in err


def test_an_overlay_buy_price_dated_by_a_number_is_refused_and_a_date_is_read(tmp_path: Path) -> None:
    """The same holds in every knowledge file (the check is in the schemas' shared base): a buy
    price in prices.yaml dated 0 is refused; dated 2026-01-05 it is listed with that date."""
    (tmp_path / "k").mkdir()
    body = ("gpus:\n  - id: rtx-4090\n    prices:\n      - {{amount: 1600, condition: new, unit: card, "
            "kind: reseller, as_of: {}, source: a shop's price page read by hand}}\n")
    (tmp_path / "k" / "prices.yaml").write_text(body.format("0"), encoding="utf-8")
    r = gpuwise("prices", "--knowledge", "k", "--gpu", "rtx-4090", cwd=tmp_path)
    assert r.returncode == 2 and "k/prices.yaml" in r.stderr and "as_of" in r.stderr and "YYYY-MM-DD" in r.stderr
    (tmp_path / "k" / "prices.yaml").write_text(body.format("2026-01-05"), encoding="utf-8")
    r = gpuwise("prices", "--knowledge", "k", "--gpu", "rtx-4090", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "2026-01-05" in r.stdout


# ------------------------------------------------------------- price CSVs
def _import(tmp_path: Path, text: str, *extra: str):
    (tmp_path / "p.csv").write_text(text, encoding="utf-8")
    return gpuwise("prices", "import", "p.csv", "--provider", "m", "-o", "ov", *extra, cwd=tmp_path)


@pytest.mark.parametrize("cell", ["20261204", "2026-W05-1", "2026-01-05T10:00"])
def test_a_row_date_is_read_as_yyyy_mm_dd_alone(tmp_path: Path, cell: str) -> None:
    """A row's ``as_of`` is read as ``--as-of`` is: YYYY-MM-DD. Python 3.11's date.fromisoformat
    also read '20261204' and the week date '2026-W05-1' (2026-01-26), which --as-of refuses and
    Python 3.10 (in requires-python) refused, and its complaint about a time of day was Python's
    English in every language."""
    r = _import(tmp_path, f"gpu,gpus,price,as_of\nH100 80GB SXM,8,20,{cell}\n")
    assert r.returncode == 2 and f"'{cell}' is not a date" in r.stdout + r.stderr
    assert not (tmp_path / "ov").exists()


def test_a_padded_row_date_is_read(tmp_path: Path) -> None:
    r = _import(tmp_path, "gpu,gpus,price,as_of\nH100 80GB SXM,8,20, 2026-01-05 \n")
    assert r.returncode == 0, r.stderr
    entry = yaml.safe_load((tmp_path / "ov" / "clouds.yaml").read_text(encoding="utf-8"))["instances"][0]
    assert entry["as_of"] == dt.date(2026, 1, 5)


@pytest.mark.parametrize("text", [
    "gpu,gpus,price,instance\nH100 80GB SXM,8,20,i1\nRTX 4090,8,10,i1\n",
    SKYPILOT + "p5.48xlarge,H100,8,192,2048,98.32,,us-east-1\np5.48xlarge,A100-80GB,8,96,1152,40,,us-east-1\n",
])
def test_one_instance_name_for_two_gpus_keeps_the_first_and_the_overlay_is_usable(tmp_path: Path, text: str) -> None:
    """Offers were kept apart by (instance, GPU) but written under the id ``provider:instance``: an
    instance listed with two GPUs became two overlay entries of one id, the import said 'imported 2
    offers' (exit 0) and every later use of the overlay was refused ('duplicate id'). The first
    row's offer is kept; the later one is listed as left out, naming the line it clashes with."""
    r = _import(tmp_path, text)
    assert r.returncode == 0, r.stderr
    assert "line 3:" in r.stdout and "is already an offer of h100-80gb-sxm (line 2)" in r.stdout
    entries = yaml.safe_load((tmp_path / "ov" / "clouds.yaml").read_text(encoding="utf-8"))["instances"]
    assert [e["gpu"] for e in entries] == ["h100-80gb-sxm"]
    again = gpuwise("prices", "--knowledge", "ov", "--provider", "m", "--format", "json", cwd=tmp_path)
    assert again.returncode == 0, again.stderr


@pytest.mark.parametrize("name, meant, lang", [
    ("H100 80GB SMX", "h100-80gb-sxm", "en"),
    ("RTX 4O90", "rtx-4090", "en"),
    ("H10O", "h100-80gb-sxm", "zh"),
])
def test_a_misspelt_gpu_in_a_row_gets_a_close_match(tmp_path: Path, name: str, meant: str, lang: str) -> None:
    """The contract's promise of a close match for a misspelt name, kept for a price row: the row
    is left out with 'did you mean ...?' (the catalog's own close names, as ``--gpu`` gives them),
    in the language asked for."""
    r = _import(tmp_path, f"gpu,gpus,price\n{name},8,20\n", "--lang", lang)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    shown = r.stdout + r.stderr
    assert meant in shown
    assert ("did you mean" if lang == "en" else "你是不是指") in shown


# ------------------------------------------------------------- Ctrl-D at a choice in the questionnaire
@pytest.mark.parametrize("lang, prompt", [("en", "What do you want to do?"), ("zh", "你要做什么")])
def test_ctrl_d_at_a_choice_ends_the_questionnaire_as_at_a_text_prompt(tmp_path: Path, lang: str, prompt: str) -> None:
    """Ctrl-D at a text prompt (the model's name) ended ``gpuwise ask`` as the end of input: exit
    130, the answers kept. At a choice (the first question, 'Ready?') questionary ignored it and the
    questionnaire went on waiting (round 20 sent Ctrl-C after 120 s). Now it ends the same way."""
    pexpect = pytest.importorskip("pexpect")
    import sys

    from .test_ask_pty import _env

    child = pexpect.spawn(sys.executable, ["-m", "gpuwise", "ask", "--answers", "a.yaml", "--lang", lang],
                          cwd=str(tmp_path), env=_env(), encoding="utf-8", timeout=60, dimensions=(50, 220))
    child.delaybeforesend = None
    try:
        child.expect_exact(prompt)
        child.send("\x04")
        child.expect(pexpect.EOF, timeout=20)
        tail = child.before
    finally:
        child.close(force=True)
    assert child.exitstatus == 130, tail
    assert "Traceback" not in tail
