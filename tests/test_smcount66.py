"""smcount66: every catalog GPU's SM (NVIDIA) or compute-unit (AMD) count from its datasheet, whitepaper or a device
query (knowledge/gpus.yaml peaks.sms, peaks.sms_source), and the SGLang Triton decode kernel's residency by
architecture (knowledge/serving.yaml sglang triton_decode_walk program_shared_bytes, sm_shared_bytes; support.py
resident_programs). The figures below are the documents', not the catalog's, so a slip in either fails."""

from __future__ import annotations

import pytest

from gpuwise import estimate
from gpuwise.estimators.serving.support import resident_programs
from gpuwise.knowledge.schema.gpus import GpuPeaks

# Stated SM / CU counts, by the document that states them:
STATED = {
    "h100-80gb-sxm": 132,  # NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022): 'The H100 SXM5 GPU has 132 SMs'
    "h100-80gb-pcie": 114,  # the same whitepaper: the H100 PCIe Gen 5 configuration's 114 SMs
    "a100-80gb-sxm": 108,  # NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020): 108 SMs
    "a100-40gb-pcie": 108,
    "v100-32gb-sxm2": 80,  # NVIDIA Tesla V100 GPU Architecture whitepaper (2017), Table 1: 80 SMs
    "p100-16gb-sxm2": 56,  # NVIDIA Tesla P100 whitepaper (2016), Table 1: 56 SMs
    "t4": 40,  # NVIDIA Turing GPU Architecture whitepaper (2018), Appendix A, Tesla T4: 40 SMs
    "rtx-3090": 82,  # NVIDIA Ampere GA102 whitepaper (2020), Table 1: 82 SMs
    "rtx-3080": 68,  # the same table: 68 SMs
    "rtx-4090": 128,  # NVIDIA Ada GPU Architecture whitepaper v2.1, Table 1: 128 SMs
    "rtx-4080": 76,  # the same whitepaper, Appendix A: 76 SMs
    "rtx-5090": 170,  # NVIDIA RTX Blackwell GPU Architecture whitepaper (2025): 170 SMs
    "rtx-a6000": 84,  # the RTX Blackwell whitepaper's Table 1: RTX A6000 84, RTX 6000 Ada 142, RTX PRO 6000 188
    "rtx-6000-ada": 142,
    "rtx-pro-6000-blackwell": 188,
    "l4": 58,  # CUDA deviceQuery of an L4, github.com/thamada/nvidia-smi gls/L4_deviceQuery.py: '(058) Multiprocessors'
    "l40s": 142,  # the same repository's L40S deviceQuery: '(142) Multiprocessors'
    "h100-nvl-94gb": 132,  # its H100 NVL deviceQuery: '(132) Multiprocessors'
    "gh200-96gb": 132,  # github.com/mredenti/PowerCapping configuration/OpenCL_benchmark.md: 'Compute Units 132'
    # AMD's ROCm documentation, 'AMD GPU specifications' (ROCm/rocm-docs docs/reference/gpu-specs.rst at 2b48ffc7),
    # Compute Units: MI300X and MI325X 304 (38 per XCD), MI355X 256 (32 per XCD), MI250X 220 (110 per GCD)
    "mi300x": 304,
    "mi325x": 304,
    "mi355x": 256,
    "mi250x": 220,
}

# Datasheets that state CUDA cores only, over 128 cores an SM (GP10x: GeForce GTX 1080 whitepaper; GA10x: Ampere
# GA102 whitepaper; Ada: Ada whitepaper; GB20x: RTX Blackwell whitepaper):
CORES = {
    "p40": 3_840,  # Tesla P40 datasheet
    "a10": 9_216,  # A10 datasheet
    "a40": 10_752,  # A40 datasheet
    "l40": 18_176,  # L40 datasheet
    "rtx-5000-ada": 12_800,  # RTX 5000 Ada datasheet
    "a2": 1_280,  # A2 datasheet
    "rtx-4090d": 14_592,  # nvidia.cn RTX 4090 D page
    "rtx-pro-6000-blackwell-server": 24_064,  # RTX PRO 6000 Blackwell Server Edition datasheet
    "rtx-3080-ti": 10_240,  # GeForce compare page
    "rtx-5070-ti": 8_960,
}


@pytest.mark.parametrize("gid, sms", sorted(STATED.items()))
def test_the_stated_count(kb, gid: str, sms: int) -> None:
    assert kb.gpus[gid].peaks.sms == sms


@pytest.mark.parametrize("gid, cores", sorted(CORES.items()))
def test_cores_over_128_an_sm(kb, gid: str, cores: int) -> None:
    peaks = kb.gpus[gid].peaks
    assert cores % 128 == 0 and peaks.sms == cores // 128
    assert f"{cores:,}" in (peaks.sms_source or "")  # the count it was read from is named


