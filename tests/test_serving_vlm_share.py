"""SGLang's default share for a multimodal checkpoint (knowledge/serving.yaml `vlm_memory_share`; models.yaml
`vision_tower`): launched without --mem-fraction-static, SGLang (0.5.2 on; read in the PyPI wheels, server_args.py
adjust_mem_fraction_for_vlm, 0.5.19 arg_groups/memory_hook.py) multiplies its default share by 0.95 x clamp(1 - 0.1 x
(L x H^2 / (24 x 1024^2) - 1), 0.8, 1.05), L = vision_config.num_hidden_layers (24 where the config names the depth
otherwise, as Qwen3-VL / Qwen3.5's `depth` does) and H = vision_config.hidden_size. Qwen3.5 / Qwen3.6's encoder is
27 blocks of 1152 stored under `depth` (alibaba/InferSim hf_configs/qwen3.5-35B-A3B_config.json @ 7ed3db76;
pytorch/torchtitan torchtitan/models/qwen3_5/__init__.py @ 03912f2e), so SGLang takes 24 x 1152^2."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.layout import reserved_share, vlm_share_factor
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

MiB = 2**20


def _served(kb, model: str, gpu: str, version: str | None, precision: str = "fp4", fraction: float | None = None,
            framework: str = "sglang"):
    w = {"task": "inference", "model": model, "precision": precision, "framework": framework,
         "prompt_tokens": 8192, "output_tokens": 1024, "concurrent_requests": 1024, "parallelism": {"tp": 1, "pp": 1}}
    if version:
        w["framework_version"] = version
    if fraction:
        w["memory_fraction"] = fraction
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    return job, SV.choose(job, kb.gpus[gpu], 1)


def test_the_factor_by_hand(kb):
    """24 x 1152^2 / (24 x 1024^2) = 1.265625; 1 - 0.1 x 0.265625 = 0.9734375; x 0.95 = 0.92476563. A 1024-wide
    encoder (Qwen3.5-2B / 4B: 24 blocks of 1024) is the baseline: 0.95; Qwen3.5-0.8B's 768-wide one gives 1 - 0.1 x
    (0.5625 - 1) = 1.04375, x 0.95 = 0.99156."""
    for model, want in (("qwen3.6-35b-a3b", 0.95 * 0.9734375), ("qwen3.5-397b-a17b", 0.95 * 0.9734375),
                        ("qwen3.5-4b", 0.95), ("qwen3.5-0.8b", 0.95 * 1.04375)):
        job, s = _served(kb, model, "b200", "0.5.15", "bf16")
        assert vlm_share_factor(job, s.engine) == pytest.approx(want, rel=1e-12)


def test_qwen36_share_on_b200_and_b300(kb):
    """Qwen3.6-35B-A3B NVFP4 at TP 1 with SGLang 0.5.15 / 0.5.16, no --mem-fraction-static (validation rows SJ09,
    SJ15): the default share is 0.857 of a B200's 183,359 MiB (reserve 512 + 1.5 x 16,384 + 2 x 512 + 128 = 26,240
    MiB) and 0.905 of a B300's 275,040 MiB, times 0.92477: 0.793 and 0.837; the pool is that share of the device
    less the weights and the CUDA context."""
    for gpu, version, mib, own, want in (("b200", "0.5.15", 183359, 0.857, 0.793),
                                         ("b300", "0.5.16", 275040, 0.905, 0.837)):
        _, s = _served(kb, "qwen3.6-35b-a3b", gpu, version)
        r, e = s.replica, s.engine
        assert e.capacity == mib * MiB
        assert reserved_share(e, 1, 1, 1) == own
        assert round(r.pool_share, 3) == round(own * 0.95 * 0.9734375, 3) == want
        assert r.free_gpu == pytest.approx(r.pool_share * e.capacity - r.weights_gpu - e.context_bytes, rel=1e-12)


def test_where_it_does_not_apply(kb):
    """A stated share is the job's own (SJ05: --mem-fraction-static 0.8 stays 0.8); a release before 0.5.2 has no such
    step; a text-only model (Qwen3-32B: no vision_tower) keeps the plain default; vLLM does not scale its share so."""
    job, s = _served(kb, "qwen3.6-35b-a3b", "b200", "0.5.15", "bf16", fraction=0.8)
    assert s.replica.pool_share == 0.8
    job, s = _served(kb, "qwen3.6-35b-a3b", "h100-80gb-sxm", "0.4.6", "bf16")
    assert vlm_share_factor(job, s.engine) == 1.0
    job, s = _served(kb, "qwen3-32b", "b200", "0.5.15", "bf16")
    assert vlm_share_factor(job, s.engine) == 1.0
    job, s = _served(kb, "qwen3.6-35b-a3b", "b200", None, "bf16", framework="vllm")
    assert vlm_share_factor(job, s.engine) == 1.0


def test_gemma4_encoder_is_read_by_its_own_key(kb):
    """Gemma 4 31B's encoder is 27 blocks of 1152 under num_hidden_layers (transformers convert_gemma4_weights.py @
    0f3f0632, _LARGE_MODEL_VISION_CONFIG), which SGLang reads as given: 27 x 1152^2 / (24 x 1024^2) = 1.4238;
    1 - 0.1 x 0.4238 = 0.95762; x 0.95 = 0.90974."""
    job, s = _served(kb, "gemma-4-31b", "b200", "0.5.15", "bf16")
    assert vlm_share_factor(job, s.engine) == pytest.approx(0.95 * (1 - 0.1 * (27 * 1152**2 / (24 * 1024**2) - 1)))
    assert vlm_share_factor(job, s.engine) == pytest.approx(0.90974, abs=5e-6)
