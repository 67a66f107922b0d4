"""An eleventh round of hostile inputs (issue 26 item 5), in this process: round ten's three open
questions (a device as an input file, a newline in an ``explain`` id, the csv module's English
under ``--lang zh``), the failures round eleven found (a plan's impossible purchase dates, formula
cells in a price CSV, live Markdown links from a title), and a sample of the round's clean cases
that guard the areas it covered (plan inputs, CSV imports, markup in reports, house rules and
overlays, number forms). The whole round is benchmarks/hostile_round11.py."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from tests.clirun import gpuwise
from tests.conftest import SAFE_DUMPER
from tests.test_hostile_more import one_line

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest: audits of one question share the search

ROOT = Path(__file__).parent.parent
EX = ROOT / "examples"
LORA = (EX / "lora-70b.yaml").read_text()
PROP = (EX / "proposal-good-lora-8xh100.yaml").read_text()
PLAN = (EX / "plan-team-4090.yaml").read_text()
CUDA_RULE = (EX / "house-rules" / "cuda-only.yaml").read_text()
CSV = "gpu,gpus,price\nH100 80GB SXM,8,20\n"
GH = "instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot\n"
GH_ROW = "gpu_1x_h100_sxm5,us-east-1,3.29,26,200,1,H100,80,False\n"
SCRIPT = "<script>alert(1)</script>"
BOMB = ("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
        "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n")


def write(tmp: Path, files: dict) -> None:
    for rel, body in files.items():
        p = tmp / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(body) if isinstance(body, bytes) else p.write_text(body, encoding="utf-8")


def plan_with(**over) -> str:
    d = yaml.safe_load(PLAN)
    for key, value in over.items():
        d[key] = value
    return yaml.safe_dump(d, allow_unicode=True)


def owned(**over) -> str:
    return plan_with(owned=[{"gpu": "RTX 4090", "count": 8, "hosting": "office", "bought": "2024-03",
                             "paid_usd": 14400, **over}])


def titled(title: str) -> str:
    d = yaml.safe_load(PROP)
    d["title"] = title
    return yaml.safe_dump(d, allow_unicode=True)


# ----------------------------------------------------------------------------- round ten's questions
@pytest.mark.parametrize("argv, what", [
    (["audit", "/dev/zero"], "input file"), (["plan", "/dev/urandom"], "plan file"),
    (["recommend", "/dev/zero"], "input file"), (["estimate", "/dev/null"], "input file"),
])
def test_a_device_is_refused_when_opened_not_after_8_mb(argv: list, what: str) -> None:
    """/dev/zero as a proposal, plan or answers file was read to the 8 MB limit and refused as
    'larger than the limit'; it is refused at open, as house rules and overlays are, saying what it is."""
    err = one_line(gpuwise(*argv), argv[1], "not a regular file but a device", what)
    assert "larger" not in err


def test_the_answers_file_as_a_device_is_refused(tmp_path: Path) -> None:
    """ask --answers reads through the same reader (its one-line error names the device)."""
    from gpuwise.errors import UserError
    from gpuwise.yamlio import read_yaml

    (tmp_path / "a.yaml").symlink_to("/dev/zero")
    with pytest.raises(UserError) as caught:
        read_yaml(tmp_path / "a.yaml", what="answers file")
    assert "a device" in str(caught.value) and "answers file" in str(caught.value)


def test_a_fifo_is_still_read_as_it_comes(tmp_path: Path) -> None:
    """Only devices are refused at open: a FIFO nothing writes to keeps its own one-line error."""
    import os

    os.mkfifo(tmp_path / "f.yaml")
    one_line(gpuwise("recommend", "f.yaml", cwd=tmp_path), "f.yaml", "named pipe")


@pytest.mark.parametrize("rid, shown", [
    ("MEM\nFITS", "'MEM\\nFITS'"), ("МЕМ-FITS", "'\\u041c\\u0415\\u041c-FITS'"),
    ("MEM\u202e-FITS", "\\u202e"),
])
def test_explain_shows_an_unknown_id_as_typed_with_escapes(rid: str, shown: str) -> None:
    """``explain "MEM\\nFITS"`` said unknown rule 'MEM FITS' (an id with a space nobody typed);
    a Cyrillic МЕМ looked like the Latin one. Every non-ASCII or control character is escaped."""
    err = one_line(gpuwise("explain", rid), "unknown rule", shown)
    assert "\u202e" not in err


def test_explain_unknown_id_in_chinese_keeps_the_escape() -> None:
    one_line(gpuwise("explain", "MEM\nFITS", "--lang", "zh"), "MEM\\nFITS")


def test_explain_still_finds_an_id_in_lower_case_or_padded() -> None:
    for rid in ("mem-fits", "  MEM-FITS  ", "used-ecc-off"):
        assert gpuwise("explain", rid).returncode == 0


def test_a_csv_header_cell_too_long_is_said_in_chinese(tmp_path: Path) -> None:
    """A 200,000-character header cell gave 'not a CSV file: field larger than field limit (131072)',
    English inside the Chinese line; csv.field_size_limit() is 131,072 by default."""
    write(tmp_path, {"p.csv": '"' + "h" * 200_000 + '",gpus,price\n'})
    argv = ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"]
    one_line(gpuwise(*argv, cwd=tmp_path), "p.csv", "a cell longer than 131,072 characters")
    err = one_line(gpuwise(*argv, "--lang", "zh", cwd=tmp_path), "p.csv", "有单元格超过 131,072 个字符")
    assert "field" not in err and "characters" not in err


@pytest.mark.parametrize("text, said", [
    ("field larger than field limit (131072)", "有单元格超过 131,072 个字符"),
    ("line contains NUL", "某行含有 NUL 字节"),
    ("new-line character seen in unquoted field - do you need to open the file with newline=''?",
     "未加引号的单元格中有换行"),
    ("unexpected end of data", "文件在带引号的单元格中途结束"),
    ("something new", "CSV 错误：something new"),
])
def test_each_csv_module_complaint_has_a_catalog_sentence(text: str, said: str) -> None:
    import csv

    from gpuwise.prices.catalog_csv import csv_said

    assert csv_said(csv.Error(text)).words("zh") == said


# ----------------------------------------------------------------------------- plan inputs
@pytest.mark.parametrize("bought", ["2026-02-30", "0000-01", "2025-13"])
def test_an_impossible_purchase_month_is_refused(tmp_path: Path, bought: str) -> None:
    """owned[].bought 2026-02-30 and 0000-01 matched YYYY-MM(-DD) and were taken as dates (exit 0)."""
    write(tmp_path, {"plan.yaml": owned(bought=bought)})
    one_line(gpuwise("plan", "plan.yaml", cwd=tmp_path), "plan.yaml: owned[0].bought", bought)


@pytest.mark.parametrize("over, field", [
    ({"count": 10**6}, "owned[0].count"), ({"count": True}, "owned[0].count"),
    ({"paid_usd": float("nan")}, "owned[0].paid_usd"),
    ({"gpu": "A100"}, "A100"), ({"gpu": "RTX\u200b4090"}, "\\u200b"), ({"servres": 2}, "did you mean"),
])
def test_owned_hardware_values_are_refused_in_one_line(tmp_path: Path, over: dict, field: str) -> None:
    write(tmp_path, {"plan.yaml": owned(**over)})
    one_line(gpuwise("plan", "plan.yaml", cwd=tmp_path), "plan.yaml", field)


def test_more_owned_entries_than_a_team_has_is_one_line(tmp_path: Path) -> None:
    d = yaml.safe_load(PLAN)
    d["owned"] = [copy.deepcopy(d["owned"][0]) for _ in range(2000)]
    write(tmp_path, {"plan.yaml": yaml.dump(d, Dumper=SAFE_DUMPER)})  # libyaml: the same text, 0.4 s sooner
    one_line(gpuwise("plan", "plan.yaml", cwd=tmp_path), "plan.yaml: owned", "at most 100")


@pytest.mark.parametrize("i, over, field", [
    (2, {"cadence": {"at_month": 0}}, "at_month"),
    (1, {"cadence": {"continuous": True, "hours_per_day": float("nan")}}, "hours_per_day"),
    (1, {"cadence": {"continuous": True, "hours_per_day": 24, "growth_per_month": float("inf")}}, "growth_per_month"),
    (0, {"cadence": {}}, "cadence"),
    (0, {"name": ""}, "name"), (1, {"targets": {"requests_per_s": float("nan")}}, "requests_per_s"),
])
def test_workload_values_are_refused_in_one_line(tmp_path: Path, i: int, over: dict, field: str) -> None:
    d = yaml.safe_load(PLAN)
    d["workloads"][i].update(over)
    write(tmp_path, {"plan.yaml": yaml.safe_dump(d)})
    one_line(gpuwise("plan", "plan.yaml", cwd=tmp_path), "plan.yaml", field)


@pytest.mark.parametrize("body, said", [
    (BOMB + PLAN, "alias bomb"), ("horizon_months: !!python/object/apply:os.system ['true']\n", "plan.yaml"),
    (PLAN + "horizon_months: 6\n", "duplicate"),
])
def test_hostile_plan_yaml_is_refused(tmp_path: Path, body: str, said: str) -> None:
    write(tmp_path, {"plan.yaml": body})
    one_line(gpuwise("plan", "plan.yaml", "-o", "o.json", cwd=tmp_path), "plan.yaml", said)
    assert not (tmp_path / "o.json").exists()


def test_a_workload_name_with_markup_is_escaped_in_the_html_plan(tmp_path: Path) -> None:
    d = yaml.safe_load(PLAN)
    d["workloads"] = d["workloads"][:1]  # the named workload alone: a tenth of the whole plan's solving
    d["workloads"][0]["name"] = SCRIPT
    write(tmp_path, {"plan.yaml": yaml.safe_dump(d)})
    r = gpuwise("plan", "plan.yaml", "-o", "o.html", cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
    html = (tmp_path / "o.html").read_text()
    assert SCRIPT not in html and "&lt;script&gt;" in html


# ----------------------------------------------------------------------------- price CSVs
def test_a_formula_cell_is_left_out_of_the_overlay(tmp_path: Path) -> None:
    """A gpuhunt row whose instance_name is ``=cmd|' /C calc'!A0`` was written into clouds.yaml as
    an instance name; a sheet the prices are exported to would run it. The row is left out, named."""
    write(tmp_path, {"p.csv": GH + GH_ROW.replace("gpu_1x_h100_sxm5", "=cmd|' /C calc'!A0") + GH_ROW})
    r = gpuwise("prices", "import", "p.csv", "--provider", "m", "-o", "ov", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "begins like a spreadsheet formula" in r.stdout
    overlay = (tmp_path / "ov" / "clouds.yaml").read_text()
    assert "=cmd" not in overlay and "gpu_1x_h100_sxm5" in overlay


@pytest.mark.parametrize("cell", ["+SUM(A1)", "@SUM(1+1)", "-2+3"])
def test_every_formula_start_is_left_out(tmp_path: Path, cell: str) -> None:
    write(tmp_path, {"p.csv": GH + GH_ROW.replace("us-east-1", cell)})
    r = gpuwise("prices", "import", "p.csv", "--provider", "m", "-o", "ov", cwd=tmp_path)
    assert r.returncode == 2 and "begins like a spreadsheet formula" in r.stderr
    assert not (tmp_path / "ov").exists()


@pytest.mark.parametrize("body", [("\ufeff" + CSV).encode(), b"\xff\xfe" + CSV.encode("utf-16-le")])
def test_byte_order_marks_are_read(tmp_path: Path, body: bytes) -> None:
    write(tmp_path, {"p.csv": body})
    r = gpuwise("prices", "import", "p.csv", "--provider", "m", "-o", "ov", cwd=tmp_path)
    assert r.returncode == 0 and "h100-80gb-sxm" in (tmp_path / "ov" / "clouds.yaml").read_text()


@pytest.mark.parametrize("price", ["1e309", "nan", "0x10", "=1+2"])
def test_a_price_that_is_no_price_imports_nothing(tmp_path: Path, price: str) -> None:
    write(tmp_path, {"p.csv": f"gpu,gpus,price\nH100 80GB SXM,8,{price}\n"})
    r = gpuwise("prices", "import", "p.csv", "--provider", "m", "-o", "ov", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.rstrip("\n").rsplit("\n", 1)[-1].startswith("gpuwise: p.csv")
    assert not (tmp_path / "ov").exists()


# ----------------------------------------------------------------------------- markup in reports
def test_a_title_link_is_not_live_in_markdown(tmp_path: Path) -> None:
    """A proposal titled ``[click](javascript:alert(1))`` became a live link in the Markdown report."""
    write(tmp_path, {"p.yaml": titled("[click](javascript:alert(1)) ![i](http://x/y.png)")})
    assert gpuwise("audit", "p.yaml", "-o", "o.md", cwd=tmp_path).returncode in (0, 1)
    md = (tmp_path / "o.md").read_text()
    assert "[click](" not in md and "![i](" not in md and "\\[click\\](javascript" in md


def test_md_escape_makes_every_active_character_literal() -> None:
    from gpuwise.render.fmt import md_escape, md_spans

    assert md_escape("a|b *c* <d> `e` [f](g)") == "a\\|b \\*c\\* &lt;d&gt; \\`e\\` \\[f\\](g)"
    assert md_spans("run `nvidia-smi -pl` [x](y)").endswith("\\[x\\](y)")


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_a_script_title_is_escaped(tmp_path: Path, fmt: str) -> None:
    write(tmp_path, {"p.yaml": titled(SCRIPT)})
    assert gpuwise("audit", "p.yaml", "-o", f"o.{fmt}", cwd=tmp_path).returncode in (0, 1)
    assert SCRIPT not in (tmp_path / f"o.{fmt}").read_text()


def test_jinja_in_a_title_stays_text(tmp_path: Path) -> None:
    write(tmp_path, {"p.yaml": titled("{{ 7*7 }}")})
    assert gpuwise("audit", "p.yaml", "-o", "o.html", cwd=tmp_path).returncode in (0, 1)
    assert "{{ 7*7 }}" in (tmp_path / "o.html").read_text()


# ----------------------------------------------------------------------------- house rules and overlays
@pytest.mark.parametrize("edit, said", [
    (("HOUSE-CUDA-ONLY", "HOUSE-CUDА-ONLY"), "id"),  # a Cyrillic А
    (('[cuda_device, "==", false]', '[count, ">", .nan]'), "r.yaml"),
    (('[cuda_device, "==", false]', '[count, ">", 1e309]'), "r.yaml"),
    (("    title:", "    title: x\n    title:"), "duplicate"),
])
def test_house_rule_oddities_are_one_line(tmp_path: Path, edit: tuple, said: str) -> None:
    write(tmp_path, {"r.yaml": LORA, "hr/r.yaml": CUDA_RULE.replace(*edit, 1)})
    one_line(gpuwise("recommend", "r.yaml", "--rules", "hr", cwd=tmp_path), said)


@pytest.mark.parametrize("body", ["memory_headroom_fraction: .nan\n",
                                  "memory_headroom_fraction: 1e309\n", "memory_headroom_fraction: 0x10\n"])
def test_policy_number_forms_are_refused(tmp_path: Path, body: str) -> None:
    write(tmp_path, {"r.yaml": LORA, "kb/policy.yaml": body})
    one_line(gpuwise("recommend", "r.yaml", "--knowledge", "kb", cwd=tmp_path), "memory_headroom_fraction")


@pytest.mark.parametrize("path, value, field", [
    (("workload", "params_b"), float("-inf"), "params_b"), (("workload", "params_b"), -0.0, "params_b"),
    (("constraints", "electricity_usd_per_kwh"), float("nan"), "electricity_usd_per_kwh"),
])
def test_requirement_number_forms_are_refused(tmp_path: Path, path: tuple, value: float, field: str) -> None:
    d = yaml.safe_load(LORA)
    d.setdefault(path[0], {})[path[1]] = value
    write(tmp_path, {"r.yaml": yaml.safe_dump(d)})
    one_line(gpuwise("recommend", "r.yaml", cwd=tmp_path), field)


# ----------------------------------------------------------------------------- batches
def test_a_folder_member_with_an_upper_case_suffix_is_audited(tmp_path: Path) -> None:
    """A folder holding only PROPOSAL.YAML (a Windows user's name) was 'no proposal files (*.yaml,
    *.yml) in this folder'."""
    write(tmp_path, {"b/PROPOSAL.YAML": PROP, "b/notes.txt": "x"})
    r = gpuwise("audit", "b", cwd=tmp_path)
    assert r.returncode in (0, 1) and "PROPOSAL.YAML" in r.stdout and "notes.txt" not in r.stdout


def test_a_batch_with_good_and_broken_members_reports_both(tmp_path: Path) -> None:
    write(tmp_path, {"b/a.yaml": PROP, "b/z.yaml": "workload: [\n"})
    r = gpuwise("audit", "b", "--format", "json", cwd=tmp_path)
    assert r.returncode == 2 and "a.yaml" in r.stdout and "z.yaml" in r.stderr
    assert "Traceback" not in r.stderr
