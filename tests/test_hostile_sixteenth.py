"""Hostile round 16 (issue 26 items 5 and 6): what round 16 of benchmarks/hostile_corpus.py found,
each fix with a test that fails without it -- ``-o`` onto gpuwise's own report templates, message
catalog or modules (replaced, exit 0), ``prices import --provider ''`` (the file's name was used),
a bare ``gpuwise`` (the whole help on standard error) -- and item 6: a used card's memory
temperature judged against the limit its own nvidia-smi report carries (HBM3, HBM3e), else against
HBM3's throttle point (95 deg C, an H800's driver report), in-process."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.clirun import gpuwise
from tests.test_hostile_more import one_line
from tests.test_hostile_twelfth import write

# the used-card audits below ask one question (a 7B service on one card bought used) of ten seller's
# reports: they share the search for the alternative (conftest.audits_share_their_search)
pytestmark = pytest.mark.usefixtures("audits_share_their_search")

ROOT = Path(__file__).resolve().parent.parent
LORA = (ROOT / "examples" / "lora-70b.yaml").read_text()
DATA = ROOT / "tests" / "data" / "nvidia_smi"


# ----------------------------------------------------------------------------- -o onto gpuwise's own files
@pytest.mark.parametrize("own, extra", [
    ("reports/templates/recommend.md", ["--format", "md"]),  # the template this very report is rendered from
    ("reports/templates/catalog/gpus.txt.j2", ["--format", "md"]),
    ("gpuwise/render/locale/zh_CN/LC_MESSAGES/gpuwise.mo", ["--format", "md", "--lang", "zh"]),  # read for --lang zh
    ("gpuwise/cli.py", ["--format", "json"]),
])
def test_the_output_never_replaces_gpuwise_own_files(tmp_path: Path, own: str, extra: list[str]) -> None:
    """``recommend -o reports/templates/recommend.md`` wrote the report over the template it was
    rendered from, exit 0 (every later Markdown report was that report); the same for the message
    catalog a ``--lang zh`` run reads and the package's modules. The files a run reads listed only
    the inputs, the knowledge and the rule files."""
    target = ROOT / own
    before = target.read_bytes()
    write(tmp_path, {"r.yaml": LORA})
    try:
        r = gpuwise("recommend", "r.yaml", "-o", str(target), *extra, cwd=tmp_path)
        assert target.read_bytes() == before
        assert r.returncode == 2, r.stderr
        assert r.stderr.count("\n") == 1 and str(target) in r.stderr, r.stderr
    finally:
        if target.read_bytes() != before:  # a failing run must not leave the checkout broken
            target.write_bytes(before)


def test_an_output_beside_gpuwise_own_files_is_still_written(tmp_path: Path) -> None:
    """Only files gpuwise reads are protected: a new report may go anywhere, as before."""
    write(tmp_path, {"r.yaml": LORA})
    r = gpuwise("recommend", "r.yaml", "-o", "o.md", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "o.md").read_text().startswith("#")


# ----------------------------------------------------------------------------- prices import --provider ''
def test_an_empty_provider_is_refused_not_replaced_by_the_file_name(tmp_path: Path) -> None:
    """``--provider "$P"`` with P unset imported the file as provider 'p' (its name), exit 0:
    the listing's ``prices --provider ''`` already refused an empty name."""
    write(tmp_path, {"p.csv": "gpu,gpus,price\nH100 80GB SXM,8,20\n"})
    one_line(gpuwise("prices", "import", "p.csv", "--provider", "", "-o", "ov", cwd=tmp_path),
             "--provider", "empty provider name")
    assert not (tmp_path / "ov").exists()
    one_line(gpuwise("prices", "import", "p.csv", "--provider", "  ", "-o", "ov", cwd=tmp_path), "--provider")


# ----------------------------------------------------------------------------- a bare gpuwise
@pytest.mark.parametrize("argv, words", [
    ([], ["the following arguments are required: COMMAND", "gpuwise --help"]),
    (["--lang", "zh"], ["COMMAND"]),
])
def test_no_command_is_one_line(argv: list[str], words: list[str]) -> None:
    """``gpuwise`` alone printed the whole help (22 lines) on standard error, exit 2: bad usage is
    one line, and ``--help`` still gives the help on standard output."""
    r = gpuwise(*argv)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("gpuwise: "), r.stderr
    for w in words:
        assert w in r.stderr, r.stderr
    h = gpuwise("--help")
    assert h.returncode == 0 and "COMMAND" in h.stdout


