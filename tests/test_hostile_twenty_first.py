"""Hostile round 21 (issue 26 item 5): what round 21 of benchmarks/hostile_corpus.py found, each fix
with a test that fails without it. The whole round is benchmarks/hostile_round21.py."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from .clirun import gpuwise

SERVE = ("workload:\n  task: inference\n  model: llama-3.1-8b\n  prompt_tokens: 1000\n  output_tokens: 300\n"
         "  kv_cache_tokens: {pool}\n")


# ------------------------------------------------------------- a KV pool that cannot hold one request
@pytest.mark.parametrize("pool", [1, 1000, 1299])
def test_a_kv_pool_smaller_than_one_request_is_refused(tmp_path: Path, pool: int) -> None:
    """A stated pool of fewer tokens than one request's prompt + output (1,000 + 300 = 1,300) is an
    engine that does not start: vLLM refuses to start when its KV cache cannot hold one request of
    the longest length it serves (check_enough_kv_cache_memory, vllm/v1/core/kv_cache_utils.py).
    gpuwise priced it as serving nothing, 'fits' true, and recommend listed every GPU as rejected
    with a reason that contradicted itself ('leaving 5.3 GB for the KV cache; one sequence's KV
    cache needs 0.2 GB'). It is now one line naming the field and both counts, exit 2."""
    (tmp_path / "r.yaml").write_text(SERVE.format(pool=pool), encoding="utf-8")
    for argv in (["recommend", "r.yaml"], ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm"]):
        r = gpuwise(*argv, cwd=tmp_path)
        assert r.returncode == 2, r.stdout[-300:]
        assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
        assert r.stderr.startswith("gpuwise: r.yaml: workload: kv_cache_tokens ")
        assert f"{pool:,}" in r.stderr and "1,300" in r.stderr


def test_a_kv_pool_of_exactly_one_request_serves_one_sequence(tmp_path: Path) -> None:
    """1,300 tokens hold one request of 1,300: the copy runs one sequence at a time (the pool over
    the request's tokens, rounded down), at a speed above zero."""
    (tmp_path / "r.yaml").write_text(SERVE.format(pool=1300), encoding="utf-8")
    r = gpuwise("estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    serving = json.loads(r.stdout)["gpu"]["serving"]
    assert serving["max_concurrent_sequences"] == 1
    assert serving["max_throughput_tokens_per_s"] > 0


def test_a_plan_workload_with_too_small_a_pool_names_the_workload(tmp_path: Path) -> None:
    """The same check in a plan's workload (500 + 200 = 700 tokens a request), named by its place, in
    the language asked for."""
    plan = ("horizon_months: 3\nworkloads:\n  - name: chat\n    workload: {task: inference, model: llama-3.1-8b, "
            "prompt_tokens: 500, output_tokens: 200, kv_cache_tokens: 600}\n    cadence: {continuous: true}\n")
    (tmp_path / "plan.yaml").write_text(plan, encoding="utf-8")
    r = gpuwise("plan", "plan.yaml", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("gpuwise: plan.yaml: workloads[0].workload: kv_cache_tokens 600")
    assert "700" in r.stderr
    r = gpuwise("plan", "plan.yaml", "--lang", "zh", cwd=tmp_path)
    assert r.returncode == 2 and "装不下" in r.stderr and "700" in r.stderr


# ------------------------------------------------------------- ask without a terminal, and a bad -o
def _ask(tmp_path: Path, *argv: str):
    """``gpuwise ask`` with a standard input that is not a terminal (a script's, cron's)."""
    return gpuwise("ask", *argv, cwd=tmp_path)


@pytest.mark.parametrize("target, words", [
    ("r.yaml", "the output would replace an input file"),
    ("./r.yaml", "the output would replace an input file"),
    ("d", "is a directory"),
    ("r.pdf", "cannot tell the report format"),
])
def test_ask_without_a_terminal_refuses_a_bad_report_first(tmp_path: Path, target: str, words: str) -> None:
    """Without a terminal, ``ask --answers r.yaml -o r.yaml`` said 'run `gpuwise recommend r.yaml -o
    r.yaml` for its report': a command that is itself refused, as it would replace its input. The
    bad -o (onto the answers, a folder, a suffix no report has) is now the line, as in a terminal;
    and in a terminal a .pdf was refused only after every question had been answered."""
    (tmp_path / "r.yaml").write_text(SERVE.format(pool=100000), encoding="utf-8")
    (tmp_path / "d").mkdir()
    r = _ask(tmp_path, "--answers", "r.yaml", "-o", target)
    assert r.returncode == 2
    assert r.stderr == f"gpuwise ask: {target}: {words}" + r.stderr.split(words, 1)[1]
    assert r.stderr.count("\n") == 1 and "run `gpuwise" not in r.stderr
    assert (tmp_path / "r.yaml").read_text(encoding="utf-8") == SERVE.format(pool=100000)


def test_ask_without_a_terminal_still_names_the_command_for_a_good_report(tmp_path: Path) -> None:
    (tmp_path / "r.yaml").write_text(SERVE.format(pool=100000), encoding="utf-8")
    r = _ask(tmp_path, "--answers", "r.yaml", "-o", "o.md")
    assert r.returncode == 2 and "run `gpuwise recommend r.yaml -o o.md`" in r.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_ask_in_a_terminal_refuses_a_pdf_before_the_first_question(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    from .test_ask_pty import _env

    child = pexpect.spawn(sys.executable, ["-m", "gpuwise", "ask", "--answers", "a.yaml", "-o", "r.pdf"],
                          cwd=str(tmp_path), env=_env(), encoding="utf-8", timeout=60, dimensions=(50, 220))
    try:
        child.expect(pexpect.EOF, timeout=30)
        shown = child.before
    finally:
        child.close(force=True)
    assert child.exitstatus == 2, shown
    assert "cannot tell the report format" in shown and "What do you want to do?" not in shown
