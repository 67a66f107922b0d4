"""Interconnect: how a data-parallel step scales over the links a set of GPUs has.

A ring all-reduce moves 2 x (n-1)/n x the gradient bytes through every GPU's slowest
link (Patarasuk & Yuan 2009; NCCL's "bus bandwidth"). Multi-node jobs reduce inside each
node first and then across nodes, so the network carries 2 x (nodes-1)/nodes x the
gradient bytes per node. Part of the all-reduce hides behind the backward pass; the rest
stretches the step:

    efficiency = compute / (compute + max(0, comm - overlap x backward))

ZeRO-3 and FSDP FULL_SHARD are different in kind: every micro-batch gathers each layer's
weights in the forward pass, gathers them again in the backward pass and reduce-scatters its
gradients (Rajbhandari et al. 2020, ZeRO, section 7.2.3: 3 x the parameters per step against
all-reduce's 2 x; PyTorch FSDP, Zhao et al. 2023, section 3.3), over one flat NCCL ring of all
the data-parallel GPUs (:func:`ring_seconds`). Gradient accumulation does not amortise them.

Links inside a node come in two shapes. Switched fabrics (NVSwitch, PCIe switches) give every
GPU its full bandwidth whatever the group size. Point-to-point meshes (AMD Infinity Fabric,
Intel Gaudi's on-chip RoCE ports) give every GPU one link to each peer: a collective among n
GPUs of an 8-GPU mesh uses n-1 of the 7 links, so 2 GPUs get 1/7 and 4 GPUs 3/7 of what all
8 get (AMD MI300X data sheet; Intel Gaudi 2/3 white papers). Between nodes every GPU gets its
share of the node's network (one port per GPU on rail-optimised fabrics, one per node on plain
Ethernet).
"""

from __future__ import annotations

import math
from functools import cached_property
from typing import TYPE_CHECKING

from ..frozen import frozen
from ..messages import Phrase, formula, phrase_text
from . import Term

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ..knowledge.schema import Gpu, RuntimeFile

GPUS_PER_NODE = 8


def powers_of_two(upto: int) -> list[int]:
    """1, 2, 4, ... up to ``upto``: the GPU counts a server is split into (tensor-parallel widths,
    a service's copies) and the count ladder's steps inside one server."""
    out, n = [], 1
    while n <= upto:
        out.append(n)
        n *= 2
    return out


def count_ladder(max_gpus: int) -> list[int]:
    """The GPU counts a consultation or a plan judges: 1, 2, 4, ... up to a server
    (:data:`GPUS_PER_NODE`), then whole servers doubling up to ``max_gpus``, and ``max_gpus`` itself
    when it is whole servers off the ladder (24, 48): the one count ladder."""
    out = powers_of_two(min(max_gpus, GPUS_PER_NODE))
    n = 2 * GPUS_PER_NODE
    while n <= max_gpus:
        out.append(n)
        n *= 2
    if max_gpus > GPUS_PER_NODE and max_gpus not in out and max_gpus % GPUS_PER_NODE == 0:
        out.append(max_gpus)
    return out


@frozen
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
    phrases: tuple[Phrase, ...]  # the links described, as message ids and values
    mesh_link_gb_s: float = 0.0  # point-to-point meshes: one link to one peer, one direction (0: switched)
    network_latency_us: float = 20.0
    fabric_gpus: int = 0  # GPUs one switched fast link joins across servers (an NVL72 rack); 0: one server's
    # the host has memory apart from the GPUs' to offload state into (False where the GPU's memory is the system's
    # only memory: gpus.yaml memory.shared_with_host, the GB10 of a DGX Spark)
    host_offload: bool = True

    @property
    def fabric(self) -> int:
        """GPUs whose collectives stay on the fast link: the servers of a rack-scale NVLink domain
        (GB200/GB300 NVL72: 72 GPUs in 18 trays through NVLink switches), else one server's."""
        return self.fabric_gpus or self.per_node

    @cached_property
    def description(self) -> str:
        """The links in English ("nvswitch 900 GB/s per GPU (both directions); 2 nodes over ...")."""
        return phrase_text(self.phrases)

    def group_gb_s(self, n: int) -> float:
        """Bandwidth per GPU (one direction) for a collective among ``n`` GPUs of one node: the
        full link on a switched fabric, n-1 peer links on a point-to-point mesh."""
        if n <= 1:
            return float("inf")
        if self.mesh_link_gb_s > 0:
            return self.mesh_link_gb_s * (n - 1)
        return self.intra_gb_s

    @property
    def network_gb_s_per_gpu(self) -> float:
        """The node's network bandwidth one GPU gets when all of them communicate at once."""
        return self.network_gb_s / max(1, self.per_node)


