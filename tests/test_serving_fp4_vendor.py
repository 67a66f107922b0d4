"""FP4 on AMD Instinct is OCP MXFP4, not NVIDIA's NVFP4 (serving.yaml `vendor_formats` of vLLM's and SGLang's fp4).

AMD's FP4 checkpoints for the MI350/MI355 are AMD-Quark exports with 'Weight quantization: Static OCP MXFP4'
(huggingface.co/amd/Llama-3.1-405B-Instruct-MXFP4-Preview model card), whose vLLM path came upstream in
vllm-project/vllm pull request #25135. MXFP4 stores 32 E2M1 values per 8-bit scale, 4.25 bits a weight (OCP MX
spec v1.0); NVFP4 16 values per FP8 scale, 4.5 bits (NVIDIA's NVFP4 blog). Llama 3.1 405B in MXFP4 on one
288 GB MI355X then holds ~16% more weight bytes' worth of KV cache than in NVFP4, and the row of that pull
request (tests/data/validation Q05: 793 output tok/s at concurrency 64, 1k/1k) moved from -26% to -9%.
"""

from __future__ import annotations

import pytest

from gpuwise import knowledge
from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.engine import model_bytes, quant_formats
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _job(kb, framework: str = "vllm"):
    w = {"task": "inference", "model": "llama-3.1-405b", "precision": "fp4", "framework": framework,
         "prompt_tokens": 1022, "output_tokens": 1024, "concurrent_requests": 64}
    return resolve(Requirements.model_validate({"workload": w}), kb)


@pytest.mark.parametrize("framework", ["vllm", "sglang"])
def test_fp4_weights_are_mxfp4_on_amd_and_nvfp4_on_nvidia(kb, framework):
    job = _job(kb, framework)
    assert SV.engine(job, kb.gpus["mi355x"], framework).weight_format == "mxfp4"
    assert SV.engine(job, kb.gpus["b200"], framework).weight_format == "nvfp4"


def test_405b_weights_in_mxfp4_against_nvfp4_by_hand(kb):
    """Llama 3.1 405B: 126 layers of hidden 16,384, 128 query and 8 KV heads of 128, MLP 53,248, untied
    vocabulary 128,256 (config.json). Linear weights per layer: attention 16,384 x (16,384 + 2 x 1,024) +
    16,384 x 16,384 = 5.70e8, MLP 3 x 16,384 x 53,248 = 2.617e9; x 126 = 4.0165e11 linear weights. Between the
    two formats only their bytes change: 4.0165e11 x (4.5 - 4.25) / 8 = 12.55 GB less in MXFP4 (the embeddings
    and head, and the norms, are the same bytes in both)."""
    job = _job(kb)
    qf = quant_formats(kb)
    mx, nv = model_bytes(job.shape, "mxfp4", qf), model_bytes(job.shape, "nvfp4", qf)
    linear = 126 * (16384 * (16384 + 2 * 1024) + 16384 * 16384 + 3 * 16384 * 53248)
    assert linear == pytest.approx(4.0165e11, rel=1e-4)
    assert nv.total - mx.total == pytest.approx(linear * (4.5 - 4.25) / 8, rel=0.01)
    assert mx.linear_bytes_per_param == pytest.approx(4.25 / 8)


def test_the_mi355x_copy_holds_more_sequences_in_mxfp4(kb):
    """One 288 GB MI355X: 405B at 4.25 bits leaves 12.55 GB more for the KV cache than at 4.5 bits. A sequence
    holds 126 layers x 8 KV heads x 128 x 2 x 2 B = 516,096 B a token over the tokens vLLM holds at admission
    (kv_reserve 'current': the prompt and half the output, 1,022 + 512 = 1,534): 0.79 GB, so ~16 more fit."""
    job = _job(kb)
    gpu = kb.gpus["mi355x"]
    mx = SV.choose(job, gpu, 1)
    nv = SV.choose(job, gpu, 1, weight_format="nvfp4")
    extra_gb = (nv.replica.weights_gpu - mx.replica.weights_gpu) / 1e9
    assert extra_gb == pytest.approx(12.55, rel=0.02)
    assert mx.replica.max_seqs - nv.replica.max_seqs == pytest.approx(extra_gb / (516_096 * 1534 / 1e9), abs=1.5)
