"""Rows SO01-SO15 and RX01-RX07 (serveblind37): a provider's and an engine's blog posts on Llama 3.1 405B over
8 x MI300X, scored blind.

The rule (validation README, 'Rows SO01-SO15 and RX01-RX07'): every vLLM cell with 8 or more prompts of dstack's data
files behind its post 'Benchmarking Llama 3.1 405B on 8x AMD MI300X GPUs' (dstackai/benchmarks amd/inference: bursts
of 80- and 10,000-token prompts, and the Poisson runs of 300-1,500 ~918-token prompts at 1-5 requests/s), and every
vLLM throughput the vLLM blog's 'Serving LLMs on AMD MI300X: Best Practices' states in figures (served requests/s at 16
and 1,000 QPS). The figures below are the printouts' and the post's; the checks redo the rows' conditions from them and
hold the harness to the blind reading recorded in the README.
"""

from __future__ import annotations

import sys

import pytest

from .validation_rows import DATA, assert_rate_rows_within, rows_in, serving_ratios

DSTACK = "https://github.com/dstackai/benchmarks/blob/"
BURSTS = DSTACK + "9ece943634018a9e1b31763244868bcf453d31d2/amd/inference/vllm/data/serving_benchmarks_vllm_{}.txt"
POISSON = DSTACK + "7f5bb44039aad0fbe6e3ed30d80c92371faf44d4/amd/inference/vllm/data/result_vllm_QPS_high.csv"
VLLM_BLOG = ("https://github.com/vllm-project/vllm-project.github.io/blob/5ffe2dd543a30f34309d71d8374803612223e9fb/"
             "_posts/2024-10-23-vllm-serving-amd.md")

# row -> (the file's --book-input-len, prompts, total input tokens, total generated tokens, benchmark duration s,
# output tok/s, mean TTFT ms, mean TPOT ms) as the printouts give them
CELLS = {
    "SO01": (80, 8, 640, 484, 5.65, 85.64, 646.20, 55.48),
    "SO02": (80, 16, 1279, 936, 6.57, 142.52, 1034.69, 63.38),
    "SO03": (80, 32, 2594, 1857, 8.49, 218.64, 1546.00, 87.10),
    "SO04": (80, 64, 5189, 3842, 19.61, 195.93, 2698.98, 230.16),
    "SO05": (80, 128, 10306, 7588, 27.70, 273.89, 5161.26, 298.29),
    "SO06": (80, 256, 20829, 15376, 44.46, 345.83, 11787.27, 389.49),
    "SO07": (80, 512, 41838, 30400, 75.58, 402.21, 27060.36, 419.23),
    "SO08": (80, 1024, 83423, 60121, 138.24, 434.89, 58452.87, 435.60),
    "SO09": (80, 2048, 166647, 119667, 272.95, 438.42, 128150.28, 461.09),
    "SO10": (80, 4096, 333604, 238678, 559.85, 426.32, 279193.20, 487.04),
    "SO11": (10000, 8, 80000, 998, 108.42, 9.20, 55713.23, 379.62),
    "SO12": (10000, 16, 160000, 1923, 206.97, 9.29, 105158.97, 512.55),
    "SO13": (10000, 32, 320000, 3684, 402.15, 9.16, 202961.69, 563.16),
    "SO14": (10000, 64, 640000, 7257, 792.10, 9.16, 399467.18, 588.74),
    "SO15": (10000, 128, 1280000, 15191, 1653.07, 9.19, 829566.48, 632.99),
}
# row -> (requests, duration s, total input, total generated, req/s, output tok/s) as the CSV gives them; the rate is
# read as requests / 300 (the post: 30 requests at 1 RPS up to 150 at 5, then 300-900 with '900 requests with a rate
# of 3 RPS')
POISSON_ROWS = {
    "RX01": (300, 320.72, 275327, 45000, 0.94, 140.31),
    "RX02": (600, 583.64, 550697, 90000, 1.03, 154.21),
    "RX03": (900, 871.26, 826091, 135000, 1.03, 154.95),
    "RX04": (1200, 1148.44, 1101815, 180000, 1.04, 156.73),
    "RX05": (1500, 1438.26, 1377339, 225000, 1.04, 156.44),
}
# row -> (QPS, served requests/s) as the post's text states them
BLOG_ROWS = {"RX06": (16, 4.05), "RX07": (1000, 5.76)}
# est / published, blind (the README's table): bursts 2.21 (SO01) to 3.91 (SO04); Poisson output tok/s 1.04 (RX01) to
# 2.87 (RX05); the blog's served req/s 1.40 (RX07) to 1.83 (RX06). After the max_batch window (vLLM before 0.8.5 gives
# MI300X 256, README): bursts still 2.21 (SO01) to 3.91 (SO04), Poisson 1.04 to 2.75 (RX05), the blog rows unchanged
BURST_BAND = (2.2, 3.91)
POISSON_BAND = (1.03, 2.88)
BLOG_BAND = (1.4, 1.83)


