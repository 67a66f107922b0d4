"""Hostile round 24: what round 24 of benchmarks/hostile_corpus.py found, each fix with a test that
fails without it. The whole round is benchmarks/hostile_round24.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from .clirun import gpuwise

MOE = ("workload: {task: finetune, method: full, model: qwen3-30b-a3b, stack: deepspeed, zero_stage: 3, "
       "train_tokens: 1.0e8, %s: %s}\n")


def _refused(tmp_path: Path, field: str, value: str, *argv: str) -> str:
    (tmp_path / "r.yaml").write_text(MOE % (field, value), encoding="utf-8")
    r = gpuwise("recommend", "r.yaml", "--format", "json", *argv, cwd=tmp_path)
    assert r.returncode == 2, (r.stdout[-300:], r.stderr)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.startswith(f"gpuwise: r.yaml: workload.{field}: "), r.stderr
    return r.stderr


@pytest.mark.parametrize("value, given", [("-4.5", "'-4.5'"), ("1e308", "'1e+308'"), (".nan", "'nan'")])
def test_a_number_that_is_no_release_is_not_asked_for_in_quotes(tmp_path: Path, value: str, given: str) -> None:
    # round 24: 'write the version in quotes (transformers_version: "-4.5")', which the field then refuses too
    err = _refused(tmp_path, "transformers_version", value)
    assert "in quotes" not in err
    assert f"{given} is not a release number (digits and dots, as 4.52 or 0.5.7)" in err


def test_a_release_written_as_a_yaml_number_is_still_asked_for_in_quotes(tmp_path: Path) -> None:
    err = _refused(tmp_path, "transformers_version", "4.50")  # YAML reads 4.50 as 4.5, another release
    assert 'write the version in quotes (transformers_version: "4.5")' in err


def test_a_release_field_refusal_names_the_form_not_the_fields_paragraph(tmp_path: Path) -> None:
    # round 24: 'v5' was refused with the field's whole description (some 400 characters of English, in zh too)
    err = _refused(tmp_path, "transformers_version", "v5")
    assert "'v5' is not a release number (digits and dots, as 4.52 or 0.5.7) (did you mean 5?)" in err
    assert "grouped GEMM" not in err and len(err) < 160
    zh = _refused(tmp_path, "stack_version", "'v0.16.7'", "--lang", "zh")
    assert "'v0.16.7' 不是版本号（应为数字和点，如 4.52 或 0.5.7）" in zh and "performance table" not in zh
    assert "0.16.7" in zh.split("）", 1)[1]  # the close match still given


@pytest.mark.parametrize("field", ["transformers_version", "stack_version"])
def test_latest_is_told_to_leave_the_field_out(tmp_path: Path, field: str) -> None:
    # 'latest' means the default: none given is the newest release gpuwise knows (docs/formats.md)
    err = _refused(tmp_path, field, "Latest")
    assert f"(leave {field} out: gpuwise then takes the newest release it knows)" in err
    zh = _refused(tmp_path, field, "latest", "--lang", "zh")
    assert f"不写 {field}：gpuwise 会取它所知的最新版本" in zh


def test_other_patterns_keep_their_description(tmp_path: Path) -> None:
    # a requirements file's environment versions have short descriptions of their own, kept
    (tmp_path / "r.yaml").write_text("workload: {task: inference, model: llama-3.1-8b}\n"
                                     "environment: {rocm: 'v6'}\n", encoding="utf-8")
    r = gpuwise("recommend", "r.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 2 and "AMD ROCm release" in r.stderr, r.stderr
