"""The plan questionnaire's summary shows what was answered, in the session's language (askreview55).

An approver checking a plan before it is written saw, with `--lang zh`, "inference, llama-3.1-70b"
and "finetune lora, …" (the file's values, in English), and no trace of the run's deadline, the
service's first-token target, the precision, when the owned GPUs were bought and what was paid,
where bought GPUs would run or the market, though every one of them goes into the plan file.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from gpuwise.ask.plan_ask import PlanAsk
from gpuwise.knowledge import load

KB = load()
PLAN = {
    "horizon_months": 12,
    "owned": [{"gpu": "h100-80gb-sxm", "count": 8, "hosting": "office", "bought": "2025-03", "paid_usd": 1800000}],
    "workloads": [
        {"name": "serve", "workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "fp8",
                                       "prompt_tokens": 1000, "output_tokens": 300},
         "cadence": {"continuous": True, "hours_per_day": 24.0, "growth_per_month": 0.1, "start_month": 1},
         "targets": {"requests_per_s": 2.0, "max_ttft_ms": 2000.0}},
        {"name": "tune", "workload": {"task": "finetune", "method": "full", "model": "llama-3.1-8b",
                                      "train_tokens": 2e8},
         "cadence": {"per_month": 1.0}, "deadline_days": 3.0},
    ],
    "constraints": {"budget_total_usd": 1000000, "acquisition": "either", "hosting": "colocation",
                    "market": "china", "currency": "CNY"},
}


def shown(lang: str) -> str:
    console = Console(record=True, width=200)
    ask = PlanAsk(KB, Path("plan.yaml"), Path("plan-report.md"), knowledge=None, lang=lang, currency="CNY",
                  prompter=None, console=console)
    console.print(ask.summary(PLAN))
    return console.export_text()


def test_zh_summary_is_chinese_and_complete() -> None:
    text = shown("zh")
    for english in ("inference", "finetune", " full"):
        assert english not in text, english
    assert "fp8" in text and "2000" in text  # precision, first-token target
    assert "3 天" in text  # the deadline
    assert "2025-03" in text and "¥1,800,000" in text  # bought, paid
    assert "托管" in text and "中国大陆" in text  # where bought GPUs run, the market


def test_en_summary_names_the_same() -> None:
    text = shown("en")
    assert "3 days" in text and "2000 ms" in text and "2025-03" in text and "¥1,800,000" in text
    assert "colocation" in text.lower() and "china" in text.lower()
