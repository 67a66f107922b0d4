"""vLLM's and SGLang's compute efficiency on one Ampere chip, sm80 (A100, A800, A30): knowledge/serving.yaml
``architecture_overrides.sm80`` of both frameworks (branch a100prefill65; validation README, 'a100prefill65').

The frameworks' 0.50 was read on an H100. The same benchmark, on the same CUDA, puts the two parts' BF16 GEMM
ceilings at different shares of their dense peaks: stas00/ml-engineering compute/accelerator/README.md, 'Maximum
Achievable Matmul FLOPS comparison table' (mamf-finder.py, torch.matmul in BF16 over a scan of large shapes, CUDA
12.1): A100 SXM 267.9 TFLOPS of 312, H100 SXM 792.1 of 989. The same step on GEMMs nearer their peak:
0.50 x (267.9 / 312) / (792.1 / 989) = 0.536. vLLM and SGLang run an unquantized BF16 linear through torch (F.linear,
cuBLAS), the call the table times; TensorRT-LLM's engine picks its own GEMM tactics and keeps its 0.55."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV

A100_MAMF, A100_PEAK = 267.9, 312.0  # the table's own 'Theory' column
H100_MAMF, H100_PEAK = 792.1, 989.0


def test_the_figure_is_the_tables_ratio(kb):
    by_hand = 0.50 * (A100_MAMF / A100_PEAK) / (H100_MAMF / H100_PEAK)
    assert by_hand == pytest.approx(0.5360, abs=1e-4)
    for fw in ("vllm", "sglang"):
        assert kb.framework(fw).compute_efficiency.value == 0.50  # the Hopper reading it scales
        assert kb.framework(fw).architecture_overrides["sm80"].compute_efficiency == pytest.approx(by_hand, abs=5e-4)
    assert kb.gpus["a100-80gb-sxm"].peaks.bf16 == A100_PEAK
    assert kb.gpus["h100-80gb-sxm"].peaks.bf16 == pytest.approx(H100_PEAK, abs=0.5)  # gpus.yaml: 989.5


def _engine(kb, accuracy, gpu: str, framework: str):
    version = {"vllm": "0.11.0", "sglang": "0.4.6.post2"}.get(framework)
    job = accuracy.serving_job(kb, "llama-3.2-3b", "bf16", framework, 977, 83, 1, tp=1, framework_version=version)
    return job, SV.choose(job, kb.gpus[gpu], 1)


@pytest.mark.parametrize(("gpu", "framework", "eff"), [
    ("a100-80gb-sxm", "vllm", 0.536),
    ("a100-80gb-sxm", "sglang", 0.536),
    ("a100-40gb-pcie", "vllm", 0.536),     # compute capability 8.0: the SXM part's share (an assumption)
    ("a800-80gb-sxm", "sglang", 0.536),
    ("a30", "vllm", 0.536),
    ("a10", "vllm", 0.50),                 # sm86 (GA102): not timed in the table, the framework's figure
    ("h100-80gb-sxm", "sglang", 0.50),     # the part the figure was read on
    ("a100-80gb-sxm", "tensorrt-llm", 0.55),  # its own GEMM tactics: not scaled
])
def test_which_engines_take_it(kb, accuracy, gpu, framework, eff):
    _, s = _engine(kb, accuracy, gpu, framework)
    assert s.engine.compute_eff == pytest.approx(eff)
    peak = kb.gpus[gpu].peaks.bf16 * 1e12
    assert s.engine.peak_gemm == pytest.approx(peak * eff)  # the dense GEMMs' FLOP/s


def test_rw18_prompt_takes_the_ratio_on_its_math(kb, accuracy, monkeypatch):
    """RW18's 977-token prompt of Llama-3.2-3B under SGLang on one A100: 45.8 ms before (serveblind44's reading, 137
    TFLOP/s); the weights' stream and the fixed times stay, the math (the dense GEMMs and attention, both at the
    efficiency) runs 0.50 / 0.536 as long: by hand, the dense part alone is 2 x 3.21e9 matmul parameters (the tied
    head counted once) x 977 tokens at 0.50 x 312 TFLOP/s = 40.2 ms, 2.7 ms saved."""
    job, s = _engine(kb, accuracy, "a100-80gb-sxm", "sglang")
    after = SV.prefill_seconds(job, s.engine, s.replica, 977, 977 / 2)
    monkeypatch.delitem(kb.framework("sglang").architecture_overrides, "sm80")
    job0, s0 = _engine(kb, accuracy, "a100-80gb-sxm", "sglang")
    before = SV.prefill_seconds(job0, s0.engine, s0.replica, 977, 977 / 2)
    assert s0.engine.compute_eff == 0.50
    assert before == pytest.approx(45.8e-3, abs=0.3e-3)
    params = job.shape.matmul_params_active
    assert params == pytest.approx(3.21e9, rel=0.01)
    dense = 2 * params * 977 / (0.50 * A100_PEAK * 1e12)
    assert dense == pytest.approx(40.2e-3, abs=0.2e-3)
    saved = before - after
    assert saved >= dense * (1 - 0.50 / 0.536)  # attention's share adds a little on top
    assert saved == pytest.approx(dense * (1 - 0.50 / 0.536), rel=0.05)