def test_every_count_names_its_document(kb) -> None:
    """Each SM count is named in the text that sources it (sms_source, or the peaks' own source for the four read
    before: H100 SXM, H20, B200, GB10)."""
    counted = [g for g in kb.gpus.values() if g.peaks.sms]
    assert len(counted) >= 60
    for g in counted:
        text = (g.peaks.sms_source or "") + " " + g.peaks.source
        assert str(g.peaks.sms) in text, g.id


def test_a_source_without_a_count_is_refused() -> None:
    with pytest.raises(ValueError, match="sms_source is given but sms is not"):
        GpuPeaks.model_validate({"fp32": 67.0, "sms_source": "a whitepaper", "source": "a datasheet"})


def test_residency_by_architecture(kb) -> None:
    """Registers: 65,536 32-bit registers an SM on every compute capability from 5.0 to 12.x (CUDA C++ Programming
    Guide, 'Technical Specifications per Compute Capability'); 128 threads at 255 registers, allocated 256 a thread
    (a warp's in 256-register units), take 32,768: 2 programs. Shared memory: the kernel's 52,224 B plus the 1 KB the
    runtime reserves a block is 53,248 B; an SM gives 233,472 B on 9.0 / 10.x (4 programs), 167,936 B on 8.0 (3),
    102,400 B on 8.6 / 8.9 / 12.x (1), 65,536 B on 7.5 (1), so 2, 2, 1 and 1 an SM."""
    walk = kb.framework("sglang").triton_decode_walk
    assert 65_536 // (128 * 256) == walk.programs_per_sm == 2
    assert walk.program_shared_bytes == 52_224 + 1_024
    expect = {"h200-141gb-sxm": 2, "b200": 2, "a100-80gb-sxm": 2, "l40s": 1, "rtx-4090": 1, "a10": 1,
              "rtx-pro-6000-blackwell": 1, "t4": 1}
    assert {g: resident_programs(walk, kb.gpus[g]) for g in expect} == expect
    assert 233_472 // 53_248 == 4 and 167_936 // 53_248 == 3 and 102_400 // 53_248 == 1


def _terms(model: str, gpu: str, conc: int, prompt: int, output: int) -> dict:
    w = {"task": "inference", "model": model, "framework": "sglang", "precision": "bf16", "prompt_tokens": prompt,
         "output_tokens": output, "concurrent_requests": conc, "attention_backend": "triton"}
    return {t.name: t for t in estimate({"workload": w}, gpu=gpu, gpus=1).gpu.terms}


def test_the_h200_now_caps_the_walk() -> None:
    # GLM-4.7-Flash (20 query heads on one latent: 2 head blocks) on one H200: 132 SMs x 2 programs x 5.25 GB/s =
    # 1,386 GB/s of program reads, 693 GB/s of cache
    t = _terms("glm-4.7-flash", "h200-141gb-sxm", 64, 497, 4066)["tpot_s"]
    assert t.inputs["kv_walk_resident_bytes_per_s"] == pytest.approx(132 * 2 * 5.25e9)
    assert t.inputs["kv_walk_cap_bytes_per_s"] == pytest.approx(132 * 2 * 5.25e9 / 2)


def test_an_l40s_holds_one_program_an_sm() -> None:
    # Qwen3-8B (32 query heads on 8 KV heads: 4 a KV head, one head block) on one L40S (compute capability 8.9,
    # 100 KB of shared memory an SM): 142 SMs x 1 program x 5.25 GB/s = 745.5 GB/s
    t = _terms("qwen3-8b", "l40s", 32, 1000, 1000)["tpot_s"]
    assert t.inputs["kv_walk_cap_bytes_per_s"] == pytest.approx(142 * 1 * 5.25e9)


def test_the_h200_rows_of_the_mla_default_releases(kb, accuracy) -> None:
    """The DeepSeek rows on 8 x H200 under SGLang releases whose MLA decode runs this kernel (before 0.4.5.post1,
    serving.yaml triton_decode_walk mla_default_before) now read at the H200's resident programs (accuracy.py --all,
    README section smcount66): DS02 (DataCrunch, v0.4.3.post2, TP 8: a rank's 16 query heads one head block) +30.9%
    -> +23.6%; S05 (c=64) +19.6% -> +13.1%; DS03 (the same burst under attention data parallel: a rank holds all 128
    query heads, 8 head blocks over one latent, so 132 x 2 x 5.25 / 8 = 173 GB/s of cache) -4.6% -> -12.6%."""
    got = {c[0].split()[0]: c[1] / c[2] for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT)
           if c[0].split()[0] in ("DS02", "DS03", "S05")}
    assert 1.0 < got["DS02"] < 1.30 and 1.0 < got["S05"] < 1.20 and 0.80 < got["DS03"] < 1.0
