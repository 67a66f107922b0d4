"""Rows DJ18-DJ30 of validation/decode_independent.csv (branch decodeblind41, issue 22 item 7; blind figures in the
validation README, 'Rows DJ18-DJ30'): DJ18-DJ29 are Qwen3.5-122B-A10B FP8 (a 2026 hybrid MoE, 10B active) at one user
after 1K, 32K and 128K tokens of prompt, 1,024 out, from Millstone-AI-Solutions/mi300x-benchmark-investigation (Mar
2026); DJ30 is Qwen3.8-27B (the catalog's qwen3.5-27b) in AMD's MXFP4 W4A4 build on one MI355X under SGLang 0.5.18
with aiter, no speculation, at 119k of context (zebrax0r/AMD_MI355X_Bunya_LLM_tools_Qwen3.8-27B, Aug 2026).

- DJ18-DJ20: one MI300X under vLLM 0.18.0 (vllm/vllm-openai-rocm, VLLM_ROCM_USE_AITER=1);
- DJ21-DJ23: the same card under vLLM 0.18.1rc1 (rocm/vllm-dev nightly, AITER on);
- DJ24-DJ26: the same card under SGLang 0.5.9 (lmsysorg/sglang:v0.5.9-rocm700-mi30x, --attention-backend triton);
- DJ27-DJ29: two RTX PRO 6000 Blackwell under a vLLM cu130 nightly, TP 2, FlashInfer attention;
- DJ30: one MI355X, SGLang 0.5.18 ROCm (the README's measured 96.08 tok/s at 119k).

Each row is checked against the repository's own cells, the decode rates are recomputed from the /metrics deltas its
calculations.md files print, the three engines on one card are read against each other, and the harness is held to
the figures the blind run gave (nothing was set this round)."""

from __future__ import annotations

import pytest

from tests import decode_rounds

_REPO = ("https://github.com/Millstone-AI-Solutions/mi300x-benchmark-investigation/blob/"
         "12b5850be63f98f669cd7892b65cd2eb976a6cd7/")
_V1, _V2, _SG = (_REPO + f"raw-metrics/{d}/calculations.md" for d in ("vllm-v1", "vllm-v2", "sglang"))
_SUM = _REPO + "results-summary.md"
_MI = ("mi300x", 1, "1")
_NV = ("rtx-pro-6000-blackwell", 2, "2")
# id: (source, (gpu, count, tp), framework, version, prompt, tok/s, workload options)
ROWS = {
    "DJ18": (_V1, _MI, "vllm", "0.18.0", 1024, 85.97, "rocm_aiter=true"),
    "DJ19": (_V1, _MI, "vllm", "0.18.0", 32768, 82.76, "rocm_aiter=true"),
    "DJ20": (_V1, _MI, "vllm", "0.18.0", 131072, 76.1, "rocm_aiter=true"),
    "DJ21": (_V2, _MI, "vllm", "0.18.1", 1024, 82.35, "rocm_aiter=true"),
    "DJ22": (_V2, _MI, "vllm", "0.18.1", 32768, 86.04, "rocm_aiter=true"),
    "DJ23": (_V2, _MI, "vllm", "0.18.1", 131072, 74.6, "rocm_aiter=true"),
    "DJ24": (_SG, _MI, "sglang", "0.5.9", 1024, 43.79, "attention_backend=triton"),
    "DJ25": (_SG, _MI, "sglang", "0.5.9", 32768, 39.83, "attention_backend=triton"),
    "DJ26": (_SG, _MI, "sglang", "0.5.9", 131072, 49.2, "attention_backend=triton"),
    "DJ27": (_SUM, _NV, "vllm", "", 1024, 106.0, ""),
    "DJ28": (_SUM, _NV, "vllm", "", 32768, 100.5, ""),
    "DJ29": (_SUM, _NV, "vllm", "", 131072, 89.4, ""),
}
_BUNYA = ("https://github.com/zebrax0r/AMD_MI355X_Bunya_LLM_tools_Qwen3.8-27B/blob/"
          "0141d25d3ed5d00f22f09af843a8bd9180235350/README.md")
