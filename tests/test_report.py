"""Tests for the report layer: gpuwise/render (report, view, fmt, words, charts), reports/templates,
gpuwise/render/locale.

The results rendered here are built by hand in ``fixtures_results.py`` (no engine run); the brief
report on real engine results, in both languages and currencies, is tested in test_report_brief.py.
Golden files live in ``tests/golden``; regenerate them after an intended change with
``GPUWISE_REGEN_GOLDEN=1 python -m pytest tests/test_report.py`` and review the diff.
"""

from __future__ import annotations

import functools
import gettext
import html.parser
import json
import math
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import ClassVar

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from gpuwise.chart_series import Charts, CostCurve, MemoryBar, TimeCostPoint
from gpuwise.errors import UserError
from gpuwise.paths import templates_dir
from gpuwise.render import charts, report
from tests.fixtures_results import (
    CANDIDATES,
    COST_CURVE,
    audit_result,
    estimate_result,
    no_feasible_result,
    recommend_result,
)

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest: audits of one question share the search

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "golden"
LOCALE = ROOT / "gpuwise" / "render" / "locale"
REGEN = os.environ.get("GPUWISE_REGEN_GOLDEN") == "1"

RESULTS = {"recommend": recommend_result, "audit": audit_result}
FORMATS = ("text", "md", "html")

# Headings and labels a reader sees; none may survive in a Chinese report (brief or full).
ENGLISH_HEADINGS = [
    "GPU recommendation", "GPU proposal audit", "Answer", "How it was decided", "Alternatives",
    "Blockers and warnings", "Assumptions", "Runner-up", "The question as understood",
    "The proposal as understood", "Step 1: Memory", "Step 2: Compute", "Step 3: Interconnect",
    "Step 4: Cost of ownership", "Why not the others", "All candidates", "Findings", "Blockers", "Warnings",
    "Information", "Data freshness", "Rule trace", "Rules that fired", "Formulas", "Verdict",
    "Proposed setup and the best feasible alternative", "Used-card inspection", "Wall-clock time",
    "Total cost", "Memory per GPU", "Oldest dated figure", "Amounts are in", "with numbers", "Fix:",
    "Source:", "renting passes buying's cash out", "months of use", "Cumulative cost", "Time against cost",
    "This is the brief report",
]
CHINESE_HEADINGS = {
    "recommend": ["GPU 选型建议", "结论", "决策过程", "备选方案", "阻断问题与警告", "假设", "数据时效"],
    "audit": ["GPU 采购方案审计", "否决", "原方案与最佳可行替代方案", "决策过程", "阻断问题与警告",
              "二手卡检测", "数据时效"],
}
CHINESE_FULL_HEADINGS = {
    "recommend": ["第一步：显存", "第二步：计算", "第三步：互联", "第四步：总拥有成本", "为何不选其他方案",
                  "全部候选方案", "检查发现", "规则触发记录", "触发的规则"],
    "audit": ["对方案的理解", "检查发现"],
}


def render(kind: str, fmt: str, **kw) -> str:
    return report.render(RESULTS[kind](), fmt, **kw)


# ------------------------------------------------------------------------------ every format
@pytest.mark.parametrize("detail", ["brief", "full"])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", sorted(RESULTS))
def test_renders_without_template_syntax_left(kind, fmt, lang, detail):
    out = render(kind, fmt, lang=lang, detail=detail)
    assert len(out) > 1000
    for token in ("{{", "}}", "{%", "%}", "{#", "#}"):
        assert token not in out, token
    assert "Undefined" not in out and "None" not in out.replace("none", "")
    assert out.endswith("\n")


def test_brief_text_answer_first_then_steps_alternatives_issues_assumptions():
    out = render("recommend", "text")  # 80 columns: not a terminal, no COLUMNS
    head = out[:900]
    flat = " ".join(out.split())
    assert "Rent 32 × H100 80GB (4 nodes of 8) for 2.5 days" in " ".join(head.split())  # the answer first
    # the lines under it leave out what the sentence says (count, rent or buy, time, cost)
    assert re.search(r"\n  GPU\s+NVIDIA H100 SXM5 80GB \(h100-80gb-sxm\)", head)
    order = [out.index(h) for h in ("=== Answer ===", "=== How it was decided ===", "=== Alternatives ===",
                                     "=== Blockers and warnings", "=== Assumptions ===", "=== Data freshness ===")]
    assert order == sorted(order)
    # the four steps in one line each (wrapped under their label at 80 columns)
    assert re.search(r"\n  Memory\s+Full fine-tuning of 70B needs about 1.1 TB", out)
    assert re.search(r"\n  Cost\s+Rent: the job is too short for buying to pay off.", out)
    # alternatives: the answer and the runner-up, one time unit in the column; at 80 columns the
    # table is stacked as label/value pairs, at 120 a table
    assert ("32 × NVIDIA H100 SXM5 80GB Rent or buy: rent, from lambda; Wall-clock time, days: 2.5; "
            "Total cost: $5,719; Why not: the answer") in flat
    assert "32 × NVIDIA A100 SXM4 80GB Rent or buy: rent, from lambda; Wall-clock time, days: 7.3" in flat
    wide = render("recommend", "text", width=120)
    assert re.search(r"32 × NVIDIA H100 SXM5 80GB\s+rent, from lambda\s+2.5\s+\$5,719\s+the answer", wide)
    assert re.search(r"32 × NVIDIA A100 SXM4 80GB\s+rent, from lambda\s+7.3\s+\$10,099\s+runner-up", wide)
    assert "Wall-clock time, days" in out
    # blockers and warnings with their fixes, each once; notes only counted; a finding about a
    # candidate that was not chosen (the RTX 4090's licence) is not among the answer's blockers
    assert "lic.geforce-datacenter" not in out.split("=== Blockers and warnings")[1].split("===")[1]
    full = render("recommend", "text", detail="full")
    assert "[blocker] lic.geforce-datacenter: The GeForce driver licence" in full
    assert "Fix: Use a data-center card (L40S, A100, H100) for a hosted cluster." in full
    assert "1 note (information only) is in the full report." in out
    assert "workload.optimizer = adamw — torch.optim.AdamW with its default multi-tensor step" in flat
    # no formulas, no candidate tables, no trace in the brief report
    for full_only in ("formula:", "=== Step 1: Memory ===", "=== Why not the others ===", "=== Rule trace ===",
                      "=== All candidates ==="):
        assert full_only not in out, full_only
    assert "--detail full" in out
    assert len(out.splitlines()) <= 80


