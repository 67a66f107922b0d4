"""The reports as a person reads them, on real engine results (the examples in examples/): the brief
answer by default, one language and one currency per report, audits about the proposal, a batch
audit with a section per proposal, the training layout and the serving figures in the answer.

The hand-built results of test_report.py carry English sentences without templates; these results
carry the templates and values the engine writes, so a Chinese report can be checked for English
prose left in it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gpuwise.decide.recommend import recommend
from gpuwise.render import report
from tests.conftest import answer_of


@pytest.fixture(autouse=True)
def _wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read what the text says, not how it is wrapped (tests/test_terminal_width.py does that)."""
    monkeypatch.setenv("COLUMNS", "400")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
FORMATS = ("text", "md", "html")


@pytest.fixture(scope="module")
def training():
    return answer_of("recommend", EXAMPLES / "lora-70b.yaml")  # once per test process (tests/conftest.py)


@pytest.fixture(scope="module")
def multinode_pcie():
    """Rented PCIe nodes over an assumed 25 GbE network: the network warnings fire for two GPUs."""
    return answer_of("recommend", ROOT / "tests" / "data" / "heldout" / "rent-pcie-multinode-70b-lora.yaml")


@pytest.fixture(scope="module")
def split_training():
    """lora-70b.yaml on at most 8 L40S: one 48 GB card cannot hold the 70B base, so the model is split."""
    import yaml

    req = yaml.safe_load((EXAMPLES / "lora-70b.yaml").read_text())
    req["constraints"].update({"gpus": ["L40S"], "max_gpus": 8})
    return recommend(req)


@pytest.fixture(scope="module")
def serving():
    return answer_of("recommend", EXAMPLES / "inference-70b.yaml")


@pytest.fixture(scope="module")
def used_cards():
    return answer_of("audit", EXAMPLES / "proposal-used-3090-mining.yaml")


@pytest.fixture(scope="module")
def old_driver():
    return answer_of("audit", EXAMPLES / "proposal-h100-old-driver.yaml")


@pytest.fixture(scope="module")
def batch(used_cards, old_driver):
    more = answer_of("audit", EXAMPLES / "proposal-16x4090-70b-full.yaml")
    return [("examples/proposal-used-3090-mining.yaml", used_cards, ""),
            ("examples/proposal-h100-old-driver.yaml", old_driver, ""),
            ("examples/proposal-16x4090-70b-full.yaml", more, ""),
            ("examples/missing.yaml", None, "examples/missing.yaml: no such file")]


# ------------------------------------------------------------------------------ brief by default
def test_the_quick_start_answer_fits_two_screens(training):
    out = report.render(training, "text")
    lines = out.splitlines()
    assert len(lines) <= 80, len(lines)
    assert lines[0].startswith("GPU recommendation: ") and lines[2] == "=== Answer ==="
    rec = training.recommendation
    assert f"Rent {rec.count} × {rec.gpu_name} from {rec.provider}:" in out  # the sentence, first
    for section in ("How it was decided", "Alternatives", "Blockers and warnings", "Assumptions"):
        assert f"=== {section}" in out, section
    assert "formula:" not in out and "=== Rule trace ===" not in out
    full = report.render(training, "text", detail="full")
    assert len(full.splitlines()) > 3 * len(lines)
    assert "formula:" in full and "=== Rule trace ===" in full and "=== All candidates ===" in full


def test_the_four_steps_are_the_answers_conclusions_one_line_each(training):
    out = report.render(training, "text")
    block = out.split("=== How it was decided ===")[1].split("===")[0]
    for step, title in (("memory", "Memory"), ("compute", "Compute"), ("interconnect", "Interconnect"),
                        ("tco", "Cost")):
        summary = next(s for s in training.steps if s.step == step)
        assert re.search(rf"\n  {title}\s+{re.escape(summary.values['count'].__str__())} × ", block), step


