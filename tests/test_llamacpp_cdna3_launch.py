"""llama.cpp's HIP build on CDNA 3 (knowledge/serving.yaml llama.cpp ``architecture_overrides.cdna3``, branch
decodeblind28, issue 22 items 6, 7): the build launches every ggml node from the host (no HIP graphs before pull
request #22254), so its fixed time a layer is read on an MI300X, not taken from the CUDA graph build.

Source: AUGMXNT/llm-tracker.info-vault 'MI300X Testing.md' at 87b8a326 (lhl, Dec 2024; llama.cpp build 3891, ROCm),
llama-bench tg128 of Llama 2 7B Q4_0 (3.56 GiB, 32 layers): 183.18 t/s on one MI300X, 174.99 t/s split by layer over
eight (validation rows DE113, which sets the figure and is no longer a check, and DE114). Held-out checks: the only
other llama.cpp runs on a CDNA 3 part, AMD's ROCm blogs' DeepSeek-V3 and Llama 3.1 70B Q4_K_M on 8 x MI300X (F07 at
build 5997, DZ01 / DZ02 at 6652), which read +73.5 / +51.2 / +49.6% before it."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

TOKEN_1GPU = 1 / 183.18  # s a token, one MI300X
TOKEN_8GPU = 1 / 174.99  # the same file over eight cards, llama-bench's default layer split


def _engine_and_step(kb, gpu: str):
    w = {"task": "inference", "model": "llama-2-7b", "precision": "int4", "framework": "llama.cpp",
         "prompt_tokens": 1, "output_tokens": 128, "framework_version": "3891"}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    chosen = SV.choose(job, kb.gpus[gpu], 1, weight_format="gguf-q4_0")
    return chosen.engine, SV.step(job, chosen.engine, chosen.replica, 1.0, 0.0, 64.0, 0.0)


def test_the_per_layer_figure_is_the_single_card_token_less_its_reads(kb):
    """5.459 ms a token, less the weights (gpuwise's 3.75 GB of a Q4_0 7B at 0.60 of 5.3 TB/s: 1.19 ms) and the KV
    read (0.01 ms), over 32 layers: 133 us a layer; an op the MoE graph adds at a tenth of it (~10 ops a layer, as
    the framework's 6 us an op for 60 a layer)."""
    eng, st = _engine_and_step(kb, "mi300x")
    layer_us = (TOKEN_1GPU - st.gemm - st.attention) / 32 * 1e6
    assert layer_us == pytest.approx(133, abs=0.5)
    assert eng.layer_overhead == pytest.approx(133e-6)
    assert eng.kernel_floor == pytest.approx(13.3e-6)
    assert 1 / st.seconds == pytest.approx(183.18, rel=0.002)


def test_the_eight_card_split_pays_little_for_its_hops():
    """174.99 against 183.18 t/s: seven GPU-to-GPU hand-overs cost 0.26 ms a token, 37 us each, so the fixed time
    is the layers' own, not the split's."""
    hop_us = (TOKEN_8GPU - TOKEN_1GPU) / 7 * 1e6
    assert hop_us == pytest.approx(36.5, abs=0.5)


# the H100 at build 3891: the CUDA release 2800's HBM figure for the quantized files (branch llamaformat59)
@pytest.mark.parametrize(("gpu", "layer_us"), [("mi325x", 133), ("h100-80gb-sxm", 92), ("mi355x", 60)])
def test_only_cdna3_takes_it(kb, gpu, layer_us):
    eng, _ = _engine_and_step(kb, gpu)
    assert eng.layer_overhead == pytest.approx(layer_us * 1e-6)


@pytest.fixture(scope="module")
def rows(kb, accuracy):
    return {label.split()[0]: (est, got) for label, est, got in
            accuracy.single_stream_cases(kb, accuracy.DECODE_INDEPENDENT)}


@pytest.mark.parametrize(("row", "published", "within"), [
    ("DE114", 174.99, 0.10),  # the same page's 8-card split (+83.0% before)
    ("F07", 37.04, 0.15),     # DeepSeek-V3 Q4_K_M, 8 x MI300X, build 5997 (+73.5% before)
    ("DZ01", 42.51, 0.15),    # the same model, build 6652 (+51.2% before)
    ("DZ02", 36.51, 0.20),    # Llama 3.1 70B Q4_K_M, build 6652 (+49.6% before)
])
def test_the_held_out_cdna3_rows_land(rows, row, published, within):
    est, got = rows[row]
    assert got == pytest.approx(published)
    assert abs(est / got - 1) <= within, (row, est, got)