def test_full_text_adds_formulas_candidates_rules_and_sources():
    out = render("recommend", "text", detail="full")
    assert out.index("=== Answer ===") < out.index("=== Step 1: Memory ===")
    assert "Count            32 GPUs on 4 nodes" in out
    # the question, with filled-in defaults marked
    assert "workload.model: llama-2-70b" in out
    assert "workload.optimizer: adamw  [default: torch.optim.AdamW" in out
    # memory step: breakdown, formula with the numbers put in, rules and their sources
    assert "Optimizer state   25.9 GB    60%" in out
    assert "formula: params × 2 B / 32 GPUs (ZeRO-3)" in out
    assert "with numbers: 69e9 × 2 B / 32 GPUs (ZeRO-3)" in out
    assert "mem.zero3-shards-state: 70B training state" in out
    assert "source: Rajbhandari et al., ZeRO (SC20), table 1" in out
    # compute, interconnect, TCO
    assert "Training FLOPs = 2.85e21 FLOP" in out
    assert "with numbers: 5e9 × (8 × 68.5e9 + 21.5e9)" in out  # tokens × (multiplier × matmul params + attention)
    assert "Scaling efficiency = 0.93" in out
    assert ("The lines cross after 16.4 months of use: renting for longer than that costs more than buying's cash out."
            in " ".join(out.split()))
    assert "$612,400  month 17" in out
    # why not X, for every GPU with no feasible option
    why = out.split("=== Why not the others ===")[1].split("===")[0]
    for c in CANDIDATES:
        assert (c.gpu in why) == (not c.feasible)
        for reason in c.reasons:
            assert reason in why
    assert "rule compute.deadline-missed (requirements: constraints.deadline_days)" in why
    # findings grouped by severity, in order, with fixes and sources
    blockers, warnings, info = (out.index(h) for h in ("Blockers:", "Warnings:", "Information:"))
    assert blockers < warnings < info
    assert "Findings (every candidate's: 1 blocker, 2 warnings, 1 note)" in out
    assert "Fix: Use a data-center card (L40S, A100, H100) for a hosted cluster." in out
    assert "Source: NVIDIA GeForce software licence, section 2.1.3" in out
    # knowledge dates and the old price, also flagged at the top
    assert "Oldest dated figure in the knowledge base: 2024-06-01" in out
    assert "Newest dated figure in the knowledge base: 2026-01-08" in out
    assert "price as of 2024-06-01, 586 days old" in out
    assert out[:300].index("1 price used here is out of date; see Data freshness.") < out.index("=== Answer ===")
    assert "Amounts are in US dollars." in out
    assert "--detail full" not in out


def test_text_tables_align_in_columns():
    lines = render("recommend", "text", detail="full").splitlines()
    i = next(n for n, line in enumerate(lines) if line.strip().startswith("Part ") and "Share" in line)
    rule = lines[i + 1]
    assert set(rule.strip()) <= {"-", " "}
    # right-aligned numbers end in the same column as their rule
    ends = {len(lines[j]) for j in range(i + 2, i + 8)}
    assert ends == {len(rule)}


def test_markdown_structure_and_escaping():
    out = render("recommend", "md", detail="full")
    assert out.startswith("# GPU recommendation: finetune (full), llama-2-70b, bf16\n")
    assert "\n## Answer\n" in out and "\n## Alternatives\n" in out
    assert "\n## Step 1: Memory\n" in out and "\n## Why not the others\n" in out
    assert "| Part | Per GPU | Share |\n| --- | ---: | ---: |\n| Weights | 4.3 GB | 10% |" in out
    assert "- `mem.exceeds-usable`: rtx-4090 × 64" in out
    assert "`69e9 × 2 B / 32 GPUs (ZeRO-3)`" in out
    assert "| **default**: torch.optim.AdamW" in out
    # a table row has as many cells as its header
    rows = [line for line in out.splitlines() if line.startswith("|")]
    assert all(line.endswith("|") for line in rows)
    brief = render("recommend", "md")
    assert "\n## How it was decided\n" in brief and "\n## Step 1: Memory\n" not in brief
    assert "1. **Memory**: Full fine-tuning of 70B" in brief
    assert "| `workload.optimizer` | `adamw` | torch.optim.AdamW" in brief
    assert report.md_escape("a | b *c* <x>") == "a \\| b \\*c\\* &lt;x&gt;"
    assert report.md_code("x|y") == "`x\\|y`"
    assert report.md_code("a`b") == "`` a`b ``"


@pytest.mark.parametrize("detail", ["brief", "full"])
def test_markdown_cells_count_matches_header(detail):
    out = render("audit", "md", detail=detail)
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("| ---") or line.startswith("| ---:"):
            n = lines[i - 1].count(" |")
            j = i + 1
            while j < len(lines) and lines[j].startswith("|"):
                assert lines[j].replace("\\|", "").count(" |") == n, lines[j]
                j += 1


# ------------------------------------------------------------------------------------ audit
def test_audit_verdict_first_alternative_savings_and_cards():
    out = render("audit", "text")
    assert out.index("REJECT: At least one blocker") < out.index("=== Blockers and warnings")
    assert "2 blockers, 2 warnings, 1 note" in out
    # the proposal and the alternative, each in a line, then the savings
    assert "The proposal: 8 × NVIDIA GeForce RTX 3090, buy: n/a, $23,850 (not feasible)" in out
    assert ("The alternative: 32 × NVIDIA H100 SXM5 80GB, rent, from lambda: 2.5 days, $5,719 (feasible)"
            in " ".join(out.split()))
    assert "The alternative saves $18,131 (76% of the proposed cost)." in out
    assert re.search(r"Total cost\s+\$23,850\s+\$5,719", out)
    assert re.search(r"Memory per GPU\s+146.2 GB of 22.9 GB usable\s+43.3 GB of 78.7 GB usable", out)
    assert "CPU offload would need 828 GB of host RAM" in out
    # brief: one line per used card, with the findings about it
    assert "Card 1: 1324520012345: failed (1 blocker)" in out  # the rules: in the section above
    assert "Card 2: 1324520012399: passed" in out and "Card 3: 1324520099999: could not check" in out
    full = render("audit", "text", detail="full")
    assert re.search(r"Fan speed variation under load \(CV\)\s+0.46 from 4 readings", full)
    assert re.search(r"PCIe link\s+Gen 4 x8 \(the card supports Gen 4 x16\)", full)
    assert re.search(r"Power limit\s+280 W \(default 350 W\)", full)
    assert re.search(r"Findings on this card\s+used.fan-hunting \(blocker\)", full)
    assert re.search(r"Uncorrectable ECC errors\s+not known", full)  # -1 is "not known", never "-1"
    assert "hardware.gpu: rtx-3090" in full
    html_out = render("audit", "html")
    assert 'class="verdict verdict-reject"' in html_out
    assert "Verdict: REJECT" in html_out