def test_a_warning_about_several_gpus_is_said_once_naming_them(multinode_pcie):
    """NET-SLOW-NETWORK fires for the answer and the runner-up: in the full report one entry, the
    other GPU named; the brief lists the answer's alone (a finding about a candidate not chosen is
    not the answer's warning)."""
    slow = [f for f in multinode_pcie.findings if f.rule == "NET-SLOW-NETWORK"]
    assert len(slow) >= 2
    brief = report.render(multinode_pcie, "text")
    assert brief.count("NET-SLOW-NETWORK") == 1
    others = {f.values["gpu_name"] for f in slow} - {multinode_pcie.recommendation.gpu_name}
    assert not any(name in brief.split("NET-SLOW-NETWORK")[1].split("\n  [")[0] for name in others)
    out = report.render(multinode_pcie, "text", detail="full")
    out = out.split("=== Blockers and warnings")[1].split("\n=== ")[0]
    assert out.count("NET-SLOW-NETWORK") == 1
    others = {f.values["gpu_name"] for f in slow} - {multinode_pcie.recommendation.gpu_name}
    assert all(name in out.split("NET-SLOW-NETWORK")[1].split("\n  [")[0] for name in others)


def test_one_time_unit_per_column(training):
    out = report.render(training, "text")
    table = out.split("=== Alternatives ===")[1].split("===")[0].strip().splitlines()
    assert re.search(r"Wall-clock time, (hours|days)", table[0])
    for row in table[2:]:  # the unit is in the header; the cells are numbers
        assert not re.search(r"\d (hours?|days?)\b", row), row


# ------------------------------------------------------------------------- the layout and serving
def test_the_training_layout_in_words_and_why(split_training):
    est = split_training.estimate
    lay = est.gpu.layout
    out = report.render(split_training, "text")
    line = next(x for x in out.splitlines() if x.strip().startswith("Layout"))
    split = [k for k in ("tp", "pp") if getattr(lay, k) > 1]
    assert split  # the 70B base does not fit one L40S
    for k in split + (["dp"] if lay.dp > 1 else []):
        assert f"{k.upper()} {getattr(lay, k)}" in line
    assert f"micro-batch {lay.micro_batch}" in line and f"{lay.grad_accum} accumulation steps" in line
    why = next(x for x in out.splitlines() if x.strip().startswith("Why this layout"))
    assert "does not fit one GPU's memory" in why  # split because 1 x L40S cannot hold the job
    assert f"fastest of {est.gpu.training.layouts_tried} that fit" in why


def test_serving_names_the_framework_and_costs_a_million_output_tokens(serving):
    """Cost per million output tokens = cost per hour / (output tokens/s x 3600) x 1e6, with the cost
    per hour the project's cost over its hours (12 months x 730 h): computed by the engine, shown."""
    sv = serving.estimate.gpu.serving
    cost = sv.cost_per_million_output_tokens
    hours = 12 * 730
    rec = next(c for c in serving.candidates if c.rank == 1)
    out = report.render(serving, "text")
    zh = report.render(serving, "text", lang="zh", currency="CNY")
    assert re.search(r"Served with\s+vLLM, 1 copy of TP \d", out)
    assert f"{sv.throughput_tokens_per_s:,.0f} output tokens/s in total" in out
    # renting where an offer exists (none for the answer's workstation card since session 14), and buying
    for usd, total, word, zh_word in ((cost.rent_usd, rec.rent_cost_usd, "renting", "租用"),
                                      (cost.buy_usd, rec.buy_cost_usd, "buying", "购买")):
        if total is None:
            assert usd is None and f"n/a {word}" in out
            continue
        assert usd == pytest.approx(total / hours / (sv.throughput_tokens_per_s * 3600) * 1e6)
        assert f"${usd:.2f} {word}" in out
        assert f"{zh_word} ¥{usd * serving.currency.usd_cny:.2f}" in zh
    assert cost.rent_usd is not None or cost.buy_usd is not None


def test_the_serving_chart_draws_throughput_and_latency_against_load(serving):
    out = report.render(serving, "html")
    chart = re.search(r'<figure class="chart" id="chart-serving">(.*?)</figure>', out, re.S).group(1)
    assert '<polyline class="line-throughput"' in chart and '<polyline class="line-tpot"' in chart
    assert '<polyline class="line-ttft"' in chart
    sv = serving.estimate.gpu.serving
    assert f"the load: {sv.concurrency:g}" in chart and f"memory holds {sv.max_concurrent_sequences}" in chart
    assert chart.count("<tr>") >= len(sv.curve)  # the data table beside it


