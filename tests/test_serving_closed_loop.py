"""A closed loop's throughput is Little's law over a request's whole life (time to first token, then its output at
the TPOT), and the session-16 S rows (dstackai/benchmarks, DeepSeek-R1 FP8 on 8 x H200 / 8 x MI300X) hold the figures
their source logged. Sources are named in each test."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from tests.conftest import validation_row


def _row(rid: str) -> dict:
    return validation_row("serving_independent.csv", rid)


def test_closed_loop_throughput_is_littles_law_by_hand():
    """b requests each lasting TTFT + output x TPOT: b x output / that. 16 requests of 500 tokens at 50 ms with a
    2 s TTFT: 16 x 500 / (2 + 25) = 296.3 tok/s, where 16 / 0.05 = 320 would have every request decoding always."""
    assert SV.closed_loop_throughput(16, 500, 2.0 + 500 * 0.05) == pytest.approx(16 * 500 / 27.0)
    assert SV.closed_loop_throughput(16, 500, 27.0) == pytest.approx(296.296, rel=1e-4)


def test_a_benchmarks_own_figures_obey_it():
    """dstackai/benchmarks Deepseek-R1/raw_data/online_results.csv (S02: vLLM on 8 x H200 at concurrency 32, 3200 in /
    800 out): mean TTFT 7,650.78 ms and mean TPOT 51.67 ms give a request 7.65 + 799 x 0.05167 = 48.93 s, so
    32 x 800 / 48.93 = 523 tok/s against the 512.86 logged (2%: the loop's refill between requests); 32 / TPOT would be
    619. The same for S07 (MI300X, c=16): 4.26 + 799 x 0.05557 = 48.66 s, 263 against 258.14 (16 / TPOT: 288)."""
    for rid, want in (("S02", 512.86), ("S07", 258.14)):
        r = _row(rid)
        c, out = int(r["concurrency"]), int(r["output_tokens"])
        life = float(r["ttft_ms"]) / 1e3 + (out - 1) * float(r["tpot_ms"]) / 1e3
        assert float(r["output_tokens_per_s"]) == want
        assert SV.closed_loop_throughput(c, out, life) == pytest.approx(want, rel=0.03)
        assert c / (float(r["tpot_ms"]) / 1e3) > 1.10 * want


def test_one_request_pays_its_prompt(kb, accuracy):
    """NVIDIA NIM 1.8.0, Llama-3.3-70B FP8 TP2 on 2 x H100 at concurrency 1, 5000 in / 500 out (tests/data/
    serving_published.csv S36: 51.67 tok/s, TTFT 406.77 ms, ITL 18.58 ms; 500 / (0.407 + 499 x 0.01858) = 51.7): the
    estimate is the point's own Little's law and within 10% of the table (+8.1% before, when it was 1 / TPOT)."""
    got = {label.split()[0]: (est, pub) for label, est, pub in accuracy.serving_cases(kb)}
    est, pub = got["S36"]
    assert pub == 51.67
    assert est == pytest.approx(pub, rel=0.10)
    job = accuracy.serving_job(kb, "llama-3.1-70b", "fp8", "tensorrt-llm", 5000, 500, 1, 2, 1)
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 2)
    p = SV.point(job, s.engine, s.replica, 1.0)
    assert p.throughput == pytest.approx(500 / (p.ttft + 500 * p.tpot), rel=1e-9)
    assert p.throughput < 1 / p.tpot


def test_s_rows_hold_their_logged_figures():
    """online_results.csv as logged (output_throughput, mean_tpot_ms, mean_ttft_ms): S01 H200 vLLM c=4 148.58 /
    25.73 / 975.65; S06 H200 TensorRT-LLM c=16 256.94 / 57.55 / 2,750.93; S08 MI300X vLLM c=128 914.74 / 109.07 /
    22,245.65; S10 H200 vLLM c=128, 3200 out: 747.78 / 76.04 / 250,207.24. Every run is 500 prompts of fixed lengths."""
    for rid, thr, tpot, ttft in (("S01", 148.58, 25.73, 975.65), ("S06", 256.94, 57.55, 2750.93),
                                 ("S08", 914.74, 109.07, 22245.65), ("S10", 747.78, 76.04, 250207.24)):
        r = _row(rid)
        assert (float(r["output_tokens_per_s"]), float(r["tpot_ms"]), float(r["ttft_ms"])) == (thr, tpot, ttft)
        assert int(r["prompts"]) == 500

