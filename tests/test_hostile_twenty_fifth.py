"""Hostile round 25: what round 25 of benchmarks/hostile_corpus.py found, each fix with a test that
fails without it. The whole round is benchmarks/hostile_round25.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from .clirun import gpuwise

MOE = ("workload: {task: finetune, method: full, model: qwen3-30b-a3b, stack: deepspeed, zero_stage: 3, "
       "train_tokens: 1.0e8, transformers_version: %s}\n")


def _one_line(r, code: int = 2) -> str:
    assert r.returncode == code, (r.stdout[-300:], r.stderr)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr


@pytest.mark.parametrize("value", ["1.9", "1.5", "0"])
def test_a_yaml_number_below_the_first_transformers_is_not_asked_for_in_quotes(tmp_path: Path, value: str) -> None:
    # round 25: 'write the version in quotes (transformers_version: "1.9")', which the floor added this session
    # (no transformers before 2.0) then refuses: the quoted form is judged first
    (tmp_path / "r.yaml").write_text(MOE % value, encoding="utf-8")
    err = _one_line(gpuwise("recommend", "r.yaml", "--format", "json", cwd=tmp_path))
    assert "in quotes" not in err
    assert f"transformers {value} is no release of transformers (the first was 2.0, 2019" in err


def test_a_llama_cpp_release_written_as_a_yaml_number_is_not_asked_for_in_quotes(tmp_path: Path) -> None:
    # framework_version: 0.6 (Ollama's release) was asked for in quotes, then refused as another program's version
    (tmp_path / "r.yaml").write_text("workload: {task: inference, model: llama-3.1-8b, framework: llama.cpp, "
                                     "framework_version: 0.6}\n", encoding="utf-8")
    err = _one_line(gpuwise("recommend", "r.yaml", cwd=tmp_path))
    assert "in quotes" not in err and "llama.cpp names a release by its build number" in err and "'0.6'" in err


@pytest.mark.parametrize("given", ["MXFP4", "NVFP4"])
def test_a_format_name_in_capitals_gets_the_close_match_its_lower_case_gets(tmp_path: Path, given: str) -> None:
    # 'mxfp4' was told 'did you mean fp4?', 'MXFP4' nothing (difflib is case-sensitive)
    (tmp_path / "r.yaml").write_text(f"workload: {{task: inference, model: gpt-oss-120b, precision: {given}}}\n",
                                     encoding="utf-8")
    err = _one_line(gpuwise("estimate", "r.yaml", "--gpu", "gb10", cwd=tmp_path))
    assert err.rstrip().endswith("(did you mean fp4?)"), err

