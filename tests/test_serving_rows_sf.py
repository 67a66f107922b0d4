"""Rows SF01-SF16 and RS01-RS04 (serveblind22): serving at load and at 1 request/s from sources no row cited before.

- SF01-SF09, RS01-RS04: GPUStack's performance-lab page for GLM-5.2 on 8 x H200 (gpustack/gpustack
  docs/performance-lab/glm-5.2/h200.md at 8e96bd27): vLLM 0.24.0 and SGLang 0.5.14 behind GPUStack's guidellm runner,
  closed loops of 512 over 1,000 requests and 1 request/s runs; each printout gives the requests, the token totals,
  the duration and the output and total tok/s.
- SF10-SF15: SGLang's GLM-5.2 cookbook high-throughput cells (no speculative decoding), 8,192 / 1,024 at 1,024 in
  flight; tokens_per_sec_per_gpu is the server's output tok/s over its GPUs (sgl-project/sglang pull requests
  #29557, #29674), so a row's output tok/s is that figure x the GPUs.
- SF16: vLLM issue #40838, gpt-oss-120b on H200 at TP 4, concurrency 300, the v0.16.0 row (15.4667 requests/s,
  16,055.10 output and 32,416.16 total tok/s).

The checks redo each row's arithmetic from the printed figures (copied here with their source), and the last test
checks that the harness estimates every row, within the band the blind reading set (validation README, 'Rows
SF01-SF16')."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
GS = "https://github.com/gpustack/gpustack/blob/8e96bd27f024d1f38962f50f396505ebe2971c3b/docs/performance-lab/glm-5.2/h200.md"

# GPUStack printouts: row -> (requests, input tokens, output tokens, seconds, output tok/s, total tok/s)
PRINTED = {
    "SF01": (1000, 8204000, 1024000, 1684.76, 608.31, 5481.90),
    "SF02": (1000, 8204000, 1024000, 1425.58, 719.90, 6487.53),
    "SF03": (1000, 8204000, 1024000, 1334.85, 778.01, 7011.17),
    "SF04": (1000, 8204000, 1024000, 688.60, 1527.01, 13760.98),
    "SF05": (1000, 8204000, 1024000, 539.39, 1944.77, 17525.76),
    "SF06": (1000, 1036000, 128000, 88.45, 1451.20, 13196.90),
    "SF07": (1000, 328145, 270248, 99.70, 2728.23, 6040.94),
    "SF08": (1000, 1036000, 128000, 65.34, 2009.80, 18276.60),
    "SF09": (1000, 328145, 270248, 211.07, 1285.09, 2845.48),
    "RS01": (100, 3201200, 10000, 308.44, 32.74, 10513.68),
    "RS02": (200, 202400, 400000, 265.81, 1506.10, 2268.18),
    "RS03": (100, 3201200, 10000, 135.63, 82.32, 26433.15),
    "RS04": (200, 202400, 400000, 266.01, 1505.53, 2267.33),
}
# SGLang cookbook cells: row -> (source, GPU, GPUs, tokens_per_sec_per_gpu)
COOKBOOK = {
    "SF10": ("sglang/blob/00081a00", "h200-141gb-sxm", 8, 184),
    "SF11": ("sglang/blob/00081a00", "b200", 8, 449),
    "SF12": ("sglang/blob/00081a00", "gb300", 4, 641),
    "SF13": ("sglang/pull/28460", "b300", 8, 388),
    "SF14": ("sglang/pull/28460", "b300", 8, 168),
    "SF15": ("sglang/pull/29674", "b200", 8, 589.4),
}
# blind ratios est / published (README, 'Rows SF01-SF16'): 0.77 (SF11) to 1.53 (SF06); with glm-5.2 listed for
# SGLang's fused small kernels (serving.yaml fused_kernel_models, this branch) 0.82 (SF11) to 1.53
BAND = (0.70, 1.65)
RATE_BAND = (0.55, 1.5)  # RS03 0.65, RS01 1.26 blind


def _rows(name: str, prefix: str) -> dict[str, dict]:
    with (DATA / name).open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"].startswith(prefix)}


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows("serving_independent.csv", "SF")) == [f"SF{i:02d}" for i in range(1, 17)]
    assert sorted(_rows("serving_rate.csv", "RS")) == [f"RS{i:02d}" for i in range(1, 5)]


@pytest.mark.parametrize("row_id", sorted(PRINTED))
def test_a_gpustack_row_keeps_its_printouts_totals(row_id):
    rows = _rows("serving_independent.csv", "SF") | _rows("serving_rate.csv", "RS")
    row = rows[row_id]
    n, tin, tout, seconds, out, total = PRINTED[row_id]
    assert row["source"] == GS and row["model"] == "glm-5.2" and (row["gpu"], row["count"]) == ("h200-141gb-sxm", "8")
    assert int(row["prompts"]) == n
    # the row's lengths are the printout's token totals over its requests
    assert int(row["prompt_tokens"]) == round(tin / n) and int(row["output_tokens"]) == round(tout / n)
    # its output rate is the printed one; guidellm takes its rates over its own measuring window, inside the run's
    # printed duration: never below the tokens over the duration, at most 12% above (RS03: 82.32 against 73.73)
    assert float(row["output_tokens_per_s"]) == out
    assert tout / seconds <= out * 1.001 and out <= 1.12 * tout / seconds
    # the printed total and output rates stand as the run's total and output tokens (same window)
    assert pytest.approx(total / out, rel=1e-3) == (tin + tout) / tout
    if row_id.startswith("SF"):
        assert row["concurrency"] == "512"  # 'Maximum request concurrency: 512'
    else:  # served requests/s at a 1/s offer
        assert row["request_rate"] == "1"
        assert pytest.approx(float(row["served_requests_per_s"]), abs=0.005) == n / seconds


@pytest.mark.parametrize("row_id", sorted(COOKBOOK))
def test_a_cookbook_row_is_its_cells_per_gpu_figure_times_the_gpus(row_id):
    row = _rows("serving_independent.csv", "SF")[row_id]
    src, gpu, count, per_gpu = COOKBOOK[row_id]
    assert src in row["source"] and (row["gpu"], int(row["count"])) == (gpu, count)
    assert float(row["output_tokens_per_s"]) == pytest.approx(per_gpu * count)
    assert (row["prompt_tokens"], row["output_tokens"], row["concurrency"]) == ("8192", "1024", "1024")
    assert row["fixed_lengths"] == "1"  # --random-range-ratio 1.0


def test_the_cookbook_cells_hold_their_concurrency_by_littles_law():
    """1,024 in flight = requests/s x (TTFT + 1,023 TPOT): with the cells' P50s (the means are not printed) the
    product is 0.75-0.9 of 1,024 (H200 184 a GPU, TTFT 450,276 ms, TPOT 86.71 ms; B200 449, 178,249, 48.28;
    GB300 641 x 4, 250,727, 68.55; B200 NVFP4 589.4, 130,174, 67.12)."""
    rows = _rows("serving_independent.csv", "SF")
    for row_id, ttft, tpot in (("SF10", 450276, 86.71), ("SF11", 178249, 48.28), ("SF12", 250727, 68.55),
                               ("SF15", 130174, 67.12)):
        rps = float(rows[row_id]["output_tokens_per_s"]) / 1024
        assert 0.7 * 1024 <= rps * (ttft + 1023 * tpot) / 1000 <= 1024, row_id


def test_sf16_lengths_are_the_tables_rates_over_its_requests():
    row = _rows("serving_independent.csv", "SF")["SF16"]
    rps, out, total = 15.4667, 16055.10, 32416.16
    assert int(row["output_tokens"]) == round(out / rps) and int(row["prompt_tokens"]) == round((total - out) / rps)
    assert (row["model"], row["precision"], row["tp"], row["concurrency"]) == ("gpt-oss-120b", "fp4", "4", "300")


def test_the_harness_estimates_every_row_within_the_blind_band():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    cases = {c[0].split()[0]: c for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT) if c[0].startswith("SF")}
    assert sorted(cases) == [f"SF{i:02d}" for i in range(1, 17)]  # none refused, none without a figure
    rows = _rows("serving_independent.csv", "SF")
    for row_id, (label, est, published) in cases.items():
        assert published == float(rows[row_id]["output_tokens_per_s"]), label
        assert BAND[0] <= est / published <= BAND[1], label


def test_glm_5_2_takes_sglangs_fused_small_kernel_figure_from_0_5_11():
    """GLM-5.2 runs GlmMoeDsaForCausalLM, the architecture SGLang lists for its fused decode kernels from 0.5.11 on
    (serving.yaml fused_kernel_models): 2 us a counted kernel there, the framework's 6 us before, as glm-5."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge
    from gpuwise.estimators import serving as SV

    kb = knowledge.load()

    def floor(model: str, version: str) -> float:
        job = accuracy.serving_job(kb, model, "fp8", "sglang", 1000, 1000, tp=8, framework_version=version)
        return SV.choose(job, kb.gpus["h200-141gb-sxm"], 8).engine.kernel_floor

    for version, us in (("0.5.9", 6.0), ("0.5.11", 2.0), ("0.5.14", 2.0)):
        assert floor("glm-5.2", version) == pytest.approx(us * 1e-6) == floor("glm-5", version), version
