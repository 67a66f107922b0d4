"""Rows SJ01-SJ16 (serveblind18): Qwen3.6-35B-A3B at load on one H200 / B200 / B300, SGLang's Qwen3.6 cookbook.

Source: sgl-project/sglang docs_new/src/snippets/configs/qwen/qwen3.6-benchmarks.jsx at 4b7077be (pull request
#32959), its high-throughput cells of the 35B-A3B variant: BF16, FP8 and NVFP4, random 8192 in / 1024 out at
--random-range-ratio 1.0, concurrency 1024 over 2,048 prompts and 4096 over 8,192 (qwen3.6.jsx numPromptsByConc),
no speculative decoding. The file prints tokens_per_sec_per_gpu = output tok/s / tp x (isl + osl) / osl with tp = 1,
so a row's output tok/s is that figure x 1024 / 9216.

A figure copied wrong fails here, not in the accuracy report; the last test checks that the harness estimates every
row, each within the band its blind reading (validation README, 'Rows SJ01-SJ16') sets."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
SOURCE = ("https://github.com/sgl-project/sglang/blob/4b7077bebbea288f27e67679c8eaed69e3f3929d/"
          "docs_new/src/snippets/configs/qwen/qwen3.6-benchmarks.jsx")
GPU = {"h200": "h200-141gb-sxm", "b200": "b200", "b300": "b300"}
PRECISION = {"bf16": "bf16", "fp8": "fp8", "nvfp4": "fp4"}

# the file's cells: row -> (hw, quant, sglang_version, max_concurrency, ttft_ms, tpot_ms, tokens_per_sec_per_gpu)
CELLS = {
    "SJ01": ("h200", "bf16", "0.5.16", 1024, 460510, 27.79, 18708),
    "SJ02": ("h200", "bf16", "0.5.16", 4096, 1970028, 28.08, 18642),
    "SJ03": ("h200", "fp8", "0.5.16", 1024, 263654, 27.9, 30201),
    "SJ04": ("h200", "fp8", "0.5.16", 4096, 1206050, 28.22, 30217),
    "SJ05": ("b200", "bf16", "0.5.15", 1024, 206078, 22.45, 38134),
    "SJ06": ("b200", "bf16", "0.5.15", 4096, 934685, 22.47, 38729),
    "SJ07": ("b200", "fp8", "0.5.15", 1024, 166960, 24.3, 46963),
    "SJ08": ("b200", "fp8", "0.5.15", 4096, 757978, 24.73, 47242),
    "SJ09": ("b200", "nvfp4", "0.5.15", 1024, 154224, 26.07, 47846),
    "SJ10": ("b200", "nvfp4", "0.5.15", 4096, 737740, 26.64, 47654),
    "SJ11": ("b300", "bf16", "0.5.16", 1024, 140285, 33.17, 49190),
    "SJ12": ("b300", "bf16", "0.5.16", 4096, 707855, 33.54, 48944),
    "SJ13": ("b300", "fp8", "0.5.16", 1024, 112976, 34.69, 54080),
    "SJ14": ("b300", "fp8", "0.5.16", 4096, 628702, 34.83, 54488),
    "SJ15": ("b300", "nvfp4", "0.5.16", 1024, 123937, 39.39, 51550),
    "SJ16": ("b300", "nvfp4", "0.5.16", 4096, 645007, 39.84, 52068),
}
# blind ratios est / published (README): BF16 / FP8 0.93-0.99, NVFP4 1.25-1.26
BAND = {r: ((1.1, 1.4) if c[1] == "nvfp4" else (0.85, 1.1)) for r, c in CELLS.items()}


def _rows() -> dict[str, dict]:
    with (DATA / "serving_independent.csv").open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"].startswith("SJ")}


def test_the_rule_gives_every_high_throughput_cell_once():
    """Three GPUs x three formats x two concurrencies, no cell twice."""
    assert sorted(_rows()) == sorted(CELLS)
    assert len({(h, q, c) for h, q, _, c, *_ in CELLS.values()}) == 18 - 2  # H200 has no NVFP4 cell


@pytest.mark.parametrize("row_id", sorted(CELLS))
def test_a_row_keeps_the_cells_figures_and_conditions(row_id):
    row = _rows()[row_id]
    hw, quant, version, conc, ttft, tpot, per_gpu = CELLS[row_id]
    assert row["source"] == SOURCE
    assert (row["model"], row["precision"], row["gpu"], row["count"], row["framework"], row["tp"], row["pp"]) == (
        "qwen3.5-35b-a3b", PRECISION[quant], GPU[hw], "1", "sglang", "1", "1")
    assert (row["prompt_tokens"], row["output_tokens"], row["concurrency"], row["prompts"], row["fixed_lengths"]) == (
        "8192", "1024", str(conc), str(2 * conc), "1")
    assert row["framework_version"] == version
    # --mem-fraction-static 0.8 in the BF16 / FP8 cells' flags; the NVFP4 cells pass none (SGLang's default share)
    assert row["workload_options"] == ("" if quant == "nvfp4" else "memory_fraction=0.8")
    assert row["kv_precision"] == "" and row["ep"] == ""
    assert (float(row["ttft_ms"]), float(row["tpot_ms"])) == (ttft, tpot)
    assert float(row["output_tokens_per_s"]) == pytest.approx(per_gpu * 1024 / 9216, abs=0.006)


def test_the_derivation_on_one_cell_by_hand():
    """SJ07, B200 FP8 at 1024: 46,963 x 1024 / 9216 = 5,218.11 output tok/s; Little's law on the cell, 1024 clients
    ~ 5.096 requests/s x (166.96 s + 1023 x 24.3 ms) = 977."""
    row = _rows()["SJ07"]
    out = float(row["output_tokens_per_s"])
    assert out == pytest.approx(5218.11, abs=0.01)
    in_flight = out / 1024 * (float(row["ttft_ms"]) / 1e3 + 1023 * float(row["tpot_ms"]) / 1e3)
    assert in_flight == pytest.approx(977, abs=1)


def test_the_harness_estimates_every_row_within_its_band():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    cases = {c[0].split()[0]: c for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT) if c[0].startswith("SJ")}
    assert sorted(cases) == sorted(BAND)  # none refused, none without a figure
    for row_id, (label, est, published) in cases.items():
        low, high = BAND[row_id]
        assert low <= est / published <= high, label