def test_every_used_card_field_is_worded_or_left_out_by_design():
    """A used card is a typed record (results.UsedCard): each field is shown in a row of its own with a
    label (fmt.CARD_FIELDS), inside another field's row (CARD_SHOWN_WITH) or left out by design
    (CARD_INTERNAL), once; no row is a raw field name ("purchase | true"), in English or Chinese. A
    card no finding is about is "passed" when something was measured on it, "could not check" when
    nothing was. By hand: 10,240 MiB shown of 24,576 MiB claimed is 41.7%, "42%"."""
    from gpuwise.render.fmt import CARD_FIELDS, CARD_INTERNAL, CARD_SHOWN_WITH, translations
    from gpuwise.results import UsedCard

    own = [k for k, _, _ in CARD_FIELDS]
    within = [k for ks in CARD_SHOWN_WITH.values() for k in ks]
    assert sorted(own + within + sorted(CARD_INTERNAL)) == sorted(UsedCard.model_fields)  # each field once
    assert CARD_SHOWN_WITH.keys() <= set(own)
    zh = translations("zh")
    assert [label for _, label, _ in CARD_FIELDS if not zh.gettext(label) or zh.gettext(label) == label] == []
    r = audit_result()
    card = r.cards[1].model_copy(update={"serial": "X1", "gpus_in_report": 3, "gpu_index": 2, "months_to_sale": 14,
                                         "memory_mib": 10240, "memory_ratio": 10240 / 24576, "gpu_temp_c": 71,
                                         "gpu_slowdown_temp_c": 95})
    shown = r.model_copy(update={"cards": [card]})
    out = report.render(shown, "text", detail="full")
    assert "Card 1: X1: passed" in out
    assert re.search(r"Months from manufacture to sale\s+14", out)
    assert re.search(r"GPU of the nvidia-smi report judged\s+2 of 3", out)
    assert re.search(r"Memory reported by nvidia-smi\s+10,240 MiB of 24,576 MiB claimed \(42%\)", out)
    assert re.search(r"Memory type\s+GDDR6X, throttles at 110 °C", out)
    assert "GPU temperature 71 °C (limit ? °C, slowdown 95 °C, shutdown ? °C)" in " ".join(out.split())
    section = out[out.index("Card 1: X1"):]
    for lang, text in (("en", section), ("zh", report.render(shown, "text", detail="full", lang="zh"))):
        rows = {line.split()[0] for line in text.splitlines() if line.strip()}
        assert rows & set(UsedCard.model_fields) == set(), lang
    assert "GDDR6X，110 °C 时降频" in report.render(shown, "text", detail="full", lang="zh")
    blank = r.cards[2].model_copy(update={"serial": "X2"})
    nothing = report.render(r.model_copy(update={"cards": [blank]}), "text", detail="full")
    assert "Card 1: X2: could not check" in nothing
    assert "Memory reported by nvidia-smi" not in nothing and "GPU temperature" not in nothing  # no report


@pytest.mark.parametrize("verdict,label", [("approve", "APPROVE"), ("revise", "REVISE")])
def test_audit_other_verdicts(verdict, label):
    r = audit_result().model_copy(update={"verdict": verdict, "alternative": None, "savings_usd": None})
    out = report.render(r, "text")
    assert f"{label}: " in out
    assert "No feasible alternative was found in the catalog." in out


# ------------------------------------------------------------------------------------- html
class _Checker(html.parser.HTMLParser):
    """Balanced tags, and every external reference noted."""

    VOID: ClassVar[set[str]] = {"meta", "br", "hr", "img", "input", "link", "source", "wbr", "col", "area",
                                "base"}

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.refs: list[str] = []
        self.ids: list[str] = []
        self.labelledby: list[str] = []

    def handle_starttag(self, tag, attrs):
        self._attrs(attrs)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self._attrs(attrs)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]}")
            return
        self.stack.pop()

    def _attrs(self, attrs):
        for k, v in attrs:
            if k in ("src", "href", "xlink:href", "action", "poster", "data") and v and not v.startswith("#"):
                self.refs.append(v)
            if k == "id":
                self.ids.append(v)
            if k == "aria-labelledby":
                self.labelledby += v.split()


@pytest.mark.parametrize("detail", ["brief", "full"])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("kind", sorted(RESULTS))
def test_html_is_well_formed_self_contained_and_printable(kind, lang, detail):
    out = render(kind, "html", lang=lang, detail=detail)
    checker = _Checker()
    checker.feed(out)
    checker.close()
    assert checker.errors == []
    assert checker.stack == []
    assert checker.refs == []  # no src/href outside the page
    assert not re.search(r"https?://", out)
    assert "<script" not in out and "@import" not in out and "url(http" not in out
    assert len(checker.ids) == len(set(checker.ids)), "duplicate ids"
    assert set(checker.labelledby) <= set(checker.ids)
    assert "@media print" in out and "<style>" in out
    # paper: no heading stranded at a page foot, no table or chart split, closed details left out
    print_css = out.split("@media print")[1]
    assert "break-after: avoid" in print_css and "break-inside: avoid" in print_css
    assert "details:not([open]) { display: none; }" in print_css
    # narrow screens: field names break after their dots (<wbr>), anywhere only in code cells
    assert "overflow-wrap: anywhere" not in out.split("@media (max-width: 640px)")[0]
    assert out.startswith("<!DOCTYPE html>\n<html lang=")
    assert f'<html lang="{"zh-CN" if lang == "zh" else "en"}">' in out


def _wide(figure: str) -> str:
    """A chart's figure without its phone drawing (the wide drawing, the legend, the data table)."""
    return re.sub(r'<svg class="narrow".*?</svg>', "", figure, flags=re.S)


