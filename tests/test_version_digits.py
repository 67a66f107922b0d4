"""Release fields take the digits 0-9 only, as number fields do (full-width digits are refused with the
ASCII release as the close match), and transformers 0.x / 1.x never existed (the project was
pytorch-transformers until 2.0.0, September 2019: huggingface/transformers release notes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .clirun import gpuwise

MOE = ("workload: {task: finetune, method: full, model: qwen3-30b-a3b, stack: deepspeed, zero_stage: 3, "
       "train_tokens: 1.0e8, transformers_version: '%s'}\n")


def _run(tmp_path: Path, value: str, *argv: str):
    (tmp_path / "r.yaml").write_text(MOE % value, encoding="utf-8")
    return gpuwise("recommend", "r.yaml", "--format", "json", *argv, cwd=tmp_path)


def test_full_width_digits_are_refused_with_the_ascii_release(tmp_path: Path) -> None:
    # as every number field refuses them (docs/formats.md): before, pydantic's \d took ４.５７ and int() read it
    r = _run(tmp_path, "４.５７")
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "'４.５７' is not a release number (digits and dots, as 4.52 or 0.5.7) (did you mean 4.57?)" in r.stderr
    assert _run(tmp_path, "4.57").returncode == 0


def test_other_scripts_digits_are_no_release(tmp_path: Path) -> None:
    r = _run(tmp_path, "٤.٥")  # Arabic-Indic 4.5: pydantic's \d took it, and int() then read it as 4.5
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "is not a release number (digits and dots, as 4.52 or 0.5.7)" in r.stderr


@pytest.mark.parametrize("value", ["0", "1.2", "0.9.1"])
def test_transformers_before_2_is_no_release(tmp_path: Path, value: str) -> None:
    r = _run(tmp_path, value)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert f"workload.transformers_version: transformers {value} is no release of transformers" in r.stderr
    zh = _run(tmp_path, value, "--lang", "zh")
    assert f"transformers {value} 不是 transformers 的任何版本" in zh.stderr, zh.stderr


def test_transformers_2_and_later_are_kept(tmp_path: Path) -> None:
    assert _run(tmp_path, "2.0").returncode == 0
    assert _run(tmp_path, "10.1").returncode == 0



def test_a_full_width_transformers_before_2_is_refused_as_such(tmp_path: Path) -> None:
    # review28: '１.２' was answered 'did you mean 1.2?', a release the same field then refuses
    r = _run(tmp_path, "１.２")
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "transformers １.２ is no release of transformers" in r.stderr and "did you mean" not in r.stderr
