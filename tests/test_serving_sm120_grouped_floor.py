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


def test_sglang_is_not_concerned(kb, accuracy):
    """SGLang's constants on SM120 are its own (the readings are vLLM's benchmark of vLLM's kernel)."""
    _, on_sm120 = _engine(kb, accuracy, "rtx-pro-6000-blackwell", "sglang", version="0.5.8")
    _, on_b200 = _engine(kb, accuracy, "b200", "sglang", version="0.5.8")
    assert on_sm120.engine.grouped_floor == on_b200.engine.grouped_floor


def test_the_chip_keeps_the_architectures_other_constants(kb, accuracy):
    """Only the figure the chip's entry names moves: the rest of the engine is the architecture's."""
    _, s = _engine(kb, accuracy, "rtx-pro-6000-blackwell")
    eng = s.engine
    assert eng.kernel_floor == pytest.approx(10e-6) and eng.layer_overhead == pytest.approx(10e-6)
    assert eng.bw_fraction == pytest.approx(0.80)


def test_a_step_by_hand(kb, accuracy):
    """Qwen3-30B-A3B in BF16 on one RTX PRO 6000 (vLLM 0.12.0), one sequence: 48 MoE layers, two grouped GEMMs each,
    each 14 - 5 = 9 us shorter than at the B200's figure: 0.864 ms a step."""
    job, s = _engine(kb, accuracy, "rtx-pro-6000-blackwell")
    eng = s.engine
    at_b200 = dataclasses.replace(eng, grouped_floor=14e-6)
    kv = 16 + 256
    ours = ST.consts(job, eng, s.replica)
    theirs = ST.consts(job, at_b200, s.replica)
    shorter = ST.seconds_of(theirs, 1.0, 0.0, kv, 0.0) - ST.seconds_of(ours, 1.0, 0.0, kv, 0.0)
    assert shorter == pytest.approx(2 * 48 * (14.0 - 5.0) * 1e-6, rel=1e-6)
