"""benchmarks/rate_latency_split.py (branch ratelat56): the request-rate latency cases with what sets their error."""

from __future__ import annotations

import csv

import pytest

from benchmarks import rate_latency_split as SPLIT
from benchmarks.accuracy_serving import RATE


def _subset(tmp_path, ids):
    with open(RATE, newline="") as fh:
        reader = csv.DictReader(fh)
        rows = [r for r in reader if r["id"] in ids]
        fields = reader.fieldnames
    path = tmp_path / "serving_rate.csv"
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    return path


def test_the_runs_batch_is_littles_law_on_its_published_means(tmp_path, kb):
    """RT30: MLPerf Inference v5.0 Server, llama2-70b NVFP4 on one B200 at 44.62 requests/s (NVIDIA's
    mlperf_log_summary.txt in ntuhpc/mlperf_inference_results_v5.0 at cf354115): mean TTFT 365.1 ms, mean TPOT
    145.3 ms, 273 output tokens. One copy, so the run held 44.62 x (0.3651 + 272 x 0.1453) = 1,779.7 sequences
    (Little's law). The row lists five cases (TTFT mean / p95, TPOT mean / p95 / p50), each error est / pub - 1;
    gpuwise's copy sits near its full rate there (the load column, 98.7% at main 82636a27, is below 1: the rate
    answer keeps up)."""
    got = SPLIT.cases(kb, _subset(tmp_path, {"RT30"}))
    assert [g["measure"] for g in got] == [name for _, name in SPLIT.MEASURES]
    for g in got:
        assert g["b_pub"] == pytest.approx(44.62 * (0.3651 + 272 * 0.1453), rel=1e-9)
        assert g["b_pub"] == pytest.approx(1779.7, abs=0.1)
        assert g["err"] == pytest.approx(g["est"] / g["pub"] - 1, rel=1e-12)
        assert 0.9 < g["load"] < 1.0
        assert g["b"] < g["c"]
    assert {g["measure"]: g["pub"] for g in got} == {"TTFT mean": 365.1, "TTFT p95": 826.6, "TPOT mean": 145.3,
                                                     "TPOT p95": 158.01, "TPOT p50": 149.92}


def test_bands_split_the_load_at_the_stated_edges():
    assert SPLIT.band(0.2) == "load < 50%"
    assert SPLIT.band(0.5) == "50-80%"
    assert SPLIT.band(0.94) == "80-95%"
    assert SPLIT.band(0.985) == "95-99%"
    assert SPLIT.band(1.0) == ">= 99%"


def test_causes_read_a_figure_by_what_sets_it():
    """branch ratelat66's grouping of the figures beyond 2x, on made-up rows worked by hand. A row at 100.05% of the
    copies' full rate is within the rate answer's 0.1% tolerance: capacity, whatever the figure. A TPOT 2.3x fast
    where the step at the run's batch is 0.74 of the published TPOT: the step. The same TPOT where the step agrees
    (0.95): the batch in flight. A TTFT of 104 ms against 586.8 published, gpuwise's TPOT 32.8 ms against 28.5:
    its TTFT is 3.17 TPOTs, the run's 20.6, a ratio of 0.154, outside 1 / 1.5..1.5: the first token beyond the
    batch. The same TTFT with the published at 200 ms (7.0 TPOTs: ratio 0.452) is still beyond; at 120 ms (4.21
    TPOTs: ratio 0.753) it is carried by the TPOT, so it goes where the step puts it."""
    edge = {"load": 1.0005, "stable": True, "tpot": 0.030, "step": 1.0}
    assert SPLIT.cause(("X TPOT mean", 289.0, 123.0), edge, 123.0) == SPLIT.CAUSES[0]
    steady = {"load": 0.67, "stable": True, "tpot": 0.0328, "step": 0.74}
    assert SPLIT.cause(("X TPOT mean", 26.8, 62.0), steady, 62.0) == SPLIT.CAUSES[1]
    assert SPLIT.cause(("X TPOT mean", 26.8, 62.0), steady | {"step": 0.95}, 62.0) == SPLIT.CAUSES[2]
    assert SPLIT.cause(("X TTFT mean", 104.0, 586.8), steady, 28.5) == SPLIT.CAUSES[3]
    assert SPLIT.cause(("X TTFT mean", 104.0, 200.0), steady, 28.5) == SPLIT.CAUSES[3]
    assert SPLIT.cause(("X TTFT mean", 104.0, 120.0), steady, 28.5) == SPLIT.CAUSES[1]
    assert SPLIT.cause(("X TTFT mean", 104.0, 120.0), steady | {"step": 1.1}, 28.5) == SPLIT.CAUSES[2]
    assert SPLIT.cause(("X TTFT mean", 104.0, 586.8), steady | {"stable": False}, 28.5) == SPLIT.CAUSES[0]
