"""Rows DK01-DK12 of validation/decode_independent.csv (the decodeblind18 round, blind figures in the validation
README). Each row must be estimated by the accuracy report (a row the serving model refuses, or a model or GPU the
catalog lost, would drop out of the file's median silently), and each figure must be what its source prints:
Table 2 of the vLLM blog's DGX Spark post (Nemotron-3-Super NVFP4, decode rate = generated tokens over total latency
less TTFT, DK01-DK04), the LMSYS DGX Spark post's rounded gpt-oss figures (DK05, DK06) and the batch=1 column of
Tencent's Hunyuan-A13B speed table (DK07-DK12)."""

from __future__ import annotations

import pytest

from tests import decode_rounds

IDS = [f"DK{i:02d}" for i in range(1, 13)]

VLLM_BLOG = ("https://github.com/vllm-project/vllm-project.github.io/blob/5ffe2dd543a30f34309d71d8374803612223e9fb/"
             "_posts/2026-06-01-vllm-dgx-spark.md")
HUNYUAN = "https://github.com/Tencent-Hunyuan/Hunyuan-A13B/blob/2a313cdaf4a19420699b8aafb615c8c38c92ca3f/README_CN.md"

# vLLM blog 'vLLM on the DGX Spark' (2026-06-01), Table 2: row -> (prompt tok, gen tok, TTFT s, total latency s,
# decode tok/s as printed); the total latency is printed to 0.01 s ('~2.47 s')
SPARK_TABLE = {"DK01": (1834, 32, 1.12, 2.47, 23.7), "DK02": (7234, 32, 3.85, 5.26, 22.7),
               "DK03": (1834, 108, 1.12, 5.74, 23.4), "DK04": (7234, 124, 3.84, 9.26, 22.9)}

# Hunyuan-A13B README_CN.md, vLLM speed table, batch=1 column: row -> (precision, cards, tokens/s, KV precision)
HUNYUAN_TABLE = {"DK07": ("bf16", 8, 190.84, ""), "DK08": ("bf16", 4, 158.90, ""), "DK09": ("bf16", 2, 111.72, ""),
                 "DK10": ("int8", 2, 109.10, ""), "DK11": ("fp8", 2, 91.83, "fp8"), "DK12": ("fp8", 1, 60.07, "fp8")}


def _dk_rows() -> dict[str, dict]:
    return decode_rounds.rows("DK")


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DK")


def test_the_round_has_its_twelve_rows():
    assert sorted(_dk_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _dk_rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", sorted(SPARK_TABLE))
def test_spark_rows_are_the_tables_decode_rate(row_id):
    # e.g. DK01: 32 tokens over 2.47 - 1.12 s = 23.70 tok/s, as printed
    row = _dk_rows()[row_id]
    prompt, gen, ttft, total, rate = SPARK_TABLE[row_id]
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (prompt, gen)
    assert float(row["decode_tok_s"]) == pytest.approx(rate)
    # the printed total brackets the rate within its rounding (+-0.005 s)
    assert gen / (total + 0.005 - ttft) <= rate + 0.05 and gen / (total - 0.005 - ttft) >= rate - 0.05
    assert (row["model"], row["gpu"], row["count"], row["framework"]) == (
        "nvidia-nemotron-3-super-120b-a12b", "gb10", "1", "vllm")
    assert row["source"] == VLLM_BLOG and row["speculative"] == ""


def test_gpt_oss_rows_are_the_posts_rounded_figures():
    # LMSYS 'Optimizing GPT-OSS on NVIDIA DGX Spark': 'around 70 tokens/s on GPT-OSS 20B and 50 tokens/s on
    # GPT-OSS 120B'
    rows = _dk_rows()
    assert (rows["DK05"]["model"], float(rows["DK05"]["decode_tok_s"])) == ("gpt-oss-20b", 70.0)
    assert (rows["DK06"]["model"], float(rows["DK06"]["decode_tok_s"])) == ("gpt-oss-120b", 50.0)
    for row_id in ("DK05", "DK06"):
        assert (rows[row_id]["gpu"], rows[row_id]["count"], rows[row_id]["framework"]) == ("gb10", "1", "sglang")


@pytest.mark.parametrize("row_id", sorted(HUNYUAN_TABLE))
def test_hunyuan_rows_are_the_batch_one_column(row_id):
    row = _dk_rows()[row_id]
    precision, cards, rate, kv = HUNYUAN_TABLE[row_id]
    assert (row["model"], row["gpu"], row["framework"]) == ("hunyuan-a13b", "h20-96gb-sxm", "vllm")
    assert (row["precision"], int(row["count"]), int(row["tp"]), row["kv_precision"]) == (precision, cards, cards, kv)
    assert float(row["decode_tok_s"]) == pytest.approx(rate)
    # benchmark_throughput.py --input-len 2048 --output-len 14336: an offline engine, scored on the decode step
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (2048, 14336)
    assert "benchmark_throughput" in row["metric"] and "benchmark_latency" not in row["metric"]
    assert row["source"] == HUNYUAN
