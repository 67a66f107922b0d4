"""``rocm_aiter``: AMD's AITER kernels switched on in vLLM's ROCm build (VLLM_ROCM_USE_AITER=1). vllm/envs.py keeps
the switch off by default; off, a block-scaled FP8 checkpoint (DeepSeek, Qwen3 FP8) runs on the Triton block-scale
GEMM and fused MoE at BF16's speed (serving.yaml vllm amd ``block_fp8_speed_factor`` 0.5, vLLM issue #31475); on,
vLLM dispatches the block-scale GEMM to aiter's w8a8 block-scale kernel (fp8_utils.dispatch_w8a8_blockscale_func,
tested by test_w8a8_blockscale_dispatch) and the MoE to aiter's fused MoE, the FP8 path's speed. Figures by hand
from the catalog's bandwidth and the ROCm build's 0.70 share."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def _job(kb, model: str, precision: str, aiter: bool | None, framework: str = "vllm", tp: int = 8,
         task: str = "inference"):
    w = {"task": task, "model": model, "precision": precision, "framework": framework,
         "prompt_tokens": 1024, "output_tokens": 1024, "parallelism": {"tp": tp, "pp": 1}}
    if aiter is not None:
        w["rocm_aiter"] = aiter
    return resolve(Requirements.model_validate({"workload": w}), kb)


def test_aiter_on_streams_a_block_fp8_checkpoint_at_the_fp8_share(kb):
    """DeepSeek-R1's block-FP8 checkpoint on 8 x MI355X (8.0 TB/s): default and rocm_aiter=false stream its weights
    at 0.70 x 0.5 x 8.0 = 2.80 TB/s; rocm_aiter=true at 0.70 x 8.0 = 5.60 TB/s. On an MI300X (5.3 TB/s) 1.855 and
    3.71 TB/s."""
    for gpu, tbs in (("mi355x", 8.0), ("mi300x", 5.3)):
        g = kb.gpus[gpu]
        assert g.memory.bandwidth_gb_s == pytest.approx(tbs * 1000)
        off = SV.engine(_job(kb, "deepseek-r1", "fp8", None), g, "vllm")
        said_off = SV.engine(_job(kb, "deepseek-r1", "fp8", False), g, "vllm")
        on = SV.engine(_job(kb, "deepseek-r1", "fp8", True), g, "vllm")
        assert off.bw_weights == pytest.approx(tbs * 1e12 * 0.70 * 0.5)
        assert said_off.bw_weights == off.bw_weights
        assert on.bw_weights == pytest.approx(tbs * 1e12 * 0.70)


def test_aiter_changes_nothing_where_no_slower_block_kernel_is_named(kb):
    """Llama-3.1-70B's FP8 checkpoint is per-channel (hipBLASLt, the FP8 speed either way), SGLang's ROCm build names
    no block-scale factor, and vLLM's CUDA build has no AITER: the switch moves none of them."""
    mi300x, h200 = kb.gpus["mi300x"], kb.gpus["h200-141gb-sxm"]
    for model, fw, gpu in (("llama-3.1-70b", "vllm", mi300x), ("deepseek-r1", "sglang", mi300x),
                           ("deepseek-r1", "vllm", h200)):
        a = SV.engine(_job(kb, model, "fp8", None, fw), gpu, fw)
        b = SV.engine(_job(kb, model, "fp8", True, fw), gpu, fw)
        assert (a.bw_weights, a.bw_experts, a.peak_gemm) == (b.bw_weights, b.bw_experts, b.peak_gemm)


def test_a_training_workload_refuses_it(kb):
    """An inference-only setting, like the other serving knobs (SERVING_ONLY)."""
    with pytest.raises(ValueError, match="rocm_aiter"):
        _job(kb, "llama-3.1-8b", "bf16", True, tp=1, task="pretrain")


def test_the_rows_that_ran_with_aiter(kb, accuracy):
    """serving_independent.csv rows whose runs switched AITER on (each row's notes): ROCm/ATOM pull request #409's
    vLLM+ATOM DeepSeek-R1 FP8 on 8 x MI355X (AM01-AM06, scored blind at -38.7 / -52.4 / -53.5 / -40.1 / -56.8 /
    -35.2%, three beyond 2x) and vLLM's recipe for R1 on 8 x MI300X (P04, VLLM_ROCM_USE_AITER=1: -8.5%). With the
    switch every AM row is within 40% (still slow: the step's small-kernel time is the CUDA build's count of kernels,
    not aiter's fused ones) and P04 within 45% (+42.9%; its TPOT +31.5% -> -15.9%)."""
    got = {c[0].split()[0]: c[1] / c[2] - 1 for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT)
           if c[0].startswith(("AM", "P04"))}
    assert len(got) == 7
    assert all(-0.40 <= e < 0 for k, e in got.items() if k.startswith("AM")), got
    assert abs(got["P04"]) <= 0.45


def _said(kb, model: str, precision: str, aiter: bool | None, gpus: list[str] | None = None) -> list:
    w = {"task": "inference", "model": model, "precision": precision, "framework": "vllm",
         "prompt_tokens": 1024, "output_tokens": 1024}
    if aiter is not None:
        w["rocm_aiter"] = aiter
    req = {"workload": w, **({"constraints": {"gpus": gpus}} if gpus else {})}
    job = resolve(Requirements.model_validate(req), kb)
    return [a for a in job.assumptions if a.field == "workload.rocm_aiter"]


def test_not_stating_it_is_listed_as_an_assumption_where_it_moves_the_cost(kb):
    """DeepSeek-R1's block-FP8 checkpoint on vLLM with an AMD GPU named in the constraints: AITER off is assumed and
    said, with the build's factor (0.5); not where the switch is stated, the checkpoint is per-channel (Llama 3.1
    70B), the precision is BF16, the constraints name only NVIDIA GPUs or none (the whole catalog: the brief answer
    keeps to two screens)."""
    said = _said(kb, "deepseek-r1", "fp8", None, ["MI355X"])
    assert len(said) == 1 and said[0].value is False
    assert said[0].values == {"framework": "vLLM", "factor": "0.5"}
    assert "VLLM_ROCM_USE_AITER=1" in said[0].reason and "0.5 times the FP8 speed" in said[0].reason
    assert _said(kb, "deepseek-r1", "fp8", None, ["MI300X", "H200"])
    for args in (("deepseek-r1", "fp8", True), ("deepseek-r1", "fp8", False), ("llama-3.1-70b", "fp8", None),
                 ("deepseek-r1", "bf16", None)):
        assert _said(kb, *args, ["MI300X"]) == [], args
    assert _said(kb, "deepseek-r1", "fp8", None, ["H200", "B200"]) == []
    assert _said(kb, "deepseek-r1", "fp8", None) == []
