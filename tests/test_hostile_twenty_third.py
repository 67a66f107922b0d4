"""Hostile round 23: what round 23 of benchmarks/hostile_corpus.py found, each fix with a test that
fails without it. The whole round is benchmarks/hostile_round23.py."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from .clirun import gpuwise

PLAN = {
    "horizon_months": 6,
    "owned": [{"gpu": "RTX 4090", "count": 4}],
    "workloads": [
        {"name": "chat", "workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 500,
                                      "output_tokens": 200},
         "cadence": {"continuous": True, "hours_per_day": 12}, "targets": {"requests_per_s": 1}},
        {"name": "tune", "workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b",
                                      "train_tokens": 5.0e7},
         "cadence": {"per_month": 1}, "deadline_days": 5},
    ],
}


def _plan(tmp_path: Path, **edits: object) -> None:
    d = yaml.safe_load(yaml.safe_dump(PLAN))
    for path, value in edits.items():
        cur = d
        keys = path.split("__")
        for k in keys[:-1]:
            cur = cur[int(k)] if isinstance(cur, list) else cur.setdefault(k, {})
        if isinstance(cur, list):
            cur[int(keys[-1])] = value
        else:
            cur[keys[-1]] = value
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(d, allow_unicode=True), encoding="utf-8")


def _one_line(r, start: str) -> str:
    assert r.returncode == 2, (r.stdout[-300:], r.stderr)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.startswith(start), r.stderr
    return r.stderr


# ------------------------------------------------------------- a plan's amount in another currency names its field
@pytest.mark.parametrize(("edits", "field", "text", "cur", "declared"), [
    ({"owned__0": {"gpu": "RTX 4090", "count": 4, "paid_usd": "¥50000"}}, "owned[0].paid_usd", "'¥50000'", "CNY",
     "USD"),
    ({"constraints": {"budget_total_usd": "1500000 CNY"}}, "constraints.budget_total_usd", "'1500000 CNY'", "CNY",
     "USD"),
    ({"constraints": {"currency": "CNY", "budget_per_quarter_usd": "$20,000"}}, "constraints.budget_per_quarter_usd",
     "'$20,000'", "USD", "CNY"),
])
def test_an_amount_in_another_currency_names_its_field(tmp_path: Path, edits: dict, field: str, text: str, cur: str,
                                                        declared: str) -> None:
    """docs/formats.md (Plan file): an amount written with a sign must be in constraints.currency. The
    refusal said so at '(top level)', leaving the reader to find which of the file's amounts it was."""
    _plan(tmp_path, **edits)
    err = _one_line(gpuwise("plan", "plan.yaml", cwd=tmp_path), f"gpuwise: plan.yaml: {field}: {text} is in {cur}")
    assert f"constraints.currency is {declared}" in err
    zh = gpuwise("plan", "plan.yaml", "--lang", "zh", cwd=tmp_path)
    _one_line(zh, f"gpuwise: plan.yaml: {field}: {text} 以 {cur} 计")


