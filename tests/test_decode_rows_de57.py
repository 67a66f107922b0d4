"""Rows DE57-DE65 of validation/decode_independent.csv (the decodeblind24 round, blind figures in the validation
README): single-stream decode of 2025-26 models, one request at a time, speculative decoding off.
Each row must be estimated by the accuracy report, and each figure must be what its source prints:
- DE57-DE59: alfredyu24/amd-mi350-benchmarks README.md @ fde88246 (deepseek-ai/DeepSeek-R1 FP8 on 8 x MI350X,
  rocm/vllm:rocm7.0.0_vllm_0.11.2_20251210, TP 8: 100 / 300 / 500 completion tokens in 1.50 / 4.30 / 6.89 s,
  66.79 / 69.77 / 72.53 tok/s);
- DE60-DE63: sgl-project/takeways sglang-cookbook/model-recipes/gpt-oss/usage-guide.md @ 242c3649 (SGLang 0.5.1,
  bench_one_batch_server at batch 1: gpt-oss-20b ITL 3.29 / 3.39 ms, output throughput 304.59 / 295.09 tok/s at
  1024 / 8192 in; gpt-oss-120b ITL 4.73 / 4.89 ms, 211.49 / 204.75 tok/s);
- DE64: janni.turunen.in (Qwen3.6-27B-FP8 on one H100 80GB SXM, vLLM 0.21: single-request generation 77 t/s);
- DE65: ollama/ollama issue #14861, comment of 2026-04-19 (Qwen3.6-35B-A3B Q4 on one L40S, llama.cpp b8833:
  TTFT 0.79 s, generation 144.7 t/s, 2.17 s a request of ~4,000 in / 200 out)."""

from __future__ import annotations

import pytest

from tests import decode_rounds

IDS = [f"DE{i}" for i in range(57, 66)]

MI350 = "https://github.com/alfredyu24/amd-mi350-benchmarks/blob/fde8824612757d4aa0ad9f1bb9201df7adf8c773/README.md"
TAKEWAYS = ("https://github.com/sgl-project/takeways/blob/242c364972edaa115cc488917d218a76ebc142b7/sglang-cookbook/"
            "model-recipes/gpt-oss/usage-guide.md")
# id -> (source, the model name the source uses, catalog id, precision, weight format, GPU, count, framework, figure)
SOURCES = {
    "DE57": (MI350, "deepseek-ai/DeepSeek-R1", "deepseek-r1", "fp8", "", "mi350x", 8, "vllm", 66.79),
    "DE58": (MI350, "deepseek-ai/DeepSeek-R1", "deepseek-r1", "fp8", "", "mi350x", 8, "vllm", 69.77),
    "DE59": (MI350, "deepseek-ai/DeepSeek-R1", "deepseek-r1", "fp8", "", "mi350x", 8, "vllm", 72.53),
    "DE60": (TAKEWAYS, "openai/gpt-oss-20b", "gpt-oss-20b", "fp4", "", "h100-80gb-sxm", 1, "sglang", 304.59),
    "DE61": (TAKEWAYS, "openai/gpt-oss-20b", "gpt-oss-20b", "fp4", "", "h100-80gb-sxm", 1, "sglang", 295.09),
    "DE62": (TAKEWAYS, "openai/gpt-oss-120b", "gpt-oss-120b", "fp4", "", "h100-80gb-sxm", 1, "sglang", 211.49),
    "DE63": (TAKEWAYS, "openai/gpt-oss-120b", "gpt-oss-120b", "fp4", "", "h100-80gb-sxm", 1, "sglang", 204.75),
    "DE64": ("https://janni.turunen.in/", "Qwen3.6-27B-FP8", "qwen3.5-27b", "fp8", "", "h100-80gb-sxm", 1, "vllm",
             77.0),
    "DE65": ("https://github.com/ollama/ollama/issues/14861", "Qwen3.6-35B-A3B", "qwen3.5-35b-a3b", "int4",
             "gguf-q4_k_m", "l40s", 1, "llama.cpp", 144.7),
}
END_TO_END = {"DE57", "DE58", "DE59"}  # whole-request rates (TTFT in them), the rest per-step decode rates


def _rows() -> dict[str, dict]:
    return {k: r for k, r in decode_rounds.rows("DE").items() if 57 <= int(k[2:]) <= 65}


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DE")


def test_the_round_has_its_nine_rows():
    assert sorted(_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", IDS)
def test_each_row_is_its_sources_figure_on_its_hardware(kb, row_id):
    source, name, model, precision, fmt, gpu, count, framework, figure = SOURCES[row_id]
    row = _rows()[row_id]
    assert row["source"] == source
    assert kb.model(name).id == model == row["model"]  # the source's model resolves to the row's catalog entry
    assert (row["precision"], row["weight_format"], row["gpu"], int(row["count"])) == (precision, fmt, gpu, count)
    assert row["framework"] == framework and float(row["decode_tok_s"]) == figure
    assert row["speculative"] == ""  # one request at a time, no draft tokens


def test_the_derived_figures_follow_from_the_printed_cells():
    rows = _rows()
    # the MI350X README: completion tokens over the request's seconds (1.50 / 4.30 / 6.89 s, rounded to 0.01 s)
    for row_id, tokens, seconds in (("DE57", 100, 1.50), ("DE58", 300, 4.30), ("DE59", 500, 6.89)):
        assert int(rows[row_id]["output_tokens"]) == tokens
        assert float(rows[row_id]["decode_tok_s"]) == pytest.approx(tokens / seconds, rel=0.004)
    # bench_one_batch_server's output throughput: within 0.3% of 1 / ITL (ms printed to 0.01)
    for row_id, itl_ms in (("DE60", 3.29), ("DE61", 3.39), ("DE62", 4.73), ("DE63", 4.89)):
        assert float(rows[row_id]["decode_tok_s"]) == pytest.approx(1000 / itl_ms, rel=0.003)
    assert [int(rows[i]["prompt_tokens"]) for i in ("DE60", "DE61", "DE62", "DE63")] == [1024, 8192, 1024, 8192]
    # the L40S comment: TTFT 0.79 s + 200 tokens at 144.7 t/s is its 2.17 s total, so the rate leaves the prefill out
    assert 0.79 + 200 / float(rows["DE65"]["decode_tok_s"]) == pytest.approx(2.17, abs=0.01)


@pytest.mark.parametrize("row_id", IDS)
def test_whole_request_rates_are_scored_end_to_end(row_id):
    # 'benchmark_latency' in the metric makes the accuracy report score output / (TTFT + output x step)
    assert ("benchmark_latency" in _rows()[row_id]["metric"]) == (row_id in END_TO_END)


def test_the_layouts_and_releases_the_sources_state():
    rows = _rows()
    assert all((rows[i]["tp"], rows[i]["framework_version"], rows[i]["workload_options"]) == ("8", "0.11.2",
               "rocm_aiter=true") for i in ("DE57", "DE58", "DE59"))
    assert {rows[i]["framework_version"] for i in ("DE60", "DE61", "DE62", "DE63")} == {"0.5.1"}
    # the 120b launch line sets --mem-fraction-static 0.95; the 20b one leaves SGLang's default
    assert [rows[i]["workload_options"] for i in ("DE60", "DE61", "DE62", "DE63")] == ["", "", "memory_fraction=0.95",
                                                                                      "memory_fraction=0.95"]
    assert (rows["DE64"]["framework_version"], rows["DE65"]["framework_version"]) == ("0.21.0", "8833")
