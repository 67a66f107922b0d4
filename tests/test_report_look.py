"""The reports as they were looked at in a browser and a terminal (issue 15): what a reader tripped
on, asserted on the content (no browser here). Real engine results of the examples.

- Chinese punctuation around labels and counts ("修正建议：", "（2 个警告）"), and no "。 " between
  two Chinese sentences;
- a reason in Chinese that starts with the GPU's name is not cut to "上的 …";
- an audit says why the proposal falls short once, not again under its blockers;
- "saves 100% of the proposed cost" only when it does;
- the rent-or-buy chart spans the configuration's own period, buying as cash out and resale as a step;
- a fix's `command` is code in HTML, not backticks;
- the answer's sentence is said once at the top of the HTML;
- the assumed network and a model shape guessed from its size are worded in Chinese;
- the brief report quotes the exchange rate's source by its first sentence (the full one whole).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuwise import messages
from gpuwise.render import report, words
from gpuwise.render.fmt import Fmt
from gpuwise.results import Candidate
from tests.conftest import answer_of

from .test_report_brief import english_runs


@pytest.fixture(autouse=True)
def _wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read what the text says, not how it is wrapped (tests/test_terminal_width.py does that)."""
    monkeypatch.setenv("COLUMNS", "400")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def training():
    return answer_of("recommend", EXAMPLES / "lora-70b.yaml")  # once per test process (tests/conftest.py)


@pytest.fixture(scope="module")
def offload():
    """16 x RTX 4090 with CPU offload short of host RAM: a blocker that is also why it is infeasible."""
    return answer_of("audit", EXAMPLES / "proposal-16x4090-70b-full.yaml")


@pytest.fixture(scope="module")
def used_cards():
    return answer_of("audit", EXAMPLES / "proposal-used-3090-mining.yaml")


@pytest.fixture(scope="module")
def guessed_shape():
    """A 3B model given by size alone: its shape is borrowed from the nearest published model."""
    return answer_of("audit", EXAMPLES / "proposal-spot-h100-pretrain.yaml")


# ------------------------------------------------------------------------ Chinese punctuation
@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_chinese_labels_and_counts_take_full_width_punctuation(offload, fmt):
    out = report.render(offload, fmt, lang="zh", currency="CNY")
    for label in ("修正建议", "方案文件"):
        assert re.search(rf"{label}(\*\*|</strong>)?：", out), label
        assert not re.search(rf"{label}(\*\*|</strong>)?:", out), label
    assert re.search(r"阻断问题与警告(<span class=\"muted\">)?（\d+ 个阻断问题", out)
    assert ("否决：" if fmt == "text" else "结论：否决") in out and "否决:" not in out
    en = report.render(offload, fmt)
    assert re.search(r"Fix(\*\*|</strong>)?: ", en) or "Fix:</strong> " in en
    assert re.search(r"Blockers and warnings(<span class=\"muted\">)? \(\d+ blockers?", en)


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_a_chinese_batch_audit_takes_full_width_punctuation(offload, used_cards, fmt):
    batch = [("a.yaml", offload, ""), ("b.yaml", used_cards, "")]
    out = report.render_audit_summary(batch, fmt, lang="zh", currency="CNY")
    assert "（节省 ¥" in out and "(节省" not in out  # the summary table's best alternative
    assert re.search(r"否决(</strong>|\*\*)?：存在至少一个阻断问题", out)
    assert "。 " not in out


def test_chinese_sentences_follow_each_other_without_a_space(training):
    """Chart descriptions are several sentences: in Chinese no space after "。"."""
    out = report.render(training, "html", lang="zh", currency="CNY")
    alts = re.findall(r'<div class="chart-alt">\s*<p>(.*?)</p>', out, re.S)
    assert len(alts) >= 2 and all("。" in a for a in alts)
    assert not any("。 " in a for a in alts), alts
    en = report.render(training, "html")
    assert any(". " in a for a in re.findall(r'<div class="chart-alt">\s*<p>(.*?)</p>', en, re.S))


def test_a_role_in_brackets_is_full_width_in_chinese(used_cards):
    out = report.render(used_cards, "html", lang="zh")
    p = used_cards.proposed
    assert f"{p.count} × {p.gpu_name}（原方案）" in out
    assert f"{p.count} × {p.gpu_name} (proposed)" in report.render(used_cards, "html")


