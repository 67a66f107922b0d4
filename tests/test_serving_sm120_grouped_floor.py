"""vLLM's fused-MoE grouped GEMM at one token on SM120, the GDDR7 Blackwell of the RTX 5090 and the RTX PRO 6000
(knowledge/serving.yaml vllm ``architecture_overrides.sm120``; engine.py ``chip_key``).

The fixed time of one grouped expert GEMM is read, as the other architectures' are, off vLLM's
benchmarks/kernels/benchmark_moe.py at batch 1 with the default config: the call's time less its active experts
streamed at 80% of the catalog bandwidth, halved (two grouped GEMMs a call). Both readings are Qwen3.5-35B-A3B-FP8
shapes (config.json text_config: hidden_size 2048, 256 experts, 8 routed a token, moe_intermediate_size 512), one
byte a weight:
- vllm-project/vllm pull request #39183 (RTX PRO 6000 Blackwell Server Edition, TP 1, E=256 N=512): 25.07 us;
- vllm-project/vllm pull request #45379 (RTX 5090, TP 2, E=256 N=256): 20.76 us.
The B200 (SM100) reading stays 14 us (pull request #31448)."""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from gpuwise.estimators import serving as SV

ST = importlib.import_module("gpuwise.estimators.serving.step")

HIDDEN, ROUTED = 2048, 8  # Qwen3.5-35B-A3B's text_config


def _reading(intermediate: int, call_us: float, bandwidth_gb_s: float) -> float:
    experts_bytes = ROUTED * 3 * HIDDEN * intermediate  # gate, up and down of each routed expert, 1 B a weight
    return (call_us - experts_bytes / (0.8 * bandwidth_gb_s * 1e9) * 1e6) / 2


def test_the_floor_is_the_two_readings_mean(kb):
    pro = _reading(512, 25.07, kb.gpus["rtx-pro-6000-blackwell-server"].memory.bandwidth_gb_s)
    consumer = _reading(256, 20.76, kb.gpus["rtx-5090"].memory.bandwidth_gb_s)
    assert pro == pytest.approx(3.76, abs=0.01)
    assert consumer == pytest.approx(5.99, abs=0.01)
    own = kb.framework("vllm").architecture_overrides["sm120"].grouped_gemm_floor_us
    assert own == pytest.approx((pro + consumer) / 2, abs=0.15)  # 4.9 us, entered as 5


def _engine(kb, accuracy, gpu: str, framework: str = "vllm", model: str = "qwen3-30b-a3b", version: str = "0.12.0"):
    job = accuracy.serving_job(kb, model, "bf16", framework, 16, 512, tp=1, framework_version=version)
    return job, SV.choose(job, kb.gpus[gpu], 1)


@pytest.mark.parametrize(("gpu", "framework", "floor_us"), [
    ("rtx-pro-6000-blackwell", "vllm", 5.0),          # compute capability 12.0
    ("rtx-pro-6000-blackwell-server", "vllm", 5.0),
    ("rtx-5090", "vllm", 5.0),
    ("b200", "vllm", 14.0),                           # SM100: the architecture's own reading
    ("gb10", "vllm", 14.0),                           # SM121 was not read: the architecture's figure
    ("h100-80gb-sxm", "vllm", 13.0),
])
def test_which_gpus_take_it(kb, accuracy, gpu, framework, floor_us):
    _, s = _engine(kb, accuracy, gpu, framework)
    assert s.engine.grouped_floor == pytest.approx(floor_us * 1e-6)


@pytest.mark.parametrize(("gpu", "floor_us"), [
    ("rtx-pro-6000-blackwell", 5.0),   # SM120: the same Triton kernel's reading (sglang architecture_overrides.sm120)
    ("rtx-5090", 5.0),
    ("b200", 14.0),                    # SM100: the B200 reading, which SGLang's blackwell entry also takes from vLLM
    ("gb10", 14.0),                    # SM121 was not read: the architecture's figure
    ("b300", 17.0),                    # blackwell-ultra (SM103): no reading, the framework's own figure
])
def test_sglang_takes_the_same_kernels_readings(kb, accuracy, gpu, floor_us):
    """SGLang runs vLLM's Triton fused-MoE kernel and its Hopper and B200 figures are vLLM's benchmark readings, so
    on SM120 it takes vLLM's SM120 reading too (branch archkeys33; before, the B200's 14 us reached SM120)."""
    _, s = _engine(kb, accuracy, gpu, "sglang", version="0.5.8")
    assert s.engine.grouped_floor == pytest.approx(floor_us * 1e-6)


@pytest.mark.parametrize("framework", ["vllm", "sglang"])
def test_b300_keeps_the_framework_figure(kb, accuracy, framework):
    """B300 / GB300 are architecture blackwell-ultra (SM103): neither the B200's nor SM120's reading reaches them."""
    for gpu in ("b300", "gb300"):
        _, s = _engine(kb, accuracy, gpu, framework, version="0.5.8" if framework == "sglang" else "0.12.0")
        assert s.engine.grouped_floor == pytest.approx(kb.framework(framework).grouped_gemm_floor_us.value * 1e-6)


def test_the_chip_keeps_the_architectures_other_constants(kb, accuracy):
    """Only the figure the chip's entry names moves: the rest of the engine is the architecture's."""
    _, s = _engine(kb, accuracy, "rtx-pro-6000-blackwell")
    eng = s.engine
    assert eng.kernel_floor == pytest.approx(10e-6) and eng.layer_overhead == pytest.approx(10e-6)
    assert eng.bw_fraction == pytest.approx(0.80)


@pytest.mark.parametrize(("framework", "version"), [("vllm", "0.12.0"), ("sglang", "0.5.8")])
def test_a_step_by_hand(kb, accuracy, framework, version):
    """Qwen3-30B-A3B in BF16 on one RTX PRO 6000 (vLLM 0.12.0; SGLang 0.5.8, row B04's server, since archkeys33),
    one sequence: 48 MoE layers, two grouped GEMMs each, each 14 - 5 = 9 us shorter than at the B200's figure:
    0.864 ms a step."""
    job, s = _engine(kb, accuracy, "rtx-pro-6000-blackwell", framework, version=version)
    eng = s.engine
    at_b200 = dataclasses.replace(eng, grouped_floor=14e-6)
    kv = 16 + 256
    ours = ST.consts(job, eng, s.replica)
    theirs = ST.consts(job, at_b200, s.replica)
    shorter = ST.seconds_of(theirs, 1.0, 0.0, kv, 0.0) - ST.seconds_of(ours, 1.0, 0.0, kv, 0.0)
    assert shorter == pytest.approx(2 * 48 * (14.0 - 5.0) * 1e-6, rel=1e-6)