IDS = sorted([*ROWS, "DJ30"])
# blind, on 0ea85c63 with the rows added (validation README): estimate / measured - 1, in %
BLIND = {"DJ18": 15.3, "DJ19": 17.4, "DJ20": 20.0, "DJ21": 20.4, "DJ22": 12.9, "DJ23": 22.5, "DJ24": 148.2,
         "DJ25": 166.7, "DJ26": 102.0, "DJ27": -21.9, "DJ28": -19.5, "DJ29": -15.3, "DJ30": 88.1}
SGLANG = ("DJ24", "DJ25", "DJ26")
VLLM_MI300X = ("DJ18", "DJ19", "DJ20", "DJ21", "DJ22", "DJ23")


def _rows() -> dict[str, dict]:
    # this round's ids only: DJ01-DJ17 are decodeblind32's
    return {k: v for k, v in decode_rounds.rows("DJ").items() if 18 <= int(k[2:]) <= 40}


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DJ")


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", sorted(ROWS))
def test_each_row_is_its_published_cell(row_id):
    source, (gpu, count, tp), framework, version, prompt, figure, options = ROWS[row_id]
    row = _rows()[row_id]
    assert row["source"] == source
    assert (row["model"], row["precision"], row["weight_format"]) == ("qwen3.5-122b-a10b", "fp8", "")
    assert (row["gpu"], int(row["count"]), row["tp"]) == (gpu, count, tp)
    assert (row["framework"], row["framework_version"]) == (framework, version)
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (prompt, 1024)
    assert float(row["decode_tok_s"]) == figure
    assert (row["workload_options"], row["speculative"], row["kv_precision"]) == (options, "", "")
    assert "Blind round of branch decodeblind41" in row["notes"]


def test_the_mi355x_row_is_its_readme_cell():
    row = _rows()["DJ30"]
    assert row["source"] == _BUNYA
    assert (row["model"], row["precision"], row["weight_format"], row["gpu"], int(row["count"]), row["tp"]) == (
        "qwen3.5-27b", "fp4", "mxfp4", "mi355x", 1, "1")
    assert (row["framework"], row["framework_version"]) == ("sglang", "0.5.18")
    assert (int(row["prompt_tokens"]), int(row["output_tokens"]), float(row["decode_tok_s"])) == (119000, 512, 96.08)
    assert (row["workload_options"], row["speculative"], row["kv_precision"]) == (
        "attention_backend=aiter;rocm_aiter=true", "", "")
    assert "Blind round of branch decodeblind41" in row["notes"]


def test_the_mi355x_step_is_three_times_its_own_floor():
    # the README's breakdown of the 10.44 ms token (1 / 96 tok/s rounded): 18.0 GB of weights at 8 TB/s is 2.25 ms and
    # 7.9 GB of KV at 120k 0.98 ms, a 3.24 ms floor (309 tok/s); the 7.20 ms left it attributes to the 48 Gated DeltaNet
    # layers on Triton. By hand: 64 KiB a token (16 layers x 2 x 4 heads x 256 x 2 B) x 120k = 7.9 GB
    kv_gb = 16 * 2 * 4 * 256 * 2 * 120_000 / 1e9
    floor_ms = 18.0 / 8000 * 1e3 + kv_gb / 8000 * 1e3
    step_ms = 1e3 / float(_rows()["DJ30"]["decode_tok_s"])
    assert kv_gb == pytest.approx(7.86, abs=0.01)
    assert floor_ms == pytest.approx(3.23, abs=0.02)
    assert step_ms - floor_ms == pytest.approx(7.18, abs=0.05)


def test_the_vllm_rates_are_their_metric_deltas():
    # calculations.md: generation_tokens_total delta over request_decode_time_seconds_sum delta (vLLM's per-request
    # decode time leaves the prefill out): 0.18.0 at 1K 9,499 / 110.495 s, at 32K 6,208 / 75.014 s; 0.18.1rc1 at 1K
    # 4,294 / 52.141 s, at 32K 6,837 / 79.459 s
    cases = {"DJ18": (10307 - 808, 111.07866466100086 - 0.5831977089997054),
             "DJ19": (24949 - 18741, 292.882867627 - 217.86847559199987),
             "DJ21": (4344 - 50, 52.755275389001326 - 0.614251785000306),
             "DJ22": (27623 - 20786, 356.0909523749997 - 276.6315607630004)}
    for row_id, (tokens, seconds) in cases.items():
        assert tokens / seconds == pytest.approx(float(_rows()[row_id]["decode_tok_s"]), abs=0.005), row_id


