"""Big-MoE single-stream decode over two nodes (issue 22 item 1, branch moedecode).

1. SGLang's tensor-parallel all-reduce across two 8-GPU servers is priced at NCCL's tree over the LL protocol,
   not at the NVLSTree reading the general figure was measured with: SGLang exports NCCL_NVLS_ENABLE from its
   server argument enable_nccl_nvls, default False (python/sglang/srt/entrypoints/engine.py, server_args.py), and
   nccl-tests all_reduce_perf with NCCL's own choice (its tuner's log: 'Algo 0 proto 0', tree / LL) over 2 x 8
   H100 on InfiniBand takes 61.58 us for 128 B (NVIDIA/nccl issue #1453). Other frameworks keep runtime.yaml's
   47.6 us (2 x 8 H20, NCCL_ALGO=NVLSTree, NVIDIA/nccl issue #1244).
2. A run whose release is not stated is priced at the release of its date: E07 (tenstorrent/tt-inference-server
   issue #356, comment of 2025-07-09) at 0.4.9, whose counted small kernels cost 6 us where the newest release's
   fused ones cost 2 us (serving.yaml sglang releases 0.4.6 and 0.5.7).
"""

from __future__ import annotations

import csv
import importlib
from pathlib import Path

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

ST = importlib.import_module("gpuwise.estimators.serving.step")
DATA = Path(__file__).parent / "data" / "validation" / "decode_independent.csv"
R1 = {"task": "inference", "model": "deepseek-r1", "precision": "fp8", "prompt_tokens": 128, "output_tokens": 128,
      "parallelism": {"tp": 16}}


def _job(kb, **w):
    return resolve(Requirements.model_validate({"workload": {**R1, **w}}), kb)


@pytest.mark.parametrize("framework, us", [("sglang", 61.6), ("vllm", 47.6)])
def test_the_cross_node_all_reduce_is_the_frameworks_nccl_algorithm(kb, framework, us):
    """SGLang (NVLink SHARP off): 61.6 us, NVIDIA/nccl #1453's 128 B reading; vLLM: 47.6 us, #1244's NVLSTree."""
    s = SV.choose(_job(kb, framework=framework), kb.gpus["h100-80gb-sxm"], 16)
    assert s.layout.tp == 16
    assert s.replica.allreduce_s == pytest.approx(us * 1e-6)


def test_one_node_keeps_the_frameworks_own_kernel(kb):
    """Inside one node SGLang's custom all-reduce (8 us, serving.yaml allreduce_latency_us) is untouched."""
    s = SV.choose(_job(kb, framework="sglang", parallelism={"tp": 8}), kb.gpus["h100-80gb-sxm"], 8)
    assert s.replica.allreduce_s in (0.0, pytest.approx(8e-6))
    assert s.engine.allreduce_latency == pytest.approx(8e-6)


def test_e07_is_priced_at_the_release_of_its_month(kb):
    """R1's counted small kernels beyond a dense layer's, from the architecture: W8A8 activation quantization 4 a
    layer x 61, MLA's 6 extra + 2 quantizations x 61, routing 4 + 2 expert quantizations x 58 MoE layers = 244 +
    488 + 348 = 1,080 (the shared expert fused from 0.4.6). At 0.4.9 each costs 6 us, at the newest release 2 us:
    the step's fixed part differs by 1,080 x 4 us = 4.32 ms."""
    with open(DATA, newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == "E07")
    assert row["framework_version"] == "0.4.9" and "July 2025" in row["notes"]
    job_old, job_new = _job(kb, framework="sglang", framework_version="0.4.9"), _job(kb, framework="sglang")
    gpu = kb.gpus["h100-80gb-sxm"]
    old, new = SV.choose(job_old, gpu, 16), SV.choose(job_new, gpu, 16)
    assert ST._extra_kernels(old.engine) == ST._extra_kernels(new.engine) == (4 * 61 + 8 * 61 + 6 * 58, 2 * 58)
    assert old.engine.kernel_floor == pytest.approx(6e-6) and new.engine.kernel_floor == pytest.approx(2e-6)
    over_old = ST.step(job_old, old.engine, old.replica, 1.0, 0.0, 192.0, 0.0).overhead
    over_new = ST.step(job_new, new.engine, new.replica, 1.0, 0.0, 192.0, 0.0).overhead
    assert over_old - over_new == pytest.approx(1080 * 4e-6, rel=1e-9)
