"""The formula a runtime.yaml ``training.mfu_by_gpu`` entry is set by, by hand: the family figure (read on a
reference part) times the part's measured GEMM share over the reference's, times the reference's memory-bound term
at the reference width over the part's (compute.training_mfu's two terms; tests/test_h20eff44.py and
tests/test_gb200eff46.py each check one entry with it)."""

from __future__ import annotations

from typing import Any


def flop_per_byte(kb: Any, gpu_id: str) -> float:
    """r = dense BF16 peak over memory bandwidth, FLOP a byte."""
    g = kb.gpus[gpu_id]
    return g.peaks.bf16 * 1e12 / (g.memory.bandwidth_gb_s * 1e9)


def mfu_by_gpu_by_hand(kb: Any, family: str, share_ratio: float, ref_id: str, gpu_id: str) -> float:
    k, ref = kb.runtime.training.mfu_memory_bound_k.value, kb.runtime.training.mfu_reference_hidden.value
    term = lambda gid: 1 + k * flop_per_byte(kb, gid) / ref  # noqa: E731
    return kb.runtime.mfu[family].value * share_ratio * term(ref_id) / term(gpu_id)