def test_the_sglang_rates_are_their_metric_deltas():
    # SGLang exposes no decode-time histogram: calculations.md takes each completed request's e2e latency less the
    # mean TTFT; at 1K 7 requests completed (174.894 s of e2e, 8 TTFTs summing 12.815 s) for 7,168 tokens, at 32K 4
    # (122.031 s, 5 TTFTs summing 23.986 s) for 4,096
    cases = {"DJ24": (7168, 312.62351536750793 - 137.72930788993835, 7, 150.54411149024963 - 137.72935461997986, 8),
             "DJ25": (4096, 900.2372579574585 - 778.2061173915863, 4, 201.66909551620483 - 177.6830997467041, 5)}
    for row_id, (tokens, e2e, done, ttft, started) in cases.items():
        decode = (e2e / done - ttft / started) * done
        assert tokens / decode == pytest.approx(float(_rows()[row_id]["decode_tok_s"]), abs=0.005), row_id


def test_the_cache_a_step_reads_grows_with_the_prompt_but_sglangs_step_does_not():
    # models.yaml qwen3.5-122b-a10b: 12 attention layers x 2 (K, V) x 2 KV heads x 256 x 2 B = 24,576 B a token; at
    # the mean context (prompt + 512) the cache is 0.04 GB after 1K and 3.23 GB after 128K: 0.60 ms more a step at the
    # MI300X's 5,300 GB/s. vLLM 0.18.0's step grows 1.51 ms from 1K to 128K (2.1 TB/s on the added cache); SGLang's
    # is 2.5 ms shorter at 128K than at 1K: its excess is no cache read
    per_token = 12 * 2 * 2 * 256 * 2
    extra_gb = (131072 - 1024) * per_token / 1e9
    assert per_token == 24576 and extra_gb == pytest.approx(3.196, abs=0.001)
    assert extra_gb / 5300 * 1e3 == pytest.approx(0.60, abs=0.01)
    step = {k: 1e3 / float(r["decode_tok_s"]) for k, r in _rows().items()}
    assert step["DJ20"] - step["DJ18"] == pytest.approx(1.51, abs=0.01)
    assert step["DJ26"] - step["DJ24"] == pytest.approx(-2.51, abs=0.01)
    assert max(step[k] for k in SGLANG) - min(step[k] for k in SGLANG) < 5.0


def test_sglang_steps_about_twice_vllms_on_the_same_card():
    # the same MI300X VM, model and load on 2026-03-25: SGLang 0.5.9's step is 1.5-2.1 times vLLM 0.18.0's at every
    # prompt length (11.2, 13.0 and 7.2 ms more)
    step = {k: 1e3 / float(r["decode_tok_s"]) for k, r in _rows().items()}
    pairs = list(zip(SGLANG, ("DJ18", "DJ19", "DJ20"), strict=True))
    for sg, vl in pairs:
        assert 1.5 < step[sg] / step[vl] < 2.2, sg
    assert [round(step[sg] - step[vl], 1) for sg, vl in pairs] == [11.2, 13.0, 7.2]


def test_the_rows_keep_their_blind_figures(estimated):
    # nothing set this round (no source times SGLang's ROCm step for this model): the README's figures hold
    for row_id, figure in BLIND.items():
        est, got = estimated[row_id]
        assert 100.0 * (est / got - 1.0) == pytest.approx(figure, abs=1.0), row_id


def test_the_misses_beyond_2x_are_the_sglang_rows(estimated):
    # blind: the three MI300X SGLang rows read 2.0-2.7 times fast and the MI355X SGLang row 1.88 times; vLLM on the
    # MI300X within 25% (fast), the two-card workstation rows within 25% (slow)
    ratios = {row_id: estimated[row_id][0] / estimated[row_id][1] for row_id in IDS}
    assert {k for k, r in ratios.items() if r >= 2.0 or r <= 0.5} == set(SGLANG)
    assert 1.8 < ratios["DJ30"] < 2.0
    assert all(1.0 < ratios[k] < 1.25 for k in VLLM_MI300X)
    assert all(0.75 < ratios[k] < 1.0 for k in ("DJ27", "DJ28", "DJ29"))
