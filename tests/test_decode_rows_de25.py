"""Rows DE25-DE30 of validation/decode_independent.csv (the decodeblind22 round, blind figures in the validation
README): single-stream decode of 2025-26 MoE models under vLLM, one request at a time, speculative decoding off.
Each row must be estimated by the accuracy report, and each figure must be what its source prints:
- DE25: modelscope/evalscope docs/en/best_practice/gpt_oss.md @ bf351ed0 (gpt-oss-20b, 1 x H20-96GB, vLLM
  0.10.1+gptoss, evalscope perf --parallel 1, 1024 in / 1024 out: average latency 6.811 s, Gen. toks/s 150.34);
- DE26: datawhalechina/self-llm models/GLM-5.2/2-GLM-5.2-vLLM.md @ 2a01a223 (nvidia/GLM-5.2-NVFP4, 8 x RTX PRO 6000
  Blackwell Server Edition, vLLM v0.25.0, TP 8 + expert parallel, fp8 KV: mean TPOT 21.70 ms at concurrency 1);
- DE27 / DE28: joshua8.ai/vllm-v016-blackwell-throughput-benchmark (Qwen3-VL-30B-A3B AWQ 4-bit on one RTX 5090,
  sequential: 259.3 tok/s on v0.16.0rc2, 241.0 on v0.15.1);
- DE29: mstar-project/mstar pull request #272 (GLM-5.2 FP8, 8 x H200, TP 8, batch 1: vLLM 52.6 tok/s at k=0);
- DE30: vllm-project/vllm issue #25993 (GLM-4.6 16-bit on 8 x H200, TP: ~47 tok/s without MTP)."""

from __future__ import annotations

import pytest

from tests import decode_rounds

IDS = [f"DE{i}" for i in range(25, 31)]

# id -> (source, the model name the source uses, catalog id, precision, weight format, GPU, count, figure)
SOURCES = {
    "DE25": ("https://github.com/modelscope/evalscope/blob/bf351ed031bad13946e205641928109c28d76260/docs/en/"
             "best_practice/gpt_oss.md", "openai/gpt-oss-20b", "gpt-oss-20b", "fp4", "", "h20-96gb-sxm", 1, 150.34),
    "DE26": ("https://github.com/datawhalechina/self-llm/blob/2a01a2231c295891e0021a2f906154af8a515d4e/models/"
             "GLM-5.2/2-GLM-5.2-vLLM.md", "nvidia/GLM-5.2-NVFP4", "glm-5.2", "fp4", "nvfp4",
             "rtx-pro-6000-blackwell-server", 8, 46.08),
    "DE27": ("https://joshua8.ai/vllm-v016-blackwell-throughput-benchmark", "Qwen3-VL-30B-A3B-Instruct",
             "qwen3-30b-a3b", "int4", "", "rtx-5090", 1, 259.3),
    "DE28": ("https://joshua8.ai/vllm-v016-blackwell-throughput-benchmark", "Qwen3-VL-30B-A3B-Instruct",
             "qwen3-30b-a3b", "int4", "", "rtx-5090", 1, 241.0),
    "DE29": ("https://github.com/mstar-project/mstar/pull/272", "zai-org/GLM-5.2-FP8", "glm-5.2", "fp8", "",
             "h200-141gb-sxm", 8, 52.6),
    "DE30": ("https://github.com/vllm-project/vllm/issues/25993", "GLM-4.6", "glm-4.5", "bf16", "", "h200-141gb-sxm",
             8, 47.0),
}
END_TO_END = {"DE25", "DE27", "DE28"}  # whole-request rates (TTFT in them), the rest per-step decode rates


def _rows() -> dict[str, dict]:
    # DE31 on are the next round's (decodeblind23, tests/test_decode_rows_de31.py)
    return {k: r for k, r in decode_rounds.rows("DE").items() if 25 <= int(k[2:]) <= 30}


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DE")


def test_the_round_has_its_six_rows():
    assert sorted(_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", IDS)
def test_each_row_is_its_sources_figure_on_its_hardware(kb, row_id):
    source, name, model, precision, fmt, gpu, count, figure = SOURCES[row_id]
    row = _rows()[row_id]
    assert row["source"] == source
    assert kb.model(name).id == model == row["model"]  # the source's model resolves to the row's catalog entry
    assert (row["precision"], row["weight_format"], row["gpu"], int(row["count"])) == (precision, fmt, gpu, count)
    assert float(row["decode_tok_s"]) == figure
    assert row["framework"] == "vllm" and row["speculative"] == ""  # one request at a time, no draft tokens


def test_the_derived_figures_follow_from_the_printed_cells():
    rows = _rows()
    # evalscope at concurrency 1: 1,024 tokens a request over the 6.811 s average latency (Gen. toks/s 150.34)
    assert float(rows["DE25"]["decode_tok_s"]) == pytest.approx(1024 / 6.811, abs=0.02)
    # vllm bench serve at --max-concurrency 1: 1 / mean TPOT 21.70 ms; 20,720 input tokens over 20 requests
    assert float(rows["DE26"]["decode_tok_s"]) == pytest.approx(1000 / 21.70, abs=0.005)
    assert int(rows["DE26"]["prompt_tokens"]) == 20720 // 20 and int(rows["DE26"]["output_tokens"]) == 512
    # the same page, v0.16.0rc2 over v0.15.1: 259.3 / 241.0, the post's 7.6%
    assert float(rows["DE27"]["decode_tok_s"]) / float(rows["DE28"]["decode_tok_s"]) == pytest.approx(1.076,
                                                                                                     abs=0.001)


@pytest.mark.parametrize("row_id", IDS)
def test_whole_request_rates_are_scored_end_to_end(row_id):
    # 'benchmark_latency' in the metric makes the accuracy report score output / (TTFT + output x step)
    assert ("benchmark_latency" in _rows()[row_id]["metric"]) == (row_id in END_TO_END)


def test_the_layouts_the_sources_state():
    rows = _rows()
    de26 = rows["DE26"]
    assert (de26["tp"], de26["ep"], de26["kv_precision"], de26["framework_version"]) == ("8", "8", "fp8", "0.25.0")
    assert {rows[i]["framework_version"] for i in ("DE27", "DE28")} == {"0.16.0", "0.15.1"}
    assert all(rows[i]["workload_options"] == "quantization=awq" for i in ("DE27", "DE28"))
    assert all(rows[i]["tp"] == "8" and rows[i]["count"] == "8" for i in ("DE29", "DE30"))
    assert rows["DE25"]["framework_version"] == "0.10.1"


def test_the_round_is_all_moe(kb):
    assert all(kb.models[row["model"]].moe for row in _rows().values())
