"""Rows DU01-DU14 of validation/decode_independent.csv (branch catalog61, blind figures in the validation README): the
first decode rows on cards catalog61 added (RTX 3080, 3080 Ti, 4080, RTX 4000 Ada and RTX 5000 Ada, one and four).
Rows DU16-DU22 (branch decodeblind34): an RX 7900 XTX under llama.cpp's HIP build, an RTX 3060 12GB and an RTX A4000
under its Vulkan build (sources at ROWS34 below).

Source: XiongjieDai/GPU-Benchmarks-on-LLM-Inference (RunPod, May 2024), the notebooks 'LLaMA 3/Gaming GPUs/<card>_v3'
at 9232c8d5 and 'LLaMA 3/Professional GPUs/<card>_v3' at 7d5af524: each builds llama.cpp 4426e298 (build 2824) with
`make LLAMA_CUBLAS=1` and runs `llama-bench -p 512,1024,4096,8192 -n 512,1024,4096,8192` on Llama 3 8B Q4_K_M
(4.58 GiB), 8B F16 (14.96 GiB) and, on four cards, 70B Q4_K_M (39.59 GiB). The row is the tg512 column, as DE117-DE128
of the same repository take it."""

from __future__ import annotations

import pytest

from tests import decode_rounds

_G = ("https://github.com/XiongjieDai/GPU-Benchmarks-on-LLM-Inference/blob/9232c8d5f19571274e3c8a3ea66e1a3f56deb5da/"
      "LLaMA%203/Gaming%20GPUs/{}.ipynb")
_P = ("https://github.com/XiongjieDai/GPU-Benchmarks-on-LLM-Inference/blob/7d5af5243b33c4fbea06cfaa962aa7fdee031af6/"
      "LLaMA%203/Professional%20GPUs/{}.ipynb")
# id: (notebook url, model, format, gpu, count, tg512 t/s as printed)
ROWS = {
    "DU01": (_G.format("3080_v3"), "llama-3-8b", "gguf-q4_k_m", "rtx-3080", 1, 109.57),
    "DU02": (_G.format("3080Ti_v3"), "llama-3-8b", "gguf-q4_k_m", "rtx-3080-ti", 1, 110.60),
    "DU03": (_G.format("4080_v3"), "llama-3-8b", "gguf-q4_k_m", "rtx-4080", 1, 108.15),
    "DU04": (_G.format("4080_v3"), "llama-3-8b", "fp16", "rtx-4080", 1, 40.58),
    "DU05": (_P.format("4000_Ada_v3"), "llama-3-8b", "gguf-q4_k_m", "rtx-4000-ada", 1, 59.15),
    "DU06": (_P.format("4000_Ada_v3"), "llama-3-8b", "fp16", "rtx-4000-ada", 1, 20.92),
    "DU07": (_P.format("5000_Ada_v3"), "llama-3-8b", "gguf-q4_k_m", "rtx-5000-ada", 1, 91.39),
    "DU08": (_P.format("5000_Ada_v3"), "llama-3-8b", "fp16", "rtx-5000-ada", 1, 32.84),
    "DU09": (_P.format("4000_Ada_4_v3"), "llama-3-8b", "gguf-q4_k_m", "rtx-4000-ada", 4, 56.64),
    "DU10": (_P.format("4000_Ada_4_v3"), "llama-3-8b", "fp16", "rtx-4000-ada", 4, 20.65),
    "DU11": (_P.format("4000_Ada_4_v3"), "llama-3-70b", "gguf-q4_k_m", "rtx-4000-ada", 4, 7.36),
    "DU12": (_P.format("5000_Ada_4_v3"), "llama-3-8b", "gguf-q4_k_m", "rtx-5000-ada", 4, 84.07),
    "DU13": (_P.format("5000_Ada_4_v3"), "llama-3-8b", "fp16", "rtx-5000-ada", 4, 32.10),
    "DU14": (_P.format("5000_Ada_4_v3"), "llama-3-70b", "gguf-q4_k_m", "rtx-5000-ada", 4, 11.51),
}
# DU15: another source, another build: dmatora/LLM-inference-speed-benchmarks issue #12, Llama 3.1 8B Q4_K_M on an RTX
# 3080 at llama.cpp build 3622, 'Token generation: 111.95' (llama-bench's default tg128 assumed)
DU15 = ("https://github.com/dmatora/LLM-inference-speed-benchmarks/issues/12", "llama-3.1-8b", "rtx-3080", 3622, 111.95)
IDS = sorted(ROWS)
# blind (validation README, 'Rows DU01-DU14'), on the catalog61 catalog before any estimator change
BLIND = {"DU01": -1.5, "DU02": 13.3, "DU03": -4.3, "DU04": -12.4, "DU05": -5.0, "DU06": -11.8, "DU07": -5.8,
         "DU08": -11.2, "DU09": -0.8, "DU10": -10.6, "DU11": -11.7, "DU12": 2.4, "DU13": -9.2, "DU14": -10.4,
         "DU15": -3.2}
