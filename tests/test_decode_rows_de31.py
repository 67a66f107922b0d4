"""Rows DE31-DE37 and DE39-DE56 of validation/decode_independent.csv (the decodeblind23 round, blind figures in the
validation README): one request at a time, speculative decoding off. Each row must be estimated by the accuracy
report, and each figure must be what its source prints:
- DE31: t0mdicks0n/llm-self-hosting notes/kimi-k2.5-benchmark-results.md @ d9aa0fc3 (Kimi-K2.5 INT4 experts on
  8 x H100 SXM, vLLM 0.15.0, TP 8, sequential non-streaming requests of 128 tokens: 111.7 / 112.5 / 112.5 tok/s);
- DE32: wangzheng422/docker_env .../2026.06.rhai.qwen3.6/final-integrated-report-portable.md @ f5c5e3e0
  (Qwen3.6-27B-FP8 on 4 x L4, vLLM 0.21.0, TP 4, long-single-4k-512: TPOT p50 37.5 ms);
- DE33-DE37: tharindu-sankalpa/huggingface-learning qwen_codegen/qwen_codegen_summary.csv @ 92f0502d (transformers
  generate at batch 1, bfloat16, flash_attention_2, one H100 NVL: output tokens / generation seconds);
- DE39-DE56: premAI-io/benchmarks README.md @ 16338c31 (Llama 2 7B Chat and Mistral 7B v0.1 Instruct on one A100
  80GB at batch 1, 512 tokens, mean of 10 repetitions: transformers fp16 / LLM.int8() / NF4, vLLM 0.4.0 16-bit / AWQ,
  ExLlamaV2 0.0.19 EXL2 8.0 / 4.0 bpw, llama-cpp-python Q8_0 / Q4_K_M).
DE38 (the same author's L4 page, 30.2 tok/s for 15.2 GB of FP16 weights: 459 GB/s, over the L4's 300 GB/s) was
scored blind and taken out."""

from __future__ import annotations

import pytest

from tests import decode_rounds

IDS = [f"DE{i}" for i in range(31, 38)] + [f"DE{i}" for i in range(39, 57)]

CODEGEN = ("https://github.com/tharindu-sankalpa/huggingface-learning/blob/"
           "92f0502d4d6999c5cad05cdec9433c64466cb897/qwen_codegen/qwen_codegen_summary.csv")
# id -> (source, the model name the source uses, catalog id, precision, GPU, count, framework, figure)
SOURCES = {
    "DE31": ("https://github.com/t0mdicks0n/llm-self-hosting/blob/d9aa0fc359a63dfafafecad3d6e5c3aecceac85c/notes/"
             "kimi-k2.5-benchmark-results.md", "moonshotai/Kimi-K2.5", "kimi-k2", "int4", "h100-80gb-sxm", 8, "vllm",
             112.2),
    "DE32": ("https://github.com/wangzheng422/docker_env/blob/f5c5e3e007445616a54e71c3de201938a3946e91/redhat/ocp4/"
             "4.20/2026.06.rhai.qwen3.6/final-integrated-report-portable.md", "Qwen/Qwen3.6-27B-FP8", "qwen3.5-27b",
             "fp8", "l4", 4, "vllm", 26.67),
    "DE33": (CODEGEN, "Qwen/Qwen2.5-Coder-7B-Instruct", "qwen2.5-7b", "bf16", "h100-nvl-94gb", 1, "transformers",
             53.14),
    "DE34": (CODEGEN, "Qwen/Qwen2.5-Coder-32B-Instruct", "qwen2.5-32b", "bf16", "h100-nvl-94gb", 1, "transformers",
             25.49),
    "DE35": (CODEGEN, "Qwen/Qwen3-32B", "qwen3-32b", "bf16", "h100-nvl-94gb", 1, "transformers", 21.66),
    "DE36": (CODEGEN, "Qwen/Qwen3-30B-A3B", "qwen3-30b-a3b", "bf16", "h100-nvl-94gb", 1, "transformers", 10.62),
    "DE37": (CODEGEN, "Qwen/Qwen3-Coder-30B-A3B-Instruct", "qwen3-30b-a3b", "bf16", "h100-nvl-94gb", 1,
             "transformers", 10.27),
}
PREM = "https://github.com/premAI-io/benchmarks/blob/16338c31085de5718fd5bc803d8153a795d494f3/README.md"
# README.md's two tokens/s tables, in the order the rows take them: (precision, weight format, framework, the cell)
PREM_CELLS = [("fp16", "", "transformers", 34.20), ("int8", "", "transformers", 6.91),
              ("int4", "", "transformers", 17.83),
              ("fp16", "", "vllm", 89.43), ("int4", "", "vllm", 115.52), ("int8", "", "exllama", 125.58),
              ("int4", "", "exllama", 159.68), ("int8", "gguf-q8_0", "llama.cpp", 89.90),
              ("int4", "gguf-q4_k_m", "llama.cpp", 97.35),
              ("fp16", "", "transformers", 37.05), ("int8", "", "transformers", 5.08),
              ("int4", "", "transformers", 19.58),
              ("bf16", "", "vllm", 84.89), ("int4", "", "vllm", 106.03), ("int8", "", "exllama", 114.81),
              ("int4", "", "exllama", 126.29), ("int8", "gguf-q8_0", "llama.cpp", 88.27),
              ("int4", "gguf-q4_k_m", "llama.cpp", 95.33)]
