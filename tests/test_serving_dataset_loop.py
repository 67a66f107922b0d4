"""A closed loop over a dataset's requests (benchmarks/accuracy.py ``dataset_loop``): a benchmark of ``prompts``
requests at ``concurrency`` clients divides the output by the run, which ends with its last request; with a
dataset's spread of output lengths (serving.yaml ``length_distributions``: ShareGPT as vLLM's sampler draws it) the
run ends in a tail of ever fewer requests in flight. Checked by hand on a made-up pace and against GPUStack's
Qwen3.5-9B page (row SP12: vLLM 0.17.1, ShareGPT through guidellm, 1,000 requests at 512 in flight, 281,412
output tokens in 54.74 s, github.com/gpustack/gpustack docs/performance-lab/qwen3.5-9b/h100.md at 6ceec5b8)."""

from __future__ import annotations

import csv
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[1]
ROWS = ROOT / "tests" / "data" / "validation" / "serving_independent.csv"


@pytest.fixture(scope="module")
def accuracy():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    return accuracy


def _row(rid):
    return next(r for r in csv.DictReader(ROWS.open(encoding="utf-8")) if r["id"] == rid)


def test_the_loop_by_hand_on_a_flat_pace(kb, accuracy, monkeypatch):
    """Each request in flight makes 10 tokens/s whatever the batch (a made-up pace: throughput 10 x b): 2 clients
    over 4 requests are list scheduling, the next request taken by the first client free. The four ShareGPT
    requests of mean 200 out (burst.dataset_lengths' draw, in its arrival order) end at the makespan / 10 s, and
    the loop reports their 800 tokens over it; one copy, so nothing is shared."""
    from gpuwise.estimators import serving as SV
    from gpuwise.estimators.serving import burst as BU

    outs = [o for _, o in BU.dataset_lengths(kb.serving.length_distributions["sharegpt"], 300.0, 200.0, 4)]
    assert sum(outs) == pytest.approx(800, abs=2)  # each rounded to a whole token
    free = [0.0, 0.0]
    for o in outs:  # by hand: the first client free takes the next request
        k = free.index(min(free))
        free[k] += o / 10.0
    monkeypatch.setattr(SV, "point", lambda job, eng, rep, conc, **kw: SimpleNamespace(throughput=10.0 * conc))
    s = SimpleNamespace(layout=SimpleNamespace(replicas=1), engine=None, replica=None)
    row = {"length_distribution": "sharegpt", "prompts": "4", "metric": "output tok/s", "prompt_tokens": "300",
           "output_tokens": "200"}
    assert accuracy.dataset_loop(kb, None, s, row, 2) == pytest.approx(sum(outs) / max(free), rel=1e-12)
    # not a closed loop over more requests than clients, a burst, or a paced run: no figure
    for other in ({"prompts": "2"}, {"metric": "benchmark_latency burst"}, {"request_rate": "4"},
                  {"length_distribution": ""}):
        assert accuracy.dataset_loop(kb, None, s, {**row, **other}, 2) is None


def test_sp12_and_sp06_against_the_pages(kb, accuracy):
    """SP12: the page prints 5,202.94 output tok/s. The steady state at 512 in flight (gpuwise, 7,076.8 tok/s blind:
    +36%) keeps 512 in flight throughout; the loop over the 1,000 requests, its last ones finishing with few in
    flight, gives 5,184.6 (-0.4%). SP06, the 35B on one H200 (docs/performance-lab/qwen3.5-35b-a3b/h200.md at
    3d853b45): 4,347.55 printed, 8,050.5 blind (+85%), 4,667.6 the loop (+7.4%)."""
    assert _row("SP12")["length_distribution"] == "sharegpt"
    cases = {c[0].split()[0]: c for c in accuracy.serving_cases(kb, ROWS) if c[0].startswith(("SP12", "SP06"))}
    _, est, published = cases["SP12"]
    assert published == pytest.approx(5202.94)
    assert est == pytest.approx(published, rel=0.02)
    _, est6, pub6 = cases["SP06"]
    assert pub6 == pytest.approx(4347.55)
    assert 1.0 < est6 / pub6 < 1.15


def test_marked_rows_are_sharegpt_closed_loops():
    """Every row given a length_distribution and more prompts than clients (not a burst, no rate) ran ShareGPT,
    as its source says; none of them is left unmarked (rows whose metric, notes or source name ShareGPT), except a
    run whose client fixed every output (vllm bench serve --sharegpt-output-len with --ignore-eos: SE05, vLLM pull
    request #34206), whose outputs are not the dataset's."""
    marked, unmarked = set(), set()
    for r in csv.DictReader(ROWS.open(encoding="utf-8")):
        text = " ".join((r.get("metric") or "", r.get("notes") or "", r.get("source") or "")).lower()
        loop = (r["concurrency"] not in ("", "max") and r.get("prompts") and int(r["prompts"]) > int(r["concurrency"])
                and "benchmark_latency" not in (r.get("metric") or "") and (r.get("request_rate") or "") in ("", "inf"))
        if not loop:
            continue
        if "--sharegpt-output-len" in text:  # the client set every output: the rows' means are the run's lengths
            assert not r.get("length_distribution"), r["id"]
            continue
        if r.get("length_distribution"):
            assert "sharegpt" in text, r["id"]
            marked.add(r["id"])
        elif "sharegpt" in text:
            unmarked.add(r["id"])
    assert not unmarked
    assert {"SP06", "SP07", "SP08", "SP12", "SP13", "X26", "X28", "X29", "Z16", "R01"} <= marked
