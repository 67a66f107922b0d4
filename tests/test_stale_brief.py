"""The text brief's banner counts the answer's own out-of-date prices, and another option's apart (review33): a
2023 quote for the runner-up's H100 on lambda made the brief say '1 price used here is out of date' while every
price the answer (an A100 on runpod, priced 2026-09-25) rests on was current."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clirun import gpuwise

Q = "workload: {task: inference, model: llama-3.1-8b}\nconstraints: {acquisition: rent, gpus: [h100-80gb-sxm, " \
    "a100-80gb-sxm]}\n"


@pytest.fixture
def asked(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "clouds.yaml").write_text(  # below runpod's 2.69: the runner-up rents it
        "gpu_hour_prices:\n  - {provider: lambda, gpu: h100-80gb-sxm, usd_per_gpu_hour: 2.60, as_of: 2023-06-01,\n"
        "     source: 'an old quote'}\n")
    (tmp_path / "q.yaml").write_text(Q)
    return str(tmp_path / "q.yaml"), str(tmp_path / "kb")


def _run(q: str, kb: str, *more: str) -> str:
    r = gpuwise("recommend", q, "--knowledge", kb, *more)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_the_runner_up_s_old_price_is_counted_apart(asked: tuple[str, str]) -> None:
    q, kb = asked
    d = json.loads(_run(q, kb, "--format", "json"))
    assert (d["recommendation"]["gpu"], d["recommendation"]["provider"]) == ("a100-80gb-sxm", "runpod")
    assert (d["runner_up"]["gpu"], d["runner_up"]["provider"]) == ("h100-80gb-sxm", "lambda")
    assert [(s["what"], s["answer"]) for s in d["stale_prices"]] == [("rent NVIDIA H100 SXM5 80GB (lambda)", False)]
    assert all(p["as_of"] == "2026-09-25" for p in d["prices_used"])  # the answer's own: current
    brief = _run(q, kb)
    assert "! 1 price of another option is out of date; the full report's Data freshness\n  names it." in brief
    assert "used here" not in brief
    assert len(brief.splitlines()) <= 80 and max(map(len, brief.splitlines())) <= 80
    zh = _run(q, kb, "--lang", "zh")
    assert "! 其他方案的 1 个价格已过时，完整报告的“数据时效”列出了它们。" in zh and "本报告使用的" not in zh
    full = _run(q, kb, "--detail", "full")  # the full report lists it, and counts it as another option's (review61)
    assert "! 1 price of another option is out of date; see Data freshness." in full
    fresh = full[full.index("=== Data freshness ==="):]
    assert "! rent NVIDIA H100 SXM5 80GB (lambda), another option's: price as of\n    2023-06-01" in fresh
