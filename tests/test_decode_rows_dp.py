"""Rows DP01-DP16 and DP20-DP27 of validation/decode_independent.csv (the decodeblind20 round, blind figures in the
validation README). Each row must be estimated by the accuracy report (a row the serving model refuses, or a model or
GPU the catalog lost, would drop out of the file's median silently), and each figure must be what its source prints:
Massed-Compute/gpu-benchmark's concurrency-1 runs, read as 1 / mean TPOT of vllm bench serve or of sglang.bench_serving.
DP17-DP19 were entered and taken out (rows SS01-SS03's source); DP20-DP27 are the round's dense rows."""

from __future__ import annotations

import pytest

from tests import decode_rounds

IDS = [f"DP{i:02d}" for i in (*range(1, 17), *range(20, 28))]

MASSED = "https://github.com/Massed-Compute/gpu-benchmark/blob/"

# row -> (commit prefix, results/raw folder, framework, GPU id, mean TPOT in ms as the run's JSON or summary prints it)
TPOT = {"DP01": ("2889e809", "qwen3-30b-a3b/gpu_1x_h100", "vllm", "h100-80gb-pcie", 6.247),
        "DP02": ("2889e809", "qwen3-30b-a3b/gpu_1x_h100", "sglang", "h100-80gb-pcie", 5.857),
        "DP03": ("2889e809", "qwen3-30b-a3b/gpu_1x_pro_6000_blackwell", "vllm", "rtx-pro-6000-blackwell-server", 6.905),
        "DP04": ("2889e809", "qwen3-30b-a3b/gpu_1x_pro_6000_blackwell", "sglang", "rtx-pro-6000-blackwell-server",
                 6.222),
        "DP05": ("2889e809", "nemotron-3-nano-30b/gpu_1x_h100", "vllm", "h100-80gb-pcie", 4.918),
        "DP06": ("2889e809", "nemotron-3-nano-30b/gpu_1x_h100", "sglang", "h100-80gb-pcie", 5.103),
        "DP07": ("2889e809", "nemotron-3-nano-30b/gpu_1x_pro_6000_blackwell", "vllm", "rtx-pro-6000-blackwell-server",
                 5.839),
        "DP08": ("2889e809", "nemotron-3-nano-30b/gpu_1x_pro_6000_blackwell", "sglang",
                 "rtx-pro-6000-blackwell-server", 5.746),
        "DP09": ("2889e809", "glm-4-7-flash/gpu_1x_h100", "vllm", "h100-80gb-pcie", 7.518),
        "DP10": ("2889e809", "glm-4-7-flash/gpu_1x_h100", "sglang", "h100-80gb-pcie", 9.201),
        "DP11": ("2889e809", "glm-4-7-flash/gpu_1x_pro_6000_blackwell", "vllm", "rtx-pro-6000-blackwell-server", 7.674),
        "DP12": ("2889e809", "glm-4-7-flash/gpu_1x_pro_6000_blackwell", "sglang", "rtx-pro-6000-blackwell-server",
                 9.219),
        "DP13": ("0196d412", "qwen3.6-35b-a3b/gpu_1x_h100", "vllm", "h100-80gb-pcie", 6.289),
        "DP14": ("73d10443", "qwen3.6-35b-a3b/gpu_1x_pro_6000_blackwell", "vllm", "rtx-pro-6000-blackwell-server",
                 6.587),
        "DP15": ("3c1c1cdc", "gpt-oss-20b/gpu_1x_h200_nvl", "vllm", "h200-nvl-141gb", 3.53),
        "DP16": ("3166a98d", "gpt-oss-20b/gpu_1x_l40s", "vllm", "l40s", 5.66),
        "DP20": ("2889e809", "deepseek-r1-distill-llama-8b/gpu_1x_h100", "vllm", "h100-80gb-pcie", 9.526),
        "DP21": ("2889e809", "deepseek-r1-distill-llama-8b/gpu_1x_h100", "sglang", "h100-80gb-pcie", 9.292),
        "DP22": ("2889e809", "deepseek-r1-distill-llama-8b/gpu_1x_pro_6000_blackwell", "vllm",
                 "rtx-pro-6000-blackwell-server", 11.257),
        "DP23": ("2889e809", "deepseek-r1-distill-llama-8b/gpu_1x_pro_6000_blackwell", "sglang",
                 "rtx-pro-6000-blackwell-server", 11.306),
        "DP24": ("2889e809", "deepseek-r1-distill-qwen-32b/gpu_1x_h100", "vllm", "h100-80gb-pcie", 36.540),
        "DP25": ("2889e809", "deepseek-r1-distill-qwen-32b/gpu_1x_h100", "sglang", "h100-80gb-pcie", 36.477),
        "DP26": ("2889e809", "deepseek-r1-distill-qwen-32b/gpu_1x_pro_6000_blackwell", "vllm",
                 "rtx-pro-6000-blackwell-server", 44.714),
        "DP27": ("2889e809", "deepseek-r1-distill-qwen-32b/gpu_1x_pro_6000_blackwell", "sglang",
                 "rtx-pro-6000-blackwell-server", 46.829)}