SWITCHED = ("nvswitch", "nvlink", "ub")
"""Link kinds where every GPU of the domain gets its full link to any peer: NVLink through NVSwitch,
and Huawei's Unified Bus (CloudMatrix 384). Point-to-point meshes are runtime.yaml's ``meshes``."""
FAST = (*SWITCHED, "nvlink-bridge", "infinity-fabric", "roce", "hccs")
"""Link kinds fast enough for tensor parallelism inside their domain."""


def host_link_gb_s(gpu: Gpu, per_node: int, runtime: RuntimeFile) -> float:
    """GB/s one direction a GPU gets to its host's memory when every GPU of its server copies at once (an offloaded
    step: data-parallel ranks send their gradients and fetch their weights together): the x16 rate of the GPU's
    PCIe generation (runtime.yaml pcie_gb_s) over the GPUs that share its uplink to the CPU (gpus.yaml
    link.host_uplink_gpus, at most the GPUs the server runs). A GPU joined to its own CPU by a chip-to-chip link
    (gpus.yaml link.host_c2c_gb_s: NVLink-C2C on GH200 / GB200) copies over that instead, half its both-ways
    figure a direction, shared the same way (a GB200's two GPUs share one Grace's link)."""
    link = gpu.link
    if link.host_c2c_gb_s:
        rate = link.host_c2c_gb_s / 2
    else:
        gen = str(link.pcie_gen)
        rate = runtime.pcie_gb_s[gen].value if gen in runtime.pcie_gb_s else 31.5
    return rate / max(1, min(link.host_uplink_gpus or 1, per_node))


def link_bandwidth(gpu: Gpu, per_node: int, runtime: RuntimeFile, link_override: str | None = None
                   ) -> tuple[str, float, bool, tuple[Phrase, ...]]:
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
        return kind, float("inf"), True, (("", "link.single_gpu", {}),)
    mesh = runtime.training.meshes.get(kind)
    if mesh is not None and per_node <= link.domain_gpus:
        per_link = mesh_link_gb_s(gpu, runtime)
        bw = per_link * (per_node - 1)
        # the words give a link's figure to a tenth of a GB/s (review51: the MI355X's 1,075 GB/s over 7 peers, both
        # directions, read '76.7857 GB/s per direction'); the estimate keeps it whole
        return kind, bw, True, (("", "link.mesh", {"kind": kind, "used": per_node - 1, "peers": link.domain_gpus - 1,
                                                   "bw": round(per_link, 1)}),)
    if kind in SWITCHED and per_node <= link.domain_gpus:
        bw = link.bandwidth_gb_s / 2
        return kind, bw, True, (("", "link.switched", {"kind": kind, "bw": link.bandwidth_gb_s}),)
    if kind == "nvlink-bridge" and per_node <= link.domain_gpus:
        return kind, link.bandwidth_gb_s / 2, True, (("", "link.bridge", {"bw": link.bandwidth_gb_s}),)
    # PCIe: without peer-to-peer the data is staged through host memory, halving throughput
    p2p = link.p2p
    bw = pcie if p2p else pcie / 2
    desc: tuple[Phrase, ...] = (("", "link.pcie", {"gen": gen, "bw": pcie}),)
    if not p2p:
        desc += ((", ", "link.no_p2p", {}),)
    if kind == "nvlink-bridge":
        desc += (("; ", "link.bridges_short", {"n": link.domain_gpus, "gpus": per_node}),)
    return "pcie", bw, p2p, desc


def mesh_link_gb_s(gpu: Gpu, runtime: RuntimeFile) -> float:
    """One peer link of a point-to-point mesh, one direction: the GPU's link bandwidth (both
    directions) / 2, times the share that reaches peers, over the domain's peers."""
    mesh = runtime.training.meshes.get(gpu.link.kind)
    if mesh is None or gpu.link.domain_gpus <= 1:
        return 0.0
    return gpu.link.bandwidth_gb_s / 2 * mesh.intra_share / (gpu.link.domain_gpus - 1)


def topology(gpu: Gpu, count: int, runtime: RuntimeFile, *, nodes: int | None = None,
             network: str | None = None, link_override: str | None = None) -> Topology:
    """How ``count`` GPUs are linked, in a node and between nodes. A topology is immutable and a
    function of its arguments, so it is made once per process for the same GPU, runtime and
    arguments (a search asks for the same one from the memory bound, the estimate and the rules'
    facts; its description is then worded once)."""
    key = (id(gpu), id(runtime), count, nodes, network, link_override)
    hit = _TOPOLOGIES.get(key)
    if hit is None or hit[0] is not gpu or hit[1] is not runtime:
        if len(_TOPOLOGIES) >= 4096:
            _TOPOLOGIES.clear()
        hit = _TOPOLOGIES[key] = (gpu, runtime, _topology(gpu, count, runtime, nodes, network, link_override))
    return hit[2]