def test_html_charts_are_present_accessible_and_have_text_alternatives():
    out = render("recommend", "html")
    figures = re.findall(r'<figure class="chart" id="([^"]+)">(.*?)</figure>', out, re.S)
    assert [f[0] for f in figures] == ["chart-memory", "chart-cost", "chart-time-cost"]
    for cid, body in figures:
        # two drawings, each titled and described: the wide one and the phone's
        assert body.count('<svg class="wide" viewBox="0 0 ') == 1
        assert body.count('<svg class="narrow" viewBox="0 0 340 ') == 1
        for v in ("", "-narrow"):
            assert f'<title id="{cid}{v}-title">' in body and f'<desc id="{cid}{v}-desc">' in body
            assert f'aria-labelledby="{cid}{v}-title {cid}{v}-desc"' in body
        assert body.count('role="img"') == 2
        alt = body.split('<div class="chart-alt">')[1]
        assert "<p>" in alt and "<table" in alt  # visible text alternative
    memory, cost, scatter = (_wide(f[1]) for f in figures)
    # brief: the bars of the options in the alternatives table, the answer first and named so
    r = recommend_result()
    shown = [c for c in CANDIDATES if c.feasible][:2]
    assert memory.count('<rect class="seg"') == sum(sum(1 for v in c.memory_breakdown.values() if v > 0)
                                                    for c in shown)
    assert "32 × NVIDIA H100 SXM5 80GB (the answer)" in memory
    for kind in ("weights", "gradients", "optimizer", "activations", "overhead"):
        assert f'fill="url(#chart-memory-pat-{kind})"' in memory
        assert f'<pattern id="chart-memory-pat-{kind}"' in memory
    assert memory.count('<line class="capacity"') == 2 and memory.count('<line class="usable"') == 2
    # rent and buy lines of the answer, the break-even point marked and labelled
    assert f"Cumulative cost of renting and of buying 32 × {r.recommendation.gpu_name}" in cost
    assert '<polyline class="line-rent"' in cost and '<polyline class="line-buy"' in cost
    assert '<circle class="be-dot"' in cost and "renting passes buying&#39;s cash out after 16.4 months" in cost
    assert "The lines cross after 16.4 months of use" in cost and "month 16.4" not in cost
    assert cost.count("<polyline") == 3  # rent, buy's cash out, and the resale step at the end
    assert '<polyline class="line-resale"' in cost and "Buy, after resale" in cost
    # scatter: the answer is a star and says so
    assert scatter.count('class="pt-chosen"') == 1 and "(the answer)" in scatter
    # full: every candidate's series as the result carries them, the rejected ones as crosses
    full = render("recommend", "html", detail="full")
    figures = dict(re.findall(r'<figure class="chart" id="([^"]+)">(.*?)</figure>', full, re.S))
    memory, scatter = _wide(figures["chart-memory"]), _wide(figures["chart-time-cost"])
    assert memory.count('<rect class="seg"') == sum(
        sum(1 for v in c.memory_breakdown.values() if v > 0) for c in CANDIDATES)
    assert "25.8 GB / 23.2 GB ✗ exceeds" in memory
    assert scatter.count('class="pt-chosen"') == 1 and "h100-80gb-sxm × 32 (chosen)" in scatter
    assert scatter.count('class="pt-rejected"') == 2  # the rtx-4090 has no time: not placed
    assert "Not placed (no time or cost): rtx-4090 × 64." in scatter
    assert full.count("<details") >= 4 and "<details id=\"details-steps\" open>" in full
    assert "<details id=\"details-steps\">" in out  # brief: the formulas folded away


def test_html_audit_charts_are_about_the_proposal():
    r = audit_result()
    # renting 1,000 a month against buying 9,000 up front and 200 a month: they cross at 9,000 / 800
    curve = CostCurve(unit="months", x=list(range(13)), period="project", span=12,
                      rent=[i * 1000.0 for i in range(13)], rent_total=12000.0,
                      buy=[9000.0 + i * 200 for i in range(13)], buy_cash_out=11400.0, resale=-4000.0,
                      resale_after_months=12, buy_net=7400.0, break_even=9000 / 800)
    charts = r.charts.model_copy(update={"proposal_cost_curve": curve, "cost_curve": CostCurve(**COST_CURVE)})
    out = report.render(r.model_copy(update={"charts": charts}), "html")
    figures = re.findall(r'<figure class="chart" id="([^"]+)">(.*?)</figure>', out, re.S)
    ids = [f[0] for f in figures]
    assert ids[:3] == ["chart-memory", "chart-cost", "chart-cost-2"]
    memory, proposal_cost, alternative_cost = (_wide(f[1]) for f in figures[:3])
    rows = re.findall(r'<text class="row-label"[^>]*>([^<]*)</text>', memory)
    assert rows == ["8 × NVIDIA GeForce RTX 3090 (proposed)", "32 × NVIDIA H100 SXM5 80GB (the alternative)"]
    assert "8 × NVIDIA GeForce RTX 3090 (proposed)" in proposal_cost
    assert "renting passes buying&#39;s cash out after 11.2 months" in proposal_cost
    assert "32 × NVIDIA H100 SXM5 80GB (the alternative)" in alternative_cost
    assert "chart-time-cost" not in ids  # the brief audit draws no chart of unrelated candidates


def test_html_escapes_data():
    r = recommend_result()
    bad = r.findings[0].model_copy(update={"message": "<script>alert(1)</script> & <b>"})
    out = report.render(r.model_copy(update={"findings": [bad, *r.findings[1:]]}), "html", detail="full")
    assert "<script>alert" not in out and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;" in out


def _luminance(hex_colour: str) -> float:
    rgb = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_colours_meet_wcag_aa():
    css = (templates_dir() / "_style.css").read_text()
    var = dict(re.findall(r"--([a-z]+):\s*(#[0-9a-fA-F]{6})", css))
    for name in ("ink", "muted", "red", "amber", "blue", "ok", "green", "purple", "brown", "grey", "orange"):
        assert _contrast(var[name], "#ffffff") >= 4.5, name  # text on white, and white text on it
    assert _contrast(var["muted"], var["soft"]) >= 4.5
    macros = (templates_dir() / "_macros.html").read_text()
    fills = re.findall(r'<pattern id="\{\{ pat \}\}[a-z_]+"[^>]*><rect [^>]*fill="(#[0-9a-fA-F]{6})"', macros)
    assert len(fills) == 7
    for fill in fills:  # chart marks >= 3:1 against the page; white value labels on them >= 4.5:1
        assert _contrast(fill, "#ffffff") >= 4.5, fill


