"""What `gpuwise ask` prints after the questions (issue 15): the answer, the options considered and
the warnings, in the session's language and currency. A Chinese session used to print the rule ids
alone and drop every sentence because the sentences were English; they now come from the report's
catalog, each warning once."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from gpuwise.ask.questionnaire import _Session, _show_result, load_questions
from gpuwise.decide.recommend import recommend
from gpuwise.knowledge import load
from gpuwise.render.fmt import Currency, Fmt
from gpuwise.render.views import RecommendView

from .test_report_brief import english_runs

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def result():
    return recommend(str(ROOT / "examples" / "qlora-70b-4090.yaml"))


def shown(result, tmp_path: Path, lang: str, currency: str) -> tuple[str, _Session]:
    s = _Session(load_questions(), load(), tmp_path / "answers.yaml", lang=lang, currency=currency)
    console = Console(file=io.StringIO(), width=400, highlight=False, color_system=None)
    _show_result(console, s, result)
    return console.file.getvalue(), s


def test_a_chinese_session_shows_the_sentences_in_chinese(result, tmp_path):
    out, s = shown(result, tmp_path, "zh", "CNY")
    f = Fmt("zh", Currency("CNY", s.rate))
    rec = result.recommendation
    assert f.sentence(rec.summary_sentence.template, rec.summary_sentence.values, rec.summary) in out
    # the answer's, as the brief report counts them (review61: the other options' are counted, in the report)
    warnings = [x for x in RecommendView(result, "recommend", Fmt("zh")).answers_findings(result)
                if x.severity in ("blocker", "warning")]
    assert warnings
    for x in warnings:
        assert x.rule in out
    first = next(x for x in warnings if x.subject == rec.gpu or x.values.get("gpu_name") == rec.gpu_name)
    assert f.sentence(first.template, first.values, first.message) in out
    assert english_runs(out) == []
    assert "$" not in out and "¥" in out


def test_each_warning_is_shown_once_naming_the_other_gpus(result, tmp_path):
    out, _ = shown(result, tmp_path, "en", "USD")
    by_rule: dict[str, set[str]] = {}
    for x in RecommendView(result, "recommend", Fmt("en")).answers_findings(result):
        if x.severity in ("blocker", "warning"):
            by_rule.setdefault(x.rule, set()).add(x.subject)
    for rule in by_rule:
        assert out.count(f" {rule} ") == 1, rule
    several = [r for r, subjects in by_rule.items() if len(subjects) > 1]
    if several:
        assert "The same for:" in out


def test_the_options_considered_are_named(result, tmp_path):
    out, _ = shown(result, tmp_path, "zh", "CNY")
    table = out.split("考虑过的方案")[1]
    best = sorted((c for c in result.candidates if c.feasible), key=lambda c: c.rank)[:3]
    for c in best:
        assert c.gpu_name in table, c.gpu_name


def test_amounts_as_the_report_writes_them_and_no_empty_why_column(result, tmp_path):
    """A small cost keeps its cents ("$11.34", not "$11"); the "why" column is there only when an
    option shown is out."""
    out, _ = shown(result, tmp_path, "en", "USD")
    rec = result.recommendation
    money = Fmt("en").money(rec.total_cost_usd)
    assert money in out.split("Candidates considered")[0]
    cands = sorted(result.candidates, key=lambda c: (not c.feasible, 1 << 30 if c.rank is None else c.rank))[:10]
    header = next(line for line in out.split("Candidates considered")[1].splitlines() if "rank" in line)
    assert ("why" in header) == any(not c.feasible for c in cands)
