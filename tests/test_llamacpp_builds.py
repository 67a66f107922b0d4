"""llama.cpp's fixed decode cost by build (knowledge/serving.yaml llama.cpp ``releases``, issue 22 items 1, 6): the
Dec 2023 builds' 60 us a layer, 47 from the CUDA-graph build, 20 from the Aug 2025 build, and 4.3 us a router kernel
from the fused top-k MoE build; each figure is its source's own measurement, worked by hand below."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

# ggml-org/llama.cpp pull request #6766 (CUDA graphs), a maintainer's ./main tg of Llama 2 7B Q4_0 on an RTX 4090:
# 138.31 t/s on master against 146.81 with graphs, over 32 layers.
GRAPHS_SAVED_US = (1 / 138.31 - 1 / 146.81) / 32 * 1e6  # 13.1 us a layer
# discussion #15013 (Aug 2025, build 5143fa8): the same card and model at tg128, 186.21 t/s, less the weights
# (3.82e9 B, the size the 60 us were read with) at 0.80 of 1,008 GB/s.
AUG_2025_US = (1 / 186.21 - 3.82e9 / (0.80 * 1008e9)) / 32 * 1e6  # 19.8 us a layer
# pull request #16130 (fused top-k MoE): qwen3moe 30B.A3B Q4_K_M tg128 194.63 -> 207.75 t/s over 48 MoE layers,
# taken off gpuwise's 4 router kernels a MoE layer at 6 us.
FUSED_SAVED_US = (1 / 194.63 - 1 / 207.75) / 48 * 1e6  # 6.8 us a MoE layer
FUSED_KERNEL_US = (4 * 6 - FUSED_SAVED_US) / 4  # 4.3 us a router kernel


def _engine(kb, gpu: str, version: str | None, model: str = "llama-2-7b", precision: str = "int4"):
    w = {"task": "inference", "model": model, "precision": precision, "framework": "llama.cpp",
         "prompt_tokens": 1, "output_tokens": 128}
    if version:
        w["framework_version"] = version
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    return SV.engine(job, kb.gpus[gpu]), job


def test_the_sources_arithmetic():
    assert pytest.approx(13.1, abs=0.05) == GRAPHS_SAVED_US
    assert pytest.approx(19.8, abs=0.05) == AUG_2025_US
    assert pytest.approx(6.8, abs=0.05) == FUSED_SAVED_US
    assert pytest.approx(4.3, abs=0.05) == FUSED_KERNEL_US


@pytest.mark.parametrize(("version", "layer_us", "kernel_us"), [
    ("1700", 60, 6), ("1786", 60, 6),  # Dec 2023 / Jan 2024 builds: the framework's own constants
    ("2800", 60 - 13, 6), ("5415", 47, 6),  # from the CUDA-graph build: 13 us a layer off
    ("6100", 20, 6),  # the Aug 2025 build of discussion #15013
    ("6600", 20, 4.3), ("9976", 20, 4.3), (None, 20, 4.3),  # fused top-k MoE on; no build stated: the newest
])
def test_gddr_card_pays_its_builds_fixed_cost(kb, version, layer_us, kernel_us):
    eng, _ = _engine(kb, "rtx-4090", version)
    assert eng.layer_overhead == pytest.approx(layer_us * 1e-6)
    assert eng.kernel_floor == pytest.approx(kernel_us * 1e-6)


def test_a_later_build_steps_faster_by_its_layers_alone(kb):
    """Llama 2 7B Q4_0 on an RTX 4090 at one token: the Aug 2025 build's step is 32 x (60 - 20) us = 1.28 ms shorter
    than a Dec 2023 build's, nothing else in the step moving (a dense model: no router kernels)."""
    old, job = _engine(kb, "rtx-4090", "1700")
    new, _ = _engine(kb, "rtx-4090", "6100")
    rep = SV.choose(job, kb.gpus["rtx-4090"], 1, weight_format="gguf-q4_0").replica
    slow = SV.step(job, old, rep, 1.0, 0.0, 65.0, 0.0).seconds
    fast = SV.step(job, new, rep, 1.0, 0.0, 65.0, 0.0).seconds
    assert slow - fast == pytest.approx(32 * 40e-6, rel=1e-9)


