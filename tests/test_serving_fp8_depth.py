"""Dense W8A8 FP8 GEMMs on Hopper by reduction depth (knowledge/serving.yaml ``fp8_large_batch``; serving
support.fp8_depth / depth_rate, step.StepConsts): a GEMM of kb = K / 128 blocks runs at kb / (kb + 5.64) of an
infinitely deep one's rate, and TensorRT-LLM's compute efficiency, read on Llama 3.1 8B at TP 1, prices another
model's dense GEMMs times their depth share over the 8B's. Hand figures at RT33's conditions (Llama 2 70B FP8, one
H200 a copy, TensorRT-LLM; MLPerf Inference v5.0 Offline, validation README 'Rows RT33-RT40')."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.engine import block_gemms
from gpuwise.estimators.serving.step import consts
from gpuwise.estimators.serving.support import depth_rate
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

# deepseek-ai/DeepGEMM README.md at 55ab91f, 'Normal GEMMs for dense models' (H800 SXM5), the M = 4,096 rows with at
# least 32 column tiles: (N, K, TFLOPS)
DEEPGEMM_M4096 = ((24576, 1536, 990), (32768, 512, 590), (7168, 16384, 1358), (4096, 7168, 1304), (7168, 2048, 1025))


def job_of(kb, **w):
    w.setdefault("task", "inference")
    return resolve(Requirements.model_validate({"workload": w}), kb)


def _share(kb_blocks: float, fixed: float) -> float:
    return kb_blocks / (kb_blocks + fixed)


def test_the_fixed_cost_reproduces_the_table_between_depths(kb):
    """The rate of each row over the deepest one's (K = 16,384, 128 blocks) as the depth share gives it: within 3% of
    the table for every row (K = 512: (4 / 9.64) / (128 / 133.64) = 0.433 against 590 / 1,358 = 0.434)."""
    fixed = kb.serving.fp8_large_batch.fixed_k_blocks
    assert fixed == 5.64
    deep = _share(16384 / 128, fixed)
    for _n, k, tflops in DEEPGEMM_M4096:
        assert _share(k / 128, fixed) / deep == pytest.approx(tflops / 1358, rel=0.03), k


def test_llama2_70b_over_the_8b_by_hand(kb):
    """Llama 2 70B's GEMMs on one GPU: q/k/v 10,240 x 8,192, o 8,192 x 8,192, gate/up 57,344 x 8,192 (64 blocks
    deep, share 64 / 69.64 = 0.91901), down 8,192 x 28,672 (224 blocks, 0.97544): 855.64 M multiply-adds a layer in
    916.25 M share-weighted, 0.93385. Llama 3.1 8B's: 6,144 / 4,096 / 28,672 x 4,096 (32 blocks, 0.85016) and
    4,096 x 14,336 (112, 0.95206): 218.10 M in 249.15 M, 0.87538. Ratio 1.0668. At TP 8 the 70B's o and down are
    1,024 and 3,584 deep on each GPU (8 and 28 blocks): 0.9788 of the 8B's."""
    fixed = 5.64
    d70 = depth_rate(block_gemms(job_of(kb, model="llama-2-70b", precision="fp8").shape), fixed, 1)
    d8 = depth_rate(block_gemms(job_of(kb, model="llama-3.1-8b", precision="fp8").shape), fixed, 1)
    assert d70 == pytest.approx(0.93385, rel=2e-4) and d8 == pytest.approx(0.87538, rel=2e-4)
    assert d70 / d8 == pytest.approx(1.0668, rel=2e-4)
    d70_tp8 = depth_rate(block_gemms(job_of(kb, model="llama-2-70b", precision="fp8").shape), fixed, 8)
    assert d70_tp8 / d8 == pytest.approx(0.9788, rel=1e-3)


def test_rt33_dense_rate(kb):
    """RT33's copy (Llama 2 70B FP8 on one H200, TensorRT-LLM): 0.55 x 1,979 TFLOP/s = 1,088.45, x 1.0668 =
    1,161.2 TFLOP/s for the dense GEMMs; the engine's own rate (the routed experts', where a model has them) stays."""
    job = job_of(kb, model="llama-2-70b", precision="fp8", framework="tensorrt-llm",
                 parallelism={"tp": 1, "pp": 1})
    s = SV.choose(job, kb.gpus["h200-141gb-sxm"], 8)
    assert s.engine.peak_gemm == pytest.approx(0.55 * 1979e12)
    assert consts(job, s.engine, s.replica).peak_dense == pytest.approx(0.55 * 1979e12 * 1.0668, rel=2e-4)


@pytest.mark.parametrize(("model", "precision", "framework", "gpu"), [
    ("llama-2-70b", "fp8", "vllm", "h200-141gb-sxm"),  # another framework keeps its efficiency as read
    ("llama-2-70b", "fp4", "tensorrt-llm", "b200"),  # Blackwell NVFP4: nvfp4_large_batch
    ("llama-2-70b", "fp8", "tensorrt-llm", "b200"),  # Blackwell FP8: not timed here
    ("llama-2-70b", "bf16", "tensorrt-llm", "h200-141gb-sxm"),  # 16-bit GEMMs
    ("deepseek-r1", "fp8", "tensorrt-llm", "h200-141gb-sxm"),  # a block-scaled checkpoint: its own rates
])
def test_only_where_read(kb, model, precision, framework, gpu):
    job = job_of(kb, model=model, precision=precision, framework=framework)
    assert SV.choose(job, kb.gpus[gpu], 8).engine.fp8_depth == ()


def test_the_8b_it_was_read_on_keeps_the_efficiency(kb):
    """Llama 3.1 8B FP8 at TP 1 on an H100 (the reading behind TensorRT-LLM's 0.55): ratio 1, the rate unchanged."""
    job = job_of(kb, model="llama-3.1-8b", precision="fp8", framework="tensorrt-llm", parallelism={"tp": 1, "pp": 1})
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 1)
    assert s.engine.fp8_depth != ()
    assert consts(job, s.engine, s.replica).peak_dense == pytest.approx(s.engine.peak_gemm, rel=1e-12)


def test_an_overlay_naming_no_catalog_model_refused(tmp_path):
    """``read_on_model`` names a catalog id (serving_names): a misspelt one would price every TensorRT-LLM Hopper FP8
    job against no model, so it is refused as a misspelt ``models`` entry is."""
    from .clirun import gpuwise as cli

    (tmp_path / "r.yaml").write_text(
        "workload: {task: inference, model: llama-2-70b, framework: tensorrt-llm, precision: fp8, prompt_tokens: 222, "
        "output_tokens: 292, concurrent_requests: 64}\n", encoding="utf-8")
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "serving.yaml").write_text(
        "fp8_large_batch:\n  architectures: [hopper]\n  frameworks: [tensorrt-llm]\n  fixed_k_blocks: 5.64\n"
        "  read_on_model: Llama-3.1-8B-x\n  as_of: '2025-03'\n  source: ours\n", encoding="utf-8")
    r = cli("estimate", "r.yaml", "--gpu", "h200", "--gpus", "1", "--knowledge", "kb", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip().startswith("gpuwise: kb/serving.yaml: fp8_large_batch.read_on_model: unknown model "
                                       "'Llama-3.1-8B-x'")