# ---------------------------------------------------------------------------------- language
@pytest.mark.parametrize("detail", ["brief", "full"])
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", sorted(RESULTS))
def test_chinese_report_has_no_english_template_strings(kind, fmt, detail):
    out = render(kind, fmt, lang="zh", detail=detail)
    for heading in CHINESE_HEADINGS[kind] + (CHINESE_FULL_HEADINGS[kind] if detail == "full" else []):
        assert heading in out, heading
    for english in ENGLISH_HEADINGS:
        assert english not in out, english
    # every phrase of three words or more of the report's own messages is absent (data may repeat single
    # words; the hand-built results' sentences have no templates, so the rule sentences are checked on real
    # results in test_report_brief.py)
    for piece in _own_phrases():
        assert piece.strip() not in out, piece


@functools.cache
def _own_phrases() -> tuple[str, ...]:
    """The pieces of three words or more between the placeholders of the catalog's messages that are
    not data (_yaml_msgids): read once for the twelve reports above."""
    catalog = read_po((LOCALE / "gpuwise.pot").open("rb"))
    yaml_ids = _yaml_msgids()
    pieces = []
    for message in catalog:
        if message.id in yaml_ids:
            continue
        for msgid in (message.id if isinstance(message.id, tuple) else (message.id,)):
            text = re.sub(r"%\(\w+\)s|\{[^{}]*\}", "\0", msgid or "")
            pieces += [piece for piece in text.split("\0") if len(piece.split()) >= 3]
    return tuple(pieces)


def _yaml_msgids() -> set:
    """The sentences of rules and reports/messages.yaml, and the value phrases of gpuwise/render/words.py
    (a link or a layout as the estimators word it): data in a hand-built result, not the report's words."""
    from babel.messages.extract import extract_python

    from gpuwise.render.i18n_extract import extract_yaml

    out: set = set()
    for path in [*sorted((ROOT / "rules").glob("*.yaml")), ROOT / "reports" / "messages.yaml"]:
        with path.open("rb") as fh:
            out |= {m for _, _, m, _ in extract_yaml(fh, None, None, None)}
    with (ROOT / "gpuwise" / "render" / "words.py").open("rb") as fh:
        for _, _, m, _ in extract_python(fh, {"_": None, "N_": None, "ngettext": (1, 2)}, [], {}):
            if isinstance(m, str):
                out.add(m)
            elif m and all(isinstance(x, str) for x in m):
                out.add(tuple(m))
    return out


def test_chinese_numbers_and_units():
    out = render("recommend", "text", lang="zh")
    assert "2.5 天（1,913 GPU 小时）" in out
    assert "32 块 GPU，分布在 4 个节点" in out
    full = render("recommend", "text", lang="zh", detail="full")
    assert "第 17 个月" in full


def test_template_text_outside_translation_calls_is_not_english():
    """Every word a template writes goes through _() / ngettext(); the rest is markup."""
    allowed = {"gpuwise"}
    for path in sorted(templates_dir().iterdir()):
        if path.suffix not in (".txt", ".md", ".html"):
            continue
        text = path.read_text()
        text = re.sub(r"\{#.*?#\}|\{\{.*?\}\}|\{%.*?%\}", " ", text, flags=re.S)
        if path.suffix == ".html":
            text = re.sub(r"<!DOCTYPE[^>]*>|<[^>]*>", " ", text)
        if path.suffix == ".md":  # an anchor a link lands on, and the link's target
            text = re.sub(r'<a id="[^"]*"></a>|\]\(#[a-z0-9-]*\)', " ", text)
        words = set(re.findall(r"[A-Za-z]{2,}", text)) - allowed
        assert not words, f"{path.name}: untranslated words {sorted(words)}"


def test_unknown_language_is_a_user_error():
    with pytest.raises(UserError, match="language"):
        render("recommend", "text", lang="fr")
    assert report.render(recommend_result(), "text", lang="zh-CN") == render("recommend", "text", lang="zh")


# ---------------------------------------------------------------------------------- catalogs
def _catalog_ids(path: Path) -> set:
    return {m.id for m in read_po(path.open("rb")) if m.id}


def test_no_message_call_inside_an_f_string():
    """A _() / N_() / ngettext() call inside an f-string is extracted by pybabel on Python 3.12+ (PEP 701 tokenizes
    the f-string's parts) but not on 3.10/3.11: the catalog would then depend on the Python that extracted it (the
    CI run of stop 74 failed on 3.12 for 'from %(stage)s' in render/listing.py). Keep such calls outside f-strings."""
    import ast

    names = {"_", "N_", "gettext", "ngettext"}
    found = []
    for path in sorted((ROOT / "gpuwise").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fstring in (n for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)):
            for call in (n for n in ast.walk(fstring) if isinstance(n, ast.Call)):
                func = call.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                literal = bool(call.args) and isinstance(call.args[0], ast.Constant)  # what pybabel can extract
                if name in names and literal:
                    found.append(f"{path.relative_to(ROOT)}:{call.lineno}")
    assert found == []


def test_pot_has_every_message_in_the_sources():
    """The extraction map (babel.cfg) covers the report's code and templates and the YAML sentences:
    rule titles, messages and fixes, and reports/messages.yaml."""
    from babel.messages.frontend import parse_mapping_cfg

    with (LOCALE / "babel.cfg").open() as fh:
        method_map, options = parse_mapping_cfg(fh)
    patterns = [pattern for pattern, _ in method_map]
    for needed in ("gpuwise/render/views/**.py", "gpuwise/render/fmt.py", "gpuwise/render/words.py", "rules/*.yaml",
                   "reports/messages.yaml", "reports/templates/**.html"):
        assert needed in patterns, needed
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
    # pybabel's walk, only into the top folders the map names (not tests/data, knowledge/, benchmarks/...):
    # a folder starting with "." or "_" is skipped, as babel does; the map ignores no folder of its own
    tops = {pattern.split("/")[0] for pattern in patterns}
    assert "ignore" not in {method for _, method in method_map}

    def mapped(path: str) -> bool:
        rel = Path(path).relative_to(ROOT)
        return not rel.name.startswith((".", "_")) and rel.parts[0] in tops

    found = set()
    for _file, _line, msg, _comments, _ctx in extract_from_dir(str(ROOT), method_map, options, keywords,
                                                                directory_filter=mapped):
        found.add(msg if isinstance(msg, str) else tuple(msg))
    pot = _catalog_ids(LOCALE / "gpuwise.pot")
    assert found - pot == set(), "run the pybabel commands in gpuwise/render/locale/README.md"
    assert pot - found == set(), "the .pot has messages no source uses any more"
    # every rule message and fix is in the catalog: a Chinese report can say it
    from gpuwise.render.i18n_extract import extract_yaml

    for path in sorted((ROOT / "rules").glob("*.yaml")):
        with path.open("rb") as fh:
            assert {m for _, _, m, _ in extract_yaml(fh, None, None, None)} <= pot, path.name