_TOPOLOGIES: dict[tuple[int, int, int, int | None, str | None, str | None], tuple[Gpu, RuntimeFile, Topology]] = {}


def gpus_per_server(gpu: Gpu) -> int:
    """The most GPUs of this type one server holds: quad-GH200 blades hold 4, HGX boards 8."""
    return gpu.link.server_gpus or GPUS_PER_NODE


def default_network(gpu: Gpu, runtime: RuntimeFile) -> str:
    """The network between servers when none is stated: a desktop system's own port (gpus.yaml
    link.system_fabric, the DGX Spark's ConnectX-7), else the scale-out fabric of the part's reference system
    (gpus.yaml link.scale_out_network: a DGX A100's HDR 200 a GPU, a DGX B300's 800 Gb/s), else runtime.yaml's
    default for the GPU's segment."""
    for own in (gpu.link.system_fabric, gpu.link.scale_out_network):
        if own and own in runtime.networks:
            return own
    return (runtime.default_network_datacenter if gpu.segment in ("datacenter", "cloud-only")
            else runtime.default_network_other)


def _topology(gpu: Gpu, count: int, runtime: RuntimeFile, nodes: int | None, network: str | None,
              link_override: str | None) -> Topology:
    per_node_max = gpus_per_server(gpu)
    n_nodes = nodes or max(1, math.ceil(count / per_node_max))
    per_node = math.ceil(count / n_nodes)
    kind, bw, p2p, desc = link_bandwidth(gpu, per_node, runtime, link_override)
    net_gb_s = float("inf")
    latency = 20.0
    if n_nodes > 1:
        if network is None:
            network = default_network(gpu, runtime)
        net = runtime.networks.get(network)
        net_gb_s = 1.25 if net is None else net.gb_s * (per_node if net.shared_by == "gpu" else 1)
        latency = 30.0 if net is None else max(net.latency_us, 1.0)
        desc = ((("", "link.nodes_single", {"n": n_nodes, "network": network}),) if per_node <= 1  # DGX Sparks
                else (*desc, ("; ", "link.nodes", {"n": n_nodes, "network": network})))
    tp_domain = gpu.link.domain_gpus if kind in FAST else 1
    mesh = mesh_link_gb_s(gpu, runtime) if kind == gpu.link.kind and per_node <= gpu.link.domain_gpus else 0.0
    # a switched domain larger than one server (NVL72) joins the GPUs of several servers on the same link
    fabric = (min(count, gpu.link.domain_gpus) if n_nodes > 1 and kind in SWITCHED and kind == gpu.link.kind
              and gpu.link.domain_gpus > per_node_max and not link_override else 0)
    # tensor parallelism stays on the fast link: one server's, or the trays a rack-scale NVLink domain joins (an NVL72
    # rack's 4-GPU compute trays: TP8 across two trays runs on NVLink, product63)
    return Topology(count, n_nodes, per_node, kind, bw, network, net_gb_s, p2p, min(tp_domain, fabric or per_node),
                    desc, mesh, latency, fabric, not gpu.memory.shared_with_host)


def allreduce_seconds(grad_bytes: float, topo: Topology, link_eff: float, latency_us: float = 5.0) -> Term:
    """Seconds to all-reduce ``grad_bytes`` (per GPU) once, hierarchical over nodes (one micro-batch's
    traffic for the estimate without a layout plan; ZeRO-3's two gathers and one reduce-scatter of a
    micro-batch are passed in as 1.5 x the size)."""
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
                formula("formula.allreduce"),
                {"gradient_bytes": grad_bytes, "gpus_per_node": topo.per_node, "nodes": topo.nodes,
                 "intra_gb_s": topo.intra_gb_s, "network_gb_s": topo.network_gb_s, "link_efficiency": link_eff,
                 "intra_seconds": t_intra, "inter_seconds": t_inter})


