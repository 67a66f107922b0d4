"""Text that fits the terminal: every example's default (brief) answer within two 80 × 40 screens
at 80 columns (at most 80 lines, no line wider than 80 columns), the width used at 120, no Markdown
marks and one multiplication sign; tables laid out to the width or stacked; wrapping by display
columns (a Chinese character takes two)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from gpuwise.render import report
from gpuwise.render.fmt import display_width
from gpuwise.render.textfit import fit_table, terminal_width, wrap, wrap_line
from tests.clirun import gpuwise
from tests.conftest import answer_of

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.yaml") if not p.name.startswith("plan-"))
HELDOUT = sorted((ROOT / "tests" / "data" / "heldout").glob("*.yaml"))


def _result(path: Path):  # computed once per test process (tests/conftest.py)
    return answer_of("audit" if path.name.startswith(("proposal-", "audit-")) else "recommend", path)


@pytest.fixture(scope="module")
def results():
    return {p.name: _result(p) for p in [*EXAMPLES, *HELDOUT]}


def _measure(text: str) -> tuple[int, int]:
    lines = text.rstrip("\n").split("\n")
    return len(lines), max(display_width(line) for line in lines)


@pytest.mark.parametrize("name", [p.name for p in [*EXAMPLES, *HELDOUT]])
def test_the_brief_answer_fits_two_80_by_40_screens(results, name: str) -> None:
    for lang, currency in (("en", "USD"), ("zh", "CNY")):
        text = report.render(results[name], "text", lang=lang, currency=currency, width=80)
        lines, widest = _measure(text)
        assert widest <= 80, (name, lang, [x for x in text.split("\n") if display_width(x) > 80])
        assert lines <= 80, (name, lang, lines)
        assert "`" not in text, name  # no Markdown code marks in plain text
        assert not re.search(r"\d x [A-Za-z]", text), name  # "4 × H100", never "4 x H100"


@pytest.mark.parametrize("name", [p.name for p in EXAMPLES])
def test_a_wider_terminal_is_used(results, name: str) -> None:
    wide = report.render(results[name], "text", width=120)
    _lines, widest = _measure(wide)
    assert 80 < widest <= 120, name


def test_columns_sets_the_width_and_80_without_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    assert terminal_width() == 100
    monkeypatch.delenv("COLUMNS")
    assert terminal_width(stream=open(os.devnull, "w")) == 80  # noqa: SIM115 (not a terminal)
    assert terminal_width(132) == 132


def test_the_command_reads_columns() -> None:
    """`COLUMNS=80 gpuwise audit` writes no line wider than 80 columns (was up to 258); the command
    in this process (tests/clirun.py), COLUMNS set as a shell would."""
    mining = str(ROOT / "examples" / "proposal-used-3090-mining.yaml")
    out = gpuwise("audit", mining, env={"COLUMNS": "80"})
    lines, widest = _measure(out.stdout)
    assert widest <= 80 and lines <= 80, (lines, widest)
    wide = gpuwise("audit", mining, env={"COLUMNS": "160"})
    assert _measure(wide.stdout)[1] > 80


def test_a_table_that_fits_is_left_as_it_is() -> None:
    lines = fit_table(["GPU", "Cost"], [["H100", "$1"], ["A100", "$22"]], right=(1,), width=80)
    assert lines == ["GPU   Cost", "----  ----", "H100    $1", "A100   $22"]


def test_a_wide_text_column_wraps_inside_its_cell() -> None:
    why = "no dated purchase price, so buying cannot be costed"
    rows = [[f"{n} × L40S", "$1,234", why] for n in (1, 2, 4, 8)]
    lines = fit_table(["Option", "Cost", "Why not"], rows, right=(1,), width=60)
    assert all(display_width(x) <= 60 for x in lines)
    assert len(lines) == 2 + 4 * 2  # header and rule, then each row on two lines
    assert lines[2].startswith("1 × L40S  $1,234  no dated purchase price")
    assert " ".join(x[18:].strip() for x in lines[2:4]) == why  # every word, in order, in its column


def test_a_table_that_cannot_fit_is_stacked_as_label_value_pairs() -> None:
    headers = ["Option", "Rent or buy", "Wall-clock time", "Total cost", "Why not"]
    row = ["4 × NVIDIA GeForce RTX 3090 24GB", "buy", "15.9", "$4,631", "the answer"]
    lines = fit_table(headers, [row], right=(2, 3), width=40)
    assert lines[0] == "4 × NVIDIA GeForce RTX 3090 24GB"
    assert "Rent or buy: buy; Wall-clock time: 15.9;" in " ".join(" ".join(lines[1:]).split())
    assert all(display_width(x) <= 40 for x in lines)


def test_wrapping_counts_chinese_characters_as_two_columns_and_hangs_under_the_value() -> None:
    zh = "每个候选都因显存不足而被排除" * 4
    lines = wrap(zh, 20)
    assert all(display_width(x) <= 20 for x in lines) and "".join(lines) == zh
    hung = wrap_line("  Memory        " + "word " * 30, 40)
    assert all(x.startswith(" " * 16) for x in hung[1:])
    assert all(display_width(x) <= 40 for x in hung)


def test_a_wide_character_with_one_column_left_takes_a_line_of_its_own() -> None:
    """A hanging indent can leave one column; a Chinese character is two wide. The wrap once looped
    for ever there (no character fitted, so nothing was cut); now each such character is a line,
    one column over, and the text is kept whole."""
    lines = wrap("显存不足", 10, first="x" * 9)
    assert lines == ["xxxxxxxxx显", "         存", "         不", "         足"]
    assert "".join(line.strip() for line in lines) == "xxxxxxxxx显存不足"


def test_a_list_of_rule_ids_joined_by_full_width_commas_breaks_after_a_comma_not_inside_an_id() -> None:
    """review47: a Chinese audit's 'another 12 in the full report' line joins the rule ids with '，'
    and no space; the whole list was one word, cut at the column wherever it fell ('LIC-GEFOR' /
    'CE-DATACENTER'). A line may break after a full-width mark, as Chinese text does."""
    ids = ["NET-LOW-EFFICIENCY", "NET-SLOW-NETWORK", "NET-NO-P2P", "TCO-BOUGHT-IDLE",
           "LIC-GEFORCE-DATACENTER", "PWR-CONSUMER-CHASSIS", "USED-NO-INSPECTION", "DATA-STALE-PRICE"]
    lines = wrap("，".join(ids) + "。", 40, first="  ")
    assert all(display_width(x) <= 40 for x in lines)
    pieces = [p for line in lines for p in line.strip().rstrip("。").split("，") if p]
    assert pieces == ids  # each id whole on one line
    assert "".join(line.strip() for line in lines) == "，".join(ids) + "。"


KINSOKU_OPEN, KINSOKU_CLOSE = "（(「“《【", "，。；：、）)」”》】"


def _kinsoku_kept(lines: list[str], width: int) -> bool:
    return (all(display_width(x) <= width for x in lines)
            and not any(x.rstrip()[-1] in KINSOKU_OPEN for x in lines if x.strip())
            and not any(x.strip()[0] in KINSOKU_CLOSE for x in lines[1:] if x.strip()))


@pytest.mark.parametrize(("line", "width"), [
    # examples/lora-70b.yaml, recommend --lang zh at COLUMNS=70: the interconnect line of the decision
    # steps broke after '99.7%（', leaving '（' at the end of a line and 'TP1 ...' at the start of the next
    ("  互联  16 × NVIDIA H100 SXM5 80GB 的互联为 nvswitch（每块 GPU 900 GB/s，双向）；2 个节点之间为 "
     "infiniband-400：扩展效率 99.7%（TP1 PP1 DP16 ZeRO-3 ckpt）", 70),
    # the same report at COLUMNS=60: its price line broke between '（按需）' and '（2026-09-25'
    ("  所用价格：在 nebius 租用 NVIDIA H100 SXM5 80GB（按需）（2026-09-25，距今 72 天）。", 60),
])
def test_a_chinese_line_breaks_neither_after_an_opening_bracket_nor_before_a_closing_mark(line: str,
                                                                                         width: int) -> None:
    """smalls58: Chinese text may break between any two characters, but an opening bracket stays with
    what follows it and a closing mark or comma with what precedes it (kinsoku)."""
    lines = wrap_line(line, width)
    assert len(lines) > 1 and _kinsoku_kept(lines, width)
    assert "".join(x.strip() for x in lines).replace(" ", "") == line.replace(" ", "")


def test_an_ascii_bracket_before_chinese_text_stays_with_it() -> None:
    """'(' inside a Chinese sentence opened a word of its own when a Chinese character followed it."""
    text = "每个候选都因显存不足而被排除(见显存一节)，" * 4
    for width in range(12, 40):
        lines = wrap(text, width)
        assert _kinsoku_kept(lines, width), (width, lines)
        assert "".join(lines) == text