# ----------------------------------------------------------------------------- item 6: HBM3/HBM3e at their own limit
def board_report(mem_temp: str, limit: str | None, name: str, total: str) -> str:
    """An nvidia-smi -q -x report of an HBM3/HBM3e board built from telegraf's A100-SXM4-80GB test
    data (tests/data/nvidia_smi/SOURCES.md): product name, memory total, memory reading and the
    board's own memory limit (``gpu_temp_max_mem_threshold``, NVML_TEMPERATURE_THRESHOLD_MEM_MAX)
    set; ``limit=None`` drops the element, as a seller's copy that lost it."""
    x = (DATA / "telegraf_a100-sxm4-v12.xml").read_text()
    x = re.sub(r"<product_name>[^<]*", "<product_name>" + name, x, count=1)
    x = x.replace("<total>81920 MiB</total>", f"<total>{total}</total>", 1)
    x = x.replace("<memory_temp>44 C</memory_temp>", f"<memory_temp>{mem_temp}</memory_temp>")
    old = "<gpu_temp_max_mem_threshold>95 C</gpu_temp_max_mem_threshold>"
    assert old in x and "<memory_temp>" + mem_temp in x
    return x.replace(old, "" if limit is None else f"<gpu_temp_max_mem_threshold>{limit}</gpu_temp_max_mem_threshold>")


H100 = ("h100-80gb-sxm", "NVIDIA H100 80GB HBM3", "81559 MiB")  # smi_mib of the catalog's H100 SXM
H200 = ("h200-141gb-sxm", "NVIDIA H200", "143771 MiB")  # the catalog's H200 smi_mib


H800 = ("h800-80gb-sxm", "NVIDIA H800", "81559 MiB")


def used_audit(tmp_path: Path, board: tuple[str, str, str], mem: str, limit: str | None) -> dict:
    """The findings, by rule, of a used card of ``board`` whose seller's report reads ``mem`` under
    ``limit`` (the Python API, in this process)."""
    from gpuwise import audit

    gpu, name, total = board
    write(tmp_path, {"r.xml": board_report(mem, limit, name, total)})
    result = audit({"workload": {"task": "inference", "model": "llama-2-7b"},
                    "hardware": {"gpu": gpu, "count": 1},
                    "acquisition": {"mode": "buy", "condition": "used", "unit_price_usd": 15000},
                    "used_cards": [{"serial": "1", "nvidia_smi": "r.xml"}]}, base_dir=tmp_path)
    return {f.rule: f for f in result.findings}


@pytest.mark.parametrize("board, mem, limit, hot", [
    (H100, "95 C", "95 C", True),     # at its own limit: NVML's 'begins SW slowdown'
    (H100, "94 C", "95 C", False),
    (H200, "97 C", "95 C", True),
    (H200, "97 C", "105 C", False),   # a board whose own limit is higher is judged on it, not on another's
    (H200, "N/A", "95 C", False),     # no reading: nothing to judge
], ids=lambda v: v if isinstance(v, str) else (v[0] if isinstance(v, tuple) else str(v)))
def test_hbm_memory_is_judged_on_the_limit_its_report_carries(tmp_path: Path, board, mem: str, limit: str | None,
                                                            hot: bool) -> None:
    """Item 6: where the seller's report carries the board's own memory limit (nvidia-smi's 'Memory
    Max Operating Temp'), the report is the source: USED-MEMORY-HOT says the card's numbers, and
    the memory type's point (USED-MEMORY-JUNCTION-HOT) is not used."""
    found = used_audit(tmp_path, board, mem, limit)
    assert "USED-MEMORY-JUNCTION-HOT" not in found
    assert ("USED-MEMORY-HOT" in found) == hot, sorted(found)
    if hot:
        f = found["USED-MEMORY-HOT"]
        assert f.severity == "warning" and f.topic == "used-hardware"
        assert f"memory at {mem[:-2]} °C, at or above its own limit of 95 °C" in f.message, f.message


