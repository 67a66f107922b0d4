"""review61: the questionnaire, ``estimate``, ``gpus``, ``explain``, ``rules`` and ``prices`` read as a new user
would (an ML engineer sizing a 70B LoRA fine-tune on rented H100s, a team lead pricing a Qwen3-235B-A22B service at
20 requests/s, an approver checking a 16 x B200 quote). Each test fails on the branch point e9d34e74; the figures are
worked by hand in the test.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from gpuwise.ask.questionnaire import _Session, _show_result, load_questions
from gpuwise.decide.recommend import recommend
from gpuwise.knowledge import load
from tests.clirun import gpuwise

# the runner-up (H100 on lambda, an overlay's 2023 quote below runpod's 2.69) carries the only out-of-date price; the
# answer (A100 on runpod, priced 2026-09-25) rests on current prices alone (the setting of tests/test_stale_brief.py)
Q = "workload: {task: inference, model: llama-3.1-8b}\nconstraints: {acquisition: rent, gpus: [h100-80gb-sxm, " \
    "a100-80gb-sxm]}\n"
OLD = ("gpu_hour_prices:\n  - {provider: lambda, gpu: h100-80gb-sxm, usd_per_gpu_hour: 2.60, as_of: 2023-06-01,\n"
       "     source: 'an old quote'}\n")


@pytest.fixture
def asked(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "clouds.yaml").write_text(OLD)
    (tmp_path / "q.yaml").write_text(Q)
    return str(tmp_path / "q.yaml"), str(tmp_path / "kb")


def _run(*args: str, code: int = 0) -> str:
    r = gpuwise(*args)
    assert r.returncode == code, r.stderr
    return r.stdout


# ------------------------------------------------------------------------------------------------ 1
def test_markdown_and_html_banners_say_an_old_price_is_another_options(asked: tuple[str, str]) -> None:
    """A Qwen3-235B service bought on B300: the Markdown report `ask` writes opened '1 price used here is out of
    date; see Data freshness.' and listed the runner-up B200's 2024 host share as 'Old price' under the B300's
    'Price used', while the text brief said '1 price of another option is out of date'. The JSON's stale price has
    answer false: the answer's own prices count 0, the other options' 1."""
    q, kb = asked
    d = json.loads(_run("recommend", q, "--knowledge", kb, "--format", "json"))
    assert [s["answer"] for s in d["stale_prices"]] == [False]
    for fmt in ("md", "html"):
        out = _run("recommend", q, "--knowledge", kb, "--format", fmt)
        assert "1 price of another option is out of date; see Data freshness." in out, fmt
        assert "used here" not in out, fmt
        said = "rent NVIDIA H100 SXM5 80GB (lambda), another option's: price as of 2023-06-01"
        assert (said if fmt == "md" else said.replace("'", "&#39;")) in out, fmt
    full = _run("recommend", q, "--knowledge", kb, "--detail", "full")
    assert "! 1 price of another option is out of date; see Data freshness." in full
    zh = _run("recommend", q, "--knowledge", kb, "--format", "md", "--lang", "zh")
    assert "其他方案的 1 个价格已过时，见“数据时效”。" in zh and "本报告使用的" not in zh


# ------------------------------------------------------------------------------------------------ 2
def test_ask_shows_the_answers_warnings_as_the_brief_counts_them(asked: tuple[str, str], tmp_path: Path) -> None:
    """After the questions, `ask` listed under 'Findings' every candidate's warnings: the runner-up's stale price
    (DATA-STALE-PRICE) beside an answer the report it wrote says has 0 warnings. It now lists the answer's, as the
    brief does, and says how many more the report has about options not chosen (here 1: the H100's lambda price)."""
    q, kb = asked
    result = recommend(q, knowledge=kb)
    stale = [x for x in result.findings if x.rule == "DATA-STALE-PRICE"]
    assert stale and all(x.severity == "warning" for x in stale)
    brief = _run("recommend", q, "--knowledge", kb)
    assert "(the answer's: 0 blockers, 0 warnings" in brief
    s = _Session(load_questions(), load(kb), tmp_path / "answers.yaml", lang="en", currency=None)
    console = Console(file=io.StringIO(), width=300, highlight=False, color_system=None)
    _show_result(console, s, result)
    out = console.file.getvalue()
    assert "DATA-STALE-PRICE" not in out
    others = sum(1 for x in result.findings if x.severity in ("blocker", "warning"))
    assert others == len(stale) == 1
    assert "Blockers and warnings about options not chosen: 1, in the report" in out
    s.lang = "zh"
    console = Console(file=io.StringIO(), width=300, highlight=False, color_system=None)
    _show_result(console, s, result)
    assert "未选方案的阻断项和警告：1 条" in console.file.getvalue()
