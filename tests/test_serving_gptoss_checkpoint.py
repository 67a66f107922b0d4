"""gpt-oss's published checkpoints quantize only the routed experts to MXFP4 and keep attention, router, embeddings and
head in BF16 (openai/gpt-oss-120b and -20b config.json quantization_config, modules_to_not_convert: self_attn,
mlp.router, embed_tokens, lm_head; the model card: MXFP4 for the MoE weights). vLLM, SGLang and TensorRT-LLM serve
the checkpoint as it is (vLLM's Mxfp4Config gives a linear layer UnquantizedLinearMethod), so the copy holds, and a
decode step reads, the attention at 2 bytes a weight (serving.yaml fp4_checkpoints). llama.cpp's GGUF files are
their own format (gguf-mxfp4: the rest at Q8_0) and keep their own bytes."""

from __future__ import annotations

import importlib

import pytest

from gpuwise.estimators import serving as SV

STEP = importlib.import_module("gpuwise.estimators.serving.step")

# gpt-oss-120b config.json: 36 layers, hidden 2,880, 64 query heads and 8 KV heads of 64, 128 experts of 2,880
# (gate/up 2 x 2,880 wide), 4 a token, vocabulary 201,088, head not tied
LAYERS, HIDDEN, HEAD, Q, KV, VOCAB = 36, 2880, 64, 64, 8, 201088
EXPERT = HIDDEN * 2 * 2880 + 2880 * HIDDEN  # gate/up and down of one expert
ATTENTION = HIDDEN * Q * HEAD * 2 + HIDDEN * KV * HEAD * 2  # q and o, k and v
MXFP4 = 4.25 / 8  # bytes a weight: 32 E2M1 values and one E8M0 scale


def _token_and_copy(kb, accuracy, model: str, framework: str, gpu: str) -> tuple[float, float, str]:
    job = accuracy.serving_job(kb, model, "fp4", framework, 1024, 128)
    s = SV.choose(job, kb.gpus[gpu], 1)
    st = STEP.step(job, s.engine, s.replica, 1.0, 0.0, 1088.0, 0.0)
    return st.weight_bytes_gpu, s.replica.weights_gpu, s.engine.weight_format


@pytest.mark.parametrize("framework", ["vllm", "sglang", "tensorrt-llm"])
def test_a_decode_step_reads_the_experts_at_mxfp4_and_the_attention_at_bf16(kb, accuracy, framework):
    token, _, fmt = _token_and_copy(kb, accuracy, "gpt-oss-120b", framework, "h200-141gb-sxm")
    assert fmt == "mxfp4"
    by_hand = (LAYERS * 4 * EXPERT * MXFP4  # the 4 routed experts of every layer: 1.904 GB
               + LAYERS * ATTENTION * 2  # attention in BF16: 1.911 GB (0.51 GB at MXFP4's bits)
               + LAYERS * HIDDEN * 128 * 2  # the router in BF16
               + VOCAB * HIDDEN * 2)  # the head in BF16: 1.158 GB
    assert by_hand == pytest.approx(4.999e9, rel=1e-3)
    assert token == pytest.approx(by_hand, rel=2e-3)  # norms, biases and sinks are the rest


def test_the_copy_is_the_published_checkpoint(kb, accuracy):
    """The checkpoints' files: gpt-oss-120b 65.28 GB, gpt-oss-20b 12.8 GiB = 13.76 GB (the model card); with the
    attention at MXFP4's bits gpuwise held 63.7 / 12.8 GB."""
    big = _token_and_copy(kb, accuracy, "gpt-oss-120b", "vllm", "h200-141gb-sxm")[1]
    small = _token_and_copy(kb, accuracy, "gpt-oss-20b", "vllm", "h100-80gb-sxm")[1]
    assert big == pytest.approx(65.28e9, rel=3e-3)
    assert small == pytest.approx(13.76e9, rel=3e-3)


def test_llama_cpp_keeps_its_own_file(kb, accuracy):
    """ggml-org's GGUF of gpt-oss-120b is 59.02 GiB = 63.37 GB (llama-bench's size column, llama.cpp
    benches/dgx-spark.md): experts at 4.25 bits, the rest at Q8_0; the BF16 checkpoint entry does not apply to it."""
    token, copy, fmt = _token_and_copy(kb, accuracy, "gpt-oss-120b", "llama.cpp", "h200-141gb-sxm")
    assert fmt == "gguf-mxfp4"
    assert copy == pytest.approx(59.02 * 2**30, rel=5e-3)
    assert token < 3.6e9
