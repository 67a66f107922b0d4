"""Rows DG01-DG12 of validation/decode_independent.csv (the decodeblind16 round, blind figures in the validation
README). Each row must be estimated by the accuracy report (a row the serving model refuses, such as tensor
parallelism across two DGX Spark nodes, or a model or GPU the catalog lost, would drop out of the file's median
silently), and each figure must be what its source prints: the llama.cpp comparator of antfly's L4 lane, master's
tg128 in llama.cpp pull request #22587, Conselara's batch-1 row, kubis.ai's c1 tg128 cells, ai-muninn's two
headline figures, rvllm.com's vLLM B=1 cell, Millstone's single-request speed, the forum threads' bench-serve
output throughput and single-stream decode, and kubis.ai's Nemotron 3 Super cluster cell."""

from __future__ import annotations

import pytest

from tests import decode_rounds

IDS = [f"DG{i:02d}" for i in range(1, 13)]

ANTFLY = ("https://github.com/antflydb/antfly/blob/02ab881c557598c7aff4edb979db19ba65b929d2/"
          "docs/design/inference/history/gemma4/a4b-perf.md")
KUBIS = "https://kubis.ai/blog/dgx_series/benchmarks/gemma4-26b-topology-benchmark"
# row -> (the t/s its source prints, the source's URL)
PRINTED = {
    "DG01": (69.41, ANTFLY),  # llama.cpp against Antfly's 63.18, one L4, 128 greedy tokens
    "DG02": (82.5, "https://github.com/ggml-org/llama.cpp/pull/22587"),  # master tg128 82.5 +/- 0.1
    "DG03": (17.0, "https://conselara.dev/notes/dgx-spark-benchmarks/"),  # batch 1 (serial), 256 tokens
    "DG04": (38.68, KUBIS),  # Solo, c1
    "DG05": (57.93, KUBIS),  # Cluster TP=2, c1
    "DG06": (7.0, "https://www.ai-muninn.com/en/blog/dgx-spark-gemma4-31b-dense-7-toks"),
    "DG07": (52.0, "https://ai-muninn.com/en/blog/dgx-spark-gemma4-26b-nvfp4-52-toks"),
    "DG08": (66.9, "https://rvllm.com/bench"),  # the summary table's B=1 (the sweep rounds it to 69)
    "DG09": (210.8, "https://www.millstoneai.com/inference-benchmark/qwen3-coder-next-fp8-1x-h200-sxm"),
    "DG10": (42.61, "https://forums.developer.nvidia.com/t/from-20-to-35-tps-on-qwen3-next-nvfp4-w-flashinfer-12-1f/356153"),
    "DG11": (22.97, "https://kubis.ai/blog/dgx_series/benchmarks/nemotron3-super-120b-topology-benchmark"),
    "DG12": (25.21, "https://forums.developer.nvidia.com/t/8x-dgx-spark-cluster-build-report-crs812-400dd-4x100g-"
                    "breakouts-nemotron-3-ultra-at-tp-8/373146"),  # 8K prompt, all links at 200G
}


def _dg_rows() -> dict[str, dict]:
    return decode_rounds.rows("DG")


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DG")


def test_the_round_has_its_twelve_rows():
    assert sorted(_dg_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _dg_rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", sorted(PRINTED))
def test_a_row_is_its_printed_figure(row_id):
    figure, url = PRINTED[row_id]
    row = _dg_rows()[row_id]
    assert float(row["decode_tok_s"]) == pytest.approx(figure)
    assert row["source"] == url


def test_the_two_node_rows_keep_their_layouts():
    # Conselara: TP=2, EP=2 over RoCE; kubis.ai's cluster: TP=2 over the 200GbE stacking link
    rows = _dg_rows()
    assert (rows["DG03"]["count"], rows["DG03"]["tp"], rows["DG03"]["ep"]) == ("2", "2", "2")
    assert (rows["DG05"]["count"], rows["DG05"]["tp"]) == ("2", "2")
    assert rows["DG04"]["count"] == "1"
    assert (rows["DG11"]["count"], rows["DG11"]["tp"]) == ("2", "2")
    assert (rows["DG12"]["count"], rows["DG12"]["tp"]) == ("4", "4")


def test_dg10_is_the_bench_serve_run_it_prints():
    # 119 generated tokens in 2.79 s -> 42.65 tok/s (the run prints 42.61 from the unrounded duration); the TTFT
    # of 131.13 ms is inside it, so the row is scored end to end (benchmark_latency-like)
    row = _dg_rows()["DG10"]
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (12, 119)
    assert float(row["decode_tok_s"]) == pytest.approx(119 / 2.79, rel=0.002)
    assert "benchmark_latency" in row["metric"]


def test_no_row_of_the_round_is_speculative_and_each_is_marked_blind():
    rows = _dg_rows()
    assert [r for r, row in rows.items() if row["speculative"]] == []
    assert all("Blind round of branch decodeblind16" in row["notes"] for row in rows.values())
