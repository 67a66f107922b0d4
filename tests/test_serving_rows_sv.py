"""Rows SV01-SV19 (serveblind17): serving at load on vLLM and ROCm from two sources no earlier row cited.

SV01-SV16: ROCm/vllm docs/dev-docker/README.md at b309ea79 (the March 2025 edition, image rocm/vllm-dev:main with
vLLM 0.7.3), 8 x MI300X at TP 8, amd/Llama-3.1-70B / 405B-Instruct-FP8-KV (FP8 weights and KV cache). SV01-SV08 are
its throughput table (benchmark_throughput.py, --max-num-seqs = --num-prompts: every request queued at once); SV09-
SV16 its latency table at batch 64 and 128 (benchmark_latency.py: output tok/s = batch x 2,048 / latency).

SV17-SV19: vllm-project/recipes models/mistralai/Ministral-3-14B-Instruct-2512.yaml as added at 9f929278, its MI300X
table: Ministral 3 3B / 8B / 14B (FP8) on one MI300X, vllm bench serve random 1024/1024 at --max-concurrency 32 over
100 prompts, VLLM_ROCM_USE_AITER=1.

A figure copied wrong fails here, not in the accuracy report; the last test checks that the harness estimates every
row, each within the band its blind reading (validation README, 'Rows SV01-SV19') sets."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
ROCM = "https://github.com/ROCm/vllm/blob/b309ea79418c6fc9058a6b2dec312375d3c75753/docs/dev-docker/README.md"
MINISTRAL = ("https://github.com/vllm-project/recipes/blob/9f9292744c2cae0f61c1541a81c3dd6898774150/"
             "models/mistralai/Ministral-3-14B-Instruct-2512.yaml")

# the README's throughput table: row -> (model, input, output, num prompts = max num seqs, 'Throughput (tokens/s)')
THROUGHPUT = {
    "SV01": ("70b", 128, 2048, 3200, 15919.0),
    "SV02": ("70b", 128, 4096, 1500, 12053.3),
    "SV03": ("70b", 500, 2000, 2000, 13089.0),
    "SV04": ("70b", 2048, 2048, 1500, 8352.4),
    "SV05": ("405b", 128, 2048, 1500, 4219.7),
    "SV06": ("405b", 128, 4096, 1500, 3328.7),
    "SV07": ("405b", 500, 2000, 2000, 3109.3),
    "SV08": ("405b", 2048, 2048, 500, 2121.7),
}
# the README's latency table, batch 64 and 128: row -> (model, batch, input, 'MI300X Latency (sec)'); output 2,048
LATENCY = {
    "SV09": ("70b", 64, 128, 33.666),
    "SV10": ("70b", 128, 128, 48.466),
    "SV11": ("70b", 64, 2048, 40.200),
    "SV12": ("70b", 128, 2048, 62.420),
    "SV13": ("405b", 64, 128, 82.688),
    "SV14": ("405b", 128, 128, 115.980),
    "SV15": ("405b", 64, 2048, 105.400),
    "SV16": ("405b", 128, 2048, 162.503),
}
# the recipe's MI300X table: row -> (variant, output tok/s, mean TTFT ms, mean TPOT ms, workload options)
MINISTRAL_ROWS = {
    "SV17": ("3b", 3842.0, 288.0, 6.42, "rocm_aiter=true"),
    "SV18": ("8b", 2468.0, 1117.0, 9.48, "rocm_aiter=true;prefill_chunk_tokens=8192"),
    "SV19": ("14b", 1940.79, 1228.72, 12.22, "rocm_aiter=true;prefill_chunk_tokens=8192"),
}
# blind ratios est / published (README): the README cells 1.04-1.41, Ministral 1.63-1.77
BAND = {**{r: (0.85, 1.5) for r in [*THROUGHPUT, *LATENCY]}, **{r: (1.1, 1.9) for r in MINISTRAL_ROWS}}


def _rows() -> dict[str, dict]:
    with (DATA / "serving_independent.csv").open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"].startswith("SV")}


def test_the_rule_gives_every_cell_once():
    """Every throughput cell (two models x four length pairs), every latency cell at batch 64 or 128 (two models x
    two length pairs x two batches) and every Ministral variant."""
    assert sorted(_rows()) == sorted([*THROUGHPUT, *LATENCY, *MINISTRAL_ROWS])
    assert len({(m, i, o) for m, i, o, _, _ in THROUGHPUT.values()}) == 8
    assert len({(m, b, i) for m, b, i, _ in LATENCY.values()}) == 8


@pytest.mark.parametrize("row_id", sorted([*THROUGHPUT, *LATENCY]))
def test_a_rocm_readme_row_keeps_the_tables_figure_and_conditions(row_id):
    row = _rows()[row_id]
    assert row["source"] == ROCM
    assert (row["precision"], row["gpu"], row["count"], row["framework"], row["tp"], row["pp"]) == (
        "fp8", "mi300x", "8", "vllm", "8", "1")
    assert (row["kv_precision"], row["framework_version"]) == ("fp8", "0.7.3")  # -FP8-KV, the image's vLLM
    if row_id in THROUGHPUT:
        model, isl, osl, prompts, published = THROUGHPUT[row_id]
        assert (row["concurrency"], row["prompts"], row["workload_options"]) == (
            "max", str(prompts), f"max_batch_size={prompts}")
        assert "benchmark_throughput" in row["metric"]
        assert float(row["output_tokens_per_s"]) == published
    else:
        model, batch, isl, seconds = LATENCY[row_id]
        osl = 2048
        assert row["concurrency"] == str(batch) and row["metric"].startswith("benchmark_latency")
        # batch x output / latency: 70B at batch 128, 128/2048: 128 x 2048 / 48.466 = 5,408.8
        assert float(row["output_tokens_per_s"]) == pytest.approx(batch * osl / seconds, abs=0.06)
    assert (row["model"], row["prompt_tokens"], row["output_tokens"]) == (f"llama-3.1-{model}", str(isl), str(osl))


def test_the_latency_arithmetic_on_one_cell_by_hand():
    assert float(_rows()["SV10"]["output_tokens_per_s"]) == pytest.approx(5408.8, abs=0.1)  # 262,144 / 48.466 s


@pytest.mark.parametrize("row_id", sorted(MINISTRAL_ROWS))
def test_a_ministral_row_keeps_the_recipes_figures_and_conditions(row_id):
    row = _rows()[row_id]
    variant, out, ttft, tpot, options = MINISTRAL_ROWS[row_id]
    assert row["source"] == MINISTRAL
    assert (row["model"], row["precision"], row["gpu"], row["count"], row["framework"], row["tp"]) == (
        f"ministral-3-{variant}", "fp8", "mi300x", "1", "vllm", "1")
    assert (row["prompt_tokens"], row["output_tokens"], row["concurrency"], row["prompts"], row["fixed_lengths"]) == (
        "1024", "1024", "32", "100", "1")
    assert (float(row["output_tokens_per_s"]), float(row["ttft_ms"]), float(row["tpot_ms"])) == (out, ttft, tpot)
    assert row["workload_options"] == options and row["framework_version"] == ""  # ':latest', release unstated


def test_the_14b_printout_is_consistent_with_its_row():
    """The 14B printout: 102,400 generated tokens in 52.76 s."""
    assert float(_rows()["SV19"]["output_tokens_per_s"]) == pytest.approx(102_400 / 52.76, rel=1e-3)


def test_the_harness_estimates_every_row_within_its_band():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    cases = {c[0].split()[0]: c for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT) if c[0].startswith("SV")}
    assert sorted(cases) == sorted(BAND)  # none refused, none without a figure
    for row_id, (label, est, published) in cases.items():
        low, high = BAND[row_id]
        assert low <= est / published <= high, label
