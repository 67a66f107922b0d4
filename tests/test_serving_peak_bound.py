"""The peak scan passes over loads whose throughput ceiling is below the best found (issue 26: a faster
serving search without changing any figure): the ceiling is never below a timed point's throughput, and
the scan that passes loads over finds the same load, and keeps the same points, as the plain scan."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import gpuwise

ROOT = Path(__file__).resolve().parents[1]
L = importlib.import_module("gpuwise.estimators.serving.load")
S = importlib.import_module("gpuwise.estimators.serving.step")


def _questions(tmp_path: Path) -> list[Path]:
    """A dense 70B question under each batching model the load model has (vLLM's mixed steps, SGLang's
    prefill that pauses decoding, static batches) and with speculative decoding, and the held-out MoE
    questions (expert parallelism, attention data parallelism, FP4 and block-FP8 weights)."""
    base = (ROOT / "examples" / "inference-70b.yaml").read_text()
    out = []
    for name, extra in (("sglang", "  framework: sglang\n"), ("static", "  framework: transformers\n"),
                        ("eagle", "  speculative: {method: eagle3}\n"), ("vllm", "")):
        path = tmp_path / f"{name}.yaml"
        path.write_text(base.replace("  precision: bf16\n", "  precision: bf16\n" + extra))
        out.append(path)
    heldout = ROOT / "tests" / "data" / "heldout"
    return [*out, heldout / "deepseek-r1-fp8-serve.yaml", heldout / "gpt-oss-120b-fp4-serve.yaml"]


@pytest.fixture(scope="module")
def timed(tmp_path_factory):
    """Every point the questions time, with its pair's constants, and every peak scan they run."""
    points, peaks = [], []
    real_new, real_peak = L._new_point, L.peak_point

    def new_point(job, eng, rep, c, conc):
        p = real_new(job, eng, rep, c, conc)
        points.append((c, eng, rep, conc, p))
        return p

    def peak(job, eng, rep, top):
        peaks.append((job, eng, rep, top))
        return real_peak(job, eng, rep, top)

    L._new_point, L.peak_point = new_point, peak
    try:
        for path in _questions(tmp_path_factory.mktemp("peak")):
            gpuwise.recommend(path)
    finally:
        L._new_point, L.peak_point = real_new, real_peak
    return points, peaks


def test_no_timed_point_is_above_its_ceiling(timed):
    """throughput <= throughput_ceiling at every load timed, for every batching model (the
    inequalities of its docstring; a change to the step or load model that breaks them fails here)."""
    points, _ = timed
    frameworks = {eng.fw.id for _c, eng, _r, _n, _p in points}
    assert {"vllm", "sglang", "transformers"} <= frameworks and any(e.spec for _c, e, _r, _n, _p in points)
    assert any(r.layout.ep > 1 for _c, _e, r, _n, _p in points) and len(points) > 1000
    for c, eng, rep, conc, p in points:
        assert p.throughput <= L.throughput_ceiling(c, eng, rep, conc), (eng.fw.id, rep.layout, conc)


def test_the_ceiling_of_one_request_by_hand(timed):
    """One request of Llama-3.1-70B in bf16 on a copy of 4 x A100-80GB SXM: a decode step streams at
    least the dense weights, 2 bytes x (80 layers x (q, k, v, o: 8192 x (8192 + 1024 + 1024 + 8192),
    gate/up/down: 3 x 8192 x 28672, two norms) + the head 128256 x 8192 + the final norm) (Meta's
    config.json for the model), a quarter per GPU, at 0.8 of the datasheet's 2,039 GB/s (NVIDIA A100
    datasheet; vLLM's bandwidth share, knowledge/serving.yaml), plus 80 layers' fixed cost and the
    step's host work: 44.4 tokens/s at most. The model gives 40.2 (its prefill and attention besides)."""
    points, _ = timed
    c, eng, rep, _n, p = next(t for t in points if t[1].fw.id == "vllm" and t[3] == 1 and not t[1].spec
                               and t[1].gpu_id == "a100-80gb-sxm" and t[2].layout.tp == 4
                               and t[2].layout.pp == 1 and t[2].layout.ep == 1)
    dense = 2 * (80 * (8192 * (8192 + 1024 + 1024 + 8192) + 3 * 8192 * 28672 + 2 * 8192) + 128256 * 8192 + 8192)
    assert dense == 139_006_066_688
    step = dense / 4 / (2039e9 * 0.8) + 80 * eng.layer_overhead + eng.step_overhead + eng.seq_overhead
    ceiling = L.throughput_ceiling(c, eng, rep, 1)
    assert ceiling == pytest.approx(1 / step, rel=1e-9) and ceiling == pytest.approx(44.41, abs=0.01)
    assert p.throughput < ceiling < 1.15 * p.throughput


def test_the_scan_that_passes_loads_over_finds_the_plain_scans_peak(timed, monkeypatch):
    """The same peak load, and the same kept points (concurrency written the same way), with the
    ceiling in force and with it lifted (every load timed), and loads were passed over."""
    _, peaks = timed
    passed = 0
    for job, eng, rep, top in peaks[::3]:
        job.memo.clear()
        got = L.peak_point(job, eng, rep, top)
        c = S.consts(job, eng, rep)
        passed += len(c.passed)
        kept = {k: (v, type(v.concurrency)) for k, v in c.points.items()}
        with monkeypatch.context() as m:
            m.setattr(L, "throughput_ceiling", lambda *a: float("inf"))
            job.memo.clear()
            plain = L.peak_point(job, eng, rep, top)
            c2 = S.consts(job, eng, rep)
            assert not c2.passed
            for k, (v, t) in kept.items():
                assert c2.points[k] == v and type(c2.points[k].concurrency) is t
        assert got == plain and type(got.concurrency) is type(plain.concurrency)
        job.memo.clear()
    assert passed > 100
