"""The TensorRT-LLM builds of MLPerf's two DeepSeek-R1 rounds, and the reading of their steps (branch trtllm54).

v5.1: every submitter tree at mlcommons/inference_results_v5.1 965182b0 that the rows read (NVIDIA's, Dell's,
GigaComputing's) pins TRTLLM_HASH 18c0333e in its closed/<submitter>/Makefile.build under the comment '7/24/25
1.0-mlpinf side branch'. v6.0: NVIDIA's closed/NVIDIA/systems/B300-SXM-270GBx8_TRT.json at gbeezybez/
inference_results_v6.0 ab33b214 names 'TensorRT-LLM feat/1.2-mlpinf' and its README.md the container
tensorrt_llm_release-feat-1.2-mlpinf-b5ddff4 (Jan 28 2026). The partners' v6.0 systems name only TensorRT and CUDA
(Cisco's 10.13 / 13.0 is not the container's 10.14 / 13.1), so their rows keep the field blank.

The reading (validation README, 'TensorRT-LLM's DeepSeek-R1 builds of the two MLPerf rounds'): Little's law on the
Server logs gives the sequences each attention-DP rank held; gpuwise's decode-only step at that load and its eager
context iteration (1,620 kernels x 85 us, + the step's own 0.2 ms) bound the published TPOT; the share of iterations
that carried a context pass, (TPOT - decode) / (context iteration - decode), is 0.29-0.34 on the 1.0 side branch and
0.11-0.20 on the 1.2 branch. Nothing in the model is set by it: a stated build changes no figure."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from gpuwise.estimators import serving as SV

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "validation"
BUILDS = {"ML31": "1.0", "SH07": "1.0", "SH08": "1.0", "MP03": "1.2",  # serving_independent.csv
          "ML42": "1.0", "RT07": "1.0", "RT08": "1.0", "MP20": "1.2"}  # serving_rate.csv
BLANK = ("SH01", "SH02", "SH03", "SH04", "SH05", "SH06", "RT01", "RT02", "RT03", "RT04", "RT05", "RT06")


def _rows() -> dict[str, dict]:
    out: dict[str, dict] = {}
    for name in ("serving_independent.csv", "serving_rate.csv"):
        with open(DATA / name, newline="") as fh:
            out.update({r["id"]: r for r in csv.DictReader(fh)})
    return out


def test_the_rounds_builds_are_entered_where_a_source_names_them():
    rows = _rows()
    for rid, build in BUILDS.items():
        assert rows[rid]["framework_version"] == build, rid
        assert ("1.0-mlpinf side branch" if build == "1.0" else "feat-1.2-mlpinf-b5ddff4") in rows[rid]["notes"], rid
    for rid in BLANK:
        assert rows[rid]["framework_version"] == "", rid


# Server logs (mlperf_log_summary.txt): completed samples/s, mean TTFT and TPOT in ms, output tokens a sample
LOGS = {"ML42": (4.96, 726.2, 66.5, 3748), "RT03": (10.96, 341.3, 53.6, 3743), "RT01": (13.81, 629.8, 71.9, 3743)}


@pytest.mark.parametrize("rid,per_rank", [("ML42", 155), ("RT03", 275), ("RT01", 466)])
def test_littles_law_gives_the_sequences_a_rank_held(rid, per_rank):
    """In flight = completed/s x (TTFT + (output - 1) x TPOT), over the 8 attention-DP ranks: ML42 4.96 x (0.7262 +
    3,747 x 0.0665) / 8 = 155; RT03 10.96 x (0.3413 + 3,742 x 0.0536) / 8 = 275; RT01 13.81 x (0.6298 + 3,742 x
    0.0719) / 8 = 466."""
    served, ttft, tpot, out = LOGS[rid]
    row = _rows()[rid]
    assert (float(row["served_requests_per_s"]), float(row["ttft_ms"]), float(row["tpot_ms"]),
            int(row["output_tokens"])) == (served, ttft, tpot, out)
    assert served * (ttft / 1e3 + (out - 1) * tpot / 1e3) / 8 == pytest.approx(per_rank, abs=0.5)


@pytest.mark.parametrize("build", [None, "1.0", "1.2"])
def test_the_context_iteration_the_reading_uses_and_that_no_build_moves_it(kb, accuracy, build):
    """DeepSeek-R1 NVFP4 on 8 x B200, attention DP 8 + EP 8, 512 a rank, MLPerf's lengths (804 / 3,749): a forward
    that carries a prompt runs outside CUDA graphs and launches 12 x 61 (dense layer) + 6 x 61 (MLA) + 7 x 58 (router
    4, shared expert 3) + 2 x 58 (grouped GEMMs) = 1,620 kernels at 85 us = 137.7 ms; with the step's 0.2 ms it is the
    137.9 ms TPOT every Offline row of both rounds is given, 4,096 / 0.1379 = 29.7k tok/s, whatever the build."""
    job = accuracy.serving_job(kb, "deepseek-r1", "fp4", "tensorrt-llm", 804, 3749, None, 1, 1, 8, "fp8", build,
                               "max_batch_size=512")
    s = SV.choose(job, kb.gpus["b200"], 8)
    assert (s.layout.tp, s.layout.ep, s.layout.dp_attention) == (1, 8, 8)
    assert SV.kernels_per_forward(s.engine) == 12 * 61 + 6 * 61 + 7 * 58 + 2 * 58 == 1620
    assert SV.prefill_host(s.engine) == pytest.approx(1620 * 85e-6, rel=1e-9)
    cap = s.capacity
    assert cap.tpot == pytest.approx(1620 * 85e-6 + s.engine.step_overhead, rel=2e-3)
    assert cap.throughput == pytest.approx(4096 / cap.tpot, rel=2e-3)
