"""Rows SE01-SE06 (serveblind21): serving at load read from vLLM / SGLang pull-request and issue printouts no row cited.

Each printout states the run's token totals and its duration or rates; the rows carry means read from them. The
checks below redo that arithmetic from the printed figures (copied here with their source), so a figure copied wrong
fails here, not in the accuracy report:

- SE01: AMD-AGI/Hyperloom issue #428, the Claw baseline report: output 462.52 tok/s, total 1,387.57 tok/s at
  2,048 in / 1,024 out (every request at its stated lengths: total = output x 3), 50 prompts at concurrency 10.
- SE02: sgl-project/sglang pull request #17309 (comment of 2026-01-19): 128 requests, 1,048,576 input / 131,072
  output tokens in 113.32 s, output 1,156.61 tok/s, input 9,252.92 tok/s.
- SE03: vllm-project/vllm pull request #34924, 'Before': 64 requests, 65,536 / 32,768 tokens in 36.56 s, output
  896.22 tok/s, total 2,688.66 tok/s.
- SE04: sgl-project/sglang pull request #18195, 'After': output 390.63, total 767.24 tok/s; 100 requests with
  50,561 prompt tokens (506 a request).
- SE05: vllm-project/vllm pull request #34206, 'Main': 1,000 requests, 226,657 / 300,000 tokens in 377.80 s, output
  794.08 tok/s, mean TPOT 19.00 ms, mean TTFT 324.19 ms.
- SE06: sgl-project/sglang pull request #6121, TP=4 baseline: 512 requests, 262,144 / 131,072 tokens in 64.81 s,
  input 4,044.97 and output 2,022.48 tok/s, mean TTFT 2,667.26 ms.

The last test checks that the harness estimates every row, each within the band its blind reading (validation
README, 'Rows SE01-SE06') sets."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"

# row -> (source, model, gpu, count, framework, tp, concurrency, prompts, output tok/s)
SOURCES = {
    "SE01": ("https://github.com/AMD-AGI/Hyperloom/issues/428", "qwen3.5-397b-a17b", "mi300x", 4, "vllm", 4, 10, 50,
             462.52),
    "SE02": ("https://github.com/sgl-project/sglang/pull/17309", "deepseek-r1", "b200", 4, "sglang", 4, 32, 128,
             1156.61),
    "SE03": ("https://github.com/vllm-project/vllm/pull/34924", "minimax-m2", "h100-80gb-sxm", 4, "vllm", 4, 8, 64,
             896.22),
    "SE04": ("https://github.com/sgl-project/sglang/pull/18195", "qwen3-next-80b-a3b", "h100-80gb-sxm", 2, "sglang", 2,
             8, 100, 390.63),
    "SE05": ("https://github.com/vllm-project/vllm/pull/34206", "deepseek-r1", "h200-141gb-sxm", 8, "vllm", 8, 16,
             1000, 794.08),
    "SE06": ("https://github.com/sgl-project/sglang/pull/6121", "qwen3-30b-a3b", "a40", 4, "sglang", 4, 128, 512,
             2022.48),
}
# printouts with their totals and duration: row -> (requests, input tokens, output tokens, seconds)
TOTALS = {
    "SE02": (128, 1048576, 131072, 113.32),
    "SE03": (64, 65536, 32768, 36.56),
    "SE05": (1000, 226657, 300000, 377.80),
    "SE06": (512, 262144, 131072, 64.81),
}
# blind ratios est / published (README, 'Rows SE01-SE06'): 0.53 (SE03) to 2.46 (SE04)
BAND = (0.45, 2.6)


def _rows() -> dict[str, dict]:
    with (DATA / "serving_independent.csv").open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"].startswith("SE")}


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows()) == [f"SE{i:02d}" for i in range(1, 7)]


@pytest.mark.parametrize("row_id", sorted(SOURCES))
def test_a_row_keeps_its_printouts_conditions_and_figure(row_id):
    row = _rows()[row_id]
    source, model, gpu, count, fw, tp, conc, prompts, out = SOURCES[row_id]
    assert (row["source"], row["model"], row["gpu"], row["framework"]) == (source, model, gpu, fw)
    assert (int(row["count"]), int(row["tp"])) == (count, tp)
    assert (int(row["concurrency"]), int(row["prompts"])) == (conc, prompts)
    assert float(row["output_tokens_per_s"]) == out


@pytest.mark.parametrize("row_id", sorted(TOTALS))
def test_a_row_keeps_its_printouts_totals(row_id):
    row = _rows()[row_id]
    n, tin, tout, seconds = TOTALS[row_id]
    # the row's lengths are the printout's token counts over its requests
    assert int(row["prompt_tokens"]) == round(tin / n) and int(row["output_tokens"]) == round(tout / n)
    # and its output rate the output tokens over the run
    assert pytest.approx(float(row["output_tokens_per_s"]), rel=1e-3) == tout / seconds


def test_the_printed_totals_agree_with_the_rows_lengths():
    rows = _rows()
    # a printed total (or input) rate is the row's output rate times (prompt + output) / output (or prompt / output)
    # when every request runs at the row's lengths: SE01 1,387.57 total, SE03 2,688.66 total, SE06 4,044.97 input
    for row_id, printed, total in (("SE01", 1387.57, True), ("SE03", 2688.66, True), ("SE06", 4044.97, False)):
        row = rows[row_id]
        p, o = int(row["prompt_tokens"]), int(row["output_tokens"])
        factor = (p + o) / o if total else p / o
        assert pytest.approx(printed, rel=1e-4) == float(row["output_tokens_per_s"]) * factor, row_id
    # SE04: 50,561 prompt tokens over 100 requests; the input rate is the total 767.24 less the output rate
    se04 = rows["SE04"]
    assert int(se04["prompt_tokens"]) == round(50561 / 100)
    seconds = 50561 / (767.24 - float(se04["output_tokens_per_s"]))
    # the run's output a request (~525) sits beside the row's 512, the uniform draw's mean (an assumption)
    assert abs(float(se04["output_tokens_per_s"]) * seconds / 100 - int(se04["output_tokens"])) < 15
    for row_id in ("SE01", "SE02", "SE03", "SE06"):
        assert rows[row_id]["fixed_lengths"] == "1", row_id  # every request at its stated lengths
    for row_id in ("SE04", "SE05"):
        assert rows[row_id]["fixed_lengths"] == "", row_id  # lengths that vary per request


def test_the_harness_estimates_every_se_row_within_the_blind_band():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    cases = {c[0].split()[0]: c for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT) if c[0].startswith("SE")}
    assert sorted(cases) == [f"SE{i:02d}" for i in range(1, 7)]  # none refused, none without a figure
    for row_id, (label, est, published) in cases.items():
        assert published == SOURCES[row_id][-1], label
        assert BAND[0] <= est / published <= BAND[1], label