# ------------------------------------------------------------------ a reason without its subject
def test_a_reason_loses_only_a_leading_subject_with_its_colon():
    """The subject is the template's opening fields ({count} x {gpu_name} and a colon), filled with
    the candidate the line names; rule texts of rules/compute.yaml and their Chinese."""
    c = Candidate(gpu="rtx-4090", gpu_name="NVIDIA GeForce RTX 4090 24GB", count=16, feasible=False,
                  memory_per_gpu_bytes=0, wall_days=None, total_cost_usd=None)
    values = {"count": 16, "gpu_name": "NVIDIA GeForce RTX 4090 24GB", "wall_days": 12.0, "deadline_days": 7}
    opens = "{count} x {gpu_name}: image-generation speed is not estimated; memory and cost decide"
    en, zh = Fmt("en"), Fmt("zh")
    assert en.sentence(opens, values, subject=c) == "image-generation speed is not estimated; memory and cost decide"
    assert en.sentence(opens, values) == ("16 × NVIDIA GeForce RTX 4090 24GB: image-generation speed is not "
                                          "estimated; memory and cost decide")
    assert zh.sentence(opens, values, subject=c) == "不估算图像生成速度；由显存和成本决定"
    # the name is the sentence's own, not a subject: no colon after it
    whole = "{count} x {gpu_name} needs {wall_days:days}; the deadline is {deadline_days:days}"
    assert en.sentence(whole, values, subject=c) == en.sentence(whole, values)
    assert zh.sentence(whole, values, subject=c) == "16 × NVIDIA GeForce RTX 4090 24GB 需要 12.0 天；截止期限是 7.0 天"
    # a sentence about another candidate keeps its subject
    other = Candidate(gpu="rtx-4090", gpu_name="NVIDIA GeForce RTX 4090 24GB", count=8, feasible=False,
                      memory_per_gpu_bytes=0, wall_days=None, total_cost_usd=None)
    assert en.sentence(opens, values, subject=other) == en.sentence(opens, values)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_why_the_proposal_falls_short_is_said_once(offload, lang):
    """The blocker that makes the proposal infeasible is under "Blockers and warnings"; the list under
    the proposal does not repeat it (nor cut its first words off)."""
    blocker = next(x for x in offload.findings if x.rule == "MEM-HOST-RAM-SHORT")
    message = Fmt(lang).sentence(blocker.template, blocker.values, blocker.message)
    for fmt in ("text", "md"):
        out = report.render(offload, fmt, lang=lang)
        assert out.count(message.split("；")[0].split(";")[0]) == 1, fmt
    assert "上的 cpu" not in report.render(offload, "text", lang="zh").replace(
        f"{offload.proposed.gpu_name} 上的 cpu", "")


# ------------------------------------------------------------------------------- numbers
def test_savings_just_short_of_everything_are_not_rounded_to_all(used_cards):
    """The alternative costs something: its share of the proposal's cost is not "100%"."""
    share = used_cards.savings_usd / used_cards.proposed.total_cost_usd
    assert 0.995 <= share < 1  # the example: renting an hour beats buying four cards
    out = report.render(used_cards, "text")
    assert f"({share * 100:.1f}% of the proposed cost)" in out and "(100% of the proposed cost)" not in out


def test_the_cost_chart_of_a_rental_job_spans_the_jobs_hours(training):
    """lora-70b is rented for a job of under two hours: its chart spans the job's billed hours (not
    12-24 months of round-the-clock use), renting ends at the rent ledger's total, buying is drawn
    as its cash out with the resale as a separate, labelled step, and the lines do not cross in so
    short a period; the table's break-even (renting a month or more, resale netted) is named, not
    denied (review46)."""
    rec = training.recommendation
    out = report.render(training, "html")
    chart = re.search(r'<figure class="chart" id="chart-cost">(.*?)</figure>', out, re.S).group(1)
    assert "Hours of the job" in chart and "around the clock" not in chart
    assert "polyline class=\"line-resale\"" in chart and "Buy, after resale" in chart
    assert "The lines do not cross within the job" in chart and "no break-even in the period" not in chart
    be = next(c.break_even_month for c in training.candidates
              if (c.gpu, c.count, c.acquisition) == (rec.gpu, rec.count, rec.acquisition))
    assert be == 2 and "The break-even, month 2, counts the resale" in " ".join(chart.split())
    curve = training.charts.cost_curve
    assert curve.unit == "hours" and curve.x[-1] == pytest.approx(rec.timeline.billed_hours)
    assert curve.rent[-1] == pytest.approx(rec.ledger.total)
    zh = report.render(training, "html", lang="zh", currency="CNY")
    assert "作业的小时数" in zh and "购买，转售后" in zh


def test_the_break_even_is_where_the_lines_cross():
    """A hand case: renting 100 a month against buying 600 up front and 50 a
    month: the lines cross at 600 / (100 - 50) = 12 months, interpolated, not the first whole month."""
    from gpuwise import ledger as L
    from gpuwise.estimators import cost as K

    rent = L.ledger(L.period_months("project", 24), [L.line("rent", "r", 2400)])
    buy = L.ledger(L.period_months("project", 24), [L.line("capex", "c", 600), L.line("hosting", "h", 1200),
                                                    L.line("resale", "back", -300)])
    curve = K.cost_chart(rent, buy, buy, points=7)  # points every 24/7 months: 12 falls between two
    assert curve.break_even == pytest.approx(12.0)
    assert curve.buy[0] == 600 and curve.buy[-1] == 1800 and curve.resale == -300
    assert buy.cash_out == 1800 and buy.net == buy.total == 1500


