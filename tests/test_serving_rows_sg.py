"""Rows SG01-SG23 (serveblind23): serving at load from sources no row cited before.

SemiAnalysisAI/InferenceX pull request #1531 ('gpt-oss-fp4-mi355x: pin to v0.19 + switch to AITER-env-based recipe',
2026-05-20) prints 'Local numbers (single MI355x, v0.19.0 image, 3 runs each, median)' for gpt-oss-120b at TP 1,
ISL/OSL 1k/1k, concurrency 4-128: a 'dashboard' column (the recipe before) and a 'this PR' column. The rows take the
'this PR' column. The figure is InferenceX's dashboard metric, total (input + output) tok/s per GPU; at TP 1 the GPU
is the server, and with equal input and output means half of it is output. The metric was checked against a stored
InferenceX CI artifact of the same model on the same GPU (ATOM, run 21012127808: tput_per_gpu 11,737 / 17,577 and
output_tput_per_gpu 5,867 / 8,779 at concurrency 64 / 128, gminneci/mantile 1d3c259c), which puts this table's
10,573 / 16,067 among totals.

The branch's own files (InferenceX commit e658541b: .github/configs/amd-master.yaml, key gptoss-fp4-mi355x-vllm, and
benchmarks/single_node/gptoss_fp4_mi355x.sh) give the image (vLLM 0.19.0 ROCm), the checkpoint
(amd/gpt-oss-120b-w-mxfp4-a-fp8), the server flags and the client (10 x c prompts at --max-concurrency c).

SG07-SG22: the stored results of InferenceX's experimental/token_position_decode_slo sweeps (pull request #709, commit
5969d0ad): MiniMax-M2.5 FP8 at TP 8 with expert parallelism (SG07-SG14) and Qwen3.5-397B-A17B BF16 at TP 8 (SG15-SG22)
on 8 x H200, vLLM main of mid-February 2026, fixed 1,024 / 8,192 / 16,384-token prompts and 128 output tokens, closed
loops of 10 x c prompts at c. Each result file stores the requests, the token totals, the duration and the output
rate, copied below.

SG23: the same repository's experimental/single_node_decodeonly/README.md (commit 67f51232), the baseline column:
Qwen3-30B-A3B-FP8 on one H200 at TP 1, vllm bench serve random 32,768 / 100 at 10 over 20 prompts, 73.18 output tok/s.

The checks redo each row's arithmetic from the printed figures (copied here with their source), and the last test
checks that the harness estimates every row, within the band the blind reading set (validation README, 'Rows
SG01-SG06')."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
SOURCE = "https://github.com/SemiAnalysisAI/InferenceX/pull/1531"

# the pull request's table at TP 1, 1k/1k: concurrency -> ('dashboard', 'this PR') total tok/s per GPU
TABLE = {4: (1653, 1662), 8: (2668, 2787), 16: (4189, 4549), 32: (6275, 6785), 64: (8812, 10573),
         128: (13186, 16067)}
# InferenceX run 21012127808 (ATOM, gpt-oss-120b, one MI355X, TP 1, 1k/1k): concurrency -> (tput_per_gpu,
# output_tput_per_gpu), the check on which the table's metric rests
ATOM = {64: (11737, 5867), 128: (17577, 8779)}
# blind ratios est / published (README, 'Rows SG01-SG23'): 0.75 (SG05) to 0.95 (SG01); SG23 0.81
BAND = (0.70, 1.05)
# the second batch, blind: MiniMax-M2.5 1.46x (SG07) to 3.46x (SG12), Qwen3.5 2.22x (SG16) to 7.00x (SG20), all fast
BAND_SWEEP = (1.3, 7.5)
SWEEP = "https://github.com/SemiAnalysisAI/InferenceX/blob/5969d0ad2ddbf32b69e31340643e465705868b8e/"
# row -> (result file stem, ISL, concurrency, duration s, output tok/s as stored)
STORED = {
    "SG07": ("minimax_m25_vllm_tep8", 1024, 4, 24.19, 211.69),
    "SG08": ("minimax_m25_vllm_tep8", 1024, 16, 38.94, 525.94),
    "SG09": ("minimax_m25_vllm_tep8", 1024, 64, 61.33, 1335.84),
    "SG10": ("minimax_m25_vllm_tep8", 8192, 4, 35.84, 142.87),
    "SG11": ("minimax_m25_vllm_tep8", 8192, 16, 76.13, 269.01),
    "SG12": ("minimax_m25_vllm_tep8", 8192, 64, 324.83, 252.19),
    "SG13": ("minimax_m25_vllm_tep8", 16384, 4, 55.94, 91.52),
    "SG14": ("minimax_m25_vllm_tep8", 16384, 16, 132.06, 155.08),
    "SG15": ("qwen35_vllm_tp8", 1024, 4, 75.70, 67.64),
    "SG16": ("qwen35_vllm_tp8", 1024, 16, 59.85, 342.21),
    "SG17": ("qwen35_vllm_tp8", 1024, 64, 182.13, 449.78),
    "SG18": ("qwen35_vllm_tp8", 8192, 4, 101.65, 50.37),
    "SG19": ("qwen35_vllm_tp8", 8192, 16, 172.06, 119.03),
    "SG20": ("qwen35_vllm_tp8", 8192, 64, 971.19, 84.35),
    "SG21": ("qwen35_vllm_tp8", 16384, 4, 148.71, 34.43),
    "SG22": ("qwen35_vllm_tp8", 16384, 16, 495.17, 41.36),
}


def _rows() -> dict[str, dict]:
    with (DATA / "serving_independent.csv").open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"].startswith("SG")}


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows()) == [f"SG{i:02d}" for i in range(1, 24)]


@pytest.mark.parametrize("row_id", [f"SG{i:02d}" for i in range(1, 7)])
def test_a_row_is_its_cells_total_halved(row_id):
    row = _rows()[row_id]
    conc = int(row["concurrency"])
    assert row["source"] == SOURCE
    assert (row["model"], row["precision"], row["gpu"], row["count"], row["tp"]) == (
        "gpt-oss-120b", "fp4", "mi355x", "1", "1")
    assert (row["framework"], row["framework_version"]) == ("vllm", "0.19.0")
    # the branch's launcher (benchmarks/single_node/gptoss_fp4_mi355x.sh at e658541b): --max-num-seqs 256, the AITER
    # kernels, --gpu-memory-utilization 0.95, --no-enable-prefix-caching
    assert row["workload_options"] == "max_batch_size=256;rocm_aiter=true;prefix_cache=false;memory_fraction=0.95"
    assert "e658541befe4901d87f224ed02ee7dc4b528f2d3/benchmarks/single_node/gptoss_fp4_mi355x.sh" in row["notes"]
    # the launcher's 10 x c measured prompts, random lengths at the workflow's range ratio 0.8 (means 0.9 x 1,024)
    assert (row["prompt_tokens"], row["output_tokens"]) == ("922", "922") and int(row["prompts"]) == 10 * conc
    total = TABLE[conc][1]
    assert float(row["output_tokens_per_s"]) == pytest.approx(total / 2)
    assert f"{total:,}" in row["notes"] and f"{TABLE[conc][0]:,}" in row["notes"]


def test_the_tables_figures_are_totals_by_the_stored_artifact():
    """As output tok/s the pull request's vLLM figures would stand 1.8x above ATOM's on the same GPU and workload; as
    totals they stand 0.90-0.91 of ATOM's totals, an engine a little behind the other."""
    for conc, (total, output) in ATOM.items():
        ours = TABLE[conc][1]
        assert 0.85 <= ours / total <= 1.0
        assert ours / output > 1.8
        assert output / total == pytest.approx(0.5, abs=0.01)  # equal lengths: half of a total is output


