"""A requirements file's or a proposal's names checked against what the knowledge base lists: a network
(runtime.yaml), a rented instance (clouds.yaml: its GPU, its provider, the GPUs a node it holds, its host RAM and the
network between instances) and a provider written in other case. Each refusal is one line with the close match.
Moved out of :mod:`.job` (its module held 796 lines), which re-exports them for the code that imports them there.
"""

from __future__ import annotations

import math
import re
from typing import Any

from ..errors import N_, UserError
from ..knowledge import Knowledge
from .units import link_gbps

#: InfiniBand's generations by the line rate of a 4x port in Gb/s (the IBTA names NVIDIA's adapters and switches are
#: sold by: ConnectX-5 EDR 100, ConnectX-6 / Quantum HDR 200, ConnectX-7 / Quantum-2 NDR 400, Quantum-X800 XDR 800).
_IB_GENERATIONS = {"edr": 100.0, "hdr": 200.0, "ndr": 400.0, "xdr": 800.0}
_FAMILIES = {"infiniband": "infiniband", "ib": "infiniband", "roce": "roce", "rocev2": "roce", "ethernet": "ethernet",
             "gbe": "ethernet"}
_SPEED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*g(?:b(?:e|ps|/s|it/s)?)?(?![a-z])")


def _generation_meant(kb: Knowledge, name: str) -> str | None:
    """The one network of runtime.yaml a name gives by its family and line rate in words -- 'InfiniBand NDR',
    'HDR InfiniBand', 'RoCE v2 400G' -- which listed all eleven (hostile round 49); None where not exactly one."""
    text = name.lower()[:100]
    words = re.findall(r"[a-z]+[0-9]*", text)
    speed = next((_IB_GENERATIONS[w] for w in words if w in _IB_GENERATIONS), None)
    family = "infiniband" if speed is not None else next((_FAMILIES[w] for w in words if w in _FAMILIES), None)
    if speed is None and (m := _SPEED.search(text)) is not None:
        speed = float(m.group(1))
    if speed is None or family is None:
        return None
    at = [k for k, n in kb.runtime.networks.items()
          if k.startswith(family + "-") and math.isclose(n.gb_s * 8, speed, rel_tol=1e-6)]
    return at[0] if len(at) == 1 else None


def check_network(kb: Knowledge, name: str | None, where: str) -> None:
    """A network named in a requirements file or a proposal is one of runtime.yaml's (one line, a close match)."""
    if name is None or name in kb.runtime.networks:
        return
    import difflib

    meant = _generation_meant(kb, name)
    close = [meant] if meant else difflib.get_close_matches(name, list(kb.runtime.networks), n=1)
    speed = link_gbps(name) if meant is None else None
    if speed is not None:  # '400 Gbps': the networks of that line rate, read from runtime.yaml (hostile round 46)
        at = [k for k, n in kb.runtime.networks.items() if math.isclose(n.gb_s * 8, speed, rel_tol=1e-6)]
        raise UserError(N_("unknown network '%(network)s'"), where=where, values={"network": name},
                        hint=N_("the networks at %(speed)s Gb/s: %(names)s") if at else N_(
                            "no network known runs at %(speed)s Gb/s; one of %(names)s"),
                        hint_values={"speed": f"{speed:g}", "names": ", ".join(at) if at else ", ".join(
                            f"{k} ({n.gb_s * 8:g} Gb/s)" for k, n in kb.runtime.networks.items())})
    raise UserError(N_("unknown network '%(network)s'"), where=where, values={"network": name},
                    hint=N_("did you mean %(name)s?") if close else N_("one of %(names)s"),
                    hint_values={"name": close[0]} if close else {"names": ", ".join(kb.runtime.networks)})


def provider_instance(kb: Knowledge, instance: str | None, provider: str | None) -> str | None:
    """The listed id of an instance a proposal names as its provider does: ``prices import`` lists a catalog's
    instances as ``provider:instance`` (re-importing the provider's file replaces them), so ``acme-8xh100`` from
    provider ``acme`` is ``acme:acme-8xh100``; it was refused as unknown, the id offered (review63). None: the name
    is listed as given, or no provider's instance has it."""
    if not instance or not provider:
        return None
    ids = {i.id for i in kb.clouds.instances}
    full = f"{provider}:{instance}"
    return full if instance not in ids and full in ids else None


