"""Dense NVFP4 GEMMs at decode batches on SM100 (knowledge/serving.yaml ``nvfp4_small_batch``;
gpuwise/estimators/serving/engine.py ``nvfp4_dense_rate``, step.py ``StepConsts.t_mem``): FlashInfer's mm_fp4, which
vLLM and SGLang run for a model's dense linear layers in NVFP4, streams its weights at ~2 TB/s at a few token rows,
not at the B200's 8 TB/s, so those layers' weights take four times their bandwidth time."""

from __future__ import annotations

import dataclasses

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def job_of(kb, **w):
    w.setdefault("task", "inference")
    return resolve(Requirements.model_validate({"workload": w}), kb)


def test_rate_is_the_sources(kb):
    """flashinfer-ai/flashinfer issue #1732: N x K x 0.5 bytes at 1.78 TB/s (M=1, N=K=8192, one B200), 2.0 TB/s
    with NVFP4's FP8 scale per 16 weights (4.5 / 4 = 1.125); vllm-project/vllm pull request #42235: N=7168 K=2048 at
    M=1, 7.59 TFLOP/s with CUTLASS, 2 x 7168 x 2048 / 7.59e12 = 3.87 us for 7168 x 2048 x 4.5 / 8 = 8.26 MB, 2.14 TB/s;
    TRT-LLM's 8.87 TFLOP/s, 2.50 TB/s. The constant, 2.1 TB/s with the scales, lies among them."""
    floor = kb.serving.nvfp4_small_batch
    flashinfer = 1.78e12 * 4.5 / 4
    cutlass = 7168 * 2048 * 4.5 / 8 / (2 * 7168 * 2048 / 7.59e12)
    trtllm = 7168 * 2048 * 4.5 / 8 / (2 * 7168 * 2048 / 8.87e12)
    assert flashinfer == pytest.approx(2.0e12, rel=0.01) and cutlass == pytest.approx(2.135e12, rel=0.01)
    assert trtllm == pytest.approx(2.495e12, rel=0.01)
    assert flashinfer <= floor.weight_tb_s * 1e12 <= trtllm
    assert floor.compute_capabilities == ["10.0"] and sorted(floor.frameworks) == ["sglang", "vllm"]


def test_sr01_step_by_hand(kb):
    """SR01 (Llama 3.3 70B NVFP4 on 4 x GB200, SGLang, TP 4): every decoder-layer weight is NVFP4, the head and the
    embeddings BF16 (formats.nvfp4 keeps_16bit). Each GPU holds a quarter of the layers' (params - 2 x 128,256 x
    8,192) x 4.5 / 8 bytes, ~9.6 GB, and streams it at 2.1 TB/s instead of the dense rate: the one-token step gains
    exactly 9.6 GB x (1 / 2.1 - 1 / rate) = ~3.4 ms."""
    gpu = kb.gpus["gb200"]
    job = job_of(kb, model="llama-3.1-70b", precision="fp4", framework="sglang", framework_version="0.5.12")
    s = SV.choose(job, gpu, 4)
    eng = s.engine
    assert eng.weight_format == "nvfp4" and eng.fp4_dense_bw == pytest.approx(2.1e12)
    shape = job.shape
    low = (shape.params - 2 * shape.vocab * shape.hidden) * 4.5 / 8
    assert eng.mbytes.low_dense == pytest.approx(low, rel=1e-9) and eng.mbytes.low_replicated == 0.0
    per_gpu = low / s.replica.layout.tp
    assert 9.0e9 < per_gpu < 10.0e9
    plain = dataclasses.replace(eng, fp4_dense_bw=0.0)
    one, one0 = (SV.step(job, e, s.replica, 1.0, 0.0, 1000.0, 0.0) for e in (eng, plain))
    extra = per_gpu * (1 / 2.1e12 - 1 / eng.bw_weights)
    assert one.gemm - one0.gemm == pytest.approx(extra, rel=1e-6)
    assert 3.0e-3 < extra < 4.0e-3


def test_where_the_rate_is_charged(kb):
    """Charged: NVFP4 served by vLLM or SGLang on compute capability 10.0 (B200, GB200). Not charged: TensorRT-LLM
    (its own FP4 GEMMs, not read), B300 (10.3, not timed), FP8 and BF16, gpt-oss's MXFP4."""
    def eng(gpu="b200", **w):
        w.setdefault("model", "llama-3.1-70b")
        w.setdefault("precision", "fp4")
        return SV.engine(job_of(kb, **w), kb.gpus[gpu])

    assert eng(framework="vllm").fp4_dense_bw > 0 and eng(framework="sglang", gpu="gb200").fp4_dense_bw > 0
    for e in (eng(framework="tensorrt-llm"), eng(framework="vllm", gpu="b300"), eng(framework="vllm", precision="fp8"),
              eng(framework="sglang", precision="bf16"), eng(framework="vllm", model="gpt-oss-120b")):
        assert e.fp4_dense_bw == 0.0


def test_checkpoint_kept_attention_streams_at_the_dense_rate(kb):
    """DeepSeek-R1's NVFP4 checkpoint keeps the attention inputs (q/kv down- and up-projections) and the router in
    BF16 (fp4_checkpoints); only the rest of the dense weights (output projections, the 3 dense MLPs, the shared
    experts) are read at the FP4 kernels' rate, and the routed experts at the fused-MoE kernel's."""
    job = job_of(kb, model="deepseek-r1", precision="fp4", framework="sglang")
    eng = SV.engine(job, kb.gpus["b200"])
    mb = eng.mbytes
    assert 0 < mb.low_dense < mb.dense_read and mb.low_replicated == 0.0
    shape = job.shape
    wo = shape.layers * shape.attn_output_params_per_layer()
    assert mb.low_dense > wo * 4.5 / 8


def test_the_rate_is_shown_where_the_step_is_explained(kb):
    """SR01's job on 4 x GB200: the TPOT and decode terms say the dense NVFP4 weights stream at 2.1 TB/s (the
    knowledge entry named) and carry the rate; the same job in FP8 says nothing of it."""
    from gpuwise import estimate

    w = {"task": "inference", "model": "llama-3.1-70b", "precision": "fp4", "framework": "sglang",
         "framework_version": "0.5.12", "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 1}
    g = estimate({"workload": w}, gpu="gb200", gpus=4).gpu
    terms = {t.name: t for t in g.terms}
    for name in ("tpot_s", "decode_tokens_per_s"):
        t = terms[name]
        assert "NVFP4 weights stream at 2.1 TB/s" in t.formula and "nvfp4_small_batch" in t.formula, name
        assert t.inputs["nvfp4_dense_bytes_per_s"] == pytest.approx(2.1e12)
    g8 = estimate({"workload": {**w, "precision": "fp8"}}, gpu="gb200", gpus=4).gpu
    t8 = {t.name: t for t in g8.terms}["tpot_s"]
    assert "NVFP4" not in t8.formula and "nvfp4_dense_bytes_per_s" not in t8.inputs
