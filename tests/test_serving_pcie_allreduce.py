"""Tensor-parallel all-reduce over PCIe (serving.yaml ``pcie_allreduce``): vLLM's and SGLang's own all-reduce kernel
needs more than two GPUs fully connected by NVLink (vllm/distributed/device_communicators/custom_all_reduce.py:
'Custom allreduce is disabled because it's not supported on more than two PCIe-only GPUs') and peer-to-peer access;
otherwise NCCL's ring all-reduce runs, 2 (n - 1) steps one after another. nccl-tests on 8 x RTX 3090 over PCIe
(NVIDIA/nccl issue #1439): 54.18 us for 8 bytes, 3.87 us a step. Figures by hand."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.step import consts
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def _copy(kb, gpu: str, tp: int, framework: str = "vllm"):
    w = {"task": "inference", "model": "llama-3.1-70b", "precision": "fp8" if gpu != "rtx-4090" else "int4",
         "framework": framework, "prompt_tokens": 1024, "output_tokens": 256, "parallelism": {"tp": tp, "pp": 1}}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(job, kb.gpus[gpu], tp)
    assert s.replica.layout.tp == tp
    return job, s


@pytest.mark.parametrize(("gpu", "tp", "us"), [
    ("l40s", 8, 2 * 7 * 3.87),  # 54.18 us: nccl-tests' 8-GPU figure itself
    ("l40s", 4, 2 * 3 * 3.87),  # 23.22 us
    ("a100-80gb-pcie", 4, 2 * 3 * 3.87),  # NVLink bridges join pairs only: not fully connected at 4
    ("a100-80gb-pcie", 2, 8.0),  # a bridged pair: the custom kernel (allreduce_latency_us)
    ("l40s", 2, 8.0),  # two PCIe GPUs with peer-to-peer: the custom kernel still runs
    ("h100-80gb-sxm", 8, 8.0),  # NVSwitch: fully connected
])
def test_vllm_all_reduce_latency_by_link(kb, gpu, tp, us):
    job, s = _copy(kb, gpu, tp)
    assert consts(job, s.engine, s.replica).allreduce_latency == pytest.approx(us * 1e-6)


def test_without_peer_to_peer_two_gpus_use_nccl_but_never_below_the_custom_figure(kb):
    """RTX 4090s have no peer-to-peer access (gpus.yaml p2p: false): NCCL at 2 GPUs is 2 x 1 x 3.87 = 7.74 us, below
    the 8 us the framework's own figure takes, so 8 us; at 4 GPUs 23.22 us."""
    for tp, us in ((2, 8.0), (4, 23.22)):
        job, s = _copy(kb, "rtx-4090", tp)
        assert consts(job, s.engine, s.replica).allreduce_latency == pytest.approx(us * 1e-6)


def test_sglang_runs_the_same_check_and_tensorrt_llm_keeps_its_figure(kb):
    job, s = _copy(kb, "l40s", 4, "sglang")
    assert consts(job, s.engine, s.replica).allreduce_latency == pytest.approx(23.22e-6)
    job, s = _copy(kb, "l40s", 4, "tensorrt-llm")
    assert consts(job, s.engine, s.replica).allreduce_latency == pytest.approx(s.engine.allreduce_latency)


def test_a_decode_step_pays_the_ring_for_each_of_its_all_reduces(kb):
    """Llama-3.1-70B (80 layers, two all-reduces a layer) on 8 L40S: 160 x (54.18 - 8) us = 7.39 ms more a step
    than with the custom kernel's figure, at one sequence (bandwidth terms alike)."""
    from gpuwise.estimators.serving.step import seconds_of

    job, s = _copy(kb, "l40s", 8)
    c = consts(job, s.engine, s.replica)
    slow = seconds_of(c, 1.0, 0.0, 1024.0, 0.0)
    c.allreduce_latency = s.engine.allreduce_latency
    fast = seconds_of(c, 1.0, 0.0, 1024.0, 0.0)
    assert slow - fast == pytest.approx(160 * (54.18 - 8.0) * 1e-6, rel=1e-6)


@pytest.mark.parametrize("framework", ["vllm", "sglang"])
def test_nvlink_all_reduce_figure_lies_in_the_measured_custom_kernel_range(kb, framework):
    """Inside an NVLink domain the decode step's all-reduce (hidden x 2 bytes: 16 KiB for Llama-3.1-70B's 8,192)
    runs the engines' custom kernel. Measured at tp 8 on H100 without CUDA graphs (sgl-project/sglang pull request
    #2904): SGLang's 5.7 us at 4 KiB and 7.8 us at 32 KiB, vLLM's 9.3 and 11.8 us; ca_1stage on B300 7-8 us at 16-128
    KiB (vllm-project/vllm pull request #37756). The figure a tp-8 copy on 8 x H100 takes lies in 5.7-11.8 us and is
    far below NCCL's 24-29 us on the same B300 table."""
    job, s = _copy(kb, "h100-80gb-sxm", 8, framework)
    latency = consts(job, s.engine, s.replica).allreduce_latency
    assert 5.7e-6 <= latency <= 11.8e-6
    assert latency < 24e-6
