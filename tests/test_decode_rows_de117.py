"""Rows DE117-DE130 of validation/decode_independent.csv (branch llamaformat59, blind figures in the validation README):
llama.cpp's decode by weight format and model size on one card at one stated build (issue 22 items 1 and 6).

Source: XiongjieDai/GPU-Benchmarks-on-LLM-Inference at 7d5af524 (May 2024, RunPod), the notebooks
'LLaMA 3/Professional GPUs/<card>_v3.ipynb': each builds llama.cpp with `make LLAMA_CUBLAS=1` and runs
`llama-bench -p 512,1024,4096,8192 -n 512,1024,4096,8192` on three files one after another, Llama 3 8B Q4_K_M
(4.58 GiB), Llama 3 8B F16 (14.96 GiB) and Llama 3 70B Q4_K_M (39.59 GiB), printing the build under each table.
The row is the tg512 column (512 tokens from an empty context), as D01-D11 of the same README take it.

What the pairs read (hand arithmetic, the validation README's 'Rows DE117-DE128'): the 8B and 70B Q4_K_M files on one
card at one build are two equations, token = bytes / rate + layers x fixed time, which separate the read rate from the
fixed time a layer that gpuwise's memory_overrides.hbm could only fix as a sum."""

from __future__ import annotations

import pytest

from tests import decode_rounds

_NB = ("https://github.com/XiongjieDai/GPU-Benchmarks-on-LLM-Inference/blob/7d5af5243b33c4fbea06cfaa962aa7fdee031af6/"
       "LLaMA%203/Professional%20GPUs/{}.ipynb")
# id: (notebook, model, precision, format, gpu, build, tg512 t/s as printed)
ROWS = {
    "DE117": ("A100_SXM_v3", "llama-3-8b", "int4", "gguf-q4_k_m", "a100-80gb-sxm", "2837", 135.04),
    "DE118": ("A100_SXM_v3", "llama-3-8b", "fp16", "fp16", "a100-80gb-sxm", "2837", 53.49),
    "DE119": ("A100_SXM_v3", "llama-3-70b", "int4", "gguf-q4_k_m", "a100-80gb-sxm", "2837", 24.61),
    "DE120": ("A100_PCIe_v3", "llama-3-8b", "int4", "gguf-q4_k_m", "a100-80gb-pcie", "2836", 140.62),
    "DE121": ("A100_PCIe_v3", "llama-3-8b", "fp16", "fp16", "a100-80gb-pcie", "2836", 54.84),
    "DE122": ("A100_PCIe_v3", "llama-3-70b", "int4", "gguf-q4_k_m", "a100-80gb-pcie", "2836", 22.31),
    "DE123": ("H100_PCIe_v3", "llama-3-8b", "int4", "gguf-q4_k_m", "h100-80gb-pcie", "2843", 145.55),
    "DE124": ("H100_PCIe_v3", "llama-3-8b", "fp16", "fp16", "h100-80gb-pcie", "2843", 68.03),
    "DE125": ("H100_PCIe_v3", "llama-3-70b", "int4", "gguf-q4_k_m", "h100-80gb-pcie", "2843", 25.03),
    "DE126": ("L40S_v3", "llama-3-8b", "int4", "gguf-q4_k_m", "l40s", "2834", 115.55),
    "DE127": ("L40S_v3", "llama-3-8b", "fp16", "fp16", "l40s", "2834", 43.69),
    "DE128": ("L40S_v3", "llama-3-70b", "int4", "gguf-q4_k_m", "l40s", "2834", 15.46),
}
IDS = sorted(ROWS, key=lambda k: int(k[2:]))
# blind (validation README, 'Rows DE117-DE128'), on 67c1b1f9 with the rows added; the Q4_K_M rows on HBM parts moved
# with the release 2800 HBM figure they set (tests/test_llamacpp_hbm_2800.py holds them)
MOVED = {"DE117", "DE119", "DE120", "DE122", "DE123", "DE125"}
BLIND = {"DE117": 28.5, "DE118": 30.4, "DE119": 1.1, "DE120": 19.2, "DE121": 21.6, "DE122": 6.6, "DE123": 18.5,
         "DE124": 1.3, "DE125": -1.4, "DE126": 4.9, "DE127": -2.1, "DE128": -1.8}
