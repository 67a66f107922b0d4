"""`gpuwise ask` starting a plan: the first question's plan choice, the plan questions driven by
keystrokes through prompt_toolkit's pipe input (as test_questionnaire.py drives the requirements
questions), the plan file it writes (read back by the plan schema), and `gpuwise plan` run on it.

The pipe is closed after the keystrokes: a flow that wants more input than a test gives ends with
EOF (exit 130) instead of hanging.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from gpuwise.ask.plan_ask import TEXTS_FILE, load_texts, plan_path, render_plan
from gpuwise.ask.questionnaire import load_questions, run_ask
from gpuwise.plan.schema import PlanFile

DOWN, ENTER = "\x1b[B", "\r"
YES, NO = "y\r", "n\r"  # review65: a y/N answer is taken by Enter
QN = load_questions()
pytestmark = pytest.mark.usefixtures("questions_read_once")  # tests/conftest.py
TASKS = [c.value for c in QN.by_key("workload.task").choices]
# the first question: from its default (fine-tuning) down to the plan choice
PLAN = DOWN * (TASKS.index("plan") - TASKS.index(QN.by_key("workload.task").default)) + ENTER


def text(answer: str = "") -> str:
    return answer + ENTER


def drive(keys: list[str], answers: Path | None, *, report: Path | None = None, lang: str = "en",
          currency: str | None = None) -> int:
    with create_pipe_input() as pipe:
        pipe.send_text("".join(keys))
        pipe.close()
        return run_ask(str(answers) if answers else None, str(report) if report else None, lang=lang,
                       currency=currency, input=pipe, output=DummyOutput())


# a lab that owns 8 x RTX 4090 (office), serves an 8B model at 0.5 requests/s growing 10% a month,
# and fine-tunes it twice a month with LoRA within 3 days; six months; either rent or buy
OWNED = [YES, text("RTX 4090"), text("8"), ENTER, text("2024-03"), text("14,400"), NO]
SERVICE = [ENTER, text("llama-3.1-8b"), ENTER, ENTER, ENTER, text("0.5"), ENTER, ENTER, ENTER, ENTER, text("10%"),
           ENTER, text("chat")]  # no p95 targets, no max TTFT
FINETUNE = [ENTER, ENTER, ENTER, ENTER, ENTER, text("2"), ENTER, text("3"), ENTER]
LIMITS = [ENTER, ENTER, ENTER, ENTER, ENTER]
LAB = [PLAN, text("6"), *OWNED, *SERVICE, YES, *FINETUNE, NO, *LIMITS]


def test_the_first_question_offers_a_plan_in_both_languages() -> None:
    q = QN.by_key("workload.task")
    plan = next(c for c in q.choices if c.value == "plan")
    assert "already own" in plan.title["en"] and "已有" in plan.title["zh"]
    assert q.default == "finetune" and TASKS[-1] == "plan"  # appended: the other choices keep their keys


def test_a_plan_from_the_questions_is_written_and_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = tmp_path / "team.yaml"
    rc = drive([*LAB, ENTER], answers)
    out = capsys.readouterr()
    assert rc == 0, out.err
    data = yaml.safe_load(answers.read_text(encoding="utf-8"))
    PlanFile.model_validate(data)  # what ask writes is a plan file as `gpuwise plan` reads it
    assert data["horizon_months"] == 6
    assert data["owned"] == [{"gpu": "rtx-4090", "count": 8, "hosting": "office", "bought": "2024-03",
                              "paid_usd": 14400.0}]
    chat, ft = data["workloads"]
    assert chat == {"name": "chat",
                    "workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000,
                                 "output_tokens": 300},
                    "cadence": {"continuous": True, "hours_per_day": 24.0, "growth_per_month": 0.1,
                                "start_month": 1},
                    "targets": {"requests_per_s": 0.5}}
    assert ft == {"name": "finetune-llama-3.1-8b",
                  "workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b",
                               "train_tokens": 2e8},
                  "cadence": {"per_month": 2.0}, "deadline_days": 3.0}
    assert data["constraints"] == {"acquisition": "either", "hosting": "colocation", "market": "global",
                                   "currency": "USD"}
    report = tmp_path / "team-report.md"
    assert report.is_file() and "## Answer" in report.read_text(encoding="utf-8")
    assert "Cost over 6 months" in out.out and f"gpuwise plan {answers}" in out.out


def test_bad_answers_are_explained_and_asked_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = tmp_path / "p.yaml"
    keys = [PLAN, text("0"), text("3"),  # a horizon of 0 months is refused
            YES, text("RTX 4909"), text("RTX 4090"), text("8"), ENTER, text("March"), text("2024-03"),
            text("5 yuan"), ENTER, NO,
            DOWN + ENTER,  # fine-tuning
            ENTER, text("no-such-model-xyz"), text("13b"), ENTER, DOWN + ENTER,  # once
            text("5"), text("2"),  # month 5 is after a 3-month horizon
            ENTER, ENTER, NO, *LIMITS, DOWN + ENTER]  # write the plan file and quit
    rc = drive(keys, answers)
    out = capsys.readouterr().out
    assert rc == 0
    assert "must be at least 1" in out
    assert "did you mean" in out.lower() and "RTX 4090" in out
    assert "'March' is not a month" in out
    assert "amounts are asked in USD" in out
    assert "must be at most 3" in out
    data = yaml.safe_load(answers.read_text(encoding="utf-8"))
    assert data["owned"][0] == {"gpu": "rtx-4090", "count": 8, "hosting": "office", "bought": "2024-03"}
    assert data["workloads"][0]["workload"] == {"task": "finetune", "method": "lora", "params_b": 13.0,
                                                "train_tokens": 2e8}
    assert data["workloads"][0]["cadence"] == {"at_month": 2}
    assert not (tmp_path / "p-report.md").exists()  # quit before running


def test_interrupted_plan_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = tmp_path / "p.yaml"
    rc = drive([PLAN, text("6"), *OWNED, *SERVICE], answers)  # the input ends mid-way
    assert rc == 130
    assert not answers.exists() and list(tmp_path.iterdir()) == []
    assert "nothing was saved" in capsys.readouterr().err


def test_cny_plan_in_chinese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = tmp_path / "cn.yaml"
    keys = [PLAN, text("12"), NO, ENTER, text("qwen2.5-7b"), ENTER, ENTER, ENTER, text("1"), ENTER, ENTER, ENTER, ENTER,
            text("0"), ENTER, ENTER, NO, text("30万"), ENTER, ENTER, ENTER, ENTER, DOWN + ENTER]
    rc = drive(keys, answers, lang="zh", currency="CNY")
    out = capsys.readouterr().out
    assert rc == 0, out
    data = yaml.safe_load(answers.read_text(encoding="utf-8"))
    assert data["constraints"] == {"budget_per_quarter_usd": 300000.0, "acquisition": "either",
                                   "hosting": "colocation", "market": "china", "currency": "CNY"}
    assert "计划文件已写入" in out


def test_an_existing_plan_file_is_shown_and_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = tmp_path / "team.yaml"
    data = {"horizon_months": 3, "owned": [{"gpu": "RTX 4090", "count": 4}],
            "workloads": [{"name": "ft", "workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b",
                                                      "train_tokens": 1e8}, "cadence": {"per_month": 1}}]}
    answers.write_text(yaml.safe_dump(data), encoding="utf-8")
    before = answers.read_text(encoding="utf-8")
    rc = drive([ENTER], answers, report=tmp_path / "out.json")
    assert rc == 0, capsys.readouterr().err
    assert answers.read_text(encoding="utf-8") == before  # shown and run, not rewritten
    import json

    result = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert result["purchases"] == [] and result["unplaced"] == []


def test_a_malformed_plan_file_at_the_answers_path_is_one_line(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    answers = tmp_path / "bad.yaml"
    answers.write_text("horizon_months: 12\nworkloads:\n  - name: a\n    workload: {task: finetune, "
                       "model: llama-3.1-8b}\n    cadense: {per_month: 1}\n", encoding="utf-8")
    rc = drive([], answers)
    err = capsys.readouterr().err
    assert rc == 2
    assert len(err.strip().splitlines()) == 1 and "cadense" in err and "cadence" in err


def test_where_the_plan_file_goes(tmp_path: Path) -> None:
    fresh = tmp_path / "team.yaml"
    assert plan_path(fresh, explicit=True) == fresh
    assert plan_path(tmp_path / "gpuwise-answers.yaml", explicit=False) == tmp_path / "gpuwise-plan.yaml"
    fresh.write_text("workload: {task: finetune}\n", encoding="utf-8")  # requirements answers: never overwritten
    assert plan_path(fresh, explicit=True) == tmp_path / "team-plan.yaml"


def test_texts_are_complete_in_both_languages() -> None:
    texts = load_texts(TEXTS_FILE)
    assert texts.languages == ("en", "zh")
    for key, t in texts.texts.items():
        if key.startswith(("q_", "h_")):
            assert t["en"] != t["zh"], key
    src = (Path(TEXTS_FILE).parent / "plan_ask.py").read_text(encoding="utf-8")
    for key in texts.texts:
        stem = key.split("_", 1)[1] if key.startswith(("q_", "h_", "l_")) else key
        assert f'"{key}"' in src or f'"{stem}"' in src or f"_{stem}" in src or key.startswith(
            ("host_", "way_", "task_", "method_", "prec_", "cadence_", "market_", "kind_")), f"{key} is not used"


def test_render_plan_reads_back() -> None:
    data = {"horizon_months": 2, "workloads": [{"name": "x: y", "workload": {"task": "pretrain", "params_b": 1.0},
                                                "cadence": {"at_month": 1}}]}
    assert yaml.safe_load(render_plan(data)) == data