def _so() -> dict[str, dict]:
    return rows_in("serving_independent.csv", "SO", 1, 15)  # serveblind40 took SO16..


def _rx() -> dict[str, dict]:
    return rows_in("serving_rate.csv", "RX", 1, 7)  # serveblind40 took RX08..


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_so()) == sorted(CELLS)
    assert sorted(_rx()) == sorted(POISSON_ROWS) + sorted(BLOG_ROWS)


def _the_setup(r: dict) -> None:
    assert (r["model"], r["precision"], r["gpu"], int(r["count"]), r["framework"], int(r["tp"]), r["pp"]) == (
        "llama-3.1-405b", "bf16", "mi300x", 8, "vllm", 8, "1")
    # vLLM 0.6.3.dev116 (dstack) and 0.6.2 at cb3b2b9b (the vLLM blog): both entered as 0.6.2; KV dtype auto (BF16)
    assert (r["framework_version"], r["kv_precision"], r["fixed_lengths"]) == ("0.6.2", "", "")


@pytest.mark.parametrize("row_id", sorted(CELLS))
def test_a_burst_row_is_its_printout(row_id):
    length, n, tin, tout, duration, tps, ttft, tpot = CELLS[row_id]
    r = _so()[row_id]
    _the_setup(r)
    assert r["source"] == BURSTS.format(length)
    # request rate inf with no cap: every prompt is sent at once, and the server's 256-sequence default runs them
    assert int(r["concurrency"]) == int(r["prompts"]) == n and r["workload_options"] == ""
    assert (int(r["prompt_tokens"]), int(r["output_tokens"])) == (round(tin / n), round(tout / n))
    assert (float(r["output_tokens_per_s"]), float(r["ttft_ms"]), float(r["tpot_ms"])) == (tps, ttft, tpot)
    # the printout's own arithmetic: generated tokens over the run's duration
    assert tout / duration == pytest.approx(tps, rel=0.01)