GIB = 1024**3
LAYERS_8B, LAYERS_70B = 32, 80
VOCAB, HIDDEN_8B, HIDDEN_70B = 128256, 4096, 8192
# bytes a token reads: llama-bench's printed file size less the token-embedding table (Q4_K there: 144 B a 256
# weights; F16 in the F16 file), of which one row is read, plus the F16 KV cache (8 KV heads x 128) at the mean
# context of tg512 (256 tokens)
KV_8B, KV_70B = LAYERS_8B * 8 * 128 * 2 * 2 * 256, LAYERS_70B * 8 * 128 * 2 * 2 * 256
Q4KM_8B = 4.58 * GIB - VOCAB * HIDDEN_8B * 144 / 256 + KV_8B      # 4.656e9 B
Q4KM_70B = 39.59 * GIB - VOCAB * HIDDEN_70B * 144 / 256 + KV_70B  # 42.00e9 B
F16_8B = 14.96 * GIB - VOCAB * HIDDEN_8B * 2 + KV_8B              # 15.05e9 B


def _rows() -> dict[str, dict]:
    return {k: r for k, r in decode_rounds.rows("DE").items() if 117 <= int(k[2:]) <= 130}


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DE")


def test_the_round_has_its_rows():
    assert sorted(_rows(), key=lambda k: int(k[2:])) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", IDS)
def test_rows_are_the_notebooks_tg512(row_id):
    nb, model, precision, fmt, gpu, build, figure = ROWS[row_id]
    row = _rows()[row_id]
    assert row["source"] == _NB.format(nb)
    assert (row["model"], row["precision"], row["weight_format"], row["gpu"], int(row["count"])) == (
        model, precision, fmt, gpu, 1)
    assert (row["framework"], row["framework_version"]) == ("llama.cpp", build)
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (0, 512)  # tg512 from an empty context
    assert float(row["decode_tok_s"]) == figure
    assert row["speculative"] == "" and row["tp"] == ""


def _split(row_8b: str, row_70b: str) -> tuple[float, float]:
    """Read rate (B/s) and fixed time a layer (s) from the 8B and 70B Q4_K_M tokens of one card at one build."""
    t8, t70 = 1 / ROWS[row_8b][-1], 1 / ROWS[row_70b][-1]
    # t = bytes / rate + layers x fixed: two equations, two unknowns
    rate = (Q4KM_70B - Q4KM_8B * LAYERS_70B / LAYERS_8B) / (t70 - t8 * LAYERS_70B / LAYERS_8B)
    return rate, (t8 - Q4KM_8B / rate) / LAYERS_8B


@pytest.mark.parametrize(("row_8b", "row_70b", "bandwidth", "share", "layer_us"), [
    ("DE117", "DE119", 2039e9, 0.67, 125),  # A100 SXM, build 2837
    ("DE120", "DE122", 1935e9, 0.58, 93),   # A100 PCIe, build 2836
    ("DE123", "DE125", 2000e9, 0.67, 106),  # H100 PCIe, build 2843
    ("DE126", "DE128", 864e9, 0.82, 64),    # L40S (GDDR6), build 2834
])
def test_two_sizes_of_one_format_separate_rate_from_fixed_time(row_8b, row_70b, bandwidth, share, layer_us):
    """On the HBM parts the fixed time a layer is 93-125 us at this build, not the 60 us gpuwise keeps for every
    HBM build, at a read share of 0.58-0.67 (gpuwise: 0.60); the GDDR L40S reads at 0.82 with 64 us a layer
    (gpuwise: 0.80 and 47 us from build 2800)."""
    rate, fixed = _split(row_8b, row_70b)
    assert rate / bandwidth == pytest.approx(share, abs=0.01)
    assert fixed * 1e6 == pytest.approx(layer_us, abs=2)


def test_f16_reads_slower_than_q4_k_m_on_ga100_only():
    """At the Q4_K_M split's fixed time, the 8B F16 file reads at 0.50-0.51 of the datasheet on both A100s (Q4_K_M:
    0.58-0.67) and at the Q4_K_M rate on the H100 PCIe and the L40S: a format difference of the GA100 chip, not of
    HBM."""
    for row_f16, pair, bandwidth, share in (("DE118", ("DE117", "DE119"), 2039e9, 0.50),
                                            ("DE121", ("DE120", "DE122"), 1935e9, 0.51),
                                            ("DE124", ("DE123", "DE125"), 2000e9, 0.67),
                                            ("DE127", ("DE126", "DE128"), 864e9, 0.84)):
        _, fixed = _split(*pair)
        rate = F16_8B / (1 / ROWS[row_f16][-1] - LAYERS_8B * fixed)
        assert rate / bandwidth == pytest.approx(share, abs=0.015), row_f16


def test_the_blind_estimates_stay_near_their_blind_band(estimated):
    for row_id in IDS:
        est, got = estimated[row_id]
        err = (est / got - 1) * 100
        assert row_id in MOVED or abs(err - BLIND[row_id]) <= 15, (row_id, err)
        assert 0.5 < est / got < 2.0, row_id  # none beyond 2x
