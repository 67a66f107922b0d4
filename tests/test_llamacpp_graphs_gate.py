"""llama.cpp's CUDA build captures no CUDA graph of the decode step below an architecture gate (serving.yaml
``cuda_graphs_gate``; branch decodeblind38): ggml-cuda.cu's ggml_cuda_graph_set_enabled sets disable_due_to_gpu_arch
below GGML_CUDA_CC_VOLTA (at 00108827), below GGML_CUDA_CC_AMPERE until pull request #25749 ('Enable CUDA graphs on
Volta+Turing', Jul 2026, taken from build 10100). Such a job takes the framework's constants before its release
entries, the eager build's (60 us a layer, 6 us a counted kernel), as a recurrent window's ``graphs_dropped`` does."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.recurrent import graphs_gated
from tests import decode_rounds


def _engine(kb, accuracy, gpu, version, model="qwen3.5-35b-a3b", precision="int4", fmt="gguf-q4_k_m"):
    job = accuracy.serving_job(kb, model, precision, "llama.cpp", 0, 128, framework_version=version)
    return SV.engine(job, kb.gpus[gpu], weight_format=fmt)


@pytest.mark.parametrize(("gpu", "version", "gated"), [
    ("p40", "9283", True), ("p40", None, True),  # Pascal (6.1): below Volta in every build
    ("p100-16gb-pcie", "6830", True),  # 6.0
    ("v100-32gb-pcie", "9500", True), ("v100-32gb-pcie", "10358", False), ("v100-32gb-pcie", None, False),
    ("t4", "6824", True), ("t4", "10100", False),  # Turing (7.5): below Ampere until #25749
    ("a100-80gb-sxm", "6129", False), ("rtx-3090", "9283", False), ("gb10", None, False),
    ("mi300x", "6600", False),  # the HIP build's graphs are its own (GGML_HIP_GRAPHS), not this gate
])
def test_the_gate_by_architecture_and_build(kb, gpu, version, gated):
    assert graphs_gated(kb.framework("llama.cpp"), version, kb.gpus[gpu]) is gated


def test_the_gate_is_llama_cpps_alone(kb):
    for fw in ("vllm", "sglang", "tensorrt-llm"):
        assert not graphs_gated(kb.framework(fw), None, kb.gpus["p40"]), fw


def test_a_gated_job_takes_the_eager_builds_constants(kb, accuracy):
    # the P40 (GDDR5) at build 9283: the framework's own 60 us a layer and 6 us a kernel (serving.yaml llama.cpp
    # layer_overhead_us / kernel_floor_us), not release 6600's 20 and 4.3, which an RTX 3090 at the same build keeps
    fw = kb.framework("llama.cpp")
    p40, ampere = _engine(kb, accuracy, "p40", "9283"), _engine(kb, accuracy, "rtx-3090", "9283")
    assert (p40.layer_overhead, p40.kernel_floor) == pytest.approx(
        (fw.layer_overhead_us.value * 1e-6, fw.kernel_floor_us.value * 1e-6))
    assert (ampere.layer_overhead, ampere.kernel_floor) == pytest.approx((20e-6, 4.3e-6))


def test_the_p40_rows_move_toward_their_measurement(kb, accuracy):
    # decodeblind38's blind figures (tests/test_decode_rows_do38.py BLIND) and earlier rows on parts below the gate
    blind = {"DA11": 112.1, "DA12": 86.1, "DA13": 63.8, "DA14": 39.4, "DA15": 13.8}
    blind_earlier = {"DT11": 29.9, "DJ14": 78.1, "DE09": 27.4, "DE17": 43.8}
    est = decode_rounds.estimates(kb, accuracy, "DA") | decode_rounds.estimates(kb, accuracy, "D")
    decode_rounds.assert_moved_closer(est, blind | blind_earlier, set(blind) | set(blind_earlier))
    # DA11, 2.12x blind, now inside 2x
    got_est, got = est["DA11"]
    assert got_est / got < 2.0
