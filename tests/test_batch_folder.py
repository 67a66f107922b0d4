"""``gpuwise audit DIR``: a folder of proposals becomes one navigable batch report -- a summary row
per proposal linking to its section; each section with the proposal-vs-alternative table, its charts
and its used-card inspection; headings that nest -- and a folder member that cannot be read without
blocking (a named pipe) is an error for that file, not a hang."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.clirun import gpuwise

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest: audits of one question share the search

ROOT = Path(__file__).parent.parent
EX = ROOT / "examples"
PROPOSALS = sorted(EX.glob("proposal-*.yaml"))


class Page(HTMLParser):
    """The parts of an HTML report these tests look at: headings in order, ids, links, figures,
    and which section (``proposal-N``) each id sits in."""

    def __init__(self, text: str):
        super().__init__()
        self.headings: list[int] = []
        self.ids: list[str] = []
        self.links: list[str] = []
        self.figures: dict[str, list[str]] = {}
        self.tables: dict[str, int] = {}
        self.section = ""
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and "proposal" in (a.get("class") or "").split():
            self.section = a["id"]
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.headings.append(int(tag[1]))
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag == "figure" and "chart" in a.get("class", ""):
            self.figures.setdefault(self.section, []).append(a.get("id", ""))
        if tag == "table":
            self.tables[self.section] = self.tables.get(self.section, 0) + 1


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A folder holding the bundled example proposals, with the nvidia-smi reports they name."""
    d = tmp_path_factory.mktemp("proposals")
    for p in PROPOSALS:
        shutil.copy(p, d / p.name)
    shutil.copytree(EX / "nvidia-smi", d / "nvidia-smi")  # a sub-folder: not a proposal, left out
    (d / "notes.txt").write_text("not a proposal\n")
    return d


@pytest.fixture(scope="module")
def batch_html(folder, tmp_path_factory):
    from gpuwise.cli import main

    out = tmp_path_factory.mktemp("out") / "batch.html"
    assert main(["audit", str(folder), "-o", str(out)]) == 1  # the examples include rejected proposals
    return out.read_text(encoding="utf-8")


def test_the_folder_s_proposals_in_name_order(folder):
    from gpuwise.batch import proposal_files

    paths, refused, was_folder = proposal_files([str(folder)])
    assert [Path(p).name for p in paths] == [p.name for p in PROPOSALS]  # sorted; no notes.txt, no sub-folder
    assert refused == {} and was_folder
    # a file named beside the folder keeps its place on the command line
    paths, _, _ = proposal_files([str(PROPOSALS[0]), str(folder)])
    assert paths[0] == str(PROPOSALS[0]) and len(paths) == len(PROPOSALS) + 1


def test_the_summary_links_to_every_proposal_s_section(batch_html):
    page = Page(batch_html)
    n = len(PROPOSALS)
    assert n >= 6
    targets = [f"#proposal-{i}" for i in range(1, n + 1)]
    assert [h for h in page.links if h.startswith("#proposal-")] == targets
    for t in targets:  # every link lands on a section, each id once in the page
        assert page.ids.count(t[1:]) == 1
    assert len(page.ids) == len(set(page.ids)), "an id named twice"
    assert page.links.count("#summary") == n  # and each section leads back


def test_each_section_has_its_table_charts_and_cards(batch_html):
    page = Page(batch_html)
    for i, p in enumerate(PROPOSALS, 1):
        sec = f"proposal-{i}"
        assert f"{sec}-comparison" in page.ids, p.name
        assert f"{sec}-chart-memory" in page.figures[sec], p.name
        assert f"{sec}-chart-cost" in page.figures[sec], p.name
        assert page.tables[sec] >= 3, p.name  # the comparison and the charts' data tables
    used = PROPOSALS.index(EX / "proposal-used-3090-mining.yaml") + 1
    assert f"proposal-{used}-cards" in page.ids
    assert sum(x.endswith("-cards") for x in page.ids) == 1  # only the used cards are inspected
    # the used-card proposal names four cards, each with its own heading under the inspection's
    start = batch_html.index(f'id="proposal-{used}-cards"')
    assert batch_html[start:batch_html.index("</section>", start)].count("<h4>") == 4


