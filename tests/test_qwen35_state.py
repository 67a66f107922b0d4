"""The gated-DeltaNet recurrent state's element type, per engine, for Qwen3.5 and Qwen3-Next.

A DeltaNet layer keeps, per running sequence, a recurrent (temporal) state of value heads x 128 x 128 elements and a
convolution state of 3 x (2 x key heads x 128 + value heads x 128) elements (vllm-project/vllm
vllm/model_executor/layers/mamba/mamba_utils.py @ 2afe1e85 gated_delta_net_state_shape).

Element types, as the engines' code sets them:
- Qwen3.5: the checkpoint's config.json sets text_config mamba_ssm_dtype "float32" (Qwen/Qwen3.5-35B-A3B
  config.json as alibaba/InferSim hf_configs/qwen3.5-35B-A3B_config.json @ 7ed3db76 stores it). vLLM reads it since
  pull request #34489 (a config hook sets cache_config.mamba_ssm_cache_dtype from it when the flag is 'auto';
  vllm/model_executor/models/qwen3_5.py @ 00def4f8 get_mamba_state_dtype_from_config passes that dtype to
  gated_delta_net_state_dtype, which keeps the convolution state in the model dtype). SGLang reads it too
  (python/sglang/srt/configs/mamba_utils.py @ 02e208de mamba2_state_dtype: text_config.mamba_ssm_dtype, else float32;
  the convolution state bfloat16). So 4 B a recurrent element, 2 B a convolution element, on both.
- Qwen3-Next: vLLM keeps both in the model dtype, bf16, unless --mamba-ssm-cache-dtype float32 is passed (#34489's
  description); SGLang's default for the recurrent state is float32 (mamba2_state_dtype above, called with the
  model's config by python/sglang/srt/configs/qwen3_next.py @ 041bacd3 mamba2_cache_params).
"""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.shape import from_catalog

# Qwen3.5-35B-A3B: 30 DeltaNet layers of 16 key and 32 value heads of 128
Q35_STATE_ELEMS = 32 * 128 * 128  # 524,288
Q35_CONV_ELEMS = 3 * (2 * 16 * 128 + 32 * 128)  # 24,576
Q35_FP32 = 30 * (Q35_STATE_ELEMS * 4 + Q35_CONV_ELEMS * 2)
# Qwen3-Next-80B-A3B: 36 DeltaNet layers of the same heads
QN_BF16 = 36 * (Q35_STATE_ELEMS * 2 + Q35_CONV_ELEMS * 2)
QN_FP32 = 36 * (Q35_STATE_ELEMS * 4 + Q35_CONV_ELEMS * 2)


def test_one_sequence_state_by_hand():
    """30 x (524,288 x 4 B + 24,576 x 2 B) = 30 x 2,146,304 = 64,389,120 B (64.4 MB) a Qwen3.5-35B-A3B sequence,
    against 32,931,840 B had the recurrent part been bf16; Qwen3-Next: 39,518,208 B in bf16 (vLLM),
    77,266,944 B with the recurrent part in float32 (SGLang)."""
    assert (Q35_STATE_ELEMS, Q35_CONV_ELEMS) == (524_288, 24_576)
    assert Q35_FP32 == 64_389_120
    assert 30 * (Q35_STATE_ELEMS + Q35_CONV_ELEMS) * 2 == 32_931_840
    assert (QN_BF16, QN_FP32) == (39_518_208, 77_266_944)


@pytest.mark.parametrize("mid,layers,value_heads", [
    ("qwen3.5-35b-a3b", 30, 32), ("qwen3.5-27b", 48, 48), ("qwen3.5-9b", 24, 32), ("qwen3.5-397b-a17b", 45, 64)])
def test_qwen35_catalog_keeps_the_recurrent_state_in_float32(kb, mid, layers, value_heads):
    r = kb.models[mid].recurrent
    assert (r.state_bytes, r.conv_bytes, r.framework_state_bytes) == (4, 2, {})
    want = layers * (value_heads * 128 * 128 * 4 + 3 * (2 * 16 * 128 + value_heads * 128) * 2)
    assert from_catalog(kb.models[mid]).state_bytes_per_sequence == want
    if mid == "qwen3.5-35b-a3b":
        assert want == Q35_FP32


@pytest.mark.parametrize("framework,want", [("vllm", QN_BF16), ("sglang", QN_FP32)])
def test_qwen3_next_state_depends_on_the_engine(kb, accuracy, framework, want):
    """The same Qwen3-Next job holds twice the recurrent state a sequence on SGLang, and the serving replica counts
    it per sequence beside the KV cache (one H200, FP8, 1,000 + 1,000 tokens, 64 requests)."""
    job = accuracy.serving_job(kb, "qwen3-next-80b-a3b", "fp8", framework, 1000, 1000, 64, 1, 1)
    assert job.shape.state_bytes_per_sequence == want
    r = SV.choose(job, kb.gpus["h200-141gb-sxm"], 1).replica
    assert r.state_gpu == want


def test_qwen35_state_is_the_same_on_both_engines(kb, accuracy):
    for framework in ("vllm", "sglang"):
        job = accuracy.serving_job(kb, "qwen3.5-35b-a3b", "bf16", framework, 1000, 1000, 8, 1, 1)
        assert job.shape.state_bytes_per_sequence == Q35_FP32
