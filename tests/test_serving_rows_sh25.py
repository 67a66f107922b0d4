"""Rows SH21-SH31 (serveblind25): serving at load from sources no row cited, scored blind.

SH22-SH31: the vLLM blog 'EAGLE3 Speculative Decoding on AMD Instinct GPUs' (2026-07-13), the No-spec bars of its
Figures 4 (Kimi-K2.5 MXFP4) and 5 (MiniMax-M2.5 FP8) on 4 x MI355X at TP 4, 1K/1K; each bar's printed label is output
tok/s per GPU, so a row is the label x 4 (DERIVED), InferenceX's client (10 x c prompts, range ratio 0.8: 922 / 922).

SH21: vLLM pull request #48983 (2026-07-17), the printout headed 'BASELINE (flags OFF) | --max-concurrency 32':
nvidia/Gemma-4-26B-A4B-NVFP4 on one RTX PRO 6000 Blackwell, TP 1, `vllm bench serve` random 1024/1024, 160 prompts at
--max-concurrency 32. The figures below are copied from that printout; the checks redo its arithmetic (tokens over the
duration; Little's law over fixed lengths) and that the harness estimates the row within the band the blind reading set
(validation README, 'Rows SH21..').
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from .validation_rows import rows_in

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
PR = "https://github.com/vllm-project/vllm/pull/48983"
# row -> (source, model, precision, gpu, GPUs, input tokens, generated tokens, prompts, concurrency, duration s,
#         output tok/s, mean TTFT ms, mean TPOT ms)
ROWS = {
    "SH21": (PR, "gemma-4-26b-a4b", "fp4", "rtx-pro-6000-blackwell", 1, 163840, 163840, 160, 32, 65.89, 2486.56,
             146.30, 12.73),
}
BLOG = "https://github.com/vllm-project/vllm-project.github.io/blob/c3a01c4a/_posts/2026-07-13-eagle-3-amd-instinct.md"
# row -> (model, precision, ep, concurrency, the No-spec bar's label in tok/s/GPU, framework_version)
BARS = {
    "SH22": ("minimax-m2", "fp8", "4", 4, 90, ""), "SH23": ("minimax-m2", "fp8", "4", 8, 163, ""),
    "SH24": ("minimax-m2", "fp8", "4", 16, 283, ""), "SH25": ("minimax-m2", "fp8", "4", 32, 485, ""),
    "SH26": ("minimax-m2", "fp8", "4", 64, 822, ""),
    "SH27": ("kimi-k2", "fp4", "", 4, 83, "0.19.0"), "SH28": ("kimi-k2", "fp4", "", 8, 142, "0.19.0"),
    "SH29": ("kimi-k2", "fp4", "", 16, 220, "0.19.0"), "SH30": ("kimi-k2", "fp4", "", 32, 342, "0.19.0"),
    "SH31": ("kimi-k2", "fp4", "", 64, 533, "0.19.0"),
}
# ratios est / published (README, 'Rows SH21-SH31'): SH21 0.66 (blind); SH22-SH31 blind 0.60-1.04, with the
# launcher's conditions entered 0.91-1.08
BAND = (0.55, 1.15)


def _rows() -> dict[str, dict]:
    return rows_in("serving_independent.csv", "SH", 21, 31)


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows()) == sorted(ROWS | BARS)


@pytest.mark.parametrize("row_id", sorted(BARS))
def test_a_blog_row_is_its_bar_times_the_gpus(row_id):
    row = _rows()[row_id]
    model, precision, ep, conc, per_gpu, version = BARS[row_id]
    assert row["source"] == BLOG
    stated = (row["model"], row["precision"], row["gpu"], row["count"], row["framework"], row["tp"], row["ep"])
    assert stated == (model, precision, "mi355x", "4", "vllm", "4", ep)
    assert float(row["output_tokens_per_s"]) == per_gpu * 4  # the label is per GPU, TP 4 on 4 GPUs
    assert (int(row["concurrency"]), int(row["prompts"])) == (conc, 10 * conc)  # InferenceX: 10 x c prompts
    # 1K/1K drawn at InferenceX's range ratio 0.8: each length from 0.8 x to 1 x, mean 0.9 x 1024
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (round(0.9 * 1024), round(0.9 * 1024))
    assert row["fixed_lengths"] == "" and row["framework_version"] == version
    # entered after the blind scoring from InferenceX's launcher for the model, GPU and engine (the post's harness):
    # VLLM_ROCM_USE_AITER=1, --kv-cache-dtype fp8, --no-enable-prefix-caching and its memory share (and, for Kimi,
    # --max-num-seqs 512)
    options = ("rocm_aiter=true;prefix_cache=false;memory_fraction=0.95" if model == "minimax-m2"
               else "max_batch_size=512;rocm_aiter=true;prefix_cache=false;memory_fraction=0.85")
    assert (row["kv_precision"], row["workload_options"]) == ("fp8", options)


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
    assert sorted(cases) == sorted(ROWS | BARS)  # none refused, none without a figure
    rows = _rows()
    for row_id, (label, est, published) in cases.items():
        assert published == float(rows[row_id]["output_tokens_per_s"]), label
        assert BAND[0] <= est / published <= BAND[1], label
