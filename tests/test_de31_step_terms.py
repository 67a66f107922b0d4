"""Row DE31's decode step by hand from its terms (branch vllmfloor55; the miss read in the validation README,
'vLLM's small-kernel floor for big MoE / MLA decode before 0.20.0'). The row: moonshotai/Kimi-K2.5 (INT4 routed
experts) on 8 x H100 SXM, vLLM 0.15.0, TP 8, three sequential requests of 128 tokens in 1.146 / 1.138 / 1.138 s
(t0mdicks0n/llm-self-hosting notes/kimi-k2.5-benchmark-results.md @ d9aa0fc3). Kimi K2's shape (models.yaml
kimi-k2): 61 layers, the first dense, 60 MoE layers with one shared expert, MLA. vLLM's constants (serving.yaml):
a counted small kernel 10 us (kernel_floor_us; the fused 3 us only from 0.20.0), a grouped expert GEMM 13 us on
Hopper (architecture_overrides hopper), 10 us a layer, 8 us an all-reduce (two a layer), 400 us a step and 12 us a
sequence of host time. Step counts (step.py): MLA's 6 extra kernels a layer (MLA_EXTRA_KERNELS), the router's 4
(ROUTER_KERNELS) and the shared expert's 3 (SHARED_EXPERT_KERNELS) a MoE layer, two grouped GEMMs a MoE layer."""

from __future__ import annotations

import importlib

import pytest

from benchmarks import accuracy as A
from gpuwise import knowledge
from gpuwise.estimators import serving as SV

ST = importlib.import_module("gpuwise.estimators.serving.step")
MEASURED_S = (1.146 + 1.138 + 1.138) / 3  # one request of 128 tokens, TTFT and HTTP included


@pytest.fixture(scope="module")
def de31():
    kb = knowledge.load()
    job = A.serving_job(kb, "kimi-k2", "int4", "vllm", 35, 128, tp=8, framework_version="0.15.0",
                        options="memory_fraction=0.95")
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 8)
    return job, s


def test_counts_and_floor_by_hand(de31):
    _, s = de31
    eng = s.engine
    small, grouped = 6 * 61 + 4 * 60 + 3 * 60, 2 * 60  # 366 + 240 + 180 = 786; 120
    assert ST._extra_kernels(eng) == (small, grouped)
    assert eng.kernel_floor == pytest.approx(10e-6) and eng.grouped_floor == pytest.approx(13e-6)
    assert ST.floor_per_step(eng) == pytest.approx(786 * 10e-6 + 120 * 13e-6)  # 9.42 ms


def test_step_is_the_sum_of_its_terms(de31):
    job, s = de31
    c = ST.consts(job, s.engine, s.replica)
    seconds, gemm, attention, comm, over, host = ST._parts(c, 1.0, 0.0, 35 + 64, 0.0)[:6]
    assert over == pytest.approx(61 * 10e-6 + 9.42e-3)  # 0.61 ms of layers + 9.42 ms of extra kernels
    assert host == pytest.approx(400e-6 + 12e-6)
    assert 2 * 61 * 8e-6 <= comm < 1.0e-3  # 122 all-reduces of 14 KiB
    assert seconds == pytest.approx(gemm + attention + comm + over + host)
    assert 14.0e-3 < seconds < 14.3e-3  # 14.15 ms: the row's blind -38.2%


def test_what_the_measured_token_leaves_a_kernel(de31):
    """The measured token less gpuwise's own TTFT share and every term but the extra kernels leaves ~3.9 ms for
    the 906 counted kernels: ~4.3 us each, or ~3.0 us a small kernel with the grouped GEMMs kept at 13 us -- the
    fused figure vLLM's releases get only from 0.20.0 (serving.yaml fused_kernel_floor_us 3)."""
    job, s = de31
    one = SV.point(job, s.engine, s.replica, 1.0)
    per_token = (MEASURED_S - one.ttft) / 128
    rest = one.decode_step - ST.floor_per_step(s.engine)
    left = per_token - rest
    assert 3.7e-3 < left < 4.1e-3
    assert (left - 120 * 13e-6) / 786 == pytest.approx(3.0e-6, abs=0.3e-6)
