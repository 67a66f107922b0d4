"""llama.cpp's F16 files on GDDR cards read a byte faster than its quantized files (branch f16share61; knowledge/
serving.yaml llama.cpp precisions.fp16 gddr_bandwidth_factor; validation README 'llama.cpp's F16 read on GDDR').

Mechanism: at one token the CUDA build multiplies F16 weights by a matrix-vector kernel of their own (ggml-cuda's
dequantize_mul_mat_vec with convert_f16 until ggml-org/llama.cpp pull request #10318, mmv.cu's mul_mat_vec after it)
that reads the halves and accumulates in float; the quantized files go through mmvq.cu, which first quantizes the
activations to q8_1 in a kernel of their own and unpacks and dp4a-multiplies every byte of weights. The framework's
0.80 GDDR share was read on the quantized path (Q4_0 on an RTX 4090).

Hand arithmetic: a token is bytes / read rate + layers x the build's fixed time a layer (gpuwise's: 60 us before
build 2800, 47 us from it, serving.yaml llama.cpp layer_overhead_us and releases 2800). Bytes: the file less its
token-embedding table (one row of it is read a token) plus the F16 KV cache at the run's mean context. On one card at
one build the F16 file's read rate over the quantized file's is the factor; the median of the nine pairs is 1.130."""

from __future__ import annotations

import statistics

import pytest

GIB = 1024**3
# Llama 3 8B (XiongjieDai/GPU-Benchmarks-on-LLM-Inference, May 2024, llama-bench tg512: mean context 256; 8 KV heads)
KV_L3 = 32 * 8 * 128 * 2 * 2 * 256
Q4KM_L3 = 4.58 * GIB - 128256 * 4096 * 144 / 256 + KV_L3  # the printed 4.58 GiB less the Q4_K embedding table
F16_L3 = 14.96 * GIB - 128256 * 4096 * 2 + KV_L3
# Llama 2 7B (the same repository's README, Dec 2023 table; run length not stated: 256 taken; 32 full KV heads)
KV_L2 = 32 * 32 * 128 * 2 * 2 * 256
Q40_L2 = 3.82e9 - 32000 * 4096 * 18 / 32 + KV_L2
F16_L2 = 6.74e9 * 2 - 32000 * 4096 * 2 + KV_L2

# (card, quantized row, its t/s, F16 row, its t/s, quantized bytes, F16 bytes, fixed us a layer, F16 over quantized)
PAIRS = [
    ("RTX 3090", "I01", 120.60, "I14", 51.85, Q40_L2, F16_L2, 60, 1.262),
    ("RTX 4090", "I02", 149.37, "I15", 60.78, Q40_L2, F16_L2, 60, 1.130),
    ("RTX A6000", "I06", 111.57, "I18", 44.01, Q40_L2, F16_L2, 60, 1.165),
    ("RTX 3090", "D01", 115.42, "D03", 47.40, Q4KM_L3, F16_L3, 60, 1.136),
    ("RTX 4090", "D02", 130.58, "D04", 54.84, Q4KM_L3, F16_L3, 60, 1.137),
    ("RTX 4080", "DU03", 108.15, "DU04", 40.58, Q4KM_L3, F16_L3, 47, 1.081),
    ("RTX 4000 Ada", "DU05", 59.15, "DU06", 20.92, Q4KM_L3, F16_L3, 47, 1.075),
    ("RTX 5000 Ada", "DU07", 91.39, "DU08", 32.84, Q4KM_L3, F16_L3, 47, 1.054),
    ("L40S", "DE126", 115.55, "DE127", 43.69, Q4KM_L3, F16_L3, 47, 1.081),
]


def _rate(size: float, tokens_s: float, layer_us: float) -> float:
    return size / (1 / tokens_s - 32 * layer_us * 1e-6)


@pytest.mark.parametrize("pair", PAIRS, ids=[p[1] + "/" + p[3] for p in PAIRS])
def test_each_pair_reads_the_f16_file_faster(pair):
    _, _, q_tok, _, f_tok, q_size, f_size, layer_us, ratio = pair
    assert _rate(f_size, f_tok, layer_us) / _rate(q_size, q_tok, layer_us) == pytest.approx(ratio, abs=0.001)


