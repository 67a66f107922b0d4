"""SGLang's fused small-kernel figure goes with the models a release lists (knowledge/serving.yaml sglang
``fused_kernel_models``). The lists were read in the sglang wheels from PyPI, server_args.py
_handle_model_specific_adjustments, the architectures FlashInfer's all-reduce fusion is turned on for by default:
0.5.7 DeepseekV3ForCausalLM, GptOssForCausalLM, Glm4MoeForCausalLM, Qwen3MoeForCausalLM; 0.5.8 adds
Glm4MoeLiteForCausalLM; 0.5.10 the Qwen3.5 architectures; 0.5.11 DeepseekV32ForCausalLM, GlmMoeDsaForCausalLM and
Qwen3NextForCausalLM; MiniMaxM2ForCausalLM and Gemma 4 in none up to 0.5.16. The release entry 0.5.7 prices a
counted small kernel at 2 us (read on DeepSeek-R1 FP8, TP 8, 8 x H200); an unlisted model keeps the framework's
6 us from the mid-2025 builds."""

from __future__ import annotations

from itertools import pairwise

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.step import _extra_kernels, floor_per_step, sparse_indexer_kernels


def _engine(kb, accuracy, model: str, version: str | None, gpu: str = "h200-141gb-sxm", count: int = 8,
            framework: str = "sglang", precision: str = "fp8"):
    job = accuracy.serving_job(kb, model, precision, framework, 1000, 1000, tp=count, framework_version=version)
    return SV.choose(job, kb.gpus[gpu], count).engine


@pytest.mark.parametrize(("model", "version", "floor_us"), [
    ("deepseek-r1", "0.5.9", 2.0),          # DeepseekV3ForCausalLM: listed from 0.5.7
    ("glm-5", "0.5.9", 6.0),                # GlmMoeDsaForCausalLM: not listed until 0.5.11
    ("glm-5", "0.5.11", 2.0),
    ("minimax-m2", "0.5.9", 6.0),           # MiniMaxM2ForCausalLM: in no list
    ("minimax-m2", None, 6.0),              # no release stated: the newest list
    ("qwen3-next-80b-a3b", "0.5.8", 6.0),   # Qwen3NextForCausalLM: from 0.5.11
    ("qwen3-next-80b-a3b", "0.5.11", 2.0),
    ("minimax-m2", "0.5.3", 6.0),           # before 0.5.7 every model takes the release entry's 6 us
    ("deepseek-r1", "0.5.3", 6.0),
])
def test_the_figure_a_counted_kernel_costs(kb, accuracy, model, version, floor_us):
    assert _engine(kb, accuracy, model, version).kernel_floor == pytest.approx(floor_us * 1e-6)


def test_glm_4_7_flash_is_listed_from_0_5_8(kb, accuracy):
    """Glm4MoeLiteForCausalLM joins the list in 0.5.8 (the 0.5.7 wheel's list has four architectures)."""
    assert _engine(kb, accuracy, "glm-4.7-flash", "0.5.7", "b200", 1, precision="bf16").kernel_floor == \
        pytest.approx(6e-6)
    assert _engine(kb, accuracy, "glm-4.7-flash", "0.5.8", "b200", 1, precision="bf16").kernel_floor == \
        pytest.approx(2e-6)


def test_the_step_grows_by_four_us_a_counted_kernel(kb, accuracy):
    """GLM-5 FP8 on 8 x H200 at TP 8: the same job at 0.5.9 (unlisted) and 0.5.11 (listed) differs in its per-step
    floor by the counted small kernels (the DSA indexer's 15 a layer among them) x (6 - 2) us, the grouped GEMMs'
    fixed time unchanged."""
    before, after = _engine(kb, accuracy, "glm-5", "0.5.9"), _engine(kb, accuracy, "glm-5", "0.5.11")
    kernels, grouped = _extra_kernels(before)
    assert kernels > 0 and grouped > 0
    kernels += sparse_indexer_kernels(before)
    assert sparse_indexer_kernels(before) == 15 * 78
    assert before.grouped_floor == after.grouped_floor
    assert floor_per_step(before) - floor_per_step(after) == pytest.approx(kernels * 4e-6)


def test_vllm_is_not_scoped(kb, accuracy):
    """vLLM states no such list: its per-kernel figure is the same for a model SGLang does not list."""
    assert _engine(kb, accuracy, "minimax-m2", None, framework="vllm").kernel_floor == \
        _engine(kb, accuracy, "deepseek-r1", None, framework="vllm").kernel_floor


def test_the_lists_name_catalog_models_and_only_grow(kb):
    """Every id is a catalog model (a misspelt one would silently price its model at 6 us), and each release keeps the
    architectures of the one before it, as the wheels read from 0.5.7 to 0.5.16 do."""
    releases = kb.framework("sglang").fused_kernel_models.releases
    for r in releases:
        assert all(m in kb.models for m in r.models), r.since
    for before, after in pairwise(releases):
        assert set(before.models) < set(after.models), after.since
