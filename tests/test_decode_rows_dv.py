"""Rows DV01-DV20 of validation/decode_independent.csv (the decodeblind5 round): each figure must agree with what
its source prints beside it. Ollama's eval rate is the generated tokens over the decode time
(hkadm/ollama_gpu_test gpu_test/gpu_nvidia_test_en.sh: ``eval_count`` over ``eval_duration``), so a row that quotes
one request (the V100 reports) carries tokens / seconds, and a row that quotes the sweep's mean rate
(test_result/Test_total.md) carries an output length of that rate times the mean generation time; imp's re-sweep
(kekzl/imp docs/BENCHMARKS.md) gives one figure a model but a range for gpt-oss-20b, whose middle the row carries.
A figure copied wrong (a digit, a swapped column) fails here, not in the accuracy report."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

ROWS = Path(__file__).parent / "data" / "validation" / "decode_independent.csv"
ONE_REQUEST = re.compile(r"([\d,]+) tokens in ([\d.]+) s")
SWEEP = re.compile(r"([\d.]+) s (?:of generation )?a request \(~([\d,]+) tokens\)")


def _dv_rows() -> dict[str, dict]:
    with ROWS.open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"].startswith("DV")}


def test_the_round_has_its_twenty_rows():
    assert sorted(_dv_rows()) == [f"DV{i:02d}" for i in range(1, 21)]


@pytest.mark.parametrize("row_id", ["DV12", "DV13", "DV14", "DV15"])
def test_a_one_request_row_is_its_tokens_over_its_seconds(row_id):
    # e.g. DV12 (qwen3:14b on one V100-SXM2-16GB, num_ctx 32,000): 3,056 tokens in 47.763 s = 63.98 t/s
    row = _dv_rows()[row_id]
    got = ONE_REQUEST.search(row["notes"])
    assert got, row_id
    tokens, seconds = int(got.group(1).replace(",", "")), float(got.group(2))
    assert int(row["output_tokens"]) == tokens
    assert float(row["decode_tok_s"]) == pytest.approx(tokens / seconds, rel=2e-3)


@pytest.mark.parametrize("row_id", [f"DV{i:02d}" for i in range(4, 12)])
def test_a_sweep_row_is_its_rate_times_its_generation_time(row_id):
    # e.g. DV04 (deepseek-r1:14b, RTX PRO 6000 Server): 114.02 t/s x 22.71 s = 2,589 tokens a request, ~2,590
    row = _dv_rows()[row_id]
    got = SWEEP.search(row["notes"])
    assert got, row_id
    seconds, tokens = float(got.group(1)), int(got.group(2).replace(",", ""))
    assert int(row["output_tokens"]) == tokens
    assert float(row["decode_tok_s"]) * seconds == pytest.approx(tokens, rel=1e-2)


def test_imp_rows_keep_the_llama_bench_figures_of_its_resweep():
    rows = _dv_rows()
    assert float(rows["DV01"]["decode_tok_s"]) == 160.5  # Qwen3-8B Q8_0 tg128 160.5 +- 1.3
    assert float(rows["DV02"]["decode_tok_s"]) == 319.2  # Qwen3-30B-A3B Q4_K_M tg128 319.2 +- 7.0
    assert float(rows["DV03"]["decode_tok_s"]) == pytest.approx((328.6 + 345.4) / 2)  # gpt-oss-20b, a range
    assert {rows[i]["gpu"] for i in ("DV01", "DV02", "DV03")} == {"rtx-5090"}
    assert {rows[i]["output_tokens"] for i in ("DV01", "DV02", "DV03")} == {"128"}


def test_the_multi_gpu_rows_split_their_layers():
    """DV11 (deepseek-r1:70b on 2 x RTX 5090) and DV15 (deepseek-r1:32b on 2 x V100-16GB): Ollama spreads a model
    that does not fit one card over both, layer by layer (llama.cpp's default split); the others use one card."""
    rows = _dv_rows()
    assert [i for i, r in rows.items() if r["count"] != "1"] == ["DV11", "DV15"]
    # DV18-DV20: Gemma 3 ran on Ollama's own engine, not its llama.cpp runner (ollama/ollama issue #9764), so the
    # rows are not estimated (a condition corrected after scoring: validation README, rows DV01-DV20)
    assert {i for i, r in rows.items() if r["framework"] != "llama.cpp"} == {"DV18", "DV19", "DV20"}
    assert {rows[i]["framework"] for i in ("DV18", "DV19", "DV20")} == {"ollama-engine"}