PREM_NAMES = ["meta-llama/Llama-2-7b-chat-hf"] * 9 + ["mistralai/Mistral-7B-Instruct-v0.1"] * 9
for i, (precision, _, framework, figure) in enumerate(PREM_CELLS):
    SOURCES[f"DE{39 + i}"] = (PREM, PREM_NAMES[i], "llama-2-7b" if i < 9 else "mistral-7b-v0.1", precision,
                              "a100-80gb-sxm", 1, framework, figure)
WEIGHT_FORMATS = {f"DE{39 + i}": fmt for i, (_, fmt, _, _) in enumerate(PREM_CELLS)}
# qwen_codegen_summary.csv: id -> (input tokens, output tokens, generation seconds)
CODEGEN_CELLS = {"DE33": (81, 550, 10.349), "DE34": (81, 800, 31.387), "DE35": (45, 4096, 189.115),
                 "DE36": (45, 4096, 385.832), "DE37": (81, 2275, 221.600)}


def _rows() -> dict[str, dict]:
    # DE57 on are the next round's (decodeblind24, tests/test_decode_rows_de57.py)
    return {k: r for k, r in decode_rounds.rows("DE").items() if 31 <= int(k[2:]) <= 56}


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DE")


def test_the_round_has_its_twenty_five_rows():
    assert sorted(_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", IDS)
def test_each_row_is_its_sources_figure_on_its_hardware(kb, row_id):
    source, name, model, precision, gpu, count, framework, figure = SOURCES[row_id]
    row = _rows()[row_id]
    assert row["source"] == source
    assert kb.model(name).id == model == row["model"]  # the source's model resolves to the row's catalog entry
    assert (row["precision"], row["gpu"], int(row["count"]), row["framework"]) == (precision, gpu, count, framework)
    assert float(row["decode_tok_s"]) == figure
    assert row["weight_format"] == WEIGHT_FORMATS.get(row_id, "")
    assert row["speculative"] == ""


def test_the_derived_figures_follow_from_the_printed_cells():
    rows = _rows()
    # three sequential requests of 128 tokens in 1.146 / 1.138 / 1.138 s: 111.7 / 112.5 / 112.5 tok/s
    assert float(rows["DE31"]["decode_tok_s"]) == pytest.approx((111.7 + 112.5 + 112.5) / 3, abs=0.05)
    assert float(rows["DE31"]["decode_tok_s"]) == pytest.approx(128 / ((1.146 + 1.138 + 1.138) / 3), abs=0.1)
    # 1 / TPOT p50 37.5 ms
    assert float(rows["DE32"]["decode_tok_s"]) == pytest.approx(1000 / 37.5, abs=0.005)
    for row_id, (prompt, output, seconds) in CODEGEN_CELLS.items():
        row = rows[row_id]
        assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (prompt, output)
        assert float(row["decode_tok_s"]) == pytest.approx(output / seconds, abs=0.01)  # seconds printed to the ms


def test_whole_request_rates_are_scored_end_to_end():
    # 'benchmark_latency' in the metric makes the accuracy report score output / (TTFT + output x step)
    rows = _rows()
    assert {k for k, r in rows.items() if "benchmark_latency" in r["metric"]} == set(IDS) - {"DE32"}


def test_the_layouts_the_sources_state():
    rows = _rows()
    assert (rows["DE31"]["tp"], rows["DE31"]["framework_version"]) == ("8", "0.15.0")
    assert (rows["DE32"]["tp"], rows["DE32"]["framework_version"]) == ("4", "0.21.0")
    assert all(rows[f"DE{i}"]["framework_version"] == "" for i in range(33, 38))  # transformers release not printed
    # the harness's pinned releases (bench_*/requirements.txt, bench_vllm/setup.sh); llama.cpp's build is not pinned
    versions = {"transformers": "4.39.3", "vllm": "0.4.0", "exllama": "0.0.19", "llama.cpp": ""}
    assert all(rows[f"DE{i}"]["framework_version"] == versions[rows[f"DE{i}"]["framework"]] for i in range(39, 57))
    assert all((rows[f"DE{i}"]["workload_options"] == "quantization=awq") == (i in (43, 52)) for i in range(39, 57))
    assert all((int(rows[f"DE{i}"]["prompt_tokens"]), int(rows[f"DE{i}"]["output_tokens"])) == (20, 512)
               for i in range(39, 57))