def test_an_amount_in_the_plans_currency_still_reads(tmp_path: Path) -> None:
    _plan(tmp_path, owned__0={"gpu": "RTX 4090", "count": 4, "paid_usd": "¥50000"},
          constraints={"currency": "CNY", "budget_total_usd": "¥1,500,000"})
    r = gpuwise("plan", "plan.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
    assert '"currency": "CNY"' in r.stdout


# ------------------------------------------------------------- a whole file's check names the field it judged
@pytest.mark.parametrize(("edits", "start"), [
    ({"workloads__1__cadence": {"at_month": 7}},
     "gpuwise: plan.yaml: workloads[1].cadence.at_month: workload 'tune': at_month 7 is after the horizon (6 months)"),
    ({"workloads__1__cadence": {"per_month": 1, "start_month": 9}},
     "gpuwise: plan.yaml: workloads[1].cadence.start_month: workload 'tune': start_month 9 is after the horizon"),
    ({"workloads__1__name": "chat"}, "gpuwise: plan.yaml: workloads[1].name: workload name 'chat' is used twice"),
    ({"workloads__1__name": "CHAT"}, "gpuwise: plan.yaml: workloads[1].name: workload names 'chat' and 'CHAT' differ"),
])
def test_a_plans_cross_field_check_names_the_field(tmp_path: Path, edits: dict, start: str) -> None:
    """These checks need the whole file (the horizon, the other names) and were reported at '(top level)'."""
    _plan(tmp_path, **edits)
    _one_line(gpuwise("plan", "plan.yaml", cwd=tmp_path), start)


def test_more_used_cards_than_gpus_names_used_cards(tmp_path: Path) -> None:
    doc = {"workload": {"task": "inference", "model": "llama-2-7b"}, "hardware": {"gpu": "rtx-3090", "count": 1},
           "acquisition": {"mode": "buy", "condition": "used", "unit_price_usd": 400},
           "used_cards": [{"serial": str(i)} for i in range(3)]}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    _one_line(gpuwise("audit", "p.yaml", cwd=tmp_path),
              "gpuwise: p.yaml: used_cards: used_cards lists 3 cards but hardware.count is 1")


# ------------------------------------------------------------- ask resuming a file: the close match a file gets
@pytest.mark.parametrize(("value", "close"), [("ollama", "llama.cpp"), ("vllmm", "vllm"), ("SGLang", "sglang"),
                                              ("trtllm", "tensorrt-llm")])
def test_a_resumed_framework_gets_the_did_you_mean_of_recommend(tmp_path: Path, value: str, close: str) -> None:
    """`gpuwise recommend` refuses `framework: ollama` with 'did you mean llama.cpp?' (round 22); `gpuwise
    ask --answers` resuming the same file said only that the value is not one of the eight names and asked
    again. It now says the same close match, in both languages."""
    from gpuwise.ask.questionnaire import _Session, load_questions
    from gpuwise.knowledge import load

    path = tmp_path / "a.yaml"
    data = {"workload": {"task": "inference", "model": "llama-3.1-8b", "framework": value}}
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    r = gpuwise("recommend", "a.yaml", cwd=tmp_path)
    assert f"did you mean {close}?" in r.stderr
    for lang, said in (("en", f"(did you mean {close}?)"), ("zh", f"（你是不是指 {close}？）")):
        path.write_text(yaml.safe_dump(data), encoding="utf-8")  # a session saves the file without the value
        s = _Session(load_questions(), load(), path, lang=lang)
        notes = s.load(yaml.safe_load(path.read_text(encoding="utf-8")), path.read_text(encoding="utf-8"))
        note = next(n for n in notes if "workload.framework" in n)
        assert said in note, note
        assert "framework" not in s.answers["workload"]  # asked again, never kept


def test_a_resumed_value_with_no_close_match_says_no_guess(tmp_path: Path) -> None:
    from gpuwise.ask.questionnaire import _Session, load_questions
    from gpuwise.knowledge import load

    path = tmp_path / "a.yaml"
    path.write_text(yaml.safe_dump({"workload": {"task": "inference", "model": "llama-3.1-8b",
                                                 "framework": "zzzz"}}), encoding="utf-8")
    s = _Session(load_questions(), load(), path)
    notes = s.load(yaml.safe_load(path.read_text(encoding="utf-8")), path.read_text(encoding="utf-8"))
    note = next(n for n in notes if "workload.framework" in n)
    assert "'zzzz' is not one of" in note and "did you mean" not in note


# ------------------------------------------------------------- price files of another kind, capitals in the header
def test_a_json_price_file_is_named_as_json(tmp_path: Path) -> None:
    """A JSON export given to `prices import` was refused as a gpuhunt CSV whose header lacks
    instance_name, price, gpu_count and gpu_name; it is now called what it is."""
    (tmp_path / "p.json").write_text('[{"gpu": "H100 80GB SXM", "gpus": 8, "price": 20}]', encoding="utf-8")
    _one_line(gpuwise("prices", "import", "p.json", "--provider", "m", "-o", "ov", cwd=tmp_path),
              "gpuwise: p.json: a JSON file, not CSV text (give a gpuhunt or SkyPilot catalog CSV")
    assert not (tmp_path / "ov").exists()


def test_a_header_in_capitals_is_matched_to_gpuwise_own_layout(tmp_path: Path) -> None:
    """'GPU,GPUS,PRICE' (a spreadsheet's capitals) was read as gpuhunt's layout and offered 'PRICE' for
    gpuhunt's 'price' alone, leaving instance_name, gpu_count and gpu_name unexplained; the layout the
    columns match but for case is gpuwise's own. Since hostile round 53 it is read as that layout (it was refused
    naming each column to rename): two cells that differ only in case are still refused (_no_case_twins)."""
    (tmp_path / "p.csv").write_text("GPU,GPUS,PRICE\nH100 80GB SXM,8,20\n", encoding="utf-8")
    r = gpuwise("prices", "import", "p.csv", "--provider", "m", "-o", "ov", cwd=tmp_path)
    assert r.returncode == 0 and "gpuwise layout" in r.stdout and "imported 1 offer" in r.stdout, r.stderr
    # 20 an hour for the 8-GPU instance: 20 / 8 = 2.5 a GPU-hour
    assert "2.5 per GPU-hour" in r.stdout



def test_a_column_the_layout_reads_is_not_offered_for_a_missing_one(tmp_path: Path) -> None:
    """'gpu,price' lacks gpus: the file's gpu column is gpuwise's own gpu, not a misspelt gpus (it was offered as
    one, and the Chinese line asked whether gpus should be renamed gpu); the hint names the layouts instead. A
    column to rename is said the right way round in Chinese: the file's 'GPUS' should be 'gpus'."""
    (tmp_path / "p.csv").write_text("gpu,price\nH100 80GB SXM,20\n", encoding="utf-8")
    err = _one_line(gpuwise("prices", "import", "p.csv", "--provider", "m", "-o", "ov", cwd=tmp_path),
                    "gpuwise: p.csv: not a price catalog: the header lacks gpus")
    assert "did you mean" not in err and "gpuwise's own columns gpu, gpus, price" in err
    # 'gpu,GPUS,price' is read since hostile round 53 (a layout's columns but for case): a spare 'cost' column keeps
    # the header one to rename
    (tmp_path / "p.csv").write_text("gpu,GPUS,cost\nH100 80GB SXM,8,20\n", encoding="utf-8")
    err = _one_line(gpuwise("prices", "import", "p.csv", "--provider", "m", "-o", "ov", "--lang", "zh",
                            cwd=tmp_path), "gpuwise: p.csv: ")
    assert "列 'GPUS' 是不是应为 'gpus'？" in err


def test_the_plan_questions_give_the_close_match_too() -> None:
    """`gpuwise ask`'s plan questions refuse an owned entry or an answer through the same literal check
    (a hosting 'ofice' typed into an owned GPU's line): the close match is said there too."""
    from types import SimpleNamespace

    from gpuwise.ask.plan_ask import PlanAsk
    from gpuwise.ask.questions import load_questions

    err = {"type": "literal_error", "input": "ofice", "ctx": {"expected": "'office', 'colocation' or 'datacenter'"}}
    en = PlanAsk.explain(SimpleNamespace(qn=load_questions(), lang="en"), err)  # type: ignore[arg-type]
    assert en == "ofice is not one of 'office', 'colocation' or 'datacenter' (did you mean office?)"
    zh = PlanAsk.explain(SimpleNamespace(qn=load_questions(), lang="zh"), err)  # type: ignore[arg-type]
    assert zh.endswith("（你是不是指 office？）")