@pytest.mark.parametrize("row_id", sorted(STORED))
def test_a_sweep_row_is_its_stored_results_rate(row_id):
    row = _rows()[row_id]
    stem, isl, conc, seconds, out = STORED[row_id]
    folder = "minimax-m2.5" if stem.startswith("minimax") else "qwen3.5"
    assert row["source"] == (f"{SWEEP}experimental/token_position_decode_slo/{folder}/results/"
                             f"{stem}_isl{isl}_osl128_conc{conc}.json")
    assert (int(row["prompt_tokens"]), int(row["output_tokens"]), int(row["concurrency"])) == (isl, 128, conc)
    assert int(row["prompts"]) == 10 * conc and row["fixed_lengths"] == "1"  # bmk script: 10 x c, fixed lengths
    assert (row["gpu"], row["count"], row["tp"], row["framework"]) == ("h200-141gb-sxm", "8", "8", "vllm")
    # the stored output rate is the run's output tokens over its duration
    assert float(row["output_tokens_per_s"]) == out
    assert 10 * conc * 128 / seconds == pytest.approx(out, rel=2e-3)
    if folder == "minimax-m2.5":  # --tensor-parallel-size 8 --enable-expert-parallel, the FP8 checkpoint
        assert (row["model"], row["precision"], row["ep"]) == ("minimax-m2", "fp8", "8")
    else:  # --tensor-parallel-size 8 --enable-prefix-caching, BF16
        assert (row["model"], row["precision"], row["ep"]) == ("qwen3.5-397b-a17b", "bf16", "")
        assert row["workload_options"] == "prefix_cache=true"


def test_sg23_is_the_decode_only_pages_serving_column():
    row = _rows()["SG23"]
    assert row["source"] == ("https://github.com/SemiAnalysisAI/InferenceX/blob/67f512326ca4ca6ff11ad43434ee8af61880d1d3/"
                             "experimental/single_node_decodeonly/README.md")
    assert (row["model"], row["precision"], row["gpu"], row["count"], row["tp"]) == (
        "qwen3-30b-a3b", "fp8", "h200-141gb-sxm", "1", "1")
    # --random-input-len 32768 --random-output-len 100 --max-concurrency 10 --num-prompts 20 (range ratio 0: fixed)
    lengths = (row["prompt_tokens"], row["output_tokens"], row["concurrency"], row["prompts"])
    assert lengths == ("32768", "100", "10", "20")
    assert row["fixed_lengths"] == "1" and float(row["output_tokens_per_s"]) == 73.18  # 'Output throughput (tok/s)'


def test_the_harness_estimates_every_row_within_the_blind_band():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    cases = {c[0].split()[0]: c for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT) if c[0].startswith("SG")}
    assert sorted(cases) == [f"SG{i:02d}" for i in range(1, 24)]  # none refused, none without a figure
    rows = _rows()
    for row_id, (label, est, published) in cases.items():
        assert published == float(rows[row_id]["output_tokens_per_s"]), label
        lo, hi = BAND if row_id in {f"SG0{i}" for i in range(1, 7)} | {"SG23"} else BAND_SWEEP
        assert lo <= est / published <= hi, label
