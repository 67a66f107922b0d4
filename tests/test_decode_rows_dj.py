"""Rows DJ01-DJ17 of validation/decode_independent.csv (branch decodeblind32, issue 22 item 7; blind figures in the
validation README, 'Rows DJ01-DJ17'): single-stream decode of gpt-oss-20b / 120b (ggml-org's MXFP4 GGUF files) under
llama.cpp's CUDA build, from ggml-org/llama.cpp discussion #15396 ('guide : running gpt-oss with llama.cpp', Aug-Nov
2025): the guide's own llama-bench tables and its readers' comments, each on the card and build it prints.

- DJ01-DJ05: one RTX PRO 6000 Blackwell Max-Q (builds 6199 and 6445) and Workstation Edition (6205), both models;
- DJ06-DJ08: gpt-oss-20b on one RTX 3090 / 4090 / 5090 (build 6210);
- DJ09-DJ13: gpt-oss-20b on one V100 PCIe 16GB (build 6129): llama-bench tg128 and llama-batched-bench at 2K-32K of
  prompt;
- DJ14-DJ15: gpt-oss-20b on one T4 (6824) and one P100 PCIe (6830);
- DJ16-DJ17: both models on one GB10 (an Asus Ascent GX10; the build is not printed)."""

from __future__ import annotations

import pytest

from gpuwise.estimators.serving import choose
from tests import decode_rounds

_U = "https://github.com/ggml-org/llama.cpp/discussions/15396"
_MAXQ = "rtx-pro-6000-blackwell-max-q"
_WS = "rtx-pro-6000-blackwell"
# id: (source, model, GPU, build, prompt, output, figure)
ROWS = {
    "DJ01": (_U + "#discussioncomment-14146983", "gpt-oss-20b", _MAXQ, "6199", 0, 128, 249.96),
    "DJ02": (_U + "#discussioncomment-14146983", "gpt-oss-120b", _MAXQ, "6199", 0, 128, 170.62),
    "DJ03": (_U + "#discussioncomment-14367805", "gpt-oss-120b", _MAXQ, "6445", 0, 128, 197.21),
    "DJ04": (_U + "#discussioncomment-14153871", "gpt-oss-20b", _WS, "6205", 0, 128, 286.91),
    "DJ05": (_U + "#discussioncomment-14153871", "gpt-oss-120b", _WS, "6205", 0, 128, 196.31),
    "DJ06": (_U, "gpt-oss-20b", "rtx-3090", "6210", 0, 128, 161.77),
    "DJ07": (_U, "gpt-oss-20b", "rtx-4090", "6210", 0, 128, 221.95),
    "DJ08": (_U, "gpt-oss-20b", "rtx-5090", "6210", 0, 128, 282.51),
    "DJ09": (_U, "gpt-oss-20b", "v100-16gb-pcie", "6129", 0, 128, 117.71),
    "DJ14": (_U + "#discussioncomment-14761475", "gpt-oss-20b", "t4", "6824", 0, 128, 50.76),
    "DJ15": (_U + "#discussioncomment-14761475", "gpt-oss-20b", "p100-16gb-pcie", "6830", 0, 128, 66.30),
    "DJ16": (_U + "#discussioncomment-15079003", "gpt-oss-20b", "gb10", "", 0, 128, 84.18),
    "DJ17": (_U + "#discussioncomment-15079003", "gpt-oss-120b", "gb10", "", 0, 128, 57.19),
}
# the V100's llama-batched-bench -npl 1 -ntg 128 lines: prompt -> T_TG (s) as printed; S_TG = 128 / T_TG
V100_BATCHED = {"DJ10": (2048, 1.201, 106.60), "DJ11": (8192, 1.417, 90.31), "DJ12": (16384, 1.659, 77.14),
                "DJ13": (32768, 2.121, 60.35)}
for _id, (_pp, _t, _rate) in V100_BATCHED.items():
    ROWS[_id] = (_U, "gpt-oss-20b", "v100-16gb-pcie", "6129", _pp, 128, _rate)
IDS = sorted(ROWS)
# blind, on ae835c35 with the rows added (validation README, 'Rows DJ01-DJ17')
BLIND = {"DJ01": 39.5, "DJ02": 43.2, "DJ03": 23.9, "DJ04": 21.7, "DJ05": 24.6, "DJ06": 35.9, "DJ07": 5.6,
         "DJ08": 23.4, "DJ09": 22.6, "DJ10": 32.6, "DJ11": 47.5, "DJ12": 60.4, "DJ13": 79.5, "DJ14": 78.1,
         "DJ15": 74.1, "DJ16": -6.6, "DJ17": -1.3}


def _rows() -> dict[str, dict]:
    # this round's ids only: DJ18-DJ40 are branch decodeblind41's (tests/test_decode_rows_dj41.py)
    return {k: v for k, v in decode_rounds.rows("DJ").items() if int(k[2:]) <= 17}


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DJ")


