"""Interconnect estimator: ring all-reduce by hand, link choice, and scaling efficiency."""

from __future__ import annotations

import pytest

from engine.estimators.interconnect import allreduce_seconds, scaling_efficiency, topology


def test_nvswitch_ring_allreduce_by_hand(kb):
    """8 x H100 SXM over NVSwitch (900 GB/s both ways = 450 per direction): 2 x 7/8 x bytes / (450e9 x 0.75)."""
    topo = topology(kb.gpus["h100-80gb-sxm"], 8, kb.runtime)
    assert topo.intra_kind == "nvswitch" and topo.intra_gb_s == 450
    t = allreduce_seconds(14e9, topo, 0.75)
    assert t.value == pytest.approx(2 * 7 / 8 * 14e9 / (450e9 * 0.75) + 14 * 5e-6)


def test_consumer_pcie_without_p2p_halves_bandwidth(kb):
    topo = topology(kb.gpus["rtx-4090"], 8, kb.runtime)
    assert topo.intra_kind == "pcie" and not topo.p2p
    assert topo.intra_gb_s == pytest.approx(kb.runtime.pcie_gb_s["4"].value / 2)


def test_bridges_do_not_span_eight_gpus(kb):
    topo = topology(kb.gpus["a100-80gb-pcie"], 8, kb.runtime)
    assert topo.intra_kind == "pcie" and "bridges do not span" in topo.description
    pair = topology(kb.gpus["a100-80gb-pcie"], 2, kb.runtime)
    assert pair.intra_kind == "nvlink-bridge"


def test_multi_node_uses_the_network(kb):
    topo = topology(kb.gpus["h100-80gb-sxm"], 16, kb.runtime, network="ethernet-25")
    assert topo.nodes == 2 and topo.network_gb_s == pytest.approx(3.125)
    ib = topology(kb.gpus["h100-80gb-sxm"], 16, kb.runtime, network="infiniband-400")
    assert ib.network_gb_s == pytest.approx(50 * 8)  # one NDR port per GPU
    slow = allreduce_seconds(14e9, topo, 0.75).value
    fast = allreduce_seconds(14e9, ib, 0.75).value
    assert slow > 10 * fast


def test_scaling_efficiency_formula():
    class T:
        value = 3.0

    e = scaling_efficiency(6.0, T(), 0.5)  # backward = 4 s, half hidden: 1 s exposed
    assert e.value == pytest.approx(6 / 7)
    hidden = scaling_efficiency(6.0, type("T", (), {"value": 1.0})(), 0.5)
    assert hidden.value == 1.0
