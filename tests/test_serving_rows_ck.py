"""Rows CK01-CK17 of validation/serving_independent.csv (the serveblind4 round): each one is a whole
``sglang.bench_serving`` printout of the SGLang cookbook (github.com/sgl-project/sgl-cookbook,
docs/autoregressive/{MiniMax/MiniMax-M2,MiniMax/MiniMax-M2.5,MiniMax/MiniMax-M2.7,Qwen/Qwen3-Coder,Ernie/Ernie4.5}.md),
and its figures must agree with one another as the printout gives them: the output throughput is the generated tokens
over the run's duration, the row's lengths are the run's totals over its prompts, and the closed loop ran 5 x its
concurrency prompts. A figure copied wrong (a digit, a swapped column) fails here, not in the accuracy report."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

ROWS = Path(__file__).parent / "data" / "validation" / "serving_independent.csv"
TOTALS = re.compile(r"\(([\d,]+) in / ([\d,]+) out over (\d+) prompts\)")
DURATION = re.compile(r"duration ([\d.]+) s")


def _ck_rows() -> list[dict]:
    with ROWS.open(newline="") as fh:
        return [r for r in csv.DictReader(fh) if r["id"].startswith("CK")]


def test_the_round_has_its_seventeen_rows():
    assert [r["id"] for r in _ck_rows()] == [f"CK{i:02d}" for i in range(1, 18)]


@pytest.mark.parametrize("row", _ck_rows(), ids=lambda r: r["id"])
def test_a_row_agrees_with_its_printout(row):
    got_totals, got_duration = TOTALS.search(row["notes"]), DURATION.search(row["notes"])
    assert got_totals and got_duration, row["id"]
    prompt_total, output_total = (int(x.replace(",", "")) for x in got_totals.groups()[:2])
    prompts, duration = int(got_totals.group(3)), float(got_duration.group(1))
    assert prompts == int(row["prompts"]) == 5 * int(row["concurrency"])
    assert int(row["prompt_tokens"]) == round(prompt_total / prompts)
    assert int(row["output_tokens"]) == round(output_total / prompts)
    # bench_serving's output throughput is the generated tokens over the duration, both printed rounded: e.g. CK03
    # (MiniMax-M2.5, 8 x B200, c=16) 40,805 / 48.43 s = 842.56 against the printed 842.49
    assert float(row["output_tokens_per_s"]) == pytest.approx(output_total / duration, rel=2e-3)


def test_the_b200_and_h100_runs_of_one_page_keep_their_own_releases():
    """The MiniMax-M2.5 page ran its B200 section on SGLang 0.5.8 and its H100 section on 0.5.9 ('sglang version'
    of each Test Environment); the rows keep each section's release, which selects the framework's constants."""
    by_id = {r["id"]: r for r in _ck_rows()}
    assert {by_id[i]["framework_version"] for i in ("CK03", "CK04", "CK05", "CK06")} == {"0.5.8"}
    assert {by_id[i]["framework_version"] for i in ("CK07", "CK08")} == {"0.5.9"}
    assert {by_id[i]["gpu"] for i in ("CK07", "CK08")} == {"h100-80gb-sxm"}
