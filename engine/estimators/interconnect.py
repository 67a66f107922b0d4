"""Interconnect: how a data-parallel step scales over the links a set of GPUs has.

A ring all-reduce moves 2 x (n-1)/n x the gradient bytes through every GPU's slowest
link (Patarasuk & Yuan 2009; NCCL's "bus bandwidth"). Multi-node jobs reduce inside each
node first and then across nodes, so the network carries 2 x (nodes-1)/nodes x the
gradient bytes per node. ZeRO-3 adds parameter all-gathers: 1.5x the traffic of plain
data parallelism (Rajbhandari et al. 2020, ZeRO, section 7). Part of the all-reduce hides
behind the backward pass; the rest stretches the step:

    efficiency = compute / (compute + max(0, comm - overlap x backward))
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..knowledge.schema import Gpu, RuntimeFile
from . import Term

GPUS_PER_NODE = 8


@dataclass(frozen=True)
class Topology:
    gpus: int
    nodes: int
    per_node: int
    intra_kind: str  # nvswitch | nvlink | nvlink-bridge | pcie | infinity-fabric | roce
    intra_gb_s: float  # per GPU, one direction, the slowest link inside a node
    network: str | None
    network_gb_s: float  # per node, one direction
    p2p: bool
    tp_domain: int  # GPUs that share the fast link
    description: str


def link_bandwidth(gpu: Gpu, per_node: int, runtime: RuntimeFile, link_override: str | None = None
                   ) -> tuple[str, float, bool, str]:
    """(kind, GB/s one direction, peer-to-peer?, description) of the slowest intra-node hop."""
    link = gpu.link
    gen = str(link.pcie_gen)
    pcie = runtime.pcie_gb_s[gen].value if gen in runtime.pcie_gb_s else 31.5
    if link_override and link_override.startswith("pcie-"):
        g = link_override.split("-")[1]
        pcie = runtime.pcie_gb_s[g].value if g in runtime.pcie_gb_s else pcie
        kind = "pcie"
    elif link_override in ("nvlink", "nvswitch"):
        kind = link.kind if link.kind in ("nvlink", "nvswitch", "nvlink-bridge") else "nvlink"
    else:
        kind = link.kind
    if per_node <= 1:
        return kind, float("inf"), True, "single GPU"
    if kind in ("nvswitch", "nvlink", "infinity-fabric", "roce") and per_node <= link.domain_gpus:
        bw = link.bandwidth_gb_s / 2
        return kind, bw, True, f"{kind} {link.bandwidth_gb_s:g} GB/s per GPU (both directions)"
    if kind == "nvlink-bridge" and per_node <= link.domain_gpus:
        return kind, link.bandwidth_gb_s / 2, True, f"NVLink bridge {link.bandwidth_gb_s:g} GB/s"
    # PCIe: without peer-to-peer the data is staged through host memory, halving throughput
    p2p = link.p2p
    bw = pcie if p2p else pcie / 2
    desc = f"PCIe gen{gen} x16 {pcie:g} GB/s per direction" + ("" if p2p else ", no peer-to-peer (via host)")
    if kind == "nvlink-bridge":
        desc += f"; the {link.domain_gpus}-way bridges do not span {per_node} GPUs"
    return "pcie", bw, p2p, desc


def topology(gpu: Gpu, count: int, runtime: RuntimeFile, *, nodes: int | None = None,
             network: str | None = None, link_override: str | None = None) -> Topology:
    per_node_max = GPUS_PER_NODE
    n_nodes = nodes or max(1, math.ceil(count / per_node_max))
    per_node = math.ceil(count / n_nodes)
    kind, bw, p2p, desc = link_bandwidth(gpu, per_node, runtime, link_override)
    net_gb_s = float("inf")
    if n_nodes > 1:
        if network is None:
            network = (runtime.default_network_datacenter if gpu.segment in ("datacenter", "cloud-only")
                       else runtime.default_network_other)
        net = runtime.networks.get(network)
        net_gb_s = 1.25 if net is None else net.gb_s * (per_node if net.shared_by == "gpu" else 1)
        desc += f"; {n_nodes} nodes over {network}"
    fast = ("nvswitch", "nvlink", "nvlink-bridge", "infinity-fabric", "roce")
    tp_domain = gpu.link.domain_gpus if kind in fast else 1
    return Topology(count, n_nodes, per_node, kind, bw, network, net_gb_s, p2p, min(tp_domain, per_node), desc)


def allreduce_seconds(grad_bytes: float, topo: Topology, link_eff: float, latency_us: float = 5.0) -> Term:
    """Seconds to all-reduce ``grad_bytes`` (per GPU) once, hierarchical over nodes.

    ZeRO-3's extra parameter gathers are passed in as a larger equivalent size."""
    factor = 1.0
    t_intra = 0.0
    if topo.per_node > 1 and math.isfinite(topo.intra_gb_s):
        n = topo.per_node
        t_intra = factor * 2 * (n - 1) / n * grad_bytes / (topo.intra_gb_s * 1e9 * link_eff)
        t_intra += 2 * (n - 1) * latency_us * 1e-6
    t_inter = 0.0
    if topo.nodes > 1:
        m = topo.nodes
        t_inter = factor * 2 * (m - 1) / m * grad_bytes / (topo.network_gb_s * 1e9 * link_eff)
        t_inter += 2 * (m - 1) * 20e-6
    return Term("allreduce_seconds", t_intra + t_inter, "s",
                "2 x (n-1)/n x bytes per step / (link GB/s x efficiency), inside the node then across nodes",
                {"gradient_bytes": grad_bytes, "gpus_per_node": topo.per_node, "nodes": topo.nodes,
                 "intra_gb_s": topo.intra_gb_s, "network_gb_s": topo.network_gb_s, "link_efficiency": link_eff,
                 "intra_seconds": t_intra, "inter_seconds": t_inter})


def scaling_efficiency(step_compute_s: float, comm: Term, overlap: float) -> Term:
    """Fraction of ideal speed-up kept when the all-reduce is partly hidden by backward."""
    backward = step_compute_s * 2 / 3
    exposed = max(0.0, comm.value - overlap * backward)
    eff = step_compute_s / (step_compute_s + exposed) if step_compute_s > 0 else 1.0
    return Term("scaling_efficiency", eff, "",
                "compute / (compute + max(0, all-reduce - overlap x backward))",
                {"step_compute_s": step_compute_s, "allreduce_s": comm.value, "overlap": overlap,
                 "exposed_s": exposed})
