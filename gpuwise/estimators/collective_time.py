"""Seconds of one collective at a GPU's rates (:class:`~gpuwise.estimators.step_time.GpuRates`): the
all-reduce, all-to-all and per-layer ring of :mod:`gpuwise.estimators.interconnect` with the GPU's bandwidths and
latencies looked up once, for the layout search, which times many layouts. Kept apart from step_time.py, whose
tensor-, expert- and context-parallel terms call them, as the data-parallel term (:mod:`.data_parallel`) does."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the rates' record only types the arguments
    from .step_rates import GpuRates


def _allreduce(g: GpuRates, nbytes: float, n: int, local: int) -> float:
    """:func:`interconnect.allreduce_group_seconds` with the GPU's bandwidths looked up once."""
    return sum(_allreduce_parts(g, nbytes, n, local))


def _allreduce_parts(g: GpuRates, nbytes: float, n: int, local: int) -> tuple[float, float]:
    """:func:`_allreduce` by link: (seconds on the fast link inside a node or rack, seconds across the network)."""
    if n <= 1 or nbytes <= 0:
        return 0.0, 0.0
    t = net = 0.0
    if local > 1:
        bw = g.mesh * (local - 1) if g.mesh else g.intra
        t = 2 * (local - 1) / local * nbytes / bw + 2 * (local - 1) * g.intra_lat
    m = n // local
    if m > 1:
        net = 2 * (m - 1) / m * (nbytes / local) / g.net_bw + 2 * (m - 1) * g.net_lat
    return t, net


def _alltoall(g: GpuRates, nbytes: float, n: int, local: int) -> float:
    """:func:`interconnect.alltoall_seconds` with the GPU's bandwidths looked up once."""
    if n <= 1 or nbytes <= 0:
        return 0.0
    intra = nbytes * (local - 1) / n / (g.mesh * (local - 1) if g.mesh else g.intra) if local > 1 else 0.0
    inter = nbytes * (n - local) / n / g.net_bw if n > local else 0.0
    return max(intra, inter) + (local - 1) * g.intra_lat + (g.net_lat if n > local else 0.0)


def _ring(g: GpuRates, nbytes: float, n: int, local: int, steps: int) -> float:
    """:func:`interconnect.ring_seconds` with the GPU's bandwidths looked up once."""
    if n <= 1 or nbytes <= 0:
        return 0.0
    volume = (n - 1) / n * nbytes
    bw = (g.mesh * (local - 1) if g.mesh else g.intra) if local > 1 else math.inf
    if n <= local:
        return volume / bw + steps * (n - 1) * g.intra_lat
    return max(volume * (local - 1) / local / bw, volume / local / g.net_bw) + steps * (n - 1) * g.net_lat