def test_the_factor_is_the_median_pair(kb):
    factor = kb.framework("llama.cpp").precisions["fp16"].gddr_bandwidth_factor
    assert statistics.median(p[-1] for p in PAIRS) == pytest.approx(1.130, abs=0.001)  # the Dec 2023 RTX 4090 pair
    assert factor == 1.13


def test_another_source_reads_alike():
    """ggerganov's llama-bench of codellama-7b F16 on an RTX 4090 at build 1786 (pull request #4766, 2024-01-10:
    tg128 61.03 t/s, validation row I50): at 60 us a layer and the KV read at tg128's mean context of 64, 916 GB/s,
    0.91 of 1,008 GB/s: 1.14 x the 0.80 share."""
    size = 6.74e9 * 2 - 32000 * 4096 * 2 + 32 * 32 * 128 * 2 * 2 * 64
    rate = _rate(size, 61.03, 60)
    assert rate / 1008e9 == pytest.approx(0.909, abs=0.001)
    assert rate / 1008e9 / 0.80 == pytest.approx(1.136, abs=0.001)


def _tok_s(kb, gpu: str, precision: str, weight_format: str | None = None) -> float:
    from gpuwise.estimators import serving as SV
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    w = {"task": "inference", "model": "llama-2-7b", "precision": precision, "framework": "llama.cpp",
         "prompt_tokens": 1, "output_tokens": 128, "framework_version": "1700"}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(job, kb.gpus[gpu], 1, weight_format=weight_format)
    return 1 / SV.point(job, s.engine, s.replica, 1.0).decode_step


# Llama-2-7B F16 (6,738,415,616 parameters; the 32,000 x 4,096 input-embedding table not read): 13,214,687,232 B of
# weights a token, 2 FLOPs a weight; the F16 KV at the mean context of a 1-token prompt and 128 outputs (65 tokens)
WEIGHTS_F16 = (6_738_415_616 - 32_000 * 4_096) * 2
FLOPS = 2 * (6_738_415_616 - 32_000 * 4_096)
KV = 65 * 2 * 32 * 4_096 * 2
LAYERS = 32 * 60e-6


def test_the_f16_file_on_a_gddr_card_streams_at_the_factor(kb):
    """RTX 4090 (GDDR6X, 1,008 GB/s, FP16 165.2 TFLOPS): the weights at 0.80 x 1.13 = 0.904 of the bandwidth,
    911.2 GB/s: 14.502 ms + 0.200 ms of math at 0.40 of the FP16 peak + 0.042 ms of KV at 0.80 + 1.92 ms of layers =
    16.664 ms, 60.0 t/s (I15 measured 60.78 on the Dec 2023 build; 53.9 at the bare 0.80)."""
    hand = 1 / (WEIGHTS_F16 / (1008e9 * 0.80 * 1.13) + FLOPS / (165.2e12 * 0.40) + KV / (1008e9 * 0.80) + LAYERS)
    assert hand == pytest.approx(60.0, abs=0.05)
    assert _tok_s(kb, "rtx-4090", "fp16") == pytest.approx(hand, rel=1e-3)


def test_an_hbm_part_and_the_quantized_file_keep_their_share(kb):
    """The factor is the F16 file's on GDDR only: the A100 80GB SXM (HBM2e, 2,039 GB/s, FP16 312 TFLOPS) reads the
    F16 file at memory_overrides.hbm's 0.60 (10.803 + 0.106 + 0.028 + 1.92 ms = 12.856 ms, 77.8 t/s), and the
    RTX 4090's Q4_0 file stays at 0.80 (150.1 t/s, tests/test_llamacpp_memory_kind.py's arithmetic)."""
    hand = 1 / (WEIGHTS_F16 / (2039e9 * 0.60) + FLOPS / (312e12 * 0.40) + KV / (2039e9 * 0.60) + LAYERS)
    assert hand == pytest.approx(77.8, abs=0.05)
    assert _tok_s(kb, "a100-80gb-sxm", "fp16") == pytest.approx(hand, rel=1e-3)
    assert _tok_s(kb, "rtx-4090", "int4", "gguf-q4_0") == pytest.approx(150.1, abs=0.05)
