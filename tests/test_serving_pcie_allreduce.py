"""Tensor-parallel all-reduce over PCIe at batch 1 (knowledge/runtime.yaml pcie_allreduce): vLLM's custom
all-reduce, and SGLang's copy of it, refuse more than two PCIe-only GPUs and GPUs without peer-to-peer access
(vllm-project/vllm vllm/distributed/device_communicators/custom_all_reduce.py), so a decode step's two
all-reduces a layer run in NCCL there. NCCL prices a small all-reduce as a base plus 2 (n - 1) ring steps
(NVIDIA/nccl src/graph/tuning.cc); nccl-tests on 8 x RTX 4090 over PCIe measure 42.56 us for 8 bytes
(NVIDIA/nccl issue #1530)."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV


def _replica(kb, accuracy, model, precision, framework, gpu, count, tp):
    job = accuracy.serving_job(kb, model, precision, framework, 1024, 1024, tp=tp)
    return SV.choose(job, kb.gpus[gpu], count).replica


def test_eight_pcie_gpus_pay_nccl_latency(kb, accuracy):
    """By hand: 3.6 us + 2 x (8 - 1) x 2.78 us = 42.52 us, the 42.56 us nccl-tests measure on 8 PCIe GPUs."""
    rep = _replica(kb, accuracy, "glm-4.5", "fp8", "sglang", "rtx-pro-6000-blackwell-server", 8, 8)
    assert rep.layout.tp == 8
    assert rep.allreduce_latency == pytest.approx((3.6 + 2 * 7 * 2.78) * 1e-6)
    assert rep.allreduce_latency == pytest.approx(42.56e-6, rel=0.01)


def test_four_pcie_gpus_scale_with_ring_steps(kb, accuracy):
    """Four RTX 4090s (no peer-to-peer access): 3.6 + 2 x 3 x 2.78 = 20.28 us, NCCL's 2 (n - 1) steps."""
    rep = _replica(kb, accuracy, "qwen3-32b", "fp8", "vllm", "rtx-4090", 4, 4)
    assert rep.layout.tp == 4
    assert rep.allreduce_latency == pytest.approx(20.28e-6)


def test_two_pcie_gpus_with_peer_access_keep_the_custom_kernel(kb, accuracy):
    """Two RTX PRO 6000s with P2P: the custom all-reduce runs (two PCIe GPUs are allowed), the engine's 8 us."""
    rep = _replica(kb, accuracy, "qwen3-32b", "bf16", "vllm", "rtx-pro-6000-blackwell", 2, 2)
    assert rep.layout.tp == 2
    assert rep.allreduce_latency == pytest.approx(8e-6)


def test_nvswitch_node_is_unchanged(kb, accuracy):
    """Eight H100 SXM on NVSwitch: the custom all-reduce, SGLang's 8 us (serving.yaml), as before."""
    rep = _replica(kb, accuracy, "glm-4.5", "fp8", "sglang", "h100-80gb-sxm", 8, 8)
    assert rep.allreduce_latency == pytest.approx(8e-6)


def test_glm_on_eight_pcie_gpus_meets_its_row(kb, accuracy):
    """H02 (vllm-project/vllm pull request #29240, 2025-11-23: GLM-4.6-FP8 on 8 x RTX PRO 6000 Server Edition,
    SGLang, 58 tok/s for a single batch): blind +67.6% with NVLink's 8 us; 184 all-reduces a token at NCCL's
    PCIe latency add 184 x (42.52 - 8) us = 6.35 ms to the 10.29 ms step."""
    rows = {label.split()[0]: (est, got) for label, est, got in
            accuracy.single_stream_cases(kb, accuracy.DECODE_INDEPENDENT)}
    est, got = rows["H02"]
    assert got == pytest.approx(58.0)
    assert abs(est / got - 1) <= 0.10