# ------------------------------------------------------------------------------------- audits
@pytest.mark.parametrize("which", ["used_cards", "old_driver"])
def test_audit_charts_show_the_proposal_first_and_name_the_alternative(which, request):
    result = request.getfixturevalue(which)
    out = report.render(result, "html")
    figures = re.findall(r'<figure class="chart" id="([^"]+)">(.*?)</figure>', out, re.S)
    memory = re.sub(r'<svg class="narrow".*?</svg>', "", dict(figures)["chart-memory"], flags=re.S)  # the wide drawing
    rows = re.findall(r'<text class="row-label"[^>]*>([^<]*)</text>', memory)
    p, a = result.proposed, result.alternative
    assert rows == [f"{p.count} × {p.gpu_name} (proposed)", f"{a.count} × {a.gpu_name} (the alternative)"]
    costs = [body for cid, body in figures if cid.startswith("chart-cost")]
    assert f"{p.count} × {p.gpu_name} (proposed)" in costs[0]  # bought with no rental offer: owning alone
    if result.charts.cost_curve is not None:  # the alternative's own curve, named as the alternative's
        assert f"{a.count} × {a.gpu_name} (the alternative)" in costs[1]
    assert "chart-time-cost" not in dict(figures)  # no chart of unrelated candidates
    text = report.render(result, "text", detail="full")  # the brief may leave it to its table
    assert f"The alternative: {a.count} × {a.gpu_name}" in text


@pytest.mark.parametrize("fmt", ["md", "html", "text"])
def test_a_batch_audit_has_a_section_per_proposal_with_findings_and_fixes(batch, fmt):
    """After the summary table, each proposal's section: its verdict, its blockers and warnings with
    their fixes; a file that could not be read says why."""
    out = report.render_audit_summary(batch, fmt)
    plain = re.sub(r"<[^>]+>|\\|`", "", out).replace("&#39;", "'").replace("&amp;", "&")
    table_end = plain.index("4 proposals:")
    starts = [plain.index(res.title if res else path, table_end) for path, res, _ in batch]
    assert starts == sorted(starts)  # the sections follow the table, in the files' order
    for i, (path, res, err) in enumerate(batch):
        section = plain[starts[i]:starts[i + 1] if i + 1 < len(starts) else len(plain)]
        if res is None:
            assert err in section
            continue
        assert {"approve": "APPROVE", "revise": "REVISE", "reject": "REJECT"}[res.verdict] in section
        for x in res.findings:
            if x.severity in ("blocker", "warning"):
                assert x.rule in section, (path, x.rule)
                assert x.fix.replace("`", "")[:40] in section, (path, x.rule)


def test_a_batch_audit_html_sections_are_anchored_and_well_formed(batch):
    out = report.render_audit_summary(batch, "html")
    ids = re.findall(r' id="([^"]+)"', out)
    assert len(ids) == len(set(ids))
    assert [i for i in ids if re.fullmatch(r"proposal-\d", i)] == ["proposal-1", "proposal-2", "proposal-3",
                                                                    "proposal-4"]


# ------------------------------------------------------------- one language, one currency
_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|'[^']*'|`[^`]*`|<code>.*?</code>|<title>.*?</title>|<style>.*?</style>",
                     re.S)
_WORD = re.compile(r"[A-Za-z]+(?:[-'][A-Za-z]+)*")


def english_runs(text: str, limit: int = 6) -> list[str]:
    """Runs of ``limit`` or more consecutive English words: prose. Names (NVIDIA GeForce RTX 4090),
    units, ids (workload.precision, MEM-FITS), numbers and quoted sources break or do not make runs."""
    text = _QUOTED.sub(" ", text)
    text = re.sub(r"<[^>]+>", " ", text)
    out = []
    for line in text.splitlines():
        run: list[str] = []
        for token in line.split():
            word = token.strip(".,;:!?()[]{}*|")
            if _WORD.fullmatch(word) and not word.isupper():
                run.append(word)
                continue
            if len(run) >= limit:
                out.append(" ".join(run))
            run = []
        if len(run) >= limit:
            out.append(" ".join(run))
    return out


def test_english_runs_finds_prose_and_lets_names_pass():
    assert english_runs("显存 the job does not fit one GPU's memory (164 GB)") == [
        "the job does not fit one GPU's memory"]
    assert english_runs("16 × NVIDIA GeForce RTX 4090 24GB：租用") == []
    assert english_runs("来源：“Llama 2 supervised fine-tuning: global batch of sequences”") == []


