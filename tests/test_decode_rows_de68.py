"""Rows DE68-DE88 of validation/decode_independent.csv (branch sparkblind57, blind figures in the validation README):
one streamed request at a time on one DGX Spark (GB10) under vLLM 0.26.0, from djangodevreng/dgx-spark-benchmarks at
56365367 (Django de Vreng's arena data): each run folder's 03-long-output test, llama-benchy 0.4.0 --pp 256 --tg 4096
--concurrency 1 5 10, the 'tg4096 (c1)' tokens/s (first to last token of one request, prefill excluded).
Each row must be estimated by the accuracy report and hold the figure its run folder prints."""

from __future__ import annotations

import pytest

from tests import decode_rounds

URL = "https://github.com/djangodevreng/dgx-spark-benchmarks/blob/56365367/results/"
# id -> (run folder, the checkpoint its meta.json names, the c1 tg4096 t/s its 03-long-output.md prints)
RUNS = {
    "DE68": ("gemma-4/gemma-4-26b-a4b-it/bf16", "google/gemma-4-26B-A4B-it", 24.11),
    "DE69": ("gemma-4/gemma-4-26b-a4b-it/nvfp4", "nvidia/Gemma-4-26B-A4B-NVFP4", 30.51),
    "DE70": ("gemma-4/gemma-4-31b-it/bf16", "google/gemma-4-31B-it", 3.73),
    "DE71": ("gemma-4/gemma-4-31b-it/nvfp4", "nvidia/Gemma-4-31B-IT-NVFP4", 7.01),
    "DE72": ("gpt-oss/gpt-oss-20b/mxfp4", "openai/gpt-oss-20b", 46.07),
    "DE73": ("ministral-3/ministral-3-3b-instruct/bf16", "mistralai/Ministral-3-3B-Instruct-2512", 52.43),
    "DE74": ("ministral-3/ministral-3-8b-instruct/bf16", "mistralai/Ministral-3-8B-Instruct-2512", 25.41),
    "DE75": ("nemotron-3/nemotron-3-nano-30b-a3b/bf16", "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", 29.15),
    "DE76": ("nemotron-3/nemotron-3-nano-30b-a3b/fp8", "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-FP8", 47.07),
    "DE77": ("nemotron-3/nemotron-3-nano-30b-a3b/nvfp4", "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4", 62.94),
    "DE78": ("qwen-3.5/qwen-3.5-0.8b/bf16", "Qwen/Qwen3.5-0.8B", 114.67),
    "DE79": ("qwen-3.5/qwen-3.5-2b/bf16", "Qwen/Qwen3.5-2B", 42.88),
    "DE80": ("qwen-3.5/qwen-3.5-4b/bf16", "Qwen/Qwen3.5-4B", 20.57),
    "DE81": ("qwen-3.5/qwen-3.5-9b/bf16", "Qwen/Qwen3.5-9B", 12.47),
    "DE82": ("qwen-3.6/qwen-3.6-27b/bf16", "Qwen/Qwen3.6-27B", 4.54),
    "DE83": ("qwen-3.6/qwen-3.6-27b/fp8", "Qwen/Qwen3.6-27B-FP8", 7.89),
    "DE84": ("qwen-3.6/qwen-3.6-35b-a3b/bf16", "Qwen/Qwen3.6-35B-A3B", 30.35),
    "DE85": ("qwen-3.6/qwen-3.6-35b-a3b/fp8", "Qwen/Qwen3.6-35B-A3B-FP8", 51.93),
    "DE86": ("qwen-3.6/qwen-3.6-35b-a3b/nvfp4", "RedHatAI/Qwen3.6-35B-A3B-NVFP4", 42.74),
    "DE87": ("qwen-3.8/qwen-3.8-27b/bf16", "Qwen/Qwen3.8-27B", 4.50),
    "DE88": ("qwen-3.8/qwen-3.8-27b/fp8", "Qwen/Qwen3.8-27B-FP8", 7.94),
}
IDS = sorted(RUNS)
# the Ministral 3 Instruct 2512 cards: 'the instruct post-trained version in FP8' (corrected after scoring, README)
FP8_RELEASES = {"DE73", "DE74"}
GB10_BYTES_PER_S = 273e9  # knowledge/gpus.yaml gb10: 273 GB/s


def _rows() -> dict[str, dict]:
    # DE89 on are free
    return {k: r for k, r in decode_rounds.rows("DE").items() if 68 <= int(k[2:]) <= 88}


@pytest.fixture(scope="module")
def estimated(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "DE")


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows()) == IDS


@pytest.mark.parametrize("row_id", IDS)
def test_every_row_of_the_round_is_estimated(estimated, row_id):
    decode_rounds.assert_estimated(estimated, _rows()[row_id], row_id)


@pytest.mark.parametrize("row_id", IDS)
def test_each_row_is_its_run_folders_figure(kb, row_id):
    run, checkpoint, figure = RUNS[row_id]
    row = _rows()[row_id]
    assert row["source"] == URL + run + "/03-long-output.md"
    assert kb.model(checkpoint).id == row["model"]  # the run's checkpoint resolves to the row's catalog entry
    assert (row["gpu"], row["count"], row["framework"], row["framework_version"]) == ("gb10", "1", "vllm", "0.26.0")
    assert float(row["decode_tok_s"]) == figure and row["speculative"] == ""
    # llama-benchy's pp256 plus the chat template's 16 tokens; the request's cap of 4,096 tokens
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (272, 4096)


@pytest.mark.parametrize("row_id", IDS)
def test_the_precision_is_the_checkpoints(row_id):
    row = _rows()[row_id]
    folder = RUNS[row_id][0].rsplit("/", 1)[1]
    want = "fp8" if row_id in FP8_RELEASES else {"bf16": "bf16", "fp8": "fp8", "nvfp4": "fp4", "mxfp4": "fp4"}[folder]
    assert row["precision"] == want
    # a third party's NVFP4 file names its format; NVIDIA's own releases leave it to fp4_checkpoints
    assert row["weight_format"] == ("nvfp4" if RUNS[row_id][1].startswith("RedHatAI/") else "")


def test_the_ministral_rows_cannot_be_bf16():
    # at 2 bytes a weight the 8B (8.49 B, knowledge/models.yaml) reads 17.0 GB a token: 16.1 tok/s at 273 GB/s, below
    # the 25.41 measured, so the run's weights were narrower than 16 bits
    assert RUNS["DE74"][2] > GB10_BYTES_PER_S / (8.48955392e9 * 2)
