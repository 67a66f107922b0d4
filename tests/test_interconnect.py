"""Interconnect estimator: ring all-reduce by hand, link choice, and scaling efficiency."""

from __future__ import annotations

import pytest

from gpuwise.estimators.interconnect import allreduce_seconds, scaling_efficiency, topology


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

    # backward = 4 s; buckets hide all but the last (overlap = 1 - its share, 0.5 here): max(1.5, 3 - 2) exposed
    e = scaling_efficiency(6.0, T(), 0.5)
    assert e.value == pytest.approx(6 / 7.5)
    # a 1% last bucket: 3 s of traffic under 4 s of backward leaves that bucket's 0.03 s
    hidden = scaling_efficiency(6.0, T(), 0.99)
    assert hidden.value == pytest.approx(6 / 6.03)


def test_point_to_point_meshes_are_modelled_per_link(kb):
    """MI300X: 7 Infinity Fabric links of 128 GB/s (both directions) per GPU, one to each peer (AMD
    MI300X data sheet): a collective among n GPUs of the 8-GPU mesh uses n - 1 links of 64 GB/s per
    direction. 2 GPUs get 7x and 4 GPUs 2.3x less than 'half the aggregate' (448)."""
    mi = kb.gpus["mi300x"]
    for n, bw in ((2, 64), (4, 192), (8, 448)):
        topo = topology(mi, n, kb.runtime)
        assert topo.intra_kind == "infinity-fabric"
        assert topo.group_gb_s(n) == pytest.approx(bw)
    eight = topology(mi, 8, kb.runtime)
    assert eight.group_gb_s(2) == pytest.approx(64)  # a pair inside a full node still has one link
    # Gaudi 2: 21 of 24 100 GbE ports connect the 8 cards all-to-all, 3 per peer = 37.5 GB/s per direction
    g2 = topology(kb.gpus["gaudi2"], 8, kb.runtime)
    assert g2.mesh_link_gb_s == pytest.approx(37.5) and g2.group_gb_s(8) == pytest.approx(262.5)


def test_switched_fabrics_give_every_group_the_full_link(kb):
    h = topology(kb.gpus["h100-80gb-sxm"], 8, kb.runtime)
    assert h.mesh_link_gb_s == 0 and h.group_gb_s(2) == h.group_gb_s(8) == 450


def test_hierarchical_allreduce_and_alltoall_by_hand(kb):
    """16 H100 on 2 nodes, one 400 Gb/s port per GPU: an all-reduce among 16 with 8 per node
    reduce-scatters inside the node (2 x 7/8 x B over 450 GB/s) and all-reduces B/8 across the 2 nodes
    (2 x 1/2 x B/8 over 50 GB/s); an all-to-all over 16 sends 7/16 of B over NVSwitch and 8/16 over
    the network at once."""
    from gpuwise.estimators.interconnect import allreduce_group_seconds, alltoall_seconds

    topo = topology(kb.gpus["h100-80gb-sxm"], 16, kb.runtime, network="infiniband-400")
    b, eff = 1e9, 0.75
    ar = allreduce_group_seconds(b, 16, 8, topo, eff, latency_us=0.0)
    expected = 2 * 7 / 8 * b / (450e9 * eff) + 2 * 1 / 2 * (b / 8) / (50e9 * eff) + 2 * topo.network_latency_us * 1e-6
    assert ar == pytest.approx(expected)
    a2a = alltoall_seconds(b, 16, 8, topo, eff, latency_us=0.0)
    assert a2a == pytest.approx(b * 8 / 16 / (50e9 * eff) + topo.network_latency_us * 1e-6)


def test_ascend_910b_hccs_is_a_mesh_and_910c_unified_bus_is_switched(kb):
    """Atlas 800T A2: 8 x 910B fully connected by HCCS, 392 GB/s per NPU over 7 links (both
    directions), so one link is 392 / 2 / 7 = 28 GB/s per direction and 4 NPUs use 3 of them:
    84 GB/s. The 910C's CloudMatrix 384 Unified Bus is switched: each NPU keeps 784 / 2 = 392 GB/s."""
    b = topology(kb.gpus["ascend-910b"], 4, kb.runtime)
    assert b.intra_kind == "hccs" and b.intra_gb_s == pytest.approx(3 * 28.0) and b.tp_domain == 4
    c = topology(kb.gpus["ascend-910c"], 8, kb.runtime)
    assert c.intra_kind == "ub" and c.intra_gb_s == pytest.approx(392.0) and c.tp_domain == 8