GIB = 1024**3
VOCAB, LAYERS_8B, LAYERS_70B = 128256, 32, 80
# bytes a token reads (as tests/test_decode_rows_de117.py): the printed file less the embedding table but one row,
# plus the F16 KV cache (8 KV heads x 128) at tg512's mean context of 256
KV_8B, KV_70B = LAYERS_8B * 8 * 128 * 2 * 2 * 256, LAYERS_70B * 8 * 128 * 2 * 2 * 256
Q4KM_8B = 4.58 * GIB - VOCAB * 4096 * 144 / 256 + KV_8B
Q4KM_70B = 39.59 * GIB - VOCAB * 8192 * 144 / 256 + KV_70B
F16_8B = 14.96 * GIB - VOCAB * 4096 * 2 + KV_8B


def _rows() -> dict[str, dict]:
    return {k: r for k, r in decode_rounds.rows("DU").items()}


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DU")


def test_the_round_has_its_rows():
    assert sorted(_rows()) == [*IDS, "DU15", *IDS34]


def test_du15_is_the_issue_figure():
    url, model, gpu, build, figure = DU15
    row = _rows()["DU15"]
    assert (row["source"], row["model"], row["gpu"], row["framework_version"]) == (url, model, gpu, str(build))
    assert (int(row["prompt_tokens"]), int(row["output_tokens"]), float(row["decode_tok_s"])) == (0, 128, figure)


@pytest.mark.parametrize("row_id", IDS)
def test_rows_are_the_notebooks_tg512(row_id):
    url, model, fmt, gpu, count, figure = ROWS[row_id]
    row = _rows()[row_id]
    assert (row["source"], row["model"], row["weight_format"], row["gpu"], int(row["count"])) == (
        url, model, fmt, gpu, count)
    assert row["precision"] == ("fp16" if fmt == "fp16" else "int4")
    assert (row["framework"], row["framework_version"]) == ("llama.cpp", "2824")
    assert (int(row["prompt_tokens"]), int(row["output_tokens"]), float(row["decode_tok_s"])) == (0, 512, figure)


@pytest.mark.parametrize("row_id", [*IDS, "DU15"])
def test_every_row_is_estimated_near_its_blind_figure(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _rows()[row_id], row_id)
    est, got = estimated[row_id]
    assert abs((est / got - 1) * 100 - BLIND[row_id]) <= 15 and 0.5 < est / got < 2.0, (row_id, est, got)


@pytest.mark.parametrize(("row_id", "bandwidth", "share"), [
    ("DU01", 760e9, 0.865), ("DU02", 912e9, 0.73), ("DU03", 716.8e9, 0.90), ("DU04", 716.8e9, 0.93),
    ("DU05", 360e9, 0.87), ("DU06", 360e9, 0.91), ("DU07", 576e9, 0.91), ("DU08", 576e9, 0.92),
])
def test_the_gddr_cards_read_share_at_the_l40s_fixed_time(row_id, bandwidth, share):
    """At the L40S's 64 us a layer of the same builds (DE126 / DE128, build 2834), the one-card rows read at 0.87-0.93
    of the datasheet bandwidth, F16 as fast as Q4_K_M; the RTX 3080 Ti at 0.73, no faster than the RTX 3080 on a
    slower card (a host-bound run: EPYC 7551P)."""
    tokens = ROWS[row_id][-1]
    size = F16_8B if ROWS[row_id][2] == "fp16" else Q4KM_8B
    assert size / (1 / tokens - LAYERS_8B * 64e-6) / bandwidth == pytest.approx(share, abs=0.01)


