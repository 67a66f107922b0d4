"""benchmarks/scale_terms.py (branch scale31): the held-out runs on many GPUs with their step-time terms."""

from __future__ import annotations

import sys

import pytest

from benchmarks import scale_terms

from .conftest import heldout_subset


def test_a_steady_state_run_reads_as_its_step_time_when_the_steps_agree(tmp_path):
    """H196: MLPerf Training v6.0 Llama 3.1 8B on 1,024 GB200 (NVIDIA's result_0.txt: 64 sequences of 8,192 tokens
    a step, run_stop at step 3,456, logged block mean 0.07183 s a step). Published hours by hand: 1,024 x 3,456 x
    0.07183 s / 3,600 = 70.61 GPU-hours; gpuwise's steps: 1.811939e9 tokens / 524,288 = 3,456.0, so the listed
    error is the estimated step over the logged one, minus one, and the terms' shares add up to the step."""
    path, rows = heldout_subset(tmp_path, ("H196",))
    assert float(rows["H196"]["gpu_hours"]) == pytest.approx(1024 * 3456 * 0.07183 / 3600, abs=0.01)
    (r,) = scale_terms.run_rows(path, 257)
    assert r["gpus"] == 1024 and r["basis"] == "steady"
    assert r["error"] == pytest.approx(r["step_s"] / 0.07183 - 1, abs=2e-4)
    assert sum(r[k] for k in scale_terms.TERMS) == pytest.approx(1.0, abs=1e-9)
    assert r["error"] < -0.3  # the estimate's step is well under the logged one (-43.7% at main 098543d3)
    assert scale_terms.run_rows(path, 1025) == []


def test_families_list_a_title_on_one_gpu_at_two_counts_or_more(tmp_path, monkeypatch, capsys):
    """H209 (Google, 256 x GB200) and H211 (NVIDIA, 8,192 x GB200): DeepSeek-V3 671B in MLPerf Training v6.0 with
    one layout (TP2 PP4 interleaved 4, EP32, micro-batch 1), one family read by count; H196 (Llama 3.1 8B) alone is
    no family."""
    path, _ = heldout_subset(tmp_path, ("H209", "H211", "H196"))
    monkeypatch.setattr(sys, "argv", ["scale_terms.py", "--runs", str(path), "--families"])
    assert scale_terms.main() == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "DeepSeek-V3 671B on gb200"
    assert [line.split()[1] for line in out[1:]] == ["H209", "H211"]
    assert len(out) == 3


def test_gpu_lists_the_runs_and_the_throughput_rows_on_the_named_parts(tmp_path, monkeypatch, capsys):
    """--gpu (branch gb200eff): H76 (MLPerf Training v5.0, NVIDIA 256 x GB200, Llama 3.1 405B, TP4 PP8 CP2; the
    training steps took 197.38 min: 256 x 197.38 / 60 = 842.2 GPU-hours) and H26 (v5.1, University of Florida,
    256 x B200, the same recipe's layout) read side by side, then the throughput tables' GB200 and B200 rows (NVIDIA
    Megatron-Bridge performance summary). M52 (26.04, 256 x GB200, Llama 3.1 405B FP8, global batch 1,536 x 8,192
    tokens, published 842 tokens/s per GPU): its error is 1,536 x 8,192 / step / 256 over 842, minus one."""
    path, rows = heldout_subset(tmp_path, ("H76", "H26"))
    assert float(rows["H76"]["gpu_hours"]) == pytest.approx(256 * 197.38 / 60, abs=0.05)
    monkeypatch.setattr(sys, "argv", ["scale_terms.py", "--runs", str(path), "--gpu", "gb200,b200"])
    assert scale_terms.main() == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("runs") and [line.split()[1] for line in out[1:3]] == ["H26", "H76"]
    assert out[3].startswith("  b200: 1 rows") and out[4].startswith("  gb200: 1 rows")
    (h76,) = [r for r in scale_terms.run_rows(path, 1) if r["id"] == "H76"]
    assert h76["error"] < -0.10  # the GB200 offset (-17.4% at main f61f55da)
    table = {r["id"]: r for r in scale_terms.throughput_rows({"gb200"})}
    assert {r["gpu"] for r in table.values()} == {"gb200"}
    m52 = table["M52"]
    assert m52["error"] == pytest.approx(1536 * 8192 / m52["step_s"] / 256 / 842 - 1, rel=1e-9)
    assert sum(m52[k] for k in scale_terms.TERMS) == pytest.approx(1.0, abs=1e-9)