def test_headings_nest(batch_html):
    levels = Page(batch_html).headings
    assert levels[0] == 1 and levels.count(1) == 1
    for a, b in itertools.pairwise(levels):
        assert b <= a + 1, f"h{a} followed by h{b}"
    assert 3 in levels and 4 in levels  # sections hold sub-sections, the used cards a level below


def test_full_detail_headings_nest_too(folder, tmp_path):
    from gpuwise.cli import main

    out = tmp_path / "full.html"
    assert main(["audit", str(folder), "--detail", "full", "-o", str(out)]) == 1
    levels = Page(out.read_text(encoding="utf-8")).headings
    for a, b in itertools.pairwise(levels):
        assert b <= a + 1, f"h{a} followed by h{b}"


def test_markdown_summary_links_to_anchored_sections(folder, tmp_path):
    from gpuwise.cli import main

    out = tmp_path / "batch.md"
    assert main(["audit", str(folder), "-o", str(out)]) == 1
    text = out.read_text(encoding="utf-8")
    for i, p in enumerate(PROPOSALS, 1):
        assert f"({'#'}proposal-{i})" in text and f'<a id="proposal-{i}"></a>' in text, p.name
        assert f"[{folder / p.name}](#proposal-{i})" in text
    assert text.count("| GPU |") == len(PROPOSALS)  # each section's proposal-vs-alternative table
    assert "### Used-card inspection" in text
    assert "\n# " in "\n" + text and "\n#### " not in text.split("\n## ")[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this platform")
def test_a_named_pipe_in_the_folder_is_an_error_for_that_file_not_a_hang(tmp_path):
    d = tmp_path / "props"
    d.mkdir()
    for name in ("proposal-good-lora-8xh100.yaml", "proposal-spot-h100-pretrain.yaml"):
        shutil.copy(EX / name, d / name)
    os.mkfifo(d / "b-pipe.yaml")  # nobody writes to it: opening it would wait for ever
    out = tmp_path / "summary.md"
    p = subprocess.run([sys.executable, "-m", "gpuwise", "audit", str(d), "-o", str(out)],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert p.returncode == 2  # an input error, the other files audited and written
    assert "b-pipe.yaml: not a regular file but a named pipe (FIFO)" in p.stderr
    assert len(p.stderr.splitlines()) == 1 and "Traceback" not in p.stderr
    text = out.read_text(encoding="utf-8")
    assert "3 proposals: 1 approve, 0 revise, 1 reject, 1 input errors" in text
    assert "APPROVE" in text
    # in Chinese too: the member's line was built in English in code (in this process: the real
    # process above has shown that the pipe does not hang the batch)
    z = gpuwise("audit", str(d), "--lang", "zh", "--format", "json")
    assert z.returncode == 2 and "b-pipe.yaml: 不是普通文件，而是命名管道（FIFO）；文件夹中的方案只从普通文件读取" \
        "（如需读取，请在命令行上单独给出它）" in z.stderr


def test_a_folder_without_proposals_is_one_line_exit_2(tmp_path):
    (tmp_path / "readme.txt").write_text("nothing here\n")
    p = gpuwise("audit", str(tmp_path))  # in this process (tests/clirun.py)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.strip() == f"gpuwise: {tmp_path}: no proposal files (*.yaml, *.yml) in this folder"


def test_a_folder_of_one_proposal_is_still_a_batch_and_says_one(tmp_path, capsys):
    from gpuwise.cli import main

    shutil.copy(EX / "proposal-good-lora-8xh100.yaml", tmp_path / "only.yaml")
    assert main(["audit", str(tmp_path), "--format", "md"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Audit of 1 proposal\n")
    assert "1 proposal: 1 approve, 0 revise, 0 reject, 0 input errors" in out
    assert f"[{tmp_path / 'only.yaml'}](#proposal-1)" in out