NIGHTLY_ROWS = [r for r, (_, _, fw, _, _) in TPOT.items() if fw == "vllm"]
"""vLLM rows: nightly images of 2026-07-16 to 2026-08-11, recorded as 0.23.0 (the release issue #47089 ran on
2026-06-30, row DB01), not left empty as the blind round had them."""


def _dp_rows() -> dict[str, dict]:
    return decode_rounds.rows("DP")


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DP")


def test_the_round_has_its_twenty_four_rows():
    assert sorted(_dp_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _dp_rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", IDS)
def test_each_figure_is_one_over_the_runs_mean_tpot(row_id):
    commit, folder, framework, gpu, tpot_ms = TPOT[row_id]
    row = _dp_rows()[row_id]
    assert row["source"].startswith(MASSED + commit) and f"/results/raw/{folder}/" in row["source"]
    assert float(row["decode_tok_s"]) == pytest.approx(1000.0 / tpot_ms, rel=5e-4)
    assert f"{tpot_ms:g} ms" in row["metric"] or f"{tpot_ms:.3f} ms" in row["metric"]
    assert (row["framework"], row["gpu"], row["count"], row["tp"]) == (framework, gpu, "1", "1")
    assert row["precision"] == ("fp4" if "gpt-oss" in folder else "bf16")


def test_the_sglang_rows_state_their_release_and_the_random_lengths_they_drew():
    # sglang.bench_serving at --random-range-ratio 0.0 drew 370 input and 379 output tokens over the 5 prompts
    for row_id in [r for r, cell in TPOT.items() if cell[2] == "sglang"]:
        row = _dp_rows()[row_id]
        assert row["framework_version"] in ("0.5.14", "0.5.15"), row_id
        assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (74, 76), row_id
        assert "370 input and 379 output" in row["notes"], row_id


@pytest.mark.parametrize("row_id", NIGHTLY_ROWS)
def test_the_vllm_nightlies_are_recorded_after_v0_23_0(row_id):
    row = _dp_rows()[row_id]
    assert row["framework_version"] == "0.23.0"
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (128, 128)
    assert "--max-concurrency 1" in row["notes"]


def test_the_gpt_oss_rows_keep_their_servers_fp8_cache():
    # vllm-serve.log of both August runs: --kv-cache-dtype fp8 --gpu-memory-utilization 0.92
    for row_id in ("DP15", "DP16"):
        row = _dp_rows()[row_id]
        assert (row["kv_precision"], row["workload_options"]) == ("fp8", "memory_fraction=0.92"), row_id


def test_two_thirds_of_the_round_is_moe_and_none_of_it_speculative(kb):
    rows = _dp_rows()
    moe = [r for r, row in rows.items() if kb.models[row["model"]].moe]
    assert {rows[r]["model"] for r in moe} == {"qwen3-30b-a3b", "nvidia-nemotron-3-nano-30b-a3b", "glm-4.7-flash",
                                               "qwen3.5-35b-a3b", "gpt-oss-20b"}
    assert len(moe) == 16 and len(rows) == 24
    # the dense rows are DeepSeek's R1 distills of Llama-3.1-8B and Qwen2.5-32B, priced as their base networks
    assert {row["model"] for r, row in rows.items() if r not in moe} == {"llama-3.1-8b", "qwen2.5-32b"}
    assert [r for r, row in rows.items() if row["speculative"]] == []