def test_zh_catalog_is_complete_and_compiled():
    po = read_po((LOCALE / "zh_CN" / "LC_MESSAGES" / "gpuwise.po").open("rb"))
    assert _catalog_ids(LOCALE / "gpuwise.pot") == {m.id for m in po if m.id}
    mo = gettext.GNUTranslations((LOCALE / "zh_CN" / "LC_MESSAGES" / "gpuwise.mo").open("rb"))
    for m in po:
        if not m.id:
            continue
        assert not m.fuzzy, m.id
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strs = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(strs), f"untranslated: {m.id}"
        for s in strs:  # the same placeholders, none lost or misspelt: %(name)s and {name:spec} alike
            assert set(re.findall(r"%\(\w+\)s", s)) == set(re.findall(r"%\(\w+\)s", ids[-1])), m.id
            assert sorted(re.findall(r"\{[^{}]*\}", s)) == sorted(re.findall(r"\{[^{}]*\}", ids[-1])), m.id
        if isinstance(m.id, tuple):
            assert mo.ngettext(ids[0], ids[1], 2) == strs[0]
        else:
            assert mo.gettext(m.id) == m.string, f".mo is stale for {m.id!r}: run pybabel compile"


# ---------------------------------------------------------------------------------- currency
def test_cny_at_a_given_rate():
    out = render("recommend", "text", currency="CNY", fx_rate=7.0, detail="full")
    assert "CN¥40,031" in out  # 5,718.7 USD x 7.0
    assert "Amounts are in Chinese yuan at 7 CNY per USD, the rate given for this report." in out
    assert "Rent = CN¥40,031\n" in out and "US$" not in out  # one currency: the rate is stated once
    zh = render("recommend", "html", lang="zh", currency="cny", fx_rate=7.0, detail="full")
    assert "¥40,031" in zh and "CN¥" not in zh and "$5,719<" not in zh
    assert "¥6,944,000" in zh  # buying's month 0 in the cost table: 992,000 USD at x7
    brief = render("recommend", "text", lang="zh", currency="CNY", fx_rate=7.0)
    answer = brief.split("=== 结论 ===")[1].split("===")[0]  # the report's own lines (the fixture's
    assert "$" not in answer and "¥40,031" in answer  # sentences have no templates: they stay as written)


def test_cny_at_the_knowledge_base_rate_states_date_and_source():
    from gpuwise.knowledge import load

    v = load().tco_value("usd_cny")
    out = render("audit", "md", currency="CNY", detail="full")
    assert f"CN¥{round(23_850 * v.value):,}" in out
    assert f"at {v.value:g} CNY per USD (as of {v.as_of.isoformat()}; source: " in out
    assert " ".join(v.source.split())[:40] in out
    assert f"CN¥{round((23_850.0 - 5718.7) * v.value):,}" in out  # the savings


@pytest.mark.parametrize("kw,match", [({"currency": "EUR"}, "currency"),
                                      ({"currency": "CNY", "fx_rate": -1}, "rate"),
                                      ({"currency": "CNY", "fx_rate": math.nan}, "rate"),
                                      ({"currency": "USD", "fx_rate": 7.1}, "exchange rate")])
def test_bad_currency_options_are_user_errors(kw, match):
    with pytest.raises(UserError, match=match):
        render("recommend", "text", **kw)


# -------------------------------------------------------------------------------------- json
def test_json_is_the_models_dump_whatever_the_options():
    r = recommend_result()
    out = report.render(r, "json", lang="zh", currency="CNY", fx_rate=7)
    assert json.loads(out) == r.model_dump(mode="json")
    data = json.loads(report.render(audit_result(), "json"))
    assert data["verdict"] == "reject" and data["alternative"]["gpu"] == "h100-80gb-sxm"
    assert {"recommendation", "candidates", "findings", "trace"} <= json.loads(out).keys()


# ---------------------------------------------------------------------------------- estimate
def test_estimate_text():
    out = report.render(estimate_result(), "text")
    assert out.startswith("GPU memory and time estimate\n")
    assert re.search(r"Optimizer state\s+25.9 GB", out) and re.search(r"Total over all GPUs\s+1.39 TB", out)
    assert "Layout: data parallel, ZeRO-3" in out
    assert re.search(r"Dense peak\s+989.4 TFLOP/s bf16", out) and re.search(r"Cost\s+\$5,719 \(rent\)", out)
    assert "Total FLOPs: 2.85e21 FLOP" in out
    assert "Training time, without the start-up = 60 hours" in out
    with pytest.raises(UserError, match="text or json"):
        report.render(estimate_result(), "html")
    assert json.loads(report.render(estimate_result(), "json"))["gpu"]["id"] == "h100-80gb-sxm"


# --------------------------------------------------------------------------- odd results
@pytest.mark.parametrize("fmt", FORMATS)
def test_no_feasible_option(fmt):
    out = report.render(no_feasible_result(), fmt)  # brief: the reasons are the answer, so they are shown
    assert "No feasible option" in out
    assert "No candidate meets the requirements." in out
    assert "Why not the others" in out
    if fmt == "html":  # no chart series given: the memory chart comes from the candidates
        assert 'id="chart-memory"' in out and 'id="chart-cost"' not in out


def test_result_as_dict_and_kind():
    data = recommend_result().model_dump(mode="json")
    assert report.render(data, "text") == render("recommend", "text")
    assert report.render(data, "md", kind="recommend") == render("recommend", "md")
    with pytest.raises(UserError, match="cannot be rendered"):
        report.render(recommend_result(), "text", kind="audit")
    with pytest.raises(UserError, match="kind"):
        report.render({"x": 1}, "text")
    with pytest.raises(UserError, match="kind"):
        report.render(recommend_result(), "text", kind="nonsense")


def test_missing_and_degenerate_chart_series_are_tolerated():
    """Series with nothing to draw (a line with one finite point, bars without parts, points with
    neither time nor cost) give no chart rather than a guess; no series at all, charts rebuilt
    from the candidates."""
    r = recommend_result()
    broken = Charts(cost_curve=CostCurve(unit="months", x=[0, 1, 2], period="project", span=2,
                                         rent=[0, math.nan, math.inf]),
                    memory=[MemoryBar(label="a")], time_cost=[TimeCostPoint(label="a")])
    out = report.render(r.model_copy(update={"charts": broken}), "html", detail="full")
    assert 'id="chart-cost"' not in out  # too few points to draw a line
    assert 'id="chart-memory"' not in out  # bars without parts: no chart rather than a guess
    assert 'id="chart-time-cost"' not in out
    out = report.render(r.model_copy(update={"charts": Charts(), "estimate": None, "steps": []}), "html",
                        detail="full")
    assert 'id="chart-memory"' in out and 'id="chart-time-cost"' in out  # rebuilt from the candidates
    out = report.render(r.model_copy(update={"charts": broken}), "html")
    assert 'id="chart-memory"' in out  # brief: the bars come from the candidates the report lists