@pytest.mark.parametrize("detail", ["brief", "full"])
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("which", ["training", "serving", "used_cards", "old_driver"])
def test_a_chinese_report_has_no_english_prose(which, fmt, detail, request):
    result = request.getfixturevalue(which)
    out = report.render(result, fmt, lang="zh", detail=detail)
    out = out.replace(getattr(result, "title", "") or "\0", "")  # the proposal's title is the user's own
    out = re.sub(r'<table class="terms[^"]*">.*?</table>', "", out, flags=re.S)  # formulas: code, folded in HTML
    if detail == "full":
        # formulas, their inputs and notes are code; evidence is data; sources and the trace are citations;
        # the memory step's notes come from the estimators as English text (no templates yet)
        out = re.sub(r"(?m)^\s*(- )?(公式|代入数值|输入|说明|证据|来源|source)[:：].*$", "", out)
        out = re.sub(r'<section id="trace">.*?</section>', "", out, flags=re.S)
        out = re.sub(r'<p class="src">.*?</p>|<span class="(src|inputs)">.*?</span>', "", out, flags=re.S)
        out = re.sub(r'<ul class="notes">.*?</ul>', "", out, flags=re.S)
        out = re.sub(r"(?m)^(\* |- ).*$", lambda m: "" if "：" not in m.group(0) else m.group(0), out)
        out = re.sub(r"(?m) [（(](来源|source)[:：].*$", "", out)  # a rule's source, cited at the line's end
        out = re.split(r"=== 规则触发记录 ===|## 规则触发记录", out)[0]  # the trace: rules and their sources
    assert english_runs(out) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_chinese_batch_audit_has_no_english_prose(batch, fmt):
    out = report.render_audit_summary(batch, fmt, lang="zh")
    out = out.replace(batch[-1][2], "")  # an input error is the file's own message
    for _, res, _ in batch:
        out = out.replace(res.title, "") if res else out  # a proposal's title is the user's own
    assert english_runs(out) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_one_currency_throughout(training, fmt):
    """CNY everywhere: the headline, the sentences from templates, the tables, the charts; the rate,
    its date and its source stated once."""
    out = report.render(training, fmt, lang="zh", currency="CNY")
    cur = training.currency
    visible = _QUOTED.sub(" ", re.sub(r'<table class="terms[^"]*">.*?</table>', "", out, flags=re.S))
    assert "$" not in visible and "US$" not in visible
    assert f"{cur.usd_cny:g}" in out and cur.as_of in out
    cost = training.recommendation.total_cost_usd * cur.usd_cny
    assert out.count(f"¥{cost:,.0f}") >= 3  # headline, the sentence under it, the facts
    en = report.render(training, fmt, currency="CNY", fx_rate=7.0)
    en = re.sub(r'<table class="terms[^"]*">.*?</table>', "", en, flags=re.S)  # formulas keep their USD inputs
    assert f"CN¥{training.recommendation.total_cost_usd * 7:,.0f}" in en and "$" not in _QUOTED.sub(" ", en)


def test_json_keeps_the_contract_with_the_new_figures(training, serving):
    data = json.loads(report.render(serving, "json"))
    assert "cost_per_million_output_tokens" in data["estimate"]["gpu"]["serving"]
    data = json.loads(report.render(training, "json"))
    assert data["estimate"]["gpu"]["layout"]["tp"] >= 1 and data["estimate"]["gpu"]["fits_as_requested"] is True


def test_the_users_own_limits_are_read_from_the_typed_question():
    """The answer's rows beside the user's limits read the question the result echoes as the input
    schema types it (views/base.py ``asked``), not its dict by key: examples/lora-70b.yaml sets a
    budget of $20,000 and a deadline of 10 days; examples/inference-70b.yaml a throughput target
    of 300 output tokens/s. An echo that is not a question gives no such rows."""
    r = answer_of("recommend", EXAMPLES / "lora-70b.yaml")
    led, tl = r.recommendation.ledger, r.recommendation.timeline
    out = " ".join(report.render(r, "text").split())
    assert f"Your budget ${led.total:,.0f} of $20,000 ({led.total / 20000:.0%})" in out
    assert f"of 10.0 days ({tl.wall_days / 10:.0%})" in out
    served = answer_of("recommend", EXAMPLES / "inference-70b.yaml")
    got = served.recommendation.serving.throughput_tokens_per_s
    assert f"Your throughput target {got:,.0f} of 300 output tokens/s" in " ".join(
        report.render(served, "text").split())
    odd = r.model_copy(update={"question": {"workload": {"task": "nonsense"}}})
    assert "Your budget" not in report.render(odd, "text")