@pytest.mark.parametrize("row_id", sorted(POISSON_ROWS))
def test_a_poisson_row_is_its_csv_line(row_id):
    n, duration, tin, tout, rps, tps = POISSON_ROWS[row_id]
    r = _rx()[row_id]
    _the_setup(r)
    assert r["source"] == POISSON
    assert (int(r["prompts"]), float(r["request_rate"])) == (n, n / 300)
    assert (int(r["prompt_tokens"]), int(r["output_tokens"])) == (round(tin / n), tout // n)
    assert tout == 150 * n  # every request generated exactly 150 tokens
    assert (float(r["served_requests_per_s"]), float(r["output_tokens_per_s"])) == (rps, tps)
    assert n / duration == pytest.approx(rps, abs=0.005) and tout / duration == pytest.approx(tps, rel=0.001)


@pytest.mark.parametrize("row_id", sorted(BLOG_ROWS))
def test_a_blog_row_is_its_sentence(row_id):
    qps, served = BLOG_ROWS[row_id]
    r = _rx()[row_id]
    _the_setup(r)
    assert r["source"] == VLLM_BLOG
    assert (float(r["request_rate"]), float(r["served_requests_per_s"]), r["output_tokens_per_s"]) == (
        qps, served, "")
    # the vLLM blog's ShareGPT means (2024-09-05 v0.6.0 post) and benchmark_serving's default 1,000 prompts: stated
    # assumptions
    assert (int(r["prompt_tokens"]), int(r["output_tokens"]), int(r["prompts"])) == (202, 179, 1000)
    # the default configuration chunks prefill at its 1,024-token budget; the tuned one turns chunking off
    chunk = {"RX06": 1024, "RX07": 131072}[row_id]
    assert r["workload_options"] == f"max_batch_size=1024;prefill_chunk_tokens={chunk}"


def test_no_source_is_read_twice():
    # no row of another round cites these files or the post
    import csv

    mine = set(_so()) | set(_rx())
    sources = {BURSTS.format(80), BURSTS.format(10000), POISSON, VLLM_BLOG}
    for name in ("serving_independent.csv", "serving_rate.csv", "decode_independent.csv"):
        with (DATA / name).open(newline="") as fh:
            assert not [r["id"] for r in csv.DictReader(fh) if r["source"] in sources and r["id"] not in mine]


def test_the_harness_estimates_every_burst_within_the_blind_band(kb, tmp_path):
    got = serving_ratios(kb, tmp_path, _so())
    assert sorted(got) == sorted(_so())  # none refused
    for rid, ratio in got.items():
        assert BURST_BAND[0] <= ratio <= BURST_BAND[1], (rid, ratio)


def test_the_harness_estimates_every_poisson_row_within_the_blind_band():
    rows = {k: v for k, v in _rx().items() if k in POISSON_ROWS}
    assert_rate_rows_within(rows, POISSON_ROWS, POISSON_BAND)


def test_the_harness_estimates_the_blog_rows_within_the_blind_band(kb):
    sys.path.insert(0, str(DATA.parents[2] / "benchmarks"))
    import accuracy

    cases = {c[0].split()[0]: c for c in accuracy.rate_cases(kb) if c[0].split()[0] in BLOG_ROWS}
    assert sorted(cases) == sorted(BLOG_ROWS)
    for row_id, (label, est, published) in cases.items():
        assert label.endswith("req/s") and published == BLOG_ROWS[row_id][1]
        assert BLOG_BAND[0] <= est / published <= BLOG_BAND[1], label


def test_vllm_named_h100_and_h200_alone_for_its_large_defaults_before_0_8_5(kb):
    # vLLM pull request #12369 (merged 2025-01-24) gave the large batch defaults to device names holding 'h100' or
    # 'h200'; the memory rule (>= 70 GiB, not 'a100') came with #17073 in 0.8.5 (knowledge/serving.yaml max_batch)
    from gpuwise.estimators.serving.engine import large_gpu

    fw = kb.framework("vllm")
    for gpu, want in (("mi300x", (False, False, True)), ("b200", (False, False, True)),
                      ("h100-80gb-sxm", (True, True, True)), ("h200-141gb-sxm", (True, True, True)),
                      ("gh200-144gb", (True, True, True))):
        assert tuple(large_gpu(fw, kb.gpus[gpu], v) for v in ("0.6.2", "0.8.4", "0.8.5")) == want, gpu
    assert large_gpu(fw, kb.gpus["mi300x"], None)  # a job that states no release gets the current rule


def test_a_burst_past_the_256_default_runs_at_its_step(kb, tmp_path):
    # on MI300X the 0.6.2 server runs 256 sequences at once (the default, not the 1,024 of the memory rule), so the
    # bursts of 1,024, 2,048 and 4,096 80-token prompts step at the same batch: one TPOT, as the printouts hold
    # (436-487 ms) against 0.78-2.54 s blind
    import csv

    sys.path.insert(0, str(DATA.parents[2]))
    import benchmarks.accuracy_serving as acc

    with (DATA / "serving_independent.csv").open(newline="") as fh:
        reader = csv.DictReader(fh)
        fields, rows = reader.fieldnames, [r for r in reader if r["id"] in ("SO08", "SO09", "SO10")]
    path = tmp_path / "rows.csv"
    with path.open("w", newline="") as fh:
        out = csv.DictWriter(fh, fieldnames=fields)
        out.writeheader()
        out.writerows(rows)
    lat: list = []
    acc.serving_cases(kb, path, latency=lat)
    tpot = {c[0].split()[0]: c[1] for c in lat if " TPOT" in c[0]}
    assert sorted(tpot) == ["SO08", "SO09", "SO10"]
    assert max(tpot.values()) / min(tpot.values()) == pytest.approx(1.0, abs=0.01)
