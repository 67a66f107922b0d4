"""Rows SK01-SK28 (serveblind16): serving at load from two SGLang cookbook files and a vLLM recipe no earlier row cited.

SK01-SK22: sgl-project/sglang pull request #32323 (dougyster, merged; 'fill Qwen3.5 speed benchmarks ... 0.5.16'),
the high-throughput cells it wrote into docs_new/src/snippets/configs/qwen/qwen3.5-benchmarks.jsx: random 8192 in /
1024 out at --max-concurrency 1024, SGLang 0.5.16, no speculative decoding. The file prints tokens_per_sec_per_gpu
and defines it as output tok/s / (tp x nodes) x (isl + osl) / osl, so a row's output tok/s is that figure x tp x
1024 / 9216. The served tp is the cell's (qwen3.5.jsx at 00a49ea2: --tp 8 for 397B on H200, --tp 4 on B200,
--tp 2 on B300, none (one GPU) for 35B-A3B, 27B and 9B).

SK23-SK27: docs_new/src/snippets/configs/MiniMaxAI/minimax-m2.7-benchmarks.jsx at sgl-project/sglang 05751c8d, its
MI300X cells (SGLang 0.5.13.post1, tp = ep = 2 / 4 / 8, FP8 KV cache), random 1000/1000; there
tokens_per_sec_per_gpu = output tok/s / (tp x nodes), so output tok/s = that figure x tp.

SK28: vllm-project/recipes NVIDIA/Nemotron-3-Nano-30B-A3B.md at 699ed44f, its vllm bench serve printout of the FP8
model on one H200 (vLLM 0.12.0, FP8 KV cache, 1024/1024 at --max-concurrency 1024 over 2,048 prompts).

A figure copied wrong fails here, not in the accuracy report; the last test checks that the accuracy harness
estimates every row and keeps its blind reading where the validation README records it."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
QWEN_SOURCE = "https://github.com/sgl-project/sglang/pull/32323"
MINIMAX_SOURCE = ("https://github.com/sgl-project/sglang/blob/05751c8d9a98afafd220257440358bae0017c342/"
                  "docs_new/src/snippets/configs/MiniMaxAI/minimax-m2.7-benchmarks.jsx")

# qwen3.5-benchmarks.jsx, high-throughput, max_concurrency 1024: row -> (hw, variant, quant, served tp,
# tokens_per_sec_per_gpu, ttft_ms, tpot_ms)
QWEN = {
    "SK01": ("h100", "9b", "bf16", 1, 20379, 403316, 29.02),
    "SK02": ("h200", "9b", "bf16", 1, 25256, 290575, 45.39),
    "SK03": ("h200", "27b", "bf16", 1, 6380, 1400465, 39.1),
    "SK04": ("h200", "27b", "fp8", 1, 9712, 915087, 35.15),
    "SK05": ("h200", "35b", "bf16", 1, 18996, 453328, 27.62),
    "SK06": ("h200", "35b", "fp8", 1, 35770, 195793, 42.93),
    "SK07": ("h200", "397b", "bf16", 8, 1975, 540099, 33.5),
    "SK08": ("h200", "397b", "fp8", 8, 3340, 270545, 62.74),
    "SK09": ("b200", "9b", "bf16", 1, 45150, 156800, 33.34),
    "SK10": ("b200", "27b", "bf16", 1, 12335, 714034, 30.91),
    "SK11": ("b200", "27b", "fp8", 1, 16623, 525882, 28.91),
    "SK12": ("b200", "35b", "bf16", 1, 39275, 200042, 22.08),
    "SK13": ("b200", "35b", "fp8", 1, 47846, 163938, 24.49),
    "SK14": ("b200", "397b", "fp4", 4, 9339, 219990, 23.23),
    "SK15": ("b200", "397b", "fp8", 4, 6371, 327151, 27.35),
    "SK16": ("b300", "9b", "bf16", 1, 47147, 113592, 50.2),
    "SK17": ("b300", "27b", "bf16", 1, 14053, 584145, 46.76),
    "SK18": ("b300", "27b", "fp8", 1, 18131, 445654, 42.79),
    "SK19": ("b300", "35b", "bf16", 1, 48837, 141478, 33.38),
    "SK20": ("b300", "35b", "fp8", 1, 54011, 113104, 34.69),
    "SK21": ("b300", "397b", "fp4", 2, 12096, 332198, 30.81),
    "SK22": ("b300", "397b", "fp8", 2, 5138, 888809, 19.61),
}
MODEL = {"9b": "qwen3.5-9b", "27b": "qwen3.5-27b", "35b": "qwen3.5-35b-a3b", "397b": "qwen3.5-397b-a17b"}
GPU = {"h100": "h100-80gb-sxm", "h200": "h200-141gb-sxm", "b200": "b200", "b300": "b300"}

# minimax-m2.7-benchmarks.jsx, hw mi300x: row -> (tp = ep, max_concurrency, num_prompts, tokens_per_sec_per_gpu,
# ttft_ms, tpot_ms)
MINIMAX = {
    "SK23": (2, 16, 256, 243, 167, 31.80),
    "SK24": (4, 64, 512, 351, 419, 42.48),
    "SK25": (4, 256, 1024, 809, 337, 71.72),
    "SK26": (8, 1024, 2048, 538, 3547, 239.18),
    "SK27": (8, 4096, 4096, 1043, 18251, 431.16),
}

VLLM_SOURCE = ("https://github.com/vllm-project/recipes/blob/699ed44f454b092f82de845858ed000d4673e61d/"
               "NVIDIA/Nemotron-3-Nano-30B-A3B.md")


def _rows() -> dict[str, dict]:
    with (DATA / "serving_independent.csv").open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"].startswith("SK")}


def test_the_rule_gives_every_catalogued_high_throughput_cell_once():
    """Every high-throughput cell of a catalogued variant at concurrency 1024 (H100 has only 9B's), and every
    MI300X MiniMax-M2.7 point at concurrency 16 or more."""
    rows = _rows()
    assert sorted(rows) == sorted(QWEN) + sorted(MINIMAX) + ["SK28"]
    cells = {(q[0], q[1], q[2]) for q in QWEN.values()}
    assert len(cells) == len(QWEN) == 22
    for hw in ("h200", "b200", "b300"):  # 9B BF16, 27B and 35B-A3B in BF16 and FP8, two 397B checkpoints
        assert len([c for c in cells if c[0] == hw]) == 7


@pytest.mark.parametrize("row_id", sorted(QWEN))
def test_a_qwen_row_keeps_the_files_figure_and_the_cells_conditions(row_id):
    row = _rows()[row_id]
    hw, variant, quant, tp, per_gpu, ttft, tpot = QWEN[row_id]
    assert row["source"] == QWEN_SOURCE
    assert (row["model"], row["precision"], row["framework"], row["framework_version"]) == (
        MODEL[variant], quant, "sglang", "0.5.16")
    assert (row["gpu"], row["count"], row["tp"], row["pp"]) == (GPU[hw], str(tp), str(tp), "1")
    assert row["ep"] == ("8" if (hw, variant, quant) == ("h200", "397b", "fp8") else "")  # --tp 8 --ep 8
    # random 8192/1024 at --random-range-ratio 1.0: every request the same lengths
    assert (row["prompt_tokens"], row["output_tokens"], row["concurrency"], row["fixed_lengths"]) == (
        "8192", "1024", "1024", "1")
    assert row["prompts"] == "2048"  # 2 x the concurrency (ASSUMPTION in the row's notes)
    # tokens_per_sec_per_gpu = output / tp x (8192 + 1024) / 1024: 9 x the output a GPU
    assert float(row["output_tokens_per_s"]) == pytest.approx(per_gpu * tp / 9, abs=0.05)
    assert (float(row["ttft_ms"]), float(row["tpot_ms"])) == (ttft, tpot)
    # every recipe passes --mem-fraction-static 0.8, the B200 NVFP4 one 0.85 (branch memfrac34)
    share = "0.85" if (hw, quant) == ("b200", "fp4") else "0.8"
    if quant == "fp4":  # the NVFP4 cells: --kv-cache-dtype fp8_e4m3 --max-running-requests 128 --disable-radix-cache
        assert (row["kv_precision"], row["workload_options"]) == (
            "fp8", f"max_batch_size=128;prefix_cache=false;memory_fraction={share}")
    elif row_id in ("SK06", "SK08"):  # 35B-A3B and 397B FP8 on H200 pass --mamba-ssm-dtype bfloat16 (hybridknobs36)
        assert (row["kv_precision"], row["workload_options"]) == (
            "", f"memory_fraction={share};recurrent_state_dtype=bfloat16")
        assert "--mamba-ssm-dtype bfloat16" in row["notes"]
    else:
        assert (row["kv_precision"], row["workload_options"]) == ("", f"memory_fraction={share}")
        assert "mamba-ssm-dtype" not in row["notes"]


@pytest.mark.parametrize("row_id", sorted(MINIMAX))
def test_a_minimax_row_keeps_the_files_figure_and_the_cells_conditions(row_id):
    row = _rows()[row_id]
    tp, conc, prompts, per_gpu, ttft, tpot = MINIMAX[row_id]
    assert row["source"] == MINIMAX_SOURCE
    assert (row["model"], row["precision"], row["framework"], row["framework_version"]) == (
        "minimax-m2", "fp8", "sglang", "0.5.13.post1")  # models.yaml lists minimax-m2.7 as an alias
    assert (row["gpu"], row["count"], row["tp"], row["ep"], row["kv_precision"]) == (
        "mi300x", str(tp), str(tp), str(tp), "fp8")
    assert (int(row["concurrency"]), int(row["prompts"])) == (conc, prompts)
    # bench_serving's default range ratio: each length drawn up to 1000, mean ~500
    assert (row["prompt_tokens"], row["output_tokens"], row["fixed_lengths"]) == ("500", "500", "")
    assert float(row["output_tokens_per_s"]) == per_gpu * tp
    assert (float(row["ttft_ms"]), float(row["tpot_ms"])) == (ttft, tpot)


def test_the_vllm_row_keeps_the_printout_and_the_recipes_conditions():
    row = _rows()["SK28"]
    assert row["source"] == VLLM_SOURCE
    assert (row["model"], row["precision"], row["gpu"], row["count"], row["framework"], row["framework_version"]) == (
        "nvidia-nemotron-3-nano-30b-a3b", "fp8", "h200-141gb-sxm", "1", "vllm", "0.12.0")
    assert (row["tp"], row["kv_precision"], row["concurrency"], row["prompts"], row["fixed_lengths"]) == (
        "1", "fp8", "1024", "2048", "1")
    # the printout: 2,097,155 input / 2,097,152 generated tokens over 2,048 requests in 132.49 s
    assert (row["prompt_tokens"], row["output_tokens"]) == ("1024", "1024") and 2_097_152 / 2048 == 1024
    assert float(row["output_tokens_per_s"]) == pytest.approx(2_097_152 / 132.49, rel=1e-3)  # 15,828.30 printed
    assert (float(row["tpot_ms"]), float(row["ttft_ms"])) == (59.45, 4490.58)


def test_the_harness_estimates_every_row_within_the_blind_band():
    """Blind (README section 'Rows SK01-SK28'): the Qwen3.5 rows read -31.2% (SK20) to +87.8% (SK22), the
    MiniMax-M2.7 rows +5.8% (SK23) to +86.9% (SK26), the vLLM row SK28 -18.3%; none beyond 2x. A change that moves
    a row out of the band has to be read against that section first."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    cases = {c[0].split()[0]: c for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT) if c[0].startswith("SK")}
    assert sorted(cases) == sorted(QWEN) + sorted(MINIMAX) + ["SK28"]  # none refused, none without a figure
    for label, est, published in cases.values():
        assert est > 0, label
        assert 0.6 <= est / published <= 1.95, label