# ------------------------------------------------------------------------------ the page
def test_a_fixs_command_is_code_not_backticks(offload):
    out = report.render(offload, "html")
    fix = next(x.fix for x in offload.findings if x.rule == "PWR-OVER-FACILITY")
    assert "`nvidia-smi -pl`" in fix  # the rule writes it in backticks
    assert "<code>nvidia-smi -pl</code>" in out
    assert not re.search(r"<p><strong>Fix:</strong>[^<]*`", out)
    assert "nvidia-smi -pl" in (text := report.render(offload, "text")) and "`" not in text  # plain text: no marks


def test_a_fixs_command_is_a_code_span_in_markdown(offload):
    out = report.render(offload, "md")
    assert "`nvidia-smi -pl`" in out and "\\`nvidia-smi" not in out
    assert "\\`" not in report.render(offload, "md", lang="zh")


def test_offload_names_its_target_as_written():
    """"cpu offload on 16 x ..." began a sentence in lower case; the target is a name: CPU, NVMe."""
    assert words.value("offload", "cpu", {}, Fmt("en")) == "CPU"
    assert words.value("offload", "nvme", {}, Fmt("zh")) == "NVMe"


def test_the_answer_is_said_once_at_the_top(training):
    out = report.render(training, "html")
    answer = re.search(r'<section id="answer".*?</section>', out, re.S).group(0)
    assert answer.count("<p") == 1  # one sentence, then the facts
    rec = training.recommendation
    assert f"{rec.count} × {rec.gpu_name}" in answer and "GB per GPU" in answer


def test_the_summary_tables_verdict_does_not_break():
    css = (ROOT / "reports" / "templates" / "_style.css").read_text(encoding="utf-8")
    assert "#summary td:nth-child(2) { white-space: nowrap; }" in css


# ---------------------------------------------------------------------- worded in Chinese
@pytest.mark.parametrize(("net", "text", "zh"), [
    ("ethernet-25", "one 25 GbE port per node", "每个节点一个 25 GbE 端口"),
    ("infiniband-400", "one NDR 400 Gb/s InfiniBand port per GPU (DGX H100: 8 NDR ports)",
     "每块 GPU 一个 NDR 400 Gb/s InfiniBand 端口（DGX H100：8 个 NDR 端口）"),
    ("roce-400", "one 400 Gb/s RoCE port per GPU (rail-optimised)", "每块 GPU 一个 400 Gb/s RoCE 端口（轨道优化拓扑）"),
    ("ethernet-0.1", "100 Mb/s between rented pods (an overlay network, no RDMA)",
     "“100 Mb/s between rented pods (an overlay network, no RDMA)”"),
])
def test_the_assumed_network_in_chinese(kb, net, text, zh):
    """A network is described from its data (knowledge/runtime.yaml: port, shared_by, rail_optimised,
    reference) as message ids and values; one without a port is the knowledge base's words, quoted."""
    n = kb.runtime.networks[net]
    assert n.text == text
    parts = messages.phrase_json(n.phrases())
    assert words.value("network", text, {"network_phrases": parts}, Fmt("zh")) == zh
    assert words.value("network", text, {"network_phrases": parts}, Fmt("en")) == text
    assert words.value("network", "ethernet-25", {}, Fmt("zh")) == "ethernet-25"  # an id stays as written


def test_the_assumed_network_in_a_chinese_report(training):
    out = report.render(training, "text", lang="zh")
    line = next(x for x in out.splitlines() if x.strip().startswith("network ="))
    assert english_runs(line, 4) == [], line


def test_a_guessed_model_shape_in_chinese(guessed_shape):
    a = next(x for x in guessed_shape.assumptions if x.field == "workload.architecture")
    assert a.reason.startswith("shape assumed from")
    out = report.render(guessed_shape, "text", lang="zh")
    line = next(x for x in out.splitlines() if "workload.architecture" in x)
    assert "模型结构参照" in line and english_runs(line, 4) == [], line


def test_an_export_rule_is_quoted_in_chinese():
    f = Fmt("zh")
    rule = "more advanced than H200: licence applications keep a presumption of denial"
    assert words.value("china_rule", rule, {}, f) == f"“{rule}”"
    assert words.value("china_rule", rule, {}, Fmt("en")) == rule


