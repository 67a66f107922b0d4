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
