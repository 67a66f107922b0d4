"""Rows SH74-SH94 (branch serveblind30): TensorRT-LLM at maximum load on RTX 6000 Pro Blackwell Server Edition cards,
the tables of the performance overview at NVIDIA/TensorRT-LLM commit 03e27c7d
(docs/source/developer-guide/perf-overview.md, 'LLaMA v3.3 70B / Qwen3 235B A22B / Qwen3 30B A3B - RTX 6000 Pro
Blackwell Server Edition'). The per-GPU figures below are copied from those tables; the checks redo the rows'
arithmetic (per GPU x GPUs), that a pinned 'DEP2,PP2' copy is built as the overview ran it (attention data parallel
with expert parallel over the two GPUs of each of two pipeline stages), and that the harness estimates every row
inside the band the validation README records (blind, then after the layout fix)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from .validation_rows import rows_in, serving_ratios

ROOT = Path(__file__).resolve().parents[1]
URL = ("https://github.com/NVIDIA/TensorRT-LLM/blob/03e27c7d5ff0c6e89f8328838c0a8e64f1b34f9d/docs/source/"
       "developer-guide/perf-overview.md")
# id -> (GPUs, tp, pp, ep, ISL, OSL, output tok/s per GPU as the table prints it)
CELLS = {
    "SH74": (1, 1, 1, "", 1024, 1024, 1708), "SH75": (1, 1, 1, "", 8192, 1024, 296),
    "SH76": (2, 1, 2, "", 1024, 1024, 1887), "SH77": (2, 1, 2, "", 8192, 1024, 327),
    "SH78": (2, 1, 2, "", 32768, 1024, 67),
    "SH79": (4, 1, 2, "2", 1024, 1024, 1732), "SH80": (4, 1, 2, "2", 1024, 8192, 644),
    "SH81": (4, 1, 2, "2", 32768, 1024, 70),
    "SH82": (8, 1, 1, "8", 1024, 1024, 963), "SH83": (8, 1, 1, "8", 1024, 8192, 711),
    "SH84": (2, 1, 1, "2", 1000, 1000, 8409), "SH85": (2, 1, 1, "2", 1024, 8192, 3577),
    "SH86": (4, 1, 2, "2", 1024, 1024, 7019), "SH87": (4, 1, 2, "2", 8192, 1024, 1416),
    "SH88": (8, 1, 1, "8", 1000, 1000, 3985), "SH89": (8, 1, 1, "8", 1024, 8192, 2406),
    "SH90": (8, 1, 1, "8", 32768, 1024, 180),
    "SH91": (1, 1, 1, "", 1024, 1024, 9755), "SH92": (1, 1, 1, "", 1024, 8192, 3621),
    "SH93": (1, 1, 1, "", 8192, 1024, 1914), "SH94": (1, 1, 1, "", 32768, 1024, 374),
}
# est / published: blind 0.78-1.48 (README, 'Rows SH74-SH94'); after the pinned DEP x PP copy and the PCIe all-to-all
# share 0.68-1.07 (SH88 0.68, SH79-SH87 DEP2,PP2 0.85-1.06)
BAND = (0.65, 1.5)


def _rows() -> dict[str, dict]:
    return rows_in("serving_independent.csv", "SH", 74, 94)


def test_rows_copy_the_tables():
    rows = _rows()
    assert set(rows) == set(CELLS)
    for rid, (gpus, tp, pp, ep, isl, osl, per_gpu) in CELLS.items():
        r = rows[rid]
        assert r["source"] == URL and r["gpu"] == "rtx-pro-6000-blackwell-server" and r["precision"] == "fp4"
        assert (int(r["count"]), int(r["tp"]), int(r["pp"]), r["ep"]) == (gpus, tp, pp, ep)
        assert (int(r["prompt_tokens"]), int(r["output_tokens"]), r["concurrency"]) == (isl, osl, "max")
        assert float(r["output_tokens_per_s"]) == per_gpu * gpus  # the table is per GPU
        # trtllm-bench's request counts of the overview's table (3,000 at 1k/1k; 1,500 at 1k/8k and 8k/1k; 1,000 at
        # 32k/1k; the 1000/1000 cells assumed as 1k/1k)
        want = {1024: 3000, 1000: 3000, 8192: 1500, 32768: 1000}[isl if osl <= 1024 else 8192]
        assert int(r["prompts"]) == want


def test_dep_stages_pinned_copy_is_built(kb):
    """'DEP2,PP2' on four cards is one copy of two stages, each two GPUs of attention data parallel with the experts
    spread over them: 4 GPUs a copy, not two pipeline copies (the ladder's only MoE pipeline) or tensor parallel 4."""
    sys.path.insert(0, str(ROOT))
    import benchmarks.accuracy_serving as acc
    from gpuwise.estimators import serving as SV

    for rid in ("SH79", "SH86"):
        r = _rows()[rid]
        job = acc.serving_job(kb, r["model"], r["precision"], r["framework"], int(r["prompt_tokens"]),
                              int(r["output_tokens"]), int(r["prompts"]), int(r["tp"]), int(r["pp"]), int(r["ep"]),
                              None, None, "", offline=True)
        lay = SV.choose(job, kb.gpus[r["gpu"]], int(r["count"])).layout
        assert (lay.tp, lay.pp, lay.ep, lay.dp_attention, lay.replicas, lay.gpus_per_copy) == (1, 2, 2, 2, 1, 4)
        assert not SV.pins_not_kept(job, lay)
        assert SV.pinned_gpus(job) == 4


def test_harness_estimates_inside_band(kb, tmp_path):
    got = serving_ratios(kb, tmp_path, CELLS)
    assert set(got) == set(CELLS)
    for rid, ratio in got.items():
        assert BAND[0] <= ratio <= BAND[1], (rid, ratio)


def test_pcie_alltoall_share(kb):
    """An expert-parallel all-to-all among PCIe GPUs gets min(1, links / n) of each GPU's link, the links' worth the
    host fabric carries at once (runtime.yaml pcie_alltoall_links 3.3: voipmonitor/rtx6kpro p2pmark, 8 x RTX PRO 6000,
    173.1 of 421.3 GB/s). By hand: PCIe 5.0 x16 63 GB/s x link efficiency 0.75 = 47.25 GB/s a link; eight GPUs get
    47.25 x 3.3 / 8 = 19.49 GB/s each, two keep their whole link."""
    sys.path.insert(0, str(ROOT))
    import benchmarks.accuracy_serving as acc
    from gpuwise.estimators import serving as SV

    assert kb.runtime.pcie_alltoall_links.value == 3.3
    for rid, want in (("SH82", 63.0 * 0.75 * 3.3 / 8), ("SH84", 63.0 * 0.75)):
        r = _rows()[rid]
        job = acc.serving_job(kb, r["model"], r["precision"], r["framework"], int(r["prompt_tokens"]),
                              int(r["output_tokens"]), int(r["prompts"]), int(r["tp"]), int(r["pp"]), int(r["ep"]),
                              None, None, "", offline=True)
        rep = SV.choose(job, kb.gpus[r["gpu"]], int(r["count"])).replica
        assert rep.ep_bw / 1e9 == pytest.approx(want, rel=1e-6)


# SH95-SH98: Light-Heart-Labs/MMBT-Messy-Model-Bench-Tests at 846fd05, hardware-tests/vllm-power-sweep-2026-04-29, the
# 600 W cells: (phase folder, workers, requests, completion tokens, span s from load_600w.csv, summary.txt agg_tps)
SWEEP = {
    "SH95": ("phase1-dense-27b-n32", 32, 2048, 409600, 303.08, 1351.5),
    "SH96": ("phase1b-dense-27b-n1", 1, 108, 21600, 299.58, 72.1),
    "SH97": ("phase2-coder-next-n32", 32, 3648, 729600, 302.04, 2415.6),
    "SH98": ("phase2b-coder-next-n1", 1, 245, 49000, 300.06, 163.3),
}


def test_sweep_rows_copy_the_summaries():
    rows = rows_in("serving_independent.csv", "SH", 95, 98)
    assert set(rows) == set(SWEEP)
    for rid, (phase, workers, reqs, tokens, span, agg) in SWEEP.items():
        r = rows[rid]
        assert phase in r["source"] and r["gpu"] == "rtx-pro-6000-blackwell" and r["count"] == "1"
        assert int(r["concurrency"]) == workers and int(r["prompts"]) == reqs
        assert tokens == reqs * 200 and int(r["output_tokens"]) == 200  # every request returned max_tokens
        assert round(tokens / span, 1) == agg == float(r["output_tokens_per_s"])  # the summary's tokens over span
        assert r["workload_options"] == "quantization=awq;memory_fraction=0.92" and r["fixed_lengths"] == "1"