def test_hbm3_has_a_sourced_throttle_point() -> None:
    """HBM3's 95 deg C is the 'Memory Max Operating Temp' NVIDIA's driver 525.105.17 gives an H800
    (GH100, 80 GB HBM3), as a public nvidia-smi -q report shows; HBM3e has none (no report found)."""
    from gpuwise.knowledge import load

    kb = load()
    hbm3 = kb.policy["hbm3_memory_throttle_c"]
    assert hbm3.value == 95 and "525.105.17" in hbm3.source and "llm-action" in hbm3.source
    assert "hbm3e_memory_throttle_c" not in kb.policy


@pytest.mark.parametrize("board, mem, limit, hot", [
    (H100, "86 C", "N/A", True),      # no limit of its own: 0.9 x 95 = 85.5 deg C (HBM3's point)
    (H100, "85 C", "N/A", False),
    (H100, "101 C", None, True),      # the element lost from a seller's copy
    (H800, "90 C", "N/A", True),
    (H100, "60 C", "0 C", False),     # a limit of 0 C is no limit (a T.Limit-style margin): the type's point
    (H200, "101 C", "N/A", False),    # HBM3e: no sourced point, and no limit of its own: nothing to judge on
], ids=lambda v: v if isinstance(v, str) else (v[0] if isinstance(v, tuple) else str(v)))
def test_hbm3_without_its_own_limit_is_judged_on_its_type(tmp_path: Path, board, mem: str, limit: str | None,
                                                          hot: bool) -> None:
    """An H100 on driver 535 or later writes only the T.Limit form of its memory limit, and a
    seller's copy may have lost it: its HBM3 was judged on nothing (no finding at 101 deg C); now on
    HBM3's throttle point, as HBM2e's A100 and GDDR6X's GeForce cards are."""
    found = used_audit(tmp_path, board, mem, limit)
    assert "USED-MEMORY-HOT" not in found
    assert ("USED-MEMORY-JUNCTION-HOT" in found) == hot, sorted(found)
    if hot:
        f = found["USED-MEMORY-JUNCTION-HOT"]
        assert f.severity == "warning" and f.topic == "used-hardware"
        assert f"HBM3 memory at {mem[:-2]} °C, near the 95 °C at which HBM3 throttles" in f.message, f.message


# ----------------------------------------------------------------------------- a plan's owned list as one number
@pytest.mark.parametrize("owned, shown", [("8", "8"), ("1.0e+308", "1e+308"), ("-1", "-1")])
def test_owned_given_as_a_number_is_refused_by_field(tmp_path: Path, owned: str, shown: str) -> None:
    """``owned: 8`` (a count where the list of owned GPUs goes) was 'internal error: TypeError: 'int'
    object is not iterable', exit 3: the plan file's currency check walked the value before the
    field was validated. Found by a random mutation of examples/plan-team-4090.yaml (round 16)."""
    import yaml

    plan = yaml.safe_load((ROOT / "examples" / "plan-team-4090.yaml").read_text())
    plan["owned"] = yaml.safe_load(owned)
    write(tmp_path, {"plan.yaml": yaml.safe_dump(plan)})
    # leftovers55: in gpuwise's words, not pydantic's ('Input should be a valid list'), with what else it may be
    one_line(gpuwise("plan", "plan.yaml", cwd=tmp_path), "plan.yaml", f"owned: must be a list (got {shown})",
             "(or leave owned out)")


# ----------------------------------------------------------------------------- a house rule's operator that is no text
@pytest.mark.parametrize("op, shown", [("{a: 1}", "{'a': 1}"), ("[]", "[]"), ("{}", "{}")])
def test_a_condition_operator_that_is_a_list_or_mapping_is_refused(tmp_path: Path, op: str, shown: str) -> None:
    """``[cuda_device, {a: 1}, false]`` was 'internal error: TypeError: unhashable type: dict', exit
    3 (the operator was looked up in the table of operators before it was known to be text), for
    recommend, rules and explain alike. Found by a random mutation of the example house rule."""
    rule = (ROOT / "examples" / "house-rules" / "cuda-only.yaml").read_text()
    rule = rule.replace('[cuda_device, "==", false]', f"[cuda_device, {op}, false]")
    write(tmp_path, {"r.yaml": LORA, "h/a.yaml": rule})
    for argv in (["recommend", "r.yaml"], ["rules"], ["explain", "HOUSE-CUDA-ONLY"]):
        one_line(gpuwise(*argv, "--rules", "h", cwd=tmp_path), "h/a.yaml", f"unknown operator '{shown}'")
