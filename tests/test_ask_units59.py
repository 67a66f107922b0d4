"""A number typed with its unit at a `gpuwise ask` question (askreview59).

A team lead asked for a p95 first-token target in seconds types '500ms'; asked for a deadline in days,
'2 weeks'; for a prefix cache hit rate, '50%'; for a request rate, '120/min'. A requirements file's field
refuses each offering the number in its own unit (inputs/units.py: "'500ms': p95_ttft_s is a number of
seconds: write 0.5"); the questionnaire said "'500ms' is not a number (examples: 4096, 2e9, 2B, 50k)",
with no close match and examples that do not apply. And a k / M / B suffix multiplied a time: '500m'
at the p95 question was read as 500 million seconds (refused as 'at most 1e+06 (got 5e8)'), and '2m' at
the advanced max TTFT in ms was saved as 2,000,000 ms, where the user meant 2 minutes or 500 ms.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_questionnaire import CTRL_C, ENTER, YES, choose, drive, saved, text

SERVICE = [choose("workload.task", "inference"), ENTER, ENTER, ENTER]  # model, prompt and output tokens


def _said(capsys: pytest.CaptureFixture[str]) -> list[str]:
    out = capsys.readouterr().out
    return [" ".join(line.split()) for line in out.splitlines() if "✗" in line]


def test_a_time_rate_or_share_with_its_unit_is_offered_in_the_fields_unit(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    keys = [*SERVICE, text("120/min"), text("2"), text("500ms"), text("0.5"), text("50ms"), text("0.05"), CTRL_C]
    rc, path = drive(tmp_path, keys)
    assert rc == 130
    said = _said(capsys)
    assert said == ["✗ '120/min': requests_per_s is a number of requests a second: write 2",  # 120 / 60
                    "✗ '500ms': p95_ttft_s is a number of seconds: write 0.5",
                    "✗ '50ms': p95_tpot_s is a number of seconds: write 0.05"]
    w = saved(path)["workload"]
    assert (w["requests_per_s"], w["p95_ttft_s"], w["p95_tpot_s"]) == (2, 0.5, 0.05)


def test_a_multiplier_is_not_read_at_a_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keys = [*SERVICE, text("2"), text("500m"), text("0.5"), ENTER, CTRL_C]
    rc, path = drive(tmp_path, keys)
    said = _said(capsys)
    assert rc == 130 and len(said) == 1 and said[0].startswith("✗ '500m': k, M, B")
    assert saved(path)["workload"]["p95_ttft_s"] == 0.5
    # counts, tokens and amounts keep their multipliers: 4k prompt tokens, a $50k budget
    keys = [*SERVICE[:2], text("4k"), ENTER, ENTER, ENTER, ENTER, text("50k"), CTRL_C]
    (tmp_path / "b").mkdir()
    rc, path = drive(tmp_path / "b", keys)
    data = saved(path)
    assert data["workload"]["prompt_tokens"] == 4000 and data["constraints"]["budget_usd"] == 50000


def test_the_deadline_and_the_advanced_times(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a fine-tune: '2 weeks' at the deadline in days is 14
    keys = [ENTER, ENTER, ENTER, ENTER, text("2 weeks"), text("14"), CTRL_C]
    rc, path = drive(tmp_path, keys)
    assert rc == 130
    assert _said(capsys) == ["✗ '2 weeks': deadline_days is a number of days: write 14"]
    assert saved(path)["constraints"]["deadline_days"] == 14
    # a service's advanced settings (p95 targets, quantization, precision, framework, KV cache: Enter), then
    # '50%' prefix hits, '2m' and '2s' at the max TTFT in ms
    keys = [*SERVICE, ENTER, ENTER, ENTER, ENTER, choose("constraints.acquisition", "rent"), ENTER, YES,
            *[ENTER] * 6, text("50%"), text("0.5"), ENTER, ENTER,
            text("2m"), text("2s"), text("2000"), CTRL_C]
    sub = tmp_path / "svc"
    sub.mkdir()
    rc, path = drive(sub, keys)
    said = _said(capsys)
    assert rc == 130
    assert said[0] == "✗ '50%': prefix_cache_hit_rate is a fraction, 0.1 for ten percent: write 0.5"
    assert said[1].startswith("✗ '2m': k, M, B")  # was saved as 2,000,000 ms
    assert said[2] == "✗ '2s': max_ttft_ms is a number of milliseconds: write 2000"
    w = saved(path)["workload"]
    assert (w["prefix_cache_hit_rate"], w["max_ttft_ms"]) == (0.5, 2000)


def test_in_chinese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keys = [*SERVICE, text("2"), text("500ms"), text("500m"), CTRL_C]
    rc, _ = drive(tmp_path, keys, lang="zh", currency="CNY")
    said = _said(capsys)
    assert rc == 130
    # (the console may wrap a line at a space: compared without spaces)
    assert [x.replace(" ", "") for x in said] == [
        "✗'500ms'：p95_ttft_s是秒数，只写数字：请写作0.5",
        "✗'500m'：k、M、B、千、万、亿只用于数量、词元数和金额，不用于此回答：请按问题中的单位只写数字"]


def test_the_plan_questions_offer_the_unit_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The approver's plan questions (plan_ask.py) read numbers the same way: '2s' at the service's first-token
    target in milliseconds was "'2s' is not a number (examples: ...)"."""
    from .test_plan_ask import NO, PLAN
    from .test_plan_ask import drive as drive_plan

    keys = [PLAN, text("1 year"), text("12"), NO, ENTER, text("llama-3.1-8b"), ENTER, ENTER, ENTER,
            text("30/min"), text("0.5"), ENTER, ENTER, text("2s"), text("2m"), text("2000"), text("12h"), text("12")]
    rc = drive_plan(keys, tmp_path / "p.yaml")  # the input ends mid-way: nothing is written
    said = _said(capsys)
    assert rc == 130
    assert said == ["✗ '1 year': horizon_months is a number of months: write 12",
                    "✗ '30/min': requests_per_s is a number of requests a second: write 0.5",
                    "✗ '2s': max_ttft_ms is a number of milliseconds: write 2000",
                    said[3], "✗ '12h': hours_per_day is a number of hours: write 12"]
    assert said[3].startswith("✗ '2m': k, M, B")
