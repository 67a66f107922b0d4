"""The recommendation names the job it sizes. The brief page a buyer signs said 'Buy 4 x RTX PRO 6000 ...' and never
which model, task or precision (review37); the question as understood was in the full report only. The title's line
now says it, with the question's values as written, in every format and language (on the title's line, so the brief
still fits two 80 x 40 screens: tests/test_terminal_width.py)."""

from __future__ import annotations

from pathlib import Path

from .clirun import gpuwise

EXAMPLE = Path(__file__).parents[1] / "examples" / "inference-70b.yaml"


def test_the_brief_names_the_model_task_and_precision(tmp_path: Path) -> None:
    text = gpuwise("recommend", str(EXAMPLE), cwd=tmp_path).stdout.splitlines()
    assert text[0] == "GPU recommendation: inference, llama-3.1-70b, bf16"
    md = gpuwise("recommend", str(EXAMPLE), "--format", "md", cwd=tmp_path).stdout
    assert md.splitlines()[0] == "# GPU recommendation: inference, llama-3.1-70b, bf16"
    html = gpuwise("recommend", str(EXAMPLE), "--format", "html", cwd=tmp_path).stdout
    assert "<h1>GPU recommendation: inference, llama-3.1-70b, bf16</h1>" in html
    zh = gpuwise("recommend", str(EXAMPLE), "--lang", "zh", cwd=tmp_path).stdout.splitlines()
    assert zh[0] == "GPU 选型建议：inference，llama-3.1-70b，bf16"


def test_a_model_given_by_size_is_named_by_its_size(tmp_path: Path) -> None:
    (tmp_path / "q.yaml").write_text("workload: {task: pretrain, params_b: 3.2, train_tokens: 1e9, precision: bf16}\n"
                                     "constraints: {max_gpus: 8}\n", encoding="utf-8")
    out = gpuwise("recommend", "q.yaml", cwd=tmp_path).stdout.splitlines()
    assert out[0] == "GPU recommendation: pretrain, a 3.2B-parameter model, bf16"
