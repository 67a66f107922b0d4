"""benchmarks/moe_step_split.py (branch moeexperts57): a MoE row's decode step split at the run's batch, and the
share of experts its published TPOT leaves room for."""

from __future__ import annotations

import pytest

from benchmarks import moe_step_split as MS


def _row(rid: str) -> dict:
    from benchmarks.accuracy_rows import _rows

    for path in (MS.RATE, MS.INDEPENDENT):
        for row in _rows(path.parent, path.name):
            if row["id"] == rid:
                return row
    raise KeyError(rid)


def test_rt78_reads_fewer_experts_than_uniform_routing_allows(kb):
    """RT78: Nemotron 3 Nano 30B-A3B BF16 on one DGX Spark, vLLM 0.26.0, 09-reasoning
    (djangodevreng/dgx-spark-benchmarks at 56365367): 0.0539 requests/s completed, mean TTFT 646.8 ms, mean TPOT
    135.20 ms, 4,186 output tokens, so the run held 0.0539 x (0.6468 + 4185 x 0.13520) = 30.5 sequences (Little's
    law). The model routes each token to 6 of 128 experts (Megatron-Bridge's Nemotron3NanoProvider,
    knowledge/models.yaml), so uniform routing touches 1 - (122/128)^30.5 = 0.77 of them a step. Those bytes alone, at
    the GB10's whole 273 GB/s (NVIDIA's DGX Spark hardware page), take longer than the published TPOT: the run must
    have read fewer distinct experts than uniform routing gives."""
    g = MS.split(kb, _row("RT78"))
    assert g["batch"] == pytest.approx(0.0539 * (0.6468 + 4185 * 0.13520), rel=1e-9)
    assert g["batch"] == pytest.approx(30.5, abs=0.05)
    assert g["experts"] == pytest.approx(128)
    assert g["uniform"] == pytest.approx(1 - (1 - 6 / 128) ** g["batch"], rel=1e-12)
    # the parts add up: the step is its rest plus the uniform share of every expert's read; the TPOT its rest plus
    # the implied share
    assert g["rest"] + g["uniform"] * g["experts_all"] == pytest.approx(g["step"], rel=1e-12)
    assert g["rest"] + g["implied"] * g["experts_all"] == pytest.approx(g["tpot"], rel=1e-12)
    from gpuwise.estimators.serving.step import consts

    job, s = MS.served(kb, _row("RT78"))
    expert_bytes = consts(job, s.engine, s.replica).w_experts
    assert expert_bytes * g["uniform"] / (kb.gpus["gb10"].memory.bandwidth_gb_s * 1e9) > g["tpot"]
    assert g["implied"] < 0.5 * g["uniform"]


def test_the_capped_test_of_the_same_run_reads_near_uniform(kb):
    """SH62: the same model FP8 on the same GB10 and vLLM, 10-monday-peak at 25 in flight (4,010 / 501 tokens), mean
    TPOT 127.9 ms: its published TPOT (which also carries the 4,000-token prompts' chunks) leaves room for about the
    uniform share (within 10%), where RT79 (the FP8 checkpoint's 09-reasoning run, 1,116-token prompts and
    4,186-token outputs) leaves about half of it."""
    sh = MS.split(kb, _row("SH62"))
    rt = MS.split(kb, _row("RT79"))
    assert sh["batch"] == 25.0
    assert sh["implied"] == pytest.approx(sh["uniform"], rel=0.1)
    assert rt["implied"] < 0.6 * rt["uniform"]
