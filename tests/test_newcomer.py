"""What a newcomer expects of names and formats (issue 25, item 5): the glossary in both languages and
linked from the report, the alternatives in rank order, an unknown `-o` suffix refused with the formats
listed, `--lang` on `estimate`, and a CNY answers file with its amounts in the currency's own field."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from gpuwise.inputs.schema import Requirements
from gpuwise.render import glossary, report
from tests.clirun import gpuwise
from tests.conftest import answer_of

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")


@pytest.fixture(scope="module")
def lora():
    return answer_of("recommend", EXAMPLES / "lora-70b.yaml")  # once per test process (tests/conftest.py)


def test_docs_glossary_is_the_reports_glossary():
    assert (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8") == glossary.markdown()


def test_the_glossary_explains_the_abbreviations_reports_use():
    terms = {t for t, _ in glossary.TERMS}
    for abbreviation in ("TCO", "MFU", "SDPA", "PEFT", "ckpt", "ZeRO", "TP", "PP", "DP", "TTFT", "TPOT", "GPU-hours"):
        assert abbreviation in terms


@pytest.mark.parametrize("lang,title,term", [("en", "Glossary", "Total cost of ownership"),
                                             ("zh", "术语表", "总拥有成本")])
@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_the_full_report_ends_with_the_glossary_in_its_language(lora, fmt, lang, title, term):
    out = report.render(lora, fmt, lang=lang, detail="full")
    assert title in out and term in out
    if fmt == "html":
        assert 'id="glossary"' in out
    brief = report.render(lora, fmt, lang=lang)
    if fmt == "html":  # the brief HTML page holds the full report's sections, folded
        assert 'id="glossary"' in brief
    else:
        assert ("glossary" if lang == "en" else "术语表") in brief and term not in brief


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.yaml")
                                           if not p.name.startswith(("proposal", "plan"))))
def test_alternatives_are_listed_in_rank_order(example):
    from gpuwise.render.report import view_model

    vm = view_model(answer_of("recommend", EXAMPLES / example), detail="full")  # shared with the answer modules
    alts = vm["alternatives"]
    if not alts:
        return
    cands = alts["candidates"]
    ranks = [c.rank if c.feasible and c.rank is not None else 1 << 30 for c in cands]
    assert ranks == sorted(ranks), [(c.gpu, c.count, c.rank) for c in cands]
    assert cands[0].rank == 1


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return gpuwise(*args, cwd=cwd)  # in this process (tests/clirun.py): the exit status and both streams


@pytest.mark.parametrize("command", ["recommend", "audit", "plan"])
def test_an_unknown_output_suffix_is_refused_listing_the_formats(tmp_path, command):
    src = {"recommend": "lora-70b.yaml", "audit": "proposal-good-lora-8xh100.yaml",
           "plan": "plan-team-4090.yaml"}[command]
    target = tmp_path / "report.markdwon"
    p = _cli(command, str(EXAMPLES / src), "-o", str(target), cwd=tmp_path)
    assert p.returncode == 2 and not target.exists()
    assert ".md" in p.stderr and ".html" in p.stderr and ".json" in p.stderr and "--format" in p.stderr


def test_estimate_speaks_the_report_language_and_currency(tmp_path):
    p = _cli("estimate", str(EXAMPLES / "lora-70b.yaml"), "--gpu", "h100-80gb-sxm", "--gpus", "8",
             "--lang", "zh", "--currency", "CNY", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "显存" in p.stdout and "¥" in p.stdout  # no $ outside quoted sources: tests/test_report_zh_all.py


def test_a_yuan_field_reads_as_the_files_currency():
    """`budget_cny: 300000` in a requirements file is 300,000 yuan: the same requirement as
    `budget_usd: 300000` with `currency: CNY` (the contract: every amount in the file's currency)."""
    a = Requirements.model_validate(yaml.safe_load(
        "workload: {task: finetune, model: llama-2-7b}\n"
        "constraints: {budget_cny: 300000, electricity_cny_per_kwh: 1.1}"))
    b = Requirements.model_validate(yaml.safe_load(
        "workload: {task: finetune, model: llama-2-7b}\n"
        "constraints: {budget_usd: 300000, electricity_usd_per_kwh: 1.1, currency: CNY}"))
    assert a == b


def test_a_yuan_field_in_a_dollar_file_is_an_input_error(tmp_path):
    f = tmp_path / "req.yaml"
    f.write_text("workload: {task: finetune, model: llama-2-7b}\nconstraints: {budget_cny: 300000, currency: USD}\n")
    p = _cli("recommend", str(f), cwd=tmp_path)
    assert p.returncode == 2 and "budget_cny" in p.stderr and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
