"""Rows SH21.. (serveblind25): serving at load from sources no row cited, scored blind.

SH21: vLLM pull request #48983 (2026-07-17), the printout headed 'BASELINE (flags OFF) | --max-concurrency 32':
nvidia/Gemma-4-26B-A4B-NVFP4 on one RTX PRO 6000 Blackwell, TP 1, `vllm bench serve` random 1024/1024, 160 prompts at
--max-concurrency 32. The figures below are copied from that printout; the checks redo its arithmetic (tokens over the
duration; Little's law over fixed lengths) and that the harness estimates the row within the band the blind reading set
(validation README, 'Rows SH21..').
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
PR = "https://github.com/vllm-project/vllm/pull/48983"
# row -> (source, model, precision, gpu, GPUs, input tokens, generated tokens, prompts, concurrency, duration s,
#         output tok/s, mean TTFT ms, mean TPOT ms)
ROWS = {
    "SH21": (PR, "gemma-4-26b-a4b", "fp4", "rtx-pro-6000-blackwell", 1, 163840, 163840, 160, 32, 65.89, 2486.56,
             146.30, 12.73),
}
# blind ratio est / published (README): 0.66 (SH21)
BAND = (0.55, 0.80)


def _rows() -> dict[str, dict]:
    with (DATA / "serving_independent.csv").open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh)
                if r["id"][:2] == "SH" and r["id"][2:].isdigit() and int(r["id"][2:]) >= 21}


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows()) == sorted(ROWS)


@pytest.mark.parametrize("row_id", sorted(ROWS))
def test_a_row_is_its_printout(row_id):
    row = _rows()[row_id]
    src, model, precision, gpu, n, tin, tout, prompts, conc, seconds, tput, ttft, tpot = ROWS[row_id]
    assert row["source"] == src
    stated = (row["model"], row["precision"], row["gpu"], row["count"], row["framework"], row["tp"])
    assert stated == (model, precision, gpu, str(n), "vllm", str(n))
    assert (int(row["prompts"]), int(row["concurrency"]), row["fixed_lengths"]) == (prompts, conc, "1")
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (tin // prompts, tout // prompts)
    assert float(row["output_tokens_per_s"]) == tput
    assert (float(row["ttft_ms"]), float(row["tpot_ms"])) == (ttft, tpot)
    # the printed rate is the generated tokens over the printed duration
    assert tout / seconds == pytest.approx(tput, rel=2e-3)
    # Little's law over fixed lengths: c x OSL / (TTFT + (OSL - 1) x TPOT), within 2%
    osl = tout // prompts
    assert conc * osl / ((ttft + (osl - 1) * tpot) / 1e3) == pytest.approx(tput, rel=0.02)


def test_the_harness_estimates_every_row_within_the_blind_band():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    ours = set(_rows())
    cases = {c[0].split()[0]: c for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT) if c[0].split()[0] in ours}
    assert sorted(cases) == sorted(ROWS)  # none refused, none without a figure
    for row_id, (label, est, published) in cases.items():
        assert published == ROWS[row_id][10], label
        assert BAND[0] <= est / published <= BAND[1], label