def test_unknown_detail_is_a_user_error():
    with pytest.raises(UserError, match="detail"):
        render("recommend", "text", detail="everything")


# ------------------------------------------------------------------------------ writing files
@pytest.mark.parametrize("name,fmt", [("r.md", "md"), ("r.HTML", "html"), ("r.json", "json"),
                                      ("r.txt", "text"), ("r.markdown", "md"), ("-", "text"), (None, "text")])
def test_format_for_suffix(name, fmt):
    assert report.format_for(name, None) == fmt


def test_format_for_errors_and_overrides():
    with pytest.raises(UserError) as err:
        report.format_for("report.pdf", None)
    assert err.value.where == "report.pdf" and ".md, .html, .json or .txt" in err.value.line()
    with pytest.raises(UserError):
        report.format_for("report", None)
    assert report.format_for("report.pdf", "html") == "html"
    assert report.format_for("r.md", "JSON") == "json"
    with pytest.raises(UserError, match="format"):
        report.format_for("r.md", "docx")


def test_write_report(tmp_path):
    path = report.write_report(recommend_result(), tmp_path / "rec.html")
    assert path == tmp_path / "rec.html"
    assert path.read_text(encoding="utf-8") == render("recommend", "html")
    out = report.write_report(audit_result(), tmp_path / "audit.out", fmt="md", lang="zh")
    assert out.read_text(encoding="utf-8").startswith("# GPU 采购方案审计")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["audit.out", "rec.html"]
    umask = os.umask(0o022)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask  # like any new file, not mkstemp's 0600


def test_write_report_leaves_nothing_behind_on_failure(tmp_path, monkeypatch):
    target = tmp_path / "rec.md"
    with pytest.raises(UserError):  # bad option: nothing written
        report.write_report(recommend_result(), target, currency="EUR")
    with pytest.raises(UserError):  # unknown suffix
        report.write_report(recommend_result(), tmp_path / "rec.pdf")
    with pytest.raises(UserError, match="directory"):
        report.write_report(recommend_result(), tmp_path / "missing" / "rec.md")
    target.write_text("old report")

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report.os, "replace", boom)
    with pytest.raises(UserError, match="No space left"):
        report.write_report(recommend_result(), target)
    assert target.read_text() == "old report"  # the old file is untouched
    assert [p.name for p in tmp_path.iterdir()] == ["rec.md"]  # and no temporary file is left


def test_write_report_interrupted_while_writing(tmp_path, monkeypatch):
    real_fdopen = os.fdopen

    class Exploding:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, text):
            self.fh.write(text[:100])
            raise KeyboardInterrupt

    monkeypatch.setattr(report.os, "fdopen", lambda *a, **k: Exploding(real_fdopen(*a, **k)))
    with pytest.raises(KeyboardInterrupt):
        report.write_report(recommend_result(), tmp_path / "rec.txt")
    assert list(tmp_path.iterdir()) == []