def test_the_round_has_its_rows():
    assert sorted(_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", IDS)
def test_each_row_is_its_comments_figure_on_its_card_and_build(row_id):
    source, model, gpu, build, prompt, output, figure = ROWS[row_id]
    row = _rows()[row_id]
    assert row["source"] == source
    assert (row["model"], row["precision"], row["weight_format"], row["gpu"], int(row["count"])) == (
        model, "fp4", "", gpu, 1)  # ggml-org's MXFP4 files: llama.cpp's fp4 format is gguf-mxfp4
    assert (row["framework"], row["framework_version"]) == ("llama.cpp", build)
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (prompt, output)
    assert float(row["decode_tok_s"]) == figure
    assert (row["tp"], row["speculative"]) == ("", "")  # one card, no draft model


def test_the_batched_bench_rows_are_128_tokens_over_the_printed_generation_time():
    """llama-batched-bench prints T_TG to the millisecond and S_TG = 128 / T_TG to the hundredth: the rows keep S_TG."""
    for row_id, (_, t_tg, rate) in V100_BATCHED.items():
        assert 128 / t_tg == pytest.approx(rate, abs=0.06), row_id
        assert "batched-bench" in _rows()[row_id]["metric"]


def test_the_max_q_pair_is_one_card_three_weeks_apart():
    """SoftwareRenderer's Max-Q: gpt-oss-120b tg128 170.62 t/s at build 6199 (2025-08-18) and 197.21 at 6445
    (2025-09-10), 5.861 -> 5.071 ms a token, 0.79 ms over 36 layers = 22 us a layer: the '15% TG improvement' the reply
    states, on one card and file."""
    assert round(197.21 / 170.62, 3) == 1.156
    assert abs((1000 / 170.62 - 1000 / 197.21) / 36 * 1000 - 21.95) < 0.01


# rows a later change of this branch moved on purpose (held by their own tests below): the V100's deep rows, once
# llama.cpp's one-token attention below Turing's MMA reads the cache once per query head (serving.yaml
# kv_per_query_head)
MOVED = {"DJ10", "DJ11", "DJ12", "DJ13"}
# moved by branch decodeblind34 (serving.yaml llama.cpp architecture_overrides.sm86: a GA10x part reads at 0.72 from
# build 6100): closer to the measurement, held by the test below
MOVED_SM86 = {"DJ06"}
# moved by branch decodeblind38 (serving.yaml llama.cpp cuda_graphs_gate: a T4 ran no CUDA graphs before #25749):
# closer to the measurement, held by tests/test_llamacpp_graphs_gate.py
MOVED_GATE = {"DJ14"}


def test_the_blind_estimates_stay_near_their_blind_band(estimated):
    decode_rounds.assert_near_blind(estimated, {i: BLIND[i] for i in IDS}, MOVED | MOVED_SM86 | MOVED_GATE)


def test_the_ga10x_rows_moved_toward_their_measurement(estimated):
    decode_rounds.assert_moved_closer(estimated, BLIND, MOVED_SM86)


def _engine(kb, accuracy, gpu, model="gpt-oss-20b", precision="fp4", framework="llama.cpp", version="6129"):
    job = accuracy.serving_job(kb, model, precision, framework, 1024, 128, framework_version=version)
    return choose(job, kb.gpus[gpu], 1).engine


def test_the_per_query_head_read_is_llama_cpp_below_turing_mma(kb, accuracy):
    """fattn.cu takes the MMA kernel (a KV head's query heads in one tile) for one token only from compute
    capability 7.5; below it the vector kernel gives each query head its own block."""
    for gpu, below in (("v100-16gb-pcie", True), ("p100-16gb-pcie", True), ("p40", True), ("t4", False),
                       ("rtx-3090", False), ("gb10", False)):
        assert _engine(kb, accuracy, gpu).kv_per_query_head is below, gpu
    assert _engine(kb, accuracy, "v100-16gb-pcie").sc.group == 8  # gpt-oss-20b: 64 query heads over 8 KV heads
    assert not _engine(kb, accuracy, "v100-16gb-pcie", model="llama-3.1-8b", precision="fp16",
                       framework="vllm", version="0.10.0").kv_per_query_head


def test_the_v100s_deep_token_is_eight_reads_of_the_cache(estimated):
    """From a mean context of 64 (DJ09, tg128) to 32,832 (DJ13, 128 tokens after 32,768) the 12 full-attention
    layers' F16 cache grows 32,768 x 12 x 2 x 8 x 64 x 2 B = 0.805 GB, read 8 times (64 query heads over 8 KV heads)
    at gpuwise's HBM share of the V100 (0.60 x 900 GB/s): 11.93 ms more a token. Measured: 16.570 - 8.495 = 8.07 ms,
    the same eight reads at 0.89 of 900 GB/s (blind, one read: +2.30 ms; DJ13 +79.5% -> -12.4% after)."""
    grow = 32_768 * 12 * 2 * 8 * 64 * 2
    by_hand = grow * 8 / (0.60 * 900e9) * 1000
    assert by_hand == pytest.approx(11.93, abs=0.01)
    est = {k: 1000 / estimated[k][0] for k in ("DJ09", "DJ13")}
    assert est["DJ13"] - est["DJ09"] == pytest.approx(by_hand, rel=0.02)
    measured = 1000 / 60.35 - 1000 / 117.71
    assert measured == pytest.approx(grow * 8 / (0.89 * 900e9) * 1000, rel=0.01)
    for row_id in sorted(MOVED):
        est, got = estimated[row_id]
        assert abs(est / got - 1) < 0.25, row_id
