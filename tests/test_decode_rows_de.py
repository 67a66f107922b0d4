"""Rows DE01-DE24 of validation/decode_independent.csv (the decodeblind21 round, blind figures in the validation
README). Each row must be estimated by the accuracy report, and each figure must be what its source prints:
pavlokhmel/llm_throughput_benchmark results.md as first committed (58837ecb, 2026-06-06), llama-server with one
request at a time, tok/s = completion tokens / wall seconds of the request (the repository's
llm_throughput_benchmark.py at fbdbcf14), unsloth GGUFs on one GPU each."""

from __future__ import annotations

import pytest

from tests import decode_rounds

IDS = [f"DE{i:02d}" for i in range(1, 25)]

SOURCE = ("https://github.com/pavlokhmel/llm_throughput_benchmark/blob/58837ecb183490b6b5aee3f77fe84b78f6ff026f/"
          "results.md")

# results.md at 58837ecb, the data-centre and RTX 4090 columns in the file's order (the post of 2026-06-07 names
# them V100 PCIe 32GB, A100 PCIe 40GB, A100 SXM 80GB, RTX 4090 24GB, H200 PCIe 141GB, H100 SXM 80GB, H200 SXM 141GB,
# B300 SXM 288GB; its RTX 4080, P100, GTX 1080 and Apple columns are not taken)
GPUS = ["v100-32gb-pcie", "a100-40gb-pcie", "a100-80gb-sxm", "rtx-4090", "h200-nvl-141gb", "h100-80gb-sxm",
        "h200-141gb-sxm", "b300"]
# the file's MODEL ID -> (catalog model, precision, weight format, that row's tok/s in the file)
TABLE = {"unsloth/gpt-oss-20b-GGUF:Q4_K_M": ("gpt-oss-20b", "fp4", "", [138, 180, 189, 266, 276, 286, 292, 327]),
         "unsloth/gemma-4-26B-A4B-it-GGUF:UD-Q4_K_M": ("gemma-4-26b-a4b", "int4", "gguf-q4_k_m",
                                                       [84, 108, 116, 149, 178, 181, 188, 185]),
         "unsloth/Qwen3.6-35B-A3B-GGUF:UD-Q4_K_M": ("qwen3.5-35b-a3b", "int4", "gguf-q4_k_m",
                                                    [92, 120, 128, 180, 189, 194, 204, 210])}


def _de_rows() -> dict[str, dict]:
    # DE25 on are the next round's (decodeblind22, tests/test_decode_rows_de25.py)
    return {k: r for k, r in decode_rounds.rows("DE").items() if int(k[2:]) <= 24}


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DE")


def test_the_round_has_its_twenty_four_rows():
    assert sorted(_de_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _de_rows()[row_id], row_id)


def test_each_figure_is_the_files_cell_for_its_model_and_gpu():
    rows = _de_rows()
    n = 0
    for gguf, (model, precision, fmt, speeds) in TABLE.items():
        for gpu, speed in zip(GPUS, speeds, strict=True):
            n += 1
            row = rows[f"DE{n:02d}"]
            assert (row["model"], row["gpu"], row["precision"], row["weight_format"]) == (model, gpu, precision, fmt)
            assert float(row["decode_tok_s"]) == speed
            assert gguf in row["notes"]
            assert row["source"] == SOURCE
    assert n == len(IDS)


@pytest.mark.parametrize("row_id", IDS)
def test_each_row_is_scored_end_to_end_as_one_llama_server_request(row_id):
    # the client divides the completion tokens by the whole request's wall time (prefill and HTTP in it), so the
    # accuracy report scores output / (TTFT + output x step): 'benchmark_latency' in the metric selects that
    row = _de_rows()[row_id]
    assert "benchmark_latency" in row["metric"] and "completion_tokens / wall time" in row["metric"]
    assert (row["framework"], row["count"], row["tp"], row["speculative"]) == ("llama.cpp", "1", "", "")
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (30, 1000)


def test_the_round_is_all_small_moe(kb):
    rows = _de_rows()
    assert all(kb.models[row["model"]].moe for row in rows.values())
    assert {row["model"] for row in rows.values()} == {m for m, *_ in TABLE.values()}