def check_instance(kb: Knowledge, instance: str | None, gpu_id: str, where: str, provider: str | None = None,
                   count: int = 0, nodes: int = 1) -> None:
    """A rental's ``acquisition.instance``: the instance decides the host RAM and cores an offloaded job is judged
    on (runtime.yaml rented_host_ram) and the listed offer priced, so one of clouds.yaml's instances must hold the
    proposal's GPU and be the named provider's, and a name close to a listed one but not listed is a misspelling
    (one line, the close match), and a listed instance must hold the GPUs the proposal puts in a node
    (``count`` over ``nodes``). Any other name is the provider's own, read as written."""
    if not instance:
        return
    listed = {i.id: i for i in kb.clouds.instances}
    known = sorted(set(listed) | set(kb.runtime.rented_host_ram.instance_gib))
    if instance in known:
        shape = listed.get(instance)
        if shape is not None and kb.gpu(shape.gpu).id != gpu_id:
            raise UserError(N_("instance %(instance)s comes with %(gpus)s x %(its)s, not %(gpu)s"), where=where,
                            hint=N_("name an instance of %(gpu)s, or leave acquisition.instance out"),
                            values={"instance": instance, "gpus": shape.gpus, "its": kb.gpus[kb.gpu(shape.gpu).id].name,
                                    "gpu": kb.gpus[gpu_id].name}, hint_values={"gpu": kb.gpus[gpu_id].name})
        if shape is not None and provider and listed_provider(kb, provider) not in (None, shape.provider):
            raise UserError(N_("instance %(instance)s is rented from %(its)s, not from %(provider)s"), where=where,
                            hint=N_("give provider %(its)s, or leave acquisition.instance out"),
                            values={"instance": instance, "its": shape.provider, "provider": provider},
                            hint_values={"its": shape.provider})
        per_node = math.ceil(count / max(nodes, 1))
        if shape is not None and per_node > shape.gpus:
            raise UserError(N_("instance %(instance)s holds %(gpus)s GPU(s), not the %(per_node)s a node the proposal "
                               "puts in it"), where=where,
                            hint=N_("give hardware.nodes: %(need)s (one instance a node), or name an instance of "
                                    "%(per_node)s GPUs"),
                            values={"instance": instance, "gpus": shape.gpus, "per_node": per_node},
                            hint_values={"need": math.ceil(count / shape.gpus), "per_node": per_node})
        return
    import difflib

    close = difflib.get_close_matches(instance, known, n=1, cutoff=0.8) or difflib.get_close_matches(
        instance.strip().lower(), [k.lower() for k in known], n=1, cutoff=0.8)
    if close:
        name = next(k for k in known if k.lower() == close[0].lower())
        raise UserError(N_("unknown instance '%(instance)s'"), where=where, values={"instance": instance},
                        hint=N_("did you mean %(name)s?"), hint_values={"name": name})


def check_instance_host_ram(kb: Knowledge, instance: str | None, host_ram_gb: float | None, where: str) -> None:
    """A proposal renting a named instance whose host RAM is known (runtime.yaml rented_host_ram instance_gib)
    cannot state more host RAM a server than the instance comes with: a p5.48xlarge (2,048 GiB) stated at 16,000
    GB turned a 405B offload's MEM-HOST-RAM-SHORT into MEM-HOST-RAM-HELD (hostile round 44). Less is read as
    written (RAM kept for something else)."""
    gib = kb.runtime.rented_host_ram.instance_gib.get(instance) if instance and host_ram_gb else None
    if not gib or host_ram_gb is None:
        return
    has = gib * 2 ** 30 / 1e9
    if host_ram_gb <= has * 1.01:  # a rounding of GiB as GB, or the figure in GiB itself, passes
        return
    raise UserError(N_("%(stated)s GB a server is more host RAM than instance %(instance)s comes with (%(gb)s GB, "
                       "%(gib)s GiB)"), where=where,
                    hint=N_("leave hardware.host_ram_gb out to take the instance's, or name an instance with more"),
                    values={"stated": f"{host_ram_gb:,.0f}", "instance": instance, "gb": f"{has:,.0f}",
                            "gib": f"{gib:,.0f}"})


def check_instance_network(kb: Knowledge, instance: str | None, network: str | None, count: int, nodes: int,
                           where: str) -> None:
    """A proposal renting several instances of a listed one (clouds.yaml ``network``, the bandwidth its provider
    states between instances) cannot state a network between them that is faster than that listing: more
    bandwidth a node (a per-GPU network counts its NICs, ``count`` over ``nodes`` of them) or less latency. 4 x
    AWS's p5.4xlarge (100 Gb/s EFA) were estimated over 8 x 400 Gb/s RoCE when the proposal said so; a slower
    network, or one instance, is read as written."""
    if not instance or not network or nodes <= 1:
        return
    shape = next((i for i in kb.clouds.instances if i.id == instance), None)
    nets = kb.runtime.networks
    if shape is None or not shape.network or shape.network == network:
        return
    said, listed = nets.get(network), nets.get(shape.network)
    if said is None or listed is None:
        return
    per_node = math.ceil(count / nodes)

    def node_gb_s(n: Any) -> float:
        return n.gb_s * (per_node if n.shared_by == "gpu" else 1)

    if node_gb_s(said) <= node_gb_s(listed) and said.latency_us >= listed.latency_us:
        return
    raise UserError(N_("instance %(instance)s is listed with %(listed)s between instances (%(listed_gb_s)s GB/s a "
                       "node, %(listed_us)s us), not the faster %(network)s (%(gb_s)s GB/s a node, %(us)s us) the "
                       "proposal states"), where=where,
                    hint=N_("give hardware.network: %(listed)s, or leave it out to take the instance's own"),
                    values={"instance": instance, "listed": shape.network, "listed_gb_s": f"{node_gb_s(listed):g}",
                            "listed_us": f"{listed.latency_us:g}", "network": network,
                            "gb_s": f"{node_gb_s(said):g}", "us": f"{said.latency_us:g}"},
                    hint_values={"listed": shape.network})


def _providers(kb: Knowledge) -> set[str]:
    known = {p.id for p in kb.clouds.providers} | {o.provider for o in kb.clouds.instances}
    return known | {o.provider for o in kb.clouds.gpu_hour_prices}


def listed_provider(kb: Knowledge, name: str | None) -> str | None:
    """The price list's own id for a provider written with other case or spaces (``Lambda`` is
    ``lambda``: offers are matched by id, so it would otherwise get none); None when none matches."""
    if not name:
        return None
    by_key = {k.lower(): k for k in _providers(kb)}
    return by_key.get(name.strip().lower())