@pytest.mark.parametrize(("row_8b", "row_70b", "bandwidth", "share", "layer_us"), [
    ("DU09", "DU11", 360e9, 0.92, 112), ("DU12", "DU14", 576e9, 0.92, 98),
])
def test_four_cards_separate_rate_from_fixed_time(row_8b, row_70b, bandwidth, share, layer_us):
    """The 8B and 70B Q4_K_M tokens on four cards (layer split) are two equations, token = bytes / rate + layers x
    fixed time: 0.92 of one card's datasheet bandwidth (one card reads at a time) and 98-112 us a layer."""
    t8, t70 = 1 / ROWS[row_8b][-1], 1 / ROWS[row_70b][-1]
    rate = (Q4KM_70B - Q4KM_8B * LAYERS_70B / LAYERS_8B) / (t70 - t8 * LAYERS_70B / LAYERS_8B)
    assert rate / bandwidth == pytest.approx(share, abs=0.01)
    assert (t8 - Q4KM_8B / rate) / LAYERS_8B * 1e6 == pytest.approx(layer_us, abs=2)


# Rows DU16-DU22 (branch decodeblind34). DU16 / DU17: ggml-org/llama.cpp pull request #26284 ('HIP: tune rdna 3 mmq
# configs'), the t/s master column of its RX 7900 XTX table, 'llama 8B Q4_K_M' at micro-batch 512: tg64 and tg64@d4096.
# DU18-DU22: geerlingguy/ai-benchmarks README at 022fb931, the 'Intel 265K Custom PC' lines (llama.cpp Vulkan build,
# llama-bench tg128; issues #40, #36 and #39 hold the tables).
_PR = "https://github.com/ggml-org/llama.cpp/pull/26284"
_GE = "https://github.com/geerlingguy/ai-benchmarks/blob/022fb93162585171e0551bfed5679dbaf728d02c/README.md"
# id: (source, model, format, gpu, build, prompt tokens, output tokens, t/s as printed)
ROWS34 = {
    "DU16": (_PR, "llama-3.1-8b", "gguf-q4_k_m", "rx-7900-xtx", "10000", 0, 64, 105.75),
    "DU17": (_PR, "llama-3.1-8b", "gguf-q4_k_m", "rx-7900-xtx", "10000", 4096, 64, 98.67),
    "DU18": (_GE, "llama-3.2-3b", "gguf-q4_k_m", "rtx-3060-12gb", "7293", 0, 128, 122.85),
    "DU19": (_GE, "qwen2.5-14b", "gguf-q4_k_m", "rtx-3060-12gb", "7293", 0, 128, 29.77),
    "DU20": (_GE, "gpt-oss-20b", "", "rtx-3060-12gb", "7293", 0, 128, 83.96),
    "DU21": (_GE, "llama-3.2-3b", "gguf-q4_k_m", "rtx-a4000", "7190", 0, 128, 149.44),
    "DU22": (_GE, "gpt-oss-20b", "", "rtx-a4000", "7190", 0, 128, 93.55),
    "DU23": (_GE, "llama-3.2-3b", "gguf-q4_k_m", "rtx-3080-ti", "7190", 0, 128, 263.24),
    "DU24": (_GE, "qwen2.5-14b", "gguf-q4_k_m", "rtx-3080-ti", "7190", 0, 128, 70.74),
}
IDS34 = sorted(ROWS34)
# blind (validation README, 'Rows DU16-DU22'), on the code at the branch's start
BLIND34 = {"DU16": 15.2, "DU17": 13.8, "DU18": 7.6, "DU19": 6.9, "DU20": 19.3, "DU21": 8.5, "DU22": 30.8,
           "DU23": 14.3, "DU24": 9.0}


@pytest.mark.parametrize("row_id", IDS34)
def test_decodeblind34_rows_are_the_printed_figures(row_id):
    url, model, fmt, gpu, build, prompt, output, figure = ROWS34[row_id]
    row = _rows()[row_id]
    assert (row["source"], row["model"], row["weight_format"], row["gpu"], int(row["count"])) == (
        url, model, fmt, gpu, 1)
    assert (row["framework"], row["framework_version"], row["precision"]) == (
        "llama.cpp", build, "int4" if fmt else "fp4")
    assert (int(row["prompt_tokens"]), int(row["output_tokens"]), float(row["decode_tok_s"])) == (
        prompt, output, figure)