def scaling_efficiency(step_compute_s: float, comm: Term, overlap: float) -> Term:
    """Fraction of ideal speed-up kept when the all-reduce is partly hidden by backward."""
    backward = step_compute_s * 2 / 3
    exposed = max(comm.value * (1 - overlap), comm.value - overlap * backward)  # the last bucket waits
    eff = step_compute_s / (step_compute_s + exposed) if step_compute_s > 0 else 1.0
    return Term("scaling_efficiency", eff, "",
                formula("formula.scaling_efficiency"),
                {"step_compute_s": step_compute_s, "allreduce_s": comm.value, "overlap": overlap,
                 "exposed_s": exposed})


# ------------------------------------------------------------------ collectives of a layout
def allreduce_group_seconds(nbytes: float, n: int, local: int, topo: Topology, link_eff: float,
                            latency_us: float = 5.0) -> float:
    """Seconds for one all-reduce of ``nbytes`` per GPU among ``n`` GPUs, ``local`` of them on each
    node: reduce-scatter inside the node, the 1/local shard across nodes, all-gather back
    (NCCL's hierarchical ring). A reduce-scatter or an all-gather alone is half of it."""
    if n <= 1 or nbytes <= 0:
        return 0.0
    local = max(1, min(local, n))
    t = 0.0
    if local > 1:
        t += 2 * (local - 1) / local * nbytes / (topo.group_gb_s(local) * 1e9 * link_eff)
        t += 2 * (local - 1) * latency_us * 1e-6
    m = n // local
    if m > 1:
        t += 2 * (m - 1) / m * (nbytes / local) / (topo.network_gb_s_per_gpu * 1e9 * link_eff)
        t += 2 * (m - 1) * topo.network_latency_us * 1e-6
    return t


def alltoall_seconds(nbytes: float, n: int, local: int, topo: Topology, link_eff: float,
                     latency_us: float = 5.0) -> float:
    """Seconds for one all-to-all in which every GPU sends ``nbytes`` spread evenly over ``n`` peers,
    ``local`` of them (itself included) on its node: the on-node part over the intra-node links,
    the rest over its share of the network, both at once."""
    if n <= 1 or nbytes <= 0:
        return 0.0
    local = max(1, min(local, n))
    intra = nbytes * (local - 1) / n / (topo.group_gb_s(local) * 1e9 * link_eff) if local > 1 else 0.0
    inter = nbytes * (n - local) / n / (topo.network_gb_s_per_gpu * 1e9 * link_eff) if n > local else 0.0
    lat = (local - 1) * latency_us * 1e-6 + (topo.network_latency_us * 1e-6 if n > local else 0.0)
    return max(intra, inter) + lat


def p2p_seconds(nbytes: float, across_nodes: bool, topo: Topology, link_eff: float) -> float:
    """Seconds to send ``nbytes`` from one pipeline stage to the next."""
    if nbytes <= 0:
        return 0.0
    if across_nodes:
        return nbytes / (topo.network_gb_s_per_gpu * 1e9 * link_eff) + topo.network_latency_us * 1e-6
    bw = topo.group_gb_s(2) if topo.per_node > 1 else topo.network_gb_s_per_gpu
    return nbytes / (bw * 1e9 * link_eff) + 5e-6


def ring_seconds(nbytes: float, n: int, local: int, topo: Topology, link_eff: float, steps: int = 1,
                 latency_us: float = 5.0) -> float:
    """Seconds for one all-gather (or one reduce-scatter) of a ``nbytes`` buffer among ``n`` GPUs,
    ``local`` of them on each node, on one flat ring, as ZeRO-3 and FSDP run them; ``steps``: how many
    separate collectives it is cut into (one per layer), each paying the ring's latency.

    Every GPU sends (n-1)/n x ``nbytes``. On one node all of it goes over the GPU's link. Across
    nodes NCCL lays one ring per channel and spreads the channels over the node's network ports, so
    of each GPU's traffic 1/local leaves the node (through its share of the network: its own port on
    a rail-optimised fabric) and (local-1)/local stays on the intra-node link. The two run at once:
    the slower one sets the time (NCCL ring bus bandwidth: two 8 x H100 nodes with eight 400 Gb/s
    ports each reach several hundred GB/s, not one port's 50)."""
    if n <= 1 or nbytes <= 0:
        return 0.0
    local = max(1, min(local, n))
    volume = (n - 1) / n * nbytes
    if n <= local:
        t = volume / (topo.group_gb_s(local) * 1e9 * link_eff)
        lat = latency_us * 1e-6
    else:
        intra = volume * (local - 1) / local / (topo.group_gb_s(local) * 1e9 * link_eff) if local > 1 else 0.0
        inter = volume / local / (topo.network_gb_s_per_gpu * 1e9 * link_eff)
        t = max(intra, inter)
        lat = topo.network_latency_us * 1e-6
    return t + steps * (n - 1) * lat
