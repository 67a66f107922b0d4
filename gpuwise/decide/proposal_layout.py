"""How an audit reads a proposal's hardware before it is estimated: a rented instance's host cores and network, the
instance a provider-only rental matches, the systems a small-system part fills, and the servers a purchase of a part
sold in whole servers is priced as (each said as an assumption where it is one). Split from audit.py (house limit)."""

from __future__ import annotations

import math
from typing import Any

from .. import messages
from ..errors import N_, UserError
from ..estimators import cost as K
from ..estimators.rental import matching_instance, named_offer, rent_network
from ..inputs.job import note
from ..inputs.schema import Proposal
from ..results import Assumption


def instance_host(p: Proposal, kb: Any) -> tuple[Proposal, Any]:
    """A training proposal renting a named instance whose vCPUs are known (runtime.yaml rented_host_ram
    instance_vcpus) and stating no host: the instance's physical cores (vCPUs over threads a core) run its offloaded
    optimizer (workload.host_cpu_cores), said as an assumption."""
    w, acq, hr = p.workload, p.acquisition, kb.runtime.rented_host_ram
    vcpus = hr.instance_vcpus.get(acq.instance) if acq.instance else None
    if w.task == "inference" or acq.mode != "rent" or not vcpus or w.host_cpu_cores is not None:
        return p, None
    cores = max(1, vcpus // hr.threads_per_core)
    said = note("workload.host_cpu_cores", cores, "assume.host_cpu_cores.instance",
                {"instance": acq.instance, "vcpus": vcpus, "threads": hr.threads_per_core, "cores": cores})
    return p.model_copy(update={"workload": w.model_copy(update={"host_cpu_cores": cores})}), said


def instance_network(p: Proposal, kb: Any, proposed: Any) -> Any:
    """Several rented instances with no ``hardware.network``: the network between them is the one the named
    instance is listed with (clouds.yaml), said with the instance, as its provider states it."""
    hw, acq = p.hardware, p.acquisition
    topo = proposed.topology
    if hw.network or acq.mode != "rent" or not acq.instance or topo is None or topo.nodes <= 1:
        return None
    shape = next((i for i in kb.clouds.instances if i.id == acq.instance), None)
    known = kb.runtime.networks.get(topo.network)
    if shape is None or not shape.network or shape.network != topo.network or known is None:
        return None
    return note("hardware.network", topo.network, "assume.network.instance",
                {"instance": acq.instance, "nodes": topo.nodes, "network": known.text,
                 "network_phrases": messages.phrase_json(known.phrases()), "stated": shape.network_stated})


def provider_only(p: Proposal) -> bool:
    """A rental that names its provider and neither an instance nor the network between its servers."""
    acq = p.acquisition
    return acq.mode == "rent" and bool(acq.provider) and not acq.instance and not p.hardware.network


def proposal_instance(p: Proposal, job: Any, gpu: Any) -> tuple[Any, str]:
    """A rental over several nodes that names its provider but no instance and no network: the provider's listed
    instance its stated nodes or its own rate a GPU-hour match (rental.matching_instance), and why; (None, "")
    otherwise (it is then estimated on the offer it is priced on, and :func:`provider_network` says which)."""
    hw, acq = p.hardware, p.acquisition
    if not provider_only(p) or hw.nodes <= 1:
        return None, ""
    return matching_instance(job, gpu, hw.count, acq.provider, math.ceil(hw.count / hw.nodes),
                             None if acq.spot else acq.hourly_usd)


def provider_network(p: Proposal, job: Any, gpu: Any, proposed: Any, match: Any, basis: str) -> Any:
    """The network between the nodes of a rental naming its provider but no instance or network, said: that of the
    instance the proposal matched (:func:`proposal_instance`), else that of the offer it is priced on."""
    hw, acq, kb = p.hardware, p.acquisition, job.kb
    topo = proposed.topology
    if not provider_only(p) or topo is None or topo.nodes <= 1:
        return None
    known = kb.runtime.networks.get(topo.network)
    offer = match or named_offer(job, gpu, hw.count, acq.provider, spot=acq.spot)
    if known is None or offer is None or rent_network(kb, gpu, offer) != topo.network:
        return None
    values = {"provider": acq.provider, "instance": offer.instance or "", "nodes": topo.nodes, "gpus": offer.gpus,
              "per_node": topo.per_node, "rate": offer.per_gpu_hour, "network": known.text,
              "network_phrases": messages.phrase_json(known.phrases())}
    if match is not None:
        return note("acquisition.instance", offer.instance, f"assume.instance.{basis}", values)
    return note("hardware.network", topo.network,
                "assume.network.offer" if offer.instance else "assume.network.offer_unnamed", values)


def systems(p: Proposal, gpu: Any, where: str) -> Proposal:
    """A part whose systems hold fewer GPUs than a server does (gpus.yaml ``link.server_gpus``: one GB10 a DGX
    Spark, four GH200 a quad blade): ``hardware.nodes`` not given is the systems the count fills, not one node
    holding them all (two Sparks were judged as one box over PCIe); given, a node holding more GPUs than one
    such system does is refused."""
    hw, most = p.hardware, gpu.link.server_gpus
    if not most:
        return p
    need = math.ceil(hw.count / most)
    if "nodes" not in hw.model_fields_set:
        return p.model_copy(update={"hardware": hw.model_copy(update={"nodes": need})})
    if math.ceil(hw.count / hw.nodes) > most:
        raise UserError(N_("%(count)s x %(gpu)s over nodes: %(nodes)s puts %(per_node)s GPUs in a node, but one of "
                           "its systems holds %(most)s"), where=where,
                        hint=N_("give nodes: %(need)s, or leave nodes out"), hint_values={"need": need},
                        values={"count": hw.count, "gpu": gpu.name, "nodes": hw.nodes,
                                "per_node": math.ceil(hw.count / hw.nodes), "most": most})
    return p


def servers_bought(p: Proposal, gpu: Any, kb: Any) -> tuple[Proposal, Assumption | None]:
    """A purchase of a part sold in whole servers (prices.yaml ``units.sold_as: server``: an SXM module on its
    baseboard) with ``hardware.nodes`` not given: the servers the cost prices, not one node holding them all.
    review62: 16 H100 SXM were priced as 2 x 8-GPU baseboards with a scale-out network, while the estimate ran
    one 16-GPU node over PCIe (20.1 hours; 15.1 on the two servers priced)."""
    hw = p.hardware
    if p.acquisition.mode != "buy" or "nodes" in hw.model_fields_set or gpu.link.server_gpus:
        return p, None
    entry = K.price_entry(kb.prices, gpu.id)
    if entry is None or entry.units.sold_as != "server":
        return p, None
    largest = max(entry.units.sizes)
    if hw.count <= largest or hw.count % largest:
        return p, None
    nodes = hw.count // largest
    said = note("hardware.nodes", nodes, "assume.nodes.servers", {"nodes": nodes, "per": largest, "gpu": gpu.name})
    return p.model_copy(update={"hardware": hw.model_copy(update={"nodes": nodes})}), said