@pytest.mark.parametrize("row_id", IDS34)
def test_decodeblind34_rows_are_estimated_near_their_blind_figures(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _rows()[row_id], row_id)
    est, got = estimated[row_id]
    assert abs((est / got - 1) * 100 - BLIND34[row_id]) <= 15 and 0.5 < est / got < 2.0, (row_id, est, got)


def test_the_xtx_reads_its_kv_cache_near_the_framework_share():
    """tg64@d4096 less tg64 is the 4,096 tokens of F16 KV (32 layers x 8 KV heads x 128 x K and V x 2 B = 131,072 B a
    token, 0.537 GB) read once a token: 0.679 ms, 0.82 of the card's 960 GB/s, near llama.cpp's 0.80 share."""
    extra = 1 / ROWS34["DU17"][-1] - 1 / ROWS34["DU16"][-1]
    assert extra * 1e3 == pytest.approx(0.679, abs=0.002)
    assert LAYERS_8B * 8 * 128 * 2 * 2 * 4096 / extra / 960e9 == pytest.approx(0.82, abs=0.01)


def test_the_xtx_weights_leave_a_larger_fixed_time_at_the_framework_share():
    """The Q4_K_M weights (the file less its Q4_K embedding table, 4.626e9 B with tg64's mean 32 tokens of KV) at
    llama.cpp's 0.80 of 960 GB/s take 6.02 ms; the 9.456 ms token leaves 107 us a layer, against the 60 us the HIP
    build takes from the framework (the 1.8x that makes DU16 / DU17 read 14-15% fast). One card, one table: not set."""
    size = 4.58 * GIB - VOCAB * 4096 * 144 / 256 + LAYERS_8B * 8 * 128 * 2 * 2 * 32
    assert size / 1e9 == pytest.approx(4.626, abs=0.001)
    assert (1 / ROWS34["DU16"][-1] - size / (0.80 * 960e9)) / LAYERS_8B * 1e6 == pytest.approx(107, abs=1)


@pytest.mark.parametrize(("row_id", "bandwidth", "share"), [("DU18", 360e9, 0.685), ("DU21", 448e9, 0.670)])
def test_the_vulkan_dense_rows_read_two_thirds_of_the_datasheet(row_id, bandwidth, share):
    """Llama 3.2 3B Q4_K_M (1.87 GiB; tied embeddings, so the output reads the whole table) a token, fixed time
    included: 0.685 of the RTX 3060's 360 GB/s and 0.670 of the RTX A4000's 448 GB/s."""
    assert 1.87 * GIB * ROWS34[row_id][-1] / bandwidth == pytest.approx(share, abs=0.003)


@pytest.mark.parametrize(("small", "large", "bandwidth", "share", "layer_us"), [
    ("DU23", "DU24", 912e9, 0.735, 28.6), ("DU18", "DU19", 360e9, 0.722, 15.0),
])
def test_two_sizes_on_one_ampere_card_separate_share_from_fixed_time(small, large, bandwidth, share, layer_us):
    """Llama 3.2 3B Q4_K_M (1.87 GiB, 28 layers, all of it read: tied embeddings) and R1-Distill-Qwen-14B Q4_K_M
    (ASSUMPTION (U): Qwen2.5-14B's 8.37 GiB, less its Q4_K embedding table, 48 layers) on one card at one build are
    two equations, token = bytes / rate + layers x fixed time: the RTX 3080 Ti reads at 0.735 of its 912 GB/s with
    28.6 us a layer, the RTX 3060 at 0.722 of 360 GB/s with 15.0 us, the GA10x share llama.cpp's sm86 override takes
    from build 6100 (0.72, read on an RTX 3090 under the CUDA build; these Vulkan pairs check it, not set it)."""
    b3, b14 = 1.87 * GIB, 8.37 * GIB - 152064 * 5120 * 144 / 256
    t3, t14 = 1 / ROWS34[small][-1], 1 / ROWS34[large][-1]
    rate = (b14 - b3 * 48 / 28) / (t14 - t3 * 48 / 28)
    assert rate / bandwidth == pytest.approx(share, abs=0.003)
    assert (t3 - b3 / rate) / 28 * 1e6 == pytest.approx(layer_us, abs=0.5)