# ------------------------------------------------------------------------ the rate's source
def test_the_brief_report_cites_the_rate_by_its_first_sentence(training):
    cur = training.currency
    brief = report.render(training, "text", lang="zh", currency="CNY")
    full = report.render(training, "text", lang="zh", currency="CNY", detail="full")
    first = re.split(r"(?<=[.)])\s+(?=[A-Z])", " ".join(cur.source.split()), maxsplit=1)[0]
    assert first in brief and cur.as_of in brief and f"{cur.usd_cny:g}" in brief
    # the full report quotes the source whole, less its instruction, which it says in its own language
    cited = " ".join(cur.source.split()).split(" Refresh it")[0]
    assert cited in " ".join(full.split()) and "Refresh it" not in full and "--fx-rate" in full  # wrapped lines joined


def test_a_narrow_screen_keeps_field_names_and_figures_whole(training):
    """At 390 px the assumptions table cut "workload.attention" into "work/load./atten/tion" and the
    alternatives table wrapped "16 × NVIDIA" a word per line: on a narrow screen the field, value and
    why of an assumption stack, and a table of figures becomes cards -- the row's name, then each
    value after its column's name on a line of its own (measured in Chromium: test_report_phone)."""
    out = report.render(training, "html")
    narrow = out.split("@media (max-width: 640px)")[1].split("@media print")[0]
    assert "table.question, table.question tbody, table.question tr, table.question th, table.question td " \
           "{ display: block; }" in narrow
    assert "table.stack, table.stack tbody, table.stack tr, table.stack th, table.stack td { display: block; }" \
           in narrow
    assert "table.stack td[data-label]::before" in narrow
    assert '<table class="question">' in out and '<div class="scroll"><table class="stack">' in out
    alternatives = out.split('id="alternatives-h"')[1].split("</table>")[0]
    headers = re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', alternatives)
    cells = re.findall(r'<td[^>]*data-label="([^"]*)"', alternatives.split("</tr>")[1])
    assert cells == headers[1:]  # each value names its column


@pytest.mark.parametrize(("parts", "note", "zh"), [
    ([("", "note.grads_as_freed", {})], "gradients are allocated as activations are freed",
     "梯度在激活值释放的同时分配"),
    ([("", "note.decode_end", {"n": 805306368.0})],
     "805,306,368 B at the end of decode, when the total per GPU is below this peak",
     "解码结束时为 805,306,368 B，届时每块 GPU 的总量低于此峰值"),
    ([("", "note.memory_bound", {}), ("; ", "note.framework_layout", {"fw": "vLLM", "layout": [
        ("", "layout.tp", {"n": 8})]})], "memory-bound linear layers; vLLM, tensor parallel 8",
     "线性层受显存限制；vLLM，张量并行 8"),
    ([("", "note.framework_layout", {"fw": "vLLM", "layout": [("", "layout.copies", {"n": 2, "copy": [
        ("", "layout.tp", {"n": 4})]})]})], "vLLM, 2 x (tensor parallel 4)", "vLLM，2 个副本（每个张量并行 4）"),
])
def test_a_formulas_note_in_chinese(parts, note, zh):
    """A formula's note is message ids and values (gpuwise/estimators Term.note_phrases): its English
    is filled from reports/messages.yaml, and a report words it part by part from the catalog."""
    assert messages.phrase_text(parts) == note
    assert words.phrase(parts, Fmt("zh")) == zh
    assert words.phrase(parts, Fmt("en")) == note.replace("2 x (", "2 copies of (")


def test_the_formula_notes_of_a_chinese_report_are_chinese(training):
    out = report.render(training, "html", lang="zh", detail="full")
    notes = re.findall(r'<span class="inputs">说明：(.*?)</span>', out)
    assert notes and all(english_runs(n, 4) == [] for n in notes), notes
    inputs = re.findall(r'<span class="inputs">输入：(.*?)</span>', out)
    assert inputs and all(i.startswith("<code>") for i in inputs)  # names and values: code


def test_a_findings_evidence_is_code(used_cards):
    """Evidence is names and values (link = PCIe gen4 x16 ...), set as code, in both languages."""
    for lang in ("en", "zh"):
        out = report.render(used_cards, "html", lang=lang, detail="full")
        evidence = re.findall(r'<p class="src">(?:Evidence: |证据：)(.*?)</p>', out)
        assert evidence and all(e.startswith("<code>") and e.endswith("</code>") for e in evidence), lang


def test_a_cost_chart_of_buying_alone_speaks_of_one_curve(used_cards):
    """Used cards have no rental offer: their chart is the buying curve alone (cash out, then the
    resale as a step), with no break-even sentence."""
    out = report.render(used_cards, "html")
    chart = re.search(r'<figure class="chart" id="chart-cost">(.*?)</figure>', out, re.S).group(1)
    assert "polyline class=\"line-rent\"" not in chart and "polyline class=\"line-buy\"" in chart
    assert "Buying pays" in chart and "Buy, after resale" in chart
    assert "break-even" not in chart.lower()