# -------------------------------------------------------------------------------------- charts
def test_nice_and_log_ticks():
    assert charts.nice_ticks(0, 85.5e9) == [0, 20e9, 40e9, 60e9, 80e9, 100e9]
    assert charts.nice_ticks(0, 1) == [0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert charts.nice_ticks(5, 5) and charts.nice_ticks(math.nan, 1) == []
    assert charts.log_ticks(2, 300) == [2, 5, 10, 20, 50, 100, 200]
    assert charts.log_ticks(2, 3000) == [10, 100, 1000]  # four decades: decades only
    assert charts.log_ticks(1, 1e6) == [1, 10, 100, 1000, 1e4, 1e5, 1e6]
    assert charts.log_ticks(0, 10) == []


def test_memory_bars_geometry():
    series = [{"label": "a", "capacity": 80e9, "usable": 72e9, "parts": {"weights": 40e9, "optimizer": 20e9}},
              {"label": "b", "capacity": 24e9, "usable": None, "parts": {"weights": 30e9, "mystery": 1e9}},
              {"label": "c", "parts": {}}, "junk"]
    g = charts.memory_bars(series)
    assert [r["label"] for r in g["rows"]] == ["a", "b"]
    a, b = g["rows"]
    assert [s["kind"] for s in a["segments"]] == ["weights", "optimizer"]
    s0, s1 = a["segments"]
    assert s1["x"] == pytest.approx(s0["x"] + s0["w"], abs=0.2)  # stacked
    assert s0["w"] == pytest.approx(2 * s1["w"], abs=0.2)  # proportional
    assert g["x0"] < a["usable_x"] < a["capacity_x"] <= g["x1"]
    assert not a["over"] and b["over"]  # b exceeds its capacity when no usable figure is known
    assert b["usable_x"] is None and b["segments"][-1]["pattern"] == "other"
    assert g["kinds"] == ["weights", "optimizer", "mystery"]
    assert g["ticks"][-1]["x"] == g["x1"]
    for bad in (None, [], {}, "x", [{"parts": {"weights": -1}}]):
        assert charts.memory_bars(bad) is None
    many = charts.memory_bars([{"label": str(i), "parts": {"weights": 1}} for i in range(20)], max_rows=16)
    assert len(many["rows"]) == 16 and many["omitted"] == 4


def test_cost_curve_geometry():
    geo_in = {"months": COST_CURVE["x"], "rent": COST_CURVE["rent"], "buy": COST_CURVE["buy"], "break_even_month": 17}
    g = charts.cost_curve(geo_in)
    rent, buy = (s for s in g["series"])
    assert rent["key"] == "rent" and buy["key"] == "buy"
    assert len(rent["points"].split()) == 25
    be = g["break_even"]
    assert be["month"] == 17 and g["x0"] < be["x"] < g["x1"] and g["y0"] <= be["y"] <= g["y1"]
    first = buy["points"].split()[17]
    assert first == f"{be['x']:g},{be['y']:g}"  # the marker sits on the buy line
    assert g["yticks"][0]["label"] == "0"
    # between points: interpolated; outside the curve or missing: no marker
    g = charts.cost_curve({"months": [0, 10], "rent": [0, 100], "buy": [50, 70], "break_even_month": 5})
    assert g["break_even"]["value"] == pytest.approx(60)
    assert charts.cost_curve({**geo_in, "break_even_month": 99})["break_even"] is None
    assert charts.cost_curve({**geo_in, "break_even_month": None})["break_even"] is None
    step = charts.cost_curve({**geo_in, "resale": [5, 2], "resale_x": [24, 24]}, keys=("rent", "buy", "resale"))
    drop = next(s for s in step["series"] if s["key"] == "resale")["points"].split()
    assert len(drop) == 2 and drop[0].split(",")[0] == drop[1].split(",")[0]  # a step: one x, two heights
    only_rent = charts.cost_curve({"months": [0, 1, 2], "rent": [0, 1, 2]})
    assert [s["key"] for s in only_rent["series"]] == ["rent"]
    short = charts.cost_curve({"months": [0, 1, 2, 3], "rent": [0, 1], "buy": [5, None, 6, 7]})
    assert [len(s["points"].split()) for s in short["series"]] == [2, 3]
    for bad in (None, {}, {"months": "x"}, {"months": [0, 1], "rent": [1]}, {"months": [0], "rent": [1]}):
        assert charts.cost_curve(bad) is None


def test_time_cost_scatter_uses_log_axes_when_wide():
    pts = [{"label": "fast", "wall_days": 0.5, "cost_usd": 90_000, "feasible": True, "chosen": True},
           {"label": "slow", "wall_days": 60, "cost_usd": 2_000, "feasible": True},
           {"label": "bad", "wall_days": 5, "cost_usd": 9_000, "feasible": False},
           {"label": "none", "wall_days": None, "cost_usd": 1.0}]
    g = charts.time_cost(pts)
    assert g["xlog"] and g["ylog"]
    assert g["omitted"] == ["none"]
    by = {p["label"]: p for p in g["points"]}
    assert by["fast"]["x"] < by["bad"]["x"] < by["slow"]["x"]
    assert by["fast"]["y"] < by["bad"]["y"] < by["slow"]["y"]  # dearer is higher (smaller y)
    assert g["points"][-1]["label"] == "fast"  # the chosen point is drawn last
    assert by["fast"]["shape"] == "star" and by["bad"]["shape"] == "cross" and by["slow"]["shape"] == "circle"
    # geometric midpoint on a log axis lands in the middle
    g = charts.time_cost([{"label": "a", "wall_days": 1, "cost_usd": 1}, {"label": "b", "wall_days": 100,
                                                                         "cost_usd": 100},
                          {"label": "m", "wall_days": 10, "cost_usd": 10}])
    a, b, m = sorted(g["points"], key=lambda p: p["label"])
    assert m["x"] == pytest.approx((a["x"] + b["x"]) / 2, abs=0.2)
    narrow = charts.time_cost([{"label": "a", "wall_days": 2, "cost_usd": 10}, {"label": "b", "wall_days": 3,
                                                                              "cost_usd": 12}])
    assert not narrow["xlog"] and not narrow["ylog"]
    # crowded points: the labels that are shown never overlap; the chosen one is always shown
    crowd = [{"label": f"candidate {i}", "wall_days": 1 + i * 0.01, "cost_usd": 100 + i, "chosen": i == 3}
             for i in range(6)]
    pts = charts.time_cost(crowd)["points"]
    boxes = [charts._label_box(p["lx"], p["ly"], p["anchor"], p["text"], p["chosen"])
             for p in pts if p["show_label"]]
    assert all(not charts._overlap(x, y) for i, x in enumerate(boxes) for y in boxes[i + 1:])
    assert next(p for p in pts if p["chosen"])["show_label"]
    # many points: only the chosen one and the time/cost frontier are labelled
    many = [{"label": f"c{i}", "wall_days": 1 + i, "cost_usd": 1000 - 10 * i + (500 if i % 2 else 0),
             "feasible": True, "chosen": i == 7} for i in range(30)]
    g = charts.time_cost(many)
    front = {p["label"] for p in charts.pareto(g["points"])}
    assert front == {f"c{i}" for i in range(0, 30, 2)}
    assert {p["label"] for p in g["points"] if p["show_label"]} <= front | {"c7"}
    assert next(p for p in g["points"] if p["label"] == "c7")["show_label"]
    assert g["labelled"] == sum(p["show_label"] for p in g["points"])
    assert charts.time_cost([]) is None and charts.time_cost(None) is None


# --------------------------------------------------------------------------------------- golden
GOLDEN_CASES = ([(kind, fmt, "brief") for kind in ("recommend", "audit") for fmt in FORMATS]
                + [(kind, fmt, "full") for kind in ("recommend", "audit") for fmt in ("text", "html")]
                + [("estimate", "text", "brief")])


@pytest.mark.parametrize("kind,fmt,detail", GOLDEN_CASES)
def test_golden(kind, fmt, detail):
    result = {"recommend": recommend_result, "audit": audit_result, "estimate": estimate_result}[kind]()
    out = report.render(result, fmt, detail=detail)
    path = GOLDEN / f"{kind}{'-full' if detail == 'full' else ''}.{'txt' if fmt == 'text' else fmt}"
    if REGEN or not path.exists():
        if not REGEN:
            pytest.fail(f"{path} is missing: run with GPUWISE_REGEN_GOLDEN=1")
        path.parent.mkdir(exist_ok=True)
        path.write_text(out, encoding="utf-8")
    assert out == path.read_text(encoding="utf-8"), f"{path.name} changed: review it, then regenerate"


# ------------------------------------------------------------------------------------ browser
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.skipif(CHROMIUM is None, reason="no headless Chromium installed (apt-get install chromium)")
def test_html_renders_in_headless_chromium(tmp_path):
    page = report.write_report(recommend_result(), tmp_path / "rec.html")
    flags = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}"]
    shot, pdf = tmp_path / "rec.png", tmp_path / "rec.pdf"
    # one Chromium start does all three (a start is about a CPU-second)
    dom = subprocess.run([*flags, "--dump-dom", f"--screenshot={shot}", "--window-size=1200,3000",
                          f"--print-to-pdf={pdf}", "--no-pdf-header-footer", page.as_uri()],
                         capture_output=True, text=True, timeout=90)
    assert dom.returncode == 0
    assert dom.stdout.count("<svg") >= 3 and "be-dot" in dom.stdout
    assert shot.stat().st_size > 20_000
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.stat().st_size > 20_000
