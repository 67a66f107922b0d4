"""One-line input errors in the language asked for: ``--lang zh`` words the common input errors in
Chinese through the report catalog; the file, the field and the names given stay as written, and the
English lines are unchanged."""

from __future__ import annotations

import pytest

from gpuwise.errors import UserError, either

from .clirun import gpuwise

CASES = [
    # (file text, English line after "gpuwise: FILE: ", Chinese line after it)
    ("workload: {task: inference, model: llama-3.1-7b}\n",
     "workload.model: unknown model 'llama-3.1-7b' (did you mean llama-3.1-70b or llama-3-70b or llama-3.2-1b?)",
     "workload.model: 未知模型“llama-3.1-7b”（你是不是指 llama-3.1-70b、llama-3-70b 或 llama-3.2-1b？）"),
    ("workload: {task: inference, model: llama-3.1-8b, concurent_requests: 3}\n",
     "workload.concurent_requests: unknown key (did you mean 'concurrent_requests'?)",
     "workload.concurent_requests: 未知的键（你是不是指“concurrent_requests”？）"),
    ("workload: {task: inference, model: llama-3.1-8b, context_len: -5}\n",
     "workload.context_len: Input should be greater than or equal to 1 (got -5)",
     "workload.context_len: 必须不小于 1（给出的是 -5）"),
    ("workload: {task: inferense, model: llama-3.1-8b}\n",
     "workload.task: 'inferense' is not one of 'pretrain', 'finetune' or 'inference'",
     "workload.task: 'inferense' 不是可选值之一：'pretrain'、'finetune' 或 'inference'"),
    ("workload: {model: llama-3.1-8b}\n",
     "workload.task: required field is missing",
     "workload.task: 缺少必填字段"),
    ("", "the file is empty", "文件为空"),
    ("workload: [1\n", None, "YAML 无效，第 2 行第 1 列："),
]


@pytest.mark.parametrize(("text", "en", "zh"), CASES)
def test_input_errors_in_english_and_chinese(tmp_path, text, en, zh):
    f = tmp_path / "req.yaml"
    f.write_text(text)
    run = gpuwise("recommend", str(f))
    assert run.returncode == 2 and run.stdout == ""
    if en is not None:
        assert run.stderr.strip() == f"gpuwise: {f}: {en}"
    run = gpuwise("recommend", str(f), "--lang", "zh")
    assert run.returncode == 2 and run.stdout == ""
    line = run.stderr.strip()
    assert line.startswith(f"gpuwise: {f}: {zh}") and "\n" not in line
    assert "Traceback" not in run.stderr


def test_missing_file_in_chinese(tmp_path):
    f = tmp_path / "none.yaml"
    run = gpuwise("audit", str(f), "--lang", "zh")
    assert run.returncode == 2
    assert run.stderr.strip() == f"gpuwise: {f}: 文件不存在"


def test_unknown_gpu_with_did_you_mean_in_chinese(tmp_path):
    f = tmp_path / "p.yaml"
    f.write_text("workload: {task: inference, model: llama-3.1-8b}\nhardware: {gpu: H10-80G, count: 1}\n"
                 "acquisition: {mode: rent, hourly_usd: 2}\n")
    en = gpuwise("audit", str(f)).stderr.strip()
    zh = gpuwise("audit", str(f), "--lang", "zh").stderr.strip()
    assert "unknown gpu 'H10-80G'" in en
    assert zh.endswith("hardware.gpu: 未知 GPU“H10-80G”（你是不是指 h100-80gb-sxm、h800-80gb-sxm 或 h100-nvl-94gb？）")


def test_batch_lists_each_files_error_in_chinese(tmp_path):
    bad = tmp_path / "a.yaml"
    bad.write_text("workload: {task: inference, model: llama-3.1-8b, context_len: 0}\n")
    run = gpuwise("audit", str(bad), str(tmp_path / "b.yaml"), "--lang", "zh")
    assert run.returncode == 2
    flat = "".join(run.stdout.split())  # the summary wraps its lines
    assert "必须不小于1（给出的是0）" in flat and "b.yaml:文件不存在" in flat
    assert "workload.context_len: 必须不小于 1（给出的是 0）" in run.stderr


def test_choices_are_worded_per_language():
    assert either(["a", "b", "c"]).words("en") == "a or b or c"
    assert either(["'a'", "'b'", "'c'"], commas=True).words("en") == "'a', 'b' or 'c'"
    assert either(["a", "b", "c"]).words("zh") == "a、b 或 c"


def test_a_message_without_a_catalog_entry_stays_english():
    e = UserError("some new problem 100%", where="f.yaml: x")
    assert e.line("zh") == e.line() == "f.yaml: x: some new problem 100%"
