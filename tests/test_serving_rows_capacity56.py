"""Rows RT33.. (branch capacity56): MLPerf Inference v5.0 Offline logs of the systems whose Server runs are rows
RT23.. (serveblind27), entered as rows of their own and scored on unchanged code before any estimator change.

The logs are read from ntuhpc/mlperf_inference_results_v5.0 at cf354115 (a copy of mlcommons/inference_results_v5.0).
Each row is one Offline run of NVIDIA's (every sample issued in one query): llama2-70b on 8 x H200, a DGX H100 (PP2
copies), one GH200, 8 x B200 and one B200, Mixtral 8x7B on 8 x H200 and 8 x B200, Llama 3.1 405B on a GB200 NVL72's
72 GPUs. The figures below are copied from each log's mlperf_log_summary.txt ('Samples per second', 'Tokens per
second', samples_per_query); the checks redo the log's arithmetic (output tokens a sample = tokens/s over samples/s),
that no Offline log is read twice, and that the harness estimates every row inside a band around the figures the
validation README records (ratios 0.79-1.13 on unchanged code; the Hopper FP8 llama2-70b rows move up with
serving.yaml fp8_large_batch).
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
V50 = "https://github.com/ntuhpc/mlperf_inference_results_v5.0/blob/cf354115915ea369f05db424b051da8c5bf957dc/closed/"
# row -> (results folder, benchmark, model, precision, gpu, GPUs, tp, pp, mean prompt, samples/s, tokens/s,
#         samples_per_query)
LOGS = {
    "RT33": ("NVIDIA/results/H200-SXM-141GBx8_TRT", "llama2-70b-99", "llama-2-70b", "fp8", "h200-141gb-sxm", 8, 1, 1,
             222, 120.008, 34988.2, 304128),
    "RT34": ("NVIDIA/results/DGX-H100_H100-SXM-80GBx8_TRT", "llama2-70b-99", "llama-2-70b", "fp8", "h100-80gb-sxm",
             8, 1, 2, 222, 107.256, 31306.8, 290400),
    "RT35": ("NVIDIA/results/GH200-GraceHopper-Superchip_GH200-144GB_aarch64x1_TRT", "llama2-70b-99", "llama-2-70b",
             "fp8", "gh200-144gb", 1, 1, 1, 222, 16.0739, 4686.14, 42240),
    "RT36": ("NVIDIA/results/B200-SXM-180GBx8_TRT", "llama2-70b-99.9", "llama-2-70b", "fp4", "b200", 8, 1, 1, 222,
             363.895, 98858.0, 992640),
    "RT37": ("NVIDIA/results/B200-SXM-180GBx1_TRT", "llama2-70b-99.9", "llama-2-70b", "fp4", "b200", 1, 1, 1, 222,
             45.1644, 12269.3, 124080),
    "RT38": ("NVIDIA/results/H200-SXM-141GBx8_TRT", "mixtral-8x7b", "mixtral-8x7b", "fp8", "h200-141gb-sxm", 8, 1, 1,
             427, 431.448, 62629.6, 1147238),
    "RT39": ("NVIDIA/results/B200-SXM-180GBx8_TRT", "mixtral-8x7b", "mixtral-8x7b", "fp8", "b200", 8, 1, 1, 427,
             886.233, 128148.0, 2323200),
    "RT40": ("NVIDIA/results/GB200-NVL72_GB200-186GB_aarch64x72_TRT_Triton", "llama3_1-405b", "llama-3.1-405b", "fp4",
             "gb200", 72, 4, 1, 9429, 21.1733, 13886.4, 125096),
}
# the Server classes' batch and budget (closed/Broadcom_Supermicro/configs/<benchmark>/Server/__init__.py, NVIDIA's
# v5.0 classes; the Offline classes are not in the copy), as RT23.. entered them; the 405B config is not in the copy
OPTIONS = {"RT33": "max_batch_size=2048", "RT34": "max_batch_size=1024", "RT35": "max_batch_size=2048",
           "RT36": "max_batch_size=2048", "RT37": "max_batch_size=2048",
           "RT38": "max_batch_size=3072;prefill_chunk_tokens=8192", "RT39": "max_batch_size=6144", "RT40": ""}
BAND = (0.75, 1.2)


def _rows() -> dict[str, dict]:
    with (DATA / "serving_independent.csv").open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"] in LOGS or r["id"].startswith("RT")}


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows()) == sorted(LOGS)


@pytest.mark.parametrize("row_id", sorted(LOGS))
def test_a_row_is_its_log(row_id):
    row = _rows()[row_id]
    folder, bench, model, precision, gpu, n, tp, pp, prompt, sps, tps, spq = LOGS[row_id]
    assert row["source"] == f"{V50}{folder}/{bench}/Offline/performance/run_1/mlperf_log_summary.txt"
    stated = (row["model"], row["precision"], row["gpu"], row["count"], row["tp"], row["pp"], row["prompt_tokens"],
              row["framework"], row["framework_version"], row["kv_precision"], row["concurrency"])
    assert stated == (model, precision, gpu, str(n), str(tp), str(pp), str(prompt), "tensorrt-llm", "", "fp8", "max")
    assert float(row["output_tokens_per_s"]) == tps
    # loadgen counts only generated tokens: tokens/s over samples/s is the mean output a sample
    assert int(row["output_tokens"]) == round(tps / sps)
    assert f"{spq:,}" in row["notes"] and "Offline" in row["metric"] and "offline" in row["metric"]
    assert row["workload_options"] == OPTIONS[row_id]
    assert row["ep"] == ("1" if model == "mixtral-8x7b" else "")  # one engine a GPU holds all eight experts


def test_no_offline_log_is_read_twice():
    sources = [r["source"] for r in _rows().values()]
    assert len(set(sources)) == len(sources)
    others: list[str] = []
    for name in ("serving_independent.csv", "serving_rate.csv", "decode_independent.csv"):
        with (DATA / name).open(newline="") as fh:
            others += [r["source"] for r in csv.DictReader(fh) if r["id"] not in LOGS]
    # no other row reads one of these logs (serveblind38's ST01-ST07 read other submitters' v5.0 Offline logs)
    assert not set(sources) & set(others)
    assert any("inference_results_v5.0" in s and "/Offline/" in s for s in others)  # the check sees those rows


def test_the_harness_estimates_every_row_within_the_band():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    rows = _rows()
    cases = {c[0].split()[0]: c for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT) if c[0].split()[0] in rows}
    assert sorted(cases) == sorted(LOGS)  # none refused, none without a figure
    for row_id, (label, est, published) in cases.items():
        assert published == float(rows[row_id]["output_tokens_per_s"]), label
        assert BAND[0] <= est / published <= BAND[1], label