@pytest.mark.parametrize(("gpu", "version"), [("a100-80gb-sxm", "9976"), ("h100-80gb-sxm", None),
                                              ("mi355x", "9976")])
def test_hbm_and_other_vendors_keep_the_dec_2023_layer_figure(kb, gpu, version):
    """HBM cards keep the 60 us their 0.60 bandwidth share was derived with (memory_overrides.hbm); other vendors'
    builds keep the framework's constants (the releases concern the CUDA build only). CDNA 3 has its own measured
    figure (architecture_overrides.cdna3, tests/test_llamacpp_cdna3_launch.py); CDNA 4 has none."""
    eng, _ = _engine(kb, gpu, version)
    assert eng.layer_overhead == pytest.approx(60e-6)


def test_gpt_oss_gguf_holds_its_experts_in_mxfp4_and_the_rest_at_q8_0(kb):
    """llama-bench reports gpt-oss-20b 'MXFP4 MoE' at 11.27 GiB for 20.91 B weights (geerlingguy/ai-benchmarks
    issue #43): the routed experts (24 layers x 32 x 3 x 2,880 x 2,880 = 19.11 B) at 4.25 bits = 10.15 GB, the
    other 1.80 B at Q8_0's 8.5 bits = 1.92 GB: 12.07 GB against the file's 12.10 GB (its F32 norms, biases and
    sinks make the difference). A decode step reads the 4 of 32 experts a token picks and all the rest but the
    input embedding (201,088 x 2,880)."""
    eng, job = _engine(kb, "rtx-4090", "6600", model="gpt-oss-20b", precision="fp4")
    routed = 24 * 32 * 3 * 2880 * 2880
    assert eng.weight_format == "gguf-mxfp4"
    # the catalog's routed-expert count carries the experts' biases too (~7 M of 19.1 B)
    assert eng.mbytes.experts == pytest.approx(routed * 4.25 / 8, rel=1e-3)
    assert eng.mbytes.total == pytest.approx(routed * 4.25 / 8 + (job.shape.params - routed) * 8.5 / 8, rel=1e-3)
    assert eng.mbytes.total == pytest.approx(11.27 * 2**30, rel=0.005)
    assert eng.mbytes.embed_in == pytest.approx(201_088 * 2880 * 8.5 / 8)


def test_a_build_tag_is_its_number():
    """llama.cpp's releases are tagged b6600 (its GitHub releases, llama-bench's `build` column): the tag reads as
    build 6600; another framework's version keeps its own form, so 'b0.10' for vLLM is refused."""
    from pydantic import ValidationError

    def version(fw: str, v: str) -> str:
        w = {"task": "inference", "model": "llama-2-7b", "framework": fw, "framework_version": v}
        return Requirements.model_validate({"workload": w}).workload.framework_version

    assert version("llama.cpp", "b6600") == version("llama.cpp", "6600") == "6600"
    assert version("llama.cpp", " B2800 ") == "2800"
    with pytest.raises(ValidationError):
        version("vllm", "b0.10")
    with pytest.raises(ValidationError):
        version("llama.cpp", "b66x")


def test_the_memory_weights_of_a_gpt_oss_gguf_file_are_its_size(kb):
    """The estimate's weights term prices llama.cpp's gpt-oss file as the serving step does (moe_rest_bits): the
    routed experts in MXFP4 at 4.25 bits, every other tensor at Q8_0's 8.5, so its formula and figure agree and
    match the file llama-bench reports (gpt-oss-20b 11.27 GiB = 12.1 GB), not 20.9e9 x 4.25 / 8 = 11.1 GB plus a
    difference labelled as 16-bit parts."""
    from gpuwise import estimate

    w = {"task": "inference", "model": "gpt-oss-20b", "precision": "fp4", "framework": "llama.cpp",
         "prompt_tokens": 512, "output_tokens": 128}
    terms = estimate({"workload": w}, gpu="rtx-5090", gpus=1).model_dump(mode="json")["memory"]["terms"]
    term = next(t for t in terms if t["name"] == "weights")
    i = term["inputs"]
    assert term["value"] == pytest.approx(i["expert_params"] * 4.25 / 8 + i["other_params"] * 8.5 / 8)
    assert term["value"] == pytest.approx(11.27 * 2**30, rel=0.01)
    assert "held_whole_bytes" not in i
