"""Rows DO01-DO10 of validation/decode_independent.csv (branch decodeblind35, issue 22 item 7; blind figures in the
validation README, 'Rows DO01-DO10'): single-stream llama.cpp decode on cards catalog61 added, read in two threads
earlier rounds had left for want of those cards.

- DO01-DO05: ikawrakow/ik_llama.cpp discussion #758 (2025-09-04): mainline llama.cpp's llama-sweep-bench of
  GPT-OSS-20B MXFP4 on one RTX 4080, the table without --swa-full: S_TG, 512 tokens after N_KV tokens in the cache;
- DO06-DO10: ggml-org/llama.cpp pull request #22254 ('HIP: flip GGML_HIP_GRAPHS to on', 2026-04-22): its 't/s
  hipgraph' column, tg64 and tg64@d8192, on gfx1100 @ 340 W (an RX 7900 XTX) and gfx908 @ 190 W (an MI100)."""

from __future__ import annotations

import pytest

from tests import decode_rounds

_IK = "https://github.com/ikawrakow/ik_llama.cpp/discussions/758"
_HIP = "https://github.com/ggml-org/llama.cpp/pull/22254"
# id: (source, model, precision, weight format, GPU, framework release, prompt, output, figure)
ROWS = {
    "DO06": (_HIP, "qwen3.5-27b", "int4", "gguf-q4_k_m", "rx-7900-xtx", "8900", 0, 64, 29.13),
    "DO07": (_HIP, "qwen3.5-27b", "int4", "gguf-q4_k_m", "rx-7900-xtx", "8900", 8192, 64, 28.23),
    "DO08": (_HIP, "qwen2.5-14b", "int8", "gguf-q8_0", "rx-7900-xtx", "8900", 0, 64, 48.51),
    "DO09": (_HIP, "qwen2.5-14b", "int8", "gguf-q8_0", "rx-7900-xtx", "8900", 8192, 64, 42.74),
    "DO10": (_HIP, "gpt-oss-20b", "fp4", "", "mi100", "8900", 0, 64, 147.72),
}
# the discussion's 'llama.cpp without --swa-full' table: N_KV -> (T_TG s, S_TG t/s) as printed
SWEEP = {"DO01": (0, 2.751, 186.13), "DO02": (4096, 3.091, 165.66), "DO03": (12288, 3.288, 155.74),
         "DO04": (20480, 3.499, 146.32), "DO05": (28672, 3.724, 137.49)}
for _id, (_nkv, _ttg, _tps) in SWEEP.items():
    ROWS[_id] = (_IK, "gpt-oss-20b", "fp4", "", "rtx-4080", "6380", _nkv, 512, _tps)
IDS = sorted(ROWS)
# blind, on e113951e with the rows added (validation README, 'Rows DO01-DO10')
BLIND = {"DO01": -3.9, "DO02": 4.7, "DO03": 5.0, "DO04": 5.7, "DO05": 6.7, "DO06": 33.6, "DO07": 34.2,
         "DO08": -9.7, "DO09": -6.1, "DO10": 21.0}


def _rows() -> dict[str, dict]:
    # this round's ids only: decodeblind36 goes on from DO11 (tests/test_decode_rows_do36.py)
    return {k: v for k, v in decode_rounds.rows("DO").items() if int(k[2:]) <= 10}


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DO")


def test_the_round_has_its_rows():
    assert sorted(_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", IDS)
def test_each_row_is_its_sources_figure_on_its_card(row_id):
    source, model, precision, fmt, gpu, release, prompt, output, figure = ROWS[row_id]
    row = _rows()[row_id]
    assert row["source"] == source
    assert (row["model"], row["precision"], row["weight_format"], row["gpu"], int(row["count"])) == (
        model, precision, fmt, gpu, 1)
    assert (row["framework"], row["framework_version"]) == ("llama.cpp", release)
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (prompt, output)
    assert float(row["decode_tok_s"]) == figure
    assert row["speculative"] == row["kv_precision"] == row["tp"] == ""  # one card, F16 cache, no draft


@pytest.mark.parametrize("row_id", sorted(SWEEP))
def test_the_sweep_rate_is_its_512_tokens_over_the_printed_time(row_id):
    # sweep-bench prints S_TG = TG / T_TG; the printed pair agrees to the table's rounding
    _nkv, ttg, tps = SWEEP[row_id]
    assert 512 / ttg == pytest.approx(tps, rel=2e-3)


def test_the_sweep_slows_with_the_cache_it_reads():
    # each row reads a deeper cache than the one before it, so each is slower
    rates = [SWEEP[i][2] for i in sorted(SWEEP)]
    assert rates == sorted(rates, reverse=True)


def test_the_hip_graph_column_is_the_faster_one():
    # the pull request's own 't/s master' figures (graphs off) beside the rows' 't/s hipgraph' figures (graphs on)
    master = {"DO06": 28.19, "DO07": 27.47, "DO08": 47.17, "DO09": 41.25, "DO10": 146.28}
    for row_id, before in master.items():
        assert before < ROWS[row_id][-1], row_id


@pytest.mark.parametrize("row_id", IDS)
def test_the_blind_band_holds(estimated, row_id):
    # the README's blind figures, within a point while nothing is set for these rows
    est, got = estimated[row_id]
    assert 100.0 * (est / got - 1.0) == pytest.approx(BLIND[row_id], abs=1.0)
