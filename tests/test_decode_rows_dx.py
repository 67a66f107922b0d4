"""Rows DX01-DX13 of validation/decode_independent.csv (the decodeblind8 round, one DGX Spark) and the GB10 entry they
need. Each figure must agree with what its source prints: llama.cpp's benches/dgx-spark.md (ggml-org/llama.cpp,
commit 4c7e9893, build 2f68ce7cf (6918)) gives llama-bench tg32 from an empty context and at depth 32,768; LMSYS's
review (lm-sys/lm-sys.github.io blog/2025-10-13-nvidia-dgx-spark.md) gives SGLang's batch-1 decode; NVIDIA/dgx-spark-
playbooks issue #79 and spark-arena/recipe-registry issue #17 give vLLM's. A figure copied wrong fails here, not in the
accuracy report."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from gpuwise.estimators.serving.engine import _engine, memory_kind
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

ROWS = Path(__file__).parent / "data" / "validation" / "decode_independent.csv"

# benches/dgx-spark.md, llama-bench tables: (row, depth) -> tg32 t/s
BENCHES = {"DX01": (0, 84.10), "DX02": (0, 59.02), "DX03": (0, 60.92), "DX04": (0, 29.30), "DX05": (0, 78.97),
           "DX06": (32768, 59.85), "DX07": (32768, 41.35), "DX08": (32768, 30.80)}


def _dx_rows() -> dict[str, dict]:
    with ROWS.open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"].startswith("DX")}


def test_the_round_has_its_thirteen_rows_all_on_one_gb10():
    rows = _dx_rows()
    assert sorted(rows) == [f"DX{i:02d}" for i in range(1, 14)]
    assert {(r["gpu"], r["count"]) for r in rows.values()} == {("gb10", "1")}


@pytest.mark.parametrize("row_id", sorted(BENCHES))
def test_a_llama_bench_row_keeps_the_benches_file_figure_build_and_depth(row_id):
    row, (depth, tg32) = _dx_rows()[row_id], BENCHES[row_id]
    assert float(row["decode_tok_s"]) == tg32
    assert (row["framework"], row["framework_version"]) == ("llama.cpp", "6918")
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (depth, 32)


def test_the_serving_engine_rows_keep_their_sources_figures():
    rows = _dx_rows()
    assert [float(rows[i]["decode_tok_s"]) for i in ("DX09", "DX10")] == [20.5, 2.7]  # LMSYS: SGLang, batch 1
    assert float(rows["DX11"]["decode_tok_s"]) == pytest.approx((4.0 + 4.2) / 2)  # #79: '~4.0-4.2 tok/s'
    assert float(rows["DX12"]["decode_tok_s"]) == pytest.approx((33 + 34) / 2)  # #79: 'steady-states 33-34 tok/s'
    assert float(rows["DX13"]["decode_tok_s"]) == 59.5  # spark-arena #17: 59.5 from vLLM's TPOT
    assert {rows[i]["framework_version"] for i in ("DX11", "DX12")} == {"0.15.1"}  # vLLM 0.15.1+befbc472


def test_dx13_carries_the_arena_recipe_it_reproduced():
    """Corrected after scoring: spark-arena/recipe-registry's gpt-oss-120b recipe (experimental-recipes/eugr-vllm/
    openai-gpt-oss-120b-vllm.yaml) quantizes attention and head to MXFP4 at load (--mxfp4-layers moe,qkv,o,lm_head),
    keeps the KV cache in FP8, and the arena measures with llama-benchy pp2048 / tg128
    (benchmarking/spark-arena-v2.yaml); the checkpoint's BF16 attention (fp4_checkpoints) would need 5.0 GB a token,
    297 GB/s at 59.5 t/s, above the GB10's 273."""
    row = _dx_rows()["DX13"]
    assert (row["weight_format"], row["kv_precision"]) == ("mxfp4", "fp8")
    assert (row["prompt_tokens"], row["output_tokens"]) == ("2048", "128")
    assert 5.0e9 * 59.5 > 273e9


def test_gb10_is_the_dgx_spark_datasheet_part(kb):
    assert kb.gpu("DGX Spark").id == "gb10" and kb.gpu("GB10").id == "gb10"
    g = kb.gpus["gb10"]
    # NVIDIA's product page: 128 GB LPDDR5x at 273 GB/s, 1 PFLOP FP4 with sparsity (500 dense), 6,144 CUDA cores
    assert (g.memory.gb, g.memory.bandwidth_gb_s) == (128, 273)
    assert g.peaks.fp4 == 1000 / 2 and g.peaks.sparse_halved
    assert g.peaks.sms == 6144 // 128
    assert g.compute_capability == "12.1" and memory_kind(g) == "other"


def test_llama_cpps_share_of_the_gb10_memory_is_below_what_a_read_kernel_measures(kb):
    """gpuwise streams llama.cpp's weights on the GB10 at the framework's share of 273 GB/s (0.80: LPDDR5x is
    neither HBM nor GDDR, so no memory override applies). antirez/ds4 issue #773 (Aug 2026) measured a saturating
    read kernel on a DGX Spark at 231-234 GB/s: the share must not promise more than that."""
    w = {"task": "inference", "model": "gpt-oss-20b", "precision": "fp4", "framework": "llama.cpp",
         "framework_version": "6918", "prompt_tokens": 1, "output_tokens": 32}
    eng = _engine(resolve(Requirements.model_validate({"workload": w}), kb), kb.gpus["gb10"], "llama.cpp", None)
    assert eng.bw_weights == pytest.approx(0.80 * 273e9)
    assert eng.bw_weights < 231e9
